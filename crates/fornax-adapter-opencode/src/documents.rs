//! Recognizing opencode storage documents by their fields (never by file name).
//!
//! The JSON tree (`storage/session/<project>/<id>.json`, `storage/message/<session>/<id>.json`,
//! `storage/part/<message>/<id>.json`, ...) and the rows of `opencode.db` hold the same objects.
//! Early trees used ids without the `ses_`/`msg_`/`prt_` prefixes and parts without
//! `sessionID`, so prefixes are a hint, not a requirement.

use serde_json::Value;

use crate::json::{str_at, type_name};

/// Part types of opencode's message-v2 schema.
pub(crate) const PART_TYPES: &[&str] = &[
    "text",
    "reasoning",
    "tool",
    "step-start",
    "step-finish",
    "file",
    "agent",
    "subtask",
    "snapshot",
    "patch",
    "retry",
    "compaction",
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Doc {
    Session,
    Message,
    Part,
    /// `storage/project/<id>.json`.
    Project,
    /// `storage/session_share/<session>.json`.
    Share,
    /// `storage/session_diff/<session>.json`: an array of file diffs.
    SessionDiff,
    /// `storage/todo/<session>.json`: an array of todo entries.
    Todo,
    /// An empty array (an empty todo list or diff).
    EmptyList,
}

/// The kind of a storage document, or the discriminator to report for an unknown shape.
pub(crate) fn classify(v: &Value) -> Result<Doc, String> {
    if let Some(items) = v.as_array() {
        return classify_list(items);
    }
    let Some(obj) = v.as_object() else {
        return Err(type_name(v).to_string());
    };
    let id = str_at(v, &["id"]);
    let tag = str_at(v, &["type"]);
    if let (Some(id), Some(_)) = (id, str_at(v, &["role"])) {
        if str_at(v, &["sessionID"]).is_some() || id.starts_with("msg_") {
            return Ok(Doc::Message);
        }
        return Err("message".to_string());
    }
    if let (Some(id), Some(tag)) = (id, tag) {
        if str_at(v, &["messageID"]).is_some()
            || id.starts_with("prt_")
            || PART_TYPES.contains(&tag)
        {
            return Ok(Doc::Part);
        }
    }
    if id.is_some() && obj.contains_key("worktree") {
        return Ok(Doc::Project);
    }
    if id.is_some() && obj.contains_key("secret") && obj.contains_key("url") {
        return Ok(Doc::Share);
    }
    if let Some(id) = id {
        let sessionish = id.starts_with("ses_")
            || str_at(v, &["projectID"]).is_some()
            || str_at(v, &["directory"]).is_some();
        let documented =
            obj.contains_key("time") || obj.contains_key("title") || obj.contains_key("projectID");
        if sessionish && documented && tag.is_none() {
            return Ok(Doc::Session);
        }
    }
    Err(tag
        .map(|t| crate::json::short(t, 64))
        .unwrap_or_else(|| "object".to_string()))
}

fn classify_list(items: &[Value]) -> Result<Doc, String> {
    if items.is_empty() {
        return Ok(Doc::EmptyList);
    }
    let all = |keys: &[&str]| {
        items.iter().all(|i| {
            i.as_object()
                .is_some_and(|o| keys.iter().all(|k| o.contains_key(*k)))
        })
    };
    if all(&["file"]) {
        Ok(Doc::SessionDiff)
    } else if all(&["content", "status"]) {
        Ok(Doc::Todo)
    } else {
        Err("array".to_string())
    }
}

/// Sniff for the storage descriptor: a session, message or part document.
pub(crate) fn sniff_storage(v: &Value) -> bool {
    matches!(classify(v), Ok(Doc::Session | Doc::Message | Doc::Part))
}

/// Sniff for the plugin descriptor: `{"hook": "...", "payload": ...}`.
pub(crate) fn sniff_plugin(v: &Value) -> bool {
    str_at(v, &["hook"]).is_some() && v.as_object().is_some_and(|o| o.contains_key("payload"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn recognizes_each_document() {
        let session = json!({"id": "ses_1", "projectID": "p", "directory": "/w", "title": "t", "time": {"created": 1}});
        let message =
            json!({"id": "msg_1", "sessionID": "ses_1", "role": "user", "time": {"created": 1}});
        let part = json!({"id": "prt_1", "sessionID": "ses_1", "messageID": "msg_1", "type": "text", "text": "hi"});
        let legacy_part = json!({"id": "p_user_1", "type": "text", "text": "Hello"});
        assert_eq!(classify(&session), Ok(Doc::Session));
        assert_eq!(classify(&message), Ok(Doc::Message));
        assert_eq!(classify(&part), Ok(Doc::Part));
        assert_eq!(classify(&legacy_part), Ok(Doc::Part));
        assert_eq!(
            classify(&json!({"id": "abc", "worktree": "/w", "vcs": "git"})),
            Ok(Doc::Project)
        );
        assert_eq!(
            classify(&json!({"id": "x", "secret": "s", "url": "u"})),
            Ok(Doc::Share)
        );
        assert_eq!(
            classify(&json!([{"file": "a", "additions": 1}])),
            Ok(Doc::SessionDiff)
        );
        assert_eq!(
            classify(&json!([{"content": "a", "status": "done", "id": "1"}])),
            Ok(Doc::Todo)
        );
        assert_eq!(classify(&json!([])), Ok(Doc::EmptyList));
        assert!(sniff_storage(&session) && sniff_storage(&message) && sniff_storage(&part));
        assert!(!sniff_storage(&json!({"hook": "event", "payload": {}})));
    }

    #[test]
    fn unknown_shapes_name_their_tag() {
        assert_eq!(
            classify(&json!({"type": "future"})),
            Err("future".to_string())
        );
        assert_eq!(classify(&json!(3)), Err("number".to_string()));
        assert_eq!(classify(&json!([1, 2])), Err("array".to_string()));
        assert_eq!(classify(&json!({})), Err("object".to_string()));
    }

    #[test]
    fn plugin_lines_sniff() {
        assert!(sniff_plugin(
            &json!({"hook": "event", "at": "t", "payload": {"event": {}}})
        ));
        assert!(!sniff_plugin(&json!({"hook": "event"})));
        assert!(!sniff_plugin(
            &json!({"id": "ses_1", "projectID": "p", "time": {}})
        ));
    }
}
