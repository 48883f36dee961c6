//! The live write side of Fornax, small enough to start fast inside an agent's loop.
//!
//! A Claude Code hook is a new process per event, so its cost is mostly the cost of starting a
//! binary: mapping it, relocating it, faulting its pages in. This crate holds everything a hook
//! process runs, with a deliberately short dependency list, and builds the `fornax-hook` binary
//! from it; `fornax hook <agent>` calls the same [`guarded`] entry point.
//!
//! ```text
//! agent ─stdin─▶ guarded ─envelope─▶ spool::append (lock, fsync) ─▶ <home>/spool/events-DAY.ndjson
//!                   │                                                  (ingested by the daemon
//!                   └─▶ client::poke, or client::request("decide") ─▶    or `fornax scan`)
//! ```
//!
//! * [`spool`]: the spool's write side (envelope lines, file naming, locked appends);
//!   `fornax_ingest::spool` re-exports it and adds the read side.
//! * [`client`]: requests to the daemon on its Unix socket; `fornax_daemon` re-exports it.
//! * [`config`]: `config.toml`'s schema and the default home, shared with the `fornax` binary.
//! * [`clock`]: RFC 3339 timestamps; `fornax_ingest::clock` re-exports it.
//!
//! # Invariants
//!
//! * A hook never blocks or breaks the agent: it always exits 0, a watchdog ends a one-shot
//!   hook at [`HOOK_DEADLINE`], panics are caught, every failure is swallowed after a line in
//!   `<home>/hook.log`.
//! * Nothing on stdout, except Claude Code's block decision when intervention is on and the
//!   daemon asks for one, and the answer Cursor's hooks read (permissive, or a follow-up
//!   message at a `stop` when intervention is on and the daemon asks for one).
//! * The agent's payload bytes are kept as they are inside the envelope; the spool and socket
//!   wire formats are shared with the readers and must not change.
//! * Small dependency tree: serde, serde_json, thiserror, dirs, toml and nothing heavier (no
//!   SQLite, git, regex, async runtime or argument parser); a tidy test enforces it.

pub mod client;
pub mod clock;
pub mod config;
mod hook;
pub mod spool;

pub use config::default_home;
pub use hook::{
    create_private_dir, cursor_permissive_answer, guarded, guarded_event, Agent, HOOK_DEADLINE,
    MAX_PAYLOAD,
};
