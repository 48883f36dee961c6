//! The live protocol of Fornax: what hooks, the daemon and the `fornax` binary say to each
//! other, and where they say it.
//!
//! ```text
//! agent ─stdin─▶ hook::guarded ─envelope─▶ spool::append (lock, fsync) ─▶ <home>/spool/events-DAY.ndjson
//!                     │                                                     (read back by spool::read_line
//!                     └─▶ client::poke, or client::request(Request::Decide) ─▶   in `fornax scan` or the daemon)
//!                                       ▲
//!          fornax scan / daemon stop ───┘  (Request::Scan, Request::Shutdown, …; protocol)
//! ```
//!
//! * [`spool`]: the spool's format, both sides: segment names, the per-segment header, envelope
//!   lines, locked appends, and reading a line back (with [`json`]'s repair of lone surrogate
//!   escapes).
//! * [`protocol`]: the daemon socket's typed requests and responses, one JSON line each way;
//!   [`client`] sends them.
//! * [`home`]: the files of a `FORNAX_HOME`; [`config`]: `config.toml`'s schema.
//! * [`clock`]: RFC 3339 timestamps; [`summary`]: what a scan reports (carried over the socket
//!   when the daemon runs a scan's pass).
//! * [`hook`]: the hook entry points, which the `fornax-hook` binary and `fornax hook` call;
//!   [`autostart`]: how a hook that finds no daemon starts one.
//!
//! # Invariants
//!
//! * A leaf crate with a short dependency list (serde, serde_json, thiserror, dirs, toml; a
//!   tidy test checks it): it is loaded by every hook process, so no SQLite, git, regex, async
//!   runtime or argument parser.
//! * One definition of every wire format: the spool's envelope and the socket's messages are
//!   written and read through the types here, never as string literals elsewhere.
//! * A hook never blocks or breaks the agent: it always exits 0, a watchdog ends a one-shot
//!   hook at [`hook::HOOK_DEADLINE`], panics are caught, every failure is swallowed after a line
//!   in `hook.log` that never holds payload text.
//! * No payload can break the spool's framing: the hook replaces raw CR and LF bytes (in valid
//!   JSON they can only be whitespace between tokens) and keeps every other byte.

pub mod autostart;
pub mod client;
pub mod clock;
pub mod config;
pub mod home;
pub mod hook;
pub mod json;
pub mod protocol;
pub mod spool;
pub mod summary;

pub use home::{create_private_dir, default_home, Home};
