//! [`PiAdapter`]: one Pi session file's entries, in order, into canonical messages.
//!
//! Mapping (Pi `packages/coding-agent` session format v1 to v3):
//!
//! | entry | canonical |
//! |---|---|
//! | `session` header | [`Session`] (+ capabilities, once) |
//! | `message` user | `human.request` opening a [`Loop`]; `human.steering` while one runs |
//! | `message` assistant | text → `agent.commentary` (the loop's last text → `agent.final_answer` on `stopReason: stop`), thinking → `agent.reasoning`, toolCall → `agent.tool_call[.shell]`, `errorMessage` → `runtime.notice`; the stopReason ends the loop |
//! | `message` toolResult | `tool.output` (+ file-mutation evidence for `write`/`edit`) |
//! | `message` bashExecution (user `!cmd`) | `runtime.context` |
//! | `message` custom / hookMessage, `custom_message` | `runtime.notice` when displayed, else `runtime.context` |
//! | `compaction`, `branch_summary` | `runtime.compaction_summary` |
//! | `model_change`, `thinking_level_change` | `runtime.state` |
//! | `session_info` | the session's name |
//! | `label`, `custom` | ignored (bookmarks, extension state) |
//!
//! Branches: an entry whose `parentId` is not the previous entry continues the timeline; items
//! keep their entry ids, so abandoned and current branches both stay visible.

use fornax_types::{
    AgentAdapter, CapabilityProbe, EvidenceStrength, ExitCode, IngestMessage, Item, Loop, LoopEnd,
    LoopOutcome, NativeRecord, NormalizationOutcome, Provider, ReasoningMode, ReasoningValue,
    RecordRef, Role, RuntimeCapabilities, Semantic, SemanticValue, Session, SessionRef,
    ShellCallValue, TextValue, ToolCallValue, ToolOutputValue, Usage,
};
use serde_json::{Map, Value};

use crate::capabilities::session_file_capabilities;
use crate::content::{
    bounded, capped_arguments, diff_line_counts, joined_text, shell_status, ShellStatus,
    OUTPUT_CAP, TEXT_CAP,
};
use crate::evidence::FileMutation;
use crate::state::{FileTarget, OpenLoop, PendingCall, State, CHECKPOINT_FORMAT};

/// Longest call or entry id used verbatim in a key.
const ID_CAP: usize = 256;

/// Normalizes the records of one Pi session file.
#[derive(Debug, Default)]
pub struct PiAdapter {
    state: State,
}

/// What every item derived from one record shares.
struct Ctx<'a> {
    session: SessionRef,
    record: &'a RecordRef,
    /// The entry's own timestamp (ISO string), when it has one.
    at: Option<String>,
    /// The entry id, or a position-based stand-in for id-less v1 entries.
    entry: String,
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
        strength: EvidenceStrength,
    ) -> Item {
        self.item(
            key,
            loop_position,
            Semantic::new(role, SemanticValue::Text(text), strength),
        )
    }
}

fn str_field<'a>(obj: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    obj.get(key).and_then(Value::as_str)
}

/// The session id inside a Pi session path (`.../<timestamp>_<uuid>.jsonl`), or the value
/// itself when it is not a path.
fn session_id_from_path(path: &str) -> Option<String> {
    let name = path.rsplit(['/', '\\']).next()?;
    let stem = name.strip_suffix(".jsonl").unwrap_or(name);
    let id = stem.rsplit_once('_').map(|(_, id)| id).unwrap_or(stem);
    (!id.is_empty()).then(|| bounded(id))
}

