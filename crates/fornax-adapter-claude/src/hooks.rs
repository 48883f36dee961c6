//! The hook transport: one JSON payload on a hook command's stdin per event.
//!
//! Each payload carries enough to publish its own facts, so a fresh adapter per hook process is
//! correct; state only adds loop positions, which are published only when this adapter (or the
//! checkpoint it resumed from) saw the session start, so that they count from 0 like the
//! transcript's. Events inside a subagent (those carrying `agent_id`) belong to the subagent
//! session `agent-<agent_id>`.

use fornax_types::{
    AgentAdapter, CapabilityProbe, CollectionMethod, Delegation, EvidenceStrength, IngestMessage,
    Item, Loop, LoopEnd, LoopOutcome, NativeRecord, NormalizationOutcome, Provider, RecordRef,
    Role, RuntimeCapabilities, Semantic, SemanticValue, Session, SessionRef, SubagentValue,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bounded::Bounded;
use crate::capabilities;
use crate::common::{
    capped, digest, discriminator, get_bool, get_str, get_text, get_u64, line_count, timestamp,
    ADAPTER_VERSION,
};
use crate::file_diff::{self, DiffAttempt, DiffSite};
use crate::tools::{
    call_key, call_semantic, delegation_activity, failure_output, is_delegation_tool, output_key,
    response_text, success_output,
};

use EvidenceStrength::{Heuristic, Structural};

const SESSIONS_CAP: usize = 256;
const CHECKPOINT_FORMAT: u32 = 1;

/// Normalizes Claude Code hook payloads.
#[derive(Debug)]
pub struct ClaudeHookAdapter {
    sessions: Bounded<HookSession>,
}

impl Default for ClaudeHookAdapter {
    fn default() -> Self {
        ClaudeHookAdapter {
            sessions: Bounded::new(SESSIONS_CAP),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct HookSession {
    published: Option<Session>,
    caps_sent: bool,
    /// The session's start was observed, so loop positions count from 0.
    grounded: bool,
    next_loop: u32,
    open: Option<HookLoop>,
    /// The loop the last Stop closed: a Stop hook that blocks makes the agent continue, and
    /// the next Stop (`stop_hook_active`) closes the same loop again.
    #[serde(default)]
    last_closed: Option<HookLoop>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct HookLoop {
    position: u32,
    native_id: Option<String>,
    start_record: RecordRef,
    started_at: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct Checkpoint {
    format: u32,
    sessions: Bounded<HookSession>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Event {
    SessionStart,
    UserPromptSubmit,
    PreToolUse,
    PostToolUse,
    PostToolUseFailure,
    PermissionRequest,
    Notification,
    Stop,
    SubagentStart,
    SubagentStop,
    PreCompact,
    SessionEnd,
}

/// What a hook event name is to this adapter.
enum Known {
    Mapped(Event),
    /// Documented by Claude Code, deliberately not translated (yet).
    Unmapped(&'static str),
}

fn event_of(name: &str) -> Option<Known> {
    use Event::*;
    Some(match name {
        "SessionStart" => Known::Mapped(SessionStart),
        "UserPromptSubmit" => Known::Mapped(UserPromptSubmit),
        "PreToolUse" => Known::Mapped(PreToolUse),
        "PostToolUse" => Known::Mapped(PostToolUse),
        "PostToolUseFailure" => Known::Mapped(PostToolUseFailure),
        "PermissionRequest" => Known::Mapped(PermissionRequest),
        "Notification" => Known::Mapped(Notification),
        "Stop" => Known::Mapped(Stop),
        "SubagentStart" => Known::Mapped(SubagentStart),
        "SubagentStop" => Known::Mapped(SubagentStop),
        "PreCompact" => Known::Mapped(PreCompact),
        "SessionEnd" => Known::Mapped(SessionEnd),
        "StopFailure" => {
            Known::Unmapped("turn ended by an API error; no real payload confirms its fields")
        }
        "PostCompact" => {
            Known::Unmapped("compaction finished; the summary is read from the transcript")
        }
        "PermissionDenied" => {
            Known::Unmapped("permission decision; the tool outcome arrives as its own event")
        }
        "Elicitation" | "ElicitationResult" => {
            Known::Unmapped("MCP elicitation exchange, not projected")
        }
        "TaskCreated" | "TaskCompleted" | "TeammateIdle" => {
            Known::Unmapped("task-list and team bookkeeping, not projected")
        }
        "Setup" | "ConfigChange" | "InstructionsLoaded" => {
            Known::Unmapped("configuration lifecycle, not projected")
        }
        "WorktreeCreate" | "WorktreeRemove" | "CwdChanged" | "FileChanged" | "DirectoryAdded" => {
            Known::Unmapped("workspace change notification, not projected")
        }
        "MessageDisplay" | "UserPromptExpansion" | "PostToolBatch" => {
            Known::Unmapped("display or batching notification, not projected")
        }
        _ => return None,
    })
}

/// One payload in context.
struct Hook<'a> {
    p: &'a Value,
    record: &'a RecordRef,
    event: &'a str,
    /// The main session the payload names (`session_id`).
    parent: Option<SessionRef>,
    /// Where this event's facts go: the subagent when `agent_id` is set, else the main session
    /// (or the caller's hint when the payload names none).
    session: SessionRef,
    subagent: Option<Delegation>,
    at: Option<String>,
    cwd: Option<&'a str>,
}

impl<'a> Hook<'a> {
    fn resolve(p: &'a Value, record: &'a RecordRef, event: &'a str, hint: &str) -> Self {
        let parent = get_text(p, "session_id").map(|s| SessionRef::new(Provider::ClaudeCode, s));
        let agent_id = get_text(p, "agent_id");
        let subagent = agent_id.map(|agent| Delegation {
            parent_native_id: parent
                .as_ref()
                .map(|s| s.native_id.clone())
                .unwrap_or_default(),
            call_id: None,
            agent_id: Some(agent.to_string()),
            agent_type: get_text(p, "agent_type").map(str::to_string),
        });
        let session = match (agent_id, &parent) {
            (Some(agent), _) => SessionRef::new(Provider::ClaudeCode, format!("agent-{agent}")),
            (None, Some(parent)) => parent.clone(),
            (None, None) => SessionRef::new(Provider::ClaudeCode, hint),
        };
        Hook {
            p,
            record,
            event,
            parent,
            session,
            subagent,
            at: timestamp(p),
            cwd: get_text(p, "cwd"),
        }
    }

    /// A key for a fact whose payload carries no native id: the record position and a digest
    /// of the payload (positions alone may restart in a process per hook).
    fn fallback_key(&self, prefix: &str) -> String {
        let body = serde_json::to_string(self.p).unwrap_or_default();
        format!(
            "{prefix}:r{}:{}",
            self.record.position,
            digest(&[self.event, &body])
        )
    }

    fn item(&self, key: String, loop_position: Option<u32>, semantic: Semantic) -> IngestMessage {
        IngestMessage::Item(Item {
            session: self.session.clone(),
            key,
            loop_position,
            at: self.at.clone(),
            semantic,
            records: vec![self.record.clone()],
        })
    }

    fn text(
        &self,
        key: String,
        loop_position: Option<u32>,
        role: Role,
        text: &str,
        strength: EvidenceStrength,
    ) -> IngestMessage {
        self.item(
            key,
            loop_position,
            Semantic::new(role, SemanticValue::Text(capped(text)), strength),
        )
    }
}

impl ClaudeHookAdapter {
    /// Publishes the main session and, for a subagent event, the subagent session; each with
    /// its capabilities once.
    fn announce(&mut self, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        if let Some(parent) = &hook.parent {
            let name = get_text(hook.p, "session_title");
            self.publish(parent, hook, None, name, out);
        }
        if let Some(delegation) = &hook.subagent {
            let delegated = (!delegation.parent_native_id.is_empty()).then(|| delegation.clone());
            let session = hook.session.clone();
            self.publish(&session, hook, delegated, None, out);
        }
    }

    fn publish(
        &mut self,
        session: &SessionRef,
        hook: &Hook<'_>,
        delegated: Option<Delegation>,
        name: Option<&str>,
        out: &mut Vec<IngestMessage>,
    ) {
        let st = self
            .sessions
            .get_or_insert_with(&session.native_id, HookSession::default);
        let next = match &st.published {
            None => Some(Session {
                id: session.clone(),
                identity_record: hook.record.clone(),
                cwd: hook.cwd.map(str::to_string),
                name: name.map(str::to_string),
                created_at: None,
                forked_from: None,
                delegated_from: delegated,
                runtime_version: None,
            }),
            Some(known) => {
                let mut s = known.clone();
                if s.cwd.is_none() {
                    s.cwd = hook.cwd.map(str::to_string);
                }
                if let Some(name) = name {
                    s.name = Some(name.to_string());
                }
                match (&mut s.delegated_from, delegated) {
                    (None, d) => s.delegated_from = d,
                    (Some(known), Some(d)) if known.agent_type.is_none() => {
                        known.agent_type = d.agent_type
                    }
                    _ => {}
                }
                (s != *known).then_some(s)
            }
        };
        if let Some(s) = next {
            st.published = Some(s.clone());
            out.push(IngestMessage::Session(s));
        }
        if !st.caps_sent {
            st.caps_sent = true;
            out.push(IngestMessage::Capabilities(
                capabilities::hooks().stamped(&session.native_id, ADAPTER_VERSION),
            ));
        }
    }

    fn state(&mut self, native_id: &str) -> &mut HookSession {
        self.sessions
            .get_or_insert_with(native_id, HookSession::default)
    }

    /// The open loop's position, when positions are grounded.
    fn loop_position(&mut self, hook: &Hook<'_>) -> Option<u32> {
        let st = self.state(&hook.session.native_id);
        st.open.as_ref().filter(|_| st.grounded).map(|l| l.position)
    }

    fn end_loop(&mut self, hook: &Hook<'_>, outcome: LoopOutcome, out: &mut Vec<IngestMessage>) {
        let st = self.state(&hook.session.native_id);
        if !st.grounded {
            return;
        }
        if let Some(open) = st.open.take() {
            let end = LoopEnd {
                record: hook.record.clone(),
                outcome,
                ended_at: hook.at.clone(),
            };
            out.push(IngestMessage::Loop(hook_loop(
                &hook.session,
                &open,
                Some(end),
            )));
            st.last_closed = (outcome == LoopOutcome::Completed).then_some(open);
        }
    }

    fn on_event(&mut self, event: Event, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        match event {
            Event::SessionStart => self.session_start(hook, out),
            Event::UserPromptSubmit => self.prompt(hook, out),
            Event::PreToolUse => self.pre_tool(hook, out),
            Event::PostToolUse => self.post_tool(hook, false, out),
            Event::PostToolUseFailure => self.post_tool(hook, true, out),
            Event::PermissionRequest => {
                let tool = get_text(hook.p, "tool_name").unwrap_or("a tool");
                let key = get_text(hook.p, "tool_use_id")
                    .map(|id| format!("permission:{id}"))
                    .unwrap_or_else(|| hook.fallback_key("permission"));
                let pos = self.loop_position(hook);
                let text = format!("Permission requested for {tool}");
                out.push(hook.text(key, pos, Role::RuntimeNotice, &text, Structural));
            }
            Event::Notification => {
                if let Some(message) = get_text(hook.p, "message") {
                    let pos = self.loop_position(hook);
                    // The type (permission_prompt, idle_prompt, ...; absent before ~2.0.37)
                    // names what the runtime is waiting for.
                    let kind = get_text(hook.p, "notification_type").unwrap_or("untyped");
                    let key = hook.fallback_key(&format!("notification:{kind}"));
                    out.push(hook.text(key, pos, Role::RuntimeNotice, message, Structural));
                }
            }
            Event::Stop => self.stop(hook, out),
            Event::SubagentStart | Event::SubagentStop => self.subagent(event, hook, out),
            Event::PreCompact => {
                let trigger = get_text(hook.p, "trigger").unwrap_or("unknown trigger");
                let mut text = format!("PreCompact ({trigger})");
                if let Some(instructions) = get_text(hook.p, "custom_instructions") {
                    text.push('\n');
                    text.push_str(instructions);
                }
                let pos = self.loop_position(hook);
                out.push(hook.text(
                    hook.fallback_key("state"),
                    pos,
                    Role::RuntimeState,
                    &text,
                    Structural,
                ));
            }
            Event::SessionEnd => {
                let reason = get_text(hook.p, "reason").unwrap_or("unknown reason");
                let pos = self.loop_position(hook);
                let text = format!("SessionEnd ({reason})");
                out.push(hook.text(
                    hook.fallback_key("state"),
                    pos,
                    Role::RuntimeState,
                    &text,
                    Structural,
                ));
                // Stop did not fire for a loop still open: the session ended under it.
                self.end_loop(hook, LoopOutcome::Interrupted, out);
            }
        }
    }

    fn session_start(&mut self, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        let source = get_text(hook.p, "source");
        if hook.subagent.is_none() && matches!(source, Some("startup" | "clear")) {
            // A brand-new session id: its loops count from 0 from here. A count already
            // running is never reset (positions must not be reused).
            let st = self.state(&hook.session.native_id);
            if !st.grounded && st.next_loop == 0 && st.open.is_none() {
                st.grounded = true;
            }
        }
        let text = format!("SessionStart ({})", source.unwrap_or("unknown source"));
        let pos = self.loop_position(hook);
        out.push(hook.text(
            hook.fallback_key("state"),
            pos,
            Role::RuntimeState,
            &text,
            Structural,
        ));
    }

    /// A submitted prompt: a request opening a loop, or steering while one runs. Without a
    /// grounded loop state the distinction is unknown, so the request is heuristic.
    fn prompt(&mut self, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        let Some(prompt) = get_text(hook.p, "prompt") else {
            return;
        };
        let prompt_id = get_text(hook.p, "prompt_id");
        let st = self.state(&hook.session.native_id);
        if !st.grounded {
            let key = prompt_id
                .map(|id| format!("prompt:{id}"))
                .unwrap_or_else(|| hook.fallback_key("prompt"));
            out.push(hook.text(key, None, Role::HumanRequest, prompt, Heuristic));
            return;
        }
        if let Some(open) = &st.open {
            let key = prompt_id
                .map(|id| format!("prompt:{id}"))
                .unwrap_or_else(|| hook.fallback_key("steer"));
            out.push(hook.text(
                key,
                Some(open.position),
                Role::HumanSteering,
                prompt,
                Structural,
            ));
            return;
        }
        let open = HookLoop {
            position: st.next_loop,
            native_id: prompt_id.map(str::to_string),
            start_record: hook.record.clone(),
            started_at: hook.at.clone(),
        };
        st.next_loop = st.next_loop.saturating_add(1);
        st.last_closed = None;
        out.push(IngestMessage::Loop(hook_loop(&hook.session, &open, None)));
        let key = prompt_id
            .map(|id| format!("prompt:{id}"))
            .unwrap_or_else(|| format!("prompt:{}", open.position));
        out.push(hook.text(
            key,
            Some(open.position),
            Role::HumanRequest,
            prompt,
            Structural,
        ));
        st.open = Some(open);
    }

    fn pre_tool(&mut self, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        let Some(name) = get_text(hook.p, "tool_name") else {
            return;
        };
        let id = get_text(hook.p, "tool_use_id");
        let input = hook.p.get("tool_input").unwrap_or(&Value::Null);
        let key = id
            .map(call_key)
            .unwrap_or_else(|| hook.fallback_key("call"));
        let semantic = call_semantic(&hook.session.native_id, name, id, input, hook.cwd);
        let pos = self.loop_position(hook);
        out.push(hook.item(key, pos, semantic));
    }

    /// PostToolUse (success) and PostToolUseFailure: the output item and, for file tools,
    /// FileDiff evidence.
    fn post_tool(&mut self, hook: &Hook<'_>, failed: bool, out: &mut Vec<IngestMessage>) {
        let p = hook.p;
        let name = get_text(p, "tool_name");
        let id = get_text(p, "tool_use_id");
        let key = id
            .map(output_key)
            .unwrap_or_else(|| hook.fallback_key("out"));
        let response = p.get("tool_response");
        let error = get_str(p, "error");
        let mut value = if failed {
            failure_output(id, name, error, get_bool(p, "is_interrupt"))
        } else {
            let shaped = response.filter(|r| r.is_object());
            success_output(id, name, shaped, response.and_then(response_text))
        };
        value.duration_ms = get_u64(p, "duration_ms");
        let pos = self.loop_position(hook);
        out.push(hook.item(
            key.clone(),
            pos,
            Semantic::new(
                Role::ToolOutput,
                SemanticValue::ToolOutput(value),
                Structural,
            ),
        ));
        let input = p.get("tool_input").unwrap_or(&Value::Null);
        if name.is_some_and(is_delegation_tool) && !failed {
            let agent_type = get_text(input, "subagent_type");
            if let Some((key, semantic)) = delegation_activity(id, agent_type, response) {
                out.push(hook.item(key, pos, semantic));
            }
        }
        if let Some(tool) = name.filter(|t| file_diff::is_file_tool(t)) {
            let site = DiffSite {
                session: &hook.session,
                record: hook.record,
                at: hook.at.as_deref(),
                loop_position: pos,
                method: CollectionMethod::HookCallback,
                discriminator: hook.event,
            };
            let attempt = DiffAttempt {
                tool,
                call_id: id,
                item_key: &key,
                input_path: get_text(input, "file_path"),
                input_content_lines: get_str(input, "content").map(line_count),
                result: response.filter(|_| !failed),
                error: failed.then(|| error.unwrap_or("tool failed")),
            };
            if let Some(ev) = file_diff::evidence(&site, &attempt) {
                out.push(IngestMessage::Evidence(ev));
            }
        }
        if failed && get_bool(p, "is_interrupt") == Some(true) {
            // The user interrupted the tool: the turn ends without a Stop event.
            self.end_loop(hook, LoopOutcome::Interrupted, out);
        }
    }

    fn stop(&mut self, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        if get_bool(hook.p, "stop_hook_active") == Some(true) {
            // The agent continued because a Stop hook blocked: this Stop ends the same loop.
            let st = self.state(&hook.session.native_id);
            if st.open.is_none() {
                st.open = st.last_closed.take();
            }
        }
        let pos = self.loop_position(hook);
        if let Some(text) = get_text(hook.p, "last_assistant_message") {
            let key = match pos {
                Some(pos) => format!("final:{pos}"),
                None => hook.fallback_key("final"),
            };
            out.push(hook.text(key, pos, Role::AgentFinalAnswer, text, Structural));
        }
        self.end_loop(hook, LoopOutcome::Completed, out);
    }

    fn subagent(&mut self, event: Event, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        let agent_id = hook.subagent.as_ref().and_then(|d| d.agent_id.clone());
        let agent_type = hook.subagent.as_ref().and_then(|d| d.agent_type.clone());
        let child_session = agent_id.as_ref().map(|_| hook.session.native_id.clone());
        let started = event == Event::SubagentStart;
        let report = get_text(hook.p, "last_assistant_message").filter(|_| !started);
        if let (Some(text), Some(_)) = (report, &agent_id) {
            out.push(hook.text(
                "subagent:report".into(),
                None,
                Role::SubagentReport,
                text,
                Structural,
            ));
            return;
        }
        let status = if started { "started" } else { "stopped" };
        let key = match &agent_id {
            Some(_) => format!("subagent:{status}"),
            None => hook.fallback_key("subagent"),
        };
        let value = SubagentValue {
            child_session,
            agent_id,
            agent_type,
            status: Some(status.to_string()),
            text: report.map(capped),
        };
        out.push(hook.item(
            key,
            None,
            Semantic::new(
                Role::SubagentActivity,
                SemanticValue::Subagent(value),
                Structural,
            ),
        ));
    }
}

/// Why a mapped event published nothing (its session was already published).
fn empty_reason(event: Event) -> &'static str {
    match event {
        Event::UserPromptSubmit => "prompt submission without prompt text",
        Event::PreToolUse => "tool call without a tool_name",
        Event::Notification => "notification without a message",
        Event::Stop => {
            "Stop without last_assistant_message (before 2.1.47) and no loop position to close"
        }
        _ => "hook payload without content to project",
    }
}

fn hook_loop(session: &SessionRef, open: &HookLoop, end: Option<LoopEnd>) -> Loop {
    Loop {
        session: session.clone(),
        position: open.position,
        native_id: open.native_id.clone(),
        start_record: open.start_record.clone(),
        started_at: open.started_at.clone(),
        end,
        model: None,
        usage: None,
        runtime_version: None,
    }
}

impl CapabilityProbe for ClaudeHookAdapter {
    fn probe(&self) -> RuntimeCapabilities {
        capabilities::hooks()
    }
}

impl AgentAdapter for ClaudeHookAdapter {
    fn provider(&self) -> Provider {
        Provider::ClaudeCode
    }

    fn adapter_version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn normalize(&mut self, session_hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome {
        let p = native.value;
        if !p.is_object() {
            return NormalizationOutcome::Unrecognized {
                discriminator: "<not a JSON object>".into(),
            };
        }
        let Some(name) = get_str(p, "hook_event_name") else {
            return NormalizationOutcome::Unrecognized {
                discriminator: "<no hook_event_name>".into(),
            };
        };
        let event = match event_of(name) {
            Some(Known::Mapped(event)) => event,
            Some(Known::Unmapped(reason)) => return NormalizationOutcome::Ignored { reason },
            None => {
                return NormalizationOutcome::Unrecognized {
                    discriminator: discriminator(name),
                }
            }
        };
        let hook = Hook::resolve(p, native.record, name, session_hint);
        let mut out = Vec::new();
        self.announce(&hook, &mut out);
        self.on_event(event, &hook, &mut out);
        if out.is_empty() {
            NormalizationOutcome::Ignored {
                reason: empty_reason(event),
            }
        } else {
            NormalizationOutcome::Messages(out)
        }
    }

    fn checkpoint(&self) -> Option<Value> {
        serde_json::to_value(Checkpoint {
            format: CHECKPOINT_FORMAT,
            sessions: self.sessions.clone(),
        })
        .ok()
    }

    fn resume(&mut self, state: &Value) -> bool {
        match Checkpoint::deserialize(state) {
            Ok(cp) if cp.format == CHECKPOINT_FORMAT => {
                let mut sessions = cp.sessions;
                sessions.repair(SESSIONS_CAP);
                self.sessions = sessions;
                true
            }
            _ => false,
        }
    }
}
