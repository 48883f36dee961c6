//! opencode tool calls: the call value, the output value and the files a call mutates.
//!
//! Tool names are lowercase (`bash`, `read`, `edit`, `write`, `apply_patch`, ...) and inputs are
//! camelCase (`filePath`, `oldString`). The exit code of a bash call is `metadata.exit`, a number
//! the runtime writes (structural).

use fornax_types::evidence::FileOperation;
use fornax_types::shell::parse_invocations;
use fornax_types::{
    EvidenceStrength, ExitCode, Role, SemanticValue, ShellCallValue, TextValue, ToolCallValue,
    ToolOutputValue,
};
use serde_json::{Map, Value};

use crate::json::{at, bool_at, i64_at, raw_str_at, str_at, u64_at};

/// Longest output text kept in a tool output item (head and tail survive).
pub(crate) const OUTPUT_LIMIT: usize = 64 * 1024;
/// Longest string kept inside tool arguments.
const ARGUMENT_STRING_LIMIT: usize = 16 * 1024;
/// Deepest nesting of tool arguments kept.
const ARGUMENT_DEPTH_LIMIT: usize = 32;

pub(crate) fn is_shell(tool: &str) -> bool {
    tool == "bash"
}

/// Tools whose whole purpose is to change files.
pub(crate) fn is_file_tool(tool: &str) -> bool {
    matches!(
        tool,
        "write" | "edit" | "multiedit" | "apply_patch" | "patch"
    )
}

/// The role and value of a call item.
pub(crate) fn call_value(tool: &str, call_id: &str, input: &Value) -> (Role, SemanticValue) {
    if is_shell(tool) {
        if let Some(command) = raw_str_at(input, &["command"]) {
            let value = ShellCallValue {
                call_id: Some(call_id.to_string()),
                tool_name: tool.to_string(),
                command: command.to_string(),
                invocations: parse_invocations(command),
                cwd: str_at(input, &["workdir"]).map(str::to_string),
                timeout_ms: u64_at(input, &["timeout"]),
            };
            return (Role::AgentToolCallShell, SemanticValue::ShellCall(value));
        }
    }
    let value = ToolCallValue {
        call_id: Some(call_id.to_string()),
        name: tool.to_string(),
        arguments: cap_strings(input, 0),
        cwd: None,
    };
    (Role::AgentToolCall, SemanticValue::ToolCall(value))
}

/// Arguments with long strings shortened and deep nesting cut, so a `write` of a large file
/// does not become a large item.
fn cap_strings(v: &Value, depth: usize) -> Value {
    match v {
        Value::String(s) if s.len() > ARGUMENT_STRING_LIMIT => {
            Value::String(TextValue::capped(s, ARGUMENT_STRING_LIMIT).text)
        }
        Value::Array(items) if depth < ARGUMENT_DEPTH_LIMIT => {
            Value::Array(items.iter().map(|i| cap_strings(i, depth + 1)).collect())
        }
        Value::Object(map) if depth < ARGUMENT_DEPTH_LIMIT => Value::Object(
            map.iter()
                .map(|(k, i)| (k.clone(), cap_strings(i, depth + 1)))
                .collect::<Map<_, _>>(),
        ),
        Value::Array(_) | Value::Object(_) => Value::String("[nested too deep]".to_string()),
        other => other.clone(),
    }
}

/// How a call ended, as far as the runtime said.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Status {
    Completed,
    Error,
}

impl Status {
    /// `completed` (and the pre-1.0 `success`) or `error`; pending and running are not endings.
    pub(crate) fn parse(status: &str) -> Option<Status> {
        match status {
            "completed" | "success" => Some(Status::Completed),
            "error" => Some(Status::Error),
            _ => None,
        }
    }
}

/// The end of one call, from a tool part's `state` or from the tool.execute.after hook.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Ending<'a> {
    pub status: Status,
    pub output: Option<&'a str>,
    pub error: Option<&'a str>,
    pub metadata: Option<&'a Value>,
    pub start_ms: Option<i64>,
    pub end_ms: Option<i64>,
}

