//! What a Codex rollout file can tell, declared per signal with the generations that write it.

use fornax_types::{Provider, RuntimeCapabilities, SignalAvailability, SignalClass, SourceKind};

pub(crate) fn declaration() -> RuntimeCapabilities {
    use SignalAvailability::Available;
    RuntimeCapabilities::new(Provider::Codex, SourceKind::File)
        .declare(
            SignalClass::SessionLifecycle,
            Available,
            "session_meta.id (envelope, 2025-09+) or the legacy header id; forks (forked_from_id) and subagent parents (source.subagent.thread_spawn.parent_thread_id); no session end is written",
        )
        .declare(
            SignalClass::LoopLifecycle,
            Available,
            "task_started / task_complete / turn_aborted (0.1xx); legacy 2025-09 and 0.6x–0.9x rollouts persist no turn end, so their loops open at the human request or turn_context and carry no outcome",
        )
        .declare(
            SignalClass::HumanInput,
            Available,
            "event_msg.user_message and response_item message role=user, paired; injected context (environment_context, user_instructions, AGENTS.md, turn_aborted) is runtime.*",
        )
        .declare(
            SignalClass::FinalResponse,
            Available,
            "message phase=final_answer, or (heuristic) the message equal to task_complete.last_agent_message (0.1xx); legacy and 0.6x–0.9x rollouts mark no final answer",
        )
        .declare(SignalClass::AgentCommentary, Available, "assistant messages and event_msg.agent_message, paired")
        .declare(
            SignalClass::Reasoning,
            Available,
            "reasoning summaries and agent_reasoning events; encrypted-only reasoning is recorded as unavailable content",
        )
        .declare(
            SignalClass::ToolInvocation,
            Available,
            "function_call, custom_tool_call, local_shell_call, web_search_call, tool_search_call (all generations)",
        )
        .declare(
            SignalClass::ToolOutput,
            Available,
            "function_call_output / custom_tool_call_output paired by call_id; exec_command_end, mcp_tool_call_end, patch_apply_end and item_completed only in extended-history logs",
        )
        .declare(
            SignalClass::ProcessResult,
            Available,
            "exit codes where Codex writes one: JSON metadata.exit_code (legacy 2025-09 shell, apply_patch), 'Exit code: N' (shell_command 0.6x), 'Process exited with code N' (exec_command 0.9x+), sandbox failure text, exec_command_end.exit_code (extended history only); none while a unified-exec process still runs, 'Script completed' only heuristic",
        )
        .declare(
            SignalClass::FileMutation,
            Available,
            "apply_patch calls (custom tool, function, or shell-wrapped) with their outcome, patch_apply_end and FileChange items; edits made by other shell commands are not seen here",
        )
        .declare(
            SignalClass::SubagentLifecycle,
            Available,
            "subagent rollouts name their parent (session_meta.source, 0.77+); collab_* events and review mode in the parent",
        )
}
