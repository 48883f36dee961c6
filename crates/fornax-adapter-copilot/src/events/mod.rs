//! The session-log transport: `~/.copilot/session-state/<id>/events.jsonl` (and the older
//! flat `session-state/<id>.jsonl`), one event per line: `{type, data, id, timestamp,
//! parentId}`, plus a top-level `agentId` on a subagent's events.
//!
//! | event | canonical |
//! |---|---|
//! | `session.start` | [`Session`] (+ capabilities once) |
//! | `session.resume`, `session.model_change`, `session.truncation`, `session.compaction_complete` without summary, `session.shutdown` (model metrics and usage) | `runtime.state` |
//! | `session.compaction_complete` with `summaryContent` | `runtime.compaction_summary` |
//! | `session.info`, `session.warning`, `session.error`, `system.notification`, a failed hook run | `runtime.notice` |
//! | `system.message` | `runtime.instructions` |
//! | `user.message` | `human.request` opening a loop (`human.steering` inside a running turn) |
//! | `assistant.turn_start` / `turn_end`, `abort`, `session.idle`, `session.shutdown` | the loop's progress and end |
//! | `assistant.message` | `agent.commentary` (the loop's last text: `agent.final_answer`, heuristic), `agent.reasoning`, one call per `toolRequests` entry |
//! | `assistant.reasoning` | `agent.reasoning` |
//! | `tool.execution_start` / `_complete` | `agent.tool_call[.shell]` / `agent.delegation` and `tool.output` paired by `toolCallId` (+ FileDiff for `edit`/`create`) |
//! | `subagent.started` / `completed` / `failed` | the subagent's own session (`<session>/<toolCallId>`, delegated from the call), `subagent.activity` in the parent |
//! | `hook.start` / `hook.end` | the key of the call a tool hook reported; a failed run is a notice |
//!
//! A call is published once it completes (or when reading stops first), so that a call a
//! `preToolUse`/`postToolUse` hook also reported gets the key the hook transport gives it:
//! the log mirrors each hook's input in `hook.start`.

mod calls;
mod messages;
mod session;
mod state;
mod subagents;
mod turns;

use fornax_types::kit::json::{discriminator, kind_of, text_at, u64_at};
use fornax_types::kit::{checkpoint, time::iso_from_epoch};
use fornax_types::{
    AgentAdapter, CapabilityProbe, CollectionMethod, Delegation, EvidenceStrength, IngestMessage,
    Item, Loop, LoopEnd, LoopOutcome, NativeRecord, NormalizationOutcome, Provider, ReasoningMode,
    ReasoningValue, RecordRef, Role, RuntimeCapabilities, Semantic, SemanticValue, Session,
    SessionRef, SubagentValue, Usage,
};
use serde_json::{Map, Value};

use crate::capabilities;
use crate::tools::{
    call_fingerprint, call_semantic, capped, edit_sensor, file_edit, file_lines, file_target,
    hook_call_key, output_semantic, ToolResult,
};
use crate::ADAPTER_VERSION;
use calls::call_item;
use session::truncation_text;
use state::{Call, Child, OpenLoop, State, TextItem, CHECKPOINT_FORMAT};
use subagents::child_id;
use turns::{final_answer, loop_message, usage_of};

/// Normalizes the events of one Copilot CLI session log.
#[derive(Debug, Default)]
pub struct CopilotEventsAdapter {
    st: State,
}

/// The event being normalized and the messages derived from it.
struct Ev<'a> {
    ty: &'a str,
    data: &'a Value,
    /// The event's own id, for keys of facts without a native id.
    id: String,
    at: Option<String>,
    record: &'a RecordRef,
    /// The subagent (`parentToolCallId`, or the top-level `agentId`) this event belongs to.
    agent: Option<String>,
    out: Vec<IngestMessage>,
}

