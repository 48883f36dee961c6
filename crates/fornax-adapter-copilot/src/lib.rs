//! GitHub Copilot CLI adapter: session event logs and hook payloads into the canonical model.
//!
//! Copilot CLI keeps each session as an append-only event log,
//! `~/.copilot/session-state/<id>/events.jsonl` (older builds: the flat
//! `session-state/<id>.jsonl`), and runs hook commands that it configures per repository
//! (`.github/hooks/*.json`). Two adapters, one per transport, share one mapping of tools:
//!
//! * [`CopilotEventsAdapter`] (`copilot-events`, [`SourceKind::File`]): the session log —
//!   session start, resume and shutdown (with model metrics and usage), messages, reasoning,
//!   tool execution paired by `toolCallId` with results, failures and file edits, subagents as
//!   child sessions, truncation and compaction, hook runs.
//! * [`CopilotHookAdapter`] (`copilot-hook`, [`SourceKind::HookStream`]): what `fornax hook
//!   copilot <event>` spools — prompts, tool calls and results as they happen.
//!
//! A call a tool hook reported gets the same key through both transports (the log mirrors
//! every hook input), so the store keeps one fact with two witnesses.
//!
//! # Invariants
//!
//! * Depends only on `fornax-types`, `serde` and `serde_json`: no I/O, no clock, no printing.
//! * `normalize` never panics and never fails; an event type Copilot documents is projected or
//!   `Ignored` with a reason, and only a shape never seen is `Unrecognized` (by its type tag).
//! * A session is published only from an id the native data states (`session.start`'s
//!   `sessionId`, a hook's `sessionId`, a subagent's starting call), never from a bare hint.
//! * Missing is not zero: an exit code is read only from the runtime's own
//!   `<exited with exit code N>` line; usage only from the counts Copilot writes.
//! * The only evidence emitted is FileDiff from Copilot's file tools.
//! * Cross-record state is bounded (tables of 4096 entries, oldest dropped) and serializable
//!   through `checkpoint`/`resume`.

mod capabilities;
mod events;
mod hooks;
mod sniff;
mod tools;

use fornax_types::{AdapterDescriptor, AgentAdapter, Framing, Provider, SourceKind};

pub use events::CopilotEventsAdapter;
pub use hooks::{is_copilot_hook, CopilotHookAdapter};
pub use sniff::is_copilot_event;

/// This implementation's version (not Copilot's).
pub(crate) const ADAPTER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Registry name of the session-log transport.
pub const EVENTS_ADAPTER: &str = "copilot-events";
/// Registry name of the hook transport.
pub const HOOK_ADAPTER: &str = "copilot-hook";

fn create_events() -> Box<dyn AgentAdapter + Send> {
    Box::new(CopilotEventsAdapter::default())
}

fn create_hooks() -> Box<dyn AgentAdapter + Send> {
    Box::new(CopilotHookAdapter::default())
}

/// One descriptor per transport.
pub fn descriptors() -> Vec<AdapterDescriptor> {
    vec![
        AdapterDescriptor {
            name: EVENTS_ADAPTER,
            provider: Provider::Copilot,
            transport: SourceKind::File,
            framing: Framing::JsonLines,
            sniff: is_copilot_event,
            create: create_events,
            default_roots: &[".copilot/session-state"],
            file_suffixes: &[".jsonl"],
            tree: None,
        },
        AdapterDescriptor {
            name: HOOK_ADAPTER,
            provider: Provider::Copilot,
            transport: SourceKind::HookStream,
            framing: Framing::JsonLines,
            sniff: is_copilot_hook,
            create: create_hooks,
            default_roots: &[],
            file_suffixes: &[],
            tree: None,
        },
    ]
}
