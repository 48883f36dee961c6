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

mod state;

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
use state::{Call, Child, OpenLoop, State, TextItem, CHECKPOINT_FORMAT};

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

fn loop_message(
    session: &str,
    open: &OpenLoop,
    end: Option<LoopEnd>,
    version: Option<String>,
) -> Loop {
    Loop {
        session: SessionRef::new(Provider::Copilot, session),
        position: open.position,
        native_id: open.native_id.clone(),
        start_record: open.start.clone(),
        started_at: open.started_at.clone(),
        end,
        model: open.model.clone(),
        usage: open.total_usage(),
        runtime_version: version,
    }
}

fn call_item(call: &Call, call_id: &str, key: String) -> Item {
    Item {
        session: SessionRef::new(Provider::Copilot, call.session.clone()),
        key,
        loop_position: call.loop_position,
        at: call.at.clone(),
        semantic: tool_call_semantic(call, call_id),
        records: call.records.clone(),
    }
}

/// `task` starts a subagent: its call is a delegation.
fn tool_call_semantic(call: &Call, call_id: &str) -> Semantic {
    if call.tool == "task" {
        return Semantic::new(
            Role::AgentDelegation,
            SemanticValue::Delegation(Delegation {
                parent_native_id: call.session.clone(),
                call_id: Some(call_id.to_string()),
                agent_id: None,
                agent_type: text_at(&call.args, "agent_type").map(str::to_string),
            }),
            EvidenceStrength::Structural,
        );
    }
    call_semantic(&call.tool, &call.args, Some(call_id))
}

