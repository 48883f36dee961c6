//! What each opencode transport can observe, declared conservatively.
//!
//! Both transports carry the same objects: the plugin forwards opencode's bus events (whose
//! `message.updated` / `message.part.updated` payloads are the very Message and Part documents
//! storage keeps) plus the arguments of the tool hooks; storage keeps the final state of those
//! documents. Shapes were confirmed against opencode 1.1.53 storage (bash `state.metadata.exit`
//! in every real sample).

use fornax_types::{
    Provider, RuntimeCapabilities, SignalAvailability as A, SignalClass as C, SourceKind,
};

pub(crate) fn plugin() -> RuntimeCapabilities {
    declare(
        SourceKind::PluginStream,
        [
            (
                C::SessionLifecycle,
                A::Available,
                "session.created/updated carry the session document",
            ),
            (C::LoopLifecycle, A::Available, LOOPS),
            (
                C::HumanInput,
                A::Available,
                "chat.message hook and user text parts",
            ),
            (
                C::FinalResponse,
                A::Available,
                "last assistant text part of a loop",
            ),
            (
                C::AgentCommentary,
                A::Available,
                "assistant text parts from message.part.updated",
            ),
            (C::Reasoning, A::Available, REASONING),
            (
                C::ToolInvocation,
                A::Available,
                "tool.execute.before arguments and tool parts",
            ),
            (
                C::ToolOutput,
                A::Available,
                "tool.execute.after output and ended tool parts",
            ),
            (C::ProcessResult, A::Available, "bash output.metadata.exit"),
            (C::FileMutation, A::Available, FILES),
            (C::SubagentLifecycle, A::Unavailable, SUBAGENTS),
        ],
    )
}

pub(crate) fn storage() -> RuntimeCapabilities {
    declare(
        SourceKind::File,
        [
            (C::SessionLifecycle, A::Available, "session documents"),
            (C::LoopLifecycle, A::Available, LOOPS),
            (C::HumanInput, A::Available, "user text parts"),
            (
                C::FinalResponse,
                A::Available,
                "last assistant text part of an ended loop",
            ),
            (C::AgentCommentary, A::Available, "assistant text parts"),
            (C::Reasoning, A::Available, REASONING),
            (C::ToolInvocation, A::Available, "tool parts: state.input"),
            (
                C::ToolOutput,
                A::Available,
                "tool parts: state.output, state.error",
            ),
            (
                C::ProcessResult,
                A::Available,
                "bash parts: state.metadata.exit (absent before 1.0)",
            ),
            (C::FileMutation, A::Available, FILES),
            (C::SubagentLifecycle, A::Unavailable, SUBAGENTS),
        ],
    )
}

const LOOPS: &str =
    "a user message opens a loop; the assistant's terminal finish or idleness ends it";
const REASONING: &str = "reasoning parts; OpenAI models expose summaries only";
const FILES: &str = "write, edit, multiedit, apply_patch and patch calls; \
    files changed by shell commands are not attributed";
const SUBAGENTS: &str =
    "task calls are plain tool calls and child sessions link by parentID; no subagent items";

fn declare<const N: usize>(
    transport: SourceKind,
    signals: [(C, A, &str); N],
) -> RuntimeCapabilities {
    signals.into_iter().fold(
        RuntimeCapabilities::new(Provider::Opencode, transport),
        |caps, (class, state, detail)| caps.declare(class, state, detail),
    )
}
