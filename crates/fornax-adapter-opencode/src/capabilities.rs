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
    RuntimeCapabilities::new(Provider::Opencode, SourceKind::PluginStream)
        .declare(C::SessionLifecycle, A::Available, "session.created/updated events carry the session document")
        .declare(C::LoopLifecycle, A::Available, "a user message opens a loop; the assistant's terminal finish or session.idle ends it")
        .declare(C::HumanInput, A::Available, "chat.message hook and user text parts")
        .declare(C::FinalResponse, A::Available, "last assistant text part of a loop, from message.part.updated")
        .declare(C::AgentCommentary, A::Available, "assistant text parts from message.part.updated")
        .declare(C::Reasoning, A::Available, "reasoning parts; OpenAI models expose summaries only")
        .declare(C::ToolInvocation, A::Available, "tool.execute.before arguments and tool parts")
        .declare(C::ToolOutput, A::Available, "tool.execute.after output and completed/error tool parts")
        .declare(C::ProcessResult, A::Available, "bash output.metadata.exit")
        .declare(C::FileMutation, A::Available, "write/edit/multiedit/apply_patch/patch tool calls; files changed by shell commands are not attributed")
        .declare(C::SubagentLifecycle, A::Unavailable, "task tool calls are recorded as tool calls and child sessions link by parentID; no subagent items are produced")
}

pub(crate) fn storage() -> RuntimeCapabilities {
    RuntimeCapabilities::new(Provider::Opencode, SourceKind::File)
        .declare(C::SessionLifecycle, A::Available, "session documents")
        .declare(C::LoopLifecycle, A::Available, "user messages open loops; the assistant message's terminal finish ends them")
        .declare(C::HumanInput, A::Available, "user text parts")
        .declare(C::FinalResponse, A::Available, "last assistant text part of an ended loop")
        .declare(C::AgentCommentary, A::Available, "assistant text parts")
        .declare(C::Reasoning, A::Available, "reasoning parts; OpenAI models expose summaries only")
        .declare(C::ToolInvocation, A::Available, "tool parts: state.input")
        .declare(C::ToolOutput, A::Available, "tool parts: state.output / state.error")
        .declare(C::ProcessResult, A::Available, "bash tool parts: state.metadata.exit (absent in pre-1.0 documents)")
        .declare(C::FileMutation, A::Available, "write/edit/multiedit/apply_patch/patch tool parts; files changed by shell commands are not attributed")
        .declare(C::SubagentLifecycle, A::Unavailable, "task tool calls are recorded as tool calls and child sessions link by parentID; no subagent items are produced")
}
