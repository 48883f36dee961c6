//! Codex CLI adapter: rollout files of every generation into the canonical model.
//!
//! Codex writes one always-on rollout per session
//! (`~/.codex/sessions/YYYY/MM/DD/rollout-<ts>-<uuid>.jsonl`). Every generation a user may
//! still have on disk is read:
//!
//! * legacy flat files (until Sept 2025): a header `{id, timestamp, instructions}`,
//!   `record_type: "state"` markers and bare response items, no per-line timestamps;
//! * the envelope `{timestamp, type, payload}` with `session_meta`, `turn_context`,
//!   `response_item`, `event_msg`, `compacted` (0.3x–0.9x), plus `world_state`,
//!   `inter_agent_communication` and a per-line `ordinal` (2026, 0.13x–0.14x).
//!
//! [`CodexAdapter`] publishes the session (from `session_meta` or the header), its loops
//! (turns, with usage summed per request), one item per fact — the witnesses Codex writes
//! twice or three times are paired into one item citing every record — and FileDiff evidence
//! for `apply_patch`. [`CodexHistoryAdapter`] reads the prompt history (`history.jsonl`) and
//! the thread index (`session_index.jsonl`) into prompts and session titles. [`descriptors`]
//! registers both formats.
//!
//! # Invariants
//!
//! * Pure: no I/O, no clock, no environment; depends only on `fornax-types`, `serde` and
//!   `serde_json`.
//! * Never panics and never fails: malformed, truncated, huge or future records come back as
//!   `Ignored` or `Unrecognized` and leave the records around them untouched. An unrecognized
//!   record is reported by its type tag only, never its content.
//! * Cross-record state is bounded (pairing tables keep the newest entries) and serializes
//!   through `checkpoint()` so that reading can resume at an appended offset.
//! * Emits no exit-code, test-summary or git-outcome evidence: core sensors derive those from
//!   the shell-call and tool-output items published here.
//! * Missing is not zero: an exit code, usage or timestamp the rollout did not write stays
//!   absent, and exit codes read from Codex's own output encodings are the only structural
//!   ones.

mod adapter;
mod bounded;
mod capabilities;
mod classify;
mod events;
mod exit_code;
mod file_evidence;
mod history;
mod items;
mod loops;
mod messages;
mod patch;
mod session;
mod shell;
mod sniff;
mod state;
mod text;
mod tools;

pub use adapter::CodexAdapter;
pub use history::{is_history_row, CodexHistoryAdapter};
pub use sniff::sniff;

use fornax_types::{AdapterDescriptor, AgentAdapter, Framing, Provider, SourceKind};

/// Registry name of the rollout format.
pub const ROLLOUT_ADAPTER: &str = "codex-rollout";
/// Registry name of the prompt history and thread index.
pub const HISTORY_ADAPTER: &str = "codex-history";

/// The formats this crate reads: the rollouts (`codex-rollout`), then the prompt history and
/// thread index beside them (`codex-history`).
pub fn descriptors() -> Vec<AdapterDescriptor> {
    vec![
        AdapterDescriptor {
            name: ROLLOUT_ADAPTER,
            provider: Provider::Codex,
            transport: SourceKind::File,
            framing: Framing::JsonLines,
            sniff,
            create: create_adapter,
            default_roots: &[".codex/sessions"],
            file_suffixes: &[".jsonl"],
            tree: None,
        },
        AdapterDescriptor {
            name: HISTORY_ADAPTER,
            provider: Provider::Codex,
            transport: SourceKind::File,
            framing: Framing::JsonLines,
            sniff: is_history_row,
            create: create_history_adapter,
            default_roots: &[".codex"],
            file_suffixes: &["history.jsonl", "session_index.jsonl"],
            tree: None,
        },
    ]
}

fn create_adapter() -> Box<dyn AgentAdapter + Send> {
    Box::new(CodexAdapter::default())
}

fn create_history_adapter() -> Box<dyn AgentAdapter + Send> {
    Box::new(CodexHistoryAdapter::default())
}
