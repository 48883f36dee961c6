//! [`GeminiAdapter`]: Gemini CLI chat records, in order, into canonical messages.
//!
//! Mapping (gemini-cli `chatRecordingService`, JSON document format and JSON Lines format):
//!
//! | record | canonical |
//! |---|---|
//! | chat document / metadata line | [`Session`] (+ capabilities, once); `summary` → name |
//! | message `user` | `human.request` opening a [`Loop`] (`runtime.instructions` in a subagent chat) |
//! | message `gemini` | content → `agent.commentary` (→ `agent.final_answer`, heuristic, when the loop ends without tool calls), thoughts → `agent.reasoning` (summary), toolCalls → `agent.tool_call[.shell]` + `tool.output` (+ file evidence for `write_file`/`replace`) |
//! | message `info` / `warning` / `error` | `runtime.notice`; `error` fails the loop, a cancellation notice interrupts it |
//! | `$set` | session name (`summary`), kind; new messages of a `messages` list |
//! | `$rewindTo` | `runtime.state` (the rewound items stay on the timeline) |
//!
//! A JSON Lines chat re-appends a message whole each time it changes (tool calls, results,
//! tokens): keys are message and call ids, so the later copy replaces the earlier one, and a
//! loop's usage counts each message once.

use fornax_types::evidence::FileOperation;
use fornax_types::{
    AgentAdapter, CapabilityProbe, EvidenceStrength, ExitCode, IngestMessage, Item, Loop, LoopEnd,
    LoopOutcome, NativeRecord, NormalizationOutcome, Provider, ReasoningMode, ReasoningValue,
    RecordRef, Role, RuntimeCapabilities, Semantic, SemanticValue, Session, SessionRef,
    ShellCallValue, TextValue, ToolCallValue, ToolOutputValue, Usage,
};
use serde_json::{Map, Value};

use crate::capabilities::chat_file_capabilities;
use crate::content::{
    bounded, capped_arguments, parts_text, result_text, shell_status, usable_id, ShellStatus,
    OUTPUT_CAP, TEXT_CAP,
};
use crate::evidence::FileMutation;
use crate::state::{OpenLoop, State, CHECKPOINT_FORMAT};

/// Normalizes the records of one Gemini CLI chat file (either format).
#[derive(Debug, Default)]
pub struct GeminiAdapter {
    state: State,
}

/// What every item derived from one message shares.
struct Ctx<'a> {
    session: SessionRef,
    record: &'a RecordRef,
    at: Option<String>,
    /// The message id, or a position-based stand-in.
    message: String,
}

impl Ctx<'_> {
    fn item(&self, key: String, loop_position: Option<u32>, semantic: Semantic) -> Item {
        Item {
            session: self.session.clone(),
            key,
            loop_position,
            at: self.at.clone(),
            semantic,
            records: vec![self.record.clone()],
        }
    }

    fn text_item(
        &self,
        key: String,
        loop_position: Option<u32>,
        role: Role,
        text: TextValue,
    ) -> Item {
        self.item(
            key,
            loop_position,
            Semantic::new(
                role,
                SemanticValue::Text(text),
                EvidenceStrength::Structural,
            ),
        )
    }
}

/// The session id Gemini CLI's A2A server writes into every chat header.
const A2A_SERVER_ID: &str = "a2a-server";

fn str_field<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    obj.get(key).and_then(Value::as_str)
}

/// Gemini's `promptTokenCount` includes cached tokens; thoughts are counted apart from the
/// candidates, and canonical output includes reasoning.
fn usage_of(value: Option<&Value>) -> Option<Usage> {
    let obj = value?.as_object()?;
    let n = |k: &str| obj.get(k).and_then(Value::as_u64);
    let (input, cached, output, thoughts, tool) = (
        n("input"),
        n("cached"),
        n("output"),
        n("thoughts"),
        n("tool"),
    );
    let sum = |a: Option<u64>, b: Option<u64>| match (a, b) {
        (None, None) => None,
        (a, b) => Some(a.unwrap_or(0).saturating_add(b.unwrap_or(0))),
    };
    let usage = Usage {
        input_tokens: sum(input, tool),
        cached_input_tokens: cached,
        output_tokens: sum(output, thoughts),
        reasoning_output_tokens: thoughts,
    };
    (!usage.is_empty() && usage.validate().is_ok()).then_some(usage)
}

/// Tool call statuses after which the call will not change.
fn is_terminal(status: Option<&str>) -> bool {
    matches!(status, Some("success" | "error" | "cancelled"))
}

