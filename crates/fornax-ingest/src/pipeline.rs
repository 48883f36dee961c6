//! The ingestion pipeline for file sources (transcripts, rollouts, session files, the spool).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::Instant;

use fornax_redact::{RedactionCounts, Redactor};
use fornax_store::{Drift, SourceCursor, SourceSpec, SourceWriter, Store, StoreError};
use fornax_types::{
    AdapterDescriptor, AgentAdapter, ByteRange, Fingerprint, Framing, IngestMessage, NativeRecord,
    NormalizationOutcome, RecordRef, SemanticValue, SessionRef, SourceId, TextValue,
};
use serde_json::Value;

use crate::clock::now_rfc3339;
use crate::discover::file_stem;
use crate::frame::{split_concatenated, Framed, LineFramer};
use crate::spool::{as_envelope, SPOOL_MARKER};
use crate::summary::{FileError, ScanSummary};
pub use crate::verification::{verify_sessions, VerifyOutcome};

/// Name under which spool files are recorded as sources.
pub const SPOOL_ADAPTER: &str = "fornax-spool";

/// Head and tail sizes of the prefix fingerprint.
const PREFIX_HEAD: u64 = 64 * 1024;
const PREFIX_TAIL: u64 = 4 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum IngestError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Limits and switches of a scan.
#[derive(Debug, Clone)]
pub struct IngestOptions {
    /// Largest record framed; longer ones are counted and skipped.
    pub max_record_bytes: usize,
    /// Largest text kept per field (head and tail survive; see `TextValue::capped`).
    pub text_cap: usize,
    /// Run verification on the sessions that changed.
    pub verify: bool,
}

impl Default for IngestOptions {
    fn default() -> Self {
        IngestOptions {
            max_record_bytes: 64 * 1024 * 1024,
            text_cap: 256 * 1024,
            verify: true,
        }
    }
}

/// Receives progress (the CLI draws it).
pub trait Progress {
    fn start(&mut self, _files: usize, _bytes: u64) {}
    fn advance(&mut self, _bytes: u64) {}
    fn finish(&mut self) {}
}

/// A progress sink that ignores everything.
impl Progress for () {}

/// The adapters this binary knows.
#[derive(Debug, Default)]
pub struct Registry {
    descriptors: Vec<AdapterDescriptor>,
}

impl Registry {
    pub fn new(descriptors: Vec<AdapterDescriptor>) -> Self {
        Registry { descriptors }
    }

    pub fn descriptors(&self) -> &[AdapterDescriptor] {
        &self.descriptors
    }

    pub fn by_name(&self, name: &str) -> Option<&AdapterDescriptor> {
        self.descriptors.iter().find(|d| d.name == name)
    }

    pub(crate) fn is_candidate(&self, path: &Path) -> bool {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy())
            .unwrap_or_default();
        if name.ends_with(".ndjson") {
            return true;
        }
        let full = path.to_string_lossy();
        self.descriptors
            .iter()
            .any(|d| d.file_suffixes.iter().any(|s| name.ends_with(s)) && d.framing.admits(&full))
            || self.database_for(path).is_some()
    }

    /// The text-framed adapter whose folder and suffix fit `path`, if any.
    fn text_for(&self, path: &Path) -> Option<&AdapterDescriptor> {
        let name = path.file_name()?.to_string_lossy();
        let full = path.to_string_lossy();
        self.descriptors.iter().find(|d| {
            matches!(d.framing, Framing::TextLines { .. })
                && d.framing.admits(&full)
                && d.file_suffixes.iter().any(|s| name.ends_with(s))
        })
    }

    /// The adapter whose document tree is rooted at `dir`: `dir` holds every marker folder.
    pub(crate) fn tree_for_dir(&self, dir: &Path) -> Option<&AdapterDescriptor> {
        self.descriptors.iter().find(|d| {
            d.tree.is_some_and(|t| {
                !t.root_marker.is_empty() && t.root_marker.iter().all(|m| dir.join(m).is_dir())
            })
        })
    }

    /// The adapter that reads the database file `path` (by its file name).
    pub(crate) fn database_for(&self, path: &Path) -> Option<&AdapterDescriptor> {
        let name = path.file_name()?.to_str()?;
        self.descriptors.iter().find(|d| {
            d.tree
                .and_then(|t| t.database)
                .is_some_and(|db| db.file_names.contains(&name))
        })
    }

    fn sniff(&self, value: &Value, framing: Framing) -> Option<&AdapterDescriptor> {
        self.descriptors
            .iter()
            .find(|d| d.framing == framing && (d.sniff)(value))
    }
}

