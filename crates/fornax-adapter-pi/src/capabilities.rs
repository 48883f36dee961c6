//! What a Pi session file lets Fornax observe, declared conservatively.

use fornax_types::{Provider, RuntimeCapabilities, SignalAvailability, SignalClass, SourceKind};

/// The declaration for Pi session files (formats v1 to v3, confirmed against real v1 and v3
/// files).
pub(crate) fn session_file_capabilities() -> RuntimeCapabilities {
    use SignalAvailability::{Available, Unavailable};
    RuntimeCapabilities::new(Provider::Pi, SourceKind::File)
        .declare(
            SignalClass::SessionLifecycle,
            Available,
            "session header: id, cwd, start time, parent session; no end record",
        )
        .declare(
            SignalClass::LoopLifecycle,
            Available,
            "derived: a human message opens a loop, the last assistant stopReason ends it",
        )
        .declare(SignalClass::HumanInput, Available, "user messages")
        .declare(
            SignalClass::FinalResponse,
            Available,
            "last assistant text of a loop whose stopReason is stop",
        )
        .declare(
            SignalClass::AgentCommentary,
            Available,
            "assistant text blocks",
        )
        .declare(
            SignalClass::Reasoning,
            Available,
            "thinking blocks, when the model provider returns them",
        )
        .declare(
            SignalClass::ToolInvocation,
            Available,
            "toolCall blocks with arguments",
        )
        .declare(
            SignalClass::ToolOutput,
            Available,
            "toolResult messages, with isError",
        )
        .declare(
            SignalClass::ProcessResult,
            Available,
            "bash: non-zero exit as the text 'Command exited with code N' on an isError result; \
             exit 0 is an isError:false result without a code",
        )
        .declare(
            SignalClass::FileMutation,
            Available,
            "write and edit tool calls with their results; writes made through bash are not seen",
        )
        .declare(
            SignalClass::SubagentLifecycle,
            Unavailable,
            "this adapter reads no subagent runs",
        )
}
