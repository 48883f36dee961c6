//! Tool calls and their outputs, paired by `call_id`.
//!
//! A call is published when it is seen and remembered (bounded) until its output arrives.
//! Every witness of an output (`function_call_output`, `exec_command_end`, `patch_apply_end`,
//! `mcp_tool_call_end`, `item_completed`) joins one `tool.output` item keyed `out:<call_id>`.
//! Unified-exec processes that were still running when their call returned are followed
//! through `write_stdin`: the exit status found there is joined to the original call's output.

use fornax_types::{
    EvidenceStrength, ExitCode, IngestMessage, Item, Role, SemanticValue, ShellCallValue,
    TextValue, ToolCallValue, ToolOutputValue,
};
use serde_json::Value;

use crate::adapter::{CodexAdapter, Ctx, Handled};
use crate::exit_code::ParsedOutput;
use crate::messages::add_record;
use crate::patch::FileChange;
use crate::shell::ShellCommand;
use crate::state::CallInfo;
use crate::text::OUTPUT_TEXT_LIMIT;

/// A call as the record states it.
pub(crate) struct CallSpec {
    pub call_id: Option<String>,
    pub tool_name: String,
    pub arguments: Value,
    pub shell: Option<ShellCommand>,
    pub patch: Vec<FileChange>,
    pub stdin_session: Option<String>,
    pub strength: EvidenceStrength,
}

impl CallSpec {
    pub(crate) fn new(call_id: Option<&str>, tool_name: &str, arguments: Value) -> Self {
        CallSpec {
            call_id: call_id.filter(|c| !c.is_empty()).map(str::to_string),
            tool_name: tool_name.to_string(),
            arguments,
            shell: None,
            patch: Vec::new(),
            stdin_session: None,
            strength: EvidenceStrength::Structural,
        }
    }
}

/// One witness of an output.
#[derive(Default)]
pub(crate) struct OutputWitness {
    pub parsed: ParsedOutput,
    pub stderr: Option<String>,
    pub interrupted: Option<bool>,
    /// The tool's name, when the witness states it (used if the call was never seen).
    pub tool_name: Option<String>,
    /// Append this witness's text to the text already published (a later output chunk).
    pub append_text: bool,
    /// Whether to publish file evidence from the call's patch (off when the witness brings
    /// its own change list).
    pub patch_evidence: bool,
}

impl OutputWitness {
    pub(crate) fn of(parsed: ParsedOutput) -> Self {
        OutputWitness {
            parsed,
            patch_evidence: true,
            ..OutputWitness::default()
        }
    }
}

impl CodexAdapter {
    pub(crate) fn call(&mut self, spec: CallSpec, cx: &mut Ctx<'_>) -> Handled {
        let key = match &spec.call_id {
            Some(id) => format!("call:{id}"),
            None => cx.positional_key("call"),
        };
        self.note_agent_activity();
        let (role, value) = match &spec.shell {
            Some(shell) => (
                Role::AgentToolCallShell,
                SemanticValue::ShellCall(ShellCallValue {
                    call_id: spec.call_id.clone(),
                    tool_name: spec.tool_name.clone(),
                    command: shell.command.clone(),
                    invocations: fornax_types::shell::parse_invocations(&shell.command),
                    cwd: shell.cwd.clone(),
                    timeout_ms: shell.timeout_ms,
                }),
            ),
            None => (
                Role::AgentToolCall,
                SemanticValue::ToolCall(ToolCallValue {
                    call_id: spec.call_id.clone(),
                    name: spec.tool_name.clone(),
                    arguments: spec.arguments,
                    cwd: None,
                }),
            ),
        };
        let item = self.new_item(key.clone(), role, value, spec.strength, cx);
        if let Some(id) = &spec.call_id {
            let info = CallInfo {
                key,
                tool_name: spec.tool_name.clone(),
                record: cx.record.clone(),
                loop_position: self.current_position(),
                command: spec.shell.map(|s| s.command),
                patch: spec.patch,
                stdin_session: spec.stdin_session,
            };
            self.st.calls.insert(id.clone(), info);
        }
        cx.out.push(IngestMessage::Item(item));
        Handled::Done
    }

    pub(crate) fn knows_call(&self, call_id: &str) -> bool {
        self.st.calls.get(call_id).is_some()
    }

    /// Publishes (or re-publishes, joined) the output of `call_id`.
    pub(crate) fn output(
        &mut self,
        call_id: Option<&str>,
        w: OutputWitness,
        cx: &mut Ctx<'_>,
    ) -> Handled {
        let call_id = call_id.filter(|c| !c.is_empty());
        let Some(id) = call_id else {
            let item = self.fresh_output(None, &w, cx);
            cx.out.push(IngestMessage::Item(merged(item, &w, cx)));
            return Handled::Done;
        };
        let call = self.st.calls.get(id).cloned();
        let base = match self.st.outputs.get(id) {
            Some(existing) => existing.clone(),
            None => self.fresh_output(Some(id), &w, cx),
        };
        let item = merged(base, &w, cx);
        cx.out.push(IngestMessage::Item(item.clone()));
        self.st.outputs.insert(id.to_string(), item.clone());

        if let Some(call) = &call {
            if w.patch_evidence && !call.patch.is_empty() {
                if let SemanticValue::ToolOutput(out) = &item.semantic.value {
                    if let Some(succeeded) = patch_succeeded(out) {
                        let error = (!succeeded).then(|| first_line(out)).flatten();
                        self.file_diffs(id, call, &call.patch, succeeded, error, &item, cx);
                    }
                }
            }
            if let Some(session) = &w.parsed.running_session {
                if call.command.is_some() {
                    self.st
                        .exec_sessions
                        .insert(session.clone(), id.to_string());
                }
            }
            if let (Some(session), Some(_)) = (&call.stdin_session, w.parsed.exit_code) {
                self.finish_exec_session(session, &w, cx);
            }
        }
        Handled::Done
    }

