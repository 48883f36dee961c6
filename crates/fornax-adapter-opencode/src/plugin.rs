//! The live transport: NDJSON lines `{"hook", "at", "payload"}` written by `plugin/fornax.js`
//! from inside opencode.
//!
//! `payload` is `{"input", "output"}` (the two arguments opencode passes) for `chat.message`,
//! `tool.execute.before` and `tool.execute.after`, and `{"event": {"type", "properties"}}` for
//! the `event` hook. One adapter lives as long as the plugin's child process and sees every
//! session of that opencode process.

use fornax_types::{
    AgentAdapter, CapabilityProbe, IngestMessage, NativeRecord, NormalizationOutcome, Provider,
    RuntimeCapabilities,
};
use serde_json::{json, Value};

use crate::json::{at, raw_str_at, short, str_at, type_name};
use crate::outcome::{outcome, CHECKPOINT_VERSION};
use crate::tracker::{Call, Ctx, Handled, Tracker, Transport};
use crate::ADAPTER_VERSION;

/// Most parts read from one `chat.message` call.
const MAX_PARTS_PER_MESSAGE: usize = 256;

/// Hooks opencode offers that carry no canonical signal (the plugin does not forward them, but
/// a newer plugin might).
const UNMAPPED_HOOKS: &[&str] = &[
    "config",
    "auth",
    "tool",
    "chat.params",
    "chat.headers",
    "permission.ask",
    "command.execute.before",
    "shell.env",
    "tool.definition",
    "experimental.chat.messages.transform",
    "experimental.chat.system.transform",
    "experimental.session.compacting",
    "experimental.text.complete",
];

/// Bus event families with no canonical signal.
const UNMAPPED_EVENT_FAMILIES: &[&str] = &[
    "permission.",
    "file.",
    "lsp.",
    "tui.",
    "server.",
    "installation.",
    "todo.",
    "command.",
    "ide.",
    "vcs.",
    "project.",
    "pty.",
    "mcp.",
    "question.",
];

/// Translates the plugin stream of one opencode process. Stateful: remembers sessions, message
/// roles, text parts and call pairings (all bounded).
#[derive(Debug, Clone)]
pub struct OpencodePluginAdapter {
    tracker: Tracker,
}

impl Default for OpencodePluginAdapter {
    fn default() -> Self {
        OpencodePluginAdapter {
            tracker: Tracker::new(Transport::Plugin),
        }
    }
}

impl CapabilityProbe for OpencodePluginAdapter {
    fn probe(&self) -> RuntimeCapabilities {
        crate::capabilities::plugin()
    }
}

impl AgentAdapter for OpencodePluginAdapter {
    fn provider(&self) -> Provider {
        Provider::Opencode
    }

