//! One file, one source: what it holds, whether it changed, and how its records are framed.
//!
//! A file is one of:
//!
//! * a spool segment, known by its name and first line (never by its payloads);
//! * JSON lines an adapter recognises, appended to over time (cursor, checkpoint, and a final
//!   line without newline taken once it is complete);
//! * one JSON document (an adapter with whole-file framing);
//! * the values of a JSON array or of values written back to back (dumps), whose elements an
//!   adapter of JSON lines recognises: one source, rebuilt when the file changes;
//! * elements of a document dump (an adapter with a document tree recognises them): left to the
//!   folder's dump set (`tree.rs`), which groups them into one source per session.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use fornax_redact::RedactionCounts;
use fornax_store::{SourceCursor, SourceSpec, SourceState};
use fornax_types::{ByteRange, Framing, SourceId};
use serde_json::Value;

use crate::discover::file_stem;
use crate::fingerprint::{self, Blocks};
use crate::frame::{
    split_concatenated, value_layout, Framed, LineFramer, ScanEnd, ScannedValue, ValueLayout,
    ValueScanner,
};
use crate::pipeline::{
    checkpoint, commit_source, file_key, finish, io_err, resume, Commit, IngestError, Ingestor,
    Mode, Reader, RecordCtx, SourceTally, SPOOL_ADAPTER,
};
use crate::spool;

/// How a single-source file's records are framed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Layout {
    Lines,
    Whole,
    Values(ValueLayout),
}

impl Layout {
    /// The source kind stored for this layout.
    fn kind(self) -> &'static str {
        match self {
            Layout::Lines | Layout::Whole => "file",
            Layout::Values(ValueLayout::Elements) => "array",
            Layout::Values(ValueLayout::Concatenated) => "concat",
        }
    }

    fn of_stored(kind: &str, framing: Framing) -> Layout {
        match kind {
            "array" => Layout::Values(ValueLayout::Elements),
            "concat" => Layout::Values(ValueLayout::Concatenated),
            _ if framing == Framing::WholeFile => Layout::Whole,
            _ => Layout::Lines,
        }
    }
}

/// What detection found in a file nobody read before.
pub(crate) enum Detected {
    Source {
        adapter: String,
        layout: Layout,
    },
    /// Elements of a document dump for this (tree) adapter.
    Dump {
        adapter: &'static str,
    },
    Unknown,
}

/// Values sniffed at the start of a dump or array.
const SNIFF_VALUES: usize = 8;

fn mtime_ns(meta: &std::fs::Metadata) -> i64 {
    meta.mtime()
        .saturating_mul(1_000_000_000)
        .saturating_add(meta.mtime_nsec())
}