/// Pi's usage counts `input` without cache reads and writes; canonical input counts every
/// prompt token.
fn usage_of(value: Option<&Value>) -> Option<Usage> {
    let obj = value?.as_object()?;
    let n = |k: &str| obj.get(k).and_then(Value::as_u64);
    let (input, cache_read, cache_write, output) =
        (n("input"), n("cacheRead"), n("cacheWrite"), n("output"));
    let prompt_parts = [input, cache_read, cache_write];
    let input_tokens = prompt_parts.iter().any(Option::is_some).then(|| {
        prompt_parts
            .iter()
            .map(|p| p.unwrap_or(0))
            .fold(0u64, u64::saturating_add)
    });
    let usage = Usage {
        input_tokens,
        cached_input_tokens: cache_read,
        output_tokens: output,
        reasoning_output_tokens: None,
    };
    (!usage.is_empty()).then_some(usage)
}

fn outcome_of(stop_reason: Option<&str>) -> Option<LoopOutcome> {
    match stop_reason? {
        "stop" => Some(LoopOutcome::Completed),
        "aborted" => Some(LoopOutcome::Interrupted),
        "error" | "length" => Some(LoopOutcome::Failed),
        // `toolUse`: the loop goes on; unknown reasons decide nothing.
        _ => None,
    }
}

impl PiAdapter {
    fn session_ref(&self, hint: &str) -> SessionRef {
        match &self.state.session {
            Some(s) => s.id.clone(),
            None => SessionRef::new(
                Provider::Pi,
                session_id_from_path(hint).unwrap_or_else(|| bounded(hint)),
            ),
        }
    }

    /// Capabilities, once per session id.
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

    /// A stable key stem for the entry: its id, or `r<position>` (`r<position>.<n>` for the
    /// n-th further object handed over at the same position) for id-less v1 entries.
    fn entry_key(&mut self, obj: &Map<String, Value>, record: &RecordRef) -> String {
        if self.state.last_position == Some(record.position) {
            self.state.objects_at_position = self.state.objects_at_position.saturating_add(1);
        } else {
            self.state.last_position = Some(record.position);
            self.state.objects_at_position = 0;
        }
        match str_field(obj, "id").filter(|id| !id.is_empty() && id.len() <= ID_CAP) {
            Some(id) => id.to_string(),
            None if self.state.objects_at_position == 0 => format!("r{}", record.position),
            None => format!("r{}.{}", record.position, self.state.objects_at_position),
        }
    }

    /// The position of the loop that is still running, if any.
    fn running_loop(&self) -> Option<u32> {
        self.state
            .current
            .as_ref()
            .filter(|l| l.is_running())
            .map(|l| l.published.position)
    }

    fn header(&mut self, obj: &Map<String, Value>, record: &RecordRef) -> NormalizationOutcome {
        let Some(id) = str_field(obj, "id").filter(|id| !id.is_empty()) else {
            return NormalizationOutcome::Ignored {
                reason: "session header without an id",
            };
        };
        let id = bounded(id);
        if self
            .state
            .session
            .as_ref()
            .is_some_and(|s| s.id.native_id == id)
        {
            return NormalizationOutcome::Ignored {
                reason: "repeated session header",
            };
        }
        // A header naming another session starts that session afresh.
        self.state = State::default();
        let forked_from = str_field(obj, "parentSession")
            .or_else(|| str_field(obj, "branchedFrom"))
            .and_then(session_id_from_path);
        let session = Session {
            id: SessionRef::new(Provider::Pi, id),
            identity_record: record.clone(),
            cwd: str_field(obj, "cwd").map(str::to_string),
            name: None,
            created_at: str_field(obj, "timestamp").map(str::to_string),
            forked_from,
            delegated_from: None,
            runtime_version: None,
        };
        self.state.model = str_field(obj, "modelId").map(bounded);
        let mut out = vec![IngestMessage::Session(session.clone())];
        self.announce(&session.id, &mut out);
        self.state.session = Some(session);
        NormalizationOutcome::Messages(out)
    }

