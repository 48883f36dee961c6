//! Inline sidechains: Claude Code 1.0.x wrote a Task subagent's conversation into the parent's
//! own transcript, as lines with `isSidechain: true`, the parent's `sessionId` and no `agentId`,
//! chained by `parentUuid` from a root user line that repeats the Task call's prompt. Parallel
//! Task calls interleave their chains in the file.
//!
//! Each chain is a session of its own, `sidechain-<root uuid>`, delegated from the parent by
//! the Task call whose prompt its root repeats; every later line whose parent is in the chain
//! belongs to it. A sidechain line that answers no pending Task call stays in the session its
//! `sessionId` names, as before. Both tables are bounded.

use fornax_types::Delegation;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bounded::Bounded;
use crate::common::{get_bool, get_str, get_text};

/// Subagent calls remembered while their sidechain has not started.
const TASKS_CAP: usize = 64;
/// Lines remembered per open chain, to place the next line of each.
const CHAIN_LINES_CAP: usize = 4096;
/// Chains whose delegation is remembered.
const CHAINS_CAP: usize = 256;

/// A subagent call whose sidechain may start later in the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct PendingTask {
    parent: String,
    prompt: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    agent_type: Option<String>,
}

/// One inline sidechain: its session and how it was delegated.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Chain {
    parent: String,
    call_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    agent_type: Option<String>,
}

/// The inline sidechains of the files one adapter reads.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct InlineSidechains {
    /// Pending subagent calls, by call id.
    tasks: Bounded<PendingTask>,
    /// The sidechain session of each line seen in one, by line uuid.
    lines: Bounded<String>,
    /// Each sidechain's delegation, by its session id.
    chains: Bounded<Chain>,
}

impl Default for InlineSidechains {
    fn default() -> Self {
        InlineSidechains {
            tasks: Bounded::new(TASKS_CAP),
            lines: Bounded::new(CHAIN_LINES_CAP),
            chains: Bounded::new(CHAINS_CAP),
        }
    }
}

/// The text of a user line's message (a string, or its text blocks joined).
fn user_text(v: &Value) -> Option<String> {
    match v.get("message")?.get("content")? {
        Value::String(s) => Some(s.clone()),
        Value::Array(blocks) => {
            let texts: Vec<&str> = blocks
                .iter()
                .filter(|b| get_str(b, "type") == Some("text"))
                .filter_map(|b| get_str(b, "text"))
                .collect();
            (!texts.is_empty()).then(|| texts.join("\n"))
        }
        _ => None,
    }
}

impl InlineSidechains {
    pub(crate) fn repair(&mut self) {
        self.tasks.repair(TASKS_CAP);
        self.lines.repair(CHAIN_LINES_CAP);
        self.chains.repair(CHAINS_CAP);
    }

    /// Remembers the subagent calls (`Task`, `Agent`) an assistant line makes.
    pub(crate) fn note_calls(&mut self, v: &Value) {
        let Some(parent) = get_text(v, "sessionId") else {
            return;
        };
        let Some(content) = v
            .get("message")
            .and_then(|m| m.get("content"))
            .and_then(Value::as_array)
        else {
            return;
        };
        for block in content {
            if get_str(block, "type") != Some("tool_use")
                || !matches!(get_str(block, "name"), Some("Task" | "Agent"))
            {
                continue;
            }
            let (Some(id), Some(input)) = (get_text(block, "id"), block.get("input")) else {
                continue;
            };
            let Some(prompt) = get_text(input, "prompt") else {
                continue;
            };
            self.tasks.insert(
                id.to_string(),
                PendingTask {
                    parent: parent.to_string(),
                    prompt: prompt.trim().to_string(),
                    agent_type: get_text(input, "subagent_type").map(str::to_string),
                },
            );
        }
    }

