//! Pi adapter: Pi session files (v1-v3) into the canonical model.
//!
//! Pi (`badlogic/pi-mono`, `packages/coding-agent`) writes one JSON Lines file per session
//! under `~/.pi/agent/sessions/--<dashed-cwd>--/<timestamp>_<uuid>.jsonl`: a `session` header,
//! then entries (`message`, `model_change`, `compaction`, ...). From format v2 on, entries
//! carry `id` + `parentId` and form a tree (branches); v1 entries are linear and id-less.
//! [`PiAdapter`] turns those records, in file order, into sessions, loops, items and
//! file-mutation evidence; [`descriptors`] registers it.
//!
//! Pi has no loop record: a human message opens a loop, and the stopReason of the last
//! assistant message ends it (`stop` completed, `aborted` interrupted, `error`/`length`
//! failed, `toolUse` still running).
//!
//! # Invariants
//!
//! * Depends on `fornax-types`, `serde` and `serde_json` only; does no I/O and never prints.
//! * Never panics and never fails on any input: malformed, truncated, huge or future records
//!   come back as `Ignored` or `Unrecognized` (with the record's own type tag, never its
//!   payload), and the records around them are unaffected.
//! * Cross-record state is bounded (the pending-call table is capped, texts are capped) and
//!   serializable through `checkpoint`/`resume`.
//! * Item keys are derived from Pi's own ids (record positions for id-less v1 entries), so
//!   re-reading a file yields the same keys.
//! * Publishes no exit-code, test-summary or git evidence (core sensors derive those from the
//!   items); compaction and branch summaries are never agent text.

mod adapter;
mod capabilities;
mod content;
mod evidence;
mod sniff;
mod state;

pub use adapter::PiAdapter;
pub use sniff::is_pi_record;

use fornax_types::{AdapterDescriptor, AgentAdapter, Framing, Provider, SourceKind};

/// Stable name of the Pi session-file format.
pub const PI_SESSION: &str = "pi-session";

fn create() -> Box<dyn AgentAdapter + Send> {
    Box::new(PiAdapter::default())
}

/// The registrations this crate provides.
pub fn descriptors() -> Vec<AdapterDescriptor> {
    vec![AdapterDescriptor {
        name: PI_SESSION,
        provider: Provider::Pi,
        transport: SourceKind::File,
        framing: Framing::JsonLines,
        sniff: is_pi_record,
        create,
        default_roots: &[".pi/agent/sessions"],
        file_suffixes: &[".jsonl"],
        tree: None,
    }]
}