impl GeminiAdapter {
    fn session_ref(&self, hint: &str) -> SessionRef {
        match &self.state.session {
            Some(s) => s.id.clone(),
            None => SessionRef::new(Provider::Gemini, bounded(hint)),
        }
    }

    fn announce(&mut self, session: &SessionRef, out: &mut Vec<IngestMessage>) {
        if self.state.announced.as_deref() == Some(session.native_id.as_str()) {
            return;
        }
        self.state.announced = Some(session.native_id.clone());
        out.push(IngestMessage::Capabilities(
            self.probe()
                .stamped(&session.native_id, self.adapter_version()),
        ));
    }

    fn running_loop(&self) -> Option<u32> {
        self.state
            .current
            .as_ref()
            .filter(|l| l.is_running())
            .map(|l| l.published.position)
    }

    /// Session identity from a metadata line or a chat document. A new id starts that session
    /// afresh; the same id only refreshes the name.
    fn identify(&mut self, obj: &Map<String, Value>, record: &RecordRef) -> Vec<IngestMessage> {
        let Some(id) = str_field(obj, "sessionId").filter(|id| !id.is_empty()) else {
            return Vec::new();
        };
        let id = match (id, str_field(obj, "startTime")) {
            // The A2A server writes every run under this one id; its start tells them apart.
            (A2A_SERVER_ID, Some(start)) => format!("{A2A_SERVER_ID}@{}", bounded(start)),
            _ => bounded(id),
        };
        let name = str_field(obj, "summary").map(|s| TextValue::capped(s.trim(), 1024).text);
        let mut out = Vec::new();
        match self.state.session.as_mut() {
            Some(session) if session.id.native_id == id => {
                if name.is_some() && session.name != name {
                    session.name = name;
                    out.push(IngestMessage::Session(session.clone()));
                }
            }
            _ => {
                let announced = self.state.announced.take();
                self.state = State {
                    announced,
                    ..State::default()
                };
                let session = Session {
                    id: SessionRef::new(Provider::Gemini, id),
                    identity_record: record.clone(),
                    // The chat's workspace directories, when the record lists them.
                    cwd: obj
                        .get("directories")
                        .and_then(|d| d.get(0))
                        .and_then(Value::as_str)
                        .map(str::to_string),
                    name,
                    created_at: str_field(obj, "startTime").map(str::to_string),
                    forked_from: None,
                    delegated_from: None,
                    runtime_version: None,
                };
                out.push(IngestMessage::Session(session.clone()));
                self.announce(&session.id, &mut out);
                self.state.session = Some(session);
            }
        }
        if let Some(kind) = str_field(obj, "kind") {
            self.state.subagent = kind == "subagent";
        }
        out
    }

    /// A whole chat document: the complete truth of the chat at the time it was written, so
    /// it is replayed from a clean state (keys make the replay idempotent).
    fn document(
        &mut self,
        obj: &Map<String, Value>,
        record: &RecordRef,
        hint: &str,
    ) -> NormalizationOutcome {
        let announced = self.state.announced.take();
        self.state = State {
            announced,
            ..State::default()
        };
        let mut out = self.identify(obj, record);
        let messages = obj
            .get("messages")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        for (index, message) in messages.iter().enumerate() {
            if let Some(msg) = message.as_object() {
                let fallback = format!("r{}.{index}", record.position);
                if let NormalizationOutcome::Messages(m) = self.message(msg, record, hint, fallback)
                {
                    out.extend(m);
                }
            }
        }
        NormalizationOutcome::Messages(out)
    }

    fn metadata_update(
        &mut self,
        set: &Map<String, Value>,
        record: &RecordRef,
        hint: &str,
    ) -> NormalizationOutcome {
        let mut out = Vec::new();
        if let Some(session) = self.state.session.as_mut() {
            if let Some(summary) = str_field(set, "summary") {
                let name = Some(TextValue::capped(summary.trim(), 1024).text);
                if session.name != name {
                    session.name = name;
                    out.push(IngestMessage::Session(session.clone()));
                }
            }
        }
        if let Some(kind) = str_field(set, "kind") {
            self.state.subagent = kind == "subagent";
        }
        // A rewritten message list: only messages not seen yet add anything (known ones keep
        // the fuller copy recorded when they happened).
        if let Some(messages) = set.get("messages").and_then(Value::as_array) {
            for (index, message) in messages.iter().enumerate() {
                let Some(msg) = message.as_object() else {
                    continue;
                };
                let known = usable_id(msg.get("id")).is_some_and(|id| self.state.seen_message(&id));
                if known {
                    continue;
                }
                let fallback = format!("r{}.{index}", record.position);
                if let NormalizationOutcome::Messages(m) = self.message(msg, record, hint, fallback)
                {
                    out.extend(m);
                }
            }
        }
        if out.is_empty() {
            NormalizationOutcome::Ignored {
                reason: "metadata update without canonical content",
            }
        } else {
            NormalizationOutcome::Messages(out)
        }
    }