/// What was decided about one source.
pub(crate) enum Mode {
    New,
    Append,
    Rebuild,
}

/// Which adapter reads a source.
pub(crate) enum Reader<'r> {
    Adapter {
        desc: &'r AdapterDescriptor,
        adapter: Box<dyn AgentAdapter + Send>,
    },
    /// Spool envelopes: one adapter per named inner adapter, created on first use and
    /// restored from `pending` checkpoints when resuming.
    Spool {
        registry: &'r Registry,
        adapters: BTreeMap<String, Box<dyn AgentAdapter + Send>>,
        pending: serde_json::Map<String, Value>,
    },
}

/// Per-source counters collected while normalizing.
#[derive(Default)]
pub(crate) struct SourceTally {
    unrecognized: BTreeMap<(String, String, String), u64>,
    ignored: BTreeMap<(String, String), u64>,
    redactions: HashMap<SessionRef, RedactionCounts>,
    runtime_version: Option<String>,
    pub(crate) malformed: u64,
    pub(crate) oversized: u64,
    defects: u64,
    records: u64,
}

/// Building the detectors is not free; one set serves the whole process.
fn shared_redactor() -> &'static Redactor {
    static REDACTOR: std::sync::OnceLock<Redactor> = std::sync::OnceLock::new();
    REDACTOR.get_or_init(Redactor::new)
}

/// Drives files through adapters into the store.
pub struct Ingestor<'s> {
    pub(crate) store: &'s mut Store,
    pub(crate) registry: &'s Registry,
    pub(crate) redactor: &'static Redactor,
    pub(crate) options: IngestOptions,
    pub(crate) summary: ScanSummary,
    pub(crate) touched: BTreeSet<i64>,
    started: Instant,
}

impl std::fmt::Debug for Ingestor<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ingestor")
            .field("options", &self.options)
            .finish()
    }
}

pub(crate) fn io_err(path: &Path) -> impl Fn(std::io::Error) -> IngestError + '_ {
    move |source| IngestError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Fingerprint of the bytes before `offset`: its head and the bytes just before the cursor.
/// A rewrite of either changes it; appends after `offset` do not.
fn prefix_fingerprint(file: &mut File, offset: u64) -> std::io::Result<Vec<u8>> {
    let mut hasher = blake3::Hasher::new();
    let head_len = offset.min(PREFIX_HEAD);
    let mut buf = vec![0u8; head_len as usize];
    file.seek(SeekFrom::Start(0))?;
    file.read_exact(&mut buf)?;
    hasher.update(&buf);
    let tail_start = offset.saturating_sub(PREFIX_TAIL).max(head_len);
    let mut tail = vec![0u8; (offset - tail_start) as usize];
    file.seek(SeekFrom::Start(tail_start))?;
    file.read_exact(&mut tail)?;
    hasher.update(&tail);
    hasher.update(&offset.to_le_bytes());
    Ok(hasher.finalize().as_bytes().to_vec())
}

fn message_session(msg: &IngestMessage) -> Option<SessionRef> {
    match msg {
        IngestMessage::Session(s) => Some(s.id.clone()),
        IngestMessage::Loop(l) => Some(l.session.clone()),
        IngestMessage::Item(i) => Some(i.session.clone()),
        IngestMessage::Evidence(e) => Some(e.session.clone()),
        IngestMessage::Claim(c) => Some(c.session.clone()),
        IngestMessage::Finding(f) => Some(f.session.clone()),
        IngestMessage::Capabilities(c) => c
            .notes
            .get(fornax_types::RuntimeCapabilities::NOTE_SESSION_ID)
            .map(|id| SessionRef::new(c.provider.clone(), id.clone())),
        IngestMessage::Source(_) | IngestMessage::Record(_) => None,
    }
}

fn cap_text(t: &mut TextValue, cap: usize) {
    if t.text.len() > cap {
        let full_len = t.byte_len;
        *t = TextValue::capped(&t.text, cap);
        t.byte_len = full_len.max(t.byte_len);
    }
}

