//! The state both transports share (sessions, loops, message roles, text parts, calls) and the
//! rules that turn opencode's Session / Message / Part objects into canonical messages.
//!
//! Rules:
//! * A user message opens a loop unless one is running; then it steers the running loop.
//! * An assistant message belongs to the loop of its `parentID` (else the running loop). Its
//!   terminal `finish` (anything but `tool-calls`/`unknown`) or its `error` ends that loop; so
//!   does `session.idle` for a loop still running. Compaction summaries end nothing.
//! * The last assistant text part of a loop is its final answer. While the loop runs every
//!   assistant text is commentary; when it ends, the last one is published again under the same
//!   key as `agent.final_answer`. Text arriving for an ended loop (storage delivers parts after
//!   messages) takes the final-answer role at once and the previous holder returns to
//!   commentary. Consumers upsert by key, so the last publication wins.
//! * Every table is bounded; identical republications are suppressed by a digest per key.

mod calls;
mod loops;
mod state;
mod texts;

use std::collections::VecDeque;

use fornax_types::{
    CollectionMethod, Delegation, IngestMessage, RecordRef, RuntimeCapabilities, Session, Usage,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bounded::Bounded;
use crate::json::{at, bool_at, raw_str_at, str_at};
use crate::tools::{Ending, Status};
use crate::ADAPTER_VERSION;

pub(crate) use calls::Call;
use calls::Placement;
use loops::{is_terminal_finish, message_usage};
use state::{iso, MessageState, Pending, SessionState, Speaker};

const MAX_SESSIONS: usize = 32;
/// Loops kept in detail per session (older loops keep their position, lose their state).
const MAX_LOOPS: usize = 16;
const MAX_MESSAGES: usize = 4096;
const MAX_PARTS: usize = 2048;
const MAX_CALLS: usize = 1024;
const MAX_DIGESTS: usize = 8192;
const MAX_PENDING: usize = 64;
const MAX_USAGE_ENTRIES: usize = 1024;
/// Longest text kept in a text or reasoning item (head and tail survive).
const TEXT_LIMIT: usize = 256 * 1024;
const ERROR_TEXT_LIMIT: usize = 512;

/// Which transport the records come from: decides collection method, clocks and whether a part
/// of a message not seen yet may wait for it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) enum Transport {
    Plugin,
    Storage,
}

impl Transport {
    pub(crate) fn capabilities(self) -> RuntimeCapabilities {
        match self {
            Transport::Plugin => crate::capabilities::plugin(),
            Transport::Storage => crate::capabilities::storage(),
        }
    }

    pub(super) fn method(self) -> CollectionMethod {
        match self {
            Transport::Plugin => CollectionMethod::PluginCallback,
            Transport::Storage => CollectionMethod::FilePoll,
        }
    }

    pub(super) fn tamper_boundary(self) -> &'static str {
        match self {
            Transport::Plugin => {
                "opencode reports the call's arguments and result to the fornax plugin inside \
                 its own process; the runtime, or any plugin loaded before it, can alter them"
            }
            Transport::Storage => {
                "read from opencode's storage documents (JSON files or opencode.db rows), which \
                 the opencode process and any local user can rewrite after the fact"
            }
        }
    }

    /// Parts of a message whose role is unknown wait for it only on a live stream: storage
    /// delivers every message before any part.
    pub(super) fn defers_unknown_roles(self) -> bool {
        self == Transport::Plugin
    }
}

/// Where the current record came from.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ctx<'a> {
    pub record: &'a RecordRef,
    /// The plugin line's `at`: this host's clock when opencode fired the hook.
    pub observed_at: Option<&'a str>,
    /// The native shape, for provenance breadcrumbs (`tool.execute.after`, `part.tool`).
    pub discriminator: &'a str,
}

