//! Recognizing a Copilot CLI session log from the content of its events.

use fornax_types::kit::json::text_at;
use serde_json::Value;

/// Namespaces of Copilot CLI's event types (`session.start`, `tool.execution_complete`, ...).
const NAMESPACES: &[&str] = &[
    "session.",
    "user.",
    "assistant.",
    "tool.",
    "hook.",
    "subagent.",
    "system.",
    "permission.",
    "skill.",
    "pending_messages.",
];

/// Whether `v` is an event of a Copilot CLI session log: `{type, data, id, timestamp}` with a
/// namespaced type (or the bare `abort`) and an object `data`.
pub fn is_copilot_event(v: &Value) -> bool {
    let Some(obj) = v.as_object() else {
        return false;
    };
    let Some(ty) = text_at(v, "type") else {
        return false;
    };
    let typed = ty == "abort" || NAMESPACES.iter().any(|n| ty.starts_with(n));
    typed
        && obj.get("data").is_some_and(Value::is_object)
        && obj.get("id").is_some_and(Value::is_string)
        && obj.contains_key("timestamp")
        && !obj.contains_key("payload")
        && !obj.contains_key("message")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn recognizes_events_and_rejects_other_agents() {
        assert!(is_copilot_event(
            &json!({"type": "session.start", "data": {"sessionId": "s"},
            "id": "e1", "timestamp": "2026-01-01T00:00:00Z", "parentId": null})
        ));
        assert!(is_copilot_event(
            &json!({"type": "abort", "data": {"reason": "x"},
            "id": "e9", "timestamp": "t", "parentId": "e8"})
        ));
        // Claude transcript, Codex envelope, Cursor JSONL, Gemini message.
        for other in [
            json!({"type": "user", "sessionId": "s", "uuid": "u", "message": {"content": "hi"}}),
            json!({"timestamp": "t", "type": "event_msg", "payload": {"type": "x"}}),
            json!({"role": "user", "message": {"content": [{"type": "text", "text": "hi"}]}}),
            json!({"id": "m", "timestamp": "t", "type": "user", "content": "hi"}),
            json!({"type": "session.start", "data": "x", "id": "e1", "timestamp": "t"}),
        ] {
            assert!(!is_copilot_event(&other), "{other}");
        }
    }
}
