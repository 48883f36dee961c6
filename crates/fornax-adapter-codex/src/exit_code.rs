//! Reading a tool output as Codex wrote it: the text the model saw, and the exit status in
//! whichever encoding the generation used.
//!
//! Encodings (all written by Codex itself, so a number found here is structural):
//! * a JSON string `{"output": "...", "metadata": {"exit_code": N, "duration_seconds": S}}`
//!   (legacy 2025-09 `shell`, `shell` up to 0.5x, `apply_patch` in every generation);
//! * a text header `Exit code: N` / `Wall time: S seconds` / `Output:` (`shell_command`, 0.6x);
//! * a text header `Chunk ID` / `Wall time` / `Process exited with code N` /
//!   `Original token count` / `Output:` (unified `exec_command`, 0.9x+), or
//!   `Process running with session ID N` while the process still runs;
//! * `failed in sandbox ... exit code: N, stdout: ...` (sandbox denials, legacy);
//! * any of these inside an array of content items.
//!
//! `Script completed` with no status is read as exit 0 at heuristic strength only.

use fornax_types::{EvidenceStrength, ExitCode};
use serde_json::Value;

use crate::text::{content_text, int_after, seconds_to_ms};

/// What one output witness says.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ParsedOutput {
    /// The output without its status wrapper.
    pub text: Option<String>,
    pub exit_code: Option<ExitCode>,
    pub duration_ms: Option<u64>,
    pub failed: Option<bool>,
    /// A unified-exec process still running under this session id.
    pub running_session: Option<String>,
}

impl ParsedOutput {
    fn with_exit(mut self, code: i64, strength: EvidenceStrength) -> Self {
        self.exit_code = Some(ExitCode { code, strength });
        self.failed = Some(code != 0);
        self
    }
}

/// Parses a `function_call_output.output` / `custom_tool_call_output.output` value.
pub(crate) fn parse_output(raw: &Value) -> ParsedOutput {
    match raw {
        Value::String(s) => parse_text(s, true),
        Value::Array(_) => match content_text(raw) {
            Some(text) => parse_text(&text, true),
            None => ParsedOutput::default(),
        },
        Value::Object(obj) => {
            // `{"content": ..., "success": bool}` payload objects, or one content part.
            if obj.contains_key("output") || obj.contains_key("metadata") {
                return parse_json_envelope(raw).unwrap_or_default();
            }
            let text = obj
                .get("content")
                .and_then(content_text)
                .or_else(|| content_text(raw));
            let mut parsed = match text {
                Some(t) => parse_text(&t, true),
                None => ParsedOutput::default(),
            };
            if let Some(success) = obj.get("success").and_then(Value::as_bool) {
                if parsed.failed.is_none() {
                    parsed.failed = Some(!success);
                }
            }
            parsed
        }
        _ => ParsedOutput::default(),
    }
}

/// Parses output text. `nested` allows one level of JSON unwrapping.
pub(crate) fn parse_text(s: &str, nested: bool) -> ParsedOutput {
    let trimmed = s.trim_start();
    if nested && trimmed.starts_with('{') {
        if let Ok(v) = serde_json::from_str::<Value>(trimmed) {
            if let Some(parsed) = parse_json_envelope(&v) {
                return parsed;
            }
        }
    }
    if nested && trimmed.starts_with('[') {
        if let Ok(v @ Value::Array(_)) = serde_json::from_str::<Value>(trimmed) {
            if let Some(text) = content_text(&v) {
                return parse_text(&text, false);
            }
        }
    }
    if let Some(parsed) = parse_header(s) {
        return parsed;
    }
    if let Some(parsed) = parse_sandbox_failure(s) {
        return parsed;
    }
    let plain = ParsedOutput {
        text: Some(s.to_string()),
        ..ParsedOutput::default()
    };
    let first_line = trimmed.lines().next().unwrap_or("").trim();
    if first_line == "Script completed" || first_line.starts_with("Script completed ") {
        return plain.with_exit(0, EvidenceStrength::Heuristic);
    }
    plain
}

