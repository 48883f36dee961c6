//! Lines the runtime writes about itself: `system` (turn ends, compaction boundaries, local
//! commands, notices) and `attachment` (queued prompts, hook output, memory files, reminders).

use fornax_types::{EvidenceStrength, IngestMessage, LoopOutcome, Role};
use serde_json::Value;

use super::line::Line;
use super::state::{Ending, SessionState};
use super::text_kind::{classify, UserText};
use super::user::{human_prompt, idle_signal};
use crate::common::{content_text, get_str, get_text};

use EvidenceStrength::Structural;

/// Handles a `system` line; returns why nothing was published when `out` stays empty.
pub(super) fn on_system(
    st: &mut SessionState,
    line: &Line<'_>,
    out: &mut Vec<IngestMessage>,
) -> &'static str {
    st.chain(line.uuid, line.parent_uuid, false);
    let v = line.v;
    let content = get_text(v, "content");
    match get_str(v, "subtype") {
        Some("turn_duration") => {
            // Written once a turn is over (2.1.x): ends a loop whose stop reason was not seen.
            let ending = Ending {
                outcome: LoopOutcome::Completed,
                record: line.record,
                at: line.at.as_deref(),
                promote: Some(Structural),
                message_id: None,
            };
            st.end_loop(&line.session, ending, out);
            "turn duration of a loop already ended"
        }
        Some("stop_hook_summary") => "Stop-hook bookkeeping (which hooks ran, how long)",
        Some("api_error") => "API retry bookkeeping without text",
        Some("compact_boundary") => {
            let text = content.unwrap_or("compact_boundary");
            out.push(line.text_item(st, line.key("sys", 0), Role::RuntimeState, text, Structural));
            "compaction boundary"
        }
        Some("local_command") => {
            // A slash command the human ran at the prompt (2.0.47+): the agent had stopped.
            idle_signal(st, line, out);
            if let Some(text) = content {
                out.push(line.text_item(
                    st,
                    line.key("sys", 0),
                    Role::RuntimeNotice,
                    text,
                    Structural,
                ));
            }
            "local command without text"
        }
        _ => {
            if let Some(text) = content {
                out.push(line.text_item(
                    st,
                    line.key("sys", 0),
                    Role::RuntimeNotice,
                    text,
                    Structural,
                ));
            }
            "system bookkeeping line without text"
        }
    }
}

/// Handles an `attachment` line; returns why nothing was published when `out` stays empty.
pub(super) fn on_attachment(
    st: &mut SessionState,
    line: &Line<'_>,
    out: &mut Vec<IngestMessage>,
) -> &'static str {
    st.chain(line.uuid, line.parent_uuid, false);
    const REMINDER: &str =
        "runtime attachment: reminders, listings and mode changes are not projected";
    let Some(att) = line.v.get("attachment").filter(|a| a.is_object()) else {
        return "attachment line without an attachment object";
    };
    let key = line.key("att", 0);
    match get_str(att, "type") {
        Some("queued_command") => {
            let mode = get_str(att, "commandMode");
            let Some(prompt) = get_text(att, "prompt") else {
                return "queued command without a prompt";
            };
            if matches!(mode, None | Some("prompt")) && classify(prompt).0 == UserText::Human {
                // A prompt the human typed while the agent worked, delivered mid-turn.
                human_prompt(st, line, key, prompt, false, out);
            } else {
                out.push(line.text_item(st, key, Role::RuntimeNotice, prompt, Structural));
            }
            "queued command"
        }
        Some("hook_additional_context" | "hook_success") => {
            if let Some(text) = att
                .get("content")
                .and_then(content_text)
                .filter(|t| !t.trim().is_empty())
            {
                out.push(line.text_item(st, key, Role::RuntimeContext, &text, Structural));
            }
            "hook output without text"
        }
        Some("hook_blocking_error") => {
            let text = att
                .get("blockingError")
                .and_then(|b| get_text(b, "blockingError").or_else(|| b.as_str()));
            if let Some(text) = text {
                out.push(line.text_item(st, key, Role::RuntimeContext, text, Structural));
            }
            "blocking hook error without text"
        }
        Some("nested_memory") => {
            let text = att.get("content").and_then(|c| match c {
                Value::String(s) => Some(s.as_str()),
                other => get_str(other, "content"),
            });
            if let Some(text) = text.filter(|t| !t.trim().is_empty()) {
                out.push(line.text_item(st, key, Role::RuntimeInstructions, text, Structural));
            }
            "memory file attachment without text"
        }
        Some("model") => {
            let text = get_text(att, "text").map(str::to_string).or_else(|| {
                att.get("identity")
                    .and_then(|i| get_text(i, "modelId"))
                    .map(|m| format!("model {m}"))
            });
            if let Some(text) = text {
                out.push(line.text_item(st, key, Role::RuntimeState, &text, Structural));
            }
            "model attachment without a model"
        }
        Some("environment") => {
            if let Some(text) = att.get("snapshot").and_then(environment_text) {
                out.push(line.text_item(st, key, Role::RuntimeContext, &text, Structural));
            }
            "environment attachment without a snapshot"
        }
        Some("prompt_snapshot") => {
            let text = att.get("systemPrompt").and_then(content_text);
            if let Some(text) = text.filter(|t| !t.trim().is_empty()) {
                out.push(line.text_item(st, key, Role::RuntimeInstructions, &text, Structural));
            }
            "system prompt snapshot without text"
        }
        _ => REMINDER,
    }
}

/// `environment.snapshot` (2.1.2xx): where and on what the session runs.
fn environment_text(snapshot: &Value) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(dir) = get_text(snapshot, "workingDirectory") {
        parts.push(format!("working directory {dir}"));
    }
    for (field, label) in [
        ("platform", "platform"),
        ("shell", "shell"),
        ("osVersion", "os"),
    ] {
        if let Some(v) = get_text(snapshot, field) {
            parts.push(format!("{label} {v}"));
        }
    }
    if let Some(git) = snapshot.get("isGitRepo").and_then(Value::as_bool) {
        parts.push(
            if git {
                "a git repository"
            } else {
                "not a git repository"
            }
            .to_string(),
        );
    }
    (!parts.is_empty()).then(|| format!("environment: {}", parts.join(", ")))
}

/// The one fact of a 2.1.2xx bookkeeping line, as text for the timeline.
pub(super) fn bookkeeping_fact(ty: &str, v: &Value) -> Option<String> {
    match ty {
        "file-history-delta" => {
            let path = get_text(v, "trackingPath")?;
            let version = v
                .get("backup")
                .and_then(|b| b.get("version"))
                .and_then(Value::as_u64);
            Some(match version {
                Some(n) => format!("file history: {path} backed up (version {n})"),
                None => format!("file history: {path} backed up"),
            })
        }
        "frame-link" => {
            let url = get_text(v, "frameUrl")?;
            Some(match get_text(v, "title") {
                Some(title) => format!("linked frame {title}: {url}"),
                None => format!("linked frame: {url}"),
            })
        }
        "cost-state" => {
            let total = v.get("totalCostUSD").and_then(Value::as_f64)?;
            let mut text = format!("session cost so far: ${total:.4}");
            let lines = |k: &str| v.get(k).and_then(Value::as_u64);
            if let (Some(a), Some(r)) = (lines("totalLinesAdded"), lines("totalLinesRemoved")) {
                text.push_str(&format!(", lines +{a} −{r}"));
            }
            Some(text)
        }
        _ => None,
    }
}