impl<'a> Ending<'a> {
    /// From a tool part's `state`, when it is an ending.
    pub(crate) fn from_state(state: &'a Value) -> Option<Ending<'a>> {
        let status = Status::parse(str_at(state, &["status"])?)?;
        Some(Ending {
            status,
            output: raw_str_at(state, &["output"]),
            error: str_at(state, &["error"]),
            metadata: at(state, &["metadata"]).filter(|m| m.is_object()),
            start_ms: i64_at(state, &["time", "start"]),
            end_ms: i64_at(state, &["time", "end"]),
        })
    }

    pub(crate) fn exit_code(&self) -> Option<i64> {
        self.metadata.and_then(|m| i64_at(m, &["exit"]))
    }

    pub(crate) fn failed(&self) -> bool {
        self.status == Status::Error || self.exit_code().is_some_and(|c| c != 0)
    }
}

pub(crate) fn output_value(tool: &str, call_id: &str, ending: &Ending<'_>) -> ToolOutputValue {
    let text = match ending.status {
        Status::Completed => ending.output,
        Status::Error => ending.error.or(ending.output),
    };
    let exit_code = ending.exit_code().map(|code| ExitCode {
        code,
        strength: EvidenceStrength::Structural,
    });
    let duration_ms = match (ending.start_ms, ending.end_ms) {
        (Some(s), Some(e)) if e >= s => u64::try_from(e - s).ok(),
        _ => None,
    };
    ToolOutputValue {
        call_id: Some(call_id.to_string()),
        tool_name: Some(tool.to_string()),
        text: text.map(|t| TextValue::capped(t, OUTPUT_LIMIT)),
        stderr: None,
        exit_code,
        failed: Some(ending.failed()),
        interrupted: None,
        duration_ms,
        runtime_truncated: ending.metadata.and_then(|m| bool_at(m, &["truncated"])),
    }
}

/// One file a call created, changed, removed or renamed (or tried to).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct FileTarget {
    pub path: String,
    pub operation: FileOperation,
    pub lines_added: Option<u64>,
    pub lines_removed: Option<u64>,
}

impl FileTarget {
    fn new(path: &str, operation: FileOperation) -> Self {
        FileTarget {
            path: path.to_string(),
            operation,
            lines_added: None,
            lines_removed: None,
        }
    }
}

/// The files a file tool touches. The result's metadata (which names the files the runtime
/// actually wrote) is preferred over the input (what the model asked for).
pub(crate) fn file_targets(
    tool: &str,
    input: Option<&Value>,
    metadata: Option<&Value>,
) -> Vec<FileTarget> {
    let empty = Value::Null;
    let input = input.unwrap_or(&empty);
    let metadata = metadata.unwrap_or(&empty);
    match tool {
        "write" => {
            let Some(path) =
                str_at(input, &["filePath"]).or_else(|| str_at(metadata, &["filepath"]))
            else {
                return Vec::new();
            };
            let operation = match bool_at(metadata, &["exists"]) {
                Some(false) => FileOperation::Create,
                _ => FileOperation::Update,
            };
            vec![FileTarget::new(path, operation)]
        }
        "edit" | "multiedit" => {
            let Some(path) =
                str_at(input, &["filePath"]).or_else(|| str_at(metadata, &["filediff", "file"]))
            else {
                return Vec::new();
            };
            let mut target = FileTarget::new(path, FileOperation::Update);
            target.lines_added = u64_at(metadata, &["filediff", "additions"]);
            target.lines_removed = u64_at(metadata, &["filediff", "deletions"]);
            vec![target]
        }
        "apply_patch" | "patch" => {
            let from_metadata = patch_files_from_metadata(metadata);
            if !from_metadata.is_empty() {
                return from_metadata;
            }
            raw_str_at(input, &["patchText"])
                .map(patch_files_from_text)
                .unwrap_or_default()
        }
        _ => Vec::new(),
    }
}

/// `metadata.files[]`: `{filePath, relativePath, type: add|update|delete|move, movePath?,
/// additions, deletions}`.
fn patch_files_from_metadata(metadata: &Value) -> Vec<FileTarget> {
    let Some(files) = at(metadata, &["files"]).and_then(Value::as_array) else {
        return Vec::new();
    };
    files
        .iter()
        .filter_map(|f| {
            let operation = match str_at(f, &["type"]) {
                Some("add") => FileOperation::Create,
                Some("delete") => FileOperation::Delete,
                Some("move") => FileOperation::Rename,
                _ => FileOperation::Update,
            };
            let path = if operation == FileOperation::Rename {
                str_at(f, &["movePath"]).or_else(|| str_at(f, &["filePath"]))
            } else {
                str_at(f, &["filePath"]).or_else(|| str_at(f, &["relativePath"]))
            }?;
            let mut target = FileTarget::new(path, operation);
            target.lines_added = u64_at(f, &["additions"]);
            target.lines_removed = u64_at(f, &["deletions"]);
            Some(target)
        })
        .collect()
}

