//! Recognizing a Pi session record from its content alone.
//!
//! A Pi file starts with a header `{"type":"session","id",...}`; entries after it carry a
//! `type` tag and, from format v2 on, `id` + `parentId`. Format v1 entries have neither, so
//! they are recognized by the field their type requires. Claude transcript lines (which carry
//! `sessionId` + `uuid`), Codex envelopes (`{timestamp,type,payload}`) and Gemini chats (no
//! `type` on the header, `sessionId` + `messages`) never match.

use serde_json::Value;

/// Entry types a Pi session file may contain after its header.
pub(crate) const ENTRY_TYPES: &[&str] = &[
    "message",
    "thinking_level_change",
    "model_change",
    "compaction",
    "branch_summary",
    "custom",
    "custom_message",
    "label",
    "session_info",
];

/// Whether `value` is a record of a Pi session file.
pub fn is_pi_record(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    // Other runtimes' identity and envelope keys: never Pi.
    if obj.contains_key("sessionId") || obj.contains_key("uuid") || obj.contains_key("payload") {
        return false;
    }
    let Some(kind) = obj.get("type").and_then(Value::as_str) else {
        return false;
    };
    if kind == "session" {
        return obj.get("id").is_some_and(Value::is_string)
            && (obj.get("version").is_some_and(Value::is_u64)
                || obj.get("cwd").is_some_and(Value::is_string)
                || obj.get("timestamp").is_some_and(Value::is_string));
    }
    if !ENTRY_TYPES.contains(&kind) {
        return false;
    }
    // v2+: every entry is a tree node.
    let tree_node = obj.get("id").is_some_and(Value::is_string)
        && obj
            .get("parentId")
            .is_some_and(|p| p.is_null() || p.is_string());
    if tree_node {
        return true;
    }
    // v1: linear entries, recognized by the field their type requires.
    let has_str = |k: &str| obj.get(k).is_some_and(Value::is_string);
    obj.get("timestamp").is_some_and(Value::is_string)
        && match kind {
            "message" => obj
                .get("message")
                .and_then(|m| m.get("role"))
                .is_some_and(Value::is_string),
            "thinking_level_change" => has_str("thinkingLevel"),
            "model_change" => has_str("modelId"),
            "compaction" => has_str("summary"),
            _ => false,
        }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn recognizes_headers_of_every_version() {
        assert!(is_pi_record(
            &json!({"type":"session","id":"a","timestamp":"t","cwd":"/x"})
        ));
        assert!(is_pi_record(
            &json!({"type":"session","version":3,"id":"a"})
        ));
        assert!(!is_pi_record(&json!({"type":"session","id":7,"cwd":"/x"})));
    }

    #[test]
    fn recognizes_tree_entries_and_v1_entries() {
        assert!(is_pi_record(
            &json!({"type":"label","id":"1","parentId":null,"targetId":"x"})
        ));
        assert!(is_pi_record(
            &json!({"type":"message","timestamp":"t","message":{"role":"user"}})
        ));
        assert!(is_pi_record(
            &json!({"type":"compaction","timestamp":"t","summary":"s"})
        ));
        assert!(!is_pi_record(&json!({"type":"message","timestamp":"t"})));
    }

    #[test]
    fn rejects_other_runtimes() {
        // Claude transcript line.
        assert!(!is_pi_record(
            &json!({"type":"user","sessionId":"s","uuid":"u","message":{"role":"user"}})
        ));
        // Codex envelope.
        assert!(!is_pi_record(
            &json!({"timestamp":"t","type":"session_meta","payload":{"id":"x"}})
        ));
        // Gemini JSONL header and message.
        assert!(!is_pi_record(
            &json!({"sessionId":"s","projectHash":"h","startTime":"t","kind":"main"})
        ));
        assert!(!is_pi_record(
            &json!({"id":"m","timestamp":"t","type":"user","content":"hi"})
        ));
        assert!(!is_pi_record(
            &json!({"id":"m","timestamp":"t","type":"gemini","content":"hi"})
        ));
    }
}
