//! What Gemini CLI chat files let Fornax observe, declared conservatively.

use fornax_types::{Provider, RuntimeCapabilities, SignalAvailability, SignalClass, SourceKind};

/// The declaration for Gemini CLI chat files (the JSON document format and the JSON Lines
/// format of v0.39+), confirmed against real chat documents.
pub(crate) fn chat_file_capabilities() -> RuntimeCapabilities {
    use SignalAvailability::{Available, Unavailable};
    RuntimeCapabilities::new(Provider::Gemini, SourceKind::File)
        .declare(
            SignalClass::SessionLifecycle,
            Available,
            "sessionId and startTime (an A2A-server run by its start); the working directory from `directories` when the chat lists it, else only projectHash; no end record",
        )
        .declare(
            SignalClass::LoopLifecycle,
            Available,
            "derived: a user message opens a loop; a gemini message with text and no tool calls \
             completes it, an error message fails it, a cancellation interrupts it",
        )
        .declare(
            SignalClass::HumanInput,
            Available,
            "user messages (displayContent when recorded)",
        )
        .declare(
            SignalClass::FinalResponse,
            Available,
            "heuristic: the last gemini text of a loop that ends without tool calls",
        )
        .declare(
            SignalClass::AgentCommentary,
            Available,
            "gemini message content",
        )
        .declare(
            SignalClass::Reasoning,
            Available,
            "thought summaries (subject, description)",
        )
        .declare(
            SignalClass::ToolInvocation,
            Available,
            "toolCalls with args",
        )
        .declare(
            SignalClass::ToolOutput,
            Available,
            "toolCalls result (functionResponse) and status, in the same record as the call",
        )
        .declare(
            SignalClass::ProcessResult,
            Available,
            "run_shell_command: the text line 'Exit Code: N' (newer versions write it only when \
             non-zero)",
        )
        .declare(
            SignalClass::FileMutation,
            Available,
            "write_file and replace calls with their status; writes made through the shell are \
             not seen",
        )
        .declare(
            SignalClass::SubagentLifecycle,
            Unavailable,
            "subagent chats are read as sessions of their own; the parent link lives only in the \
             directory name, which the adapter does not see",
        )
}
