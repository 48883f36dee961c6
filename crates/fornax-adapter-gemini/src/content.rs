//! Reading Gemini content: `PartListUnion` text, tool results, shell status lines, bounded
//! copies.

use serde_json::Value;

/// Longest text kept from one human or agent message (head and tail survive beyond it).
pub(crate) const TEXT_CAP: usize = 256 * 1024;
/// Longest tool output kept.
pub(crate) const OUTPUT_CAP: usize = 64 * 1024;
/// Longest string kept inside tool-call arguments (file contents of `write_file`, ...).
const ARGUMENT_STRING_CAP: usize = 16 * 1024;
/// Deepest argument nesting copied.
const ARGUMENT_DEPTH_CAP: usize = 32;
/// Longest discriminator, id or name taken from a record.
pub(crate) const TAG_CAP: usize = 128;
/// Longest id used verbatim in a key.
pub(crate) const ID_CAP: usize = 256;

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

/// An id usable in a key: non-empty and not absurdly long.
pub(crate) fn usable_id(value: Option<&Value>) -> Option<String> {
    value
        .and_then(Value::as_str)
        .filter(|id| !id.is_empty() && id.len() <= ID_CAP)
        .map(str::to_string)
}

/// The text of a Gemini `PartListUnion`: a string, one part or an array of parts. Text parts
/// contribute their text (thought parts excluded), inline data a `[<mime>]` marker.
pub(crate) fn parts_text(value: Option<&Value>) -> Option<String> {
    let mut parts = Vec::new();
    collect_text(value?, &mut parts, 0);
    if parts.is_empty() {
        None
    } else {
        Some(parts.join("\n"))
    }
}

fn collect_text(value: &Value, out: &mut Vec<String>, depth: usize) {
    if depth > 2 {
        return;
    }
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => {
            for item in items {
                collect_text(item, out, depth + 1);
            }
        }
        Value::Object(part) => {
            if part.get("thought").and_then(Value::as_bool) == Some(true) {
                return;
            }
            if let Some(text) = part.get("text").and_then(Value::as_str) {
                out.push(text.to_string());
            } else if let Some(data) = part.get("inlineData").or_else(|| part.get("fileData")) {
                let mime = data
                    .get("mimeType")
                    .and_then(Value::as_str)
                    .unwrap_or("attachment");
                out.push(format!("[{}]", bounded(mime)));
            }
        }
        _ => {}
    }
}

/// The output a tool call's `result` gave the model: `functionResponse.response.output` (or
/// `.error`) of each part, or plain text parts. Returns the text and whether an `error` field
/// was present.
pub(crate) fn result_text(result: Option<&Value>) -> (Option<String>, bool) {
    let Some(result) = result else {
        return (None, false);
    };
    let parts: Vec<&Value> = match result {
        Value::Array(items) => items.iter().collect(),
        other => vec![other],
    };
    let mut texts = Vec::new();
    let mut errored = false;
    for part in parts {
        if let Some(response) = part.get("functionResponse").and_then(|f| f.get("response")) {
            if let Some(output) = response.get("output").and_then(Value::as_str) {
                texts.push(output.to_string());
            }
            if let Some(error) = response.get("error") {
                errored = true;
                match error.as_str() {
                    Some(e) => texts.push(e.to_string()),
                    None => texts.push(error.to_string()),
                }
            }
        } else if let Some(text) = part
            .as_str()
            .or_else(|| part.get("text").and_then(Value::as_str))
        {
            texts.push(text.to_string());
        }
    }
    if texts.is_empty() {
        (None, errored)
    } else {
        (Some(texts.join("\n")), errored)
    }
}

/// What `run_shell_command` output says about how the process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ShellStatus {
    /// An `Exit Code: N` line (older versions write it for 0 too, newer only when non-zero).
    Exited(i64),
    /// Cancelled by the user, or by the no-output timeout.
    Cancelled,
}

/// Reads the status of a `run_shell_command` result. The `Exit Code:` line comes after the
/// command's own output, so the last such line wins.
pub(crate) fn shell_status(text: &str) -> Option<ShellStatus> {
    if text.starts_with("Command was cancelled by user")
        || text.starts_with("Command was automatically cancelled")
    {
        return Some(ShellStatus::Cancelled);
    }
    let mut code = None;
    for line in text.lines() {
        if let Some(rest) = line.trim_end().strip_prefix("Exit Code: ") {
            if let Ok(n) = rest.trim().parse::<i64>() {
                code = Some(n);
            }
        }
    }
    code.map(ShellStatus::Exited)
}

/// A copy of tool-call arguments with long strings capped and deep nesting cut.
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn exit_code_lines() {
        let text = "Command: cmake .\nDirectory: (root)\nOutput: bash: cmake: command not found\nError: (none)\nExit Code: 127\nSignal: 0";
        assert_eq!(shell_status(text), Some(ShellStatus::Exited(127)));
        assert_eq!(shell_status("Output: ok\nProcess Group PGID: 1"), None);
        assert_eq!(
            shell_status("Output: Exit Code: 3 (printed by the program)\nExit Code: 1"),
            Some(ShellStatus::Exited(1))
        );
        assert_eq!(
            shell_status("Command was cancelled by user before it could complete. There was no output before it was cancelled."),
            Some(ShellStatus::Cancelled)
        );
    }

    #[test]
    fn part_lists() {
        assert_eq!(parts_text(Some(&json!("hi"))).as_deref(), Some("hi"));
        let v = json!([{"text":"a"},{"text":"hidden","thought":true},{"inlineData":{"mimeType":"image/png","data":"x"}}]);
        assert_eq!(parts_text(Some(&v)).as_deref(), Some("a\n[image/png]"));
        assert_eq!(parts_text(Some(&json!([]))), None);
        assert_eq!(
            parts_text(Some(&json!({"text":"one part"}))).as_deref(),
            Some("one part")
        );
    }

    #[test]
    fn tool_results() {
        let r = json!([{"functionResponse":{"id":"c","name":"x","response":{"output":"done"}}}]);
        assert_eq!(result_text(Some(&r)), (Some("done".into()), false));
        let e = json!([{"functionResponse":{"id":"c","name":"x","response":{"error":"boom"}}}]);
        assert_eq!(result_text(Some(&e)), (Some("boom".into()), true));
        assert_eq!(result_text(Some(&Value::Null)), (None, false));
    }
}