enum Handled {
    Done,
    Ignored(&'static str),
    Unrecognized(String),
}

/// Event types Copilot documents or writes that carry nothing canonical.
fn ignored_reason(ty: &str) -> Option<&'static str> {
    Some(match ty {
        "session.usage_checkpoint" | "session.usage_info" => {
            "premium request, token window and cache bookkeeping"
        }
        "session.auto_mode_resolved" => "automatic model routing decision",
        "session.compaction_start" => "compaction started; its summary arrives when it completes",
        "session.mode_changed" | "session.plan_changed" | "session.remote_steerable_changed" => {
            "session mode bookkeeping"
        }
        "session.skills_loaded"
        | "session.tools_updated"
        | "session.mcp_servers_loaded"
        | "session.mcp_server_status_changed"
        | "session.extensions_loaded"
        | "session.custom_agents_updated"
        | "session.background_tasks_changed"
        | "session.workspace_file_changed"
        | "session.schedule_created"
        | "session.schedule_cancelled" => "session environment bookkeeping",
        "assistant.message_delta" | "assistant.reasoning_delta" | "assistant.streaming_delta" => {
            "streaming delta; the whole message follows"
        }
        "assistant.intent" => "intent summary shown while the agent works",
        "tool.execution_partial_result" | "tool.execution_progress" => {
            "tool progress; the result arrives when it completes"
        }
        "tool.user_requested" => "a tool the user asked for by hand; its execution follows",
        "permission.requested" | "permission.completed" => {
            "permission prompt bookkeeping; the tool's execution follows"
        }
        "subagent.selected" | "subagent.deselected" => "custom agent selection bookkeeping",
        "pending_messages.modified" => "queued message bookkeeping",
        _ => return None,
    })
}

impl CapabilityProbe for CopilotEventsAdapter {
    fn probe(&self) -> RuntimeCapabilities {
        capabilities::session_log()
    }
}

impl AgentAdapter for CopilotEventsAdapter {
    fn provider(&self) -> Provider {
        Provider::Copilot
    }