    fn rewind(&mut self, target: &str, record: &RecordRef, hint: &str) -> NormalizationOutcome {
        let session = self.session_ref(hint);
        let ctx = Ctx {
            session,
            record,
            at: None,
            message: format!("r{}", record.position),
        };
        let text = format!(
            "conversation rewound: message {} and every later message were removed",
            bounded(target)
        );
        let item = ctx.text_item(
            format!("rewind:{}", ctx.message),
            self.running_loop(),
            Role::RuntimeState,
            TextValue::full(text),
        );
        NormalizationOutcome::Messages(vec![IngestMessage::Item(item)])
    }

    fn message(
        &mut self,
        msg: &Map<String, Value>,
        record: &RecordRef,
        hint: &str,
        fallback_id: String,
    ) -> NormalizationOutcome {
        let Some(kind) = str_field(msg, "type") else {
            return NormalizationOutcome::Unrecognized {
                discriminator: "message:<no type>".into(),
            };
        };
        let id = usable_id(msg.get("id"));
        let ctx = Ctx {
            session: self.session_ref(hint),
            record,
            at: str_field(msg, "timestamp").map(str::to_string),
            message: id.clone().unwrap_or(fallback_id),
        };
        let produced = match kind {
            "user" => self.user(&ctx, msg, id.is_some()),
            // `model` with `parts` is an older spelling of a model turn.
            "gemini" | "model" => self.gemini(&ctx, msg),
            "info" | "warning" | "error" => self.notice(&ctx, msg, kind),
            other => {
                return NormalizationOutcome::Unrecognized {
                    discriminator: format!("message:{}", bounded(other)),
                }
            }
        };
        if let Some(id) = id {
            self.state.remember_message(id);
        }
        let mut out = Vec::new();
        self.announce(&ctx.session, &mut out);
        out.extend(produced);
        NormalizationOutcome::Messages(out)
    }

    fn user(
        &mut self,
        ctx: &Ctx<'_>,
        msg: &Map<String, Value>,
        has_id: bool,
    ) -> Vec<IngestMessage> {
        // What the human typed (before @file expansion) when recorded, else what the model got.
        let text = parts_text(msg.get("displayContent"))
            .or_else(|| parts_text(msg.get("content")))
            .unwrap_or_default();
        let role = if self.state.subagent {
            Role::RuntimeInstructions
        } else {
            Role::HumanRequest
        };
        let key = format!("msg:{}", ctx.message);
        let text = TextValue::capped(&text, TEXT_CAP);
        if let Some(position) = has_id.then(|| self.state.seen_user(&ctx.message)).flatten() {
            // The same message again (re-appended): it already opened its loop.
            return vec![IngestMessage::Item(ctx.text_item(
                key,
                Some(position),
                role,
                text,
            ))];
        }
        let position = self.state.loops_opened;
        self.state.loops_opened = self.state.loops_opened.saturating_add(1);
        if has_id {
            self.state.remember_user(ctx.message.clone(), position);
        }
        let lp = Loop {
            session: ctx.session.clone(),
            position,
            native_id: None,
            start_record: ctx.record.clone(),
            started_at: ctx.at.clone(),
            end: None,
            model: self
                .state
                .current
                .as_ref()
                .and_then(|l| l.published.model.clone()),
            usage: None,
            runtime_version: None,
        };
        self.state.current = Some(OpenLoop::new(lp.clone()));
        vec![
            IngestMessage::Loop(lp),
            IngestMessage::Item(ctx.text_item(key, Some(position), role, text)),
        ]
    }

