//! Forgetting sessions outside the database: their events in spool segments, and (through
//! [`ArchiveEraser`]) their archived copies.
//!
//! A segment is rewritten in place, under its writers' lock, with every line of a forgotten
//! session overwritten by spaces of the same length: the other records keep their byte ranges
//! and fingerprints, framing skips blank lines, and a hook waiting for the lock appends after
//! the rewrite. The segment's stored change-detection state is then updated, so the next scan
//! sees it as it was (or as grown, if events arrived since). A line is a forgotten session's
//! when the store cites it for that session, or when it names one of the session ids.

use std::fs::OpenOptions;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::Path;

use fornax_store::{Forgotten, SourceCursor, Store};

use crate::file::mtime_ns;
use crate::fingerprint::{self, Blocks};
use crate::pipeline::{file_key, io_err, IngestError};
use crate::retention::NoArchive;
use crate::spool::segments;

/// Removes forgotten sessions from an archive of native records (the seam the archive fills).
pub trait ArchiveEraser {
    /// Removes every archived record of these sessions (`provider:native_id`); how many.
    fn forget(&mut self, sessions: &[String]) -> Result<u64, String>;
}

impl ArchiveEraser for NoArchive {
    fn forget(&mut self, _sessions: &[String]) -> Result<u64, String> {
        Ok(0)
    }
}

/// What was removed from the spool.
#[derive(Debug, Default, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SpoolForgotten {
    pub segments: u64,
    pub lines: u64,
    pub bytes: u64,
}

/// Blanks the forgotten sessions' lines in every segment of `spool_dir`.
pub fn forget_in_spool(
    store: &Store,
    spool_dir: &Path,
    forgotten: &Forgotten,
) -> Result<SpoolForgotten, IngestError> {
    let mut done = SpoolForgotten::default();
    let needles: Vec<memchr::memmem::Finder<'_>> = forgotten
        .native_ids
        .iter()
        .filter(|id| id.len() >= 8)
        .map(|id| memchr::memmem::Finder::new(id.as_bytes()))
        .collect();
    for seg in segments(spool_dir) {
        let key = file_key(&seg.path);
        let cited: Vec<(u64, u64)> = forgotten
            .spool_ranges
            .iter()
            .filter(|r| r.source_key == key)
            .map(|r| (r.start, r.end))
            .collect();
        let (lines, bytes) = blank_segment(&seg.path, &cited, &needles)?;
        if lines == 0 {
            continue;
        }
        done.segments += 1;
        done.lines += lines;
        done.bytes += bytes;
        refresh_cursor(store, &seg.path, &key)?;
    }
    Ok(done)
}

/// Overwrites the matching lines of one segment with spaces, under the writers' lock.
fn blank_segment(
    path: &Path,
    cited: &[(u64, u64)],
    needles: &[memchr::memmem::Finder<'_>],
) -> Result<(u64, u64), IngestError> {
    let file = OpenOptions::new()
        .read(true)
        .write(true)
        .open(path)
        .map_err(io_err(path))?;
    file.lock().map_err(io_err(path))?;
    let result = (|| {
        let mut reader = BufReader::new(&file);
        let mut line = Vec::new();
        let mut offset = 0u64;
        let mut blank: Vec<(u64, usize)> = Vec::new();
        loop {
            line.clear();
            let n = reader.read_until(b'\n', &mut line).map_err(io_err(path))?;
            if n == 0 {
                break;
            }
            let body = line.strip_suffix(b"\n").unwrap_or(&line);
            let end = offset + body.len() as u64;
            let is_cited = cited.iter().any(|&(s, e)| s < end && e > offset);
            let names = needles.iter().any(|f| f.find(body).is_some());
            if (is_cited || names) && !body.iter().all(u8::is_ascii_whitespace) {
                blank.push((offset, body.len()));
            }
            offset += n as u64;
        }
        let mut bytes = 0u64;
        for &(at, len) in &blank {
            file.write_all_at(&vec![b' '; len], at)
                .map_err(io_err(path))?;
            bytes += len as u64;
        }
        if !blank.is_empty() {
            file.sync_data().map_err(io_err(path))?;
        }
        Ok((blank.len() as u64, bytes))
    })();
    let _ = file.unlock();
    result
}

/// The segment's stored fingerprints over the bytes before its cursor, taken again.
fn refresh_cursor(store: &Store, path: &Path, key: &str) -> Result<(), IngestError> {
    let Some(state) = store.source_state(key)? else {
        return Ok(());
    };
    let mut file = std::fs::File::open(path).map_err(io_err(path))?;
    let meta = file.metadata().map_err(io_err(path))?;
    let offset = state.cursor.offset.min(meta.len());
    let old = state.cursor;
    // Unchanged since the last scan but for the rewrite: it stays unchanged. Grown since: the
    // next scan checks the (new) prefix and reads what was appended.
    let same_size = old.size == Some(meta.len());
    let cursor = SourceCursor {
        inode: Some(meta.ino()),
        size: old.size,
        mtime_ns: if same_size {
            Some(mtime_ns(&meta))
        } else {
            old.mtime_ns
        },
        prefix_len: Some(offset),
        prefix_fp: Some(fingerprint::prefix(&mut file, offset).map_err(io_err(path))?),
        offset: old.offset,
        open_tail: old.open_tail,
        blocks: Some(
            Blocks::compute(&mut file, offset)
                .map_err(io_err(path))?
                .into_stored(),
        ),
    };
    store.set_source_cursor(key, &cursor)?;
    Ok(())
}
