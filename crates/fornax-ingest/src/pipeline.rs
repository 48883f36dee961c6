//! The ingestion pipeline for file sources (transcripts, rollouts, session files, the spool).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::time::Instant;

use fornax_redact::{CleanTexts, Redacted, RedactionCounts, Redactor};
use fornax_store::{Drift, NativeRecordRow, SourceCursor, SourceWriter, Store, StoreError};
use fornax_types::{
    AdapterDescriptor, AgentAdapter, ByteRange, Fingerprint, Framing, IngestMessage, NativeRecord,
    NormalizationOutcome, RecordRef, SessionRef, SourceId,
};
use serde_json::Value;

use crate::clock::now_rfc3339;
use crate::spool::as_envelope;
pub use crate::verification::{verify_sessions, VerifyOutcome};
use crate::{FileError, ScanSummary};

/// Name under which spool files are recorded as sources.
pub const SPOOL_ADAPTER: &str = "fornax-spool";

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
    /// A file's final line without its newline is taken as a record once the file has been
    /// left alone this long (`Some(ZERO)`: at once, as a scan does; `None`: never, waiting for
    /// the newline). A later append that completes the line does not repeat it.
    pub tail_quiet: Option<std::time::Duration>,
    /// Paths never captured (`[capture] exclude`, expanded): files under them are skipped, and
    /// so is every message of a session whose working directory is one of them.
    pub exclude: Vec<String>,
    /// Keep every record's redacted bytes in the archive (`[archive] enabled`), so that a
    /// session outlives its source and the index can be rebuilt from the store alone.
    pub archive: bool,
}

