//! What the human-readable files show of each item: a label and a body, the way the
//! dashboard's timeline reads.

use fornax_store::FindingRow;
use fornax_types::{Item, Role, SemanticValue};

/// Bytes of one body shown before it is cut (the JSONL keeps everything the store has).
pub(super) const BODY_LIMIT: usize = 4000;

pub(super) struct Entry<'a> {
    pub label: String,
    /// Rendered as preformatted text.
    pub code: bool,
    pub body: String,
    pub at: Option<&'a str>,
    pub findings: Vec<&'a FindingRow>,
}

pub(super) fn entry<'a>(item: &'a Item, findings: &'a [FindingRow]) -> Entry<'a> {
    let (label, code, body) = match &item.semantic.value {
        SemanticValue::Text(t) => (
            role_label(item.semantic.role).to_string(),
            false,
            t.text.clone(),
        ),
        SemanticValue::Reasoning(r) => (
            "reasoning".to_string(),
            false,
            r.text.as_ref().map(|t| t.text.clone()).unwrap_or_default(),
        ),
        SemanticValue::ToolCall(c) => (
            format!("tool call · {}", c.name),
            true,
            if c.arguments.is_null() {
                String::new()
            } else {
                serde_json::to_string_pretty(&c.arguments).unwrap_or_default()
            },
        ),
        SemanticValue::ShellCall(c) => (
            format!("shell · {}", c.tool_name),
            true,
            format!("$ {}", c.command),
        ),
        SemanticValue::ToolOutput(o) => {
            let mut label = format!("output · {}", o.tool_name.as_deref().unwrap_or("tool"));
            if let Some(code) = o.exit_code {
                label.push_str(&format!(" · exit {}", code.code));
            }
            if o.failed == Some(true) {
                label.push_str(" · failed");
            }
            let mut body = o.text.as_ref().map(|t| t.text.clone()).unwrap_or_default();
            if let Some(e) = &o.stderr {
                if !e.text.is_empty() {
                    body.push_str("\n[stderr]\n");
                    body.push_str(&e.text);
                }
            }
            (label, true, body)
        }
        SemanticValue::Delegation(d) => (
            "delegation".to_string(),
            false,
            format!(
                "subagent {}{}",
                d.agent_type.as_deref().unwrap_or(""),
                d.agent_id
                    .as_deref()
                    .map(|a| format!(" ({a})"))
                    .unwrap_or_default()
            ),
        ),
        SemanticValue::Subagent(s) => (
            role_label(item.semantic.role).to_string(),
            false,
            s.text.as_ref().map(|t| t.text.clone()).unwrap_or_default(),
        ),
    };
    Entry {
        label,
        code,
        body: cut(&body, BODY_LIMIT),
        at: item.at.as_deref(),
        findings: findings.iter().filter(|f| f.item_key == item.key).collect(),
    }
}

fn role_label(role: Role) -> &'static str {
    match role {
        Role::HumanRequest => "human",
        Role::HumanSteering => "human (steering)",
        Role::AgentCommentary => "agent",
        Role::AgentFinalAnswer => "agent (final answer)",
        Role::SubagentReport => "subagent report",
        Role::SubagentActivity => "subagent",
        other => other.as_str(),
    }
}

/// At most `limit` bytes on a character boundary, with how much was left out.
pub(super) fn cut(s: &str, limit: usize) -> String {
    if s.len() <= limit {
        return s.to_string();
    }
    let mut end = limit;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}\n[… {} more bytes]", &s[..end], s.len() - end)
}

/// Tokens of a loop in one short phrase, or `None` when the runtime stated none.
pub(super) fn usage_phrase(l: &fornax_store::LoopRow) -> Option<String> {
    let parts: Vec<String> = [
        (l.input_tokens, "in"),
        (l.cached_input_tokens, "cached"),
        (l.output_tokens, "out"),
        (l.reasoning_output_tokens, "reasoning"),
    ]
    .iter()
    .filter_map(|(n, what)| n.map(|n| format!("{n} {what}")))
    .collect();
    (!parts.is_empty()).then(|| format!("{} tokens", parts.join(" / ")))
}