    fn gemini(&mut self, ctx: &Ctx<'_>, msg: &Map<String, Value>) -> Vec<IngestMessage> {
        let mut out = Vec::new();
        // A model message after the loop ended resumes it: its final answer is commentary
        // again until the loop ends anew.
        let mut resumed = false;
        let mut demoted = None;
        if let Some(open) = self.state.current.as_mut() {
            if !open.is_running() {
                resumed = true;
                open.published.end = None;
                if let Some(text) = open.last_text.as_mut() {
                    if text.semantic.role == Role::AgentFinalAnswer {
                        text.semantic.role = Role::AgentCommentary;
                        text.semantic.evidence_strength = EvidenceStrength::Structural;
                        demoted = Some(text.clone());
                    }
                }
            }
        }
        let loop_position = self.state.current.as_ref().map(|l| l.published.position);

        let thoughts = msg
            .get("thoughts")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        for (i, thought) in thoughts.iter().enumerate() {
            let subject = thought
                .get("subject")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .trim();
            let description = thought
                .get("description")
                .and_then(Value::as_str)
                .unwrap_or_default()
                .trim();
            let text = match (subject.is_empty(), description.is_empty()) {
                (true, true) => continue,
                (false, true) => subject.to_string(),
                (true, false) => description.to_string(),
                (false, false) => format!("{subject}: {description}"),
            };
            let mut item = ctx.item(
                format!("msg:{}:thought:{i}", ctx.message),
                loop_position,
                Semantic::new(
                    Role::AgentReasoning,
                    SemanticValue::Reasoning(ReasoningValue {
                        mode: ReasoningMode::Summary,
                        text: Some(TextValue::capped(&text, TEXT_CAP)),
                    }),
                    EvidenceStrength::Structural,
                ),
            );
            if let Some(at) = thought.get("timestamp").and_then(Value::as_str) {
                item.at = Some(at.to_string());
            }
            out.push(IngestMessage::Item(item));
        }

        let text = parts_text(msg.get("content"))
            .or_else(|| parts_text(msg.get("parts")))
            .filter(|t| !t.trim().is_empty());
        let mut text_index = None;
        if let Some(text) = &text {
            text_index = Some(out.len());
            out.push(IngestMessage::Item(ctx.text_item(
                format!("msg:{}", ctx.message),
                loop_position,
                Role::AgentCommentary,
                TextValue::capped(text, TEXT_CAP),
            )));
        }

        let calls = msg
            .get("toolCalls")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        let mut cancelled = false;
        for (j, call) in calls.iter().enumerate() {
            let Some(call) = call.as_object() else {
                continue;
            };
            cancelled |= str_field(call, "status") == Some("cancelled");
            self.tool_call(ctx, call, j, loop_position, &mut out);
        }

        // Unless this very message re-publishes it (a re-appended copy), the demoted answer is
        // published as commentary.
        if let Some(demoted) = demoted {
            let republished = out
                .iter()
                .any(|m| matches!(m, IngestMessage::Item(i) if i.key == demoted.key));
            if !republished {
                out.push(IngestMessage::Item(demoted));
            }
        }
        let Some(open) = self.state.current.as_mut() else {
            return out;
        };
        if let Some(model) = str_field(msg, "model") {
            open.published.model = Some(bounded(model));
        }
        if let Some(usage) = usage_of(msg.get("tokens")) {
            open.set_usage(&ctx.message, usage);
        }
        if let Some(index) = text_index {
            if let Some(IngestMessage::Item(item)) = out.get(index) {
                open.last_text = Some(item.clone());
            }
        }
        let outcome = if cancelled {
            Some(LoopOutcome::Interrupted)
        } else if calls.is_empty() && text.is_some() {
            // No tool calls: the model's turn is over.
            Some(LoopOutcome::Completed)
        } else {
            None
        };
        if let Some(outcome) = outcome {
            open.published.end = Some(LoopEnd {
                record: ctx.record.clone(),
                outcome,
                ended_at: ctx.at.clone(),
            });
            if outcome == LoopOutcome::Completed {
                if let Some(IngestMessage::Item(item)) = text_index.and_then(|i| out.get_mut(i)) {
                    item.semantic.role = Role::AgentFinalAnswer;
                    item.semantic.evidence_strength = EvidenceStrength::Heuristic;
                    open.last_text = Some(item.clone());
                }
            }
        }
        if outcome.is_some() || resumed {
            out.push(IngestMessage::Loop(open.published.clone()));
        }
        out
    }

