//! The live path: one daemon per `FORNAX_HOME`.
//!
//! Hooks and the opencode plugin append payloads to the spool (see `fornax_ingest::spool`) and
//! poke the daemon (the client side, [`poke`] and [`request`], lives in `fornax_hook::client`
//! so the hook binary stays small, and is re-exported here); the daemon ingests the spool and
//! the agents' files as they change (inotify through `notify`, with a polling fallback), so
//! findings are computed while the agent works. A burst of hook events is ingested in one pass
//! over the spool alone, so the daemon does not compete with every hook of the burst.
//! It answers status, flush, status-line and intervention requests on a Unix socket.
//!
//! # Invariants
//!
//! * One instance per home (an exclusive lock); a stale socket is replaced.
//! * The socket and every file it writes are private to the user (0600).
//! * Ingestion goes through the same pipeline as `fornax scan`; the daemon keeps no state that
//!   the store does not (a restart resumes from the stored cursors).
//! * A connection's failure (malformed frame, panic) affects only that connection.
//! * Never prints: it logs structured lines to `daemon.log` in the home.

mod decide;
mod server;

pub use decide::{decide_stop, Decision};
pub use fornax_hook::client::{poke, request, socket_path, ClientError};
pub use server::{run, DaemonConfig, DaemonError};