/// Bounds the size of stored texts (after redaction, so a secret is never split first).
fn cap_message_texts(msg: &mut IngestMessage, cap: usize) {
    if let IngestMessage::Item(item) = msg {
        match &mut item.semantic.value {
            SemanticValue::Text(t) => cap_text(t, cap),
            SemanticValue::ToolOutput(o) => {
                if let Some(t) = &mut o.text {
                    cap_text(t, cap);
                }
                if let Some(t) = &mut o.stderr {
                    cap_text(t, cap);
                }
            }
            SemanticValue::Reasoning(r) => {
                if let Some(t) = &mut r.text {
                    cap_text(t, cap);
                }
            }
            SemanticValue::Subagent(s) => {
                if let Some(t) = &mut s.text {
                    cap_text(t, cap);
                }
            }
            _ => {}
        }
    }
}

impl<'s> Ingestor<'s> {
    pub fn new(store: &'s mut Store, registry: &'s Registry, options: IngestOptions) -> Self {
        Ingestor {
            store,
            registry,
            redactor: shared_redactor(),
            options,
            summary: ScanSummary::default(),
            touched: BTreeSet::new(),
            started: Instant::now(),
        }
    }

    /// Ingests every file, isolating failures per file.
    pub fn ingest_files(&mut self, files: &[PathBuf], progress: &mut dyn Progress) {
        let total: u64 = files
            .iter()
            .filter_map(|f| std::fs::metadata(f).ok())
            .map(|m| m.len())
            .sum();
        progress.start(files.len(), total);
        for path in files {
            let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
            let result = if path.is_dir() {
                match self.registry.tree_for_dir(path) {
                    Some(desc) => self.ingest_tree(path, desc),
                    None => Ok(()),
                }
            } else if let Some(desc) = self.registry.database_for(path) {
                self.ingest_database(path, desc)
            } else {
                self.ingest_file(path)
            };
            if let Err(e) = result {
                self.summary.errors.push(FileError {
                    path: path.display().to_string(),
                    error: e.to_string(),
                });
            }
            progress.advance(size);
        }
        progress.finish();
    }

