//! The hook transport: one payload per Copilot CLI hook invocation, as `fornax hook copilot
//! <event>` spools it: `{"hookType": <event>, "input": <the payload Copilot sent>}`. Copilot's
//! payloads do not name their event, so the command line does; the wrapper has the shape of
//! the log's own `hook.start` mirror.
//!
//! Payloads are camelCase (`sessionId`, `timestamp` in epoch milliseconds, `cwd`); tool hooks
//! add `toolName` and `toolArgs` (a JSON-encoded string), `postToolUse` adds `toolResult`
//! (`resultType`, `textResultForLlm`), `userPromptSubmitted` adds `prompt`, `agentStop` adds
//! `stopReason` and `transcriptPath`.
//!
//! A tool hook carries no call id, so a call is keyed by the first hook that reported it
//! (its timestamp and the call's fingerprint); the session log mirrors each hook input and
//! gives the same call the same key, so the two transports witness one fact. Hooks carry no
//! agent text and no turn boundaries: this transport publishes no loops, and its items take
//! their loop from the session log when both are read.

use fornax_types::kit::json::{discriminator, kind_of, text_at};
use fornax_types::kit::{checkpoint, time::iso_from_epoch, BoundedMap};
use fornax_types::{
    AgentAdapter, CapabilityProbe, EvidenceStrength, IngestMessage, Item, NativeRecord,
    NormalizationOutcome, Provider, RecordRef, Role, RuntimeCapabilities, Semantic, SemanticValue,
    Session, SessionRef,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::capabilities;
use crate::tools::{
    call_fingerprint, call_semantic, capped, hook_call_key, output_semantic, ToolResult,
};
use crate::ADAPTER_VERSION;

const CHECKPOINT_FORMAT: u32 = 1;
const TABLE_CAP: usize = 4096;

/// The hook events Copilot CLI documents.
const EVENTS: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "userPromptSubmitted",
    "preToolUse",
    "postToolUse",
    "errorOccurred",
    "notification",
    "agentStop",
    "subagentStop",
    "preCompact",
];

/// Normalizes spooled Copilot CLI hook payloads.
#[derive(Debug)]
pub struct CopilotHookAdapter {
    st: HookState,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct HookState {
    /// Sessions already published.
    announced: BoundedMap<()>,
    /// Keys of calls a `preToolUse` reported and no `postToolUse` answered yet, oldest
    /// first, by session and call fingerprint.
    pending: BoundedMap<Vec<String>>,
}

impl Default for CopilotHookAdapter {
    fn default() -> Self {
        CopilotHookAdapter {
            st: HookState {
                announced: BoundedMap::new(TABLE_CAP),
                pending: BoundedMap::new(TABLE_CAP),
            },
        }
    }
}

/// Whether `v` is a spooled Copilot hook payload: a known event and its input object.
pub fn is_copilot_hook(v: &Value) -> bool {
    text_at(v, "hookType").is_some_and(|t| EVENTS.contains(&t))
        && v.get("input").is_some_and(Value::is_object)
        && v.as_object().is_some_and(|o| o.len() == 2)
}

impl CapabilityProbe for CopilotHookAdapter {
    fn probe(&self) -> RuntimeCapabilities {
        capabilities::hooks()
    }
}

/// One payload in context.
struct Hook<'a> {
    input: &'a Value,
    session: SessionRef,
    record: &'a RecordRef,
    /// The payload's timestamp as written (a number of milliseconds).
    ts: &'a Value,
    at: Option<String>,
}

impl Hook<'_> {
    fn item(&self, key: String, semantic: Semantic) -> IngestMessage {
        IngestMessage::Item(Item {
            session: self.session.clone(),
            key,
            loop_position: None,
            at: self.at.clone(),
            semantic,
            records: vec![self.record.clone()],
        })
    }

    fn text(&self, key: String, role: Role, text: &str) -> IngestMessage {
        self.item(
            key,
            Semantic::new(
                role,
                SemanticValue::Text(capped(text)),
                EvidenceStrength::Structural,
            ),
        )
    }

    fn event_key(&self, event: &str) -> String {
        format!("hook:{}:{event}", ts_text(self.ts))
    }
}