impl Ingestor<'_> {
    /// Ingests one file: new, appended, unchanged or rebuilt (or, for a dump's elements, noted
    /// for its folder's dump set).
    pub fn ingest_file(&mut self, path: &Path) -> Result<(), IngestError> {
        let path = std::fs::canonicalize(path).map_err(io_err(path))?;
        let meta = std::fs::metadata(&path).map_err(io_err(&path))?;
        let key = file_key(&path);
        let state = self.store.source_state(&key)?;
        let (inode, size, mtime) = (meta.ino(), meta.len(), mtime_ns(&meta));
        let tail_ok = self
            .options
            .tail_quiet
            .is_some_and(|quiet| quiet_for(&meta) >= quiet);
        // The file is as it was: nothing to read, unless a final line left for later (it was
        // still being written) can now be taken.
        let mut untouched = false;
        if let Some(st) = &state {
            if st.cursor.inode == Some(inode)
                && st.cursor.size == Some(size)
                && st.cursor.mtime_ns == Some(mtime)
            {
                let tail_due = tail_ok
                    && st.cursor.offset < size
                    && complete_tail(&path, st.cursor.offset, size, self.options.max_record_bytes);
                if !tail_due {
                    self.summary.sources.unchanged += 1;
                    return Ok(());
                }
                untouched = true;
            }
        }
        let mut file = match File::open(&path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
                self.summary
                    .skip_file(path.display().to_string(), "permission denied");
                return Ok(());
            }
            Err(e) => return Err(io_err(&path)(e)),
        };
        let (adapter_name, layout) = match &state {
            Some(st) => {
                let framing = if st.adapter == SPOOL_ADAPTER {
                    Framing::JsonLines
                } else {
                    match self.registry.by_name(&st.adapter) {
                        Some(d) => d.framing,
                        None => {
                            self.summary.skip_source(
                                path.display().to_string(),
                                &format!("adapter {} not available", st.adapter),
                            );
                            return Ok(());
                        }
                    }
                };
                (st.adapter.clone(), Layout::of_stored(&st.kind, framing))
            }
            None => match self.detect(&mut file, &path, size)? {
                Detected::Source { adapter, layout } => (adapter, layout),
                Detected::Dump { adapter } => {
                    let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
                    self.dump_sets
                        .entry((dir, adapter))
                        .or_default()
                        .push(path.clone());
                    return Ok(());
                }
                Detected::Unknown => {
                    self.summary
                        .skip_source(path.display().to_string(), "content not recognized");
                    return Ok(());
                }
            },
        };
        let mut mode = match &state {
            None => Mode::New,
            Some(_) if layout != Layout::Lines => Mode::Rebuild,
            Some(_) if untouched => Mode::Append,
            Some(st) => {
                if same_before_cursor(&mut file, st, inode, size).map_err(io_err(&path))? {
                    Mode::Append
                } else {
                    Mode::Rebuild
                }
            }
        };
        let mut reader = self.make_reader(&adapter_name);
        let mut start_offset = 0u64;
        let mut next_position = 0u64;
        if let (Mode::Append, Some(st)) = (&mode, &state) {
            let resumed = match &st.adapter_state {
                Some(s) => serde_json::from_str::<Value>(s)
                    .ok()
                    .is_some_and(|v| resume(&mut reader, &v)),
                None => false,
            };
            if resumed {
                start_offset = st.cursor.offset;
                next_position = st.next_position;
            } else {
                mode = Mode::Rebuild;
                reader = self.make_reader(&adapter_name);
            }
        }
        let spec = SourceSpec {
            key: key.clone(),
            provider: match &reader {
                Reader::Adapter { desc, .. } => desc.provider.as_str().to_string(),
                Reader::Spool { .. } => "fornax".to_string(),
            },
            kind: layout.kind().into(),
            locator: path.display().to_string(),
            adapter: adapter_name.clone(),
            session_hint: Some(file_stem(&path)),
        };
        let hint = file_stem(&path);
        let options = self.options.clone();
        let mut writer = self
            .store
            .begin_source(&spec, matches!(mode, Mode::Rebuild))?;
        let mut tally = SourceTally::default();
        let redactor = self.redactor;
        let source_id = SourceId::new(key.clone());
        let mut redaction_time = Duration::ZERO;
        let location = path.display().to_string();
        let mut ctx = RecordCtx {
            writer: &mut writer,
            tally: &mut tally,
            redactor,
            options: &options,
            reader: &mut reader,
            source: &source_id,
            hint: &hint,
            location: Some(&location),
            redaction_time: &mut redaction_time,
        };
        let is_spool = adapter_name == SPOOL_ADAPTER;
        let text = !is_spool
            && self
                .registry
                .by_name(&adapter_name)
                .is_some_and(|d| matches!(d.framing, Framing::TextLines { .. }));
        let framed = match layout {
            Layout::Lines if text => {
                read_text_lines(&mut ctx, &mut file, start_offset, next_position, tail_ok)
            }
            Layout::Lines => read_lines(
                &mut ctx,
                &mut file,
                start_offset,
                next_position,
                is_spool,
                tail_ok,
            ),
            Layout::Whole => read_whole(&mut ctx, &mut file, size),
            Layout::Values(values) => read_values(&mut ctx, &mut file, values, size),
        }
        .map_err(|e| match e {
            ReadError::Io(e) => io_err(&path)(e),
            ReadError::Ingest(e) => e,
        })?;
        let checkpoint = checkpoint(ctx.reader);
        for msg in finish(&mut *ctx.reader) {
            ctx.apply(msg)?;
        }
        let cursor_offset = framed.cursor;
        let prefix_fp = fingerprint::prefix(&mut file, cursor_offset).map_err(io_err(&path))?;
        let blocks = match (&mode, state.as_ref().and_then(|s| s.cursor.blocks.clone())) {
            (Mode::Append, Some(old)) => Blocks::from_stored(old)
                .map(|b| b.extend(&mut file, start_offset, cursor_offset))
                .unwrap_or_else(|| Blocks::compute(&mut file, cursor_offset)),
            _ => Blocks::compute(&mut file, cursor_offset),
        }
        .map_err(io_err(&path))?;
        let cursor = SourceCursor {
            inode: Some(inode),
            size: Some(size),
            mtime_ns: Some(mtime),
            prefix_len: Some(cursor_offset),
            prefix_fp: Some(prefix_fp),
            offset: cursor_offset,
            open_tail: framed.open_tail,
            blocks: Some(blocks.into_stored()),
        };
        // A checkpoint can hold native text (a loop's last answer): it is redacted like the
        // rest. Its findings were counted when the text itself was stored.
        let state = checkpoint.map(|v| redactor.redact(v, &mut RedactionCounts::default()));
        let commit = Commit {
            cursor: &cursor,
            next_position: framed.next_position,
            adapter_state: state.as_ref(),
            adapter_name: &adapter_name,
            mode,
            bytes_read: cursor_offset.saturating_sub(start_offset),
            redaction_time,
        };
        commit_source(writer, tally, commit, &mut self.summary, &mut self.touched)
    }

    /// What a file nobody read before holds: a spool segment (by name and first line), JSON
    /// lines an adapter recognises, one document, or the values of a dump.
    fn detect(&self, file: &mut File, path: &Path, size: u64) -> Result<Detected, IngestError> {
        let lines = |adapter: &str| Detected::Source {
            adapter: adapter.to_string(),
            layout: Layout::Lines,
        };
        if spool::is_segment(path, b"") {
            // Named as a segment, in a spool folder: whatever its first line holds.
            return Ok(lines(SPOOL_ADAPTER));
        }
        if let Some(desc) = self.registry.text_for(path) {
            return Ok(match self.sniff_text(file, path, desc)? {
                Some(adapter) => lines(&adapter),
                None => Detected::Unknown,
            });
        }
        file.seek(SeekFrom::Start(0)).map_err(io_err(path))?;
        let mut framer = LineFramer::new(&mut *file, 0, 4 * 1024 * 1024);
        let mut seen = 0;
        let mut json_lines = 0;
        let mut dump_line: Option<&fornax_types::AdapterDescriptor> = None;
        while seen < 16 {
            let Some(framed) = framer.next_line().map_err(io_err(path))? else {
                break;
            };
            seen += 1;
            if seen == 1 {
                let first: &[u8] = match &framed {
                    Framed::Line(line) => line.bytes,
                    Framed::Oversized { .. } => b"",
                };
                if spool::is_segment(path, first) {
                    return Ok(lines(SPOOL_ADAPTER));
                }
            }
            let Framed::Line(line) = framed else { continue };
            let Ok(value) = fornax_live::json::parse(line.bytes).map(|p| p.value) else {
                continue;
            };
            json_lines += 1;
            if let Some(d) = self.registry.sniff(&value, Framing::JsonLines) {
                if d.tree.is_none() || json_lines > 1 {
                    return Ok(lines(d.name));
                }
                // A dump adapter's record on a line of its own: JSON lines if another follows.
                dump_line = dump_line.or(Some(d));
            } else if let Some(d) = dump_line.filter(|_| json_lines > 1) {
                return Ok(lines(d.name));
            }
        }
        if let Some(d) = dump_line {
            return Ok(if json_lines > 1 {
                lines(d.name)
            } else {
                Detected::Dump { adapter: d.name }
            });
        }
        if json_lines > 1 {
            return Ok(Detected::Unknown);
        }
        // One JSON document per file?
        if size as usize <= self.options.max_record_bytes {
            let mut bytes = Vec::with_capacity(size as usize);
            file.seek(SeekFrom::Start(0)).map_err(io_err(path))?;
            file.read_to_end(&mut bytes).map_err(io_err(path))?;
            if let Ok(parsed) = fornax_live::json::parse(&bytes) {
                if let Some(d) = self.registry.sniff(&parsed.value, Framing::WholeFile) {
                    if d.tree.is_none() {
                        return Ok(Detected::Source {
                            adapter: d.name.to_string(),
                            layout: Layout::Whole,
                        });
                    }
                    return Ok(Detected::Dump { adapter: d.name });
                }
            }
        }
        Ok(self
            .detect_values(file, path, size)?
            .unwrap_or(Detected::Unknown))
    }

    /// A text file in its adapter's folder: the adapter's when one of its first lines is.
    fn sniff_text(
        &self,
        file: &mut File,
        path: &Path,
        desc: &fornax_types::AdapterDescriptor,
    ) -> Result<Option<String>, IngestError> {
        file.seek(SeekFrom::Start(0)).map_err(io_err(path))?;
        let mut framer = LineFramer::new(&mut *file, 0, 4 * 1024 * 1024);
        for _ in 0..16 {
            match framer.next_line().map_err(io_err(path))? {
                Some(Framed::Line(line)) => {
                    let value = Value::String(String::from_utf8_lossy(line.bytes).into());
                    if (desc.sniff)(&value) {
                        return Ok(Some(desc.name.to_string()));
                    }
                }
                Some(_) => {}
                None => break,
            }
        }
        Ok(None)
    }

    /// The values of an array, or of values back to back: which adapter recognises them.
    fn detect_values(
        &self,
        file: &mut File,
        path: &Path,
        _size: u64,
    ) -> Result<Option<Detected>, IngestError> {
        file.seek(SeekFrom::Start(0)).map_err(io_err(path))?;
        let mut first = [0u8; 4096];
        let n = file.read(&mut first).map_err(io_err(path))?;
        let Some(&b) = first[..n]
            .iter()
            .find(|b| !b.is_ascii_whitespace() && !matches!(b, 0xEF | 0xBB | 0xBF))
        else {
            return Ok(None);
        };
        let layout = value_layout(b);
        file.seek(SeekFrom::Start(0)).map_err(io_err(path))?;
        let mut scanner = ValueScanner::new(&mut *file, layout, self.options.max_record_bytes);
        let mut values = 0;
        while values < SNIFF_VALUES {
            let Some(scanned) = scanner.next_value().map_err(io_err(path))? else {
                break;
            };
            let ScannedValue::Value { bytes, .. } = scanned else {
                continue;
            };
            values += 1;
            let Ok(parsed) = fornax_live::json::parse(bytes) else {
                continue;
            };
            let found = self
                .registry
                .sniff(&parsed.value, Framing::JsonLines)
                .or_else(|| self.registry.sniff(&parsed.value, Framing::WholeFile));
            if let Some(d) = found {
                return Ok(Some(if d.tree.is_some() {
                    Detected::Dump { adapter: d.name }
                } else {
                    Detected::Source {
                        adapter: d.name.to_string(),
                        layout: Layout::Values(layout),
                    }
                }));
            }
        }
        // A concatenation needs at least two values to be one (one value was tried whole).
        Ok(None)
    }
}