    /// Ingests one file: new, appended, unchanged or rebuilt.
    pub fn ingest_file(&mut self, path: &Path) -> Result<(), IngestError> {
        let path = std::fs::canonicalize(path).map_err(io_err(path))?;
        let meta = std::fs::metadata(&path).map_err(io_err(&path))?;
        let key = format!("file:{}", path.display());
        let state = self.store.source_state(&key)?;
        let (inode, size, mtime_ns) = (
            meta.ino(),
            meta.len(),
            meta.mtime() * 1_000_000_000 + meta.mtime_nsec(),
        );
        if let Some(st) = &state {
            if st.cursor.inode == Some(inode)
                && st.cursor.size == Some(size)
                && st.cursor.mtime_ns == Some(mtime_ns)
            {
                self.summary.sources.unchanged += 1;
                return Ok(());
            }
        }
        let mut file = File::open(&path).map_err(io_err(&path))?;
        let stored_adapter = state.as_ref().map(|s| s.adapter.clone());
        let adapter_name = match stored_adapter {
            Some(name) => name,
            None => match self.sniff_file(&mut file, &path)? {
                Some(name) => name,
                None => {
                    *self
                        .summary
                        .sources
                        .skipped
                        .entry("content not recognized".into())
                        .or_insert(0) += 1;
                    return Ok(());
                }
            },
        };
        let framing = if adapter_name == SPOOL_ADAPTER {
            Framing::JsonLines
        } else {
            match self.registry.by_name(&adapter_name) {
                Some(d) => d.framing,
                None => {
                    *self
                        .summary
                        .sources
                        .skipped
                        .entry(format!("adapter {adapter_name} not available"))
                        .or_insert(0) += 1;
                    return Ok(());
                }
            }
        };
        let mode = match &state {
            None => Mode::New,
            Some(_) if framing == Framing::WholeFile => Mode::Rebuild,
            Some(st) => {
                let offset = st.cursor.offset;
                let same_prefix = size >= offset
                    && st.cursor.prefix_fp.as_deref()
                        == Some(
                            prefix_fingerprint(&mut file, offset)
                                .map_err(io_err(&path))?
                                .as_slice(),
                        );
                if same_prefix {
                    Mode::Append
                } else {
                    Mode::Rebuild
                }
            }
        };
        let text = matches!(framing, Framing::TextLines { .. });
        let mut reader = self.make_reader(&adapter_name);
        let mut start_offset = 0u64;
        let mut next_position = 0u64;
        let mut mode = mode;
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
            kind: "file".into(),
            locator: path.display().to_string(),
            adapter: adapter_name.clone(),
            session_hint: Some(file_stem(&path)),
        };
        let rebuild = matches!(mode, Mode::Rebuild);
        let hint = file_stem(&path);
        let options = self.options.clone();
        let mut writer = self.store.begin_source(&spec, rebuild)?;
        let mut tally = SourceTally::default();
        let redactor = self.redactor;
        let source_id = SourceId::new(key.clone());
        let mut redaction_time = std::time::Duration::ZERO;
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
        let (cursor_offset, next_position) = match framing {
            Framing::TextLines { .. } | Framing::JsonLines => {
                file.seek(SeekFrom::Start(start_offset))
                    .map_err(io_err(&path))?;
                let mut framer = LineFramer::new(&mut file, start_offset, options.max_record_bytes);
                let mut position = next_position;
                while let Some(framed) = framer.next_line().map_err(io_err(&path))? {
                    match framed {
                        Framed::Oversized { .. } => ctx.tally.oversized += 1,
                        Framed::Line(line) if text => {
                            let value = Value::String(String::from_utf8_lossy(line.bytes).into());
                            let range = ByteRange {
                                start: line.start,
                                end: line.start + line.bytes.len() as u64,
                            };
                            ctx.record(position, range, line.bytes, &value, None)?;
                            position += 1;
                        }
                        Framed::Line(line) => {
                            if line.bytes.iter().all(|b| b.is_ascii_whitespace()) {
                                continue;
                            }
                            match serde_json::from_slice::<Value>(line.bytes) {
                                Ok(value) => {
                                    let range = ByteRange {
                                        start: line.start,
                                        end: line.start + line.bytes.len() as u64,
                                    };
                                    ctx.record(position, range, line.bytes, &value, None)?;
                                    position += 1;
                                }
                                Err(_) => match split_concatenated(line.bytes) {
                                    Some(parts) => {
                                        ctx.tally.defects += 1;
                                        for (value, r) in parts {
                                            let range = ByteRange {
                                                start: line.start + r.start as u64,
                                                end: line.start + r.end as u64,
                                            };
                                            ctx.record(
                                                position,
                                                range,
                                                &line.bytes[r],
                                                &value,
                                                None,
                                            )?;
                                            position += 1;
                                        }
                                    }
                                    None => ctx.tally.malformed += 1,
                                },
                            }
                        }
                    }
                }
                (framer.cursor(), position)
            }
            Framing::WholeFile => {
                if size > options.max_record_bytes as u64 {
                    ctx.tally.oversized += 1;
                } else {
                    let mut bytes = Vec::with_capacity(size as usize);
                    file.seek(SeekFrom::Start(0)).map_err(io_err(&path))?;
                    file.read_to_end(&mut bytes).map_err(io_err(&path))?;
                    match serde_json::from_slice::<Value>(&bytes) {
                        Ok(value) => ctx.record(
                            0,
                            ByteRange {
                                start: 0,
                                end: bytes.len() as u64,
                            },
                            &bytes,
                            &value,
                            None,
                        )?,
                        Err(_) => ctx.tally.malformed += 1,
                    }
                }
                (size, 1)
            }
        };
        let checkpoint = checkpoint(ctx.reader);
        for msg in finish(&mut *ctx.reader) {
            ctx.apply(msg)?;
        }
        let prefix_fp = prefix_fingerprint(&mut file, cursor_offset).map_err(io_err(&path))?;
        let cursor = SourceCursor {
            inode: Some(inode),
            size: Some(size),
            mtime_ns: Some(mtime_ns),
            prefix_len: Some(cursor_offset),
            prefix_fp: Some(prefix_fp),
            offset: cursor_offset,
        };
        let state_json = checkpoint.map(|v| v.to_string());
        let commit = Commit {
            cursor: &cursor,
            next_position,
            adapter_state: state_json.as_deref(),
            adapter_name: &adapter_name,
            mode,
            bytes_read: cursor_offset.saturating_sub(start_offset),
            redaction_time,
        };
        commit_source(writer, tally, commit, &mut self.summary, &mut self.touched)
    }

    fn sniff_file(&self, file: &mut File, path: &Path) -> Result<Option<String>, IngestError> {
        if let Some(desc) = self.registry.text_for(path) {
            return self.sniff_text(file, path, desc);
        }
        file.seek(SeekFrom::Start(0)).map_err(io_err(path))?;
        let mut framer = LineFramer::new(&mut *file, 0, 4 * 1024 * 1024);
        let mut seen = 0;
        let mut json_lines = 0;
        while seen < 16 {
            let Some(framed) = framer.next_line().map_err(io_err(path))? else {
                break;
            };
            seen += 1;
            let Framed::Line(line) = framed else { continue };
            let Ok(value) = serde_json::from_slice::<Value>(line.bytes) else {
                continue;
            };
            json_lines += 1;
            if value.get(SPOOL_MARKER).is_some() {
                return Ok(Some(SPOOL_ADAPTER.to_string()));
            }
            if let Some(d) = self.registry.sniff(&value, Framing::JsonLines) {
                return Ok(Some(d.name.to_string()));
            }
        }
        if json_lines > 1 {
            return Ok(None);
        }
        // Perhaps one JSON document per file.
        let size = file.metadata().map_err(io_err(path))?.len();
        if size as usize > self.options.max_record_bytes {
            return Ok(None);
        }
        let mut bytes = Vec::with_capacity(size as usize);
        file.seek(SeekFrom::Start(0)).map_err(io_err(path))?;
        file.read_to_end(&mut bytes).map_err(io_err(path))?;
        Ok(serde_json::from_slice::<Value>(&bytes)
            .ok()
            .and_then(|v| self.registry.sniff(&v, Framing::WholeFile))
            .map(|d| d.name.to_string()))
    }

    /// A text file in its adapter's folder: the adapter's when one of its first lines is.
    fn sniff_text(
        &self,
        file: &mut File,
        path: &Path,
        desc: &AdapterDescriptor,
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

    fn make_reader(&self, adapter_name: &str) -> Reader<'s> {
        if adapter_name == SPOOL_ADAPTER {
            return Reader::Spool {
                registry: self.registry,
                adapters: BTreeMap::new(),
                pending: serde_json::Map::new(),
            };
        }
        match self.registry.by_name(adapter_name) {
            Some(desc) => Reader::Adapter {
                desc,
                adapter: (desc.create)(),
            },
            // Unknown names were skipped before a reader is made; an empty spool reader
            // normalizes nothing if one slips through.
            None => Reader::Spool {
                registry: self.registry,
                adapters: BTreeMap::new(),
                pending: serde_json::Map::new(),
            },
        }
    }

    /// Verifies every session family this ingestor touched, and every family still owed a
    /// judgement by an earlier pass that did not finish.
    pub fn verify_touched(&mut self) -> Result<(), IngestError> {
        let started = Instant::now();
        let touched: Vec<i64> = self.touched.iter().copied().collect();
        let outcome = verify_sessions(self.store, &touched)?;
        self.summary.claims += outcome.claims;
        self.summary.findings = outcome.verdicts;
        self.summary
            .unreadable_evidence
            .extend(outcome.unreadable_evidence);
        self.summary.verification_ms += started.elapsed().as_millis() as u64;
        Ok(())
    }

    /// The summary so far.
    pub fn finish(mut self) -> Result<ScanSummary, IngestError> {
        self.store.flush_search_index()?;
        if self.options.verify {
            self.verify_touched()?;
        }
        self.summary.sessions_touched = self.touched.len() as u64;
        self.summary.elapsed_ms = self.started.elapsed().as_millis() as u64;
        Ok(self.summary)
    }
}

