//! Small total helpers shared by both transports: field access that never panics, text
//! capping, content-block flattening, exit-code reading, usage conversion and stable keys.

use fornax_types::{EvidenceStrength, ExitCode, TextValue, TokenCounts, Usage};
use serde_json::Value;

/// This implementation's version (not Claude Code's).
pub(crate) const ADAPTER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Longest text kept in one canonical value; longer text keeps its head and tail.
pub(crate) const TEXT_LIMIT: usize = 64 * 1024;

/// Capacity of every pairing table (calls awaiting outputs, known uuids).
pub(crate) const PAIRING_CAP: usize = 4096;

/// Longest discriminator reported for an unrecognized shape: it is a type tag, not data.
const DISCRIMINATOR_LIMIT: usize = 64;

/// A string field, whatever its content.
pub(crate) fn get_str<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key)?.as_str()
}

/// A string field that holds something other than whitespace.
pub(crate) fn get_text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    get_str(v, key).filter(|s| !s.trim().is_empty())
}

pub(crate) fn get_bool(v: &Value, key: &str) -> Option<bool> {
    v.get(key)?.as_bool()
}

pub(crate) fn get_u64(v: &Value, key: &str) -> Option<u64> {
    v.get(key)?.as_u64()
}

/// The runtime's timestamp of a record, when it wrote one.
pub(crate) fn timestamp(v: &Value) -> Option<String> {
    get_text(v, "timestamp").map(str::to_string)
}

/// A shape's type tag, shortened so that a hostile payload cannot smuggle data through it.
pub(crate) fn discriminator(tag: &str) -> String {
    if tag.is_empty() {
        return "<empty type>".to_string();
    }
    let mut end = tag.len().min(DISCRIMINATOR_LIMIT);
    while !tag.is_char_boundary(end) {
        end -= 1;
    }
    tag[..end].to_string()
}

pub(crate) fn capped(text: &str) -> TextValue {
    TextValue::capped(text, TEXT_LIMIT)
}

/// Flattens a message or tool-result `content` (a string, or an array of blocks) into the text
/// a model saw. Non-text blocks (images, documents) contribute nothing. `None` when no text.
pub(crate) fn content_text(content: &Value) -> Option<String> {
    match content {
        Value::String(s) => Some(s.clone()).filter(|s| !s.is_empty()),
        Value::Array(blocks) => {
            let parts: Vec<&str> = blocks
                .iter()
                .filter_map(|b| match b {
                    Value::String(s) => Some(s.as_str()),
                    other => get_str(other, "text"),
                })
                .collect();
            if parts.is_empty() {
                None
            } else {
                Some(parts.join("\n")).filter(|s| !s.is_empty())
            }
        }
        _ => None,
    }
}

/// Reads the `Exit code N` prefix Claude Code writes at the start of a failed Bash result
/// (`Exit code 1\n...`, or `Error: Exit code 128\n...` in `toolUseResult`). The runtime states
/// the number, so it is structural.
pub(crate) fn parse_exit_code(text: &str) -> Option<ExitCode> {
    let t = text.trim_start();
    let t = t.strip_prefix("Error: ").unwrap_or(t);
    let rest = t.strip_prefix("Exit code ")?;
    let end = rest
        .char_indices()
        .find(|&(i, c)| !(c.is_ascii_digit() || (i == 0 && c == '-')))
        .map_or(rest.len(), |(i, _)| i);
    let code = rest[..end].parse::<i64>().ok()?;
    Some(ExitCode {
        code,
        strength: EvidenceStrength::Structural,
    })
}

/// Removes the `<tool_use_error>` wrapper Claude Code puts around tool failures.
pub(crate) fn strip_tool_use_error(text: &str) -> &str {
    let t = text.trim();
    let t = t.strip_prefix("<tool_use_error>").unwrap_or(t);
    let t = t.strip_suffix("</tool_use_error>").unwrap_or(t);
    t.trim()
}