    fn adapter_version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn normalize(&mut self, session_hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome {
        let line = native.value;
        if !line.is_object() {
            return NormalizationOutcome::Unrecognized {
                discriminator: type_name(line).to_string(),
            };
        }
        let Some(hook) = str_at(line, &["hook"]) else {
            let tag = str_at(line, &["type"]).map(|t| short(t, 64));
            return NormalizationOutcome::Unrecognized {
                discriminator: tag.unwrap_or_else(|| "object without hook".to_string()),
            };
        };
        let observed_at = str_at(line, &["at"]);
        let null = Value::Null;
        let payload = at(line, &["payload"]).unwrap_or(&null);
        let mut out = Vec::new();
        let handled = match hook {
            "event" => self.event(session_hint, payload, native, observed_at, &mut out),
            "chat.message" => {
                let ctx = Ctx {
                    record: native.record,
                    observed_at,
                    discriminator: hook,
                };
                self.chat_message(session_hint, payload, &ctx, &mut out)
            }
            "tool.execute.before" | "tool.execute.after" => {
                let ctx = Ctx {
                    record: native.record,
                    observed_at,
                    discriminator: hook,
                };
                self.tool_hook(
                    session_hint,
                    hook == "tool.execute.after",
                    payload,
                    &ctx,
                    &mut out,
                )
            }
            h if UNMAPPED_HOOKS.contains(&h) => Handled::Ignored("hook without a canonical signal"),
            other => Handled::Unknown(short(other, 64)),
        };
        outcome(handled, out)
    }

    fn finish(&mut self) -> Vec<IngestMessage> {
        self.tracker.finish()
    }

    fn checkpoint(&self) -> Option<Value> {
        let tracker = serde_json::to_value(&self.tracker).ok()?;
        Some(json!({"v": CHECKPOINT_VERSION, "transport": "plugin", "tracker": tracker}))
    }

    fn resume(&mut self, state: &Value) -> bool {
        if at(state, &["v"]).and_then(Value::as_u64) != Some(CHECKPOINT_VERSION)
            || str_at(state, &["transport"]) != Some("plugin")
        {
            return false;
        }
        let Some(tracker) = at(state, &["tracker"]) else {
            return false;
        };
        match Tracker::deserialize_for(tracker, Transport::Plugin) {
            Some(t) => {
                self.tracker = t;
                true
            }
            None => false,
        }
    }
}

impl OpencodePluginAdapter {
    fn event(
        &mut self,
        hint: &str,
        payload: &Value,
        native: &NativeRecord<'_>,
        observed_at: Option<&str>,
        out: &mut Vec<IngestMessage>,
    ) -> Handled {
        let null = Value::Null;
        let event = at(payload, &["event"]).unwrap_or(&null);
        let Some(kind) = str_at(event, &["type"]) else {
            return Handled::Unknown("event".to_string());
        };
        let props = at(event, &["properties"]).unwrap_or(&null);
        let ctx = Ctx {
            record: native.record,
            observed_at,
            discriminator: kind,
        };
        let t = &mut self.tracker;
        match kind {
            "session.created" | "session.updated" => match at(props, &["info"]) {
                Some(info) => t.session_document(info, &ctx, out),
                None => Handled::Ignored("session event without info"),
            },
            "session.idle" => {
                let sid = t.resolve_session(str_at(props, &["sessionID"]), hint);
                t.idle(&sid, &ctx, out);
                Handled::Done
            }
            "session.status" => {
                if str_at(props, &["status", "type"]) != Some("idle") {
                    return Handled::Ignored("busy or retry status");
                }
                let sid = t.resolve_session(str_at(props, &["sessionID"]), hint);
                t.idle(&sid, &ctx, out);
                Handled::Done
            }
            "session.error" => {
                let Some(sid) = str_at(props, &["sessionID"]) else {
                    return Handled::Ignored("error outside a session");
                };
                t.session_error(sid, at(props, &["error"]).unwrap_or(&null), &ctx, out);
                Handled::Done
            }
            "message.updated" => {
                let info = at(props, &["info"]).unwrap_or(&null);
                let sid = t.resolve_session(str_at(info, &["sessionID"]), hint);
                t.message(&sid, info, &ctx, out)
            }
            "message.part.updated" => {
                let part = at(props, &["part"]).unwrap_or(&null);
                let sid = t.resolve_session(str_at(part, &["sessionID"]), hint);
                // A `delta` marks one streamed chunk; the part's last update (with time.end)
                // carries the whole text.
                let streaming =
                    raw_str_at(props, &["delta"]).is_some() && at(part, &["time", "end"]).is_none();
                t.part(&sid, part, streaming, &ctx, out)
            }
            "message.part.delta" => {
                let sid = t.resolve_session(str_at(props, &["sessionID"]), hint);
                t.part_delta(&sid, props)
            }
            "message.removed" | "message.part.removed" => {
                Handled::Ignored("removal after a revert; published items stand")
            }
            "session.deleted" => Handled::Ignored("session deleted"),
            "session.compacted" => {
                Handled::Ignored("compaction notice; the summary arrives as a message")
            }
            "session.diff" => {
                Handled::Ignored("session diff summary; per-call file changes come from tool calls")
            }
            k if UNMAPPED_EVENT_FAMILIES.iter().any(|f| k.starts_with(f)) => {
                Handled::Ignored("event without a canonical signal")
            }
            other => Handled::Unknown(short(other, 64)),
        }
    }

    /// `chat.message(input {sessionID, messageID, agent, model}, output {message, parts})`: a
    /// user message about to be stored.
    fn chat_message(
        &mut self,
        hint: &str,
        payload: &Value,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) -> Handled {
        let null = Value::Null;
        let input = at(payload, &["input"]).unwrap_or(&null);
        let message = at(payload, &["output", "message"]).filter(|m| m.is_object());
        let sid = self.tracker.resolve_session(
            str_at(input, &["sessionID"])
                .or_else(|| message.and_then(|m| str_at(m, &["sessionID"]))),
            hint,
        );
        let Some(msg_id) = message
            .and_then(|m| str_at(m, &["id"]))
            .or_else(|| str_at(input, &["messageID"]))
        else {
            return Handled::Ignored("chat.message without a message id");
        };
        let msg_id = msg_id.to_string();
        self.tracker.user_message(&sid, &msg_id, message, ctx, out);
        let parts = at(payload, &["output", "parts"]).and_then(Value::as_array);
        for part in parts.into_iter().flatten().take(MAX_PARTS_PER_MESSAGE) {
            if str_at(part, &["messageID"]).is_some() {
                self.tracker.part(&sid, part, false, ctx, out);
            } else if part.is_object() {
                let mut part = part.clone();
                part["messageID"] = Value::String(msg_id.clone());
                self.tracker.part(&sid, &part, false, ctx, out);
            }
        }
        Handled::Done
    }

    /// `tool.execute.before(input {tool, sessionID, callID}, output {args})` and
    /// `tool.execute.after(input {tool, sessionID, callID, args?},
    /// output {title, output, metadata})`.
    fn tool_hook(
        &mut self,
        hint: &str,
        after: bool,
        payload: &Value,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) -> Handled {
        let null = Value::Null;
        let input = at(payload, &["input"]).unwrap_or(&null);
        let output = at(payload, &["output"]).unwrap_or(&null);
        let Some(call_id) = str_at(input, &["callID"]) else {
            return Handled::Ignored("tool hook without a call id");
        };
        let call = Call {
            tool: str_at(input, &["tool"]).unwrap_or("unknown"),
            id: call_id,
        };
        let sid = self
            .tracker
            .resolve_session(str_at(input, &["sessionID"]), hint);
        if after {
            let args = at(input, &["args"]);
            self.tracker.tool_after(&sid, call, args, output, ctx, out);
        } else {
            let args = at(output, &["args"]).unwrap_or(&null);
            self.tracker.tool_before(&sid, call, args, ctx, out);
        }
        Handled::Done
    }
}