    fn user(&mut self, ctx: &Ctx<'_>, msg: &Map<String, Value>) -> Vec<IngestMessage> {
        let text = joined_text(msg.get("content")).unwrap_or_default();
        let text = TextValue::capped(&text, TEXT_CAP);
        let key = format!("msg:{}", ctx.entry);
        if let Some(position) = self.running_loop() {
            // Pi delivers messages queued during a run right after a tool result: the human
            // steers the loop under way. A crashed run looks the same, hence heuristic.
            let item = ctx.text_item(
                key,
                Some(position),
                Role::HumanSteering,
                text,
                EvidenceStrength::Heuristic,
            );
            return vec![IngestMessage::Item(item)];
        }
        let position = self.state.loops_opened;
        self.state.loops_opened = self.state.loops_opened.saturating_add(1);
        let lp = Loop {
            session: ctx.session.clone(),
            position,
            native_id: None,
            start_record: ctx.record.clone(),
            started_at: ctx.at.clone(),
            end: None,
            model: self.state.model.clone(),
            usage: None,
            runtime_version: None,
        };
        self.state.current = Some(OpenLoop {
            published: lp.clone(),
            last_text: None,
        });
        let item = ctx.text_item(
            key,
            Some(position),
            Role::HumanRequest,
            text,
            EvidenceStrength::Structural,
        );
        vec![IngestMessage::Loop(lp), IngestMessage::Item(item)]
    }

    fn assistant(&mut self, ctx: &Ctx<'_>, msg: &Map<String, Value>) -> Vec<IngestMessage> {
        let mut out = Vec::new();
        // An assistant message after the loop ended (a retry, an extension-triggered turn)
        // resumes it: its earlier final answer is commentary again.
        let mut resumed = false;
        if let Some(open) = self.state.current.as_mut() {
            if !open.is_running() {
                resumed = true;
                open.published.end = None;
                if let Some(text) = open.last_text.as_mut() {
                    if text.semantic.role == Role::AgentFinalAnswer {
                        text.semantic.role = Role::AgentCommentary;
                        out.push(IngestMessage::Item(text.clone()));
                    }
                }
            }
        }
        let loop_position = self.state.current.as_ref().map(|l| l.published.position);
        let cwd = self.state.session.as_ref().and_then(|s| s.cwd.clone());

        let mut last_text_index = None;
        let blocks = msg
            .get("content")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
            .unwrap_or(&[]);
        for (i, block) in blocks.iter().enumerate() {
            let key = format!("msg:{}:{i}", ctx.entry);
            match block.get("type").and_then(Value::as_str) {
                Some("text") => {
                    let text = block
                        .get("text")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    if text.trim().is_empty() {
                        continue;
                    }
                    last_text_index = Some(out.len());
                    out.push(IngestMessage::Item(ctx.text_item(
                        key,
                        loop_position,
                        Role::AgentCommentary,
                        TextValue::capped(text, TEXT_CAP),
                        EvidenceStrength::Structural,
                    )));
                }
                Some("thinking") => {
                    let text = block
                        .get("thinking")
                        .and_then(Value::as_str)
                        .unwrap_or_default();
                    let redacted = block.get("redacted").and_then(Value::as_bool) == Some(true);
                    let value = if !text.trim().is_empty() {
                        ReasoningValue {
                            mode: ReasoningMode::Full,
                            text: Some(TextValue::capped(text, TEXT_CAP)),
                        }
                    } else if redacted {
                        ReasoningValue {
                            mode: ReasoningMode::Unavailable,
                            text: None,
                        }
                    } else {
                        continue;
                    };
                    out.push(IngestMessage::Item(ctx.item(
                        key,
                        loop_position,
                        Semantic::new(
                            Role::AgentReasoning,
                            SemanticValue::Reasoning(value),
                            EvidenceStrength::Structural,
                        ),
                    )));
                }
                Some("toolCall") => {
                    let item = self.tool_call(ctx, block, key, loop_position, cwd.as_deref());
                    out.push(IngestMessage::Item(item));
                }
                // Blocks of future kinds carry nothing this adapter can state.
                _ => {}
            }
        }
        if let Some(error) = str_field(msg, "errorMessage").filter(|e| !e.trim().is_empty()) {
            out.push(IngestMessage::Item(ctx.text_item(
                format!("err:{}", ctx.entry),
                loop_position,
                Role::RuntimeNotice,
                TextValue::capped(error, OUTPUT_CAP),
                EvidenceStrength::Structural,
            )));
        }

        let model = str_field(msg, "model").map(bounded);
        if model.is_some() {
            self.state.model = model.clone();
        }
        let Some(open) = self.state.current.as_mut() else {
            return out;
        };
        if let Some(usage) = usage_of(msg.get("usage")) {
            open.published
                .usage
                .get_or_insert_with(Usage::default)
                .accumulate(&usage);
        }
        if model.is_some() {
            open.published.model = model;
        }
        if let Some(index) = last_text_index {
            if let Some(IngestMessage::Item(item)) = out.get(index) {
                open.last_text = Some(item.clone());
            }
        }
        let outcome = outcome_of(str_field(msg, "stopReason"));
        if let Some(outcome) = outcome {
            open.published.end = Some(LoopEnd {
                record: ctx.record.clone(),
                outcome,
                ended_at: ctx.at.clone(),
            });
            if outcome == LoopOutcome::Completed {
                // The loop's last agent text is its final answer.
                match last_text_index {
                    Some(index) => {
                        if let Some(IngestMessage::Item(item)) = out.get_mut(index) {
                            item.semantic.role = Role::AgentFinalAnswer;
                            open.last_text = Some(item.clone());
                        }
                    }
                    None => {
                        if let Some(text) = open.last_text.as_mut() {
                            text.semantic.role = Role::AgentFinalAnswer;
                            out.push(IngestMessage::Item(text.clone()));
                        }
                    }
                }
            }
        }
        if outcome.is_some() || resumed {
            out.push(IngestMessage::Loop(open.published.clone()));
        }
        out
    }