/// The file headers of an `*** Begin Patch` text. A move names its destination.
fn patch_files_from_text(text: &str) -> Vec<FileTarget> {
    let mut out: Vec<FileTarget> = Vec::new();
    for line in text.lines() {
        let line = line.trim_end();
        let header = |prefix: &str| {
            line.strip_prefix(prefix)
                .map(str::trim)
                .filter(|p| !p.is_empty())
        };
        if let Some(p) = header("*** Add File:") {
            out.push(FileTarget::new(p, FileOperation::Create));
        } else if let Some(p) = header("*** Update File:") {
            out.push(FileTarget::new(p, FileOperation::Update));
        } else if let Some(p) = header("*** Delete File:") {
            out.push(FileTarget::new(p, FileOperation::Delete));
        } else if let Some(p) = header("*** Move to:") {
            if let Some(last) = out.last_mut() {
                last.path = p.to_string();
                last.operation = FileOperation::Rename;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bash_becomes_a_shell_call() {
        let (role, value) = call_value(
            "bash",
            "c1",
            &json!({"command": "cd web && npm test", "timeout": 1000, "workdir": "/w"}),
        );
        assert_eq!(role, Role::AgentToolCallShell);
        let SemanticValue::ShellCall(call) = value else {
            panic!("not a shell call")
        };
        assert_eq!(call.invocations.len(), 2);
        assert_eq!(call.timeout_ms, Some(1000));
        assert_eq!(call.cwd.as_deref(), Some("/w"));
        let (role, _) = call_value("bash", "c1", &json!({"command": 3}));
        assert_eq!(role, Role::AgentToolCall);
    }

    #[test]
    fn long_arguments_are_capped() {
        let big = "x".repeat(100_000);
        let (_, value) = call_value("write", "c", &json!({"filePath": "a", "content": big}));
        let SemanticValue::ToolCall(call) = value else {
            panic!("not a tool call")
        };
        assert!(call.arguments["content"].as_str().unwrap_or_default().len() < 20_000);
    }

    #[test]
    fn exit_codes_and_failure() {
        let state = json!({"status": "completed", "output": "boom", "metadata": {"exit": 2, "truncated": false}, "time": {"start": 10, "end": 25}});
        let ending = Ending::from_state(&state).expect("an ending");
        let out = output_value("bash", "c", &ending);
        assert_eq!(out.exit_code.map(|e| e.code), Some(2));
        assert_eq!(out.failed, Some(true));
        assert_eq!(out.duration_ms, Some(15));
        assert_eq!(out.runtime_truncated, Some(false));
        let error = json!({"status": "error", "error": "oldString not found", "input": {}});
        let out = output_value("edit", "c", &Ending::from_state(&error).expect("an ending"));
        assert_eq!(out.failed, Some(true));
        assert_eq!(
            out.text.map(|t| t.text).as_deref(),
            Some("oldString not found")
        );
        assert!(Ending::from_state(&json!({"status": "running"})).is_none());
    }

    #[test]
    fn patch_targets_from_metadata_and_text() {
        let meta = json!({"files": [{"filePath": "/w/a.rs", "type": "update", "additions": 2, "deletions": 1}, {"filePath": "/w/b.rs", "movePath": "/w/c.rs", "type": "move"}]});
        let t = file_targets("apply_patch", None, Some(&meta));
        assert_eq!(t.len(), 2);
        assert_eq!(t[0].lines_added, Some(2));
        assert_eq!(t[1].path, "/w/c.rs");
        assert_eq!(t[1].operation, FileOperation::Rename);
        let text = "*** Begin Patch\n*** Add File: new.txt\n+hi\n*** Update File: old.rs\n*** Move to: moved.rs\n@@\n*** Delete File: gone.rs\n*** End Patch";
        let t = file_targets("apply_patch", Some(&json!({"patchText": text})), None);
        let got: Vec<_> = t.iter().map(|t| (t.path.as_str(), t.operation)).collect();
        assert_eq!(
            got,
            vec![
                ("new.txt", FileOperation::Create),
                ("moved.rs", FileOperation::Rename),
                ("gone.rs", FileOperation::Delete)
            ]
        );
    }

    #[test]
    fn write_and_edit_targets() {
        let t = file_targets(
            "write",
            Some(&json!({"filePath": "/w/a"})),
            Some(&json!({"exists": false})),
        );
        assert_eq!(t[0].operation, FileOperation::Create);
        let t = file_targets(
            "edit",
            None,
            Some(&json!({"filediff": {"file": "/w/b", "additions": 1, "deletions": 0}})),
        );
        assert_eq!(t[0].path, "/w/b");
        assert_eq!(t[0].lines_removed, Some(0));
        assert!(file_targets("read", Some(&json!({"filePath": "/w/a"})), None).is_empty());
    }
}
