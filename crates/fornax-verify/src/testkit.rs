//! Builders of canonical items for tests.

use fornax_types::{
    EvidenceStrength, ExitCode, Item, Provider, RecordRef, Role, Semantic, SemanticValue,
    SessionRef, ShellCallValue, SourceId, TextValue, ToolCallValue, ToolOutputValue,
};
use serde_json::Value;

pub fn session() -> SessionRef {
    SessionRef::new(Provider::ClaudeCode, "sess-1")
}

pub fn item_in(session: &SessionRef, key: &str, role: Role, value: SemanticValue) -> Item {
    Item {
        session: session.clone(),
        key: key.to_string(),
        loop_position: Some(0),
        at: None,
        semantic: Semantic::new(role, value, EvidenceStrength::Structural),
        records: vec![RecordRef::new(SourceId::new("src"), 0)],
    }
}

pub fn shell_call(key: &str, call_id: Option<&str>, command: &str) -> Item {
    item_in(
        &session(),
        key,
        Role::AgentToolCallShell,
        SemanticValue::ShellCall(ShellCallValue {
            call_id: call_id.map(str::to_string),
            tool_name: "Bash".into(),
            command: command.into(),
            invocations: fornax_types::shell::parse_invocations(command),
            cwd: None,
            timeout_ms: None,
        }),
    )
}

pub fn tool_call(key: &str, call_id: Option<&str>, name: &str, arguments: Value) -> Item {
    item_in(
        &session(),
        key,
        Role::AgentToolCall,
        SemanticValue::ToolCall(ToolCallValue {
            call_id: call_id.map(str::to_string),
            name: name.into(),
            arguments,
            cwd: None,
        }),
    )
}

pub fn output(
    key: &str,
    call_id: Option<&str>,
    text: &str,
    exit: Option<i64>,
    failed: Option<bool>,
) -> Item {
    item_in(
        &session(),
        key,
        Role::ToolOutput,
        SemanticValue::ToolOutput(ToolOutputValue {
            call_id: call_id.map(str::to_string),
            tool_name: None,
            text: Some(TextValue::full(text)),
            stderr: None,
            exit_code: exit.map(|code| ExitCode {
                code,
                strength: EvidenceStrength::Structural,
            }),
            failed,
            interrupted: None,
            duration_ms: None,
            runtime_truncated: None,
        }),
    )
}

pub fn say(key: &str, role: Role, text: &str) -> Item {
    item_in(
        &session(),
        key,
        role,
        SemanticValue::Text(TextValue::full(text)),
    )
}