/// Whether the bytes after `offset` (to the end of the file) are one complete JSON value: a
/// final line without newline that can be taken now.
fn complete_tail(path: &Path, offset: u64, size: u64, max: usize) -> bool {
    if size - offset > max as u64 {
        return false;
    }
    let Ok(mut file) = File::open(path) else {
        return false;
    };
    let mut bytes = vec![0u8; (size - offset) as usize];
    file.seek(SeekFrom::Start(offset)).is_ok()
        && file.read_exact(&mut bytes).is_ok()
        && !bytes.iter().all(|b| b.is_ascii_whitespace())
        && !bytes.contains(&b'\n')
        && fornax_live::json::parse(bytes.trim_ascii()).is_ok()
}

/// How long the file has been left alone (its mtime's age).
fn quiet_for(meta: &std::fs::Metadata) -> Duration {
    meta.modified()
        .ok()
        .and_then(|m| SystemTime::now().duration_since(m).ok())
        .unwrap_or_default()
}

/// Whether the bytes before the stored cursor are unchanged. A file that simply grew is checked
/// cheaply (head and the bytes before the cursor); any other change (same size with a new
/// mtime, a new inode) is checked against every block before the cursor.
fn same_before_cursor(
    file: &mut File,
    st: &SourceState,
    inode: u64,
    size: u64,
) -> std::io::Result<bool> {
    let offset = st.cursor.offset;
    if size < offset {
        return Ok(false);
    }
    let grew = st.cursor.inode == Some(inode) && st.cursor.size.is_some_and(|old| size > old);
    let stored_blocks = st.cursor.blocks.clone().and_then(Blocks::from_stored);
    match stored_blocks {
        Some(blocks) if !grew => Ok(Blocks::compute(file, offset)? == blocks),
        _ => {
            Ok(st.cursor.prefix_fp.as_deref()
                == Some(fingerprint::prefix(file, offset)?.as_slice()))
        }
    }
}

