//! The conformance suite: properties every [`AgentAdapter`] must satisfy, and the golden-fixture
//! harness that replays native payloads through an adapter.
//!
//! The contract is written down in `docs/specs/adapter.md`; this crate checks it. Adapters use
//! it from their own tests (`[dev-dependencies]`):
//!
//! ```ignore
//! let report = fornax_adapter_conformance::check_adapter(|| MyAdapter::default(), &natives);
//! report.assert_ok();
//! ```
//!
//! # Invariants
//!
//! * Test-only: no production crate may depend on this one (the workspace tidy test checks it).
//! * Generic: it names no concrete adapter and no provider-specific field.

mod fixtures;
mod golden;
mod properties;
mod tree;

pub use fixtures::{load_fixtures, replay, shared_dir, Fixture, FixtureError, Replay, ReplayStep};
pub use golden::{check_checkpoint_resume, check_recognition, golden_fixtures};
pub use properties::{check_adapter, check_robustness, Report, Violation};
pub use tree::check_document_tree;