/// `{"output": "...", "metadata": {"exit_code": N, "duration_seconds": S}}`.
fn parse_json_envelope(v: &Value) -> Option<ParsedOutput> {
    let obj = v.as_object()?;
    let output = obj.get("output");
    let metadata = obj.get("metadata").filter(|m| m.is_object());
    if output.is_none() && metadata.is_none() {
        return None;
    }
    let mut parsed = ParsedOutput {
        text: output.and_then(content_text),
        ..ParsedOutput::default()
    };
    if let Some(meta) = metadata {
        if let Some(code) = meta.get("exit_code").and_then(Value::as_i64) {
            parsed = parsed.with_exit(code, EvidenceStrength::Structural);
        }
        parsed.duration_ms = meta
            .get("duration_seconds")
            .and_then(Value::as_f64)
            .and_then(seconds_to_ms);
    }
    Some(parsed)
}

/// The line-oriented header of `shell_command` and unified-exec outputs, up to `Output:`.
fn parse_header(s: &str) -> Option<ParsedOutput> {
    let mut parsed = ParsedOutput::default();
    let mut recognized = 0usize;
    let mut offset = 0usize;
    let mut body: Option<&str> = None;
    for raw_line in s.split_inclusive('\n') {
        let line = raw_line.trim_end_matches(['\n', '\r']).trim();
        offset += raw_line.len();
        if line == "Output:" {
            body = Some(&s[offset.min(s.len())..]);
            break;
        }
        if let Some(code) = int_after(line, "Exit code:") {
            parsed = parsed.with_exit(code, EvidenceStrength::Structural);
        } else if let Some(code) = int_after(line, "Process exited with code") {
            parsed = parsed.with_exit(code, EvidenceStrength::Structural);
        } else if let Some(rest) = line.strip_prefix("Process running with session ID") {
            let id = rest.trim();
            if !id.is_empty() {
                parsed.running_session = Some(id.to_string());
            }
        } else if let Some(rest) = line.strip_prefix("Wall time:") {
            let secs = rest.trim().trim_end_matches("seconds").trim();
            parsed.duration_ms = secs.parse::<f64>().ok().and_then(seconds_to_ms);
        } else if line.starts_with("Chunk ID:")
            || line.starts_with("Original token count:")
            || line.starts_with("Total output lines:")
        {
        } else {
            // Not a header line: the output has no Codex header after all.
            return None;
        }
        recognized += 1;
    }
    if recognized == 0 {
        return None;
    }
    if parsed.running_session.is_some() {
        // The wall time of a poll that returned while the process still runs is not the
        // process's duration.
        parsed.duration_ms = None;
    }
    parsed.text = Some(body.unwrap_or("").to_string());
    Some(parsed)
}