enum ReadError {
    Io(std::io::Error),
    Ingest(IngestError),
}

impl From<IngestError> for ReadError {
    fn from(e: IngestError) -> Self {
        ReadError::Ingest(e)
    }
}

/// Where framing stopped.
struct Stopped {
    cursor: u64,
    next_position: u64,
    open_tail: bool,
}

/// Parses one record's bytes (lone surrogates repaired and counted) and records it. False when
/// they are not JSON.
fn record_json(
    ctx: &mut RecordCtx<'_, '_, '_>,
    position: u64,
    start: u64,
    bytes: &[u8],
    skip_headers: bool,
) -> Result<Option<bool>, IngestError> {
    let Ok(parsed) = fornax_live::json::parse(bytes) else {
        return Ok(None);
    };
    ctx.tally.repaired += u64::from(parsed.repaired);
    if skip_headers && spool::is_header(&parsed.value) {
        // A segment's header describes the segment: no record.
        return Ok(Some(false));
    }
    let range = ByteRange {
        start,
        end: start + bytes.len() as u64,
    };
    ctx.record(position, range, bytes, &parsed.value, None)?;
    Ok(Some(true))
}

fn read_lines(
    ctx: &mut RecordCtx<'_, '_, '_>,
    file: &mut File,
    start_offset: u64,
    first_position: u64,
    is_spool: bool,
    tail_ok: bool,
) -> Result<Stopped, ReadError> {
    file.seek(SeekFrom::Start(start_offset))
        .map_err(ReadError::Io)?;
    let max = ctx.options.max_record_bytes;
    let mut framer = LineFramer::new(&mut *file, start_offset, max);
    let mut position = first_position;
    while let Some(framed) = framer.next_line().map_err(ReadError::Io)? {
        let line = match framed {
            Framed::Oversized { .. } => {
                ctx.tally.oversized += 1;
                continue;
            }
            Framed::Line(line) => line,
        };
        if line.bytes.iter().all(|b| b.is_ascii_whitespace()) {
            continue;
        }
        match record_json(ctx, position, line.start, line.bytes, is_spool)? {
            Some(true) => position += 1,
            Some(false) => {}
            None => match split_concatenated(line.bytes) {
                Some(parts) => {
                    ctx.tally.defects += 1;
                    for (value, r) in parts {
                        let range = ByteRange {
                            start: line.start + r.start as u64,
                            end: line.start + r.end as u64,
                        };
                        ctx.record(position, range, &line.bytes[r], &value, None)?;
                        position += 1;
                    }
                }
                None => ctx.tally.malformed += 1,
            },
        }
    }
    // A final line without its newline: taken when it is complete JSON and the file is quiet
    // (or a scan reads what is there); the cursor then stands after it.
    let mut open_tail = false;
    if tail_ok {
        let tail = framer.tail().map(|t| (t.start, t.bytes.to_vec()));
        if let Some((start, bytes)) = tail {
            if !bytes.iter().all(|b| b.is_ascii_whitespace()) {
                if let Some(recorded) = record_json(ctx, position, start, &bytes, is_spool)? {
                    if recorded {
                        position += 1;
                    }
                    open_tail = true;
                    framer.consume_tail();
                }
            }
        }
    }
    Ok(Stopped {
        cursor: framer.cursor(),
        next_position: position,
        open_tail,
    })
}