    fn tool_call(
        &self,
        ctx: &Ctx<'_>,
        call: &Map<String, Value>,
        index: usize,
        loop_position: Option<u32>,
        out: &mut Vec<IngestMessage>,
    ) {
        let call_id = usable_id(call.get("id"));
        let (call_key, output_key) = match &call_id {
            Some(id) => (format!("call:{id}"), format!("out:{id}")),
            None => (
                format!("msg:{}:call:{index}", ctx.message),
                format!("msg:{}:out:{index}", ctx.message),
            ),
        };
        let name = str_field(call, "name").map(bounded).unwrap_or_default();
        let arguments = call
            .get("args")
            .map(capped_arguments)
            .unwrap_or(Value::Null);
        let status = str_field(call, "status");
        let at = str_field(call, "timestamp")
            .map(str::to_string)
            .or_else(|| ctx.at.clone());
        let command = (name == "run_shell_command")
            .then(|| arguments.get("command").and_then(Value::as_str))
            .flatten()
            .map(|c| TextValue::capped(c, OUTPUT_CAP).text);
        let shell = command.is_some();
        let semantic = match command {
            Some(command) => Semantic::new(
                Role::AgentToolCallShell,
                SemanticValue::ShellCall(ShellCallValue {
                    call_id: call_id.clone(),
                    invocations: fornax_types::shell::parse_invocations(&command),
                    command,
                    tool_name: name.clone(),
                    cwd: ["dir_path", "directory", "cwd"]
                        .iter()
                        .find_map(|k| arguments.get(*k).and_then(Value::as_str))
                        .map(str::to_string),
                    timeout_ms: None,
                }),
                EvidenceStrength::Structural,
            ),
            None => Semantic::new(
                Role::AgentToolCall,
                SemanticValue::ToolCall(ToolCallValue {
                    call_id: call_id.clone(),
                    name: name.clone(),
                    arguments: arguments.clone(),
                    cwd: None,
                }),
                EvidenceStrength::Structural,
            ),
        };
        let mut item = ctx.item(call_key, loop_position, semantic);
        item.at = at.clone();
        out.push(IngestMessage::Item(item));

        let result = call.get("result").filter(|r| !r.is_null());
        if result.is_none() && !is_terminal(status) {
            // Still scheduled or executing: the output arrives with a later copy.
            return;
        }
        let (mut text, errored) = result_text(result);
        if text.is_none() {
            text = str_field(call, "resultDisplay").map(str::to_string);
        }
        let shell_state = if shell {
            text.as_deref().and_then(shell_status)
        } else {
            None
        };
        let failed = match status {
            Some("error") => Some(true),
            Some("success") => Some(errored),
            _ if errored => Some(true),
            _ => None,
        };
        let interrupted = (status == Some("cancelled")
            || shell_state == Some(ShellStatus::Cancelled))
        .then_some(true);
        let output = ToolOutputValue {
            call_id: call_id.clone(),
            tool_name: Some(name.clone()),
            text: text.as_deref().map(|t| TextValue::capped(t, OUTPUT_CAP)),
            stderr: None,
            exit_code: match shell_state {
                Some(ShellStatus::Exited(code)) => Some(ExitCode {
                    code,
                    strength: EvidenceStrength::Structural,
                }),
                _ => None,
            },
            failed,
            interrupted,
            duration_ms: None,
            runtime_truncated: None,
        };
        let mut item = ctx.item(
            output_key.clone(),
            loop_position,
            Semantic::new(
                Role::ToolOutput,
                SemanticValue::ToolOutput(output),
                EvidenceStrength::Structural,
            ),
        );
        item.at = at.clone();
        out.push(IngestMessage::Item(item));

        let file_tool = matches!(name.as_str(), "write_file" | "replace" | "edit");
        let path = ["file_path", "absolute_path", "path"]
            .iter()
            .find_map(|k| arguments.get(*k).and_then(Value::as_str))
            .filter(|p| !p.is_empty());
        if let (true, Some(path), Some(call_id)) = (file_tool, path, &call_id) {
            let succeeded = failed == Some(false) && interrupted.is_none();
            // `write_file` says whether it created the file or overwrote it.
            let operation = if name == "write_file"
                && !text.as_deref().is_some_and(|t| t.contains("overwrote"))
            {
                FileOperation::Create
            } else {
                FileOperation::Update
            };
            let error = (!succeeded)
                .then(|| {
                    text.as_deref()
                        .and_then(|t| t.lines().find(|l| !l.trim().is_empty()))
                })
                .flatten()
                .map(|l| TextValue::capped(l, 512).text);
            let stat = call.get("resultDisplay").and_then(|d| d.get("diffStat"));
            let lines = stat.and_then(|s| {
                Some((
                    s.get("model_added_lines")?.as_u64()?,
                    s.get("model_removed_lines")?.as_u64()?,
                ))
            });
            let evidence = FileMutation {
                session: &ctx.session,
                call_id,
                tool: &name,
                path,
                operation,
                succeeded,
                error,
                lines: lines.filter(|_| succeeded),
                item_key: output_key,
                loop_position,
                at,
                record: ctx.record.clone(),
                adapter_version: self.adapter_version(),
            }
            .into_evidence();
            out.extend(evidence.map(IngestMessage::Evidence));
        }
    }

