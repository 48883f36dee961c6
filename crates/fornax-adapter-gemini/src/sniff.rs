//! Recognizing Gemini CLI chat records from their content alone.
//!
//! Two formats live under `~/.gemini/tmp/<project-hash>/chats/`:
//!
//! * the original chat document (`session-*.json`, one pretty JSON object rewritten on every
//!   update): `{sessionId, projectHash, startTime, lastUpdated, messages: [...]}`;
//! * the JSON Lines chat (`session-*.jsonl`, from v0.39): a metadata line `{sessionId,
//!   projectHash, startTime, lastUpdated, kind}`, then one message record per line
//!   (`{id, timestamp, type, content}`, re-appended whole when it changes), `{"$set": {...}}`
//!   metadata updates and `{"$rewindTo": "<message id>"}` rewinds.
//!
//! Claude transcript lines (`sessionId` + `uuid`), Codex envelopes (`payload`) and Pi records
//! (`type` `session`/`message`/...) never match, and neither format matches the other.

use serde_json::Value;

/// Message types a Gemini chat records.
pub(crate) const MESSAGE_TYPES: &[&str] = &["user", "gemini", "info", "error", "warning"];

fn foreign(obj: &serde_json::Map<String, Value>) -> bool {
    obj.contains_key("uuid") || obj.contains_key("payload") || obj.contains_key("parentId")
}

/// Whether `value` is a whole chat document (the `.json` format).
pub fn is_gemini_chat_document(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    !foreign(obj)
        && obj.get("sessionId").is_some_and(Value::is_string)
        && obj.get("messages").is_some_and(Value::is_array)
}

/// Whether `value` is a record of a JSON Lines chat (the `.jsonl` format).
pub fn is_gemini_jsonl_record(value: &Value) -> bool {
    let Some(obj) = value.as_object() else {
        return false;
    };
    if foreign(obj) {
        return false;
    }
    if obj.get("$set").is_some_and(Value::is_object)
        || obj.get("$rewindTo").is_some_and(Value::is_string)
    {
        return true;
    }
    // Metadata line: identity without the message list of the document format.
    if obj.get("sessionId").is_some_and(Value::is_string) {
        return obj.get("projectHash").is_some_and(Value::is_string)
            && !obj.contains_key("messages");
    }
    obj.get("id").is_some_and(Value::is_string)
        && obj.get("timestamp").is_some_and(Value::is_string)
        && obj.contains_key("content")
        && obj
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| MESSAGE_TYPES.contains(&t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn formats_are_told_apart() {
        let doc = json!({"sessionId":"s","projectHash":"h","startTime":"t","messages":[]});
        let header = json!({"sessionId":"s","projectHash":"h","startTime":"t","kind":"main"});
        assert!(is_gemini_chat_document(&doc));
        assert!(!is_gemini_jsonl_record(&doc));
        assert!(is_gemini_jsonl_record(&header));
        assert!(!is_gemini_chat_document(&header));
        assert!(is_gemini_jsonl_record(&json!({"$set":{"lastUpdated":"t"}})));
        assert!(is_gemini_jsonl_record(&json!({"$rewindTo":"m1"})));
        assert!(is_gemini_jsonl_record(
            &json!({"id":"m","timestamp":"t","type":"gemini","content":""})
        ));
    }

    #[test]
    fn other_runtimes_never_match() {
        let claude = json!({"type":"user","sessionId":"s","uuid":"u","timestamp":"t","message":{"role":"user","content":"hi"}});
        let codex = json!({"timestamp":"t","type":"session_meta","payload":{"id":"x"}});
        let pi_header = json!({"type":"session","version":3,"id":"p","timestamp":"t","cwd":"/x"});
        let pi_entry = json!({"type":"message","id":"a","parentId":null,"timestamp":"t","message":{"role":"user","content":"x"}});
        for v in [claude, codex, pi_header, pi_entry] {
            assert!(!is_gemini_jsonl_record(&v), "{v}");
            assert!(!is_gemini_chat_document(&v), "{v}");
        }
    }
}
