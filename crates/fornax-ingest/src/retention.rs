//! Spool retention: a closed segment (an earlier day's) is deleted once everything in it is
//! stored, so unredacted payloads stay on disk only as long as they must.
//!
//! Only closed segments are touched: hooks write today's (UTC) segment, and the open segment is
//! never rewritten or deleted. A closed segment is deleted under its writers' lock, after its
//! stored cursor is seen to cover the whole file; a hook that waited for that lock re-opens the
//! path (a fresh segment) instead of appending to the deleted one. The segment's source is then
//! marked retired: its records stay, and `fornax record verify` says their bytes were retired
//! by retention.
//!
//! Before a segment is deleted, [`SegmentArchive::keep`] gets it: the seam where an archive
//! (redacted, compressed copies of native records) takes over. Without one ([`NoArchive`]), the
//! stored records are what remains.

use std::fs::OpenOptions;
use std::path::Path;

use crate::pipeline::{file_key, IngestError, Ingestor};
use crate::spool::{segments, Segment};

/// Receives a closed segment before retention deletes it.
pub trait SegmentArchive {
    /// Keeps what must outlive the segment. An error keeps the segment on disk.
    fn keep(&mut self, segment: &Segment) -> Result<(), String>;
}

/// No archive: retention deletes what the store holds.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoArchive;

impl SegmentArchive for NoArchive {
    fn keep(&mut self, _segment: &Segment) -> Result<(), String> {
        Ok(())
    }
}

/// What retention did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Retired {
    pub segments: u64,
    pub bytes: u64,
}

impl Ingestor<'_> {
    /// Deletes the closed segments of `spool_dir` (days before `today`, `YYYY-MM-DD`) whose
    /// every byte is stored, after `archive` kept them.
    pub fn retire_spool(
        &mut self,
        spool_dir: &Path,
        today: &str,
        archive: &mut dyn SegmentArchive,
    ) -> Result<Retired, IngestError> {
        let mut done = Retired::default();
        for seg in segments(spool_dir) {
            if seg.day.as_str() >= today {
                continue;
            }
            if self.retire_segment(&seg, archive)? {
                done.segments += 1;
                done.bytes += seg.bytes;
            }
        }
        Ok(done)
    }

    fn retire_segment(
        &mut self,
        seg: &Segment,
        archive: &mut dyn SegmentArchive,
    ) -> Result<bool, IngestError> {
        let key = file_key(&seg.path);
        let Some(state) = self.store.source_state(&key)? else {
            return Ok(false);
        };
        // Hold the writers' lock: no append can land while we look and delete.
        let Ok(file) = OpenOptions::new().read(true).open(&seg.path) else {
            return Ok(false);
        };
        if file.lock().is_err() {
            return Ok(false);
        }
        let size = file.metadata().map(|m| m.len()).unwrap_or(u64::MAX);
        let stored_whole = state.cursor.offset == size && state.cursor.size == Some(size);
        if !stored_whole || archive.keep(seg).is_err() {
            let _ = file.unlock();
            return Ok(false);
        }
        let removed = std::fs::remove_file(&seg.path).is_ok();
        let _ = file.unlock();
        if removed {
            self.store
                .retire_source(&key, &crate::clock::now_rfc3339())?;
        }
        Ok(removed)
    }
}