    fn tool_call(
        &mut self,
        ctx: &Ctx<'_>,
        block: &Value,
        fallback_key: String,
        loop_position: Option<u32>,
        cwd: Option<&str>,
    ) -> Item {
        let call_id = block
            .get("id")
            .and_then(Value::as_str)
            .filter(|id| !id.is_empty() && id.len() <= ID_CAP)
            .map(str::to_string);
        let name = block
            .get("name")
            .and_then(Value::as_str)
            .map(bounded)
            .unwrap_or_default();
        let arguments = block
            .get("arguments")
            .map(capped_arguments)
            .unwrap_or(Value::Null);
        let command = (name == "bash")
            .then(|| arguments.get("command").and_then(Value::as_str))
            .flatten()
            .map(|c| TextValue::capped(c, OUTPUT_CAP).text);
        let file = match name.as_str() {
            "write" | "edit" => arguments
                .get("path")
                .or_else(|| arguments.get("file_path"))
                .and_then(Value::as_str)
                .filter(|p| !p.is_empty())
                .map(|p| FileTarget {
                    path: p.to_string(),
                    tool: name.clone(),
                }),
            _ => None,
        };
        if let Some(id) = &call_id {
            self.state.pending.insert(PendingCall {
                id: id.clone(),
                name: name.clone(),
                shell: command.is_some(),
                file,
                record: ctx.record.clone(),
                loop_position,
            });
        }
        let key = call_id
            .as_ref()
            .map(|id| format!("call:{id}"))
            .unwrap_or(fallback_key);
        let semantic = match command {
            Some(command) => Semantic::new(
                Role::AgentToolCallShell,
                SemanticValue::ShellCall(ShellCallValue {
                    call_id,
                    invocations: fornax_types::shell::parse_invocations(&command),
                    command,
                    tool_name: name,
                    cwd: cwd.map(str::to_string),
                    timeout_ms: arguments
                        .get("timeout")
                        .and_then(Value::as_f64)
                        .filter(|s| s.is_finite() && *s > 0.0)
                        .map(|s| (s * 1000.0) as u64),
                }),
                EvidenceStrength::Structural,
            ),
            None => Semantic::new(
                Role::AgentToolCall,
                SemanticValue::ToolCall(ToolCallValue {
                    call_id,
                    name,
                    arguments,
                    cwd: None,
                }),
                EvidenceStrength::Structural,
            ),
        };
        ctx.item(key, loop_position, semantic)
    }

