//! One mapping of Copilot's tools shared by both transports: which calls run a shell, what a
//! result says (text, failure, exit code), which calls edit files, and the key both
//! transports give a call a hook reported.

use fornax_types::evidence::FileOperation;
use fornax_types::kit::json::{canonical, fingerprint64, str_at, text_at};
use fornax_types::kit::{unified_diff_counts, EditSensor, FileEdit};
use fornax_types::{
    shell::parse_invocations, CollectionMethod, EvidenceStrength, ExitCode, Provider, Role,
    Semantic, SemanticValue, ShellCallValue, TextValue, ToolCallValue, ToolOutputValue,
};
use serde_json::Value;

use crate::ADAPTER_VERSION;

/// Longest text kept on an item (head and tail survive).
pub(crate) const TEXT_LIMIT: usize = 64 * 1024;
/// Longest string kept inside tool-call arguments.
const ARGUMENT_STRING_LIMIT: usize = 16 * 1024;
/// Nesting depth past which argument JSON is cut.
const ARGUMENT_DEPTH_LIMIT: usize = 32;

/// Copilot's shell tools (`bash` on Unix, `powershell` on Windows; `shell` in early builds).
const SHELL_TOOLS: &[&str] = &["bash", "shell", "powershell", "pwsh"];

pub(crate) fn capped(text: &str) -> TextValue {
    TextValue::capped(text, TEXT_LIMIT)
}

/// Tool arguments as written: a JSON string (hooks' `toolArgs`, some requests) is parsed;
/// long strings are capped and deep nesting cut.
pub(crate) fn arguments(v: &Value) -> Value {
    match v {
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(parsed) if parsed.is_object() || parsed.is_array() => cap_json(&parsed, 0),
            _ => cap_json(v, 0),
        },
        Value::Null => Value::Null,
        other => cap_json(other, 0),
    }
}