/// `failed in sandbox <kind> with execution error: ..., exit code: N, stdout: ..., stderr: ...`.
fn parse_sandbox_failure(s: &str) -> Option<ParsedOutput> {
    let head = s.get(..s.len().min(512)).unwrap_or(s);
    if !(head.starts_with("failed in sandbox") || head.starts_with("execution error")) {
        return None;
    }
    let at = head.find("exit code:")?;
    let code = int_after(&head[at..], "exit code:")?;
    let parsed = ParsedOutput {
        text: Some(s.to_string()),
        ..ParsedOutput::default()
    };
    Some(parsed.with_exit(code, EvidenceStrength::Structural))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn code(p: &ParsedOutput) -> Option<(i64, EvidenceStrength)> {
        p.exit_code.map(|e| (e.code, e.strength))
    }

    #[test]
    fn json_metadata_encoding() {
        let raw =
            json!("{\"output\":\"ok\\n\",\"metadata\":{\"exit_code\":2,\"duration_seconds\":1.5}}");
        let p = parse_output(&raw);
        assert_eq!(code(&p), Some((2, EvidenceStrength::Structural)));
        assert_eq!(p.text.as_deref(), Some("ok\n"));
        assert_eq!(p.duration_ms, Some(1500));
        assert_eq!(p.failed, Some(true));
    }

    #[test]
    fn exit_code_text_encoding() {
        let p = parse_output(&json!(
            "Exit code: 0\nWall time: 0.1 seconds\nOutput:\nhello\n"
        ));
        assert_eq!(code(&p), Some((0, EvidenceStrength::Structural)));
        assert_eq!(p.text.as_deref(), Some("hello\n"));
        assert_eq!(p.duration_ms, Some(100));
        assert_eq!(p.failed, Some(false));
    }

    #[test]
    fn unified_exec_encoding_and_running_sessions() {
        let done = "Chunk ID: a1\r\nWall time: 0.0512 seconds\r\nProcess exited with code 127\r\nOriginal token count: 11\r\nOutput:\r\nbash: rg: command not found\r\n";
        let p = parse_output(&json!(done));
        assert_eq!(code(&p), Some((127, EvidenceStrength::Structural)));
        assert_eq!(p.text.as_deref(), Some("bash: rg: command not found\r\n"));
        let running = "Chunk ID: b2\nWall time: 10.0011 seconds\nProcess running with session ID 23720\nOriginal token count: 0\nOutput:\n";
        let p = parse_output(&json!(running));
        assert_eq!(p.exit_code, None);
        assert_eq!(p.running_session.as_deref(), Some("23720"));
        assert_eq!(p.failed, None);
        assert_eq!(p.duration_ms, None);
    }

    #[test]
    fn content_item_arrays() {
        let raw = json!([{"type": "input_text", "text": "Exit code: 1\nOutput:\nboom"}]);
        let p = parse_output(&raw);
        assert_eq!(code(&p), Some((1, EvidenceStrength::Structural)));
        assert_eq!(p.text.as_deref(), Some("boom"));
        let p = parse_output(&json!({"type": "input_text", "text": "a.txt\n"}));
        assert_eq!(p.text.as_deref(), Some("a.txt\n"));
        assert_eq!(p.exit_code, None);
        let p = parse_output(&json!("[{\"text\":\"{}\",\"type\":\"text\"}]"));
        assert_eq!(p.text.as_deref(), Some("{}"));
    }

    #[test]
    fn sandbox_failure_text() {
        let p = parse_output(&json!("failed in sandbox LinuxSeccomp with execution error: sandbox denied exec error, exit code: 2, stdout: , stderr: sed: x\n"));
        assert_eq!(code(&p), Some((2, EvidenceStrength::Structural)));
        assert!(p.text.unwrap().starts_with("failed in sandbox"));
    }

    #[test]
    fn script_completed_is_heuristic_and_plain_text_has_no_code() {
        let p = parse_output(&json!("Script completed\nconsole output"));
        assert_eq!(code(&p), Some((0, EvidenceStrength::Heuristic)));
        let p = parse_output(&json!("Plan updated"));
        assert_eq!(p.exit_code, None);
        assert_eq!(p.text.as_deref(), Some("Plan updated"));
        let p = parse_output(&json!("Exit code is unknown"));
        assert_eq!(p.exit_code, None);
    }

    #[test]
    fn success_flag_objects() {
        let p = parse_output(&json!({"content": "denied", "success": false}));
        assert_eq!(p.failed, Some(true));
        assert_eq!(p.text.as_deref(), Some("denied"));
    }

    #[test]
    fn garbage_never_panics() {
        for raw in [
            json!(null),
            json!(3),
            json!("{not json"),
            json!("["),
            json!({}),
            json!([1, 2]),
        ] {
            let _ = parse_output(&raw);
        }
        let p = parse_output(&json!("Exit code: 99999999999999999999999\nOutput:\n"));
        assert_eq!(p.exit_code, None);
    }
}