/// The outcome a loop has when the next prompt or the session's end closes it: interrupted
/// when a turn was still running, else completed (with or without turn events: builds before
/// 1.0 write none).
fn closed_outcome(open: &OpenLoop) -> LoopOutcome {
    if open.turn_open || (open.last_turn_end.is_none() && open.last_activity.is_none()) {
        LoopOutcome::Interrupted
    } else {
        LoopOutcome::Completed
    }
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

    // ---- sessions -----------------------------------------------------------------------

    fn session_start(&mut self, ev: &mut Ev<'_>) -> Handled {
        let Some(id) = text_at(ev.data, "sessionId") else {
            return Handled::Ignored("session start without a session id");
        };
        if self.st.session.as_deref().is_some_and(|known| known != id) {
            return Handled::Ignored("a second session start naming another session");
        }
        self.st.session = Some(id.to_string());
        self.st.cwd = ev
            .data
            .get("context")
            .and_then(|c| text_at(c, "cwd"))
            .map(str::to_string);
        self.st.version = text_at(ev.data, "copilotVersion").map(str::to_string);
        if let Some(model) = text_at(ev.data, "selectedModel") {
            self.st.model = Some(model.to_string());
        }
        if let Some(s) = self.session_record(ev, None) {
            ev.out.push(IngestMessage::Session(s));
        }
        self.announce(id.to_string(), ev);
        Handled::Done
    }

    fn session_record(&self, ev: &Ev<'_>, name: Option<String>) -> Option<Session> {
        let id = self.st.session.clone()?;
        Some(Session {
            id: SessionRef::new(Provider::Copilot, id),
            identity_record: ev.record.clone(),
            cwd: self.st.cwd.clone(),
            name,
            created_at: text_at(ev.data, "startTime")
                .map(str::to_string)
                .or_else(|| ev.at.clone()),
            forked_from: None,
            delegated_from: None,
            runtime_version: self.st.version.clone(),
        })
    }

    fn republish_session(&mut self, ev: &mut Ev<'_>) {
        if let Some(s) = self.session_record(ev, None) {
            ev.out.push(IngestMessage::Session(Session {
                created_at: None,
                ..s
            }));
        }
    }

    /// Capabilities of a session, once.
    fn announce(&mut self, native_id: String, ev: &mut Ev<'_>) {
        if self.st.announced.insert_new(&native_id, ()) {
            ev.out.push(IngestMessage::Capabilities(
                capabilities::session_log().stamped(&native_id, ADAPTER_VERSION),
            ));
        }
    }

    /// The session an event's facts go to: a subagent's, or the main one.
    fn session_of(&self, ev: &Ev<'_>) -> Option<String> {
        match &ev.agent {
            Some(agent) => Some(
                self.st
                    .children
                    .get(agent)
                    .map(|c| c.native_id.clone())
                    .unwrap_or_else(|| child_id(self.st.session.as_deref(), agent)),
            ),
            None => self.st.session.clone(),
        }
    }

    fn loop_position(&self, ev: &Ev<'_>) -> Option<u32> {
        if ev.agent.is_some() {
            return None;
        }
        self.st.open.as_ref().map(|o| o.position)
    }

    fn item(&self, ev: &Ev<'_>, session: &str, key: String, semantic: Semantic) -> Item {
        Item {
            session: SessionRef::new(Provider::Copilot, session),
            key,
            loop_position: self.loop_position(ev),
            at: ev.at.clone(),
            semantic,
            records: vec![ev.record.clone()],
        }
    }

    /// A runtime text item keyed by the event id.
    fn state_item(&mut self, ev: &mut Ev<'_>, role: Role, text: String) -> Handled {
        let Some(session) = self.session_of(ev) else {
            return Handled::Ignored("event before the session is known");
        };
        let semantic = Semantic::new(
            role,
            SemanticValue::Text(capped(&text)),
            EvidenceStrength::Structural,
        );
        let item = self.item(ev, &session, format!("event:{}", ev.id), semantic);
        ev.out.push(IngestMessage::Item(item));
        Handled::Done
    }

    fn compaction(&mut self, ev: &mut Ev<'_>) -> Handled {
        if let Some(summary) = text_at(ev.data, "summaryContent") {
            let text = summary.to_string();
            return self.state_item(ev, Role::RuntimeCompactionSummary, text);
        }
        let mut text = match ev.data.get("success").and_then(Value::as_bool) {
            Some(false) => format!(
                "context compaction failed: {}",
                text_at(ev.data, "error").unwrap_or("no reason given")
            ),
            _ => "context compacted".to_string(),
        };
        if let Some(n) = u64_at(ev.data, "tokensRemoved") {
            text.push_str(&format!(" ({n} tokens removed)"));
        }
        self.state_item(ev, Role::RuntimeState, text)
    }

    fn shutdown(&mut self, ev: &mut Ev<'_>) -> Handled {
        self.close_loop(ev, None);
        let text = shutdown_text(ev.data);
        self.state_item(ev, Role::RuntimeState, text)
    }

    // ---- loops --------------------------------------------------------------------------

    fn open_loop(&mut self, ev: &Ev<'_>) -> Option<u32> {
        self.st.session.as_ref()?;
        let position = self.st.next_loop;
        self.st.next_loop = self.st.next_loop.saturating_add(1);
        let open = OpenLoop {
            position,
            native_id: text_at(ev.data, "interactionId").map(str::to_string),
            start: ev.record.clone(),
            started_at: ev.at.clone(),
            model: text_at(ev.data, "model")
                .map(str::to_string)
                .or_else(|| self.st.model.clone()),
            message_output: None,
            usage: Usage::default(),
            turn_open: false,
            last_turn_end: None,
            last_activity: None,
            last_text: None,
        };
        self.st.open = Some(open);
        Some(position)
    }

    /// Ends the open loop: with `outcome`, or, when `None`, completed if its last turn
    /// ended. Its last text becomes the final answer when the loop completed.
    fn close_loop(&mut self, ev: &mut Ev<'_>, outcome: Option<LoopOutcome>) {
        let (Some(session), Some(open)) = (self.st.session.clone(), self.st.open.take()) else {
            return;
        };
        let outcome = outcome.unwrap_or_else(|| closed_outcome(&open));
        let last = open.last_turn_end.as_ref().or(open.last_activity.as_ref());
        let (record, at) = match (last, outcome) {
            (Some((record, at)), LoopOutcome::Completed) => (record.clone(), at.clone()),
            _ => (ev.record.clone(), ev.at.clone()),
        };
        if outcome == LoopOutcome::Completed {
            if let Some(text) = &open.last_text {
                ev.out.push(IngestMessage::Item(final_answer(text)));
            }
        }
        let end = LoopEnd {
            record,
            outcome,
            ended_at: at,
        };
        ev.out.push(IngestMessage::Loop(loop_message(
            &session,
            &open,
            Some(end),
            self.st.version.clone(),
        )));
    }

    fn user_message(&mut self, ev: &mut Ev<'_>) -> Handled {
        let Some(text) = text_at(ev.data, "content").map(str::to_string) else {
            return Handled::Ignored("user message without content");
        };
        if self.st.session.is_none() {
            return Handled::Ignored("event before the session is known");
        }
        let steering = self.st.open.as_ref().is_some_and(|o| o.turn_open);
        let role = if steering {
            Role::HumanSteering
        } else {
            if self.st.open.is_some() {
                self.close_loop(ev, None);
            }
            self.open_loop(ev);
            if let (Some(session), Some(open)) = (&self.st.session, &self.st.open) {
                ev.out.push(IngestMessage::Loop(loop_message(
                    session,
                    open,
                    None,
                    self.st.version.clone(),
                )));
            }
            Role::HumanRequest
        };
        let session = self.st.session.clone().unwrap_or_default();
        let semantic = Semantic::new(
            role,
            SemanticValue::Text(capped(&text)),
            EvidenceStrength::Structural,
        );
        let item = self.item(ev, &session, format!("prompt:{}", ev.id), semantic);
        ev.out.push(IngestMessage::Item(item));
        Handled::Done
    }

    fn turn_start(&mut self, ev: &mut Ev<'_>) -> Handled {
        if ev.agent.is_some() {
            return Handled::Ignored("a subagent's turn");
        }
        if self.st.open.is_none() {
            // A turn without a prompt of its own (a resumed or scripted session).
            if self.open_loop(ev).is_none() {
                return Handled::Ignored("event before the session is known");
            }
            if let (Some(session), Some(open)) = (&self.st.session, &self.st.open) {
                ev.out.push(IngestMessage::Loop(loop_message(
                    session,
                    open,
                    None,
                    self.st.version.clone(),
                )));
            }
        }
        if let Some(open) = self.st.open.as_mut() {
            open.turn_open = true;
            if let Some(model) = text_at(ev.data, "model") {
                open.model = Some(model.to_string());
            }
        }
        Handled::Ignored("turn start inside the open loop")
    }

    // ---- agent output -------------------------------------------------------------------

    fn assistant_message(&mut self, ev: &mut Ev<'_>) -> Handled {
        let Some(session) = self.session_of(ev) else {
            return Handled::Ignored("event before the session is known");
        };
        let message = text_at(ev.data, "messageId")
            .map(str::to_string)
            .unwrap_or_else(|| ev.id.clone());
        let requests: Vec<&Value> = ev
            .data
            .get("toolRequests")
            .and_then(Value::as_array)
            .map(|r| r.iter().collect())
            .unwrap_or_default();
        if let Some(reasoning) = text_at(ev.data, "reasoningText") {
            let text = reasoning.to_string();
            self.reasoning(ev, format!("reason:{message}"), Some(text));
        } else if text_at(ev.data, "reasoningOpaque").is_some()
            || text_at(ev.data, "encryptedContent").is_some()
        {
            self.reasoning(ev, format!("reason:{message}"), None);
        }
        if ev.agent.is_none() {
            if let Some(open) = self.st.open.as_mut() {
                open.last_activity = Some((ev.record.clone(), ev.at.clone()));
                if let Some(n) = u64_at(ev.data, "outputTokens") {
                    open.message_output = Some(open.message_output.unwrap_or(0).saturating_add(n));
                }
            }
        }
        let text = text_at(ev.data, "content").map(str::to_string);
        if let Some(text) = &text {
            let key = match u64_at(ev.data, "chunkIndex") {
                Some(chunk) => format!("msg:{message}:{chunk}"),
                None => format!("msg:{message}"),
            };
            let semantic = Semantic::new(
                Role::AgentCommentary,
                SemanticValue::Text(capped(text)),
                EvidenceStrength::Structural,
            );
            let item = self.item(ev, &session, key.clone(), semantic);
            let kept = TextItem {
                session: session.clone(),
                key,
                text: capped(text),
                loop_position: item.loop_position,
                at: item.at.clone(),
                records: item.records.clone(),
            };
            ev.out.push(IngestMessage::Item(item));
            self.remember_text(ev, requests.is_empty().then_some(kept));
        } else if !requests.is_empty() {
            self.remember_text(ev, None);
        }
        for request in requests {
            let (Some(call_id), Some(tool)) =
                (text_at(request, "toolCallId"), text_at(request, "name"))
            else {
                continue;
            };
            let args = request.get("arguments").cloned().unwrap_or(Value::Null);
            self.note_call(ev, &session, call_id, tool, &args);
        }
        if ev.out.is_empty() {
            return Handled::Ignored(
                "message with tool requests only; each call is published with its result",
            );
        }
        Handled::Done
    }

    /// Keeps (or forgets) the text that would be the final answer of the loop or subagent.
    fn remember_text(&mut self, ev: &Ev<'_>, text: Option<TextItem>) {
        match &ev.agent {
            Some(agent) => {
                if let Some(child) = self.st.children.get_mut(agent) {
                    child.last_text = text;
                }
            }
            None => {
                if let Some(open) = self.st.open.as_mut() {
                    open.last_text = text;
                }
            }
        }
    }

    fn reasoning(&mut self, ev: &mut Ev<'_>, key: String, text: Option<String>) {
        let Some(session) = self.session_of(ev) else {
            return;
        };
        let value = match text {
            Some(t) => ReasoningValue {
                mode: ReasoningMode::Full,
                text: Some(capped(&t)),
            },
            None => ReasoningValue {
                mode: ReasoningMode::Unavailable,
                text: None,
            },
        };
        let semantic = Semantic::new(
            Role::AgentReasoning,
            SemanticValue::Reasoning(value),
            EvidenceStrength::Structural,
        );
        let item = self.item(ev, &session, key, semantic);
        ev.out.push(IngestMessage::Item(item));
    }

    // ---- tools --------------------------------------------------------------------------

    fn note_call(&mut self, ev: &Ev<'_>, session: &str, call_id: &str, tool: &str, args: &Value) {
        if let Some(call) = self.st.calls.get_mut(call_id) {
            call.records.push(ev.record.clone());
            call.records.dedup();
            if call.args.is_null() && !args.is_null() {
                call.args = crate::tools::arguments(args);
            }
            return;
        }
        let call = Call {
            tool: tool.to_string(),
            args: crate::tools::arguments(args),
            session: session.to_string(),
            loop_position: self.loop_position(ev),
            at: ev.at.clone(),
            records: vec![ev.record.clone()],
            hook_key: None,
            published: None,
        };
        self.st.calls.insert(call_id.to_string(), call);
    }

    fn tool_start(&mut self, ev: &mut Ev<'_>) -> Handled {
        let (Some(call_id), Some(tool)) =
            (text_at(ev.data, "toolCallId"), text_at(ev.data, "toolName"))
        else {
            return Handled::Ignored("tool start without a call id or tool name");
        };
        let Some(session) = self.session_of(ev) else {
            return Handled::Ignored("event before the session is known");
        };
        let args = ev.data.get("arguments").cloned().unwrap_or(Value::Null);
        let (call_id, tool) = (call_id.to_string(), tool.to_string());
        self.note_call(ev, &session, &call_id, &tool, &args);
        Handled::Ignored("tool start; the call is published with its result")
    }

    fn tool_complete(&mut self, ev: &mut Ev<'_>) -> Handled {
        let Some(call_id) = text_at(ev.data, "toolCallId").map(str::to_string) else {
            return Handled::Ignored("tool result without a call id");
        };
        let Some(session) = self.session_of(ev) else {
            return Handled::Ignored("event before the session is known");
        };
        let call = self.st.calls.remove(&call_id);
        if ev.agent.is_none() {
            if let Some(open) = self.st.open.as_mut() {
                open.last_activity = Some((ev.record.clone(), ev.at.clone()));
            }
        }
        let result = ev.data.get("result");
        let error = ev.data.get("error");
        let text = result
            .and_then(|r| text_at(r, "content"))
            .or_else(|| error.and_then(|e| text_at(e, "message").or_else(|| e.as_str())));
        let failed = ev.data.get("success").and_then(Value::as_bool) == Some(false);
        let duration_ms = ev
            .data
            .get("toolTelemetry")
            .and_then(|t| t.get("metrics"))
            .and_then(|m| u64_at(m, "durationMs"));
        let (out_key, loop_position) = match &call {
            Some(c) => {
                let key = c.key(&call_id);
                if c.published.is_none() {
                    let mut item = call_item(c, &call_id, key.clone());
                    item.records.push(ev.record.clone());
                    item.records.dedup();
                    ev.out.push(IngestMessage::Item(item));
                }
                (output_key(&key), c.loop_position)
            }
            None => (format!("out:{call_id}"), self.loop_position(ev)),
        };
        let tool = call.as_ref().map(|c| c.tool.as_str());
        let semantic = output_semantic(&ToolResult {
            tool,
            call_id: Some(&call_id),
            text,
            failed,
            duration_ms,
        });
        let item = Item {
            session: SessionRef::new(Provider::Copilot, session.clone()),
            key: out_key.clone(),
            loop_position,
            at: ev.at.clone(),
            semantic,
            records: vec![ev.record.clone()],
        };
        ev.out.push(IngestMessage::Item(item));
        if let Some(c) = &call {
            if let Some(target) = file_target(&c.tool, &c.args) {
                let diff = result.and_then(|r| text_at(r, "detailedContent"));
                let (added, removed) = file_lines(target.1, &c.args, diff);
                let mut edit =
                    file_edit(SessionRef::new(Provider::Copilot, session), target, &c.tool);
                edit.succeeded = !failed;
                edit.error = failed.then(|| text.unwrap_or("failed").to_string());
                edit.call_id = Some(call_id.clone());
                edit.lines_added = added.filter(|_| !failed);
                edit.lines_removed = removed.filter(|_| !failed);
                edit.item_key = Some(out_key);
                edit.loop_position = loop_position;
                edit.at = ev.at.clone();
                edit.records = vec![ev.record.clone()];
                edit.discriminator = ev.ty.to_string();
                if let Some(evidence) = edit.into_evidence(&edit_sensor(CollectionMethod::FilePoll))
                {
                    ev.out.push(IngestMessage::Evidence(evidence));
                }
            }
        }
        Handled::Done
    }

    // ---- hooks --------------------------------------------------------------------------

    /// A hook's input, mirrored in the log: a tool hook gives the call it reports the key the
    /// hook transport uses.
    fn hook_start(&mut self, ev: &mut Ev<'_>) -> Handled {
        let hook_type = text_at(ev.data, "hookType").unwrap_or("hook").to_string();
        if let Some(invocation) = text_at(ev.data, "hookInvocationId") {
            self.st
                .hooks
                .insert(invocation.to_string(), hook_type.clone());
        }
        let input = ev.data.get("input");
        if matches!(hook_type.as_str(), "preToolUse" | "postToolUse") {
            if let Some(input) = input {
                self.adopt_hook_key(input);
            }
        }
        Handled::Ignored("hook run started (its input mirrors what the hook received)")
    }

    fn adopt_hook_key(&mut self, input: &Value) {
        let (Some(tool), Some(main)) = (text_at(input, "toolName"), self.st.session.clone()) else {
            return;
        };
        let args = input.get("toolArgs").cloned().unwrap_or(Value::Null);
        let fp = call_fingerprint(tool, &args);
        let ts = input.get("timestamp").cloned().unwrap_or(Value::Null);
        // The oldest call of the main session with this tool and these arguments that no
        // hook reported yet.
        let target = self.st.calls.keys().into_iter().find(|id| {
            self.st.calls.get(id).is_some_and(|c| {
                c.session == main
                    && c.hook_key.is_none()
                    && c.tool == tool
                    && call_fingerprint(&c.tool, &c.args) == fp
            })
        });
        if let Some(id) = target {
            if let Some(call) = self.st.calls.get_mut(&id) {
                call.hook_key = Some(hook_call_key(&ts, tool, &args));
            }
        }
    }

    fn hook_end(&mut self, ev: &mut Ev<'_>) -> Handled {
        let hook_type = text_at(ev.data, "hookInvocationId")
            .and_then(|id| self.st.hooks.remove(id))
            .or_else(|| text_at(ev.data, "hookType").map(str::to_string))
            .unwrap_or_else(|| "hook".to_string());
        if ev.data.get("success").and_then(Value::as_bool) == Some(false) {
            let error = ev
                .data
                .get("error")
                .and_then(|e| text_at(e, "message").or_else(|| e.as_str()))
                .unwrap_or("no reason given");
            return self.state_item(
                ev,
                Role::RuntimeNotice,
                format!("{hook_type} hook failed: {error}"),
            );
        }
        Handled::Ignored("hook run ended successfully")
    }

    // ---- subagents ----------------------------------------------------------------------

    fn subagent_started(&mut self, ev: &mut Ev<'_>) -> Handled {
        let Some(call_id) = text_at(ev.data, "toolCallId")
            .map(str::to_string)
            .or_else(|| ev.agent.clone())
        else {
            return Handled::Ignored("subagent start without a call id");
        };
        let Some(main) = self.st.session.clone() else {
            return Handled::Ignored("event before the session is known");
        };
        let native_id = child_id(Some(&main), &call_id);
        let agent_name = text_at(ev.data, "agentName").map(str::to_string);
        self.st.children.insert(
            call_id.clone(),
            Child {
                native_id: native_id.clone(),
                agent_name: agent_name.clone(),
                last_text: None,
            },
        );
        ev.out.push(IngestMessage::Session(Session {
            id: SessionRef::new(Provider::Copilot, native_id.clone()),
            identity_record: ev.record.clone(),
            cwd: self.st.cwd.clone(),
            name: text_at(ev.data, "agentDisplayName").map(str::to_string),
            created_at: ev.at.clone(),
            forked_from: None,
            delegated_from: Some(Delegation {
                parent_native_id: main.clone(),
                call_id: Some(call_id.clone()),
                agent_id: Some(call_id.clone()),
                agent_type: agent_name.clone(),
            }),
            runtime_version: self.st.version.clone(),
        }));
        self.announce(native_id.clone(), ev);
        self.activity(ev, &main, &call_id, native_id, agent_name, "started");
        Handled::Done
    }

    fn subagent_ended(&mut self, ev: &mut Ev<'_>) -> Handled {
        let Some(call_id) = text_at(ev.data, "toolCallId")
            .map(str::to_string)
            .or_else(|| ev.agent.clone())
        else {
            return Handled::Ignored("subagent end without a call id");
        };
        let Some(main) = self.st.session.clone() else {
            return Handled::Ignored("event before the session is known");
        };
        let child = self.st.children.remove(&call_id);
        let native_id = child
            .as_ref()
            .map(|c| c.native_id.clone())
            .unwrap_or_else(|| child_id(Some(&main), &call_id));
        let agent_name = text_at(ev.data, "agentName")
            .map(str::to_string)
            .or_else(|| child.as_ref().and_then(|c| c.agent_name.clone()));
        let status = if ev.ty == "subagent.failed" {
            "failed"
        } else {
            "completed"
        };
        if status == "completed" {
            if let Some(text) = child.as_ref().and_then(|c| c.last_text.as_ref()) {
                ev.out.push(IngestMessage::Item(final_answer(text)));
            }
        }
        self.activity(ev, &main, &call_id, native_id, agent_name, status);
        Handled::Done
    }

    fn activity(
        &mut self,
        ev: &mut Ev<'_>,
        main: &str,
        call_id: &str,
        child: String,
        agent_type: Option<String>,
        status: &str,
    ) {
        let error = (status == "failed")
            .then(|| text_at(ev.data, "error").map(capped))
            .flatten();
        let value = SubagentValue {
            child_session: Some(child),
            agent_id: Some(call_id.to_string()),
            agent_type,
            status: Some(status.to_string()),
            text: error,
        };
        let semantic = Semantic::new(
            Role::SubagentActivity,
            SemanticValue::Subagent(value),
            EvidenceStrength::Structural,
        );
        let mut item = self.item(ev, main, format!("subagent:{call_id}:{status}"), semantic);
        item.loop_position = self.st.open.as_ref().map(|o| o.position);
        ev.out.push(IngestMessage::Item(item));
    }
}

