//! A small format-neutral kit for adapters: the pieces every provider adapter needs and none
//! should write again. Pure, like the rest of this crate; no base adapter, only parts.
//!
//! * [`BoundedMap`]: the insertion-ordered, capped table cross-record state lives in.
//! * [`checkpoint`]: a versioned envelope for `checkpoint`/`resume` snapshots.
//! * [`FileEdit`]: FileDiff evidence from an agent's own file tools, built one way.
//! * [`json`]: total field accessors, bounded discriminators, canonical JSON, fingerprints.
//! * [`time`]: epoch seconds and milliseconds as the canonical ISO 8601 (UTC) text.

mod bounded;
pub mod checkpoint;
mod file_edit;
pub mod json;
pub mod time;

pub use bounded::BoundedMap;
pub use file_edit::{unified_diff_counts, EditSensor, FileEdit, ERROR_LIMIT};
