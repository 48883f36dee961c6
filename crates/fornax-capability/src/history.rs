//! The doors to Fornax's history and evidence store, implemented by the binary over the store.
//!
//! This crate never opens the store itself; it only calls these traits. Every listing is
//! paged (`offset`, `limit`) so that a caller can stay within a byte budget however large the
//! history is: no method returns something that grows with a session's size.

use std::path::Path;

use fornax_types::{Evidence, Item, Recheck, SessionRef};
use serde_json::Value;

/// What a listing is restricted to; `None` is "any".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HistoryFilter {
    /// A provider's wire name (`claude-code`, `codex`, ...).
    pub provider: Option<String>,
    /// Text contained in the session's working directory.
    pub project: Option<String>,
    /// An RFC 3339 lower bound on the listed time.
    pub since: Option<String>,
    /// A verdict wire name: sessions (and hits) with a current finding of it.
    pub verdict: Option<String>,
}

/// Read access to Fornax's indexed history, as JSON the caller can hand to an agent.
pub trait History: Send + Sync {
    /// Sessions matching `filter`, most recent first, `limit` of them from the `offset`-th.
    fn sessions(
        &self,
        filter: &HistoryFilter,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<Value>, String>;
    /// One session's summary (its row, loop count, item count under `item_count`), never its
    /// items. `id` is a native session id, `provider:native_id` or `latest`.
    fn session(&self, id: &str) -> Result<Value, String>;
    /// `limit` items of a session's timeline from the `offset`-th on.
    fn items(&self, id: &str, offset: usize, limit: usize) -> Result<Vec<Item>, String>;
    /// Full-text search over the history: `limit` hits from the `offset`-th.
    fn search(
        &self,
        text: &str,
        filter: &HistoryFilter,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<Value>, String>;
    /// Current findings, for one session (and its subagents) or for all, most urgent first.
    /// Each carries its rationale as sentences under `reason`.
    fn findings(
        &self,
        session: Option<&str>,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<Value>, String>;

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