/// A subagent's session id: the parent's and the call that started it.
fn child_id(main: Option<&str>, call_id: &str) -> String {
    format!("{}/{call_id}", main.unwrap_or("copilot"))
}

/// The output key that goes with a call key (`call:x` → `out:x`, `hook:…` → `hook-out:…`).
fn output_key(call_key: &str) -> String {
    match call_key.strip_prefix("call:") {
        Some(rest) => format!("out:{rest}"),
        None => format!("{call_key}:out"),
    }
}

fn final_answer(text: &TextItem) -> Item {
    Item {
        session: SessionRef::new(Provider::Copilot, text.session.clone()),
        key: text.key.clone(),
        loop_position: text.loop_position,
        at: text.at.clone(),
        semantic: Semantic::new(
            Role::AgentFinalAnswer,
            SemanticValue::Text(text.text.clone()),
            // The last text before the loop ended: a position, not a marker Copilot writes.
            EvidenceStrength::Heuristic,
        ),
        records: text.records.clone(),
    }
}

fn usage_of(data: &Value) -> Usage {
    let input = u64_at(data, "inputTokens");
    let cached = u64_at(data, "cacheReadTokens").filter(|c| input.is_none_or(|i| *c <= i));
    let output = u64_at(data, "outputTokens");
    let reasoning = u64_at(data, "reasoningTokens").filter(|r| output.is_none_or(|o| *r <= o));
    Usage {
        input_tokens: input,
        cached_input_tokens: cached,
        output_tokens: output,
        reasoning_output_tokens: reasoning,
    }
}

