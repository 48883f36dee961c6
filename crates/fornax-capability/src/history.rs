//! The doors to Fornax's history and evidence store, implemented by the binary over the store.
//!
//! This crate never opens the store itself; it only calls these traits.

use std::path::Path;

use fornax_types::{Evidence, Recheck, SessionRef};
use serde_json::Value;

/// Read access to Fornax's indexed history, as JSON the caller can hand to an agent.
pub trait History: Send + Sync {
    /// Sessions matching `filter` (an object; the keys `provider`, `cwd`, `limit` are passed
    /// through from the caller as given).
    fn sessions(&self, filter: &Value) -> Result<Value, String>;
    /// One session with its detail. `id` is a native session id or `provider:native_id`.
    fn session(&self, id: &str) -> Result<Value, String>;
    /// Full-text search over the history.
    fn search(&self, text: &str, limit: usize) -> Result<Value, String>;
    /// Findings, for one session or for all.
    fn findings(&self, session: Option<&str>) -> Result<Value, String>;

    /// The session a user-given id (`provider:native_id` or a bare native id) names, if any.
    fn resolve_session(&self, id: &str) -> Result<Option<SessionRef>, String> {
        let _ = id;
        Ok(None)
    }

    /// The session that was working in `workspace` at `at` (RFC 3339), if exactly one was.
    /// Capability runs without `--session` are tied to it.
    fn session_at(&self, workspace: &Path, at: &str) -> Result<Option<SessionRef>, String> {
        let _ = (workspace, at);
        Ok(None)
    }
}

/// Where runs started outside the CLI (the MCP server) deliver what they observed.
pub trait EvidenceSink: Send + Sync {
    /// Stores a run's evidence and, when it is tied to a session, its re-check. Must judge
    /// nothing: no finding changes because of a run (claims made after it are judged with it
    /// when their session is next verified).
    fn record(&self, recheck: Option<&Recheck>, evidence: &[Evidence]) -> Result<(), String>;
}
