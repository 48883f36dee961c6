//! Reading Pi message content: text blocks, tool-result status lines, bounded copies.

use serde_json::Value;

/// Longest text kept from one human or agent message (head and tail survive beyond it).
pub(crate) const TEXT_CAP: usize = 256 * 1024;
/// Longest tool output kept.
pub(crate) const OUTPUT_CAP: usize = 64 * 1024;
/// Longest string kept inside tool-call arguments (file contents of `write`, for example).
const ARGUMENT_STRING_CAP: usize = 16 * 1024;
/// Deepest argument nesting copied; deeper values are replaced by a marker.
const ARGUMENT_DEPTH_CAP: usize = 32;
/// Longest discriminator, id or key fragment taken from a record.
pub(crate) const TAG_CAP: usize = 128;

/// Joins the text of a Pi content value: a plain string, or an array of blocks of which
/// `text` blocks contribute their text and `image` blocks a `[image/<mime>]` marker.
pub(crate) fn joined_text(content: Option<&Value>) -> Option<String> {
    match content? {
        Value::String(s) => Some(s.clone()),
        Value::Array(blocks) => {
            let mut parts: Vec<String> = Vec::new();
            for block in blocks {
                match block.get("type").and_then(Value::as_str) {
                    Some("text") => {
                        if let Some(t) = block.get("text").and_then(Value::as_str) {
                            parts.push(t.to_string());
                        }
                    }
                    Some("image") => {
                        let mime = block
                            .get("mimeType")
                            .and_then(Value::as_str)
                            .unwrap_or("image");
                        parts.push(format!("[{}]", bounded(mime)));
                    }
                    _ => {}
                }
            }
            if parts.is_empty() {
                None
            } else {
                Some(parts.join("\n"))
            }
        }
        _ => None,
    }
}

/// What the last status line of a Pi `bash` result says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShellStatus {
    /// `Command exited with code N`.
    Exited(i64),
    /// `Command aborted`.
    Aborted,
    /// `Command timed out after N seconds`.
    TimedOut,
}

/// Reads the status line Pi's `bash` tool appends as the last line of a failed result. A
/// successful command has none: Pi writes no exit code for exit 0.
pub(crate) fn shell_status(text: &str) -> Option<ShellStatus> {
    let last = text.trim_end().rsplit('\n').next()?.trim();
    if let Some(rest) = last.strip_prefix("Command exited with code ") {
        return rest.trim().parse::<i64>().ok().map(ShellStatus::Exited);
    }
    if last == "Command aborted" {
        return Some(ShellStatus::Aborted);
    }
    if last.starts_with("Command timed out after ") {
        return Some(ShellStatus::TimedOut);
    }
    None
}

/// A string shortened to [`TAG_CAP`] bytes on a character boundary.
pub(crate) fn bounded(s: &str) -> String {
    if s.len() <= TAG_CAP {
        return s.to_string();
    }
    let mut end = TAG_CAP;
    while end > 0 && !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

/// A copy of tool-call arguments with long strings capped (head and tail kept) and deep
/// nesting cut, so one record cannot make a huge item.
pub(crate) fn capped_arguments(value: &Value) -> Value {
    cap_value(value, 0)
}

fn cap_value(value: &Value, depth: usize) -> Value {
    if depth >= ARGUMENT_DEPTH_CAP {
        return Value::String("[nesting elided]".into());
    }
    match value {
        Value::String(s) if s.len() > ARGUMENT_STRING_CAP => {
            Value::String(fornax_types::TextValue::capped(s, ARGUMENT_STRING_CAP).text)
        }
        Value::Array(items) => {
            Value::Array(items.iter().map(|v| cap_value(v, depth + 1)).collect())
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), cap_value(v, depth + 1)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Counts `+` and `-` lines of the numbered diff Pi's `edit` tool stores in `details.diff`.
pub(crate) fn diff_line_counts(diff: &str) -> (u64, u64) {
    let mut added = 0;
    let mut removed = 0;
    for line in diff.lines() {
        if line.starts_with('+') {
            added += 1;
        } else if line.starts_with('-') {
            removed += 1;
        }
    }
    (added, removed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn status_line_is_read_from_the_last_line_only() {
        assert_eq!(
            shell_status("boom\n\n\nCommand exited with code 2"),
            Some(ShellStatus::Exited(2))
        );
        assert_eq!(
            shell_status("(no output)\n\nCommand exited with code 1\n"),
            Some(ShellStatus::Exited(1))
        );
        assert_eq!(
            shell_status("Command exited with code 1\nthen more output"),
            None
        );
        assert_eq!(
            shell_status("partial\n\nCommand aborted"),
            Some(ShellStatus::Aborted)
        );
        assert_eq!(
            shell_status("Command timed out after 180 seconds"),
            Some(ShellStatus::TimedOut)
        );
        assert_eq!(shell_status("all good"), None);
        assert_eq!(shell_status(""), None);
    }

    #[test]
    fn text_joins_blocks_and_marks_images() {
        let v =
            json!([{"type":"text","text":"a"},{"type":"image","mimeType":"image/png","data":"x"}]);
        assert_eq!(joined_text(Some(&v)).as_deref(), Some("a\n[image/png]"));
        assert_eq!(joined_text(Some(&json!("plain"))).as_deref(), Some("plain"));
        assert_eq!(joined_text(Some(&json!([]))), None);
        assert_eq!(joined_text(Some(&json!(5))), None);
    }

    #[test]
    fn arguments_are_capped() {
        let big = "z".repeat(100_000);
        let v = capped_arguments(&json!({"path":"a","content": big}));
        assert!(v["content"].as_str().unwrap().len() < 20_000);
        assert_eq!(v["path"], "a");
    }

    #[test]
    fn diff_counts() {
        assert_eq!(diff_line_counts("   1 a\n-  2 b\n+  2 c\n+  3 d\n"), (2, 1));
    }
}