/// Converts an Anthropic `usage` object. Claude's `input_tokens` excludes cache reads and cache
/// writes; the canonical input counts every prompt token, so they are added back, which keeps
/// `cached <= input` by construction.
pub(crate) fn usage_from(u: &Value) -> Option<Usage> {
    if !u.is_object() {
        return None;
    }
    let input = get_u64(u, "input_tokens");
    let cache_read = get_u64(u, "cache_read_input_tokens");
    let cache_write = get_u64(u, "cache_creation_input_tokens");
    let output = get_u64(u, "output_tokens");
    let thinking = u
        .get("output_tokens_details")
        .and_then(|d| get_u64(d, "thinking_tokens"));
    let input_total = if input.is_some() || cache_read.is_some() || cache_write.is_some() {
        Some(
            input
                .unwrap_or(0)
                .saturating_add(cache_read.unwrap_or(0))
                .saturating_add(cache_write.unwrap_or(0)),
        )
    } else {
        None
    };
    let usage = Usage {
        input_tokens: input_total,
        cached_input_tokens: cache_read,
        output_tokens: output,
        // Thinking is part of output; a count above output is inconsistent and dropped.
        reasoning_output_tokens: thinking.filter(|t| output.is_none_or(|o| *t <= o)),
    };
    (!usage.is_empty()).then_some(usage)
}

/// The disjoint token kinds of an Anthropic `usage` object (its `input_tokens` already
/// excludes both cache kinds), for a usage fact.
pub(crate) fn token_counts_from(u: &Value) -> Option<TokenCounts> {
    if !u.is_object() {
        return None;
    }
    let output = get_u64(u, "output_tokens").unwrap_or(0);
    let counts = TokenCounts {
        input: get_u64(u, "input_tokens").unwrap_or(0),
        output,
        cache_creation: get_u64(u, "cache_creation_input_tokens").unwrap_or(0),
        cache_read: get_u64(u, "cache_read_input_tokens").unwrap_or(0),
        reasoning: u
            .get("output_tokens_details")
            .and_then(|d| get_u64(d, "thinking_tokens"))
            .filter(|t| *t <= output),
    };
    Some(counts)
}

/// FNV-1a over the parts (separated), as 16 hex digits: a stable, dependency-free digest for
/// keys of facts whose payload carries no native id.
pub(crate) fn digest(parts: &[&str]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for (i, part) in parts.iter().enumerate() {
        if i > 0 {
            h ^= 0x1f;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        for b in part.as_bytes() {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// Counts the lines of a text as an editor would (a trailing newline ends the last line).
pub(crate) fn line_count(text: &str) -> u64 {
    if text.is_empty() {
        0
    } else {
        text.lines().count() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn exit_codes_are_read_from_the_runtime_prefix_only() {
        assert_eq!(
            parse_exit_code("Exit code 1\nboom").map(|e| e.code),
            Some(1)
        );
        assert_eq!(
            parse_exit_code("Error: Exit code 128\nfatal").map(|e| e.code),
            Some(128)
        );
        assert_eq!(parse_exit_code("Exit code 127").map(|e| e.code), Some(127));
        assert_eq!(parse_exit_code("it said Exit code 1"), None);
        assert_eq!(parse_exit_code("Exit code x"), None);
        assert_eq!(parse_exit_code(""), None);
    }

    #[test]
    fn usage_counts_cached_reads_as_input() {
        let u = usage_from(&json!({
            "input_tokens": 10, "cache_read_input_tokens": 100,
            "cache_creation_input_tokens": 5, "output_tokens": 7
        }))
        .unwrap();
        assert_eq!(u.input_tokens, Some(115));
        assert_eq!(u.cached_input_tokens, Some(100));
        assert!(u.validate().is_ok());
        assert_eq!(usage_from(&json!({})), None);
        assert_eq!(usage_from(&json!("x")), None);
        let odd = usage_from(
            &json!({"output_tokens": 1, "output_tokens_details": {"thinking_tokens": 9}}),
        )
        .unwrap();
        assert_eq!(odd.reasoning_output_tokens, None);
    }

    #[test]
    fn content_flattens_text_blocks_only() {
        let c = json!([{"type": "text", "text": "a"}, {"type": "image"}, {"type": "text", "text": "b"}]);
        assert_eq!(content_text(&c).as_deref(), Some("a\nb"));
        assert_eq!(content_text(&json!([])), None);
        assert_eq!(content_text(&json!(3)), None);
    }

    #[test]
    fn discriminators_are_bounded() {
        let long = "é".repeat(100);
        assert!(discriminator(&long).len() <= 64);
        assert_eq!(discriminator(""), "<empty type>");
    }

    #[test]
    fn digests_are_stable_and_separate_parts() {
        assert_eq!(digest(&["a", "b"]), digest(&["a", "b"]));
        assert_ne!(digest(&["ab", ""]), digest(&["a", "b"]));
    }
}
