//! Hook logs: the payloads a hook logging script wrote into JSON files, one file per event type
//! (`logs/pre_tool_use.json`, `logs/stop.json`, ...), each an array of payloads as they arrived.
//!
//! Ingestion reads the files of one folder as one document dump and asks [`place`] and
//! [`plan`] (pure functions of the payloads) how to rebuild each session's timeline:
//!
//! * payloads are grouped by `session_id` (a subagent's events carry their parent's);
//! * when every payload of a session has a timestamp (some scripts add `timestamp` or
//!   `logged_at`), they are ordered by it;
//! * otherwise the order is reconstructed: each file keeps its own order, a PostToolUse or
//!   PostToolUseFailure follows its PreToolUse (paired by `tool_use_id`, else by tool name and
//!   input, in order), and turns follow the protocol: SessionStart, then each prompt with its
//!   Stop. Tool events cannot be placed in a particular earlier turn, so they go into the last
//!   one, before its Stop: every claim judged against them was made after them (a claim of an
//!   earlier Stop sees none). The adapter marks what rests on a reconstructed order as
//!   heuristic.

use std::collections::{BTreeMap, HashMap, VecDeque};

use fornax_types::{DocumentTree, TreeDoc, TreeGroup};
use serde_json::Value;

use crate::common::{digest, get_str, get_text};

const RANK_START: u8 = 0;
const RANK_PROMPT: u8 = 1;
const RANK_TOOLS: u8 = 2;
const RANK_STOP: u8 = 3;
const RANK_END: u8 = 4;

/// Hook logs as a document dump (never a directory tree, never a database).
pub(crate) const TREE: DocumentTree = DocumentTree {
    root_marker: &[],
    database: None,
    place,
    plan,
};

/// The time a logging script stamped on a payload, when it did (Claude Code sends none).
pub(crate) fn logged_time(p: &Value) -> Option<&str> {
    get_text(p, "timestamp").or_else(|| get_text(p, "logged_at"))
}

/// The key that pairs a tool call with its result: its `tool_use_id`, else its tool name and a
/// digest of its input.
pub(crate) fn pairing_key(p: &Value) -> Option<String> {
    if let Some(id) = get_text(p, "tool_use_id") {
        return Some(format!("id:{id}"));
    }
    let name = get_text(p, "tool_name")?;
    let input = p
        .get("tool_input")
        .map(|v| serde_json::to_string(v).unwrap_or_default())
        .unwrap_or_default();
    Some(format!("input:{name}:{}", digest(&[&input])))
}

/// Places one payload: its session, its phase, and what pairs it.
pub(crate) fn place(_member: &str, value: Option<&Value>) -> Option<TreeDoc> {
    let p = value?;
    let session = get_text(p, "session_id")?;
    let event = get_str(p, "hook_event_name")?;
    let rank = match event {
        "SessionStart" => RANK_START,
        "UserPromptSubmit" => RANK_PROMPT,
        "Stop" => RANK_STOP,
        "SessionEnd" => RANK_END,
        _ => RANK_TOOLS,
    };
    let (id, parent) = match event {
        "PreToolUse" => (pairing_key(p), None),
        "PostToolUse" | "PostToolUseFailure" => (None, pairing_key(p)),
        _ => (None, None),
    };
    Some(TreeDoc {
        rank,
        id,
        group: Some(session.to_string()),
        parent,
        sort_key: logged_time(p).unwrap_or("").to_string(),
    })
}

/// Groups payloads by session and orders each group (see the module's documentation).
pub(crate) fn plan(docs: &[TreeDoc]) -> Vec<TreeGroup> {
    let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, d) in docs.iter().enumerate() {
        if let Some(g) = d.group.as_deref() {
            groups.entry(g).or_default().push(i);
        }
    }
    groups
        .into_iter()
        .map(|(name, members)| TreeGroup {
            name: name.to_string(),
            members: order(docs, members),
        })
        .collect()
}

fn order(docs: &[TreeDoc], mut members: Vec<usize>) -> Vec<usize> {
    if members.iter().all(|&i| !docs[i].sort_key.is_empty()) {
        // Stable: payloads stamped alike keep their files' order.
        members.sort_by(|&a, &b| docs[a].sort_key.cmp(&docs[b].sort_key));
        return members;
    }
    let of_rank = |rank: u8| -> Vec<usize> {
        members
            .iter()
            .copied()
            .filter(|&i| docs[i].rank == rank)
            .collect()
    };
    let (starts, prompts, stops, ends) = (
        of_rank(RANK_START),
        of_rank(RANK_PROMPT),
        of_rank(RANK_STOP),
        of_rank(RANK_END),
    );
    let tools = tool_stream(docs, &of_rank(RANK_TOOLS));
    let mut out = Vec::with_capacity(members.len());
    out.extend(&starts);
    let last_prompt = prompts.len().saturating_sub(1);
    let mut stops_left = stops.iter().copied();
    for (k, &prompt) in prompts.iter().enumerate() {
        out.push(prompt);
        if k == last_prompt {
            break;
        }
        if let Some(stop) = stops_left.next() {
            out.push(stop);
        }
    }
    out.extend(&tools);
    out.extend(stops_left);
    out.extend(&ends);
    out
}