/// A plain-text transcript: every line is one record, its text as a JSON string (the adapter
/// reads the structure). A final line without newline is taken once the file is quiet.
fn read_text_lines(
    ctx: &mut RecordCtx<'_, '_, '_>,
    file: &mut File,
    start_offset: u64,
    first_position: u64,
    tail_ok: bool,
) -> Result<Stopped, ReadError> {
    file.seek(SeekFrom::Start(start_offset))
        .map_err(ReadError::Io)?;
    let max = ctx.options.max_record_bytes;
    let mut framer = LineFramer::new(&mut *file, start_offset, max);
    let mut position = first_position;
    while let Some(framed) = framer.next_line().map_err(ReadError::Io)? {
        match framed {
            Framed::Oversized { .. } => ctx.tally.oversized += 1,
            Framed::Line(line) => text_record(ctx, &mut position, line.start, line.bytes)?,
        }
    }
    let mut open_tail = false;
    if tail_ok {
        let tail = framer.tail().map(|t| (t.start, t.bytes.to_vec()));
        if let Some((start, bytes)) = tail {
            if !bytes.is_empty() {
                text_record(ctx, &mut position, start, &bytes)?;
                open_tail = true;
                framer.consume_tail();
            }
        }
    }
    Ok(Stopped {
        cursor: framer.cursor(),
        next_position: position,
        open_tail,
    })
}

