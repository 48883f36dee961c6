//! One session family's timeline: items in order, tool calls paired with their outputs.
//!
//! Outputs pair with calls by call id (within the session first, then across the timeline);
//! an output without a call id pairs with the latest unanswered call of its session. A shell
//! command is read from a shell-call item, or from a generic tool call whose tool is a shell
//! (`Bash`, `shell`, `exec_command`, ...) when an adapter did not classify it.

use std::borrow::Cow;
use std::collections::HashMap;

use fornax_types::{Item, SemanticValue, SessionRef, ToolOutputValue};
use serde_json::Value;

/// What a call asks for.
#[derive(Debug, Clone)]
pub enum CallKind<'a> {
    /// A shell command line (borrowed from a shell-call item; joined from its words when a
    /// generic tool call holds it as a list).
    Shell {
        command: Cow<'a, str>,
        cwd: Option<&'a str>,
    },
    /// Any other tool, by name, with its arguments.
    Tool { name: &'a str, arguments: &'a Value },
}

/// An output item and its value.
#[derive(Debug, Clone, Copy)]
pub struct Output<'a> {
    pub index: usize,
    pub item: &'a Item,
    pub value: &'a ToolOutputValue,
}

/// A tool call and, when recorded, its output.
#[derive(Debug, Clone)]
pub struct Call<'a> {
    pub index: usize,
    pub item: &'a Item,
    pub call_id: Option<&'a str>,
    pub kind: CallKind<'a>,
    pub output: Option<Output<'a>>,
}

impl Call<'_> {
    /// Where the call's outcome sits on the timeline: its output, or the call itself.
    pub fn position(&self) -> usize {
        self.output.map_or(self.index, |o| o.index.max(self.index))
    }

    pub fn tool_name(&self) -> &str {
        match &self.kind {
            CallKind::Shell { .. } => match &self.item.semantic.value {
                SemanticValue::ShellCall(c) => c.tool_name.as_str(),
                SemanticValue::ToolCall(c) => c.name.as_str(),
                _ => "shell",
            },
            CallKind::Tool { name, .. } => name,
        }
    }
}

#[derive(Debug)]
pub struct Timeline<'a> {
    pub items: Vec<&'a Item>,
    pub calls: Vec<Call<'a>>,
    /// How many tool-output items the timeline holds (paired or not).
    pub output_count: usize,
    /// Index of the last call or output item, if any.
    pub last_activity: Option<usize>,
    /// Index of the last call or output item of each session.
    pub last_activity_of: HashMap<SessionRef, usize>,
    keys: HashMap<(&'a SessionRef, &'a str), usize>,
    bare_keys: HashMap<&'a str, usize>,
}

const SHELL_TOOLS: &[&str] = &[
    "bash",
    "shell",
    "exec_command",
    "shell_command",
    "run_shell_command",
    "local_shell",
    "terminal",
    "execute_command",
    "run_command",
    "run_terminal_cmd",
    "command",
    "sh",
    "zsh",
    "powershell",
];

/// The argument keys a shell tool's command is read from, in order.
pub(crate) const COMMAND_KEYS: [&str; 2] = ["command", "cmd"];

/// A shell command held by a generic tool call (`{"command": "..."}`, `{"cmd": [...]}`).
pub(crate) fn shell_command_in<'a>(name: &str, arguments: &'a Value) -> Option<Cow<'a, str>> {
    if !SHELL_TOOLS.contains(&name.to_ascii_lowercase().as_str()) {
        return None;
    }
    let value = COMMAND_KEYS.iter().find_map(|k| arguments.get(*k))?;
    match value {
        Value::String(s) => Some(Cow::Borrowed(s)),
        Value::Array(parts) => {
            let words: Vec<String> = parts
                .iter()
                .filter_map(Value::as_str)
                .map(quote_word)
                .collect();
            (!words.is_empty()).then(|| Cow::Owned(words.join(" ")))
        }
        _ => None,
    }
}

/// Quotes a word for a shell command line when it needs it.
pub fn quote_word(w: &str) -> String {
    if !w.is_empty()
        && w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@%^".contains(c))
    {
        w.to_string()
    } else {
        format!("'{}'", w.replace('\'', r"'\''"))
    }
}

