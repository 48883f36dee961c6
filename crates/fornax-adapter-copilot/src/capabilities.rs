//! What each Copilot CLI transport can observe, per signal.

use fornax_types::{Provider, RuntimeCapabilities, SignalAvailability, SignalClass, SourceKind};

/// The session log (`events.jsonl`).
pub(crate) fn session_log() -> RuntimeCapabilities {
    use SignalAvailability::Available;
    RuntimeCapabilities::new(Provider::Copilot, SourceKind::File)
        .declare(
            SignalClass::SessionLifecycle,
            Available,
            "session.start (id, cwd, version), session.resume, session.shutdown with model metrics",
        )
        .declare(
            SignalClass::LoopLifecycle,
            Available,
            "a user.message opens a loop; assistant.turn_end, abort, session.idle and session.shutdown end it",
        )
        .declare(SignalClass::HumanInput, Available, "user.message content (what the human typed)")
        .declare(
            SignalClass::FinalResponse,
            Available,
            "heuristic: the last assistant text without tool requests when the loop ends",
        )
        .declare(SignalClass::AgentCommentary, Available, "assistant.message content")
        .declare(
            SignalClass::Reasoning,
            Available,
            "reasoningText and assistant.reasoning; opaque or encrypted reasoning as unavailable content",
        )
        .declare(
            SignalClass::ToolInvocation,
            Available,
            "toolRequests and tool.execution_start, by toolCallId",
        )
        .declare(
            SignalClass::ToolOutput,
            Available,
            "tool.execution_complete: success, result content or error",
        )
        .declare(
            SignalClass::ProcessResult,
            Available,
            "the '<exited with exit code N>' line the bash/powershell tool appends to its output; none while a command runs detached",
        )
        .declare(
            SignalClass::FileMutation,
            Available,
            "edit and create (and str_replace_editor) results, with line counts from the unified diff in detailedContent",
        )
        .declare(
            SignalClass::SubagentLifecycle,
            Available,
            "subagent.started/completed/failed and the subagent's events (agentId, parentToolCallId)",
        )
}

/// The hook transport (`fornax hook copilot <event>`).
pub(crate) fn hooks() -> RuntimeCapabilities {
    use SignalAvailability::{Available, Unsupported};
    let no_text = "hook payloads carry no agent text";
    RuntimeCapabilities::new(Provider::Copilot, SourceKind::HookStream)
        .declare(
            SignalClass::SessionLifecycle,
            Available,
            "sessionId on every payload; sessionStart (source) and sessionEnd (reason) when configured",
        )
        .declare(
            SignalClass::LoopLifecycle,
            Unsupported,
            "agentStop marks a turn's end but no hook marks its start",
        )
        .declare(
            SignalClass::HumanInput,
            Available,
            "userPromptSubmitted prompt (heuristic: request or steering is not said)",
        )
        .declare(SignalClass::FinalResponse, Unsupported, no_text)
        .declare(SignalClass::AgentCommentary, Unsupported, no_text)
        .declare(SignalClass::Reasoning, Unsupported, no_text)
        .declare(
            SignalClass::ToolInvocation,
            Available,
            "preToolUse / postToolUse toolName and toolArgs (no call id)",
        )
        .declare(
            SignalClass::ToolOutput,
            Available,
            "postToolUse toolResult (resultType, textResultForLlm)",
        )
        .declare(
            SignalClass::ProcessResult,
            Available,
            "the '<exited with exit code N>' line inside a shell tool's textResultForLlm",
        )
        .declare(
            SignalClass::FileMutation,
            SignalAvailability::Unknown,
            "postToolUse names an edit's path but not its diff; no payload of an edit tool seen",
        )
        .declare(
            SignalClass::SubagentLifecycle,
            Unsupported,
            "subagentStop names no subagent; its events go to the session log only",
        )
}
