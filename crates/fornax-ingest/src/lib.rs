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
//! * One source, one transaction (data and cursor together).
//! * Names no concrete adapter: adapters arrive as [`fornax_types::AdapterDescriptor`]s.

pub mod clock;
mod discover;
pub mod frame;
pub mod order;
mod pipeline;
pub mod spool;
mod summary;
mod verification;

pub use discover::discover;
pub use pipeline::{
    verify_sessions, IngestError, IngestOptions, Ingestor, Progress, Registry, VerifyOutcome,
    SPOOL_ADAPTER,
};
pub use summary::{FileError, ScanSummary, SourceCounts};