    fn fresh_output(&self, call_id: Option<&str>, w: &OutputWitness, cx: &Ctx<'_>) -> Item {
        let call = call_id.and_then(|id| self.st.calls.get(id));
        let key = match call_id {
            Some(id) => format!("out:{id}"),
            None => cx.positional_key("out"),
        };
        let value = ToolOutputValue {
            call_id: call_id.map(str::to_string),
            tool_name: call
                .map(|c| c.tool_name.clone())
                .or_else(|| w.tool_name.clone()),
            text: None,
            stderr: None,
            exit_code: None,
            failed: None,
            interrupted: None,
            duration_ms: None,
            runtime_truncated: None,
        };
        let mut item = self.new_item(
            key,
            Role::ToolOutput,
            SemanticValue::ToolOutput(value),
            EvidenceStrength::Structural,
            cx,
        );
        item.records.clear();
        if let Some(pos) = call.and_then(|c| c.loop_position) {
            item.loop_position = Some(pos);
        }
        item
    }

    /// A `write_stdin` poll saw the process of an earlier `exec_command` exit: the status
    /// belongs to that command's output too.
    fn finish_exec_session(&mut self, session: &str, w: &OutputWitness, cx: &mut Ctx<'_>) {
        let Some(exec_id) = self.st.exec_sessions.remove(session) else {
            return;
        };
        let base = match self.st.outputs.get(&exec_id) {
            Some(existing) => existing.clone(),
            None => self.fresh_output(Some(&exec_id), w, cx),
        };
        let follow_up = OutputWitness {
            parsed: ParsedOutput {
                duration_ms: None,
                running_session: None,
                ..w.parsed.clone()
            },
            append_text: true,
            ..OutputWitness::default()
        };
        let item = merged(base, &follow_up, cx);
        cx.out.push(IngestMessage::Item(item.clone()));
        self.st.outputs.insert(exec_id, item);
    }
}

/// `item` with one more witness joined.
fn merged(mut item: Item, w: &OutputWitness, cx: &Ctx<'_>) -> Item {
    add_record(&mut item, cx);
    if let SemanticValue::ToolOutput(out) = &mut item.semantic.value {
        if let Some(text) = &w.parsed.text {
            out.text = match out.text.take() {
                None => Some(TextValue::capped(text, OUTPUT_TEXT_LIMIT)),
                Some(old) if w.append_text && !text.is_empty() => Some(appended(old, text)),
                // An empty first chunk (a process still running) gives way to real output.
                Some(old) if old.text.trim().is_empty() && !text.trim().is_empty() => {
                    Some(TextValue::capped(text, OUTPUT_TEXT_LIMIT))
                }
                Some(old) => Some(old),
            };
        }
        if out.stderr.is_none() {
            out.stderr = w
                .stderr
                .as_deref()
                .filter(|s| !s.is_empty())
                .map(|s| TextValue::capped(s, OUTPUT_TEXT_LIMIT));
        }
        out.exit_code = stronger(out.exit_code, w.parsed.exit_code);
        out.failed = match (out.failed, w.parsed.failed) {
            (_, Some(true)) => Some(true),
            (None, new) => new,
            (old, _) => old,
        };
        out.duration_ms = out.duration_ms.or(w.parsed.duration_ms);
        out.interrupted = out.interrupted.or(w.interrupted);
        if out.tool_name.is_none() {
            out.tool_name = w.tool_name.clone();
        }
    }
    item
}

fn appended(old: TextValue, more: &str) -> TextValue {
    if old.text.trim().is_empty() {
        return TextValue::capped(more, OUTPUT_TEXT_LIMIT);
    }
    let joined = format!("{}\n{}", old.text, more);
    let mut text = TextValue::capped(&joined, OUTPUT_TEXT_LIMIT);
    text.byte_len = old.byte_len + 1 + more.len() as u64;
    text.truncated = text.truncated || old.truncated;
    text
}

/// Keeps the first structural code; a structural code replaces a heuristic one.
fn stronger(old: Option<ExitCode>, new: Option<ExitCode>) -> Option<ExitCode> {
    match (old, new) {
        (None, new) => new,
        (Some(o), Some(n))
            if o.strength == EvidenceStrength::Heuristic
                && n.strength == EvidenceStrength::Structural =>
        {
            Some(n)
        }
        (old, _) => old,
    }
}

/// Whether an apply_patch output says the patch applied: its exit status, its failure flag,
/// or Codex's own success / verification-error text. `None` while nothing says.
fn patch_succeeded(out: &ToolOutputValue) -> Option<bool> {
    if let Some(code) = out
        .exit_code
        .filter(|c| c.strength == EvidenceStrength::Structural)
    {
        return Some(code.code == 0);
    }
    if let Some(failed) = out.failed {
        return Some(!failed);
    }
    let text = out.text.as_ref()?.text.trim_start();
    if text.starts_with("Success.")
        || text.starts_with("Done!")
        || text.contains("Updated the following files")
    {
        return Some(true);
    }
    let lower: String = text
        .chars()
        .take(200)
        .collect::<String>()
        .to_ascii_lowercase();
    let failure = [
        "error",
        "failed",
        "apply_patch verification failed",
        "patch rejected",
        "aborted",
    ]
    .iter()
    .any(|p| lower.starts_with(p))
        || lower.contains("failed to find");
    failure.then_some(false)
}

fn first_line(out: &ToolOutputValue) -> Option<String> {
    let text = out.text.as_ref()?.text.trim();
    let line = text.lines().next()?.trim();
    (!line.is_empty()).then(|| line.chars().take(300).collect())
}
