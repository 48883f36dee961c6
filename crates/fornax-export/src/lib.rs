//! Ways out of the store: OpenTelemetry traces ([`otlp`]), a PostgreSQL mirror for a team
//! (`postgres`, with the `postgres` feature), and files people share ([`files`]: Markdown, one self-contained HTML page,
//! canonical JSONL with a versioned JSON Schema).
//!
//! # Invariants
//!
//! * Reads the store only through `fornax-store`'s read API; never touches SQLite itself. No
//!   adapter or verifier depends on this crate: data flows out of the store, never back in.
//! * Everything it sends was redacted before it was stored; it adds nothing the store does not
//!   hold except the labels (machine, user) the caller gives.
//! * Idempotent: trace and span ids derive from native ids, and mirror rows are keyed by
//!   (machine, provider, native id), so sending the same data twice duplicates nothing.
//! * Never prints: it returns reports, the CLI renders them.

pub mod error;
pub mod files;
pub mod model;
pub mod otlp;
#[cfg(feature = "postgres")]
pub mod postgres;

pub use error::ExportError;
pub use model::{load_session, SessionExport};
