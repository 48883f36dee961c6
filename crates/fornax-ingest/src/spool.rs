//! The spool as a file source.
//!
//! Hooks and plugins append envelopes to day segments (`fornax_live::spool`, re-exported here:
//! the one definition of the format, both sides). A segment is ingested like any other file
//! source: with a cursor committed in the same transaction as the data, so every event is
//! stored exactly once whatever crashes in between. It is recognised by its name and header
//! (never by sniffing its contents), its header line is not a record, and each envelope's
//! payload goes to the adapter the envelope names.

pub use fornax_live::spool::*;

use std::path::Path;

use fornax_store::Store;

/// What the spool holds that the store does not yet.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Backlog {
    /// Bytes of segments past their stored cursor, and how many segments have such bytes.
    pub bytes: u64,
    pub segments: u64,
}

/// The spool's backlog in `dir`, measured against the store's cursors (a segment never
/// ingested counts whole).
pub fn backlog(store: &Store, dir: &Path) -> Result<Backlog, crate::IngestError> {
    let mut out = Backlog::default();
    for seg in segments(dir) {
        let key = crate::pipeline::file_key(&seg.path);
        let done = store
            .source_state(&key)?
            .map(|s| s.cursor.offset)
            .unwrap_or(0);
        if seg.bytes > done {
            out.bytes += seg.bytes - done;
            out.segments += 1;
        }
    }
    Ok(out)
}
