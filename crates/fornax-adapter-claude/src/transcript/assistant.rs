//! `assistant` lines: agent text, reasoning and tool calls; loop ends from stop reasons; usage
//! counted once per API message.

use fornax_types::{
    EvidenceStrength, IngestMessage, LoopOutcome, ReasoningMode, ReasoningValue, Role, Semantic,
    SemanticValue, UsageFact,
};
use serde_json::Value;

use super::line::Line;
use super::state::{Ending, PendingCall, SessionState};
use crate::common::{
    capped, get_bool, get_str, get_text, line_count, token_counts_from, usage_from,
};
use crate::tools::{call_key, call_semantic};

use EvidenceStrength::Structural;

/// The usage fact of an assistant line. One API response is split over several lines that
/// repeat its usage, so the key is the response's `message.id` with the line's `requestId`
/// (a copied or resumed file repeats both); the later lines of a response replace its counts
/// (the last holds the final output count). A line without a message id counts on its own; a
/// usage of all zeros is no call.
fn usage_fact(
    line: &Line<'_>,
    message: &Value,
    message_id: Option<&str>,
    loop_position: Option<u32>,
) -> Option<UsageFact> {
    let tokens = message
        .get("usage")
        .and_then(token_counts_from)
        .filter(|t| !t.is_zero())?;
    let request_id = get_text(line.v, "requestId");
    let key = match (message_id, request_id, line.uuid) {
        (Some(m), Some(r), _) => format!("{m}:{r}"),
        (Some(m), None, _) => m.to_string(),
        (None, _, Some(uuid)) => format!("line:{uuid}"),
        (None, _, None) => format!(
            "record:{}:{}",
            line.record.source.as_str(),
            line.record.position
        ),
    };
    Some(UsageFact {
        session: line.session.clone(),
        key,
        loop_position,
        at: line.at.clone(),
        model: get_text(message, "model").map(str::to_string),
        tokens,
        reported_cost_usd: None,
        record: line.record.clone(),
    })
}

