//! Reads for listings and pages: one filter shared by sessions, findings and search; pages
//! of a session's timeline; a finding's evidence and records; what changed since last time.

use std::collections::BTreeMap;

use fornax_types::{Evidence, Item};
use rusqlite::types::Value;
use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use crate::read::{FindingRow, LoopRow, RecordLocation, SessionRow};
use crate::{Store, StoreError};

/// The session alias for the session with the most recent activity.
pub const LATEST: &str = "latest";

/// The time a session is listed and filtered by: its last activity, else its start. A value
/// that is not a time (a fixture's placeholder, a runtime's garbage) counts as no time.
const SESSION_TIME: &str =
    "COALESCE(CASE WHEN s.last_activity GLOB '[0-9]*' THEN s.last_activity END,
                                     CASE WHEN s.created_at GLOB '[0-9]*' THEN s.created_at END)";

/// The time a finding is sorted and filtered by: when the claim was made.
const FINDING_TIME: &str = "COALESCE(CASE WHEN c.at GLOB '[0-9]*' THEN c.at END,
                                     CASE WHEN s.last_activity GLOB '[0-9]*' THEN s.last_activity END,
                                     CASE WHEN s.created_at GLOB '[0-9]*' THEN s.created_at END)";

/// What a listing is restricted to. The same fields mean the same thing for sessions,
/// findings and search hits; every `None` or empty field is "any".
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ListFilter {
    /// A provider's wire name.
    pub provider: Option<String>,
    /// Text contained in the session's working directory.
    pub project: Option<String>,
    /// Inclusive lower bound on the listed time, in the stored form (`…T08:00:20.000Z`).
    pub since: Option<String>,
    /// Exclusive upper bound on the listed time.
    pub until: Option<String>,
    /// Verdict wire names: of the finding itself for findings, and "has a current finding
    /// of one of these" for sessions and search hits.
    pub verdicts: Vec<String>,
}

/// Whether a verdict filter applies to a finding row or to its session.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum VerdictOn {
    Finding,
    Session,
}

/// The order of a findings listing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FindingOrder {
    /// By session, then claim, oldest first (the order claims were extracted in).
    Claim,
    /// Most urgent verdict first (CONTRADICTED, REVIEW, UNVERIFIED, UNAVAILABLE, VERIFIED),
    /// then the newest claim first.
    Severity,
    /// The most recently judged first (a live view's order: a verdict that just changed
    /// comes first).
    Judged,
}

impl ListFilter {
    pub fn is_empty(&self) -> bool {
        *self == ListFilter::default()
    }

    /// SQL conditions (each starting with ` AND`) over `s` (session) and `time`, binding
    /// their values after those already in `args`.
    pub(crate) fn conditions(
        &self,
        time: &str,
        verdict_on: VerdictOn,
        args: &mut Vec<Value>,
    ) -> String {
        let mut sql = String::new();
        let bind = |args: &mut Vec<Value>, v: String| {
            args.push(v.into());
            args.len()
        };
        if let Some(p) = &self.provider {
            let n = bind(args, p.clone());
            sql.push_str(&format!(" AND s.provider = ?{n}"));
        }
        if let Some(p) = &self.project {
            let n = bind(args, p.clone());
            sql.push_str(&format!(" AND instr(COALESCE(s.cwd, ''), ?{n}) > 0"));
        }
        if let Some(t) = &self.since {
            let n = bind(args, t.clone());
            sql.push_str(&format!(" AND COALESCE({time}, '') >= ?{n}"));
        }
        if let Some(t) = &self.until {
            let n = bind(args, t.clone());
            sql.push_str(&format!(" AND COALESCE({time}, '') < ?{n}"));
        }
        if !self.verdicts.is_empty() {
            let marks: Vec<String> = self
                .verdicts
                .iter()
                .map(|v| format!("?{}", bind(args, v.to_ascii_uppercase())))
                .collect();
            let list = marks.join(", ");
            match verdict_on {
                VerdictOn::Finding => sql.push_str(&format!(" AND f.verdict IN ({list})")),
                VerdictOn::Session => sql.push_str(&format!(
                    " AND EXISTS (SELECT 1 FROM current_finding cf
                                  WHERE cf.session_id = s.id AND cf.verdict IN ({list}))"
                )),
            }
        }
        sql
    }
}

