//! What each transport can observe, declared conservatively and per transport.
//!
//! Every `Available` below names the Claude Code version of a real payload that shows the
//! signal (the shared corpus: 2.0.28, 2.0.47 and 2.1.34 transcripts, 2.1.119 transcript and
//! hook logs, 2025 hook logs). What a transport cannot carry is declared `Unavailable`, never
//! left to be guessed.

use fornax_types::{Provider, RuntimeCapabilities, SignalAvailability, SignalClass, SourceKind};

use SignalAvailability::{Available, Unavailable};

/// The transcript file (`~/.claude/projects/<dashed-cwd>/<session>.jsonl` and subagent files).
pub(crate) fn transcript() -> RuntimeCapabilities {
    RuntimeCapabilities::new(Provider::ClaudeCode, SourceKind::File)
        .declare(
            SignalClass::SessionLifecycle,
            Available,
            "sessionId on every message line (2.0.28+); no end-of-session line",
        )
        .declare(
            SignalClass::LoopLifecycle,
            Available,
            "human prompts open loops; stop_reason end_turn (2.1.119) or system turn_duration \
             ends them; older lines write stop_reason null and loop ends are inferred",
        )
        .declare(
            SignalClass::HumanInput,
            Available,
            "user lines with string content (2.0.28+)",
        )
        .declare(
            SignalClass::FinalResponse,
            Available,
            "last text of a loop ended by end_turn (2.1.119); inferred when stop_reason is null",
        )
        .declare(
            SignalClass::AgentCommentary,
            Available,
            "assistant text blocks (2.0.28+)",
        )
        .declare(
            SignalClass::Reasoning,
            Available,
            "assistant thinking blocks, full text when not redacted (2.0.28+)",
        )
        .declare(
            SignalClass::ToolInvocation,
            Available,
            "assistant tool_use blocks (2.0.28+)",
        )
        .declare(
            SignalClass::ToolOutput,
            Available,
            "user tool_result blocks and toolUseResult objects (2.0.28+)",
        )
        .declare(
            SignalClass::ProcessResult,
            Available,
            "failures state `Exit code N` with is_error (2.1.34); successes carry no code, only \
             is_error false",
        )
        .declare(
            SignalClass::FileMutation,
            Available,
            "Write/Edit/MultiEdit toolUseResult with filePath, type and structuredPatch (2.0.28+)",
        )
        .declare(
            SignalClass::SubagentLifecycle,
            Available,
            "isSidechain agent files with agentId (2.0.28 beside the session, 2.1.x under \
             <session>/subagents/)",
        )
}

/// A hook log imported after the fact: the hooks its logging script was configured for are not
/// known, so what the log can show is declared from what it holds for the session. Without a
/// PostToolUse payload, successful results (and the file edits they report) are not in the
/// capture, even when failures are (PostToolUseFailure).
pub(crate) fn hook_log(seen: &crate::hooks::Seen) -> RuntimeCapabilities {
    let mut caps = hooks();
    let calls = seen.pre || seen.post || seen.failure;
    if !calls {
        caps = caps.declare(
            SignalClass::ToolInvocation,
            Unavailable,
            "this hook log holds no PreToolUse, PostToolUse or PostToolUseFailure payload for the \
             session: its tool calls are not in the capture",
        );
    } else if !seen.pre {
        caps = caps.declare(
            SignalClass::ToolInvocation,
            Available,
            "no PreToolUse in this hook log: calls are recorded from their results' tool_input",
        );
    }
    if !seen.post {
        let what = if seen.failure {
            "only PostToolUseFailure payloads in this hook log for the session: failures are \
             captured, successful results are not"
        } else {
            "no PostToolUse payload in this hook log for the session: tool results are not in \
             the capture"
        };
        caps = caps
            .declare(SignalClass::ToolOutput, Unavailable, what)
            .declare(
                SignalClass::FileMutation,
                Unavailable,
                "file edits are read from PostToolUse results, and this hook log holds none for \
                 the session",
            );
    }
    caps
}

/// Hook payloads delivered on a hook command's stdin.
pub(crate) fn hooks() -> RuntimeCapabilities {
    RuntimeCapabilities::new(Provider::ClaudeCode, SourceKind::HookStream)
        .declare(
            SignalClass::SessionLifecycle,
            Available,
            "session_id on every payload; SessionStart (source) and SessionEnd (reason)",
        )
        .declare(
            SignalClass::LoopLifecycle,
            Available,
            "UserPromptSubmit opens and Stop closes a loop; positions are published only when \
             the adapter saw the session start (Stop does not fire on a user interrupt)",
        )
        .declare(
            SignalClass::HumanInput,
            Available,
            "UserPromptSubmit.prompt",
        )
        .declare(
            SignalClass::FinalResponse,
            Available,
            "Stop.last_assistant_message (2.1.47+; absent in 2025 payloads)",
        )
        .declare(
            SignalClass::AgentCommentary,
            Unavailable,
            "hooks carry no intermediate assistant text; read the transcript",
        )
        .declare(
            SignalClass::Reasoning,
            Unavailable,
            "hooks carry no thinking blocks; read the transcript",
        )
        .declare(
            SignalClass::ToolInvocation,
            Available,
            "PreToolUse tool_name and tool_input",
        )
        .declare(
            SignalClass::ToolOutput,
            Available,
            "PostToolUse tool_response; PostToolUseFailure error (2.1.x)",
        )
        .declare(
            SignalClass::ProcessResult,
            Available,
            "PostToolUseFailure error states `Exit code N` (2.1.119); PostToolUse Bash carries \
             no exit code",
        )
        .declare(
            SignalClass::FileMutation,
            Available,
            "PostToolUse Write/Edit/MultiEdit tool_response with filePath and structuredPatch",
        )
        .declare(
            SignalClass::SubagentLifecycle,
            Available,
            "SubagentStart and SubagentStop with agent_id (2.0.42+), last_assistant_message \
             (2.1.47+)",
        )
}
