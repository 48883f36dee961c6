//! Tool calls and tool outputs, shared by both transports so that the same fact seen through a
//! hook and through the transcript publishes the same value under the same key.

use fornax_types::shell::parse_invocations;
use fornax_types::{
    Delegation, EvidenceStrength, Role, Semantic, SemanticValue, ShellCallValue, SubagentValue,
    ToolCallValue, ToolOutputValue,
};
use serde_json::Value;

use crate::common::{capped, content_text, get_bool, get_str, get_text, get_u64, parse_exit_code};

/// Key of a tool call item: the runtime's `tool_use_id`.
pub(crate) fn call_key(tool_use_id: &str) -> String {
    format!("call:{tool_use_id}")
}

/// Key of a tool output item: the `tool_use_id` of the call it answers.
pub(crate) fn output_key(tool_use_id: &str) -> String {
    format!("out:{tool_use_id}")
}

/// Claude Code's shell tool (`Bash`; `bash` in some drifted shapes).
pub(crate) fn is_shell_tool(name: &str) -> bool {
    name.eq_ignore_ascii_case("bash")
}

/// The subagent tool: `Task` in 2025 builds, `Agent` in 2.1.x.
pub(crate) fn is_delegation_tool(name: &str) -> bool {
    name == "Task" || name == "Agent"
}

/// The canonical fact of a tool call.
pub(crate) fn call_semantic(
    session_native_id: &str,
    name: &str,
    call_id: Option<&str>,
    input: &Value,
    cwd: Option<&str>,
) -> Semantic {
    let call_id_owned = call_id.map(str::to_string);
    if is_shell_tool(name) {
        if let Some(command) = get_str(input, "command") {
            return Semantic::new(
                Role::AgentToolCallShell,
                SemanticValue::ShellCall(ShellCallValue {
                    call_id: call_id_owned,
                    tool_name: name.to_string(),
                    command: command.to_string(),
                    invocations: parse_invocations(command),
                    cwd: cwd.map(str::to_string),
                    timeout_ms: get_u64(input, "timeout"),
                }),
                EvidenceStrength::Structural,
            );
        }
    }
    if is_delegation_tool(name) {
        return Semantic::new(
            Role::AgentDelegation,
            SemanticValue::Delegation(Delegation {
                parent_native_id: session_native_id.to_string(),
                call_id: call_id_owned,
                agent_id: None,
                agent_type: get_text(input, "subagent_type").map(str::to_string),
            }),
            EvidenceStrength::Structural,
        );
    }
    Semantic::new(
        Role::AgentToolCall,
        SemanticValue::ToolCall(ToolCallValue {
            call_id: call_id_owned,
            name: name.to_string(),
            arguments: input.clone(),
            cwd: cwd.map(str::to_string),
        }),
        EvidenceStrength::Structural,
    )
}

/// Bash's result object (`{stdout, stderr, interrupted, isImage, ...}`), the same in a hook's
/// `tool_response` and a transcript's `toolUseResult`.
struct BashResult<'a> {
    stdout: &'a str,
    stderr: Option<&'a str>,
    interrupted: Option<bool>,
}

fn bash_result(v: Option<&Value>) -> Option<BashResult<'_>> {
    let v = v?;
    let stdout = get_str(v, "stdout")?;
    Some(BashResult {
        stdout,
        stderr: get_str(v, "stderr"),
        interrupted: get_bool(v, "interrupted"),
    })
}

fn non_empty(s: &str) -> Option<&str> {
    (!s.is_empty()).then_some(s)
}

/// A successful tool's output. For Bash, stdout and stderr come from the result object (the
/// same in both transports); otherwise `model_text` is what the model saw, when known.
/// Success carries no exit code: Claude Code never states one.
pub(crate) fn success_output(
    call_id: Option<&str>,
    tool_name: Option<&str>,
    result: Option<&Value>,
    model_text: Option<String>,
) -> ToolOutputValue {
    let mut out = ToolOutputValue {
        call_id: call_id.map(str::to_string),
        tool_name: tool_name.map(str::to_string),
        text: None,
        stderr: None,
        exit_code: None,
        failed: Some(false),
        interrupted: None,
        duration_ms: None,
        runtime_truncated: None,
    };
    if let Some(bash) = bash_result(result) {
        out.text = non_empty(bash.stdout).map(capped);
        out.stderr = bash.stderr.and_then(non_empty).map(capped);
        out.interrupted = bash.interrupted;
    } else {
        out.text = model_text.as_deref().and_then(non_empty).map(capped);
    }
    out
}

