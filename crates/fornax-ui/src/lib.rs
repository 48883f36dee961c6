//! `fornax-ui`: how Fornax shows things to people.
//!
//! * [`present`] — pure presentation shared by the terminal and the web: verdict order and
//!   marks, session titles, relative local times, wrapping, the words of a rationale, and the
//!   parsing of the filters people type (`--since 2d`, `--verdict contradicted`).
//! * [`env`] — the clock and time zone from the environment (`FORNAX_NOW`, `TZ`), read once at
//!   the edge.
//!
//! # Invariants
//!
//! * Reads the store only through `fornax-store`'s read API, the one the CLI uses; never
//!   opens it for writing and never writes anything else of the user's but its own token.
//! * [`present`] does no I/O and reads no clock: the same inputs give the same text.

pub mod env;
pub mod present;
pub mod server;