/// How a source's transaction ends: where its cursor now stands and what was done.
pub(crate) struct Commit<'a> {
    pub cursor: &'a SourceCursor,
    pub next_position: u64,
    pub adapter_state: Option<&'a str>,
    pub adapter_name: &'a str,
    pub mode: Mode,
    pub bytes_read: u64,
    pub redaction_time: std::time::Duration,
}

/// Writes a source's counters and cursor, commits its transaction and adds it to the summary
/// (only once committed).
pub(crate) fn commit_source(
    mut writer: SourceWriter<'_>,
    tally: SourceTally,
    c: Commit<'_>,
    summary: &mut ScanSummary,
    touched: &mut BTreeSet<i64>,
) -> Result<(), IngestError> {
    let now = now_rfc3339();
    let version = tally
        .runtime_version
        .clone()
        .unwrap_or_else(|| "unknown".into());
    for ((provider, adapter, disc), n) in &tally.unrecognized {
        let drift = Drift {
            provider,
            adapter,
            runtime_version: &version,
            outcome: "unrecognized",
            discriminator: disc,
        };
        writer.add_drift(&drift, *n, &now)?;
    }
    for ((provider, reason), n) in &tally.ignored {
        let drift = Drift {
            provider,
            adapter: c.adapter_name,
            runtime_version: &version,
            outcome: "ignored",
            discriminator: reason,
        };
        writer.add_drift(&drift, *n, &now)?;
    }
    for (session, counts) in &tally.redactions {
        for (kind, n) in counts.iter() {
            writer.add_redactions(session, kind, n)?;
        }
    }
    let written = writer.finish(
        c.cursor,
        c.next_position,
        c.adapter_state,
        tally.malformed,
        tally.oversized,
        tally.defects,
        &now,
    )?;
    // Counted only once the transaction committed.
    match c.mode {
        Mode::New => summary.sources.new += 1,
        Mode::Append => summary.sources.appended += 1,
        Mode::Rebuild => summary.sources.rebuilt += 1,
    }
    summary.bytes_read += c.bytes_read;
    summary.records += tally.records;
    summary.items += written.items;
    summary.loops += written.loops;
    summary.evidence += written.evidence;
    summary.sessions_new += written.new_sessions;
    summary.malformed_records += tally.malformed;
    summary.oversized_records += tally.oversized;
    summary.recovered_concatenations += tally.defects;
    summary.redaction_ms += c.redaction_time.as_millis() as u64;
    for ((provider, _adapter, disc), n) in tally.unrecognized {
        *summary
            .unrecognized
            .entry(format!("{provider}:{version}:{disc}"))
            .or_insert(0) += n;
    }
    for ((provider, reason), n) in tally.ignored {
        *summary
            .ignored
            .entry(format!("{provider}:{reason}"))
            .or_insert(0) += n;
    }
    for counts in tally.redactions.values() {
        for (kind, n) in counts.iter() {
            *summary.redactions.entry(kind.to_string()).or_insert(0) += n;
        }
    }
    touched.extend(written.touched_sessions);
    Ok(())
}