impl<'a> Timeline<'a> {
    pub fn build(items: &[&'a Item]) -> Self {
        let mut calls: Vec<Call<'a>> = Vec::new();
        let mut by_id: HashMap<(SessionRef, &'a str), usize> = HashMap::new();
        let mut by_bare_id: HashMap<&'a str, usize> = HashMap::new();
        let mut early_outputs: HashMap<&'a str, Output<'a>> = HashMap::new();
        let mut output_count = 0;
        let mut last_activity = None;
        let mut last_activity_of: HashMap<SessionRef, usize> = HashMap::new();
        let mut keys = HashMap::new();
        let mut bare_keys = HashMap::new();
        for (index, item) in items.iter().copied().enumerate() {
            keys.entry((&item.session, item.key.as_str()))
                .or_insert(index);
            bare_keys.entry(item.key.as_str()).or_insert(index);
            let call = match &item.semantic.value {
                SemanticValue::ShellCall(c) => Some((
                    c.call_id.as_deref(),
                    CallKind::Shell {
                        command: Cow::Borrowed(&c.command),
                        cwd: c.cwd.as_deref(),
                    },
                )),
                SemanticValue::ToolCall(c) => Some((
                    c.call_id.as_deref(),
                    match shell_command_in(&c.name, &c.arguments) {
                        Some(command) => CallKind::Shell {
                            command,
                            cwd: c.cwd.as_deref(),
                        },
                        None => CallKind::Tool {
                            name: c.name.as_str(),
                            arguments: &c.arguments,
                        },
                    },
                )),
                _ => None,
            };
            if let Some((call_id, kind)) = call {
                last_activity = Some(index);
                last_activity_of.insert(item.session.clone(), index);
                let slot = calls.len();
                let output = call_id.and_then(|id| early_outputs.remove(id));
                calls.push(Call {
                    index,
                    item,
                    call_id,
                    kind,
                    output,
                });
                if let Some(id) = call_id {
                    by_id.insert((item.session.clone(), id), slot);
                    by_bare_id.insert(id, slot);
                }
                continue;
            }
            if let SemanticValue::ToolOutput(value) = &item.semantic.value {
                output_count += 1;
                last_activity = Some(index);
                last_activity_of.insert(item.session.clone(), index);
                let output = Output { index, item, value };
                let slot = match value.call_id.as_deref() {
                    Some(id) => by_id
                        .get(&(item.session.clone(), id))
                        .or_else(|| by_bare_id.get(id))
                        .copied()
                        .filter(|&s| calls[s].output.is_none()),
                    None => calls.iter().rposition(|c| {
                        c.output.is_none()
                            && c.item.session == item.session
                            && value
                                .tool_name
                                .as_deref()
                                .is_none_or(|t| t.eq_ignore_ascii_case(c.tool_name()))
                    }),
                };
                match (slot, value.call_id.as_deref()) {
                    (Some(s), _) => calls[s].output = Some(output),
                    (None, Some(id)) => {
                        // The output came first (parallel tools written out of order).
                        early_outputs.entry(id).or_insert(output);
                    }
                    (None, None) => {}
                }
            }
        }
        Timeline {
            items: items.to_vec(),
            calls,
            output_count,
            last_activity,
            last_activity_of,
            keys,
            bare_keys,
        }
    }

    /// The timeline index of an item, by session and key (or by key alone).
    /// Where an observation stamped `at` (RFC 3339) sits: the index of the last item stamped
    /// at or before it, or 0 when it precedes every stamped item. Claims at later indices were
    /// made after it. `None` when `at` does not parse or no item carries a time.
    pub fn position_at(&self, at: &str) -> Option<usize> {
        let when: jiff::Timestamp = at.parse().ok()?;
        let mut stamped = false;
        let mut last = None;
        for (i, item) in self.items.iter().enumerate() {
            let Some(t) = item
                .at
                .as_deref()
                .and_then(|t| t.parse::<jiff::Timestamp>().ok())
            else {
                continue;
            };
            stamped = true;
            if t <= when {
                last = Some(i);
            }
        }
        stamped.then(|| last.unwrap_or(0))
    }

    pub fn index_of(&self, session: &SessionRef, key: &str) -> Option<usize> {
        self.keys
            .get(&(session, key))
            .or_else(|| self.bare_keys.get(key))
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::*;

    #[test]
    fn pairs_by_call_id_and_by_order() {
        let items = [
            shell_call("c1", Some("id1"), "cargo test"),
            tool_call(
                "c2",
                Some("id2"),
                "Edit",
                serde_json::json!({"file_path": "a.rs"}),
            ),
            output("o2", Some("id2"), "ok", None, Some(false)),
            output(
                "o1",
                Some("id1"),
                "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out",
                Some(0),
                None,
            ),
            shell_call("c3", None, "ls"),
            output("o3", None, "a.rs", None, None),
        ];
        let refs: Vec<&Item> = items.iter().collect();
        let t = Timeline::build(&refs);
        assert_eq!(t.calls.len(), 3);
        assert_eq!(t.calls[0].output.map(|o| o.index), Some(3));
        assert_eq!(t.calls[1].output.map(|o| o.index), Some(2));
        assert_eq!(t.calls[2].output.map(|o| o.index), Some(5));
        assert_eq!(t.output_count, 3);
        assert_eq!(t.last_activity, Some(5));
    }

    #[test]
    fn generic_bash_tool_is_a_shell_call() {
        let items = [tool_call(
            "c1",
            Some("x"),
            "Bash",
            serde_json::json!({"command": "npm test"}),
        )];
        let refs: Vec<&Item> = items.iter().collect();
        let t = Timeline::build(&refs);
        assert!(
            matches!(&t.calls[0].kind, CallKind::Shell { command, .. } if command == "npm test")
        );
        let items = [tool_call(
            "c1",
            Some("x"),
            "shell",
            serde_json::json!({"command": ["bash", "-lc", "pytest -q"]}),
        )];
        let refs: Vec<&Item> = items.iter().collect();
        let t = Timeline::build(&refs);
        assert!(
            matches!(&t.calls[0].kind, CallKind::Shell { command, .. } if command == "bash -lc 'pytest -q'")
        );
    }

    #[test]
    fn output_before_call_still_pairs() {
        let items = [
            output("o1", Some("k"), "done", Some(0), None),
            shell_call("c1", Some("k"), "make"),
        ];
        let refs: Vec<&Item> = items.iter().collect();
        let t = Timeline::build(&refs);
        assert_eq!(t.calls[0].output.map(|o| o.index), Some(0));
        assert_eq!(t.calls[0].position(), 1);
    }
}