    fn notice(
        &mut self,
        ctx: &Ctx<'_>,
        msg: &Map<String, Value>,
        kind: &str,
    ) -> Vec<IngestMessage> {
        let text = parts_text(msg.get("content")).unwrap_or_default();
        let loop_position = self.running_loop();
        let mut out = vec![IngestMessage::Item(ctx.text_item(
            format!("msg:{}", ctx.message),
            loop_position,
            Role::RuntimeNotice,
            TextValue::capped(&text, OUTPUT_CAP),
        ))];
        let outcome = match kind {
            "error" => Some(LoopOutcome::Failed),
            "info" if text.trim_start().starts_with("Request cancelled") => {
                Some(LoopOutcome::Interrupted)
            }
            _ => None,
        };
        if let (Some(outcome), Some(open)) = (outcome, self.state.current.as_mut()) {
            if open.is_running() {
                open.published.end = Some(LoopEnd {
                    record: ctx.record.clone(),
                    outcome,
                    ended_at: ctx.at.clone(),
                });
                out.push(IngestMessage::Loop(open.published.clone()));
            }
        }
        out
    }
}

impl CapabilityProbe for GeminiAdapter {
    fn probe(&self) -> RuntimeCapabilities {
        chat_file_capabilities()
    }
}

impl AgentAdapter for GeminiAdapter {
    fn provider(&self) -> Provider {
        Provider::Gemini
    }

    fn adapter_version(&self) -> &'static str {
        env!("CARGO_PKG_VERSION")
    }

    fn normalize(&mut self, session_hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome {
        let Some(obj) = native.value.as_object() else {
            return NormalizationOutcome::Unrecognized {
                discriminator: "<not an object>".into(),
            };
        };
        let record = native.record;
        if obj.get("messages").is_some_and(Value::is_array) && obj.contains_key("sessionId") {
            return self.document(obj, record, session_hint);
        }
        if let Some(set) = obj.get("$set").and_then(Value::as_object) {
            return self.metadata_update(set, record, session_hint);
        }
        if let Some(target) = str_field(obj, "$rewindTo") {
            return self.rewind(target, record, session_hint);
        }
        if obj.contains_key("sessionId") && !obj.contains_key("type") {
            let out = self.identify(obj, record);
            return if out.is_empty() {
                NormalizationOutcome::Ignored {
                    reason: "metadata line without a new identity",
                }
            } else {
                NormalizationOutcome::Messages(out)
            };
        }
        if obj.contains_key("type") {
            let fallback = format!("r{}", record.position);
            return self.message(obj, record, session_hint, fallback);
        }
        if obj.get("history").is_some_and(Value::is_array) {
            return NormalizationOutcome::Ignored {
                reason: "chat history export without a session id",
            };
        }
        if obj.get("projects").is_some_and(Value::is_object) {
            // `~/.gemini/projects.json`: project paths and the folder under `tmp/` each uses.
            return NormalizationOutcome::Ignored {
                reason: "project registry (~/.gemini/projects.json); it names no chat",
            };
        }
        NormalizationOutcome::Unrecognized {
            discriminator: "<unknown record>".into(),
        }
    }

    fn checkpoint(&self) -> Option<Value> {
        serde_json::to_value(&self.state).ok()
    }

    fn resume(&mut self, state: &Value) -> bool {
        match serde_json::from_value::<State>(state.clone()) {
            Ok(restored) if restored.format == CHECKPOINT_FORMAT => {
                self.state = restored;
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn usage_keeps_cached_within_input_and_reasoning_within_output() {
        let u = usage_of(Some(
            &json!({"input":13283,"output":21,"cached":8147,"thoughts":248,"tool":0,"total":13552}),
        ))
        .unwrap();
        assert_eq!(u.input_tokens, Some(13283));
        assert_eq!(u.cached_input_tokens, Some(8147));
        assert_eq!(u.output_tokens, Some(21 + 248));
        assert_eq!(u.reasoning_output_tokens, Some(248));
        assert!(u.validate().is_ok());
        // Inconsistent counts are not published rather than published wrong.
        assert_eq!(usage_of(Some(&json!({"input":1,"cached":5}))), None);
        assert_eq!(usage_of(Some(&Value::Null)), None);
    }
}
