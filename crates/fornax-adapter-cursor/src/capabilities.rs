//! What each Cursor transport can observe, per signal. Cursor's transcripts hold no tool
//! results (the text ones keep only `[Tool result]` markers, the JSONL ones leave tool
//! messages out), so tool output, exit statuses and confirmed edits are unavailable there and
//! claims that need them are UNAVAILABLE, not UNVERIFIED; its hooks carry them.

use fornax_types::{Provider, RuntimeCapabilities, SignalAvailability, SignalClass, SourceKind};

use SignalAvailability::{Available, Unavailable, Unknown, Unsupported};

const NO_RESULTS: &str = "Cursor's transcripts store no tool results";

fn no_results(caps: RuntimeCapabilities) -> RuntimeCapabilities {
    caps.declare(SignalClass::ToolOutput, Unavailable, NO_RESULTS)
        .declare(SignalClass::ProcessResult, Unavailable, NO_RESULTS)
        .declare(
            SignalClass::FileMutation,
            Unavailable,
            "edit calls are recorded, their results are not",
        )
}

/// The text transcript (`agent-transcripts/<id>.txt`).
pub(crate) fn text_transcript() -> RuntimeCapabilities {
    let caps = RuntimeCapabilities::new(Provider::Cursor, SourceKind::File)
        .declare(
            SignalClass::SessionLifecycle,
            Available,
            "the file name is the conversation id; no start or end is written",
        )
        .declare(
            SignalClass::LoopLifecycle,
            Available,
            "a user: block opens a loop and the next one closes it; no outcome is written",
        )
        .declare(
            SignalClass::HumanInput,
            Available,
            "user: blocks (<user_query>)",
        )
        .declare(
            SignalClass::FinalResponse,
            Available,
            "heuristic: the last assistant text before the next prompt",
        )
        .declare(SignalClass::AgentCommentary, Available, "assistant: text")
        .declare(
            SignalClass::Reasoning,
            Available,
            "<think> blocks; the older [Thinking] title and its paragraph (heuristic extent)",
        )
        .declare(
            SignalClass::ToolInvocation,
            Available,
            "[Tool call] <Name> with its key: value arguments",
        )
        .declare(
            SignalClass::SubagentLifecycle,
            Unsupported,
            "text transcripts record no subagents",
        );
    no_results(caps).declare(
        SignalClass::ToolOutput,
        Unavailable,
        "[Tool result] markers only: the output was never stored",
    )
}

/// The JSONL transcript (`agent-transcripts/<id>/<id>.jsonl`).
pub(crate) fn jsonl_transcript() -> RuntimeCapabilities {
    let seen =
        "shape from Cursor's layout and third-party readers; no real transcript in the corpus";
    let caps = RuntimeCapabilities::new(Provider::Cursor, SourceKind::File)
        .declare(
            SignalClass::SessionLifecycle,
            Available,
            "the file name is the conversation id (hooks' transcript_path names it)",
        )
        .declare(SignalClass::LoopLifecycle, Unknown, seen)
        .declare(SignalClass::HumanInput, Unknown, seen)
        .declare(SignalClass::FinalResponse, Unknown, seen)
        .declare(SignalClass::AgentCommentary, Unknown, seen)
        .declare(SignalClass::Reasoning, Unknown, seen)
        .declare(SignalClass::ToolInvocation, Unknown, seen)
        .declare(
            SignalClass::SubagentLifecycle,
            Unknown,
            "subagents/<child>.jsonl beside the parent's transcript",
        );
    no_results(caps)
}

/// The cursor-agent CLI's `store.db`.
pub(crate) fn chat_store() -> RuntimeCapabilities {
    let blobs = "messages are in blobs whose encoding is not documented; they are not read";
    let mut caps = RuntimeCapabilities::new(Provider::Cursor, SourceKind::File).declare(
        SignalClass::SessionLifecycle,
        Available,
        "meta: agentId, name, createdAt",
    );
    for class in [
        SignalClass::LoopLifecycle,
        SignalClass::HumanInput,
        SignalClass::FinalResponse,
        SignalClass::AgentCommentary,
        SignalClass::Reasoning,
        SignalClass::ToolInvocation,
        SignalClass::ToolOutput,
        SignalClass::ProcessResult,
        SignalClass::FileMutation,
        SignalClass::SubagentLifecycle,
    ] {
        caps = caps.declare(class, Unavailable, blobs);
    }
    caps
}

/// The hook transport (`fornax hook cursor`).
pub(crate) fn hooks() -> RuntimeCapabilities {
    let documented = "documented by Cursor; no real payload seen yet";
    RuntimeCapabilities::new(Provider::Cursor, SourceKind::HookStream)
        .declare(
            SignalClass::SessionLifecycle,
            Available,
            "conversation_id on every payload; sessionEnd (reason, final_status)",
        )
        .declare(
            SignalClass::LoopLifecycle,
            Unsupported,
            "no loops are published from hooks (a turn's start is not always hooked)",
        )
        .declare(
            SignalClass::HumanInput,
            Available,
            "beforeSubmitPrompt prompt",
        )
        .declare(
            SignalClass::FinalResponse,
            Unknown,
            "heuristic: the last afterAgentResponse before a completed stop; documented, not seen",
        )
        .declare(SignalClass::AgentCommentary, Unknown, documented)
        .declare(SignalClass::Reasoning, Unknown, documented)
        .declare(
            SignalClass::ToolInvocation,
            Available,
            "beforeShellExecution command; MCP calls as documented",
        )
        .declare(
            SignalClass::ToolOutput,
            Unknown,
            "afterShellExecution output and afterMCPExecution result_json; documented, not seen",
        )
        .declare(
            SignalClass::ProcessResult,
            Unavailable,
            "afterShellExecution carries no exit status",
        )
        .declare(
            SignalClass::FileMutation,
            Available,
            "afterFileEdit file_path and its edits (old and new text)",
        )
        .declare(SignalClass::SubagentLifecycle, Unknown, documented)
}