fn truncation_text(data: &Value) -> String {
    let tokens =
        u64_at(data, "tokensRemovedDuringTruncation").or_else(|| u64_at(data, "droppedTokens"));
    let messages = u64_at(data, "messagesRemovedDuringTruncation");
    let mut text = "context truncated".to_string();
    match (tokens, messages) {
        (Some(t), Some(m)) => text.push_str(&format!(": {t} tokens in {m} messages removed")),
        (Some(t), None) => text.push_str(&format!(": {t} tokens removed")),
        (None, Some(m)) => text.push_str(&format!(": {m} messages removed")),
        (None, None) => {}
    }
    if let Some(reason) = text_at(data, "reason").or_else(|| text_at(data, "performedBy")) {
        text.push_str(&format!(" ({reason})"));
    }
    text
}

/// The session's end with what Copilot totals there: requests, per-model tokens, changes.
fn shutdown_text(data: &Value) -> String {
    let mut text = format!(
        "session ended ({})",
        text_at(data, "shutdownType").unwrap_or("unknown reason")
    );
    if let Some(n) = data.get("totalPremiumRequests").and_then(Value::as_f64) {
        text.push_str(&format!("; premium requests: {n}"));
    }
    if let Some(models) = data.get("modelMetrics").and_then(Value::as_object) {
        for (model, m) in models {
            let requests = m
                .get("requests")
                .and_then(|r| r.get("count").or(Some(r)))
                .and_then(Value::as_u64);
            let usage = m.get("usage");
            let n = |k: &str| usage.and_then(|u| u64_at(u, k));
            text.push_str(&format!("\n{model}:"));
            if let Some(r) = requests {
                text.push_str(&format!(" {r} requests"));
            }
            if let (Some(i), Some(o)) = (n("inputTokens"), n("outputTokens")) {
                text.push_str(&format!(", {i} input / {o} output tokens"));
            }
            if let (Some(r), Some(w)) = (n("cacheReadTokens"), n("cacheWriteTokens")) {
                text.push_str(&format!(" (cache read {r}, written {w})"));
            }
        }
    }
    if let Some(changes) = data.get("codeChanges") {
        let files = changes
            .get("filesModified")
            .and_then(Value::as_array)
            .map(Vec::len);
        if let (Some(a), Some(r)) = (
            u64_at(changes, "linesAdded"),
            u64_at(changes, "linesRemoved"),
        ) {
            text.push_str(&format!(
                "\ncode changes: +{a} −{r}, files modified: {}",
                files.unwrap_or(0)
            ));
        }
    }
    if let Some(at) = data.get("sessionStartTime").and_then(iso_from_epoch) {
        text.push_str(&format!("\nstarted {at}"));
    }
    text
}