    fn tool_result(&mut self, ctx: &Ctx<'_>, msg: &Map<String, Value>) -> Vec<IngestMessage> {
        let call_id = str_field(msg, "toolCallId")
            .filter(|id| !id.is_empty() && id.len() <= ID_CAP)
            .map(str::to_string);
        let pending = call_id
            .as_deref()
            .and_then(|id| self.state.pending.take(id));
        let tool_name = str_field(msg, "toolName")
            .map(bounded)
            .or_else(|| pending.as_ref().map(|p| p.name.clone()));
        let shell = pending.as_ref().map(|p| p.shell).unwrap_or(false)
            || tool_name.as_deref() == Some("bash");
        let text = joined_text(msg.get("content"));
        let failed = msg.get("isError").and_then(Value::as_bool);
        let status = if shell {
            text.as_deref().and_then(shell_status)
        } else {
            None
        };
        let details = msg.get("details");
        let output = ToolOutputValue {
            call_id: call_id.clone(),
            tool_name,
            text: text.as_deref().map(|t| TextValue::capped(t, OUTPUT_CAP)),
            stderr: None,
            exit_code: match status {
                Some(ShellStatus::Exited(code)) => Some(ExitCode {
                    code,
                    strength: EvidenceStrength::Structural,
                }),
                _ => None,
            },
            failed,
            interrupted: matches!(status, Some(ShellStatus::Aborted | ShellStatus::TimedOut))
                .then_some(true),
            duration_ms: None,
            runtime_truncated: details
                .and_then(|d| d.get("truncation"))
                .and_then(|t| t.get("truncated"))
                .and_then(Value::as_bool),
        };
        let loop_position = self
            .running_loop()
            .or_else(|| pending.as_ref().and_then(|p| p.loop_position));
        let key = match &call_id {
            Some(id) => format!("out:{id}"),
            None => format!("msg:{}", ctx.entry),
        };
        let item = ctx.item(
            key.clone(),
            loop_position,
            Semantic::new(
                Role::ToolOutput,
                SemanticValue::ToolOutput(output),
                EvidenceStrength::Structural,
            ),
        );
        let mut out = vec![IngestMessage::Item(item)];

        if let (Some(call), Some(call_id)) = (&pending, &call_id) {
            if let Some(target) = &call.file {
                let failed = failed == Some(true);
                let error = failed
                    .then(|| {
                        text.as_deref()
                            .and_then(|t| t.lines().find(|l| !l.trim().is_empty()))
                    })
                    .flatten()
                    .map(|l| TextValue::capped(l, 512).text);
                let lines = (!failed)
                    .then(|| details.and_then(|d| d.get("diff")).and_then(Value::as_str))
                    .flatten()
                    .map(diff_line_counts);
                let evidence = FileMutation {
                    session: &ctx.session,
                    call_id,
                    target,
                    failed,
                    error,
                    lines,
                    item_key: key,
                    loop_position,
                    at: ctx.at.clone(),
                    records: vec![call.record.clone(), ctx.record.clone()],
                    adapter_version: self.adapter_version(),
                }
                .into_evidence();
                out.extend(evidence.map(IngestMessage::Evidence));
            }
        }
        out
    }