/// A failed tool's output: the runtime's error text, with the exit code when the runtime wrote
/// `Exit code N`.
pub(crate) fn failure_output(
    call_id: Option<&str>,
    tool_name: Option<&str>,
    error_text: Option<&str>,
    interrupted: Option<bool>,
) -> ToolOutputValue {
    ToolOutputValue {
        call_id: call_id.map(str::to_string),
        tool_name: tool_name.map(str::to_string),
        text: error_text.and_then(non_empty).map(capped),
        stderr: None,
        exit_code: error_text.and_then(parse_exit_code),
        failed: Some(true),
        interrupted,
        duration_ms: None,
        runtime_truncated: None,
    }
}

/// The link from a delegation's result to the subagent session it ran: a `subagent.activity`
/// item keyed by the call, when the result names the subagent (`agentId`, 2.1.x).
pub(crate) fn delegation_activity(
    call_id: Option<&str>,
    agent_type: Option<&str>,
    result: Option<&Value>,
) -> Option<(String, Semantic)> {
    let result = result?;
    let agent = get_text(result, "agentId")?;
    let key = match call_id {
        Some(id) => format!("subagent:{id}"),
        None => format!("subagent:agent-{agent}"),
    };
    let value = SubagentValue {
        child_session: Some(format!("agent-{agent}")),
        agent_id: Some(agent.to_string()),
        agent_type: agent_type.map(str::to_string),
        status: get_text(result, "status").map(str::to_string),
        text: None,
    };
    Some((
        key,
        Semantic::new(
            Role::SubagentActivity,
            SemanticValue::Subagent(value),
            EvidenceStrength::Structural,
        ),
    ))
}

/// The text of a hook `tool_response` that is not Bash's object: a string, MCP content blocks,
/// or a known text field of a tool's object. A file tool's object restates what was written,
/// which is not output, so it gives none.
pub(crate) fn response_text(response: &Value) -> Option<String> {
    match response {
        Value::String(_) | Value::Array(_) => content_text(response),
        Value::Object(_) if response.get("filePath").is_some() => None,
        Value::Object(_) => get_str(response, "content")
            .or_else(|| response.get("file").and_then(|f| get_str(f, "content")))
            .or_else(|| get_str(response, "result"))
            .map(str::to_string)
            .or_else(|| response.get("content").and_then(content_text)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bash_becomes_a_shell_call_with_invocations() {
        let s = call_semantic(
            "s",
            "Bash",
            Some("t1"),
            &json!({"command": "cd a && cargo test"}),
            None,
        );
        assert_eq!(s.role, Role::AgentToolCallShell);
        let SemanticValue::ShellCall(c) = s.value else {
            panic!()
        };
        assert_eq!(c.invocations.len(), 2);
        assert_eq!(c.invocations[1].program, "cargo");
    }

    #[test]
    fn task_and_agent_are_delegations() {
        for name in ["Task", "Agent"] {
            let s = call_semantic(
                "s",
                name,
                Some("t"),
                &json!({"subagent_type": "Explore"}),
                None,
            );
            assert_eq!(s.role, Role::AgentDelegation);
        }
    }

    #[test]
    fn success_has_no_exit_code() {
        let out = success_output(
            Some("t"),
            Some("Bash"),
            Some(&json!({"stdout": "ok", "stderr": "", "interrupted": false})),
            None,
        );
        assert_eq!(out.exit_code, None);
        assert_eq!(out.failed, Some(false));
        assert_eq!(out.text.unwrap().text, "ok");
        assert_eq!(out.stderr, None);
    }

    #[test]
    fn failure_reads_the_stated_code() {
        let out = failure_output(
            Some("t"),
            Some("Bash"),
            Some("Exit code 2\nerr"),
            Some(false),
        );
        assert_eq!(out.exit_code.map(|e| e.code), Some(2));
        assert_eq!(out.failed, Some(true));
    }
}
