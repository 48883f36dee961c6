//! Re-checks: runs Fornax performed itself, stored on their own beside the findings.
//!
//! Storing a re-check writes its row and its run's evidence in one transaction and judges
//! nothing: a finding keeps the verdict its claim had when it was made. The evidence is
//! stamped with the moment the run ended, so verification later lets only claims made after
//! it rest on it.

use fornax_redact::Redacted;
use fornax_types::{Evidence, Recheck, SessionRef};
use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use crate::write::write_evidence;
use crate::{Store, StoreError};

/// A stored re-check, as the commands show it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RecheckRow {
    pub capability_id: String,
    pub trigger: String,
    pub started_at: String,
    pub finished_at: String,
    /// `passes`, `fails` or `could_not_run`.
    pub outcome: String,
    pub summary: String,
    pub subjects: Vec<String>,
    pub trust_class: String,
    pub manifest_hash: Option<String>,
    pub evidence: Vec<String>,
}

impl RecheckRow {
    /// Whether this re-check speaks to a claim of `subject` made at `claim_at`: it names that
    /// subject and ran after the claim (compared to the second; an unknown time counts).
    pub fn speaks_to(&self, subject: &str, claim_at: Option<&str>) -> bool {
        let second = |t: &str| t.get(..19).map(str::to_string);
        self.subjects.iter().any(|s| s == subject)
            && claim_at
                .and_then(second)
                .zip(second(&self.finished_at))
                .is_none_or(|(claim, run)| run >= claim)
    }
}

impl Store {
    fn session_id_of(&self, s: &SessionRef) -> Result<i64, StoreError> {
        self.conn
            .query_row(
                "SELECT id FROM session WHERE provider = ?1 AND native_id = ?2",
                params![s.provider.as_str(), s.native_id],
                |r| r.get(0),
            )
            .optional()?
            .ok_or_else(|| StoreError::NoSuchSession(s.native_id.clone()))
    }

    /// Stores a re-check and its run's evidence in one transaction. Judges nothing.
    pub fn add_recheck(
        &mut self,
        recheck: &Redacted<Recheck>,
        evidence: &[Redacted<Evidence>],
    ) -> Result<i64, StoreError> {
        let sid = self.session_id_of(&recheck.session)?;
        let subjects = serde_json::to_string(&recheck.subjects)
            .map_err(|e| StoreError::json("recheck subjects", e))?;
        let evidence_ids = serde_json::to_string(&recheck.evidence)
            .map_err(|e| StoreError::json("recheck evidence", e))?;
        let trust = serde_json::to_value(recheck.trust_class)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default();
        let tx = self.conn.transaction()?;
        self.packs.sync(&tx, &self.dicts, false)?;
        for e in evidence {
            write_evidence(&tx, &mut self.packs, sid, e, false, None)?;
        }
        tx.execute(
            "INSERT INTO recheck (session_id, capability_id, trigger, started_at, finished_at,
                 outcome, summary, subjects, trust_class, manifest_hash, evidence)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            params![
                sid,
                recheck.capability_id,
                recheck.trigger.as_str(),
                recheck.started_at,
                recheck.finished_at,
                recheck.outcome.as_str(),
                recheck.summary,
                subjects,
                trust,
                recheck.manifest_hash,
                evidence_ids
            ],
        )?;
        let id = tx.last_insert_rowid();
        tx.commit()?;
        Ok(id)
    }

    /// The re-checks of a session and of the sessions delegated from it, oldest first.
    pub fn rechecks(&self, session_id: i64) -> Result<Vec<RecheckRow>, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT capability_id, trigger, started_at, finished_at, outcome, summary, subjects,
                    trust_class, manifest_hash, evidence
             FROM recheck
             WHERE session_id = ?1 OR session_id IN (
                 SELECT c.id FROM session p JOIN session c
                   ON c.provider = p.provider AND c.parent_native_id = p.native_id
                 WHERE p.id = ?1)
                OR session_id = (SELECT p.id FROM session c JOIN session p
                   ON p.provider = c.provider AND p.native_id = c.parent_native_id
                 WHERE c.id = ?1)
             ORDER BY finished_at, id",
        )?;
        let rows = stmt.query_map([session_id], |r| {
            Ok((
                RecheckRow {
                    capability_id: r.get(0)?,
                    trigger: r.get(1)?,
                    started_at: r.get(2)?,
                    finished_at: r.get(3)?,
                    outcome: r.get(4)?,
                    summary: r.get(5)?,
                    subjects: Vec::new(),
                    trust_class: r.get(7)?,
                    manifest_hash: r.get(8)?,
                    evidence: Vec::new(),
                },
                r.get::<_, String>(6)?,
                r.get::<_, String>(9)?,
            ))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (mut row, subjects, evidence) = row?;
            row.subjects = serde_json::from_str(&subjects).unwrap_or_default();
            row.evidence = serde_json::from_str(&evidence).unwrap_or_default();
            out.push(row);
        }
        Ok(out)
    }
}