impl Default for IngestOptions {
    fn default() -> Self {
        IngestOptions {
            max_record_bytes: 64 * 1024 * 1024,
            text_cap: 256 * 1024,
            verify: true,
            tail_quiet: Some(std::time::Duration::ZERO),
            exclude: Vec::new(),
            archive: true,
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
    pub(crate) fn text_for(&self, path: &Path) -> Option<&AdapterDescriptor> {
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

    pub(crate) fn sniff(&self, value: &Value, framing: Framing) -> Option<&AdapterDescriptor> {
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
    /// Native shape names are native data: redacted before they are counted.
    unrecognized: BTreeMap<(String, String, Redacted<String>), u64>,
    ignored: BTreeMap<(String, Redacted<String>), u64>,
    redactions: HashMap<SessionRef, RedactionCounts>,
    runtime_version: Option<String>,
    pub(crate) malformed: u64,
    pub(crate) oversized: u64,
    pub(crate) defects: u64,
    /// Lone surrogate escapes repaired to read a record.
    pub(crate) repaired: u64,
    pub(crate) records: u64,
    /// Sessions whose working directory is excluded from capture (their messages are dropped).
    excluded: std::collections::HashSet<SessionRef>,
}

/// Building the detectors is not free; one set serves the whole process.
pub(crate) fn shared_redactor() -> &'static Redactor {
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
    /// Dump files found so far, by folder and adapter (ingested as sets after the files).
    pub(crate) dump_sets: crate::file::DumpSets,
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

/// The source key of a file (after symlinks are resolved, so a file is one source however it
/// is reached).
pub(crate) fn file_key(path: &Path) -> String {
    let resolved = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    format!("file:{}", resolved.display())
}

fn message_session(msg: &IngestMessage) -> Option<SessionRef> {
    match msg {
        IngestMessage::Session(s) => Some(s.id.clone()),
        IngestMessage::Loop(l) => Some(l.session.clone()),
        IngestMessage::Item(i) => Some(i.session.clone()),
        IngestMessage::Evidence(e) => Some(e.session.clone()),
        IngestMessage::Usage(u) => Some(u.session.clone()),
        IngestMessage::Claim(c) => Some(c.session.clone()),
        IngestMessage::Finding(f) => Some(f.session.clone()),
        IngestMessage::Capabilities(c) => c
            .notes
            .get(fornax_types::RuntimeCapabilities::NOTE_SESSION_ID)
            .map(|id| SessionRef::new(c.provider.clone(), id.clone())),
        IngestMessage::Source(_) | IngestMessage::Record(_) => None,
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
            dump_sets: Default::default(),
            started: Instant::now(),
        }
    }

    /// Finds the candidates under `paths` ([`crate::discover_paths`]), names what could not be
    /// looked into, and ingests every candidate.
    pub fn scan_paths(&mut self, paths: &[PathBuf], progress: &mut dyn Progress) {
        let found = crate::discover_paths(paths, self.registry);
        for skip in found.skipped {
            self.summary.skip_file(skip.path, skip.reason);
        }
        self.ingest_files(&found.candidates, progress);
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
            if fornax_live::config::is_excluded(&self.options.exclude, &path.to_string_lossy()) {
                self.summary
                    .skip_source(path.display().to_string(), "excluded from capture");
                progress.advance(size);
                continue;
            }
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
        self.ingest_dump_sets();
        progress.finish();
    }

    pub(crate) fn make_reader(&self, adapter_name: &str) -> Reader<'s> {
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
    pub adapter_state: Option<&'a Redacted<Value>>,
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
    summary.repaired_escapes += tally.repaired;
    summary.redaction_ms += c.redaction_time.as_millis() as u64;
    for ((provider, _adapter, disc), n) in tally.unrecognized {
        *summary
            .unrecognized
            .entry(format!("{provider}:{version}:{}", disc.as_str()))
            .or_insert(0) += n;
    }
    for ((provider, reason), n) in tally.ignored {
        *summary
            .ignored
            .entry(format!("{provider}:{}", reason.as_str()))
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

pub(crate) fn resume(reader: &mut Reader<'_>, state: &Value) -> bool {
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

pub(crate) fn checkpoint(reader: &Reader<'_>) -> Option<Value> {
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
        let row = NativeRecordRow {
            position,
            member,
            byte_range: range.into(),
            fingerprint: &fingerprint,
            runtime_ts: ts,
            byte_len: Some(bytes.len() as u64),
        };
        self.stored(&row, value)
    }

    /// Stores a record (with its redacted copy, when the archive is on) and normalizes its
    /// value. `reindex` enters here with a record read back from the archive, keeping the
    /// fingerprint and place the scan recorded.
    pub(crate) fn stored(
        &mut self,
        row: &NativeRecordRow<'_>,
        value: &Value,
    ) -> Result<(), IngestError> {
        let position = row.position;
        let member = row.member;
        // The record's texts found clean, not scanned again in its messages.
        let mut clean = CleanTexts::default();
        let copy = if self.options.archive {
            // Counted when the record's messages are: the copy is the same native text.
            let started = Instant::now();
            let copy = self.redactor.redact_record_with(
                value.clone(),
                &mut RedactionCounts::default(),
                &mut clean,
            );
            *self.redaction_time += started.elapsed();
            Some(copy)
        } else {
            None
        };
        self.writer.add_archived_record(row, copy.as_ref())?;
        self.tally.records += 1;
        failpoint::record_staged();
        let record = RecordRef::new(self.source.clone(), position);
        let (outcome, provider, adapter_name) = match &mut *self.reader {
            Reader::Adapter { desc, adapter } => {
                let native = NativeRecord {
                    record: &record,
                    value,
                    byte_len: row.byte_len.unwrap_or(0),
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
                    let discriminator = self.redactor.redact(
                        format!("adapter:{}", env.adapter),
                        &mut RedactionCounts::default(),
                    );
                    *self
                        .tally
                        .unrecognized
                        .entry(("fornax".into(), SPOOL_ADAPTER.into(), discriminator))
                        .or_insert(0) += 1;
                    return Ok(());
                };
                let native = NativeRecord {
                    record: &record,
                    value: env.payload,
                    byte_len: row.byte_len.unwrap_or(0),
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
                    self.apply_with(msg, &mut clean)?;
                }
            }
            NormalizationOutcome::Ignored { reason } => {
                let reason = self
                    .redactor
                    .redact(reason.to_string(), &mut RedactionCounts::default());
                *self.tally.ignored.entry((provider, reason)).or_insert(0) += 1;
            }
            NormalizationOutcome::Unrecognized { discriminator } => {
                let discriminator = self
                    .redactor
                    .redact(discriminator, &mut RedactionCounts::default());
                *self
                    .tally
                    .unrecognized
                    .entry((provider, adapter_name, discriminator))
                    .or_insert(0) += 1;
            }
        }
        Ok(())
    }

    pub(crate) fn apply(&mut self, msg: IngestMessage) -> Result<(), IngestError> {
        self.apply_with(msg, &mut CleanTexts::default())
    }

    /// [`RecordCtx::apply`], skipping texts of the same record already found clean.
    fn apply_with(
        &mut self,
        msg: IngestMessage,
        clean: &mut CleanTexts,
    ) -> Result<(), IngestError> {
        if let IngestMessage::Session(s) = &msg {
            if let Some(v) = &s.runtime_version {
                self.tally.runtime_version = Some(v.clone());
            }
        }
        if !self.options.exclude.is_empty() && self.excluded(&msg) {
            return Ok(());
        }
        let started = Instant::now();
        // Every message is redacted; what was found is counted for its session, if it has one.
        let mut sessionless = RedactionCounts::default();
        let counts = match message_session(&msg) {
            Some(session) => self.tally.redactions.entry(session).or_default(),
            None => &mut sessionless,
        };
        let mut msg = self.redactor.redact_with(msg, counts, clean);
        *self.redaction_time += started.elapsed();
        // Capped after redaction, so a secret is never split before it is recognized.
        msg.cap_texts(self.options.text_cap);
        self.writer.apply(&msg)?;
        Ok(())
    }
}

impl RecordCtx<'_, '_, '_> {
    /// Whether `msg` belongs to a session running in an excluded path (learned from its
    /// session message, which adapters send before the session's other messages).
    fn excluded(&mut self, msg: &IngestMessage) -> bool {
        if let IngestMessage::Session(s) = msg {
            let cwd = s.cwd.as_deref().unwrap_or("");
            if !cwd.is_empty() && fornax_live::config::is_excluded(&self.options.exclude, cwd) {
                self.tally.excluded.insert(s.id.clone());
            }
        }
        message_session(msg).is_some_and(|s| self.tally.excluded.contains(&s))
    }
}

/// `FORNAX_FAIL_AFTER_RECORDS=N`: the process aborts, as if killed, right after the N-th record
/// of the process is staged (its source's transaction is then rolled back, and the sources
/// committed before it stay). Crash tests use it to stop ingestion at a chosen point.
mod failpoint {
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::OnceLock;

    fn limit() -> Option<u64> {
        static LIMIT: OnceLock<Option<u64>> = OnceLock::new();
        *LIMIT.get_or_init(|| {
            std::env::var("FORNAX_FAIL_AFTER_RECORDS")
                .ok()
                .and_then(|v| v.trim().parse().ok())
                .filter(|n| *n > 0)
        })
    }

    pub(super) fn record_staged() {
        static STAGED: AtomicU64 = AtomicU64::new(0);
        if let Some(n) = limit() {
            if STAGED.fetch_add(1, Ordering::SeqCst) + 1 >= n {
                std::process::abort();
            }
        }
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
