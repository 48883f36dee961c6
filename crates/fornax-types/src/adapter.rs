//! The provider-adapter boundary (ADR 0004 as implemented here, see
//! `docs/adr/0002-adapter-contract.md`).

use crate::{IngestMessage, Provider, RecordRef, RuntimeCapabilities, SourceKind};

/// Declares, conservatively, what an adapter's transport can observe.
pub trait CapabilityProbe {
    /// Never `Available` for a signal not confirmed against a real payload.
    fn probe(&self) -> RuntimeCapabilities;
}

/// One native record handed to an adapter: its parsed JSON and the reference that items derived
/// from it must cite.
#[derive(Debug, Clone, Copy)]
pub struct NativeRecord<'a> {
    pub record: &'a RecordRef,
    pub value: &'a serde_json::Value,
    /// Size of the record's bytes, for adapters that bound what they keep.
    pub byte_len: u64,
    /// Where the record sits inside a multi-document source: a document tree's path relative
    /// to its root (`part/msg_1/prt_2.json`) or a database row (`part/prt_2`). `None` for
    /// records framed from one file.
    pub member: Option<&'a str>,
    /// The path of the file the record was framed from (records of one file only), for what
    /// a runtime leaves to its layout, such as the parent session a folder names. An adapter
    /// reads it as text and never opens it.
    pub location: Option<&'a str>,
}

impl<'a> NativeRecord<'a> {
    pub fn new(record: &'a RecordRef, value: &'a serde_json::Value) -> Self {
        NativeRecord {
            record,
            value,
            byte_len: 0,
            member: None,
            location: None,
        }
    }

    /// The same record framed from the file at `location`.
    pub fn at(mut self, location: &'a str) -> Self {
        self.location = Some(location);
        self
    }
}

/// What became of one native record.
#[derive(Debug, Clone, PartialEq)]
pub enum NormalizationOutcome {
    /// Canonical messages derived from the record (possibly none yet, while a pairing waits).
    Messages(Vec<IngestMessage>),
    /// A known shape deliberately not translated. `reason` is static text, never user data.
    Ignored { reason: &'static str },
    /// A shape this adapter does not know. `discriminator` is the shape's own type tag, never
    /// the payload.
    Unrecognized { discriminator: String },
}

impl NormalizationOutcome {
    pub fn messages(self) -> Vec<IngestMessage> {
        match self {
            NormalizationOutcome::Messages(m) => m,
            _ => Vec::new(),
        }
    }
}

/// Translates one provider's native records into canonical messages.
///
/// Contract (checked by `fornax-adapter-conformance`):
/// * `normalize` never panics and never fails: malformed input is expected input.
/// * Every message it emits is stamped with [`AgentAdapter::provider`].
/// * An unrecognized payload is never forwarded: only its discriminator is reported.
/// * State kept across records is bounded (pairing tables are capped).
pub trait AgentAdapter: CapabilityProbe {
    fn provider(&self) -> Provider;

    /// This implementation's version (not the runtime's).
    fn adapter_version(&self) -> &'static str;

    /// Normalizes one record. `session_hint` is what the caller knows of the session id (for
    /// example a transcript's file stem); ids found in the payload take precedence.
    fn normalize(&mut self, session_hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome;

    /// Called once the source has no more complete records for now. Returns messages that only
    /// the end of input decides (for example a loop still open). Default: nothing.
    fn finish(&mut self) -> Vec<IngestMessage> {
        Vec::new()
    }

    /// A snapshot of the adapter's cross-record state, so that normalizing can resume at a
    /// cursor without re-reading earlier records. `None` means "cannot resume": the caller must
    /// replay the source from its start.
    fn checkpoint(&self) -> Option<serde_json::Value> {
        None
    }

    /// Restores a snapshot taken by [`AgentAdapter::checkpoint`]. Returns `false` when the
    /// snapshot is not understood (the caller then replays from the start).
    fn resume(&mut self, _state: &serde_json::Value) -> bool {
        false
    }
}

/// How a file's bytes are framed into records.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Framing {
    /// One JSON value per line.
    JsonLines,
    /// The whole file is one JSON document.
    WholeFile,
    /// Plain text, one record per line (blank lines too: they separate paragraphs), each
    /// handed to the adapter as a JSON string. Only files directly inside a folder of this
    /// name are candidates, since plain text carries no signature a sniffer could trust alone.
    TextLines { folder: &'static str },
}

impl Framing {
    /// Whether a file at `path` (`/`-separated) can be framed this way at all.
    pub fn admits(&self, path: &str) -> bool {
        match self {
            Framing::TextLines { folder } => {
                let mut parts = path.rsplit(['/', '\\']);
                let _file = parts.next();
                parts.next() == Some(folder)
            }
            _ => true,
        }
    }
}

/// Registration of an adapter: how to recognize its files and how to create one.
///
/// The binary assembles the list of descriptors; core crates receive them and never name a
/// concrete adapter.
#[derive(Clone)]
pub struct AdapterDescriptor {
    /// Stable name, for example `claude-transcript` or `codex-rollout`.
    pub name: &'static str,
    pub provider: Provider,
    pub transport: SourceKind,
    pub framing: Framing,
    /// Recognizes a record of this format from its content (never from a file name). Called
    /// on the first few records of a file.
    pub sniff: fn(&serde_json::Value) -> bool,
    pub create: fn() -> Box<dyn AgentAdapter + Send>,
    /// Default locations, relative to the user's home directory.
    pub default_roots: &'static [&'static str],
    /// Which file names under a root are candidates (a cheap pre-filter, for example
    /// `.jsonl`); content still decides.
    pub file_suffixes: &'static [&'static str],
    /// For runtimes that keep a session as many small documents (or as rows of a database
    /// holding the same documents): how those are grouped and ordered into sources.
    pub tree: Option<DocumentTree>,
}