fn ts_text(ts: &Value) -> String {
    match ts {
        Value::String(s) => s.clone(),
        Value::Null => "?".to_string(),
        other => other.to_string(),
    }
}

impl AgentAdapter for CopilotHookAdapter {
    fn provider(&self) -> Provider {
        Provider::Copilot
    }

    fn adapter_version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn normalize(&mut self, _hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome {
        let v = native.value;
        if !v.is_object() {
            return NormalizationOutcome::Unrecognized {
                discriminator: kind_of(v).to_string(),
            };
        }
        let Some(event) = text_at(v, "hookType") else {
            return NormalizationOutcome::Unrecognized {
                discriminator: "<no hookType>".into(),
            };
        };
        if !EVENTS.contains(&event) {
            return NormalizationOutcome::Unrecognized {
                discriminator: discriminator(event),
            };
        }
        let Some(input) = v.get("input").filter(|i| i.is_object()) else {
            return NormalizationOutcome::Ignored {
                reason: "hook payload without an input object",
            };
        };
        let Some(session_id) = text_at(input, "sessionId") else {
            return NormalizationOutcome::Ignored {
                reason: "hook payload without a session id",
            };
        };
        let ts = input.get("timestamp").unwrap_or(&Value::Null);
        let hook = Hook {
            input,
            session: SessionRef::new(Provider::Copilot, session_id),
            record: native.record,
            ts,
            at: iso_from_epoch(ts).or_else(|| text_at(input, "timestamp").map(str::to_string)),
        };
        let mut out = Vec::new();
        if self.st.announced.insert_new(session_id, ()) {
            out.push(IngestMessage::Session(Session {
                id: hook.session.clone(),
                identity_record: native.record.clone(),
                cwd: text_at(input, "cwd").map(str::to_string),
                name: None,
                created_at: None,
                forked_from: None,
                delegated_from: None,
                runtime_version: None,
            }));
            out.push(IngestMessage::Capabilities(
                capabilities::hooks().stamped(session_id, ADAPTER_VERSION),
            ));
        }
        self.on_event(event, &hook, &mut out);
        NormalizationOutcome::Messages(out)
    }

    fn checkpoint(&self) -> Option<Value> {
        checkpoint::save(CHECKPOINT_FORMAT, &self.st)
    }

    fn resume(&mut self, snapshot: &Value) -> bool {
        match checkpoint::load::<HookState>(CHECKPOINT_FORMAT, snapshot) {
            Some(mut st) => {
                st.announced.repair(TABLE_CAP);
                st.pending.repair(TABLE_CAP);
                self.st = st;
                true
            }
            None => false,
        }
    }
}

impl CopilotHookAdapter {
    fn on_event(&mut self, event: &str, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        let p = hook.input;
        match event {
            "sessionStart" => {
                let source = text_at(p, "source").unwrap_or("unknown source");
                let text = format!("session started ({source})");
                out.push(hook.text(hook.event_key(event), Role::RuntimeState, &text));
                if let Some(prompt) = text_at(p, "initialPrompt") {
                    out.push(self.prompt(hook, "initial-prompt", prompt));
                }
            }
            "sessionEnd" => {
                let reason = text_at(p, "reason").unwrap_or("unknown reason");
                let text = format!("session ended ({reason})");
                out.push(hook.text(hook.event_key(event), Role::RuntimeState, &text));
            }
            "userPromptSubmitted" => {
                if let Some(prompt) = text_at(p, "prompt") {
                    out.push(self.prompt(hook, "prompt", prompt));
                }
            }
            "preToolUse" => {
                if let Some((tool, args, key)) = self.tool_key(hook, true) {
                    out.push(hook.item(key, call_semantic(tool, &args, None)));
                }
            }
            "postToolUse" => self.post_tool(hook, out),
            "errorOccurred" => {
                let error = p.get("error");
                let message = error
                    .and_then(|e| text_at(e, "message").or_else(|| e.as_str()))
                    .unwrap_or("no message");
                let name = error.and_then(|e| text_at(e, "name")).unwrap_or("error");
                let text = format!("{name}: {message}");
                out.push(hook.text(hook.event_key(event), Role::RuntimeNotice, &text));
            }
            "notification" => {
                let message = text_at(p, "message")
                    .or_else(|| text_at(p, "title"))
                    .unwrap_or("notification");
                out.push(hook.text(hook.event_key(event), Role::RuntimeNotice, message));
            }
            "agentStop" | "subagentStop" => {
                let reason = text_at(p, "stopReason").unwrap_or("no reason given");
                let who = if event == "agentStop" {
                    "agent"
                } else {
                    "subagent"
                };
                let text = format!("{who} stopped ({reason})");
                out.push(hook.text(hook.event_key(event), Role::RuntimeState, &text));
            }
            _ => {
                // preCompact
                let trigger = text_at(p, "trigger").unwrap_or("unknown trigger");
                let text = format!("compaction requested ({trigger})");
                out.push(hook.text(hook.event_key(event), Role::RuntimeState, &text));
            }
        }
    }