/// What became of a record, before the adapter turns it into a `NormalizationOutcome`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Handled {
    /// Translated (possibly into nothing yet, while a part waits).
    Done,
    Ignored(&'static str),
    Unknown(String),
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Tracker {
    transport: Transport,
    sessions: Bounded<SessionState>,
    last_session: Option<String>,
}

impl Tracker {
    pub(crate) fn new(transport: Transport) -> Self {
        Tracker {
            transport,
            sessions: Bounded::new(MAX_SESSIONS),
            last_session: None,
        }
    }

    /// Restores a checkpointed tracker, refusing one taken from the other transport.
    pub(crate) fn deserialize_for(state: &Value, transport: Transport) -> Option<Tracker> {
        let tracker: Tracker = serde_json::from_value(state.clone()).ok()?;
        (tracker.transport == transport).then_some(tracker)
    }

    /// The session holding a message already seen.
    pub(crate) fn session_of_message(&self, msg_id: &str) -> Option<String> {
        self.sessions
            .values()
            .find(|s| s.messages.contains(msg_id))
            .map(|s| s.id.clone())
    }

    /// The session a record speaks for: its own id, else the last session seen, else the hint.
    pub(crate) fn resolve_session(&self, from_payload: Option<&str>, hint: &str) -> String {
        from_payload
            .map(str::to_string)
            .or_else(|| self.last_session.clone())
            .unwrap_or_else(|| hint.to_string())
    }

    /// The session's state, created on first sight (announcing capabilities once).
    fn session(&mut self, sid: &str, out: &mut Vec<IngestMessage>) -> &mut SessionState {
        self.last_session = Some(sid.to_string());
        let transport = self.transport;
        let state = self.sessions.get_or_insert_with(sid, || SessionState {
            id: sid.to_string(),
            transport,
            capabilities_sent: false,
            identity: None,
            session: None,
            documented: false,
            runtime_version: None,
            next_seq: 0,
            next_loop: 0,
            running: None,
            loops: VecDeque::new(),
            messages: Bounded::new(MAX_MESSAGES),
            parts: Bounded::new(MAX_PARTS),
            calls: Bounded::new(MAX_CALLS),
            published: Bounded::new(MAX_DIGESTS),
        });
        if !state.capabilities_sent {
            state.capabilities_sent = true;
            out.push(IngestMessage::Capabilities(
                transport.capabilities().stamped(sid, ADAPTER_VERSION),
            ));
        }
        state
    }

    /// The session, with its identity published from this record when nothing better did.
    fn session_seen(
        &mut self,
        sid: &str,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) -> &mut SessionState {
        let state = self.session(sid, out);
        if state.session.is_none() {
            let identity = state
                .identity
                .get_or_insert_with(|| ctx.record.clone())
                .clone();
            let session = Session {
                id: state.sref(),
                identity_record: identity,
                cwd: None,
                name: None,
                created_at: None,
                forked_from: None,
                delegated_from: None,
                runtime_version: None,
            };
            state.publish("session", &session, out, IngestMessage::Session);
            state.session = Some(session);
        }
        state
    }

    /// A Session document (storage, or `session.created` / `session.updated` properties.info).
    pub(crate) fn session_document(
        &mut self,
        info: &Value,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) -> Handled {
        let Some(sid) = str_at(info, &["id"]) else {
            return Handled::Unknown("session".to_string());
        };
        let state = self.session(sid, out);
        let identity = state
            .identity
            .get_or_insert_with(|| ctx.record.clone())
            .clone();
        if let Some(v) = str_at(info, &["version"]) {
            state.runtime_version = Some(v.to_string());
        }
        let session = Session {
            id: state.sref(),
            identity_record: identity,
            cwd: str_at(info, &["directory"]).map(str::to_string),
            name: str_at(info, &["title"]).map(str::to_string),
            created_at: iso(info, &["time", "created"]),
            forked_from: None,
            delegated_from: str_at(info, &["parentID"]).map(|parent| Delegation {
                parent_native_id: parent.to_string(),
                call_id: None,
                agent_id: None,
                agent_type: None,
            }),
            runtime_version: state.runtime_version.clone(),
        };
        state.publish("session", &session, out, IngestMessage::Session);
        state.session = Some(session);
        state.documented = true;
        Handled::Done
    }

    /// A Message document (storage, or `message.updated` properties.info).
    pub(crate) fn message(
        &mut self,
        sid: &str,
        info: &Value,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) -> Handled {
        let Some(msg_id) = str_at(info, &["id"]) else {
            return Handled::Unknown("message".to_string());
        };
        match str_at(info, &["role"]) {
            Some("user") => {
                self.user_message(sid, msg_id, Some(info), ctx, out);
                Handled::Done
            }
            Some("assistant") => {
                self.assistant_message(sid, msg_id, info, ctx, out);
                Handled::Done
            }
            Some(other) => Handled::Unknown(format!("message.{}", crate::json::short(other, 48))),
            None => Handled::Unknown("message".to_string()),
        }
    }

    /// A user message: opens a loop, or steers the running one.
    pub(crate) fn user_message(
        &mut self,
        sid: &str,
        msg_id: &str,
        info: Option<&Value>,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) {
        let state = self.session_seen(sid, ctx, out);
        if !state.messages.contains(msg_id) {
            let created_at = info.and_then(|i| iso(i, &["time", "created"]));
            let running = state
                .running
                .filter(|p| state.loop_ref(*p).is_some_and(|l| l.end.is_none()));
            let (speaker, loop_pos) = match running {
                Some(p) => (Speaker::Steering, Some(p)),
                None => {
                    let model = info.and_then(|i| {
                        str_at(i, &["model", "modelID"]).or_else(|| str_at(i, &["modelID"]))
                    });
                    let started_at = created_at
                        .clone()
                        .or_else(|| ctx.observed_at.map(str::to_string));
                    let pos = state.open_loop(msg_id, ctx.record, started_at, model);
                    state.publish_loop(pos, out);
                    (Speaker::Request, Some(pos))
                }
            };
            state.messages.insert(
                msg_id.to_string(),
                MessageState {
                    speaker,
                    loop_pos,
                    compaction: false,
                    created_at,
                },
            );
        }
        state.flush_pending(Some(msg_id), out);
    }

    fn assistant_message(
        &mut self,
        sid: &str,
        msg_id: &str,
        info: &Value,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) {
        let state = self.session_seen(sid, ctx, out);
        let existed = state.messages.contains(msg_id);
        let known = state.messages.get(msg_id).and_then(|m| m.loop_pos);
        let parent = str_at(info, &["parentID"])
            .and_then(|p| state.messages.get(p))
            .and_then(|m| m.loop_pos);
        let loop_pos = known.or(parent).or(state.running);
        let compaction = bool_at(info, &["summary"]) == Some(true)
            || str_at(info, &["mode"]) == Some("compaction")
            || str_at(info, &["agent"]) == Some("compaction");
        state.messages.insert(
            msg_id.to_string(),
            MessageState {
                speaker: Speaker::Assistant,
                loop_pos,
                compaction,
                created_at: iso(info, &["time", "created"]),
            },
        );
        state.flush_pending(Some(msg_id), out);
        // Without the session document (the plugin started mid-session), the assistant's
        // working directory is the session's.
        if !state.documented {
            let cwd = str_at(info, &["path", "cwd"]);
            if let (Some(cwd), Some(session)) = (cwd, state.session.as_mut()) {
                if session.cwd.is_none() {
                    session.cwd = Some(cwd.to_string());
                    let session = session.clone();
                    state.publish("session", &session, out, IngestMessage::Session);
                }
            }
        }
        if let Some(fact) =
            loops::message_usage_fact(info, state.sref(), msg_id, loop_pos, ctx.record)
        {
            out.push(IngestMessage::Usage(fact));
        }
        let Some(pos) = loop_pos else { return };
        let Some(lp) = state.loop_mut(pos) else {
            return;
        };
        if lp.model.is_none() {
            lp.model = str_at(info, &["modelID"]).map(str::to_string);
        }
        if let Some(usage) = message_usage(info) {
            if !lp.usage.contains(msg_id) && lp.usage.len() >= MAX_USAGE_ENTRIES {
                if let Some((_, old)) = lp.usage.pop_oldest() {
                    lp.folded
                        .get_or_insert_with(Usage::default)
                        .accumulate(&old);
                }
            }
            lp.usage.insert(msg_id.to_string(), usage);
        }
        // Only the loop's newest assistant message decides how the loop ends; a late update of
        // an older message does not.
        let newest = !existed
            || lp
                .last_assistant
                .as_deref()
                .is_none_or(|last| last == msg_id);
        if !newest {
            return;
        }
        let finish = str_at(info, &["finish"]).map(str::to_string);
        let error = str_at(info, &["error", "name"])
            .map(str::to_string)
            .or_else(|| {
                at(info, &["error"])
                    .filter(|e| e.is_object() || e.is_string())
                    .map(|_| "Error".to_string())
            });
        lp.last_assistant = Some(msg_id.to_string());
        lp.last_finish = finish.clone();
        lp.last_error = error.clone();
        let terminal =
            !compaction && (error.is_some() || finish.as_deref().is_some_and(is_terminal_finish));
        if terminal {
            lp.terminal_message = Some(msg_id.to_string());
            let ended_at =
                iso(info, &["time", "completed"]).or_else(|| ctx.observed_at.map(str::to_string));
            state.end_loop(pos, ctx.record, ended_at, out);
        }
    }

    /// A Part document (storage, chat.message parts, or `message.part.updated` properties.part).
    /// `streaming` marks an update that carries a `delta` of a part still being written.
    pub(crate) fn part(
        &mut self,
        sid: &str,
        part: &Value,
        streaming: bool,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) -> Handled {
        let Some(kind) = str_at(part, &["type"]) else {
            return Handled::Unknown("part".to_string());
        };
        match kind {
            "text" | "reasoning" => self.text_part(sid, part, streaming, ctx, out),
            "tool" => self.tool_part(sid, part, ctx, out),
            "step-start" => Handled::Ignored("step boundary"),
            "step-finish" => {
                Handled::Ignored("step accounting; the assistant message carries its tokens")
            }
            "file" => Handled::Ignored("file attachment"),
            "agent" => Handled::Ignored("agent mention"),
            "subtask" => {
                Handled::Ignored("subtask request; the task tool call records the delegation")
            }
            "snapshot" => Handled::Ignored("workspace snapshot reference"),
            "patch" => {
                Handled::Ignored("step patch summary; per-call file changes come from tool parts")
            }
            "retry" => Handled::Ignored("provider retry notice"),
            "compaction" => {
                Handled::Ignored("compaction marker; the summary arrives as an assistant message")
            }
            other => Handled::Unknown(format!("part.{}", crate::json::short(other, 48))),
        }
    }

    fn text_part(
        &mut self,
        sid: &str,
        part: &Value,
        streaming: bool,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) -> Handled {
        let Some(part_id) = str_at(part, &["id"]) else {
            return Handled::Unknown("part".to_string());
        };
        let transport = self.transport;
        let state = self.session_seen(sid, ctx, out);
        let message_id = str_at(part, &["messageID"]);
        let role_known = message_id.is_some_and(|m| state.messages.contains(m));
        let waits_for_role =
            !role_known && message_id.is_some() && transport.defers_unknown_roles();
        let seq = state.part_seq(part_id, message_id);
        let pending_count = state.parts.values().filter(|p| p.pending.is_some()).count();
        if (streaming || waits_for_role) && pending_count < MAX_PENDING {
            if let Some(p) = state.parts.get_mut(part_id) {
                p.pending = Some(Pending {
                    part: part.clone(),
                    record: ctx.record.clone(),
                    observed_at: ctx.observed_at.map(str::to_string),
                });
            }
            return Handled::Done;
        }
        if let Some(p) = state.parts.get_mut(part_id) {
            p.pending = None;
        }
        state.publish_text(part, seq, ctx.record, ctx.observed_at, out);
        Handled::Done
    }

    /// `message.part.delta`: more text for a part still being written.
    pub(crate) fn part_delta(&mut self, sid: &str, props: &Value) -> Handled {
        let (Some(part_id), Some(delta)) =
            (str_at(props, &["partID"]), raw_str_at(props, &["delta"]))
        else {
            return Handled::Ignored("delta without part id or text");
        };
        if str_at(props, &["field"]).is_some_and(|f| f != "text") {
            return Handled::Ignored("delta of a field other than text");
        }
        let Some(state) = self.sessions.get_mut(sid) else {
            return Handled::Ignored("delta for a part not seen yet");
        };
        let Some(pending) = state
            .parts
            .get_mut(part_id)
            .and_then(|p| p.pending.as_mut())
        else {
            return Handled::Ignored("delta for a part not seen yet");
        };
        if let Some(Value::String(text)) = pending.part.get_mut("text") {
            if text.len() < 2 * TEXT_LIMIT {
                text.push_str(delta);
            }
        }
        Handled::Done
    }

    fn tool_part(
        &mut self,
        sid: &str,
        part: &Value,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) -> Handled {
        let Some(call_id) = str_at(part, &["callID"]) else {
            return Handled::Ignored("tool part without a call id");
        };
        let call = Call {
            tool: str_at(part, &["tool"]).unwrap_or("unknown"),
            id: call_id,
        };
        let state = self.session_seen(sid, ctx, out);
        let loop_pos = str_at(part, &["messageID"])
            .and_then(|m| state.messages.get(m))
            .and_then(|m| m.loop_pos)
            .or_else(|| state.calls.get(call_id).and_then(|c| c.loop_pos))
            .or(state.running);
        let empty = Value::Null;
        let tool_state = at(part, &["state"]).unwrap_or(&empty);
        let input = at(tool_state, &["input"]).filter(|i| i.is_object());
        let status = str_at(tool_state, &["status"]);
        let has_input = input
            .and_then(Value::as_object)
            .is_some_and(|o| !o.is_empty());
        // A pending part's input is still empty: the call is published once it has arguments.
        if let Some(input) = input.filter(|_| has_input || status != Some("pending")) {
            let started =
                iso(tool_state, &["time", "start"]).or_else(|| ctx.observed_at.map(str::to_string));
            let place = Placement {
                loop_pos,
                record: ctx.record,
            };
            state.publish_call(call, input, started, place, out);
        }
        if let Some(ending) = Ending::from_state(tool_state) {
            state.publish_output(call, &ending, input, loop_pos, ctx, out);
        }
        Handled::Done
    }

    /// `tool.execute.before`: the call with its arguments, before it runs.
    pub(crate) fn tool_before(
        &mut self,
        sid: &str,
        call: Call<'_>,
        args: &Value,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) {
        let state = self.session_seen(sid, ctx, out);
        let loop_pos = state
            .calls
            .get(call.id)
            .and_then(|c| c.loop_pos)
            .or(state.running);
        let empty = Value::Object(serde_json::Map::new());
        let args = if args.is_object() { args } else { &empty };
        let place = Placement {
            loop_pos,
            record: ctx.record,
        };
        state.publish_call(call, args, ctx.observed_at.map(str::to_string), place, out);
    }

    /// `tool.execute.after`: `{title, output, metadata}` of a call that completed (opencode
    /// fires it only when the tool returned; a thrown tool reaches us as an `error` tool part).
    /// Newer runtimes also pass the arguments (`input.args`).
    pub(crate) fn tool_after(
        &mut self,
        sid: &str,
        call: Call<'_>,
        args: Option<&Value>,
        result: &Value,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) {
        let state = self.session_seen(sid, ctx, out);
        let loop_pos = state
            .calls
            .get(call.id)
            .and_then(|c| c.loop_pos)
            .or(state.running);
        let args = args.filter(|a| a.as_object().is_some_and(|o| !o.is_empty()));
        if let Some(args) = args.filter(|_| !state.calls.contains(call.id)) {
            let place = Placement {
                loop_pos,
                record: ctx.record,
            };
            state.publish_call(call, args, ctx.observed_at.map(str::to_string), place, out);
        }
        let ending = Ending {
            status: Status::Completed,
            output: raw_str_at(result, &["output"]),
            error: None,
            metadata: at(result, &["metadata"]).filter(|m| m.is_object()),
            start_ms: None,
            end_ms: None,
        };
        state.publish_output(call, &ending, args, loop_pos, ctx, out);
    }

    /// `session.idle` (or `session.status` idle): ends the running loop.
    pub(crate) fn idle(&mut self, sid: &str, ctx: &Ctx<'_>, out: &mut Vec<IngestMessage>) {
        let state = self.session_seen(sid, ctx, out);
        state.flush_pending(None, out);
        if let Some(pos) = state.running {
            state.end_loop(pos, ctx.record, ctx.observed_at.map(str::to_string), out);
        }
    }

    /// `session.error`: remembered so the running loop ends as failed (or interrupted).
    pub(crate) fn session_error(
        &mut self,
        sid: &str,
        error: &Value,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) {
        let state = self.session_seen(sid, ctx, out);
        let name = str_at(error, &["name"]).unwrap_or("Error").to_string();
        if let Some(lp) = state.running.and_then(|p| state.loop_mut(p)) {
            lp.session_error = Some(name);
        }
    }

    /// End of input for now: texts still waiting are published, open loops restated with the
    /// tokens seen so far. Nothing is ended: a live session may go on.
    pub(crate) fn finish(&mut self) -> Vec<IngestMessage> {
        let mut out = Vec::new();
        let keys = self.sessions.ordered_keys();
        for key in keys {
            let Some(state) = self.sessions.get_mut(&key) else {
                continue;
            };
            state.flush_pending(None, &mut out);
            let open: Vec<u32> = state
                .loops
                .iter()
                .filter(|l| l.end.is_none())
                .map(|l| l.position)
                .collect();
            for pos in open {
                state.publish_loop(pos, &mut out);
            }
        }
        out
    }
}