/// One line of a text transcript as a record: its text as a JSON string.
fn text_record(
    ctx: &mut RecordCtx<'_, '_, '_>,
    position: &mut u64,
    start: u64,
    bytes: &[u8],
) -> Result<(), IngestError> {
    let value = Value::String(String::from_utf8_lossy(bytes).into());
    let range = ByteRange {
        start,
        end: start + bytes.len() as u64,
    };
    ctx.record(*position, range, bytes, &value, None)?;
    *position += 1;
    Ok(())
}

fn read_whole(
    ctx: &mut RecordCtx<'_, '_, '_>,
    file: &mut File,
    size: u64,
) -> Result<Stopped, ReadError> {
    if size > ctx.options.max_record_bytes as u64 {
        ctx.tally.oversized += 1;
    } else {
        let mut bytes = Vec::with_capacity(size as usize);
        file.seek(SeekFrom::Start(0)).map_err(ReadError::Io)?;
        file.read_to_end(&mut bytes).map_err(ReadError::Io)?;
        if record_json(ctx, 0, 0, &bytes, false)?.is_none() {
            ctx.tally.malformed += 1;
        }
    }
    Ok(Stopped {
        cursor: size,
        next_position: 1,
        open_tail: false,
    })
}

/// The values of an array or of values back to back, each a record with its byte range.
fn read_values(
    ctx: &mut RecordCtx<'_, '_, '_>,
    file: &mut File,
    layout: ValueLayout,
    size: u64,
) -> Result<Stopped, ReadError> {
    file.seek(SeekFrom::Start(0)).map_err(ReadError::Io)?;
    let max = ctx.options.max_record_bytes;
    let mut scanner = ValueScanner::new(&mut *file, layout, max);
    let mut position = 0u64;
    while let Some(scanned) = scanner.next_value().map_err(ReadError::Io)? {
        match scanned {
            ScannedValue::Oversized { .. } => ctx.tally.oversized += 1,
            ScannedValue::Value { start, bytes } => {
                match record_json(ctx, position, start, bytes, false)? {
                    Some(_) => position += 1,
                    None => ctx.tally.malformed += 1,
                }
            }
        }
    }
    // A dump cut short (or still being written) counts its torn end as one malformed record.
    if matches!(
        scanner.end(),
        Some(ScanEnd::Truncated | ScanEnd::Invalid(_))
    ) {
        ctx.tally.malformed += 1;
    }
    Ok(Stopped {
        cursor: size,
        next_position: position,
        open_tail: false,
    })
}

/// The dump files of one folder for one adapter, gathered while files are ingested.
pub(crate) type DumpSets = std::collections::BTreeMap<(PathBuf, &'static str), Vec<PathBuf>>;