/// Handles an `assistant` line; returns why nothing was published when `out` stays empty.
pub(super) fn on_assistant(
    st: &mut SessionState,
    line: &Line<'_>,
    out: &mut Vec<IngestMessage>,
) -> &'static str {
    let v = line.v;
    st.chain(line.uuid, line.parent_uuid, true);
    let message = match v.get("message") {
        Some(m @ Value::Object(_)) => m,
        _ => return "assistant line without a message object",
    };
    let content = message.get("content").unwrap_or(&Value::Null);
    let blocks: Vec<&Value> = match content {
        Value::Array(blocks) => blocks.iter().collect(),
        Value::String(_) => vec![content],
        _ => Vec::new(),
    };
    let api_error = get_bool(v, "isApiErrorMessage") == Some(true);
    let model = get_text(message, "model");
    // Messages the runtime wrote itself (API errors, "No response requested.") are not the
    // agent's voice and carry no real usage.
    let synthetic = api_error || model == Some("<synthetic>");
    let message_id = get_text(message, "id");
    let rejoined = if synthetic {
        None
    } else {
        st.rejoin(message_id)
    };
    if st.open.is_none() && !synthetic && !blocks.is_empty() {
        // Agent work without an observed human request (after a slash command, a hook's
        // feedback, or a resume): an implicit loop, started at the runtime prompt if one came.
        out.push(st.open_loop(
            &line.session,
            line.record,
            line.at.as_deref(),
            None,
            line.version,
            true,
        ));
    }
    if let (Some(open), false) = (st.open.as_mut(), synthetic) {
        if let Some(model) = model {
            open.model = Some(model.to_string());
        }
        if let Some(usage) = message.get("usage").and_then(usage_from) {
            let fallback = format!("r{}", line.record.position);
            let id = message_id.or(line.uuid).unwrap_or(&fallback);
            open.usage.record(id, usage);
        }
    }
    let loop_position = st.open.as_ref().map(|o| o.position);
    if !synthetic {
        if let Some(fact) = usage_fact(line, message, message_id, loop_position) {
            out.push(IngestMessage::Usage(fact));
        }
    }
    let (mut has_text, mut has_tool_use) = (false, false);
    for (i, block) in blocks.iter().enumerate() {
        let kind = if block.is_string() {
            Some("text")
        } else {
            get_str(block, "type")
        };
        match kind {
            Some("text") => {
                let text = block
                    .as_str()
                    .or_else(|| get_str(block, "text"))
                    .unwrap_or_default();
                if text.trim().is_empty() {
                    continue;
                }
                let key = line.key("msg", i);
                if synthetic {
                    out.push(line.text_item(st, key, Role::RuntimeNotice, text, Structural));
                    continue;
                }
                has_text = true;
                out.push(line.text_item(st, key.clone(), Role::AgentCommentary, text, Structural));
                if let Some(open) = st.open.as_mut() {
                    open.last_text = Some(line.last_text(key, text));
                }
            }
            Some("thinking") => {
                let text = get_str(block, "thinking").filter(|t| !t.trim().is_empty());
                let value = ReasoningValue {
                    mode: if text.is_some() {
                        ReasoningMode::Full
                    } else {
                        ReasoningMode::Unavailable
                    },
                    text: text.map(capped),
                };
                out.push(reasoning(line, i, loop_position, value));
            }
            Some("redacted_thinking") => {
                let value = ReasoningValue {
                    mode: ReasoningMode::Unavailable,
                    text: None,
                };
                out.push(reasoning(line, i, loop_position, value));
            }
            Some("tool_use" | "server_tool_use") => {
                let Some(name) = get_text(block, "name") else {
                    continue;
                };
                has_tool_use = true;
                let id = get_text(block, "id");
                let input = block.get("input").unwrap_or(&Value::Null);
                let key = id.map(call_key).unwrap_or_else(|| line.key("call", i));
                let semantic = call_semantic(&line.session.native_id, name, id, input, line.cwd);
                out.push(line.item(key, loop_position, semantic));
                if let Some(id) = id {
                    st.calls.insert(
                        id.to_string(),
                        PendingCall {
                            name: name.to_string(),
                            loop_position,
                            file_path: get_text(input, "file_path").map(str::to_string),
                            content_lines: get_str(input, "content").map(line_count),
                            agent_type: get_text(input, "subagent_type").map(str::to_string),
                        },
                    );
                }
                if let Some(open) = st.open.as_mut() {
                    // Text before a tool call is commentary, never the final answer.
                    open.last_text = None;
                }
            }
            _ => {}
        }
    }
    let stop_reason = get_str(message, "stop_reason");
    if let Some(open) = st.open.as_mut() {
        if stop_reason.is_some() {
            open.stops_known = true;
        }
        if has_tool_use || stop_reason == Some("tool_use") {
            open.busy = true;
        } else if has_text {
            open.busy = false;
        }
    }
    let ending = if api_error {
        Some((LoopOutcome::Failed, None))
    } else if synthetic {
        None
    } else {
        match stop_reason {
            Some("end_turn" | "stop_sequence") => Some((LoopOutcome::Completed, Some(Structural))),
            Some("refusal") => Some((LoopOutcome::Failed, None)),
            _ => None,
        }
    };
    if let Some((outcome, promote)) = ending {
        let ending = Ending {
            outcome,
            record: line.record,
            at: line.at.as_deref(),
            promote,
            message_id,
        };
        st.end_loop(&line.session, ending, out);
    } else if let Some((outcome, promote)) = rejoined {
        // A later line of the message that ended the loop, without its stop reason: the loop
        // ends again the same way.
        let ending = Ending {
            outcome,
            record: line.record,
            at: line.at.as_deref(),
            promote,
            message_id,
        };
        st.end_loop(&line.session, ending, out);
    }
    "assistant line with no content blocks"
}

fn reasoning(
    line: &Line<'_>,
    index: usize,
    loop_position: Option<u32>,
    value: ReasoningValue,
) -> IngestMessage {
    line.item(
        line.key("msg", index),
        loop_position,
        Semantic::new(
            Role::AgentReasoning,
            SemanticValue::Reasoning(value),
            Structural,
        ),
    )
}