    fn adapter_version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn normalize(&mut self, hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome {
        let v = native.value;
        let Some(obj) = v.as_object() else {
            return NormalizationOutcome::Unrecognized {
                discriminator: kind_of(v).to_string(),
            };
        };
        let Some(ty) = obj.get("type").and_then(Value::as_str) else {
            return NormalizationOutcome::Unrecognized {
                discriminator: "<no type>".into(),
            };
        };
        let empty = Value::Object(Map::new());
        let data = obj.get("data").filter(|d| d.is_object()).unwrap_or(&empty);
        let agent = text_at(data, "parentToolCallId")
            .or_else(|| text_at(v, "agentId"))
            .map(str::to_string);
        let mut ev = Ev {
            ty,
            data,
            id: text_at(v, "id")
                .map(str::to_string)
                .unwrap_or_else(|| format!("@{}", native.record.position)),
            at: text_at(v, "timestamp")
                .filter(|t| t.as_bytes().first().is_some_and(u8::is_ascii_digit))
                .map(str::to_string),
            record: native.record,
            agent,
            out: Vec::new(),
        };
        if self.st.session.is_none() && ty != "session.start" {
            // A log names its session in its first event; a hint that is a bare file stem
            // (`events`) names nothing.
            if let Some(id) = usable_hint(hint) {
                self.st.session = Some(id);
            }
        }
        let handled = match ignored_reason(ty) {
            Some(reason) => {
                if ty == "session.auto_mode_resolved" {
                    if let Some(model) = text_at(data, "chosenModel") {
                        self.st.model = Some(model.to_string());
                    }
                }
                Handled::Ignored(reason)
            }
            None => self.dispatch(&mut ev),
        };
        match handled {
            Handled::Done if !ev.out.is_empty() => NormalizationOutcome::Messages(ev.out),
            Handled::Done => NormalizationOutcome::Ignored {
                reason: "event with nothing new to publish",
            },
            _ if !ev.out.is_empty() => NormalizationOutcome::Messages(ev.out),
            Handled::Ignored(reason) => NormalizationOutcome::Ignored { reason },
            Handled::Unrecognized(tag) => NormalizationOutcome::Unrecognized {
                discriminator: discriminator(&tag),
            },
        }
    }

    /// Publishes calls still running and the open loop (without an end: more may follow).
    fn finish(&mut self) -> Vec<IngestMessage> {
        let mut out = Vec::new();
        for id in self.st.calls.keys() {
            let Some(call) = self.st.calls.get_mut(&id) else {
                continue;
            };
            if call.published.is_none() {
                let key = call.key(&id);
                call.published = Some(key.clone());
                out.push(IngestMessage::Item(call_item(call, &id, key)));
            }
        }
        if let (Some(session), Some(open)) = (&self.st.session, &self.st.open) {
            out.push(IngestMessage::Loop(loop_message(
                session,
                open,
                None,
                self.st.version.clone(),
            )));
        }
        out
    }

    fn checkpoint(&self) -> Option<Value> {
        checkpoint::save(CHECKPOINT_FORMAT, &self.st)
    }

    fn resume(&mut self, snapshot: &Value) -> bool {
        match checkpoint::load::<State>(CHECKPOINT_FORMAT, snapshot) {
            Some(mut st) => {
                st.repair();
                self.st = st;
                true
            }
            None => false,
        }
    }
}

/// A file stem that can be a session id (the flat layout's `<uuid>.jsonl`).
fn usable_hint(hint: &str) -> Option<String> {
    let h = hint.trim();
    (h.len() >= 8 && h != "events" && !h.contains('/')).then(|| h.to_string())
}

impl CopilotEventsAdapter {
    fn dispatch(&mut self, ev: &mut Ev<'_>) -> Handled {
        match ev.ty {
            "session.start" => self.session_start(ev),
            "session.resume" => {
                if let Some(cwd) = ev.data.get("context").and_then(|c| text_at(c, "cwd")) {
                    self.st.cwd = Some(cwd.to_string());
                    self.republish_session(ev);
                }
                if let Some(model) = text_at(ev.data, "selectedModel") {
                    self.st.model = Some(model.to_string());
                }
                self.state_item(ev, Role::RuntimeState, "session resumed".to_string())
            }
            "session.model_change" => match text_at(ev.data, "newModel") {
                Some(model) => {
                    self.st.model = Some(model.to_string());
                    let text = format!("model changed to {model}");
                    self.state_item(ev, Role::RuntimeState, text)
                }
                None => Handled::Ignored("model change without a model"),
            },
            "session.info" | "session.warning" => match text_at(ev.data, "message") {
                Some(message) => {
                    let text = message.to_string();
                    self.state_item(ev, Role::RuntimeNotice, text)
                }
                None => Handled::Ignored("notice without a message"),
            },
            "session.error" => {
                let kind = text_at(ev.data, "errorType").unwrap_or("error");
                let message = text_at(ev.data, "message").unwrap_or("(no message)");
                self.state_item(ev, Role::RuntimeNotice, format!("{kind} error: {message}"))
            }
            "system.notification" => match text_at(ev.data, "content") {
                Some(content) => {
                    let text = content.to_string();
                    self.state_item(ev, Role::RuntimeNotice, text)
                }
                None => Handled::Ignored("notification without content"),
            },
            "system.message" => match text_at(ev.data, "content") {
                Some(content) => {
                    let text = content.to_string();
                    self.state_item(ev, Role::RuntimeInstructions, text)
                }
                None => Handled::Ignored("system message without content"),
            },
            "session.truncation" => {
                let text = truncation_text(ev.data);
                self.state_item(ev, Role::RuntimeState, text)
            }
            "session.compaction_complete" => self.compaction(ev),
            "session.title_changed" => match text_at(ev.data, "title") {
                Some(title) => {
                    let session = self.session_record(ev, Some(title.to_string()));
                    if let Some(s) = session {
                        ev.out.push(IngestMessage::Session(s));
                    }
                    Handled::Done
                }
                None => Handled::Ignored("title change without a title"),
            },
            "session.shutdown" => self.shutdown(ev),
            "session.idle" => {
                self.close_loop(ev, None);
                Handled::Ignored("the agent is idle")
            }
            "abort" => {
                let reason = text_at(ev.data, "reason").unwrap_or("no reason given");
                let handled = self.state_item(ev, Role::RuntimeState, format!("aborted: {reason}"));
                self.close_loop(ev, Some(LoopOutcome::Interrupted));
                handled
            }
            "user.message" => self.user_message(ev),
            "assistant.turn_start" => self.turn_start(ev),
            "assistant.turn_end" => {
                if let Some(open) = self.st.open.as_mut() {
                    open.turn_open = false;
                    open.last_turn_end = Some((ev.record.clone(), ev.at.clone()));
                }
                Handled::Ignored("turn end; the loop ends with the next message or the session")
            }
            "assistant.message" => self.assistant_message(ev),
            "assistant.reasoning" => {
                let text = text_at(ev.data, "content").map(str::to_string);
                let key = text_at(ev.data, "reasoningId")
                    .map(|id| format!("reason:{id}"))
                    .unwrap_or_else(|| format!("reason:{}", ev.id));
                match text {
                    Some(text) => {
                        self.reasoning(ev, key, Some(text));
                        Handled::Done
                    }
                    None => Handled::Ignored("reasoning without text"),
                }
            }
            "assistant.usage" => {
                if let Some(open) = self.st.open.as_mut() {
                    if ev.agent.is_none() {
                        open.usage.accumulate(&usage_of(ev.data));
                    }
                }
                Handled::Ignored("usage added to the open loop")
            }
            "tool.execution_start" => self.tool_start(ev),
            "tool.execution_complete" => self.tool_complete(ev),
            "hook.start" => self.hook_start(ev),
            "hook.end" => self.hook_end(ev),
            "subagent.started" => self.subagent_started(ev),
            "subagent.completed" | "subagent.failed" => self.subagent_ended(ev),
            other => Handled::Unrecognized(other.to_string()),
        }
    }
}