    /// A command the human ran with `!cmd`: its output enters the model's context. Rendered
    /// the way Pi renders it for the model.
    fn bash_execution(&self, ctx: &Ctx<'_>, msg: &Map<String, Value>) -> Vec<IngestMessage> {
        let command = str_field(msg, "command").unwrap_or_default();
        let output = str_field(msg, "output").unwrap_or_default();
        let mut text = format!("Ran `{command}`\n");
        if output.is_empty() {
            text.push_str("(no output)");
        } else {
            text.push_str(&format!("```\n{output}\n```"));
        }
        if msg.get("cancelled").and_then(Value::as_bool) == Some(true) {
            text.push_str("\n\n(command cancelled)");
        } else if let Some(code) = msg
            .get("exitCode")
            .and_then(Value::as_i64)
            .filter(|c| *c != 0)
        {
            text.push_str(&format!("\n\nCommand exited with code {code}"));
        }
        let item = ctx.text_item(
            format!("msg:{}", ctx.entry),
            self.running_loop(),
            Role::RuntimeContext,
            TextValue::capped(&text, OUTPUT_CAP),
            EvidenceStrength::Structural,
        );
        vec![IngestMessage::Item(item)]
    }

    /// Text an extension injected into the model's context (`custom_message` entries, and
    /// `custom`/`hookMessage` message roles).
    fn injected(&self, ctx: &Ctx<'_>, obj: &Map<String, Value>, key: String) -> Vec<IngestMessage> {
        let text = joined_text(obj.get("content")).unwrap_or_default();
        let role = if obj.get("display").and_then(Value::as_bool) == Some(true) {
            Role::RuntimeNotice
        } else {
            Role::RuntimeContext
        };
        let item = ctx.text_item(
            key,
            self.running_loop(),
            role,
            TextValue::capped(&text, TEXT_CAP),
            EvidenceStrength::Structural,
        );
        vec![IngestMessage::Item(item)]
    }

    fn summary(&self, ctx: &Ctx<'_>, obj: &Map<String, Value>, key: String) -> Vec<IngestMessage> {
        let text = str_field(obj, "summary").unwrap_or_default();
        let item = ctx.text_item(
            key,
            self.running_loop(),
            Role::RuntimeCompactionSummary,
            TextValue::capped(text, TEXT_CAP),
            EvidenceStrength::Structural,
        );
        vec![IngestMessage::Item(item)]
    }

    fn runtime_state(&self, ctx: &Ctx<'_>, text: String) -> Vec<IngestMessage> {
        let item = ctx.text_item(
            format!("entry:{}", ctx.entry),
            self.running_loop(),
            Role::RuntimeState,
            TextValue::capped(&text, OUTPUT_CAP),
            EvidenceStrength::Structural,
        );
        vec![IngestMessage::Item(item)]
    }

    fn message(&mut self, ctx: &Ctx<'_>, obj: &Map<String, Value>) -> NormalizationOutcome {
        let Some(msg) = obj.get("message").and_then(Value::as_object) else {
            return NormalizationOutcome::Ignored {
                reason: "message entry without a message",
            };
        };
        let Some(role) = str_field(msg, "role") else {
            return NormalizationOutcome::Unrecognized {
                discriminator: "message:<no role>".into(),
            };
        };
        let mut out = Vec::new();
        let produced = match role {
            "user" => self.user(ctx, msg),
            "assistant" => self.assistant(ctx, msg),
            "toolResult" => self.tool_result(ctx, msg),
            "bashExecution" => self.bash_execution(ctx, msg),
            "custom" | "hookMessage" => self.injected(ctx, msg, format!("msg:{}", ctx.entry)),
            "branchSummary" | "compactionSummary" => {
                self.summary(ctx, msg, format!("msg:{}", ctx.entry))
            }
            other => {
                return NormalizationOutcome::Unrecognized {
                    discriminator: format!("message:{}", bounded(other)),
                }
            }
        };
        self.announce(&ctx.session, &mut out);
        out.extend(produced);
        NormalizationOutcome::Messages(out)
    }
}

impl CapabilityProbe for PiAdapter {
    fn probe(&self) -> RuntimeCapabilities {
        session_file_capabilities()
    }
}

