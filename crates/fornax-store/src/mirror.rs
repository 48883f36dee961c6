//! Reads for mirroring the store elsewhere (a team database): rows after a watermark, in the
//! order they were written.
//!
//! The watermarks are row ids of append-ordered tables: an item, a finding row and a session
//! each get a larger id than any written before them. Sessions and loops change in place, so a
//! mirror re-reads the sessions touched by the new items and findings (and new sessions).

use rusqlite::params;
use serde::Serialize;

use crate::read::LoopRow;
use crate::{Store, StoreError};

/// One item as a mirror keeps it: its identity, place and kind, and its text only when asked.
#[derive(Debug, Clone, Serialize)]
pub struct MirrorItem {
    /// Local row id (the watermark).
    pub id: i64,
    pub session_id: i64,
    pub provider: String,
    pub session_native_id: String,
    pub key: String,
    pub loop_position: Option<i64>,
    pub at: Option<String>,
    pub role: String,
    pub kind: String,
    pub tool_name: Option<String>,
    pub call_id: Option<String>,
    pub exit_code: Option<i64>,
    pub failed: Option<bool>,
    /// The item's primary text (already redacted), when texts were requested.
    pub text: Option<String>,
}

/// One finding row (findings are append-only; the latest per claim is current).
#[derive(Debug, Clone, Serialize)]
pub struct MirrorFinding {
    /// Local row id (the watermark).
    pub id: i64,
    pub session_id: i64,
    pub provider: String,
    pub session_native_id: String,
    pub claim_key: String,
    pub item_key: Option<String>,
    pub loop_position: Option<i64>,
    pub subject: Option<String>,
    pub claim: Option<String>,
    pub at: Option<String>,
    pub verdict: String,
    pub rationale: String,
    /// Evidence ids as stored (a JSON array of strings).
    pub evidence: Vec<String>,
    pub rule: String,
    pub computed_at: String,
}

impl Store {
    /// Items with a row id above `after`, oldest first, at most `limit`.
    pub fn mirror_items_after(
        &self,
        after: i64,
        limit: usize,
        texts: bool,
    ) -> Result<Vec<MirrorItem>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT item.id, item.session_id, s.provider, s.native_id, item.key, item.loop_position,
                    item.at, item.role, item.kind, item.tool_name, item.call_id, item.exit_code,
                    item.failed, CASE WHEN ?3 THEN text.body END
             FROM item JOIN session s ON s.id = item.session_id
             LEFT JOIN text ON text.id = item.text_id
             WHERE item.id > ?1 ORDER BY item.id LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![after, limit as i64, texts], |r| {
            Ok(MirrorItem {
                id: r.get(0)?,
                session_id: r.get(1)?,
                provider: r.get(2)?,
                session_native_id: r.get(3)?,
                key: r.get(4)?,
                loop_position: r.get(5)?,
                at: r.get(6)?,
                role: r.get(7)?,
                kind: r.get(8)?,
                tool_name: r.get(9)?,
                call_id: r.get(10)?,
                exit_code: r.get(11)?,
                failed: r.get::<_, Option<i64>>(12)?.map(|f| f != 0),
                text: r.get(13)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Finding rows with a row id above `after`, oldest first, at most `limit`.
    pub fn mirror_findings_after(
        &self,
        after: i64,
        limit: usize,
    ) -> Result<Vec<MirrorFinding>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT f.id, f.session_id, s.provider, s.native_id, f.claim_key, c.item_key,
                    c.loop_position, c.subject, c.text, c.at, f.verdict, f.rationale, f.evidence,
                    f.rule, f.computed_at
             FROM finding f JOIN session s ON s.id = f.session_id
             LEFT JOIN claim c ON c.session_id = f.session_id AND c.claim_key = f.claim_key
             WHERE f.id > ?1 ORDER BY f.id LIMIT ?2",
        )?;
        let rows = stmt.query_map(params![after, limit as i64], |r| {
            let evidence: String = r.get(12)?;
            Ok(MirrorFinding {
                id: r.get(0)?,
                session_id: r.get(1)?,
                provider: r.get(2)?,
                session_native_id: r.get(3)?,
                claim_key: r.get(4)?,
                item_key: r.get(5)?,
                loop_position: r.get(6)?,
                subject: r.get(7)?,
                claim: r.get(8)?,
                at: r.get(9)?,
                verdict: r.get(10)?,
                rationale: r.get(11)?,
                evidence: serde_json::from_str(&evidence).unwrap_or_default(),
                rule: r.get(13)?,
                computed_at: r.get(14)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Row ids of sessions above `after` that have at least one item, oldest first.
    pub fn mirror_sessions_after(&self, after: i64) -> Result<Vec<i64>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT s.id FROM session s WHERE s.id > ?1
               AND EXISTS (SELECT 1 FROM item WHERE item.session_id = s.id) ORDER BY s.id",
        )?;
        let rows = stmt.query_map([after], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The largest row id of `item`, `finding` and `session` (0 for an empty table): what a
    /// mirror that is up to date has seen.
    pub fn mirror_high_water(&self) -> Result<(i64, i64, i64), StoreError> {
        Ok(self.conn.query_row(
            "SELECT (SELECT COALESCE(MAX(id), 0) FROM item),
                    (SELECT COALESCE(MAX(id), 0) FROM finding),
                    (SELECT COALESCE(MAX(id), 0) FROM session)",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?)
    }

    /// A session's loops in order.
    pub fn loops_of(&self, session_id: i64) -> Result<Vec<LoopRow>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT position, native_id, started_at, outcome, ended_at, model, input_tokens,
                    cached_input_tokens, output_tokens, reasoning_output_tokens, runtime_version
             FROM loop WHERE session_id = ?1 ORDER BY position",
        )?;
        let rows = stmt.query_map([session_id], |r| {
            Ok(LoopRow {
                position: r.get(0)?,
                native_id: r.get(1)?,
                started_at: r.get(2)?,
                outcome: r.get(3)?,
                ended_at: r.get(4)?,
                model: r.get(5)?,
                input_tokens: r.get(6)?,
                cached_input_tokens: r.get(7)?,
                output_tokens: r.get(8)?,
                reasoning_output_tokens: r.get(9)?,
                runtime_version: r.get(10)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