/// Tool events in their files' order, each result moved right after the call it answers; the
/// results nobody's call was logged for, and the other events, follow in their files' order.
fn tool_stream(docs: &[TreeDoc], events: &[usize]) -> Vec<usize> {
    let mut calls: HashMap<&str, VecDeque<usize>> = HashMap::new();
    for &i in events {
        if let Some(key) = docs[i].id.as_deref() {
            calls.entry(key).or_default().push_back(i);
        }
    }
    let mut answers: HashMap<usize, Vec<usize>> = HashMap::new();
    let mut unpaired = Vec::new();
    for &i in events {
        let Some(key) = docs[i].parent.as_deref() else {
            continue;
        };
        match calls.get_mut(key).and_then(VecDeque::pop_front) {
            Some(call) => answers.entry(call).or_default().push(i),
            None => unpaired.push(i),
        }
    }
    // Stamped results (some scripts stamp failures) keep their time order among themselves.
    unpaired.sort_by(|&a, &b| docs[a].sort_key.cmp(&docs[b].sort_key));
    let mut out = Vec::with_capacity(events.len());
    for &i in events.iter().filter(|&&i| docs[i].id.is_some()) {
        out.push(i);
        if let Some(a) = answers.get(&i) {
            out.extend(a);
        }
    }
    out.extend(unpaired);
    out.extend(
        events
            .iter()
            .filter(|&&i| docs[i].id.is_none() && docs[i].parent.is_none()),
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn placed(events: &[Value]) -> Vec<TreeDoc> {
        events
            .iter()
            .map(|v| place("x.json", Some(v)).unwrap())
            .collect()
    }

    fn ev(event: &str, extra: Value) -> Value {
        let mut v = json!({"session_id": "s", "hook_event_name": event});
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        v
    }

    #[test]
    fn results_follow_their_calls_and_turns_follow_the_protocol() {
        // As the files hold them: alphabetical files, each in arrival order.
        let docs = placed(&[
            ev(
                "PostToolUse",
                json!({"tool_use_id": "t2", "tool_name": "Bash"}),
            ), // 0
            ev(
                "PostToolUse",
                json!({"tool_name": "Read", "tool_input": {"f": "a"}}),
            ), // 1
            ev(
                "PreToolUse",
                json!({"tool_use_id": "t1", "tool_name": "Bash"}),
            ), // 2
            ev(
                "PreToolUse",
                json!({"tool_use_id": "t2", "tool_name": "Bash"}),
            ), // 3
            ev(
                "PreToolUse",
                json!({"tool_name": "Read", "tool_input": {"f": "a"}}),
            ), // 4
            ev("SessionStart", json!({"source": "startup"})), // 5
            ev("Stop", json!({"last_assistant_message": "one"})), // 6
            ev("Stop", json!({"last_assistant_message": "two"})), // 7
            ev("UserPromptSubmit", json!({"prompt": "a"})),   // 8
            ev("UserPromptSubmit", json!({"prompt": "b"})),   // 9
            ev(
                "PostToolUseFailure",
                json!({"tool_use_id": "t1", "tool_name": "Bash"}),
            ), // 10
        ]);
        let groups = plan(&docs);
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].members, vec![5, 8, 6, 9, 2, 10, 3, 0, 4, 1, 7]);
    }

    #[test]
    fn stamped_sessions_follow_their_stamps_and_others_stay_apart() {
        let docs = placed(&[
            ev("Stop", json!({"timestamp": "2026-01-01T00:00:03Z"})),
            ev(
                "PreToolUse",
                json!({"timestamp": "2026-01-01T00:00:01Z", "tool_name": "x"}),
            ),
            json!({"session_id": "other", "hook_event_name": "Stop"}),
            ev(
                "UserPromptSubmit",
                json!({"logged_at": "2026-01-01T00:00:00Z"}),
            ),
        ]);
        let groups = plan(&docs);
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0].name, "other");
        assert_eq!(groups[1].members, vec![3, 1, 0]);
        assert!(place("x.json", Some(&json!({"hook_event_name": "Stop"}))).is_none());
        assert!(place("x.json", None).is_none());
    }

    #[test]
    fn unpaired_results_and_extra_stops_are_kept() {
        let docs = placed(&[
            ev(
                "PostToolUseFailure",
                json!({"tool_use_id": "a", "timestamp": "2"}),
            ),
            ev(
                "PostToolUseFailure",
                json!({"tool_use_id": "b", "timestamp": "1"}),
            ),
            ev("Stop", json!({})),
            ev("Stop", json!({"stop_hook_active": true})),
            ev("Notification", json!({"message": "m"})),
        ]);
        assert_eq!(plan(&docs)[0].members, vec![1, 0, 4, 2, 3]);
    }
}