fn cap_json(v: &Value, depth: usize) -> Value {
    if depth >= ARGUMENT_DEPTH_LIMIT {
        return Value::String("[… nesting cut …]".to_string());
    }
    match v {
        Value::String(s) if s.len() > ARGUMENT_STRING_LIMIT => {
            Value::String(TextValue::capped(s, ARGUMENT_STRING_LIMIT).text)
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

/// A fingerprint of a call's tool and arguments, the same whether the arguments came as an
/// object (the session log) or as a JSON string (a hook's `toolArgs`).
pub(crate) fn call_fingerprint(tool: &str, args: &Value) -> u64 {
    let args = canonical(&arguments(args));
    let mut bytes = tool.as_bytes().to_vec();
    bytes.push(0);
    bytes.extend(args.to_string().as_bytes());
    fingerprint64(&bytes)
}

/// The key of a call first reported by a hook: the hook's own timestamp and the call's
/// fingerprint. The session log mirrors every hook input, so it derives the same key.
pub(crate) fn hook_call_key(timestamp: &Value, tool: &str, args: &Value) -> String {
    let ts = match timestamp {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    format!("hook:{ts}:{:016x}", call_fingerprint(tool, args))
}

pub(crate) fn is_shell(tool: &str) -> bool {
    SHELL_TOOLS.contains(&tool.to_ascii_lowercase().as_str())
}

/// The semantic of a call: a shell call when the tool is a shell with a command, else a
/// generic tool call.
pub(crate) fn call_semantic(tool: &str, args: &Value, call_id: Option<&str>) -> Semantic {
    let args = arguments(args);
    if is_shell(tool) {
        if let Some(command) = text_at(&args, "command") {
            let value = ShellCallValue {
                call_id: call_id.map(str::to_string),
                tool_name: tool.to_string(),
                command: command.to_string(),
                invocations: parse_invocations(command),
                cwd: None,
                timeout_ms: None,
            };
            return Semantic::new(
                Role::AgentToolCallShell,
                SemanticValue::ShellCall(value),
                EvidenceStrength::Structural,
            );
        }
    }
    let value = ToolCallValue {
        call_id: call_id.map(str::to_string),
        name: tool.to_string(),
        arguments: args,
        cwd: None,
    };
    Semantic::new(
        Role::AgentToolCall,
        SemanticValue::ToolCall(value),
        EvidenceStrength::Structural,
    )
}

/// `<exited with exit code N>`: the line Copilot's shell tool appends to a command's output.
/// The last such line is the runtime's (a command could print one of its own before it).
pub(crate) fn exit_code_line(text: &str) -> Option<i64> {
    text.lines().rev().take(3).find_map(|line| {
        line.trim()
            .strip_prefix("<exited with exit code ")?
            .strip_suffix('>')?
            .trim()
            .parse()
            .ok()
    })
}

/// What a tool reported.
pub(crate) struct ToolResult<'a> {
    pub tool: Option<&'a str>,
    pub call_id: Option<&'a str>,
    pub text: Option<&'a str>,
    pub failed: bool,
    pub duration_ms: Option<u64>,
}

pub(crate) fn output_semantic(r: &ToolResult<'_>) -> Semantic {
    let exit_code = match r.tool {
        Some(t) if is_shell(t) => r.text.and_then(exit_code_line).map(|code| ExitCode {
            code,
            strength: EvidenceStrength::Structural,
        }),
        _ => None,
    };
    let value = ToolOutputValue {
        call_id: r.call_id.map(str::to_string),
        tool_name: r.tool.map(str::to_string),
        text: r.text.filter(|t| !t.is_empty()).map(capped),
        stderr: None,
        exit_code,
        failed: Some(r.failed),
        interrupted: None,
        duration_ms: r.duration_ms,
        runtime_truncated: None,
    };
    Semantic::new(
        Role::ToolOutput,
        SemanticValue::ToolOutput(value),
        EvidenceStrength::Structural,
    )
}

/// The file a call writes, when the tool is one of Copilot's editors: `create` and `edit`,
/// and the older `str_replace_editor` with a writing command.
pub(crate) fn file_target(tool: &str, args: &Value) -> Option<(String, FileOperation)> {
    let args = arguments(args);
    let path = text_at(&args, "path")?.to_string();
    let op = match tool {
        "create" => FileOperation::Create,
        "edit" => FileOperation::Update,
        "str_replace_editor" => match str_at(&args, "command")? {
            "create" => FileOperation::Create,
            "str_replace" | "insert" | "undo_edit" => FileOperation::Update,
            _ => return None,
        },
        _ => return None,
    };
    Some((path, op))
}

/// Line counts of a file call: the unified diff Copilot puts in `detailedContent`, else the
/// size of the text a `create` was given.
pub(crate) fn file_lines(
    op: FileOperation,
    args: &Value,
    diff: Option<&str>,
) -> (Option<u64>, Option<u64>) {
    if let Some(diff) = diff.filter(|d| d.contains("\n@@")) {
        let (a, r) = unified_diff_counts(diff);
        return (Some(a), Some(r));
    }
    if op == FileOperation::Create {
        let args = arguments(args);
        if let Some(text) = str_at(&args, "file_text") {
            return (Some(text.lines().count() as u64), Some(0));
        }
    }
    (None, None)
}

pub(crate) fn edit_sensor(method: CollectionMethod) -> EditSensor {
    EditSensor {
        provider: Provider::Copilot,
        sensor_name: "copilot.file_mutation",
        collector_version: ADAPTER_VERSION,
        method,
        tamper_boundary: match method {
            CollectionMethod::HookCallback => {
                "Copilot CLI's own report of the tool's result, handed to a hook command on \
                 stdin by the process that made the edit"
            }
            _ => {
                "Copilot CLI's own session log under ~/.copilot/session-state; any process with \
                 write access to the user's home could have altered it"
            }
        },
    }
}

/// A file edit in the making; the caller adds where it happened.
pub(crate) fn file_edit(
    session: fornax_types::SessionRef,
    target: (String, FileOperation),
    tool: &str,
) -> FileEdit {
    FileEdit::new(session, target.0, target.1, tool)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn exit_code_is_the_last_runtime_line() {
        assert_eq!(exit_code_line("ok\n<exited with exit code 0>"), Some(0));
        assert_eq!(
            exit_code_line("<exited with exit code 0>\nFAILED\n<exited with exit code 101>\n"),
            Some(101)
        );
        assert_eq!(exit_code_line("exit code: 1\n"), None);
        assert_eq!(exit_code_line(""), None);
    }

    #[test]
    fn hook_and_log_arguments_fingerprint_alike() {
        let from_log = json!({"path": "/a", "view_range": [1, 2]});
        let from_hook = json!("{\"view_range\":[1,2],\"path\":\"/a\"}");
        assert_eq!(
            call_fingerprint("view", &from_log),
            call_fingerprint("view", &from_hook)
        );
        assert_ne!(
            call_fingerprint("view", &from_log),
            call_fingerprint("edit", &from_log)
        );
    }

    #[test]
    fn shell_calls_and_file_targets() {
        let s = call_semantic("bash", &json!({"command": "cargo test"}), Some("c"));
        assert_eq!(s.role, Role::AgentToolCallShell);
        let t = call_semantic("bash", &json!({"sessionId": "x"}), None);
        assert_eq!(t.role, Role::AgentToolCall);
        assert_eq!(
            file_target("create", &json!({"path": "a.rs", "file_text": "x\ny\n"})),
            Some(("a.rs".into(), FileOperation::Create))
        );
        assert_eq!(
            file_target(
                "str_replace_editor",
                &json!({"command": "view", "path": "a"})
            ),
            None
        );
        assert_eq!(
            file_lines(FileOperation::Create, &json!({"file_text": "x\ny\n"}), None),
            (Some(2), Some(0))
        );
    }
}
