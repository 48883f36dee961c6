//! Benchmark inputs for Fornax's criterion micro-benchmarks (`benches/`), and nothing else.
//!
//! The job of this crate is benchmarks only: it generates deterministic native records of
//! Claude Code transcripts, Codex rollouts and Pi sessions, and agent texts with claims, so
//! that the hot paths (record framing, each adapter's `normalize`, claim extraction) can be
//! measured without reading any file.
//!
//! # Invariants
//!
//! * Deterministic: the same seed always yields the same bytes (no clock, no environment).
//! * Invented content only: no sample of a real agent's output is embedded.
//! * Never prints and never panics; no production crate depends on it (`publish = false`).

mod records;
mod rng;
mod texts;

pub use records::{claude_session, codex_rollout, pi_session, split_lines};
pub use rng::Rng;
pub use texts::{agent_items, agent_texts};
