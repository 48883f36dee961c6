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

/// The events waiting in the spool (past the store's cursors): how many, and when the oldest
/// was received. What `fornax status --statusline` and `doctor` report while no daemon runs.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Waiting {
    /// Envelope lines counted (headers are not events).
    pub events: u64,
    /// False when counting stopped at [`WAITING_SCAN_LIMIT`]: `events` is then a lower bound.
    pub exact: bool,
    /// `received_at` of the oldest waiting event.
    pub oldest: Option<String>,
}

/// Most bytes read to count waiting events: a status line must stay fast on a full spool.
pub const WAITING_SCAN_LIMIT: u64 = 8 * 1024 * 1024;

/// Counts the events in `dir` the store does not hold yet (`store` `None`: none is stored).
pub fn waiting(store: Option<&Store>, dir: &Path) -> Result<Waiting, crate::IngestError> {
    use std::io::{BufRead, Seek, SeekFrom};
    let mut out = Waiting {
        exact: true,
        ..Waiting::default()
    };
    let mut budget = WAITING_SCAN_LIMIT;
    for seg in segments(dir) {
        let done = match store {
            Some(store) => store
                .source_state(&crate::pipeline::file_key(&seg.path))?
                .map(|s| s.cursor.offset)
                .unwrap_or(0),
            None => 0,
        };
        if seg.bytes <= done {
            continue;
        }
        if budget == 0 {
            out.exact = false;
            break;
        }
        // A segment that vanished (retired meanwhile) holds nothing waiting.
        let Ok(mut file) = std::fs::File::open(&seg.path) else {
            continue;
        };
        if file.seek(SeekFrom::Start(done)).is_err() {
            continue;
        }
        let mut reader = std::io::BufReader::new(std::io::Read::take(file, budget));
        let mut line = Vec::new();
        loop {
            line.clear();
            match reader.read_until(b'\n', &mut line) {
                Ok(0) | Err(_) => break,
                Ok(n) => budget = budget.saturating_sub(n as u64),
            }
            if let Ok((SpoolLine::Event(event), _)) = read_line(line.trim_ascii()) {
                out.events += 1;
                if out.oldest.is_none() {
                    out.oldest = event.received_at;
                }
            }
        }
        if budget == 0 {
            out.exact = false;
        }
    }
    Ok(out)
}
