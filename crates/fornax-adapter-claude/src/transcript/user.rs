//! `user` lines: human prompts (requests and steering), runtime-injected text, tool results
//! with their file-mutation evidence, compaction summaries and interrupts.

use fornax_types::{
    CollectionMethod, EvidenceStrength, IngestMessage, LoopOutcome, Role, Semantic, SemanticValue,
};
use serde_json::Value;

use super::line::Line;
use super::state::{Ending, SessionState};
use super::text_kind::{classify, UserText};
use crate::common::{content_text, get_bool, get_str, get_text};
use crate::file_diff::{self, DiffAttempt, DiffSite};
use crate::tools::{
    delegation_activity, failure_output, is_delegation_tool, output_key, success_output,
};

use EvidenceStrength::{Heuristic, Structural};

/// Handles a `user` line; returns why nothing was published when `out` stays empty.
pub(super) fn on_user(
    st: &mut SessionState,
    line: &Line<'_>,
    out: &mut Vec<IngestMessage>,
) -> &'static str {
    let v = line.v;
    let rewind = st.chain(line.uuid, line.parent_uuid, true);
    if get_text(v, "interruptedMessageId").is_some() {
        end(st, line, LoopOutcome::Interrupted, None, out);
    }
    let content = match v.get("message") {
        Some(m @ Value::Object(_)) => m.get("content").unwrap_or(&Value::Null),
        Some(s @ Value::String(_)) => s,
        _ => return "user line without a message",
    };
    if get_bool(v, "isCompactSummary") == Some(true) {
        if let Some(text) = content_text(content) {
            let key = line.key("msg", 0);
            out.push(line.text_item(st, key, Role::RuntimeCompactionSummary, &text, Structural));
        }
        return "compaction summary without text";
    }
    let flags = TextFlags {
        meta: get_bool(v, "isMeta") == Some(true),
        origin: v.get("origin").and_then(|o| get_str(o, "kind")),
        rewind,
    };
    match content {
        Value::String(text) => on_text(st, line, 0, text, &flags, out),
        Value::Array(blocks) => {
            let results = blocks
                .iter()
                .filter(|b| get_str(b, "type") == Some("tool_result"))
                .count();
            for (i, block) in blocks.iter().enumerate() {
                match get_str(block, "type") {
                    Some("tool_result") => on_tool_result(st, line, i, block, results == 1, out),
                    Some("text") => {
                        if let Some(text) = get_str(block, "text") {
                            on_text(st, line, i, text, &flags, out);
                        }
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
    "user line with nothing to project (images or empty text)"
}

struct TextFlags<'a> {
    meta: bool,
    origin: Option<&'a str>,
    rewind: bool,
}

fn end(
    st: &mut SessionState,
    line: &Line<'_>,
    outcome: LoopOutcome,
    promote: Option<EvidenceStrength>,
    out: &mut Vec<IngestMessage>,
) {
    let ending = Ending {
        outcome,
        record: line.record,
        at: line.at.as_deref(),
        promote,
        message_id: None,
    };
    st.end_loop(&line.session, ending, out);
}

/// A human acted at the prompt (a command, a bash-mode command): if the agent had stopped
/// talking, its loop is over.
pub(super) fn idle_signal(st: &mut SessionState, line: &Line<'_>, out: &mut Vec<IngestMessage>) {
    if st.open.as_ref().is_some_and(|o| !o.busy) {
        end(st, line, LoopOutcome::Completed, Some(Heuristic), out);
    }
}

fn on_text(
    st: &mut SessionState,
    line: &Line<'_>,
    index: usize,
    text: &str,
    flags: &TextFlags<'_>,
    out: &mut Vec<IngestMessage>,
) {
    if text.trim().is_empty() {
        return;
    }
    let key = line.key("msg", index);
    let (kind, own_words) = classify(text);
    if kind == UserText::HookFeedback {
        // A blocking Stop hook made the agent go on: same loop, and the agent owes a reply.
        if let Some(demoted) = st.reopen_closed(&line.session) {
            out.push(demoted);
        }
        if let Some(open) = st.open.as_mut() {
            open.busy = true;
        }
        let strength = if flags.meta { Structural } else { Heuristic };
        out.push(line.text_item(st, key, Role::RuntimeContext, text, strength));
        if st.open.is_none() && st.opener.is_none() {
            st.opener = Some(line.opener());
        }
        return;
    }
    if flags.meta {
        // Structurally flagged as not typed by the human (caveats, expanded command prompts).
        out.push(line.text_item(st, key, Role::RuntimeContext, text, Structural));
        if st.open.is_none() && st.opener.is_none() {
            st.opener = Some(line.opener());
        }
        return;
    }
    if flags.origin == Some("task-notification") {
        out.push(line.text_item(st, key, Role::RuntimeNotice, text, Structural));
        return;
    }
    if line.subagent {
        // The task the parent agent delegated: the runtime instructs the subagent, and the
        // subagent's loop starts here.
        if st.open.is_none() {
            out.push(st.open_loop(
                &line.session,
                line.record,
                line.at.as_deref(),
                line.uuid,
                line.version,
                false,
            ));
        }
        out.push(line.text_item(st, key, Role::RuntimeInstructions, text, Structural));
        return;
    }
    match kind {
        UserText::Human => {
            human_prompt(st, line, key, own_words.unwrap_or(text), flags.rewind, out)
        }
        UserText::Command | UserText::BashInput => {
            idle_signal(st, line, out);
            out.push(line.text_item(st, key, Role::RuntimeNotice, text, Heuristic));
            if st.open.is_none() {
                st.opener = Some(line.opener());
            }
        }
        UserText::LocalOutput | UserText::BashOutput | UserText::Notification => {
            out.push(line.text_item(st, key, Role::RuntimeNotice, text, Heuristic));
        }
        UserText::Context => {
            out.push(line.text_item(st, key, Role::RuntimeContext, text, Heuristic))
        }
        // Handled before the isMeta check (the feedback may come flagged either way).
        UserText::HookFeedback => {}
        UserText::Interrupt => {
            out.push(line.text_item(st, key, Role::RuntimeNotice, text, Heuristic));
            end(st, line, LoopOutcome::Interrupted, None, out);
        }
        UserText::CompactionSummary => {
            out.push(line.text_item(st, key, Role::RuntimeCompactionSummary, text, Heuristic));
        }
    }
}

/// A prompt the human typed: it opens a loop, or steers the one still running.
///
/// With stop reasons (2.1.x), a loop still open is running, so the prompt steers it. Without
/// them (2.0.x), a loop whose agent last spoke without calling a tool is taken as finished:
/// the prompt opens a new loop and the previous one ends (heuristically). A prompt that
/// branches from an earlier line (a rewind) abandons the running loop.
pub(super) fn human_prompt(
    st: &mut SessionState,
    line: &Line<'_>,
    key: String,
    text: &str,
    rewind: bool,
    out: &mut Vec<IngestMessage>,
) {
    let native_id = get_text(line.v, "promptId").or(line.uuid);
    let (role, strength) = match st.open.as_ref() {
        None => (Role::HumanRequest, Structural),
        Some(_) if rewind => {
            end(st, line, LoopOutcome::Interrupted, None, out);
            (Role::HumanRequest, Structural)
        }
        Some(open) if open.busy => {
            let strength = if open.stops_known {
                Structural
            } else {
                Heuristic
            };
            (Role::HumanSteering, strength)
        }
        Some(_) => {
            end(st, line, LoopOutcome::Completed, Some(Heuristic), out);
            (Role::HumanRequest, Heuristic)
        }
    };
    if role == Role::HumanRequest {
        out.push(st.open_loop(
            &line.session,
            line.record,
            line.at.as_deref(),
            native_id,
            line.version,
            false,
        ));
    }
    out.push(line.text_item(st, key, role, text, strength));
}

/// A tool result: the output item (keyed by the call's id, like the hook's PostToolUse) and,
/// for file tools, FileDiff evidence.
fn on_tool_result(
    st: &mut SessionState,
    line: &Line<'_>,
    index: usize,
    block: &Value,
    single: bool,
    out: &mut Vec<IngestMessage>,
) {
    let v = line.v;
    let id = get_text(block, "tool_use_id")
        .or_else(|| single.then(|| get_text(v, "sourceToolUseID")).flatten());
    let key = id.map(output_key).unwrap_or_else(|| line.key("out", index));
    let call = id.and_then(|id| st.calls.remove(id));
    // `toolUseResult` describes the line's tool result; with several results it is ambiguous.
    let result = v.get("toolUseResult").filter(|_| single);
    let is_error = get_bool(block, "is_error")
        .or_else(|| result.and_then(|r| get_bool(r, "is_error")))
        .unwrap_or(false);
    let model_text = block
        .get("content")
        .and_then(content_text)
        .or_else(|| get_str(block, "text").map(str::to_string));
    let tool_name = call
        .as_ref()
        .map(|c| c.name.clone())
        .or_else(|| infer_file_tool(result));
    let value = if is_error {
        let error = model_text
            .clone()
            .or_else(|| result.and_then(Value::as_str).map(str::to_string));
        let interrupted = error
            .as_deref()
            .is_some_and(|e| e.contains("[Request interrupted by user"))
            .then_some(true);
        let mut value = failure_output(id, tool_name.as_deref(), error.as_deref(), interrupted);
        if value.exit_code.is_none() {
            value.exit_code = result
                .and_then(Value::as_str)
                .and_then(crate::common::parse_exit_code);
        }
        value
    } else {
        success_output(
            id,
            tool_name.as_deref(),
            result.filter(|r| r.is_object()),
            model_text.clone(),
        )
    };
    let loop_position = call
        .as_ref()
        .and_then(|c| c.loop_position)
        .or_else(|| st.open.as_ref().map(|o| o.position));
    out.push(line.item(
        key.clone(),
        loop_position,
        Semantic::new(
            Role::ToolOutput,
            SemanticValue::ToolOutput(value),
            Structural,
        ),
    ));
    if tool_name.as_deref().is_none_or(is_delegation_tool) && !is_error {
        let agent_type = call.as_ref().and_then(|c| c.agent_type.as_deref());
        if let Some((key, semantic)) =
            delegation_activity(id, agent_type, result.filter(|r| r.is_object()))
        {
            out.push(line.item(key, loop_position, semantic));
        }
    }
    if let Some(tool) = tool_name.as_deref().filter(|t| file_diff::is_file_tool(t)) {
        let site = DiffSite {
            session: &line.session,
            record: line.record,
            at: line.at.as_deref(),
            loop_position,
            method: CollectionMethod::FilePoll,
            discriminator: "user.tool_result",
        };
        let error_text = model_text.or_else(|| result.and_then(Value::as_str).map(str::to_string));
        let attempt = DiffAttempt {
            tool,
            call_id: id,
            item_key: &key,
            input_path: call.as_ref().and_then(|c| c.file_path.as_deref()),
            input_content_lines: call.as_ref().and_then(|c| c.content_lines),
            result: result.filter(|_| !is_error),
            error: if is_error {
                Some(error_text.as_deref().unwrap_or("tool failed"))
            } else {
                None
            },
        };
        if let Some(ev) = file_diff::evidence(&site, &attempt) {
            out.push(IngestMessage::Evidence(ev));
        }
    }
    if let Some(open) = st.open.as_mut() {
        // The agent has a result to answer.
        open.busy = true;
    }
}

/// The file tool behind a result whose call was not seen (evicted, or before a resume without
/// checkpoint), recognized from the result's own shape.
fn infer_file_tool(result: Option<&Value>) -> Option<String> {
    let r = result.filter(|r| r.is_object())?;
    get_text(r, "filePath")?;
    r.get("structuredPatch")?;
    let tool = if matches!(get_str(r, "type"), Some("create" | "update")) {
        "Write"
    } else if r.get("edits").is_some() {
        "MultiEdit"
    } else {
        "Edit"
    };
    Some(tool.to_string())
}