impl AgentAdapter for PiAdapter {
    fn provider(&self) -> Provider {
        Provider::Pi
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
        let Some(kind) = str_field(obj, "type") else {
            return NormalizationOutcome::Unrecognized {
                discriminator: "<no type>".into(),
            };
        };
        if kind == "session" {
            return self.header(obj, native.record);
        }
        let entry = self.entry_key(obj, native.record);
        let ctx = Ctx {
            session: self.session_ref(session_hint),
            record: native.record,
            at: str_field(obj, "timestamp").map(str::to_string),
            entry,
        };
        let produced = match kind {
            "message" => return self.message(&ctx, obj),
            "compaction" | "branch_summary" => {
                self.summary(&ctx, obj, format!("entry:{}", ctx.entry))
            }
            "custom_message" => self.injected(&ctx, obj, format!("entry:{}", ctx.entry)),
            "model_change" => {
                let model = str_field(obj, "modelId").map(bounded);
                let provider = str_field(obj, "provider").map(bounded);
                if model.is_some() {
                    self.state.model = model.clone();
                }
                let text = match (provider, model) {
                    (Some(p), Some(m)) => format!("model changed to {p}/{m}"),
                    (None, Some(m)) => format!("model changed to {m}"),
                    _ => "model changed".to_string(),
                };
                self.runtime_state(&ctx, text)
            }
            "thinking_level_change" => {
                let level = str_field(obj, "thinkingLevel")
                    .map(bounded)
                    .unwrap_or_default();
                self.runtime_state(&ctx, format!("thinking level set to {level}"))
            }
            "session_info" => {
                let name = str_field(obj, "name")
                    .map(str::trim)
                    .filter(|n| !n.is_empty());
                match (self.state.session.as_mut(), name) {
                    (Some(session), Some(name)) => {
                        session.name = Some(TextValue::capped(name, 1024).text);
                        vec![IngestMessage::Session(session.clone())]
                    }
                    _ => {
                        return NormalizationOutcome::Ignored {
                            reason: "session_info without a name or a known session",
                        }
                    }
                }
            }
            "label" => {
                return NormalizationOutcome::Ignored {
                    reason: "label entries are user bookmarks",
                }
            }
            "custom" => {
                return NormalizationOutcome::Ignored {
                    reason: "custom entries hold extension state outside the conversation",
                }
            }
            other => {
                return NormalizationOutcome::Unrecognized {
                    discriminator: bounded(other),
                };
            }
        };
        let mut out = Vec::new();
        self.announce(&ctx.session, &mut out);
        out.extend(produced);
        NormalizationOutcome::Messages(out)
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

    #[test]
    fn session_ids_come_out_of_pi_paths() {
        assert_eq!(
            session_id_from_path(
                "/h/.pi/agent/sessions/--x--/2025-12-09T00-52-54-397Z_d97339c6.jsonl"
            )
            .as_deref(),
            Some("d97339c6")
        );
        assert_eq!(session_id_from_path("abc").as_deref(), Some("abc"));
        assert_eq!(session_id_from_path("/tmp/").as_deref(), None);
    }

    #[test]
    fn usage_counts_cache_reads_as_input() {
        let u = usage_of(Some(
            &serde_json::json!({"input":10,"output":8,"cacheRead":49204,"cacheWrite":1739}),
        ))
        .unwrap();
        assert_eq!(u.input_tokens, Some(10 + 49204 + 1739));
        assert_eq!(u.cached_input_tokens, Some(49204));
        assert_eq!(u.output_tokens, Some(8));
        assert!(u.validate().is_ok());
        assert_eq!(usage_of(Some(&serde_json::json!({}))), None);
    }

    #[test]
    fn stop_reasons_map_to_outcomes() {
        assert_eq!(outcome_of(Some("stop")), Some(LoopOutcome::Completed));
        assert_eq!(outcome_of(Some("aborted")), Some(LoopOutcome::Interrupted));
        assert_eq!(outcome_of(Some("error")), Some(LoopOutcome::Failed));
        assert_eq!(outcome_of(Some("length")), Some(LoopOutcome::Failed));
        assert_eq!(outcome_of(Some("toolUse")), None);
        assert_eq!(outcome_of(None), None);
    }
}
