//! Capabilities (the AXF adapter contract) for Fornax: manifests, the registry that loads them
//! from built-ins, the user's `FORNAX_HOME` and the workspace, toolspace mounts, type adapters
//! (`internal`, `cli`), provider adapters (built-in test-runner parsers and sandboxed Rhai
//! scripts), policies, lifecycle, scaffolding, doctor, the `fornax cap ...` command definitions
//! and the `fornax mcp` stdio server.
//!
//! The layout on disk and the resolution order are written down in this crate's `README.md`;
//! [`registry::Registry::resolve`] follows it exactly.
//!
//! # Invariants
//!
//! * Never runs a shell: the `cli` type adapter spawns `executionTarget.command` directly with
//!   an explicit argument vector, working directory and environment, under a timeout and an
//!   output cap.
//! * Never touches SQLite and never prints: Fornax's history is reached only through the
//!   [`History`] trait, and every command returns a [`CommandOutput`]: its JSON and a typed
//!   [`CapReport`] that the binary renders (this crate formats no text for a person).
//! * A manifest is loaded whole or not at all: invalid manifests are rejected with every problem
//!   listed, and duplicate ids reject every contender (no last-wins).
//! * Nothing is promoted automatically: only `cap promote|demote` rewrites a lifecycle state.
//! * Scaffolding never overwrites a file.
//! * User-written provider scripts get no file, network or process access of their own; they
//!   reach the provider only through the type adapter the context hands them, within bounded
//!   operations and time.
//! * Bad input (malformed manifests, garbage output from a provider) never panics.

pub mod adapters;
pub mod builtins;
pub mod commands;
pub mod doctor;
pub mod envelope;
pub mod error;
pub mod evidence;
pub mod exec;
pub mod history;
pub mod id;
pub mod layout;
pub mod lifecycle;
pub mod manifest;
pub mod mcp;
pub mod policy;
pub mod registry;
pub mod report;
pub mod scaffold;
pub mod schema;
pub mod testrunners;
pub mod time;
pub mod toolspace;
pub mod trust;

pub use commands::{execute, CapCommand, CapEnv, CommandOutput, InitCommand};
pub use doctor::{doctor, DoctorReport};
pub use envelope::Envelope;
pub use error::CapError;
pub use exec::{RunOptions, RunOutcome, Runtime};
pub use history::{EvidenceSink, History, HistoryFilter};
pub use id::{CapabilityId, Scope};
pub use layout::Layout;
pub use manifest::{CapabilityManifest, LifecycleState};
pub use mcp::{serve, serve_stdio};
pub use registry::Registry;
pub use report::CapReport;
