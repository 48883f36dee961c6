//! Recognizing a Codex rollout from the content of its first records.

use serde_json::{Map, Value};

/// Top-level types of the envelope format `{timestamp, type, payload}`.
pub(crate) const ENVELOPE_TYPES: &[&str] = &[
    "session_meta",
    "response_item",
    "event_msg",
    "turn_context",
    "compacted",
    "world_state",
    "inter_agent_communication",
    "inter_agent_communication_metadata",
    "token_usage_record",
    "realtime_item",
    "security_risk_score",
];

/// Response item types written bare (without an envelope) by pre-envelope rollouts.
const LEGACY_ITEM_TYPES: &[&str] = &[
    "message",
    "reasoning",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "local_shell_call",
    "web_search_call",
];

/// Keys a legacy header may carry.
const HEADER_KEYS: &[&str] = &[
    "id",
    "timestamp",
    "instructions",
    "git",
    "cwd",
    "originator",
    "cli_version",
    "source",
    "model_provider",
];

/// Keys that belong to other agents' records (Claude transcripts, Pi sessions, Gemini chats).
const FOREIGN_KEYS: &[&str] = &[
    "sessionId",
    "uuid",
    "parentUuid",
    "parentId",
    "version",
    "messages",
    "projectHash",
];

/// Whether `v` is a record of a Codex rollout, of any generation.
pub fn sniff(v: &Value) -> bool {
    let Some(obj) = v.as_object() else {
        return false;
    };
    if FOREIGN_KEYS.iter().any(|k| obj.contains_key(*k)) {
        return false;
    }
    match obj.get("type") {
        Some(Value::String(t)) => {
            if ENVELOPE_TYPES.contains(&t.as_str()) {
                return obj.get("payload").is_some_and(Value::is_object)
                    && obj.get("timestamp").is_some_and(Value::is_string);
            }
            is_legacy_item(t, obj)
        }
        Some(_) => false,
        None => {
            obj.get("record_type").and_then(Value::as_str) == Some("state") || is_legacy_header(obj)
        }
    }
}

fn is_legacy_item(t: &str, obj: &Map<String, Value>) -> bool {
    if !LEGACY_ITEM_TYPES.contains(&t) || obj.contains_key("payload") {
        return false;
    }
    match t {
        "message" => {
            obj.get("role").is_some_and(Value::is_string)
                && obj.get("content").is_some_and(Value::is_array)
        }
        "function_call" | "custom_tool_call" | "local_shell_call" => {
            obj.get("call_id").is_some() || obj.get("id").is_some()
        }
        "function_call_output" | "custom_tool_call_output" => {
            obj.get("call_id").is_some_and(Value::is_string)
        }
        "reasoning" => {
            obj.get("summary").is_some_and(Value::is_array) || obj.contains_key("encrypted_content")
        }
        _ => obj.get("status").is_some() || obj.get("action").is_some(),
    }
}

/// `{id, timestamp, instructions?, git?, ...}` with nothing else.
pub(crate) fn is_legacy_header(obj: &Map<String, Value>) -> bool {
    obj.get("id").is_some_and(Value::is_string)
        && obj.get("timestamp").is_some_and(Value::is_string)
        && obj.keys().all(|k| HEADER_KEYS.contains(&k.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn recognizes_every_generation() {
        assert!(sniff(
            &json!({"timestamp": "2025-12-09T19:55:16.336Z", "type": "session_meta", "payload": {"id": "x"}})
        ));
        assert!(sniff(
            &json!({"timestamp": "t", "type": "event_msg", "payload": {"type": "token_count"}})
        ));
        assert!(sniff(
            &json!({"id": "cf4d", "timestamp": "2025-09-10T18:58:38.331Z", "instructions": null})
        ));
        assert!(sniff(
            &json!({"id": "cf4d", "timestamp": "2025-09-10T18:58:38.331Z"})
        ));
        assert!(sniff(&json!({"record_type": "state"})));
        assert!(sniff(
            &json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]})
        ));
        assert!(sniff(
            &json!({"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c"})
        ));
    }

    #[test]
    fn rejects_other_agents() {
        // Claude Code transcript lines.
        assert!(!sniff(
            &json!({"type": "user", "sessionId": "s", "uuid": "u", "message": {"role": "user", "content": "hi"}})
        ));
        assert!(!sniff(
            &json!({"type": "assistant", "sessionId": "s", "uuid": "u", "message": {}})
        ));
        assert!(!sniff(
            &json!({"type": "summary", "summary": "x", "leafUuid": "u"})
        ));
        // Pi session header and entries.
        assert!(!sniff(
            &json!({"type": "session", "version": 3, "id": "p", "timestamp": "2025-01-01T00:00:00Z", "cwd": "/w"})
        ));
        assert!(!sniff(
            &json!({"type": "message", "id": "a", "parentId": "b", "timestamp": "2025-01-01T00:00:00Z", "message": {"role": "user", "content": []}})
        ));
        // Gemini chat file and opencode session info.
        assert!(!sniff(
            &json!({"sessionId": "g", "projectHash": "h", "startTime": "2025-01-01T00:00:00Z", "messages": []})
        ));
        assert!(!sniff(
            &json!({"id": "ses_1", "version": "1.0.0", "projectID": "p", "time": {"created": 1}})
        ));
        assert!(!sniff(
            &json!({"id": "x", "timestamp": "2025-01-01T00:00:00Z", "type": "gemini", "content": "hi"})
        ));
        assert!(!sniff(&json!(null)));
        assert!(!sniff(
            &json!({"timestamp": "t", "type": "session_meta", "payload": "x"})
        ));
    }
}