    /// The inline sidechain a line belongs to (its session id and delegation), if it is one.
    pub(crate) fn resolve(&mut self, v: &Value) -> Option<(String, Delegation)> {
        if get_bool(v, "isSidechain") != Some(true) || v.get("agentId").is_some() {
            return None;
        }
        let session = get_text(v, "sessionId")?;
        let uuid = get_text(v, "uuid")?;
        let native = match get_text(v, "parentUuid") {
            Some(parent) => self.lines.get(parent)?.clone(),
            None => self.start(v, session, uuid)?,
        };
        let chain = self.chains.get(&native)?.clone();
        self.lines.insert(uuid.to_string(), native.clone());
        Some((
            native,
            Delegation {
                parent_native_id: chain.parent,
                call_id: Some(chain.call_id),
                agent_id: None,
                agent_type: chain.agent_type,
            },
        ))
    }

    /// A root user line that repeats a pending call's prompt starts that call's sidechain.
    fn start(&mut self, v: &Value, session: &str, uuid: &str) -> Option<String> {
        if get_str(v, "type") != Some("user") {
            return None;
        }
        let text = user_text(v)?;
        let text = text.trim();
        let call_id = self.tasks.keys().into_iter().find(|id| {
            self.tasks
                .get(id)
                .is_some_and(|t| t.parent == session && t.prompt == text)
        })?;
        let task = self.tasks.remove(&call_id)?;
        let native = format!("sidechain-{uuid}");
        self.chains.insert(
            native.clone(),
            Chain {
                parent: task.parent,
                call_id,
                agent_type: task.agent_type,
            },
        );
        Some(native)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn task_line(session: &str, id: &str, prompt: &str) -> Value {
        json!({"type": "assistant", "sessionId": session, "isSidechain": false, "uuid": "a1",
               "message": {"role": "assistant", "content": [
                   {"type": "tool_use", "id": id, "name": "Task",
                    "input": {"description": "d", "prompt": prompt, "subagent_type": "general-purpose"}}]}})
    }

    fn side(session: &str, uuid: &str, parent: Option<&str>, ty: &str, text: &str) -> Value {
        json!({"type": ty, "sessionId": session, "isSidechain": true, "uuid": uuid,
               "parentUuid": parent, "message": {"role": ty, "content": text}})
    }

    #[test]
    fn parallel_chains_are_told_apart_by_prompt_and_parent() {
        let mut s = InlineSidechains::default();
        s.note_calls(&task_line("p", "toolu_a", "Run the tests."));
        s.note_calls(&task_line("p", "toolu_b", "Review the code."));
        let (a, da) = s
            .resolve(&side("p", "u1", None, "user", "Run the tests."))
            .unwrap();
        let (b, db) = s
            .resolve(&side("p", "u2", None, "user", "Review the code."))
            .unwrap();
        assert_eq!((a.as_str(), b.as_str()), ("sidechain-u1", "sidechain-u2"));
        assert_eq!(da.call_id.as_deref(), Some("toolu_a"));
        assert_eq!(db.parent_native_id, "p");
        assert_eq!(db.agent_type.as_deref(), Some("general-purpose"));
        // Interleaved lines follow their own chain.
        assert_eq!(
            s.resolve(&side("p", "u3", Some("u2"), "assistant", "x"))
                .unwrap()
                .0,
            "sidechain-u2"
        );
        assert_eq!(
            s.resolve(&side("p", "u4", Some("u1"), "assistant", "y"))
                .unwrap()
                .0,
            "sidechain-u1"
        );
    }

    #[test]
    fn lines_that_answer_no_call_stay_where_they_were() {
        let mut s = InlineSidechains::default();
        // A file whose every line is a sidechain line, with no Task call: not an inline chain.
        assert!(s
            .resolve(&side("solo", "u1", None, "user", "Hello"))
            .is_none());
        assert!(s
            .resolve(&side("solo", "u2", Some("u1"), "assistant", "Hi"))
            .is_none());
        // 2.x subagent files carry an agentId.
        s.note_calls(&task_line("p", "toolu_a", "Go."));
        let mut with_agent = side("p", "u3", None, "user", "Go.");
        with_agent["agentId"] = json!("a1b2");
        assert!(s.resolve(&with_agent).is_none());
        // Another session's call does not adopt the line.
        assert!(s.resolve(&side("q", "u4", None, "user", "Go.")).is_none());
    }
}
