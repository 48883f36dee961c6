//! A small format-neutral kit for adapters: pieces every provider adapter needs and none
//! should write again. Pure, like the rest of this crate.
//!
//! * [`BoundedMap`]: the insertion-ordered, capped table cross-record state lives in.
//! * [`time`]: epoch seconds and milliseconds as the canonical ISO 8601 (UTC) text.

mod bounded;
pub mod time;

pub use bounded::BoundedMap;