    /// A prompt from a hook: the human's, but whether it opened a loop or steered one is not
    /// said, so it is a heuristic request outside any loop.
    fn prompt(&self, hook: &Hook<'_>, what: &str, prompt: &str) -> IngestMessage {
        hook.item(
            hook.event_key(what),
            Semantic::new(
                Role::HumanRequest,
                SemanticValue::Text(capped(prompt)),
                EvidenceStrength::Heuristic,
            ),
        )
    }

    /// The tool, arguments and key of a tool hook. A `preToolUse` opens a key that the
    /// matching `postToolUse` reuses; a `postToolUse` without one keys the call itself.
    fn tool_key<'h>(&mut self, hook: &Hook<'h>, pre: bool) -> Option<(&'h str, Value, String)> {
        let tool = text_at(hook.input, "toolName")?;
        let args = hook.input.get("toolArgs").cloned().unwrap_or(Value::Null);
        let slot = format!(
            "{}|{:016x}",
            hook.session.native_id,
            call_fingerprint(tool, &args)
        );
        if pre {
            let key = hook_call_key(hook.ts, tool, &args);
            self.st
                .pending
                .get_or_insert_with(&slot, Vec::new)
                .push(key.clone());
            return Some((tool, args, key));
        }
        let reused = self.st.pending.get_mut(&slot).and_then(|keys| {
            if keys.is_empty() {
                None
            } else {
                Some(keys.remove(0))
            }
        });
        if self.st.pending.get(&slot).is_some_and(Vec::is_empty) {
            self.st.pending.remove(&slot);
        }
        let key = reused.unwrap_or_else(|| hook_call_key(hook.ts, tool, &args));
        Some((tool, args, key))
    }

    fn post_tool(&mut self, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        let Some((tool, args, key)) = self.tool_key(hook, false) else {
            return;
        };
        out.push(hook.item(key.clone(), call_semantic(tool, &args, None)));
        let result = hook.input.get("toolResult");
        let text = result.and_then(|r| {
            text_at(r, "textResultForLlm")
                .or_else(|| text_at(r, "content"))
                .or_else(|| r.as_str())
        });
        let failed = result
            .and_then(|r| text_at(r, "resultType"))
            .is_some_and(|t| t != "success");
        let semantic = output_semantic(&ToolResult {
            tool: Some(tool),
            call_id: None,
            text,
            failed,
            duration_ms: None,
        });
        out.push(hook.item(format!("{key}:out"), semantic));
    }
}
