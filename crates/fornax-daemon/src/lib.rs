//! The live path: one daemon per `FORNAX_HOME`.
//!
//! Hooks and the opencode plugin append payloads to the spool and poke the daemon; the daemon
//! ingests the spool and the agents' files as they change (inotify through `notify`, with a
//! polling fallback), so findings are computed while the agent works. A burst of hook events
//! is ingested in one pass over the spool alone, so the daemon does not compete with every
//! hook of the burst. It answers the typed requests of `fornax_live::protocol` on a Unix
//! socket: status, flush, shutdown (with a report of what it stored and what remains),
//! intervention (`decide`) and a scan's pass run on behalf of `fornax scan`.
//!
//! # Invariants
//!
//! * One instance per home (an exclusive lock); a stale socket is replaced.
//! * One writer per store: the worker takes the store-writer lock for each pass and releases
//!   it after, so other writers (a scan without a daemon, re-checks, capability runs) wait at
//!   most one pass. While another writer holds it, or the store cannot be opened, the worker
//!   retries (with back-off when opening fails) and `status` says why; it never reports
//!   ingesting while it cannot write.
//! * The socket and every file it writes are private to the user (0600).
//! * Ingestion goes through the same pipeline as `fornax scan`; the daemon keeps no state that
//!   the store does not (a restart resumes from the stored cursors).
//! * A connection's failure (malformed frame, panic, a client that never writes or never
//!   reads) affects only that connection: a request must arrive within a second of
//!   connecting, an answer line must be written within five, and at most 64 connections are
//!   served at once (the next ones are told the daemon is busy and retry).
//! * Never prints: it logs structured lines to `daemon.log` in the home, never payload text.

mod decide;
mod server;

pub use decide::{decide_stop, Decision, Stop};
pub use server::{run, DaemonConfig, DaemonError};
