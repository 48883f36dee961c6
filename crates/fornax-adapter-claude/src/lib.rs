//! Claude Code adapter: hook payloads and transcript JSONL into the canonical model.
//!
//! Claude Code exposes two native protocols, read here by two adapters that share one mapping
//! of tools, outputs and file mutations:
//!
//! * [`ClaudeTranscriptAdapter`] (`claude-transcript`, [`SourceKind::File`]): the JSONL session
//!   files under `~/.claude/projects/`, including subagent (sidechain) files, from 2.0.x to
//!   2.1.x shapes.
//! * [`ClaudeHookAdapter`] (`claude-hook`, [`SourceKind::HookStream`]): one JSON payload per
//!   hook event, whether one adapter lives for the whole stream or a fresh one runs per event;
//!   also hook logs that logging scripts dump as JSON arrays (one file per event type), read
//!   as one source per session in an order rebuilt from the files (`hooks::dump`).
//!
//! The same fact seen through both gets the same item key (`call:<tool_use_id>`,
//! `out:<tool_use_id>`) and the same value, so consumers that upsert by `(session, key)` record
//! a second witness instead of a duplicate.
//!
//! # Invariants
//!
//! * Depends only on `fornax-types`, `serde` and `serde_json`: no I/O, no clock, no printing.
//! * `normalize` never panics and never fails; every field is read on its own, so one odd field
//!   never drops an event. A shape Claude Code writes is projected or `Ignored` with a reason;
//!   only a shape never seen is `Unrecognized`, reported by its type tag alone.
//! * A Session is published only from an identity the payload states (`sessionId`,
//!   `session_id`, or a sidechain's `agentId`), never from the caller's hint.
//! * Missing is not zero: a successful tool carries no exit code (Claude Code never states
//!   one); a failure carries the code only when the runtime wrote `Exit code N`.
//! * The only evidence emitted is FileDiff from Claude Code's file tools; exit codes, test
//!   summaries and git outcomes are left to core sensors reading the canonical items.
//! * Cross-record state is bounded (pairing tables of 4096 entries, oldest dropped) and
//!   serializable through `checkpoint`/`resume`.

mod bounded;
mod capabilities;
mod common;
mod file_diff;
mod hooks;
mod sniff;
mod tools;
mod transcript;

use fornax_types::{AdapterDescriptor, Framing, Provider, SourceKind};

pub use hooks::ClaudeHookAdapter;
pub use sniff::{is_hook_payload, is_transcript_line};
pub use transcript::ClaudeTranscriptAdapter;

/// Registry name of the transcript transport.
pub const TRANSCRIPT_ADAPTER: &str = "claude-transcript";
/// Registry name of the hook transport.
pub const HOOK_ADAPTER: &str = "claude-hook";

/// One descriptor per transport.
pub fn descriptors() -> Vec<AdapterDescriptor> {
    vec![
        AdapterDescriptor {
            name: TRANSCRIPT_ADAPTER,
            provider: Provider::ClaudeCode,
            transport: SourceKind::File,
            framing: Framing::JsonLines,
            sniff: is_transcript_line,
            create: || Box::new(ClaudeTranscriptAdapter::default()),
            default_roots: &[".claude/projects"],
            file_suffixes: &[".jsonl"],
            tree: None,
        },
        AdapterDescriptor {
            name: HOOK_ADAPTER,
            provider: Provider::ClaudeCode,
            transport: SourceKind::HookStream,
            framing: Framing::JsonLines,
            sniff: is_hook_payload,
            create: || Box::new(ClaudeHookAdapter::default()),
            default_roots: &[],
            file_suffixes: &[],
            // Hook logs (JSON arrays of payloads, one file per event type) are read as a
            // dump: one source per session, ordered by `hooks::dump`.
            tree: Some(hooks::dump::TREE),
        },
    ]
}