fn resume(reader: &mut Reader<'_>, state: &Value) -> bool {
    match reader {
        Reader::Adapter { adapter, .. } => adapter.resume(state),
        Reader::Spool { pending, .. } => match state.get("spool").and_then(Value::as_object) {
            Some(map) => {
                *pending = map.clone();
                true
            }
            None => false,
        },
    }
}

fn checkpoint(reader: &Reader<'_>) -> Option<Value> {
    match reader {
        Reader::Adapter { adapter, .. } => adapter.checkpoint(),
        Reader::Spool {
            adapters, pending, ..
        } => {
            let mut map = pending.clone();
            for (name, a) in adapters {
                // An adapter that cannot checkpoint makes the whole spool unresumable.
                map.insert(name.clone(), a.checkpoint()?);
            }
            Some(serde_json::json!({ "spool": map }))
        }
    }
}

pub(crate) fn finish(reader: &mut Reader<'_>) -> Vec<IngestMessage> {
    match reader {
        Reader::Adapter { adapter, .. } => adapter.finish(),
        Reader::Spool { adapters, .. } => adapters.values_mut().flat_map(|a| a.finish()).collect(),
    }
}

/// Everything needed to turn one record into stored messages.
pub(crate) struct RecordCtx<'a, 'w, 'r> {
    pub writer: &'a mut SourceWriter<'w>,
    pub tally: &'a mut SourceTally,
    pub redactor: &'a Redactor,
    pub options: &'a IngestOptions,
    pub reader: &'a mut Reader<'r>,
    pub source: &'a SourceId,
    pub hint: &'a str,
    /// The file's path, for sources framed from one file.
    pub location: Option<&'a str>,
    pub redaction_time: &'a mut std::time::Duration,
}

