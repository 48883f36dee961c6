//! Gemini CLI adapter: chat files (JSON and JSONL) into the canonical model.
//!
//! Gemini CLI records each chat under `~/.gemini/tmp/<project-hash>/chats/`, in one of two
//! formats: the original chat document (`session-*.json`, one JSON object rewritten as the
//! chat grows, framed as a whole file) and, from v0.39, JSON Lines (`session-*.jsonl`: a
//! metadata line, message records re-appended whole when they change, `$set` metadata updates
//! and `$rewindTo` rewinds; subagent chats live in a folder named after the parent session).
//! One adapter type, [`GeminiAdapter`], reads both; [`descriptors`] registers one descriptor
//! per format.
//!
//! Gemini has no loop record: a user message opens a loop; a model message with text and no
//! tool calls completes it (so its final answer is heuristic), an `error` message fails it, a
//! cancellation interrupts it.
//!
//! # Invariants
//!
//! * Depends on `fornax-types`, `serde` and `serde_json` only; does no I/O and never prints.
//! * Never panics and never fails on any input: malformed, truncated, huge or future records
//!   come back as `Ignored` or `Unrecognized` (with the record's own type tag, never its
//!   payload), and the records around them are unaffected.
//! * Cross-record state is bounded (remembered ids and per-loop usage tables are capped,
//!   texts are capped) and serializable through `checkpoint`/`resume`.
//! * Item keys are Gemini's message and tool-call ids, so a re-appended message or a
//!   rewritten document replaces its items instead of duplicating them.
//! * Publishes no exit-code, test-summary or git evidence (core sensors derive those from the
//!   items).

mod adapter;
mod capabilities;
mod content;
mod evidence;
mod sniff;
mod state;

pub use adapter::GeminiAdapter;
pub use sniff::{is_gemini_chat_document, is_gemini_jsonl_record};

use fornax_types::{AdapterDescriptor, AgentAdapter, Framing, Provider, SourceKind};

/// Stable name of the JSON Lines chat format (v0.39+).
pub const GEMINI_CHAT_JSONL: &str = "gemini-chat-jsonl";
/// Stable name of the whole-document chat format.
pub const GEMINI_CHAT_JSON: &str = "gemini-chat-json";

fn create() -> Box<dyn AgentAdapter + Send> {
    Box::new(GeminiAdapter::default())
}

/// The registrations this crate provides: one per chat format, both served by
/// [`GeminiAdapter`].
pub fn descriptors() -> Vec<AdapterDescriptor> {
    vec![
        AdapterDescriptor {
            name: GEMINI_CHAT_JSONL,
            provider: Provider::Gemini,
            transport: SourceKind::File,
            framing: Framing::JsonLines,
            sniff: is_gemini_jsonl_record,
            create,
            default_roots: &[".gemini/tmp"],
            file_suffixes: &[".jsonl"],
            tree: None,
        },
        AdapterDescriptor {
            name: GEMINI_CHAT_JSON,
            provider: Provider::Gemini,
            transport: SourceKind::File,
            framing: Framing::WholeFile,
            sniff: is_gemini_chat_document,
            create,
            default_roots: &[".gemini/tmp"],
            file_suffixes: &[".json"],
            tree: None,
        },
    ]
}