/// A subagent session of a session, for nesting its timeline under the call that started it.
#[derive(Debug, Clone, Serialize)]
pub struct ChildSession {
    pub id: i64,
    pub native_id: String,
    pub parent_call_id: Option<String>,
    pub agent_id: Option<String>,
    pub agent_type: Option<String>,
    pub items: i64,
}

/// A piece of evidence as stored, with whether verification derived it.
#[derive(Debug, Clone, Serialize)]
pub struct StoredEvidence {
    /// The session row it is stored under.
    pub session_id: i64,
    pub evidence: Evidence,
    /// Derived by verification from items (rather than written by an adapter or a run).
    pub derived: bool,
}

/// Marks that move whenever something is added: compare two to know whether to refresh.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct ChangeMarker {
    pub last_item: i64,
    pub last_finding: i64,
    pub sessions: i64,
}

/// Sessions and current verdicts of one working directory of one provider.
#[derive(Debug, Clone, Serialize)]
pub struct ProjectStat {
    pub provider: String,
    pub cwd: Option<String>,
    pub sessions: i64,
    pub last_activity: Option<String>,
    pub verdicts: BTreeMap<String, i64>,
}

/// Sessions of a provider whose last activity fell in one hour (`2026-03-14T08`, UTC).
#[derive(Debug, Clone, Serialize)]
pub struct ActivityRow {
    pub hour: String,
    pub provider: String,
    pub sessions: i64,
}