impl RecordCtx<'_, '_, '_> {
    /// Records one native record (`range`: where its bytes are in the source or `member`) and
    /// normalizes it.
    pub(crate) fn record(
        &mut self,
        position: u64,
        range: impl Into<Option<ByteRange>>,
        bytes: &[u8],
        value: &Value,
        member: Option<&str>,
    ) -> Result<(), IngestError> {
        let fingerprint = Fingerprint::of(bytes);
        let ts = value.get("timestamp").and_then(Value::as_str);
        self.writer
            .add_member_record(position, member, range.into(), &fingerprint, ts)?;
        self.tally.records += 1;
        let record = RecordRef::new(self.source.clone(), position);
        let (outcome, provider, adapter_name) = match &mut *self.reader {
            Reader::Adapter { desc, adapter } => {
                let native = NativeRecord {
                    record: &record,
                    value,
                    byte_len: bytes.len() as u64,
                    member,
                    location: self.location,
                };
                (
                    adapter.normalize(self.hint, &native),
                    desc.provider.as_str().to_string(),
                    desc.name.to_string(),
                )
            }
            Reader::Spool {
                registry,
                adapters,
                pending,
            } => {
                let Some(env) = as_envelope(value) else {
                    self.tally.malformed += 1;
                    return Ok(());
                };
                let Some(adapter) = spool_adapter(registry, adapters, pending, env.adapter) else {
                    *self
                        .tally
                        .unrecognized
                        .entry((
                            "fornax".into(),
                            SPOOL_ADAPTER.into(),
                            format!("adapter:{}", env.adapter),
                        ))
                        .or_insert(0) += 1;
                    return Ok(());
                };
                let native = NativeRecord {
                    record: &record,
                    value: env.payload,
                    byte_len: bytes.len() as u64,
                    member: None,
                    location: None,
                };
                let provider = adapter.provider().as_str().to_string();
                (
                    adapter.normalize("", &native),
                    provider,
                    env.adapter.to_string(),
                )
            }
        };
        match outcome {
            NormalizationOutcome::Messages(msgs) => {
                for msg in msgs {
                    self.apply(msg)?;
                }
            }
            NormalizationOutcome::Ignored { reason } => {
                *self
                    .tally
                    .ignored
                    .entry((provider, reason.to_string()))
                    .or_insert(0) += 1;
            }
            NormalizationOutcome::Unrecognized { discriminator } => {
                *self
                    .tally
                    .unrecognized
                    .entry((provider, adapter_name, discriminator))
                    .or_insert(0) += 1;
            }
        }
        Ok(())
    }

    pub(crate) fn apply(&mut self, mut msg: IngestMessage) -> Result<(), IngestError> {
        if let IngestMessage::Session(s) = &msg {
            if let Some(v) = &s.runtime_version {
                self.tally.runtime_version = Some(v.clone());
            }
        }
        let started = Instant::now();
        if let Some(session) = message_session(&msg) {
            let counts = self.tally.redactions.entry(session).or_default();
            self.redactor.redact_message(&mut msg, counts);
        }
        *self.redaction_time += started.elapsed();
        cap_message_texts(&mut msg, self.options.text_cap);
        self.writer.apply(&msg)?;
        Ok(())
    }
}

/// Spool payloads name their adapter; adapters are created on first use, restored from a
/// pending checkpoint when one exists.
fn spool_adapter<'m>(
    registry: &Registry,
    adapters: &'m mut BTreeMap<String, Box<dyn AgentAdapter + Send>>,
    pending: &mut serde_json::Map<String, Value>,
    name: &str,
) -> Option<&'m mut Box<dyn AgentAdapter + Send>> {
    if !adapters.contains_key(name) {
        let desc = registry.by_name(name)?;
        let mut adapter = (desc.create)();
        if let Some(state) = pending.remove(name) {
            adapter.resume(&state);
        }
        adapters.insert(name.to_string(), adapter);
    }
    adapters.get_mut(name)
}
