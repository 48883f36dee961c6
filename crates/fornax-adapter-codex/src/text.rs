//! Small, total helpers over native JSON: field access, content text, caps and fingerprints.

use serde_json::{Map, Value};

/// Longest message text kept on an item (head and tail survive, see `TextValue::capped`).
pub(crate) const MESSAGE_TEXT_LIMIT: usize = 128 * 1024;
/// Longest tool output kept on an item.
pub(crate) const OUTPUT_TEXT_LIMIT: usize = 64 * 1024;
/// Longest string kept inside tool-call arguments.
pub(crate) const ARGUMENT_STRING_LIMIT: usize = 16 * 1024;
/// Longest instructions text kept on a `runtime.instructions` item.
pub(crate) const INSTRUCTIONS_LIMIT: usize = 32 * 1024;
/// Longest type tag reported as an `Unrecognized` discriminator.
const DISCRIMINATOR_LIMIT: usize = 64;
/// Nesting depth past which argument JSON is cut.
const ARGUMENT_DEPTH_LIMIT: usize = 32;

pub(crate) fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

/// A non-empty string field.
pub(crate) fn nonempty<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    str_of(v, key).filter(|s| !s.trim().is_empty())
}

pub(crate) fn u64_of(v: &Value, key: &str) -> Option<u64> {
    v.get(key).and_then(Value::as_u64)
}

/// A runtime timestamp, only when it looks like one (`YYYY-...`); sanitized placeholders and
/// wrong types read as absent.
pub(crate) fn timestamp(v: Option<&Value>) -> Option<String> {
    let s = v?.as_str()?;
    let b = s.as_bytes();
    let looks_like_date = b.len() >= 10 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-';
    looks_like_date.then(|| s.to_string())
}

/// The text of a content value: a string, one content part, or an array of parts
/// (`input_text`, `output_text`, `text`, `Text`, ...). Non-text parts (images) are skipped.
/// Parts are joined with a newline.
pub(crate) fn content_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Object(obj) => part_text(obj).map(str::to_string),
        Value::Array(parts) => {
            let texts: Vec<&str> = parts
                .iter()
                .filter_map(Value::as_object)
                .filter_map(part_text)
                .collect();
            if texts.is_empty() {
                let plain: Vec<&str> = parts.iter().filter_map(Value::as_str).collect();
                return (!plain.is_empty()).then(|| plain.join("\n"));
            }
            Some(texts.join("\n"))
        }
        _ => None,
    }
}

fn part_text(obj: &Map<String, Value>) -> Option<&str> {
    let kind = obj.get("type").and_then(Value::as_str).unwrap_or("text");
    let textual = matches!(
        kind,
        "input_text"
            | "output_text"
            | "text"
            | "Text"
            | "inputText"
            | "summary_text"
            | "reasoning_text"
    );
    if !textual {
        return None;
    }
    obj.get("text").and_then(Value::as_str)
}

/// A stable 64-bit fingerprint of a text with all whitespace runs collapsed, so that the two
/// witnesses of one message match even when one of them trimmed or re-wrapped it.
pub(crate) fn fingerprint(text: &str) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    let mut hash = OFFSET;
    let mut first = true;
    for word in text.split_whitespace() {
        if !first {
            hash ^= u64::from(b' ');
            hash = hash.wrapping_mul(PRIME);
        }
        first = false;
        for b in word.bytes() {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(PRIME);
        }
    }
    hash
}

/// A type tag fit to report: never longer than a short tag.
pub(crate) fn discriminator(tag: &str) -> String {
    let tag = if tag.is_empty() { "<empty type>" } else { tag };
    if tag.len() <= DISCRIMINATOR_LIMIT {
        return tag.to_string();
    }
    let mut end = DISCRIMINATOR_LIMIT;
    while !tag.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &tag[..end])
}

/// Tool-call arguments as the runtime wrote them: a JSON string is parsed, long strings are
/// capped (head and tail), deep nesting is cut.
pub(crate) fn arguments(v: &Value) -> Value {
    match v {
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(parsed) if parsed.is_object() || parsed.is_array() => cap_json(&parsed, 0),
            _ => cap_json(v, 0),
        },
        other => cap_json(other, 0),
    }
}

fn cap_json(v: &Value, depth: usize) -> Value {
    if depth >= ARGUMENT_DEPTH_LIMIT {
        return Value::String("[… nesting cut …]".to_string());
    }
    match v {
        Value::String(s) if s.len() > ARGUMENT_STRING_LIMIT => {
            Value::String(fornax_types::TextValue::capped(s, ARGUMENT_STRING_LIMIT).text)
        }
        Value::Array(items) => Value::Array(items.iter().map(|i| cap_json(i, depth + 1)).collect()),
        Value::Object(obj) => Value::Object(
            obj.iter()
                .map(|(k, i)| (k.clone(), cap_json(i, depth + 1)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Parses `prefix<digits>` at the start of `line`, allowing a sign.
pub(crate) fn int_after(line: &str, prefix: &str) -> Option<i64> {
    let rest = line.strip_prefix(prefix)?.trim();
    let end = rest
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && c == '-')))
        .map(|(i, _)| i)
        .unwrap_or(rest.len());
    rest[..end].parse().ok()
}

/// Seconds (as written, possibly fractional) to whole milliseconds.
pub(crate) fn seconds_to_ms(secs: f64) -> Option<u64> {
    (0.0..1e12)
        .contains(&secs)
        .then(|| (secs * 1000.0).round() as u64)
}

/// `{secs, nanos}` durations written by Rust's serde for `std::time::Duration`.
pub(crate) fn duration_ms(v: Option<&Value>) -> Option<u64> {
    let v = v?;
    if let Some(ms) = v.as_u64() {
        return Some(ms);
    }
    let secs = v.get("secs")?.as_u64()?;
    let nanos = v.get("nanos").and_then(Value::as_u64).unwrap_or(0);
    Some(secs.saturating_mul(1000).saturating_add(nanos / 1_000_000))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn content_text_reads_every_part_shape() {
        assert_eq!(content_text(&json!("plain")).as_deref(), Some("plain"));
        let parts = json!([
            {"type": "input_text", "text": "a"},
            {"type": "input_image", "image_url": "data:..."},
            {"type": "output_text", "text": "b"}
        ]);
        assert_eq!(content_text(&parts).as_deref(), Some("a\nb"));
        assert_eq!(
            content_text(&json!({"type": "input_text", "text": "x"})).as_deref(),
            Some("x")
        );
        assert_eq!(content_text(&json!(3)), None);
    }

    #[test]
    fn fingerprint_ignores_whitespace_shape() {
        assert_eq!(fingerprint("a  b\r\n c "), fingerprint("a b c"));
        assert_ne!(fingerprint("a b"), fingerprint("ab"));
    }

    #[test]
    fn timestamps_must_look_like_dates() {
        assert!(timestamp(Some(&json!("2025-09-10T18:58:38.331Z"))).is_some());
        assert!(timestamp(Some(&json!("[trimmed for fixture]"))).is_none());
        assert!(timestamp(Some(&json!(12))).is_none());
    }

    #[test]
    fn int_after_reads_signed_numbers() {
        assert_eq!(int_after("Exit code: 127", "Exit code:"), Some(127));
        assert_eq!(int_after("Exit code: -1 (killed)", "Exit code:"), Some(-1));
        assert_eq!(int_after("Exit code: x", "Exit code:"), None);
    }

    #[test]
    fn discriminators_are_short() {
        let long = "é".repeat(100);
        assert!(discriminator(&long).len() <= 68);
        assert_eq!(discriminator(""), "<empty type>");
    }
}
