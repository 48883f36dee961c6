//! Ingestion: discovery, record framing, cursors, the spool, and the pipeline that drives
//! adapters, the redaction boundary, the store and verification.
//!
//! ```text
//! file ─frame─▶ record (range, BLAKE3) ─adapter─▶ canonical messages ─redact─▶ store
//!                                                                         └──▶ verify ─▶ findings
//! ```
//!
//! # Invariants
//!
//! * Never prints: progress goes through [`Progress`], results through [`ScanSummary`].
//! * Memory is bounded by the largest record, not the largest file: files are streamed line by
//!   line with a record-size limit.
//! * Every text-bearing field passes the redaction boundary exactly once, before the store.
//! * One source, one transaction (data and cursor together, and the sessions it touched marked
//!   as owed a judgement).
//! * Verification reads a session family once and writes it once; every pass judges what it
//!   touched and whatever an earlier pass left owed.
//! * A document tree or a foreign database is one source per group (session) its adapter
//!   plans; documents are read twice (place, then ingest) and never held all at once.
//! * Names no concrete adapter: adapters arrive as [`fornax_types::AdapterDescriptor`]s.

mod discover;
mod file;
mod fingerprint;
mod forget;
pub mod frame;
pub mod order;
mod pipeline;
mod reindex;
mod retention;
pub mod spool;
mod tree;
mod verification;

pub use discover::{discover, discover_paths, Discovery};
pub use forget::{forget_in_spool, ArchiveEraser, SpoolForgotten};
/// Wall-clock timestamps; shared with the hook, which writes them into spool envelopes.
pub use fornax_live::clock;
/// What a scan reports; shared with the daemon's socket, which carries it.
pub use fornax_live::summary::{FileError, ScanSummary, SkippedFile, SourceCounts};
pub use pipeline::{
    verify_sessions, IngestError, IngestOptions, Ingestor, Progress, Registry, VerifyOutcome,
    SPOOL_ADAPTER,
};
pub use reindex::{ReindexError, Reindexed};
pub use retention::{NoArchive, Retired, SegmentArchive};