impl Store {
    /// Sessions (with items) matching `filter`, most recent activity first.
    /// `limit` 0 lists them all.
    pub fn list_sessions_in(
        &self,
        filter: &ListFilter,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<SessionRow>, StoreError> {
        let mut args = Vec::new();
        let conditions = filter.conditions(SESSION_TIME, VerdictOn::Session, &mut args);
        let mut sql = format!(
            "SELECT s.id FROM session s
             WHERE EXISTS (SELECT 1 FROM item WHERE item.session_id = s.id){conditions}
             ORDER BY COALESCE({SESSION_TIME}, '') DESC, s.id DESC"
        );
        push_limit(&mut sql, limit, offset);
        let ids: Vec<i64> = self
            .conn
            .prepare(&sql)?
            .query_map(rusqlite::params_from_iter(args.iter()), |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        ids.into_iter().map(|id| self.session_row(id)).collect()
    }

    /// How many sessions [`Store::list_sessions_in`] would list without a limit.
    pub fn count_sessions_in(&self, filter: &ListFilter) -> Result<usize, StoreError> {
        let mut args = Vec::new();
        let conditions = filter.conditions(SESSION_TIME, VerdictOn::Session, &mut args);
        let n: i64 = self.conn.query_row(
            &format!(
                "SELECT COUNT(*) FROM session s
                 WHERE EXISTS (SELECT 1 FROM item WHERE item.session_id = s.id){conditions}"
            ),
            rusqlite::params_from_iter(args.iter()),
            |r| r.get(0),
        )?;
        Ok(usize::try_from(n).unwrap_or(0))
    }

    /// Current findings matching `filter` (and, with `session`, of that session and its
    /// subagents), in `order`; `limit` 0 lists them all.
    pub fn findings_in(
        &self,
        filter: &ListFilter,
        session: Option<i64>,
        order: FindingOrder,
        limit: usize,
    ) -> Result<Vec<FindingRow>, StoreError> {
        self.findings_page(filter, session, order, limit, 0)
    }

    /// [`Store::findings_in`] from the `offset`-th finding on.
    pub fn findings_page(
        &self,
        filter: &ListFilter,
        session: Option<i64>,
        order: FindingOrder,
        limit: usize,
        offset: usize,
    ) -> Result<Vec<FindingRow>, StoreError> {
        let mut args = Vec::new();
        let conditions = finding_conditions(filter, session, &mut args);
        let mut tail = match order {
            FindingOrder::Claim => "ORDER BY s.id, c.id".to_string(),
            FindingOrder::Severity => format!(
                "ORDER BY CASE f.verdict WHEN 'CONTRADICTED' THEN 0 WHEN 'REVIEW' THEN 1
                                         WHEN 'UNVERIFIED' THEN 2 WHEN 'UNAVAILABLE' THEN 3
                                         WHEN 'VERIFIED' THEN 4 ELSE 5 END,
                          COALESCE({FINDING_TIME}, '') DESC, s.id DESC, c.id DESC"
            ),
            FindingOrder::Judged => "ORDER BY f.id DESC".to_string(),
        };
        push_limit(&mut tail, limit, offset);
        self.finding_rows(&conditions, &args, &tail)
    }

    /// Current verdict counts of the findings [`Store::findings_in`] would list.
    pub fn finding_counts_in(
        &self,
        filter: &ListFilter,
        session: Option<i64>,
    ) -> Result<BTreeMap<String, i64>, StoreError> {
        let mut args = Vec::new();
        let conditions = finding_conditions(filter, session, &mut args);
        let mut stmt = self.conn.prepare(&format!(
            "SELECT f.verdict, COUNT(*) FROM current_finding f
             JOIN claim c ON c.session_id = f.session_id AND c.claim_key = f.claim_key
             JOIN session s ON s.id = f.session_id WHERE 1 = 1{conditions}
             GROUP BY f.verdict"
        ))?;
        let rows = stmt.query_map(rusqlite::params_from_iter(args.iter()), |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// The root session (not a subagent's) with the most recent activity.
    pub fn latest_session(&self) -> Result<Option<i64>, StoreError> {
        Ok(self
            .conn
            .query_row(
                &format!(
                    "SELECT s.id FROM session s
                     WHERE s.parent_native_id IS NULL
                       AND EXISTS (SELECT 1 FROM item WHERE item.session_id = s.id)
                     ORDER BY COALESCE({SESSION_TIME}, '') DESC, s.id DESC LIMIT 1"
                ),
                [],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// `limit` items of a session's timeline from the `offset`-th on, with their texts.
    pub fn session_items(
        &self,
        session_id: i64,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<Item>, StoreError> {
        let sref = self.session_ref(session_id)?;
        let offset = i64::try_from(offset).unwrap_or(i64::MAX);
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        Ok(self.items_range(session_id, &sref, false, offset, limit)?.0)
    }

    /// A session's loops, in order.
    pub fn loops(&self, session_id: i64) -> Result<Vec<LoopRow>, StoreError> {
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

    /// Where an item sits in its session's timeline (0-based), if the session has it.
    pub fn item_index(&self, session_id: i64, key: &str) -> Result<Option<usize>, StoreError> {
        let seq: Option<i64> = self
            .conn
            .prepare_cached("SELECT seq FROM item WHERE session_id = ?1 AND key = ?2")?
            .query_row(params![session_id, key], |r| r.get(0))
            .optional()?;
        let Some(seq) = seq else {
            return Ok(None);
        };
        let n: i64 = self
            .conn
            .prepare_cached("SELECT COUNT(*) FROM item WHERE session_id = ?1 AND seq < ?2")?
            .query_row(params![session_id, seq], |r| r.get(0))?;
        Ok(usize::try_from(n).ok())
    }

    /// The sessions delegated from a session (its subagents), in the order they were stored.
    pub fn children(&self, session_id: i64) -> Result<Vec<ChildSession>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT c.id, c.native_id, c.parent_call_id, c.agent_id, c.agent_type,
                    (SELECT COUNT(*) FROM item WHERE item.session_id = c.id)
             FROM session p JOIN session c
               ON c.provider = p.provider AND c.parent_native_id = p.native_id
             WHERE p.id = ?1 AND c.id != p.id ORDER BY c.id",
        )?;
        let rows = stmt.query_map([session_id], |r| {
            Ok(ChildSession {
                id: r.get(0)?,
                native_id: r.get(1)?,
                parent_call_id: r.get(2)?,
                agent_id: r.get(3)?,
                agent_type: r.get(4)?,
                items: r.get(5)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Whether a session has an item answering to tool-call id `call_id`.
    pub fn has_call(&self, session_id: i64, call_id: &str) -> Result<bool, StoreError> {
        Ok(self
            .conn
            .prepare_cached("SELECT 1 FROM item WHERE session_id = ?1 AND call_id = ?2 LIMIT 1")?
            .query_row(params![session_id, call_id], |_| Ok(()))
            .optional()?
            .is_some())
    }

    /// The parent session's row id of a subagent session, if it is stored.
    pub fn parent_of(&self, session_id: i64) -> Result<Option<i64>, StoreError> {
        Ok(self
            .conn
            .prepare_cached(
                "SELECT p.id FROM session s JOIN session p
                   ON p.provider = s.provider AND p.native_id = s.parent_native_id
                 WHERE s.id = ?1 AND p.id != s.id",
            )?
            .query_row([session_id], |r| r.get(0))
            .optional()?)
    }

    /// A piece of evidence a finding of `session_id` cites, looked up in the session's family
    /// (itself, its parent and its subagents), as findings cite it.
    pub fn evidence_for_finding(
        &self,
        session_id: i64,
        key: &str,
    ) -> Result<Option<StoredEvidence>, StoreError> {
        let row = self
            .conn
            .prepare_cached(
                "SELECT e.session_id, e.evidence_key, e.kind, e.payload, e.source, e.provenance,
                        e.item_key, e.loop_position, e.at, e.records, e.derived,
                        s.provider, s.native_id
                 FROM evidence e JOIN session s ON s.id = e.session_id
                 WHERE e.evidence_key = ?1
                   AND e.session_id IN (SELECT id FROM session WHERE id = ?2 OR parent_native_id =
                         (SELECT native_id FROM session WHERE id = ?2)
                         OR native_id = (SELECT parent_native_id FROM session WHERE id = ?2))
                 ORDER BY e.session_id = ?2 DESC LIMIT 1",
            )?
            .query_row(params![key, session_id], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    EvidenceColumns {
                        key: r.get(1)?,
                        kind: r.get(2)?,
                        payload: r.get(3)?,
                        source: r.get(4)?,
                        provenance: r.get(5)?,
                        item_key: r.get(6)?,
                        loop_position: r.get(7)?,
                        at: r.get(8)?,
                        records: r.get(9)?,
                    },
                    r.get::<_, bool>(10)?,
                    r.get::<_, String>(11)?,
                    r.get::<_, String>(12)?,
                ))
            })
            .optional()?;
        let Some((sid, columns, derived, provider, native_id)) = row else {
            return Ok(None);
        };
        let session =
            fornax_types::SessionRef::new(fornax_types::Provider::parse(&provider), native_id);
        Ok(Some(StoredEvidence {
            session_id: sid,
            evidence: columns.into_evidence(session)?,
            derived,
        }))
    }

    /// The stored record at `position` of the source `source_key`.
    pub fn record_at(
        &self,
        source_key: &str,
        position: u64,
    ) -> Result<Option<RecordLocation>, StoreError> {
        let id: Option<i64> = self
            .conn
            .prepare_cached(
                "SELECT r.id FROM record r JOIN source s ON s.id = r.source_id
                 WHERE s.source_key = ?1 AND r.position = ?2",
            )?
            .query_row(
                params![source_key, i64::try_from(position).unwrap_or(i64::MAX)],
                |r| r.get(0),
            )
            .optional()?;
        id.map(|id| self.record_location(id)).transpose()
    }

    /// Where the store is now; a later marker that differs means something was added.
    pub fn change_marker(&self) -> Result<ChangeMarker, StoreError> {
        Ok(self.conn.query_row(
            "SELECT (SELECT COALESCE(MAX(id), 0) FROM item),
                    (SELECT COALESCE(MAX(id), 0) FROM finding),
                    (SELECT COUNT(*) FROM session)",
            [],
            |r| {
                Ok(ChangeMarker {
                    last_item: r.get(0)?,
                    last_finding: r.get(1)?,
                    sessions: r.get(2)?,
                })
            },
        )?)
    }

    /// The providers that have sessions with items, in name order.
    pub fn providers(&self) -> Result<Vec<String>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT DISTINCT s.provider FROM session s
             WHERE EXISTS (SELECT 1 FROM item WHERE item.session_id = s.id) ORDER BY 1",
        )?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Sessions and current verdicts per provider and working directory.
    pub fn project_stats(&self) -> Result<Vec<ProjectStat>, StoreError> {
        let mut stats: BTreeMap<(String, Option<String>), ProjectStat> = BTreeMap::new();
        let mut stmt = self.conn.prepare(&format!(
            "SELECT s.provider, s.cwd, COUNT(*), MAX({SESSION_TIME}) FROM session s
             WHERE EXISTS (SELECT 1 FROM item WHERE item.session_id = s.id)
             GROUP BY s.provider, s.cwd"
        ))?;
        let rows = stmt.query_map([], |r| {
            Ok(ProjectStat {
                provider: r.get(0)?,
                cwd: r.get(1)?,
                sessions: r.get(2)?,
                last_activity: r.get(3)?,
                verdicts: BTreeMap::new(),
            })
        })?;
        for row in rows {
            let row = row?;
            stats.insert((row.provider.clone(), row.cwd.clone()), row);
        }
        let mut stmt = self.conn.prepare(
            "SELECT s.provider, s.cwd, f.verdict, COUNT(*) FROM current_finding f
             JOIN session s ON s.id = f.session_id GROUP BY s.provider, s.cwd, f.verdict",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, Option<String>>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, i64>(3)?,
            ))
        })?;
        for row in rows {
            let (provider, cwd, verdict, n) = row?;
            if let Some(stat) = stats.get_mut(&(provider, cwd)) {
                *stat.verdicts.entry(verdict).or_insert(0) += n;
            }
        }
        Ok(stats.into_values().collect())
    }

    /// Sessions per provider by the hour of their last activity, from `since` (stored form).
    pub fn activity(&self, since: &str) -> Result<Vec<ActivityRow>, StoreError> {
        let mut stmt = self.conn.prepare(&format!(
            "SELECT substr({SESSION_TIME}, 1, 13) AS hour, s.provider, COUNT(*) FROM session s
             WHERE {SESSION_TIME} >= ?1
               AND EXISTS (SELECT 1 FROM item WHERE item.session_id = s.id)
             GROUP BY hour, s.provider ORDER BY hour"
        ))?;
        let rows = stmt.query_map([since], |r| {
            Ok(ActivityRow {
                hour: r.get(0)?,
                provider: r.get(1)?,
                sessions: r.get(2)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}

fn finding_conditions(filter: &ListFilter, session: Option<i64>, args: &mut Vec<Value>) -> String {
    let mut sql = String::new();
    if let Some(sid) = session {
        args.push(sid.into());
        sql.push_str(&format!(
            " AND (f.session_id = ?{n} OR s.parent_native_id = (SELECT native_id FROM session WHERE id = ?{n}))",
            n = args.len()
        ));
    }
    sql.push_str(&filter.conditions(FINDING_TIME, VerdictOn::Finding, args));
    sql
}

fn push_limit(sql: &mut String, limit: usize, offset: usize) {
    if limit > 0 {
        sql.push_str(&format!(" LIMIT {limit} OFFSET {offset}"));
    }
}

/// An evidence row's columns, before parsing.
struct EvidenceColumns {
    key: String,
    kind: String,
    payload: String,
    source: String,
    provenance: String,
    item_key: Option<String>,
    loop_position: Option<u32>,
    at: Option<String>,
    records: Option<String>,
}

impl EvidenceColumns {
    fn into_evidence(self, session: fornax_types::SessionRef) -> Result<Evidence, StoreError> {
        let json = |what: &'static str| move |e| StoreError::json(what, e);
        let payload = fornax_types::EvidencePayload::from_parts(&self.kind, &self.payload)
            .map_err(|source| StoreError::EvidenceShape {
                key: self.key.clone(),
                source,
            })?;
        Ok(Evidence {
            id: self.key,
            session,
            payload,
            source: serde_json::from_str(&self.source).map_err(json("evidence source"))?,
            provenance: self.provenance,
            extension: None,
            item_key: self.item_key,
            loop_position: self.loop_position,
            at: self.at,
            records: self
                .records
                .and_then(|r| serde_json::from_str(&r).ok())
                .unwrap_or_default(),
        })
    }
}
