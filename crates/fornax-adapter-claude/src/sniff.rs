//! Recognizing Claude Code records from their content alone (never from a file name).

use serde_json::Value;

use crate::common::get_str;

/// Line types Claude Code writes that carry no `message`, each with the field that makes it
/// unmistakable.
const BOOKKEEPING_SIGNATURES: &[(&str, &str)] = &[
    ("file-history-snapshot", "snapshot"),
    ("summary", "leafUuid"),
    ("queue-operation", "operation"),
    ("last-prompt", "lastPrompt"),
    ("permission-mode", "permissionMode"),
    ("custom-title", "customTitle"),
    ("ai-title", "aiTitle"),
    ("agent-name", "agentName"),
    ("worktree-state", "worktreeSession"),
    ("attachment", "attachment"),
    // 2.1.2xx bookkeeping.
    ("file-history-delta", "trackingPath"),
    ("frame-link", "frameUrl"),
    ("pr-link", "prUrl"),
    ("atis-latch", "atis"),
    ("bridge-session", "bridgeSessionId"),
    ("cost-state", "totalCostUSD"),
];

/// Lines of a Workflow-tool run journal (`subagents/workflows/wf_<run>/journal.jsonl`): each
/// names the run's agent and the journal key of its step.
const JOURNAL_TYPES: &[&str] = &["started", "result"];

/// Whether `v` looks like one line of a Claude Code transcript: a user/assistant/system/progress
/// envelope (with `sessionId` or `uuid`), or a bookkeeping line with its signature field.
///
/// Codex rollout lines (`{timestamp, type, payload}`), Pi headers (`{type: "session",
/// version}`) and Gemini records (`{id, type: "user"|"gemini", content}` without `message`) do
/// not match.
pub fn is_transcript_line(v: &Value) -> bool {
    let Some(obj) = v.as_object() else {
        return false;
    };
    if obj.contains_key("payload") {
        return false;
    }
    let Some(ty) = get_str(v, "type") else {
        return false;
    };
    let has_identity = get_str(v, "sessionId").is_some() || get_str(v, "uuid").is_some();
    match ty {
        "user" | "assistant" => has_identity && obj.get("message").is_some_and(Value::is_object),
        "system" => has_identity && obj.contains_key("subtype"),
        "progress" => has_identity && obj.get("data").is_some_and(Value::is_object),
        other if JOURNAL_TYPES.contains(&other) => {
            get_str(v, "key").is_some() && get_str(v, "agentId").is_some()
        }
        other => BOOKKEEPING_SIGNATURES
            .iter()
            .any(|(t, field)| *t == other && obj.contains_key(*field)),
    }
}

/// Whether `v` is a Claude Code hook payload: it names its event and its session.
pub fn is_hook_payload(v: &Value) -> bool {
    get_str(v, "hook_event_name").is_some() && get_str(v, "session_id").is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn recognizes_claude_lines() {
        assert!(is_transcript_line(
            &json!({"type": "user", "sessionId": "s", "uuid": "u",
            "message": {"role": "user", "content": "hi"}})
        ));
        assert!(is_transcript_line(
            &json!({"type": "file-history-snapshot", "messageId": "m",
            "snapshot": {}, "isSnapshotUpdate": false})
        ));
        assert!(is_transcript_line(
            &json!({"type": "summary", "summary": "t", "leafUuid": "l"})
        ));
        assert!(is_transcript_line(
            &json!({"type": "queue-operation", "operation": "dequeue",
            "sessionId": "s"})
        ));
    }

    #[test]
    fn recognizes_2_1_2xx_bookkeeping_and_workflow_journals() {
        assert!(is_transcript_line(&json!({"type": "file-history-delta",
            "messageId": "m", "snapshotMessageId": "m0", "trackingPath": "src/a.rs",
            "backup": {"backupFileName": null, "version": 1}})));
        assert!(is_transcript_line(&json!({"type": "frame-link",
            "frameUrl": "https://example.invalid/f", "sessionId": "s"})));
        assert!(is_transcript_line(
            &json!({"type": "atis-latch", "atis": true, "sessionId": "s"})
        ));
        assert!(is_transcript_line(
            &json!({"type": "started", "key": "v2:ab",
            "agentId": "a1", "label": "ping"})
        ));
        assert!(is_transcript_line(
            &json!({"type": "result", "key": "v2:ab",
            "agentId": "a1", "result": "PONG"})
        ));
        // A bare `started` without the journal's fields is nobody's line.
        assert!(!is_transcript_line(&json!({"type": "started"})));
        assert!(!is_transcript_line(&json!({"type": "frame-link"})));
    }

    #[test]
    fn rejects_other_agents() {
        let codex = json!({"timestamp": "t", "type": "session_meta", "payload": {"id": "x"}});
        let codex_msg = json!({"timestamp": "t", "type": "response_item",
            "payload": {"type": "message"}});
        let pi = json!({"type": "session", "version": 3, "id": "x", "cwd": "/"});
        let gemini = json!({"id": "m1", "timestamp": "t", "type": "user", "content": "hi"});
        let gemini_file = json!({"sessionId": "s", "projectHash": "h", "messages": []});
        for v in [codex, codex_msg, pi, gemini, gemini_file] {
            assert!(!is_transcript_line(&v), "{v}");
        }
    }

    #[test]
    fn hook_payloads_need_event_and_session() {
        assert!(is_hook_payload(
            &json!({"hook_event_name": "Stop", "session_id": "s"})
        ));
        assert!(!is_hook_payload(&json!({"hook_event_name": "Stop"})));
        assert!(!is_hook_payload(&json!({"type": "user", "sessionId": "s"})));
    }
}