/// A runtime's store of small JSON documents, read as one ordered source per group (session).
///
/// Ingestion finds tree roots (directories holding every [`DocumentTree::root_marker`]
/// subdirectory) and databases (by [`DocumentDatabase::file_names`]), reads every document
/// once to [`place`](DocumentTree::place) it, asks [`plan`](DocumentTree::plan) for the groups,
/// then feeds each group's documents, in the planned order, to one adapter as one source. The
/// functions are pure: the adapter never does I/O.
#[derive(Clone, Copy)]
pub struct DocumentTree {
    /// A directory is a tree root when it holds every one of these subdirectories.
    pub root_marker: &'static [&'static str],
    /// The database form of the same documents, when the runtime has one.
    pub database: Option<&'static DocumentDatabase>,
    /// Places one document. `member` is its path relative to the tree root (`/`-separated) or,
    /// for a database row, `<table>/<key>`; `value` is its JSON when it parsed. `None`: the
    /// document belongs to no session (it is counted, not read further).
    pub place: fn(member: &str, value: Option<&serde_json::Value>) -> Option<TreeDoc>,
    /// Groups placed documents (indexes into the slice) into sources, each in reading order.
    pub plan: fn(&[TreeDoc]) -> Vec<TreeGroup>,
}

/// What [`DocumentTree::place`] learned about one document: enough to group and order it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TreeDoc {
    /// Adapter-defined kind, ordering documents of a group first by rank.
    pub rank: u8,
    /// The document's own id, when it has one.
    pub id: Option<String>,
    /// The group (session) the document names or its location implies, when known.
    pub group: Option<String>,
    /// The document this one belongs to (for example a part's message), when known.
    pub parent: Option<String>,
    /// Orders siblings of the same rank (adapter-defined; compared as bytes).
    pub sort_key: String,
}

/// One source planned from a tree: a group name (used as the session hint) and its members.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeGroup {
    pub name: String,
    /// Indexes into the placed documents, in reading order.
    pub members: Vec<usize>,
}

/// A database holding a runtime's documents, one row per document. Read only, through the
/// store; its schema is checked against this description before any row is read.
#[derive(Debug, Clone, Copy)]
pub struct DocumentDatabase {
    /// File names of the database (for example `opencode.db`).
    pub file_names: &'static [&'static str],
    /// The tables read; each must exist with its required columns.
    pub tables: &'static [DocumentTable],
}

/// How the rows of one table become JSON documents.
#[derive(Debug, Clone, Copy)]
pub struct DocumentTable {
    pub name: &'static str,
    /// The column identifying a row; a row's member name is `<table>/<key>`.
    pub key: &'static str,
    /// A column holding a JSON object that becomes the document's body, when there is one.
    pub body: Option<&'static str>,
    /// Columns copied into the document, as `(column, field)`; a dotted field (`time.created`)
    /// nests. Copied columns override body fields; NULL columns are left out.
    pub fields: &'static [(&'static str, &'static str)],
    /// Columns without which the table is not understood (besides `key` and `body`).
    pub required: &'static [&'static str],
}

impl std::fmt::Debug for DocumentTree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("DocumentTree")
            .field("root_marker", &self.root_marker)
            .field("database", &self.database)
            .finish()
    }
}

impl std::fmt::Debug for AdapterDescriptor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AdapterDescriptor")
            .field("name", &self.name)
            .field("provider", &self.provider)
            .field("transport", &self.transport)
            .field("framing", &self.framing)
            .finish()
    }
}
