//! Cursor adapter: agent transcripts (JSONL and text), the cursor-agent chat store and hook
//! payloads into the canonical model.
//!
//! Cursor writes what its agent does in several places, one adapter per transport:
//!
//! * [`CursorTranscriptAdapter`] (`cursor-transcript`): the JSONL agent transcripts under
//!   `~/.cursor/projects/<slug>/agent-transcripts/<id>/<id>.jsonl` (2.x–3.x), subagents in
//!   `<id>/subagents/<child>.jsonl` as child sessions;
//! * [`CursorTextAdapter`] (`cursor-text`): the older text transcripts,
//!   `agent-transcripts/<id>.txt`, in both their `[Thinking]` and `<think>` generations (read
//!   only inside an `agent-transcripts` folder: plain text has no signature of its own);
//! * [`CursorStoreAdapter`] (`cursor-store`): the cursor-agent CLI's `store.db`, read-only
//!   and schema-checked through the store;
//! * [`CursorHookAdapter`] (`cursor-hook`): what `fornax hook cursor` spools.
//!
//! Cursor's transcripts hold no tool results, so their declarations say tool output and exit
//! statuses are unavailable, and claims that need them come out UNAVAILABLE; the hooks carry
//! shell output and file edits.
//!
//! # Invariants
//!
//! * Depends only on `fornax-types`, `serde` and `serde_json`: no I/O, no clock, no printing.
//!   A record's file location is read as text (the conversation a transcript belongs to is its
//!   file name), never opened.
//! * `normalize` never panics and never fails; a shape Cursor writes is projected or
//!   `Ignored` with a reason, and only a shape never seen is `Unrecognized` (by its tag).
//! * A session is published only from an identity Cursor states: the transcript's place in
//!   its layout, a hook's `conversation_id`, the store's `agentId`.
//! * Missing is not zero: no exit code is ever invented; the only evidence emitted is
//!   FileDiff from `afterFileEdit`.
//! * Cross-record state is bounded and serializable through `checkpoint`/`resume`.

mod capabilities;
mod conversation;
mod hooks;
mod layout;
mod store;
mod text;
mod transcript;

use fornax_types::{AdapterDescriptor, AgentAdapter, Framing, Provider, SourceKind};
use serde_json::Value;

pub use hooks::{is_cursor_hook, CursorHookAdapter};
pub use store::{is_store_row, CursorStoreAdapter};
pub use text::{is_text_transcript_line, CursorTextAdapter};
pub use transcript::CursorTranscriptAdapter;

pub(crate) const ADAPTER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Registry names of the four transports.
pub const TRANSCRIPT_ADAPTER: &str = "cursor-transcript";
pub const TEXT_ADAPTER: &str = "cursor-text";
pub const STORE_ADAPTER: &str = "cursor-store";
pub const HOOK_ADAPTER: &str = "cursor-hook";

/// The folder Cursor keeps agent transcripts in.
pub const TRANSCRIPT_FOLDER: &str = "agent-transcripts";

/// Whether `v` is a line of a JSONL agent transcript: a message with a role and content
/// blocks, or a `turn_ended` / `metadata` line.
pub fn is_transcript_line(v: &Value) -> bool {
    let Some(obj) = v.as_object() else {
        return false;
    };
    if obj.contains_key("sessionId") || obj.contains_key("uuid") || obj.contains_key("payload") {
        return false;
    }
    match (
        obj.get("role").and_then(Value::as_str),
        obj.get("type").and_then(Value::as_str),
    ) {
        (Some("user" | "assistant"), _) => obj
            .get("message")
            .and_then(|m| m.get("content"))
            .is_some_and(|c| c.is_array() || c.is_string()),
        (None, Some("turn_ended")) => obj.contains_key("status"),
        (None, Some("metadata")) => obj.get("metadata").is_some_and(Value::is_object),
        _ => false,
    }
}

fn no_file(_: &Value) -> bool {
    false
}

fn create_transcript() -> Box<dyn AgentAdapter + Send> {
    Box::new(CursorTranscriptAdapter::default())
}
fn create_text() -> Box<dyn AgentAdapter + Send> {
    Box::new(CursorTextAdapter::default())
}
fn create_store() -> Box<dyn AgentAdapter + Send> {
    Box::new(CursorStoreAdapter::default())
}
fn create_hooks() -> Box<dyn AgentAdapter + Send> {
    Box::new(CursorHookAdapter::default())
}

/// One descriptor per transport.
pub fn descriptors() -> Vec<AdapterDescriptor> {
    vec![
        AdapterDescriptor {
            name: TRANSCRIPT_ADAPTER,
            provider: Provider::Cursor,
            transport: SourceKind::File,
            framing: Framing::JsonLines,
            sniff: is_transcript_line,
            create: create_transcript,
            default_roots: &[".cursor/projects"],
            file_suffixes: &[".jsonl"],
            tree: None,
        },
        AdapterDescriptor {
            name: TEXT_ADAPTER,
            provider: Provider::Cursor,
            transport: SourceKind::File,
            framing: Framing::TextLines {
                folder: TRANSCRIPT_FOLDER,
            },
            sniff: is_text_transcript_line,
            create: create_text,
            default_roots: &[".cursor/projects"],
            file_suffixes: &[".txt"],
            tree: None,
        },
        AdapterDescriptor {
            name: STORE_ADAPTER,
            provider: Provider::Cursor,
            transport: SourceKind::File,
            framing: Framing::WholeFile,
            // The database is found by its file name; no file is claimed by content.
            sniff: no_file,
            create: create_store,
            default_roots: &[".cursor/chats"],
            file_suffixes: &[],
            tree: Some(store::TREE),
        },
        AdapterDescriptor {
            name: HOOK_ADAPTER,
            provider: Provider::Cursor,
            transport: SourceKind::HookStream,
            framing: Framing::JsonLines,
            sniff: is_cursor_hook,
            create: create_hooks,
            default_roots: &[],
            file_suffixes: &[],
            tree: None,
        },
    ]
}
