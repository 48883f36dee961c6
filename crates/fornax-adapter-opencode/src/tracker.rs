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

use std::collections::VecDeque;
use std::hash::{DefaultHasher, Hash, Hasher};

use fornax_types::evidence::FileDiffPayload;
use fornax_types::{
    ClockSource, CollectionMethod, Delegation, Evidence, EvidenceKind, EvidenceSource,
    EvidenceStrength, Freshness, IngestMessage, Item, Loop, LoopEnd, LoopOutcome, Provider,
    ReasoningMode, ReasoningValue, RecordRef, Role, RuntimeCapabilities, Semantic, SemanticValue,
    Session, SessionRef, TextValue, TrustClass, Usage,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bounded::Bounded;
use crate::json::{at, bool_at, i64_at, raw_str_at, str_at, u64_at};
use crate::time::iso_from_millis;
use crate::tools::{self, Ending, FileTarget, Status};
use crate::ADAPTER_VERSION;

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
pub(crate) const TEXT_LIMIT: usize = 256 * 1024;
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

    fn method(self) -> CollectionMethod {
        match self {
            Transport::Plugin => CollectionMethod::PluginCallback,
            Transport::Storage => CollectionMethod::FilePoll,
        }
    }

    fn tamper_boundary(self) -> &'static str {
        match self {
            Transport::Plugin => "opencode reports the call's arguments and result to the fornax plugin inside its own process; the runtime, or any plugin loaded before it, can alter them",
            Transport::Storage => "read from opencode's storage documents (JSON files or opencode.db rows), which the opencode process and any local user can rewrite after the fact",
        }
    }

    /// Parts of a message whose role is unknown wait for it only on a live stream: storage
    /// delivers every message before any part.
    fn defers_unknown_roles(self) -> bool {
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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
enum Speaker {
    /// A user message that opened a loop.
    Request,
    /// A user message sent while a loop was running.
    Steering,
    Assistant,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct MessageState {
    speaker: Speaker,
    loop_pos: Option<u32>,
    /// A compaction summary written by the model on the runtime's behalf.
    compaction: bool,
    created_at: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Pending {
    part: Value,
    record: RecordRef,
    observed_at: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct PartState {
    /// Order of first sight inside the session: decides which text is a loop's last.
    seq: u64,
    message_id: Option<String>,
    /// The latest version of a text or reasoning part not published yet (still streaming, or
    /// waiting for its message's role).
    pending: Option<Pending>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct CallState {
    tool: String,
    loop_pos: Option<u32>,
    /// Files named by the call's input, for results that do not name them again.
    targets: Vec<FileTarget>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct TextSlot {
    part_id: String,
    message_id: Option<String>,
    seq: u64,
    value: TextValue,
    at: Option<String>,
    records: Vec<RecordRef>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct LoopState {
    position: u32,
    user_message: Option<String>,
    start_record: RecordRef,
    started_at: Option<String>,
    model: Option<String>,
    /// Tokens per assistant message (each message.updated restates its message's total).
    usage: Bounded<Usage>,
    /// Tokens of messages forgotten from `usage`.
    folded: Option<Usage>,
    last_assistant: Option<String>,
    last_finish: Option<String>,
    last_error: Option<String>,
    session_error: Option<String>,
    /// The assistant message whose terminal finish ended the loop.
    terminal_message: Option<String>,
    end: Option<LoopEnd>,
    last_text: Option<TextSlot>,
    final_text: Option<TextSlot>,
}

impl LoopState {
    fn total_usage(&self) -> Option<Usage> {
        let mut total = self.folded;
        for u in self.usage.values() {
            total.get_or_insert_with(Usage::default).accumulate(u);
        }
        total
    }

    fn outcome(&self) -> LoopOutcome {
        match self.last_error.as_deref().or(self.session_error.as_deref()) {
            Some("MessageAbortedError") => LoopOutcome::Interrupted,
            Some(_) => LoopOutcome::Failed,
            None if self.last_finish.as_deref().is_some_and(is_terminal_finish) => {
                LoopOutcome::Completed
            }
            None => LoopOutcome::Interrupted,
        }
    }
}

fn is_terminal_finish(finish: &str) -> bool {
    !matches!(finish, "tool-calls" | "unknown")
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct SessionState {
    id: String,
    capabilities_sent: bool,
    identity: Option<RecordRef>,
    runtime_version: Option<String>,
    next_seq: u64,
    next_loop: u32,
    running: Option<u32>,
    loops: VecDeque<LoopState>,
    messages: Bounded<MessageState>,
    parts: Bounded<PartState>,
    calls: Bounded<CallState>,
    /// Digest of the last publication per item key, loop and evidence id.
    published: Bounded<u64>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Tracker {
    transport: Transport,
    sessions: Bounded<SessionState>,
    last_session: Option<String>,
}

fn digest<T: Serialize>(value: &T) -> u64 {
    let mut h = DefaultHasher::new();
    serde_json::to_string(value)
        .unwrap_or_default()
        .hash(&mut h);
    h.finish()
}

fn iso(v: &Value, path: &[&str]) -> Option<String> {
    i64_at(v, path).and_then(iso_from_millis)
}

/// Tokens of one assistant message. opencode's `tokens.input` excludes cache reads and writes,
/// so prompt tokens are the three added; `None` while the message has reported nothing.
fn message_usage(info: &Value) -> Option<Usage> {
    let tokens = at(info, &["tokens"])?;
    let input = u64_at(tokens, &["input"]);
    let read = u64_at(tokens, &["cache", "read"]);
    let write = u64_at(tokens, &["cache", "write"]);
    let output = u64_at(tokens, &["output"]);
    let reasoning = u64_at(tokens, &["reasoning"]);
    let finished = at(info, &["time", "completed"]).is_some() || at(info, &["finish"]).is_some();
    let reported = [input, read, write, output, reasoning]
        .iter()
        .any(|n| n.is_some_and(|n| n > 0));
    if !finished && !reported {
        return None;
    }
    let input_tokens = match (input, read, write) {
        (None, None, None) => None,
        _ => Some(
            input
                .unwrap_or(0)
                .saturating_add(read.unwrap_or(0))
                .saturating_add(write.unwrap_or(0)),
        ),
    };
    Some(Usage {
        input_tokens,
        cached_input_tokens: read,
        output_tokens: output,
        // Providers differ on whether reasoning is inside output; keep it only when it fits.
        reasoning_output_tokens: reasoning.filter(|r| output.is_some_and(|o| *r <= o)),
    })
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
            capabilities_sent: false,
            identity: None,
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
        if state.identity.is_none() {
            state.identity = Some(ctx.record.clone());
            let session = Session {
                id: state.sref(),
                identity_record: ctx.record.clone(),
                cwd: None,
                name: None,
                created_at: None,
                forked_from: None,
                delegated_from: None,
                runtime_version: None,
            };
            state.publish("session", &session, out, IngestMessage::Session);
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
        let transport = self.transport;
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
        state.flush_pending(Some(msg_id), transport, out);
    }

    fn assistant_message(
        &mut self,
        sid: &str,
        msg_id: &str,
        info: &Value,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) {
        let transport = self.transport;
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
        state.flush_pending(Some(msg_id), transport, out);
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
        let tool = str_at(part, &["tool"]).unwrap_or("unknown");
        let transport = self.transport;
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
        if let Some(input) = input.filter(|_| has_input || status != Some("pending")) {
            let at_start =
                iso(tool_state, &["time", "start"]).or_else(|| ctx.observed_at.map(str::to_string));
            state.publish_call(tool, call_id, input, loop_pos, at_start, ctx.record, out);
        }
        if let Some(ending) = Ending::from_state(tool_state) {
            state.publish_output(transport, tool, call_id, &ending, input, loop_pos, ctx, out);
        }
        Handled::Done
    }

    /// `tool.execute.before`: the call with its arguments, before it runs.
    pub(crate) fn tool_before(
        &mut self,
        sid: &str,
        tool: &str,
        call_id: &str,
        args: &Value,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) {
        let state = self.session_seen(sid, ctx, out);
        let loop_pos = state
            .calls
            .get(call_id)
            .and_then(|c| c.loop_pos)
            .or(state.running);
        let empty = Value::Object(serde_json::Map::new());
        let args = if args.is_object() { args } else { &empty };
        state.publish_call(
            tool,
            call_id,
            args,
            loop_pos,
            ctx.observed_at.map(str::to_string),
            ctx.record,
            out,
        );
    }

    /// `tool.execute.after`: `{title, output, metadata}` of a call that completed (opencode
    /// fires it only when the tool returned; a thrown tool reaches us as an `error` tool part).
    pub(crate) fn tool_after(
        &mut self,
        sid: &str,
        tool: &str,
        call_id: &str,
        args: Option<&Value>,
        result: &Value,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) {
        let transport = self.transport;
        let state = self.session_seen(sid, ctx, out);
        let loop_pos = state
            .calls
            .get(call_id)
            .and_then(|c| c.loop_pos)
            .or(state.running);
        let args = args.filter(|a| a.as_object().is_some_and(|o| !o.is_empty()));
        if let Some(args) = args {
            if !state.calls.contains(call_id) {
                state.publish_call(
                    tool,
                    call_id,
                    args,
                    loop_pos,
                    ctx.observed_at.map(str::to_string),
                    ctx.record,
                    out,
                );
            }
        }
        let ending = Ending {
            status: Status::Completed,
            output: raw_str_at(result, &["output"]),
            error: None,
            metadata: at(result, &["metadata"]).filter(|m| m.is_object()),
            start_ms: None,
            end_ms: None,
        };
        state.publish_output(transport, tool, call_id, &ending, args, loop_pos, ctx, out);
    }

    /// `session.idle` (or `session.status` idle): ends the running loop.
    pub(crate) fn idle(&mut self, sid: &str, ctx: &Ctx<'_>, out: &mut Vec<IngestMessage>) {
        let transport = self.transport;
        let state = self.session_seen(sid, ctx, out);
        state.flush_pending(None, transport, out);
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
        let transport = self.transport;
        let mut out = Vec::new();
        let keys = self.sessions.ordered_keys();
        for key in keys {
            let Some(state) = self.sessions.get_mut(&key) else {
                continue;
            };
            state.flush_pending(None, transport, &mut out);
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

impl SessionState {
    fn sref(&self) -> SessionRef {
        SessionRef::new(Provider::Opencode, self.id.clone())
    }

    fn loop_ref(&self, pos: u32) -> Option<&LoopState> {
        self.loops.iter().find(|l| l.position == pos)
    }

    fn loop_mut(&mut self, pos: u32) -> Option<&mut LoopState> {
        self.loops.iter_mut().find(|l| l.position == pos)
    }

    /// Publishes `value` unless the same fact was the last one published under `key`.
    fn publish<T: Serialize>(
        &mut self,
        key: &str,
        value: &T,
        out: &mut Vec<IngestMessage>,
        wrap: fn(T) -> IngestMessage,
    ) where
        T: Clone,
    {
        let d = digest(value);
        if self.published.get(key) == Some(&d) {
            return;
        }
        self.published.insert(key.to_string(), d);
        out.push(wrap(value.clone()));
    }

    fn part_seq(&mut self, part_id: &str, message_id: Option<&str>) -> u64 {
        if let Some(p) = self.parts.get_mut(part_id) {
            if p.message_id.is_none() {
                p.message_id = message_id.map(str::to_string);
            }
            return p.seq;
        }
        let seq = self.next_seq;
        self.next_seq = self.next_seq.saturating_add(1);
        self.parts.insert(
            part_id.to_string(),
            PartState {
                seq,
                message_id: message_id.map(str::to_string),
                pending: None,
            },
        );
        seq
    }

    fn open_loop(
        &mut self,
        user_message: &str,
        record: &RecordRef,
        started_at: Option<String>,
        model: Option<&str>,
    ) -> u32 {
        let pos = self.next_loop;
        self.next_loop = self.next_loop.saturating_add(1);
        self.loops.push_back(LoopState {
            position: pos,
            user_message: Some(user_message.to_string()),
            start_record: record.clone(),
            started_at,
            model: model.map(str::to_string),
            usage: Bounded::new(MAX_USAGE_ENTRIES),
            folded: None,
            last_assistant: None,
            last_finish: None,
            last_error: None,
            session_error: None,
            terminal_message: None,
            end: None,
            last_text: None,
            final_text: None,
        });
        while self.loops.len() > MAX_LOOPS {
            self.loops.pop_front();
        }
        self.running = Some(pos);
        pos
    }

    fn publish_loop(&mut self, pos: u32, out: &mut Vec<IngestMessage>) {
        let Some(lp) = self.loop_ref(pos) else { return };
        let lp = Loop {
            session: self.sref(),
            position: lp.position,
            native_id: lp.user_message.clone(),
            start_record: lp.start_record.clone(),
            started_at: lp.started_at.clone(),
            end: lp.end.clone(),
            model: lp.model.clone(),
            usage: lp.total_usage(),
            runtime_version: self.runtime_version.clone(),
        };
        self.publish(&format!("loop:{pos}"), &lp, out, IngestMessage::Loop);
    }

    fn end_loop(
        &mut self,
        pos: u32,
        record: &RecordRef,
        ended_at: Option<String>,
        out: &mut Vec<IngestMessage>,
    ) {
        if self.running == Some(pos) {
            self.running = None;
        }
        let Some(lp) = self.loop_mut(pos) else { return };
        lp.end = Some(LoopEnd {
            record: record.clone(),
            outcome: lp.outcome(),
            ended_at,
        });
        self.publish_loop(pos, out);
        self.promote(pos, out);
    }

    /// Publishes the loop's last text as its final answer (returning a previous holder to
    /// commentary).
    fn promote(&mut self, pos: u32, out: &mut Vec<IngestMessage>) {
        let Some(lp) = self.loop_mut(pos) else { return };
        let Some(last) = lp.last_text.clone() else {
            return;
        };
        let end_record = lp.end.as_ref().map(|e| e.record.clone());
        let structural = last.message_id.is_some() && last.message_id == lp.terminal_message;
        let demoted = lp
            .final_text
            .take()
            .filter(|old| old.part_id != last.part_id);
        lp.final_text = Some(last.clone());
        if let Some(old) = demoted {
            self.publish_text_item(
                &old,
                Role::AgentCommentary,
                EvidenceStrength::Structural,
                Some(pos),
                None,
                out,
            );
        }
        let strength = if structural {
            EvidenceStrength::Structural
        } else {
            EvidenceStrength::Heuristic
        };
        self.publish_text_item(
            &last,
            Role::AgentFinalAnswer,
            strength,
            Some(pos),
            end_record,
            out,
        );
    }

    fn publish_text_item(
        &mut self,
        slot: &TextSlot,
        role: Role,
        strength: EvidenceStrength,
        loop_pos: Option<u32>,
        extra_record: Option<RecordRef>,
        out: &mut Vec<IngestMessage>,
    ) {
        let mut records = slot.records.clone();
        if let Some(r) = extra_record.filter(|r| !records.contains(r)) {
            records.push(r);
        }
        let item = Item {
            session: self.sref(),
            key: format!("part:{}", slot.part_id),
            loop_position: loop_pos,
            at: slot.at.clone(),
            semantic: Semantic::new(role, SemanticValue::Text(slot.value.clone()), strength),
            records,
        };
        self.publish_item(item, out);
    }

    fn publish_item(&mut self, item: Item, out: &mut Vec<IngestMessage>) {
        // The fact, not its witnesses: a second sighting of the same text adds nothing.
        let d = digest(&(&item.loop_position, &item.at, &item.semantic));
        if self.published.get(&item.key) == Some(&d) {
            return;
        }
        self.published.insert(item.key.clone(), d);
        out.push(IngestMessage::Item(item));
    }

    /// Publishes the texts that were waiting: those of `message` (or all, when `None`) whose
    /// message role is now known. Parts of unknown messages keep waiting.
    fn flush_pending(
        &mut self,
        message: Option<&str>,
        transport: Transport,
        out: &mut Vec<IngestMessage>,
    ) {
        let ready: Vec<(u64, Pending)> = self
            .parts
            .values_mut()
            .filter(|p| p.pending.is_some())
            .filter(|p| match message {
                Some(m) => p.message_id.as_deref() == Some(m),
                None => true,
            })
            .filter_map(|p| p.pending.take().map(|pending| (p.seq, pending)))
            .collect();
        let mut still_waiting = Vec::new();
        for (seq, pending) in ready {
            let message_id = str_at(&pending.part, &["messageID"]);
            let known = message_id.is_some_and(|m| self.messages.contains(m));
            if !known && message.is_none() && transport.defers_unknown_roles() {
                still_waiting.push(pending);
                continue;
            }
            self.publish_text(
                &pending.part,
                seq,
                &pending.record,
                pending.observed_at.as_deref(),
                out,
            );
        }
        for pending in still_waiting {
            if let Some(id) = str_at(&pending.part, &["id"]).map(str::to_string) {
                if let Some(p) = self.parts.get_mut(&id) {
                    p.pending = Some(pending);
                }
            }
        }
    }

    /// Publishes one text or reasoning part with the role its message gives it.
    fn publish_text(
        &mut self,
        part: &Value,
        seq: u64,
        record: &RecordRef,
        observed_at: Option<&str>,
        out: &mut Vec<IngestMessage>,
    ) {
        let Some(part_id) = str_at(part, &["id"]) else {
            return;
        };
        let message = str_at(part, &["messageID"])
            .and_then(|m| self.messages.get(m))
            .cloned();
        let text = raw_str_at(part, &["text"]).unwrap_or("");
        // The runtime's own times first; the hook's clock only when the runtime gave none.
        let when = iso(part, &["time", "end"])
            .or_else(|| iso(part, &["time", "start"]))
            .or_else(|| message.as_ref().and_then(|m| m.created_at.clone()))
            .or_else(|| observed_at.map(str::to_string));
        let loop_pos = message.as_ref().and_then(|m| m.loop_pos);
        if str_at(part, &["type"]) == Some("reasoning") {
            let readable = !text.trim().is_empty();
            let summarized = at(part, &["metadata", "openai"]).is_some();
            let value = ReasoningValue {
                mode: match (readable, summarized) {
                    (false, _) => ReasoningMode::Unavailable,
                    (true, true) => ReasoningMode::Summary,
                    (true, false) => ReasoningMode::Full,
                },
                text: readable.then(|| TextValue::capped(text, TEXT_LIMIT)),
            };
            let item = Item {
                session: self.sref(),
                key: format!("part:{part_id}"),
                loop_position: loop_pos.or(self.running),
                at: when,
                semantic: Semantic::new(
                    Role::AgentReasoning,
                    SemanticValue::Reasoning(value),
                    EvidenceStrength::Structural,
                ),
                records: vec![record.clone()],
            };
            self.publish_item(item, out);
            return;
        }
        if text.trim().is_empty() {
            return;
        }
        let slot = TextSlot {
            part_id: part_id.to_string(),
            message_id: str_at(part, &["messageID"]).map(str::to_string),
            seq,
            value: TextValue::capped(text, TEXT_LIMIT),
            at: when,
            records: vec![record.clone()],
        };
        let synthetic = bool_at(part, &["synthetic"]) == Some(true)
            || bool_at(part, &["ignored"]) == Some(true);
        let Some(message) = message else {
            // A part whose message was never seen: its speaker is unknown.
            self.publish_text_item(
                &slot,
                Role::RuntimeUnknown,
                EvidenceStrength::Heuristic,
                None,
                None,
                out,
            );
            return;
        };
        let fixed_role = if synthetic {
            Some(Role::RuntimeContext)
        } else {
            match message.speaker {
                Speaker::Request => Some(Role::HumanRequest),
                Speaker::Steering => Some(Role::HumanSteering),
                Speaker::Assistant if message.compaction => Some(Role::RuntimeCompactionSummary),
                Speaker::Assistant => None,
            }
        };
        if let Some(role) = fixed_role {
            self.publish_text_item(
                &slot,
                role,
                EvidenceStrength::Structural,
                loop_pos,
                None,
                out,
            );
            return;
        }
        self.agent_text(slot, loop_pos, out);
    }

    /// Assistant text: commentary while its loop runs; the final answer when it is the last
    /// text of an ended loop.
    fn agent_text(&mut self, slot: TextSlot, loop_pos: Option<u32>, out: &mut Vec<IngestMessage>) {
        let Some(pos) = loop_pos.filter(|p| self.loop_ref(*p).is_some()) else {
            self.publish_text_item(
                &slot,
                Role::AgentCommentary,
                EvidenceStrength::Structural,
                loop_pos,
                None,
                out,
            );
            return;
        };
        let Some(lp) = self.loop_mut(pos) else { return };
        let is_last = lp.last_text.as_ref().is_none_or(|l| slot.seq >= l.seq);
        if is_last {
            lp.last_text = Some(slot.clone());
            if lp.end.is_some() {
                self.promote(pos, out);
                return;
            }
        }
        self.publish_text_item(
            &slot,
            Role::AgentCommentary,
            EvidenceStrength::Structural,
            Some(pos),
            None,
            out,
        );
    }

    #[allow(clippy::too_many_arguments)]
    fn publish_call(
        &mut self,
        tool: &str,
        call_id: &str,
        input: &Value,
        loop_pos: Option<u32>,
        at: Option<String>,
        record: &RecordRef,
        out: &mut Vec<IngestMessage>,
    ) {
        let (role, value) = tools::call_value(tool, call_id, input);
        let targets = if tools::is_file_tool(tool) {
            tools::file_targets(tool, Some(input), None)
        } else {
            Vec::new()
        };
        self.calls.insert(
            call_id.to_string(),
            CallState {
                tool: tool.to_string(),
                loop_pos,
                targets,
            },
        );
        let item = Item {
            session: self.sref(),
            key: format!("call:{call_id}"),
            loop_position: loop_pos,
            at,
            semantic: Semantic::new(role, value, EvidenceStrength::Structural),
            records: vec![record.clone()],
        };
        self.publish_item(item, out);
    }

    #[allow(clippy::too_many_arguments)]
    fn publish_output(
        &mut self,
        transport: Transport,
        tool: &str,
        call_id: &str,
        ending: &Ending<'_>,
        input: Option<&Value>,
        loop_pos: Option<u32>,
        ctx: &Ctx<'_>,
        out: &mut Vec<IngestMessage>,
    ) {
        let key = format!("out:{call_id}");
        let runtime_at = ending.end_ms.and_then(iso_from_millis);
        let at = runtime_at
            .clone()
            .or_else(|| ctx.observed_at.map(str::to_string));
        let value = tools::output_value(tool, call_id, ending);
        let item = Item {
            session: self.sref(),
            key: key.clone(),
            loop_position: loop_pos,
            at: at.clone(),
            semantic: Semantic::new(
                Role::ToolOutput,
                SemanticValue::ToolOutput(value),
                EvidenceStrength::Structural,
            ),
            records: vec![ctx.record.clone()],
        };
        self.publish_item(item, out);
        if !tools::is_file_tool(tool) {
            return;
        }
        let mut targets = tools::file_targets(tool, input, ending.metadata);
        if targets.is_empty() {
            targets = self
                .calls
                .get(call_id)
                .map(|c| c.targets.clone())
                .unwrap_or_default();
        }
        let clock = if runtime_at.is_some() {
            ClockSource::RuntimeRecord
        } else if transport == Transport::Plugin && ctx.observed_at.is_some() {
            ClockSource::HostClock
        } else {
            ClockSource::RecordOrderOnly
        };
        let caveat = match clock {
            ClockSource::HostClock => {
                Some("stamped by the fornax plugin when opencode fired the hook".to_string())
            }
            _ => None,
        };
        let succeeded = !ending.failed();
        let error = ending
            .error
            .map(|e| crate::json::short(e, ERROR_TEXT_LIMIT));
        for target in targets {
            let payload = FileDiffPayload {
                path: target.path.clone(),
                operation: target.operation,
                succeeded,
                tool: tool.to_string(),
                call_id: Some(call_id.to_string()),
                error: if succeeded { None } else { error.clone() },
                lines_added: target.lines_added,
                lines_removed: target.lines_removed,
            };
            let evidence = Evidence {
                id: format!("file:{call_id}:{}", target.path),
                session: self.sref(),
                kind: EvidenceKind::FileDiff,
                payload: serde_json::to_value(&payload).unwrap_or(Value::Null),
                source: EvidenceSource {
                    sensor_name: "opencode.file_mutation".to_string(),
                    trust_class: TrustClass::AgentAdjacent,
                    collection_method: transport.method(),
                    collector_version: ADAPTER_VERSION.to_string(),
                    freshness: Freshness {
                        clock,
                        caveat: caveat.clone(),
                    },
                    tamper_boundary: transport.tamper_boundary().to_string(),
                    collected_at: match transport {
                        Transport::Plugin => ctx.observed_at.map(str::to_string),
                        Transport::Storage => None,
                    },
                    provider: Provider::Opencode,
                },
                provenance: format!("opencode:{ADAPTER_VERSION}:{}", ctx.discriminator),
                extension: None,
                item_key: Some(key.clone()),
                loop_position: loop_pos,
                at: at.clone(),
                records: vec![ctx.record.clone()],
            };
            let id = format!("evidence:{}", evidence.id);
            let d = digest(&(&evidence.payload, &evidence.loop_position, &evidence.at));
            if self.published.get(&id) == Some(&d) {
                continue;
            }
            self.published.insert(id, d);
            out.push(IngestMessage::Evidence(evidence));
        }
    }
}
