//! Reads for the commands, and the verification write-back.

use std::collections::{BTreeMap, HashMap};

use fornax_redact::Redacted;
use fornax_types::{
    Claim, ClaimActor, ClaimQuantity, ClaimScope, Evidence, EvidencePayload, Finding, Item,
    Provider, Reason, RecordRef, RuntimeCapabilities, Semantic, SemanticValue, SessionRef,
    SourceId, StoredReason,
};
use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use crate::write::{restore_primary_text, write_evidence};
use crate::{Store, StoreError};

/// Everything verification needs about one session family (a root session and its
/// subagent sessions), read in one go.
#[derive(Debug, Default)]
pub struct FamilyData {
    /// Row ids of the sessions in the family, root first.
    pub session_ids: Vec<i64>,
    /// Per session (in `session_ids` order), its reference and the session it was delegated
    /// from.
    pub members: Vec<(SessionRef, Option<SessionRef>)>,
    /// The root session's working directory, when it was recorded.
    pub root_cwd: Option<String>,
    /// Items per session, each in record order.
    pub items: Vec<Vec<Item>>,
    /// Per session, per item, the order in which the store received it (across sessions: a
    /// hook stream's events are received in firing order).
    pub item_seqs: Vec<Vec<i64>>,
    /// Evidence not derived by verification (adapter and host-observed evidence).
    pub evidence: Vec<Evidence>,
    pub capabilities: Vec<RuntimeCapabilities>,
    /// Filled by [`Store::family_for_verification`]: per session, per item, the text id of a
    /// tool output's text that was left out of `items` (read it with [`Store::text_body`]).
    pub deferred_texts: Vec<Vec<Option<i64>>>,
    /// Stored evidence rows that could not be read (a payload that is not its kind's shape),
    /// named by session and evidence key; they are left out of `evidence`.
    pub unreadable_evidence: Vec<String>,
}

/// A session's items, each one's deferred text id (tool outputs read later) and its sequence
/// number.
pub(crate) type ItemRows = (Vec<Item>, Vec<Option<i64>>, Vec<i64>);

/// What one family's verification writes (see [`Store::write_verification`]).
#[derive(Debug, Clone, Copy)]
pub struct VerificationWrite<'a> {
    /// Evidence the sensors derived: replaced on every verification.
    pub derived: &'a [Redacted<Evidence>],
    /// Evidence the host observed for this verification (commit lookups): kept.
    pub host: &'a [Redacted<Evidence>],
    pub claims: &'a [Redacted<Claim>],
    pub findings: &'a [Redacted<Finding>],
}

/// What a claim asserts beyond its target, as `claim.assertion` keeps it.
#[derive(Serialize)]
struct Assertion<'a> {
    scope: &'a ClaimScope,
    quantity: &'a ClaimQuantity,
    actor: &'a ClaimActor,
}

#[derive(Debug, Clone, Default)]
pub struct SessionFilter {
    pub provider: Option<String>,
    /// Substring of the working directory.
    pub project: Option<String>,
    /// ISO timestamp lower bound on last activity.
    pub since: Option<String>,
    /// Only sessions with a current finding of this verdict.
    pub verdict: Option<String>,
    pub limit: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct SessionRow {
    pub id: i64,
    pub provider: String,
    pub native_id: String,
    pub cwd: Option<String>,
    pub name: Option<String>,
    pub created_at: Option<String>,
    pub last_activity: Option<String>,
    pub parent_native_id: Option<String>,
    pub runtime_version: Option<String>,
    pub loops: i64,
    pub items: i64,
    /// The start of the first human prompt (at most 400 bytes), for a title.
    pub first_prompt: Option<String>,
    pub verdicts: BTreeMap<String, i64>,
    pub sources: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct LoopRow {
    pub position: i64,
    pub native_id: Option<String>,
    pub started_at: Option<String>,
    pub outcome: Option<String>,
    pub ended_at: Option<String>,
    pub model: Option<String>,
    pub input_tokens: Option<i64>,
    pub cached_input_tokens: Option<i64>,
    pub output_tokens: Option<i64>,
    pub reasoning_output_tokens: Option<i64>,
    pub runtime_version: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct EvidenceBrief {
    pub id: String,
    pub kind: String,
    pub description: String,
}

/// One current finding with its claim, as the commands read it. Serialized (JSON output, MCP
/// answers, exports) it carries `rationale`, the sentence [`FindingRow::rationale`] renders,
/// beside the typed `reason`.
#[derive(Debug, Clone)]
pub struct FindingRow {
    pub verdict: String,
    pub claim: serde_json::Value,
    pub session: serde_json::Value,
    pub sources: Vec<String>,
    /// Why, typed; [`FindingRow::rationale`] renders it.
    pub reason: StoredReason,
    pub evidence: Vec<EvidenceBrief>,
    pub rule: String,
    pub item_key: String,
    pub loop_position: Option<i64>,
    pub computed_at: String,
    pub at: Option<String>,
    /// Runs Fornax performed after the claim that speak to it, oldest first: dated results
    /// beside the verdict, which they never change.
    pub rechecks: Vec<crate::RecheckRow>,
    /// The session row the claim belongs to (a subagent's, for a family's findings).
    pub session_id: i64,
    pub claim_key: String,
}

impl FindingRow {
    /// The rationale people read, rendered from the typed reason.
    pub fn rationale(&self) -> String {
        self.reason.render()
    }
}

impl Serialize for FindingRow {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Row<'a> {
            verdict: &'a str,
            claim: &'a serde_json::Value,
            session: &'a serde_json::Value,
            sources: &'a [String],
            rationale: String,
            reason: &'a StoredReason,
            evidence: &'a [EvidenceBrief],
            rule: &'a str,
            item_key: &'a str,
            loop_position: Option<i64>,
            computed_at: &'a str,
            at: Option<&'a str>,
            #[serde(skip_serializing_if = "<[_]>::is_empty")]
            rechecks: &'a [crate::RecheckRow],
            session_id: i64,
            claim_key: &'a str,
        }
        Row {
            verdict: &self.verdict,
            claim: &self.claim,
            session: &self.session,
            sources: &self.sources,
            rationale: self.rationale(),
            reason: &self.reason,
            evidence: &self.evidence,
            rule: &self.rule,
            item_key: &self.item_key,
            loop_position: self.loop_position,
            computed_at: &self.computed_at,
            at: self.at.as_deref(),
            rechecks: &self.rechecks,
            session_id: self.session_id,
            claim_key: &self.claim_key,
        }
        .serialize(serializer)
    }
}

#[derive(Debug, Clone, Default)]
pub struct FindingFilter {
    pub session: Option<i64>,
    pub verdict: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SessionDetail {
    pub session: SessionRow,
    pub loops: Vec<LoopRow>,
    pub items: Vec<serde_json::Value>,
    pub findings: Vec<FindingRow>,
    pub capabilities: Vec<serde_json::Value>,
    pub redactions: BTreeMap<String, i64>,
    pub subagents: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SearchHit {
    pub session_id: i64,
    pub session: String,
    pub provider: String,
    pub loop_position: Option<i64>,
    pub item_key: String,
    pub role: String,
    pub at: Option<String>,
    pub snippet: String,
    pub before: Option<String>,
    pub after: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct DriftRow {
    pub provider: String,
    pub adapter: String,
    pub runtime_version: String,
    pub outcome: String,
    pub discriminator: String,
    pub count: i64,
}

#[derive(Debug, Clone, Serialize)]
pub struct DoctorStats {
    pub path: String,
    pub size_bytes: u64,
    pub schema_version: u32,
    pub sources_by_status: BTreeMap<String, i64>,
    pub sessions: i64,
    pub items: i64,
    pub records: i64,
    pub malformed: i64,
    pub oversized: i64,
    pub drift: Vec<DriftRow>,
    pub last_scan: Option<serde_json::Value>,
}

#[derive(Debug, Clone, Serialize)]
pub struct RecordLocation {
    pub id: i64,
    pub source_key: String,
    pub kind: String,
    pub locator: String,
    pub position: i64,
    pub byte_start: Option<i64>,
    pub byte_end: Option<i64>,
    pub fingerprint: String,
    /// Where the record sits inside a multi-document source (a path under the tree root, or
    /// `<table>/<key>` of a database); `None` for single-file sources.
    pub member: Option<String>,
    /// The adapter that reads the source.
    pub adapter: String,
    /// When retention deleted the source (a spool segment, once all it held was stored).
    pub retired_at: Option<String>,
}

fn json_err(what: &'static str) -> impl Fn(serde_json::Error) -> StoreError {
    move |e| StoreError::json(what, e)
}

fn short(s: &str, n: usize) -> String {
    if s.len() <= n {
        return s.to_string();
    }
    let mut end = n;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

/// A one-line human description of a stored piece of evidence (its kind's name and the JSON
/// of its payload), or why it cannot be read.
pub fn describe_evidence(kind: &str, payload: &str) -> String {
    match EvidencePayload::from_parts(kind, payload) {
        Ok(p) => p.describe(),
        Err(e) => format!("unreadable evidence: {e}"),
    }
}

impl Store {
    /// Resolves what a user typed: the agent's session id, a unique prefix of it, `#<row id>`,
    /// or `latest` (the session with the most recent activity, unless a session is named so).
    pub fn resolve_session(&self, query: &str) -> Result<i64, StoreError> {
        if let Some(num) = query.strip_prefix('#').and_then(|n| n.parse::<i64>().ok()) {
            let found: Option<i64> = self
                .conn
                .query_row("SELECT id FROM session WHERE id = ?1", [num], |r| r.get(0))
                .optional()?;
            return found.ok_or_else(|| StoreError::NoSuchSession(query.to_string()));
        }
        let exact: Vec<i64> = {
            let mut stmt = self
                .conn
                .prepare("SELECT id FROM session WHERE native_id = ?1")?;
            let rows = stmt.query_map([query], |r| r.get(0))?;
            rows.collect::<Result<_, _>>()?
        };
        if exact.len() == 1 {
            return Ok(exact[0]);
        }
        if query == crate::listing::LATEST {
            return self
                .latest_session()?
                .ok_or_else(|| StoreError::NoSuchSession(query.to_string()));
        }
        let mut stmt = self.conn.prepare(
            "SELECT id, provider || ':' || native_id FROM session
             WHERE substr(native_id, 1, length(?1)) = ?1 LIMIT 6",
        )?;
        let rows: Vec<(i64, String)> = stmt
            .query_map([query], |r| Ok((r.get(0)?, r.get(1)?)))?
            .collect::<Result<_, _>>()?;
        match rows.len() {
            0 => Err(StoreError::NoSuchSession(query.to_string())),
            1 => Ok(rows[0].0),
            _ => Err(StoreError::AmbiguousSession {
                query: query.to_string(),
                candidates: rows
                    .into_iter()
                    .map(|(_, n)| n)
                    .collect::<Vec<_>>()
                    .join(", "),
            }),
        }
    }

    /// The root of a session's family (itself, or the parent it was delegated from).
    pub fn family_root(&self, session_id: i64) -> Result<i64, StoreError> {
        let mut current = session_id;
        for _ in 0..8 {
            let parent: Option<i64> = self
                .conn
                .query_row(
                    "SELECT p.id FROM session s JOIN session p
                       ON p.provider = s.provider AND p.native_id = s.parent_native_id
                     WHERE s.id = ?1",
                    [current],
                    |r| r.get(0),
                )
                .optional()?;
            match parent {
                Some(p) if p != current => current = p,
                _ => break,
            }
        }
        Ok(current)
    }

    pub(crate) fn session_ref(&self, session_id: i64) -> Result<SessionRef, StoreError> {
        Ok(self.conn.query_row(
            "SELECT provider, native_id FROM session WHERE id = ?1",
            [session_id],
            |r| {
                Ok(SessionRef::new(
                    Provider::parse(&r.get::<_, String>(0)?),
                    r.get::<_, String>(1)?,
                ))
            },
        )?)
    }

    /// Loads a family: the root and every session delegated from it, with every text.
    pub fn family(&self, root: i64) -> Result<FamilyData, StoreError> {
        self.load_family(root, false)
    }

    /// Loads a family for verification with its largest texts left out, so memory does not
    /// grow with the session: tool-output texts are empty in `items` (their text ids are in
    /// `deferred_texts`, to be read one at a time), and reasoning texts, which verification
    /// never reads, are empty.
    pub fn family_for_verification(&self, root: i64) -> Result<FamilyData, StoreError> {
        self.load_family(root, true)
    }

    /// One text body by id.
    pub fn text_body(&self, id: i64) -> Result<Option<String>, StoreError> {
        Ok(self
            .conn
            .prepare_cached("SELECT body FROM text WHERE id = ?1")?
            .query_row([id], |r| r.get(0))
            .optional()?)
    }

    /// A session and the sessions delegated from it, transitively (at most 256), root first.
    pub fn family_ids(&self, root: i64) -> Result<Vec<i64>, StoreError> {
        let mut ids = vec![root];
        let mut frontier = vec![root];
        while let Some(id) = frontier.pop() {
            let mut stmt = self.conn.prepare_cached(
                "SELECT c.id FROM session p JOIN session c
                   ON c.provider = p.provider AND c.parent_native_id = p.native_id
                 WHERE p.id = ?1 AND c.id != p.id",
            )?;
            let children: Vec<i64> = stmt
                .query_map([id], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            for c in children {
                if !ids.contains(&c) && ids.len() < 256 {
                    ids.push(c);
                    frontier.push(c);
                }
            }
        }
        Ok(ids)
    }

    fn load_family(&self, root: i64, lean: bool) -> Result<FamilyData, StoreError> {
        let ids = self.family_ids(root)?;
        let mut data = FamilyData {
            session_ids: ids.clone(),
            ..FamilyData::default()
        };
        for id in ids {
            let (sref, parent, cwd) = self.conn.query_row(
                "SELECT provider, native_id, parent_native_id, cwd FROM session WHERE id = ?1",
                [id],
                |r| {
                    let provider = Provider::parse(&r.get::<_, String>(0)?);
                    let parent = r
                        .get::<_, Option<String>>(2)?
                        .map(|p| SessionRef::new(provider.clone(), p));
                    Ok((
                        SessionRef::new(provider, r.get::<_, String>(1)?),
                        parent,
                        r.get::<_, Option<String>>(3)?,
                    ))
                },
            )?;
            if id == root {
                data.root_cwd = cwd;
            }
            data.members.push((sref.clone(), parent));
            let (items, deferred, seqs) = self.items_of(id, &sref, lean)?;
            data.items.push(items);
            data.item_seqs.push(seqs);
            if lean {
                data.deferred_texts.push(deferred);
            }
            let mut stmt = self.conn.prepare_cached(
                "SELECT evidence_key, kind, payload, source, provenance, extension, item_key,
                        loop_position, at, records
                 FROM evidence_store WHERE session_id = ?1 AND derived = 0 ORDER BY id",
            )?;
            // Packed columns are read as stored and unpacked here, not through the view.
            let dicts = &self.dicts;
            let unpacked = |r: &rusqlite::Row<'_>, i: usize| -> rusqlite::Result<Option<String>> {
                crate::packed::unpack(r.get_ref(i)?, dicts).map_err(|e| {
                    rusqlite::Error::FromSqlConversionFailure(
                        i,
                        rusqlite::types::Type::Blob,
                        Box::new(e),
                    )
                })
            };
            let rows = stmt.query_map([id], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, String>(1)?,
                    unpacked(r, 2)?.unwrap_or_default(),
                    unpacked(r, 3)?.unwrap_or_default(),
                    r.get::<_, String>(4)?,
                    r.get::<_, Option<String>>(5)?,
                    r.get::<_, Option<String>>(6)?,
                    r.get::<_, Option<u32>>(7)?,
                    r.get::<_, Option<String>>(8)?,
                    unpacked(r, 9)?,
                ))
            })?;
            for row in rows {
                let (
                    key,
                    kind,
                    payload,
                    source,
                    provenance,
                    extension,
                    item_key,
                    loop_position,
                    at,
                    records,
                ) = row?;
                let payload = match EvidencePayload::from_parts(&kind, &payload) {
                    Ok(p) => p,
                    Err(e) => {
                        data.unreadable_evidence
                            .push(format!("session {}: evidence {key}: {e}", sref.native_id));
                        continue;
                    }
                };
                let source = match serde_json::from_str(&source) {
                    Ok(s) => s,
                    Err(e) => {
                        data.unreadable_evidence.push(format!(
                            "session {}: evidence {key}: source: {e}",
                            sref.native_id
                        ));
                        continue;
                    }
                };
                let evidence = Evidence {
                    id: key,
                    session: sref.clone(),
                    payload,
                    source,
                    provenance,
                    extension: match extension {
                        Some(x) => serde_json::from_str(&x).ok(),
                        None => None,
                    },
                    item_key,
                    loop_position,
                    at,
                    records: match records {
                        Some(r) => serde_json::from_str(&r).unwrap_or_default(),
                        None => Vec::new(),
                    },
                };
                data.evidence.push(evidence);
            }
            let mut stmt = self
                .conn
                .prepare_cached("SELECT body FROM capability WHERE session_id = ?1")?;
            let bodies: Vec<String> = stmt
                .query_map([id], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            for b in bodies {
                if let Ok(c) = serde_json::from_str(&b) {
                    data.capabilities.push(c);
                }
            }
        }
        Ok(data)
    }

    /// A session's items in record order. With `lean`, tool-output and reasoning texts are
    /// not read (their text ids are returned for tool outputs, `None` elsewhere).
    fn items_of(
        &self,
        session_id: i64,
        sref: &SessionRef,
        lean: bool,
    ) -> Result<ItemRows, StoreError> {
        self.items_range(session_id, sref, lean, 0, -1)
    }

    /// [`Store::items_of`] for `limit` items from the `offset`-th on (`limit` -1: all), with
    /// each item's deferred text id and its sequence number.
    pub(crate) fn items_range(
        &self,
        session_id: i64,
        sref: &SessionRef,
        lean: bool,
        offset: i64,
        limit: i64,
    ) -> Result<ItemRows, StoreError> {
        let mut stmt = self.conn.prepare_cached(
            "SELECT item.seq, item.key, item.loop_position, item.at, item.role, item.strength,
                    item.value,
                    CASE WHEN ?2 AND item.kind IN ('tool_output', 'reasoning') THEN NULL
                         ELSE text.body END,
                    (SELECT group_concat(s.source_key || char(31) || r.position, char(30))
                       FROM item_record ir JOIN record r ON r.id = ir.record_id
                       JOIN source s ON s.id = r.source_id WHERE ir.item_id = item.id),
                    CASE WHEN ?2 AND item.kind = 'tool_output' THEN item.text_id END
             FROM item_store item LEFT JOIN text ON text.id = item.text_id
             WHERE item.session_id = ?1 ORDER BY item.seq LIMIT ?4 OFFSET ?3",
        )?;
        let count: i64 = self
            .conn
            .prepare_cached("SELECT COUNT(*) FROM item WHERE session_id = ?1")?
            .query_row([session_id], |r| r.get(0))?;
        let count = (count - offset).max(0);
        let count = usize::try_from(if limit < 0 { count } else { count.min(limit) }).unwrap_or(0);
        let mut deferred = Vec::with_capacity(count);
        let mut seqs = Vec::with_capacity(count);
        let rows = stmt.query_map(params![session_id, lean, offset, limit], |r| {
            Ok((
                r.get::<_, i64>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, Option<u32>>(2)?,
                r.get::<_, Option<String>>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
                // Read as stored and unpacked here, not through the view.
                crate::packed::unpack(r.get_ref(6)?, &self.dicts)
                    .map_err(|e| {
                        rusqlite::Error::FromSqlConversionFailure(
                            6,
                            rusqlite::types::Type::Blob,
                            Box::new(e),
                        )
                    })?
                    .unwrap_or_default(),
                r.get::<_, Option<String>>(7)?,
                r.get::<_, Option<String>>(8)?,
                r.get::<_, Option<i64>>(9)?,
            ))
        })?;
        let mut items = Vec::with_capacity(count);
        for row in rows {
            let (seq, key, loop_position, at, role, strength, value, text, witnesses, deferred_id) =
                row?;
            deferred.push(deferred_id);
            seqs.push(seq);
            let mut value: SemanticValue =
                serde_json::from_str(&value).map_err(json_err("item value"))?;
            if let Some(t) = text {
                restore_primary_text(&mut value, t);
            }
            let records = witnesses
                .unwrap_or_default()
                .split('\u{1e}')
                .filter_map(|w| {
                    let (src, pos) = w.split_once('\u{1f}')?;
                    Some(RecordRef::new(SourceId::new(src), pos.parse().ok()?))
                })
                .collect();
            items.push(Item {
                session: sref.clone(),
                key,
                loop_position,
                at,
                semantic: Semantic {
                    role: fornax_types::Role::parse(&role)
                        .unwrap_or(fornax_types::Role::RuntimeUnknown),
                    value,
                    evidence_strength: if strength == "structural" {
                        fornax_types::EvidenceStrength::Structural
                    } else {
                        fornax_types::EvidenceStrength::Heuristic
                    },
                },
                records,
            });
        }
        Ok((items, deferred, seqs))
    }

    /// Writes a family's verification in one transaction: replaces its derived evidence and
    /// claims, keeps the host-observed evidence it made (lookups of claimed commits), appends
    /// the findings that changed, and clears the family's pending mark.
    pub fn write_verification(
        &mut self,
        family: &[i64],
        write: &VerificationWrite<'_>,
        now: &str,
    ) -> Result<usize, StoreError> {
        let tx = self.conn.transaction()?;
        self.packs.sync(&tx, &self.dicts, false)?;
        let mut ids: HashMap<SessionRef, i64> = HashMap::new();
        for &id in family {
            tx.execute(
                "DELETE FROM evidence_store WHERE session_id = ?1 AND derived = 1",
                [id],
            )?;
            tx.execute("DELETE FROM claim WHERE session_id = ?1", [id])?;
            tx.execute("DELETE FROM verify_pending WHERE session_id = ?1", [id])?;
            let sref: SessionRef = tx.query_row(
                "SELECT provider, native_id FROM session WHERE id = ?1",
                [id],
                |r| {
                    Ok(SessionRef::new(
                        Provider::parse(&r.get::<_, String>(0)?),
                        r.get::<_, String>(1)?,
                    ))
                },
            )?;
            ids.insert(sref, id);
        }
        for e in write.derived {
            if let Some(&sid) = ids.get(&e.session) {
                write_evidence(&tx, &mut self.packs, sid, e, true, None)?;
            }
        }
        for e in write.host {
            if let Some(&sid) = ids.get(&e.session) {
                write_evidence(&tx, &mut self.packs, sid, e, false, None)?;
            }
        }
        for c in write.claims {
            let Some(&sid) = ids.get(&c.session) else {
                continue;
            };
            let target = serde_json::to_string(&c.target).map_err(json_err("claim target"))?;
            let assertion = serde_json::to_string(&Assertion {
                scope: &c.scope,
                quantity: &c.quantity,
                actor: &c.actor,
            })
            .map_err(json_err("claim assertion"))?;
            tx.prepare_cached(
                "INSERT INTO claim (session_id, claim_key, item_key, loop_position, subject, text, target, at, assertion)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
                 ON CONFLICT(session_id, claim_key) DO UPDATE SET text = excluded.text,
                     target = excluded.target, assertion = excluded.assertion",
            )?
            .execute(params![sid, c.id, c.item_key, c.loop_position, c.subject.as_str(), c.text, target, c.at, assertion])?;
        }
        let mut appended = 0;
        for f in write.findings {
            let Some(&sid) = ids.get(&f.session) else {
                continue;
            };
            let evidence_json =
                serde_json::to_string(&f.evidence).map_err(json_err("finding evidence"))?;
            let reason_json =
                serde_json::to_string(&f.reason).map_err(json_err("finding reason"))?;
            let latest: Option<(String, Option<String>, String)> = tx
                .prepare_cached(
                    "SELECT verdict, reason, evidence FROM finding
                     WHERE session_id = ?1 AND claim_key = ?2 ORDER BY id DESC LIMIT 1",
                )?
                .query_row(params![sid, f.claim_id], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?))
                })
                .optional()?;
            let unchanged = latest.as_ref().is_some_and(|(v, r, e)| {
                v == f.verdict.as_str()
                    && r.as_deref() == Some(reason_json.as_str())
                    && e == &evidence_json
            });
            if !unchanged {
                tx.prepare_cached(
                    "INSERT INTO finding (session_id, claim_key, verdict, rationale, evidence, rule, computed_at, reason)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                )?
                .execute(params![sid, f.claim_id, f.verdict.as_str(), f.rationale(), evidence_json, f.rule, now, reason_json])?;
                appended += 1;
            }
        }
        tx.commit()?;
        Ok(appended)
    }

    /// Sessions whose claims are owed a judgement: changed by a source since their family was
    /// last verified (or never verified).
    pub fn pending_verification(&self) -> Result<Vec<i64>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT session_id FROM verify_pending ORDER BY session_id")?;
        let ids = stmt
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(ids)
    }

    /// Adds host-observed evidence (a capability run, a repository lookup) to a session
    /// outside any source.
    pub fn add_evidence(&mut self, evidence: &Redacted<Evidence>) -> Result<i64, StoreError> {
        let sid: i64 = self
            .conn
            .query_row(
                "SELECT id FROM session WHERE provider = ?1 AND native_id = ?2",
                params![
                    evidence.session.provider.as_str(),
                    evidence.session.native_id
                ],
                |r| r.get(0),
            )
            .optional()?
            .ok_or_else(|| StoreError::NoSuchSession(evidence.session.native_id.clone()))?;
        self.packs.sync(&self.conn, &self.dicts, false)?;
        write_evidence(&self.conn, &mut self.packs, sid, evidence, false, None)?;
        // New evidence changes what the session's claims rest on: they are owed a judgement.
        self.conn.execute(
            "INSERT OR IGNORE INTO verify_pending (session_id) VALUES (?1)",
            [sid],
        )?;
        Ok(sid)
    }

    pub fn list_sessions(&self, filter: &SessionFilter) -> Result<Vec<SessionRow>, StoreError> {
        let list = crate::ListFilter {
            provider: filter.provider.clone(),
            project: filter.project.clone(),
            since: filter.since.clone(),
            until: None,
            verdicts: filter.verdict.iter().cloned().collect(),
        };
        self.list_sessions_in(&list, filter.limit, 0)
    }

    pub fn session_row(&self, id: i64) -> Result<SessionRow, StoreError> {
        let mut row = self.conn.query_row(
            "SELECT id, provider, native_id, cwd, name, created_at, last_activity, parent_native_id,
                    runtime_version,
                    (SELECT COUNT(*) FROM loop WHERE session_id = s.id),
                    (SELECT COUNT(*) FROM item WHERE session_id = s.id),
                    (SELECT substr(t.body, 1, 400) FROM item i JOIN text t ON t.id = i.text_id
                     WHERE i.session_id = s.id AND i.role = 'human.request'
                     ORDER BY i.seq LIMIT 1)
             FROM session s WHERE id = ?1",
            [id],
            |r| {
                Ok(SessionRow {
                    id: r.get(0)?,
                    provider: r.get(1)?,
                    native_id: r.get(2)?,
                    cwd: r.get(3)?,
                    name: r.get(4)?,
                    created_at: r.get(5)?,
                    last_activity: r.get(6)?,
                    parent_native_id: r.get(7)?,
                    runtime_version: r.get(8)?,
                    loops: r.get(9)?,
                    items: r.get(10)?,
                    first_prompt: r.get(11)?,
                    verdicts: BTreeMap::new(),
                    sources: Vec::new(),
                })
            },
        )?;
        let mut stmt = self.conn.prepare_cached(
            "SELECT verdict, COUNT(*) FROM current_finding WHERE session_id = ?1 GROUP BY verdict",
        )?;
        for r in stmt.query_map([id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))? {
            let (v, n) = r?;
            row.verdicts.insert(v, n);
        }
        let mut stmt = self.conn.prepare_cached(
            "SELECT source.locator FROM session_source JOIN source ON source.id = session_source.source_id
             WHERE session_source.session_id = ?1 ORDER BY source.id",
        )?;
        row.sources = stmt
            .query_map([id], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(row)
    }

    pub fn session_detail(&self, id: i64) -> Result<SessionDetail, StoreError> {
        let session = self.session_row(id)?;
        let loops = self.loops(id)?;
        let sref = self.session_ref(id)?;
        let items = self
            .items_of(id, &sref, false)?
            .0
            .into_iter()
            .map(|i| serde_json::to_value(i).unwrap_or_default())
            .collect();
        let findings = self.findings(&FindingFilter {
            session: Some(id),
            verdict: None,
        })?;
        let mut stmt = self
            .conn
            .prepare("SELECT body FROM capability WHERE session_id = ?1")?;
        let capabilities = stmt
            .query_map([id], |r| r.get::<_, String>(0))?
            .filter_map(|b| b.ok().and_then(|b| serde_json::from_str(&b).ok()))
            .collect();
        let mut redactions = BTreeMap::new();
        let mut stmt = self
            .conn
            .prepare("SELECT kind, count FROM redaction WHERE session_id = ?1")?;
        for r in stmt.query_map([id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))? {
            let (k, n) = r?;
            redactions.insert(k, n);
        }
        let mut stmt = self.conn.prepare(
            "SELECT c.native_id FROM session p JOIN session c
               ON c.provider = p.provider AND c.parent_native_id = p.native_id
             WHERE p.id = ?1 AND c.id != p.id ORDER BY c.id",
        )?;
        let subagents = stmt
            .query_map([id], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        Ok(SessionDetail {
            session,
            loops,
            items,
            findings,
            capabilities,
            redactions,
            subagents,
        })
    }

    /// Current findings (the latest per claim), oldest claim first.
    pub fn findings(&self, filter: &FindingFilter) -> Result<Vec<FindingRow>, StoreError> {
        let list = crate::ListFilter {
            verdicts: filter.verdict.iter().cloned().collect(),
            ..crate::ListFilter::default()
        };
        self.findings_in(&list, filter.session, crate::FindingOrder::Claim, 0)
    }

    /// Current findings selected by `conditions` (SQL over `f` = current_finding, `c` = claim,
    /// `s` = session, with `args` bound in order) and ordered/limited by `tail`.
    pub(crate) fn finding_rows(
        &self,
        conditions: &str,
        args: &[rusqlite::types::Value],
        tail: &str,
    ) -> Result<Vec<FindingRow>, StoreError> {
        let sql = format!(
            "SELECT f.verdict, f.rationale, f.evidence, f.rule, f.computed_at, c.text, c.subject,
                    c.target, c.item_key, c.loop_position, c.at, s.provider, s.native_id, s.id,
                    f.session_id, f.claim_key, f.reason, c.assertion
             FROM current_finding f
             JOIN claim c ON c.session_id = f.session_id AND c.claim_key = f.claim_key
             JOIN session s ON s.id = f.session_id WHERE 1 = 1{conditions} {tail}"
        );
        let mut stmt = self.conn.prepare(&sql)?;
        let rows = stmt.query_map(rusqlite::params_from_iter(args.iter()), |r| {
            Ok((
                r.get::<_, String>(0)?,
                r.get::<_, String>(1)?,
                r.get::<_, String>(2)?,
                r.get::<_, String>(3)?,
                r.get::<_, String>(4)?,
                r.get::<_, String>(5)?,
                r.get::<_, String>(6)?,
                r.get::<_, String>(7)?,
                r.get::<_, String>(8)?,
                r.get::<_, Option<i64>>(9)?,
                r.get::<_, Option<String>>(10)?,
                r.get::<_, String>(11)?,
                r.get::<_, String>(12)?,
                r.get::<_, i64>(13)?,
                r.get::<_, String>(15)?,
                r.get::<_, Option<String>>(16)?,
                r.get::<_, Option<String>>(17)?,
            ))
        })?;
        let mut out = Vec::new();
        let mut sources_cache: HashMap<i64, Vec<String>> = HashMap::new();
        let mut rechecks_cache: HashMap<i64, Vec<crate::RecheckRow>> = HashMap::new();
        for row in rows {
            let (
                verdict,
                rationale,
                evidence,
                rule,
                computed_at,
                text,
                subject,
                target,
                item_key,
                loop_position,
                at,
                provider,
                native_id,
                sid,
                claim_key,
                reason,
                assertion,
            ) = row?;
            // A reason this release cannot read (written by a newer one) keeps its sentence.
            let reason = match reason.as_deref().map(serde_json::from_str::<Reason>) {
                Some(Ok(reason)) => StoredReason::Typed {
                    reason: Box::new(reason),
                },
                _ => StoredReason::Legacy { rationale },
            };
            let ids: Vec<String> = serde_json::from_str(&evidence).unwrap_or_default();
            let mut briefs = Vec::new();
            for eid in ids {
                let found: Option<(String, String)> = self
                    .conn
                    .prepare_cached(
                        "SELECT kind, payload FROM evidence WHERE evidence_key = ?1
                         AND session_id IN (SELECT id FROM session WHERE id = ?2 OR parent_native_id =
                             (SELECT native_id FROM session WHERE id = ?2)
                             OR native_id = (SELECT parent_native_id FROM session WHERE id = ?2))
                         LIMIT 1",
                    )?
                    .query_row(params![eid, sid], |r| Ok((r.get(0)?, r.get(1)?)))
                    .optional()?;
                let (kind, description) = match found {
                    Some((kind, payload)) => {
                        let d = describe_evidence(&kind, &payload);
                        (kind, d)
                    }
                    None => ("unknown".into(), "evidence no longer stored".into()),
                };
                briefs.push(EvidenceBrief {
                    id: eid,
                    kind,
                    description,
                });
            }
            if let std::collections::hash_map::Entry::Vacant(e) = sources_cache.entry(sid) {
                let mut stmt = self.conn.prepare_cached(
                    "SELECT source.locator FROM session_source JOIN source ON source.id = session_source.source_id
                     WHERE session_source.session_id = ?1",
                )?;
                e.insert(
                    stmt.query_map([sid], |r| r.get(0))?
                        .collect::<Result<_, _>>()?,
                );
            }
            let target: serde_json::Value = serde_json::from_str(&target).unwrap_or_default();
            let mut claim = serde_json::json!({"text": text, "subject": subject, "target": target});
            if let Some(serde_json::Value::Object(a)) = assertion
                .as_deref()
                .and_then(|a| serde_json::from_str::<serde_json::Value>(a).ok())
            {
                for (k, v) in a {
                    claim[k] = v;
                }
            }
            if let std::collections::hash_map::Entry::Vacant(e) = rechecks_cache.entry(sid) {
                e.insert(self.rechecks(sid)?);
            }
            let rechecks = rechecks_cache
                .get(&sid)
                .map(|all| {
                    all.iter()
                        .filter(|r| r.speaks_to(&subject, at.as_deref()))
                        .cloned()
                        .collect()
                })
                .unwrap_or_default();
            out.push(FindingRow {
                verdict,
                claim,
                session: serde_json::json!({"provider": provider, "native_id": native_id}),
                sources: sources_cache.get(&sid).cloned().unwrap_or_default(),
                reason,
                evidence: briefs,
                rule,
                item_key,
                loop_position,
                computed_at,
                at,
                rechecks,
                session_id: sid,
                claim_key,
            });
        }
        Ok(out)
    }

    /// Full-text search over human and agent text (trigram: substrings match); with
    /// `include_output`, tool outputs are scanned as well.
    pub fn search(
        &self,
        text: &str,
        limit: usize,
        include_output: bool,
    ) -> Result<Vec<SearchHit>, StoreError> {
        self.search_in(text, &crate::ListFilter::default(), limit, include_output)
    }

    /// [`Store::search`] within a filter (provider, project, the hit's time, sessions with a
    /// verdict). At most 1,000 hits.
    pub fn search_in(
        &self,
        text: &str,
        filter: &crate::ListFilter,
        limit: usize,
        include_output: bool,
    ) -> Result<Vec<SearchHit>, StoreError> {
        let limit = limit.clamp(1, 1000);
        // Texts are found first and filtered by session after: look at more of them when a
        // filter may drop some.
        let candidates = if filter.is_empty() {
            limit * 4
        } else {
            (limit * 64).min(20_000)
        } as i64;
        let mut hit_args: Vec<rusqlite::types::Value> = vec![0i64.into()];
        let hit_conditions = filter.conditions(
            "COALESCE(i.at, s.last_activity, s.created_at)",
            crate::listing::VerdictOn::Session,
            &mut hit_args,
        );
        let mut text_ids: Vec<i64> = if text.chars().count() >= 3 {
            let phrase = format!("\"{}\"", text.replace('"', "\"\""));
            let mut stmt = self
                .conn
                .prepare("SELECT rowid FROM text_fts WHERE text_fts MATCH ?1 LIMIT ?2")?;
            let mut ids: Vec<i64> = stmt
                .query_map(params![phrase, candidates], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            // Texts written since the last flush of the FTS index (a scan still running, or
            // one that died) are scanned directly.
            let mut stmt = self.conn.prepare(
                // CROSS JOIN keeps the (usually empty) queue as the outer loop; left to the
                // planner, it scans every text and probes the queue.
                "SELECT t.id FROM fts_pending p CROSS JOIN text t ON t.id = p.text_id
                 WHERE instr(lower(t.body), lower(?1)) > 0 LIMIT ?2",
            )?;
            let pending = stmt.query_map(params![text, candidates], |r| r.get(0))?;
            for id in pending {
                let id = id?;
                // A flush committed between the two reads may show a text in both.
                if !ids.contains(&id) {
                    ids.push(id);
                }
            }
            ids
        } else {
            let mut stmt = self.conn.prepare(
                "SELECT id FROM text WHERE indexed = 1 AND instr(lower(body), lower(?1)) > 0 LIMIT ?2",
            )?;
            let ids = stmt.query_map(params![text, candidates], |r| r.get(0))?;
            ids.collect::<Result<_, _>>()?
        };
        if include_output {
            let mut stmt = self.conn.prepare(
                "SELECT DISTINCT t.id FROM text t JOIN item i ON i.text_id = t.id
                 WHERE i.role = 'tool.output' AND instr(lower(t.body), lower(?1)) > 0 LIMIT ?2",
            )?;
            let more: Vec<i64> = stmt
                .query_map(params![text, candidates], |r| r.get(0))?
                .collect::<Result<_, _>>()?;
            text_ids.extend(more);
        }
        let mut hits = Vec::new();
        let needle = text.to_lowercase();
        for tid in text_ids {
            let mut stmt = self.conn.prepare_cached(&format!(
                "SELECT i.session_id, i.seq, i.key, i.role, i.at, i.loop_position, s.native_id, s.provider, t.body
                 FROM item i JOIN session s ON s.id = i.session_id JOIN text t ON t.id = i.text_id
                 WHERE i.text_id = ?1{hit_conditions} ORDER BY i.seq LIMIT 5"
            ))?;
            hit_args[0] = tid.into();
            let rows: Vec<HitRow> = stmt
                .query_map(rusqlite::params_from_iter(hit_args.iter()), |r| {
                    Ok(HitRow {
                        sid: r.get(0)?,
                        seq: r.get(1)?,
                        key: r.get(2)?,
                        role: r.get(3)?,
                        at: r.get(4)?,
                        loop_position: r.get(5)?,
                        native_id: r.get(6)?,
                        provider: r.get(7)?,
                        body: r.get(8)?,
                    })
                })?
                .collect::<Result<_, _>>()?;
            for HitRow {
                sid,
                seq,
                key,
                role,
                at,
                loop_position,
                native_id,
                provider,
                body,
            } in rows
            {
                let neighbour = |dir: &str| -> Result<Option<String>, StoreError> {
                    let sql = if dir == "before" {
                        "SELECT i.role, t.body FROM item i LEFT JOIN text t ON t.id = i.text_id
                         WHERE i.session_id = ?1 AND i.seq < ?2 ORDER BY i.seq DESC LIMIT 1"
                    } else {
                        "SELECT i.role, t.body FROM item i LEFT JOIN text t ON t.id = i.text_id
                         WHERE i.session_id = ?1 AND i.seq > ?2 ORDER BY i.seq ASC LIMIT 1"
                    };
                    Ok(self
                        .conn
                        .prepare_cached(sql)?
                        .query_row(params![sid, seq], |r| {
                            Ok(format!(
                                "{}: {}",
                                r.get::<_, String>(0)?,
                                short(&r.get::<_, Option<String>>(1)?.unwrap_or_default(), 120)
                            ))
                        })
                        .optional()?)
                };
                hits.push(SearchHit {
                    session_id: sid,
                    session: native_id,
                    provider,
                    loop_position,
                    item_key: key,
                    role,
                    at,
                    snippet: snippet(&body, &needle),
                    before: neighbour("before")?,
                    after: neighbour("after")?,
                });
                if hits.len() >= limit {
                    return Ok(hits);
                }
            }
        }
        Ok(hits)
    }

    pub fn record_location(&self, id: i64) -> Result<RecordLocation, StoreError> {
        self.conn
            .query_row(
                "SELECT r.id, s.source_key, s.kind, s.locator, r.position, r.byte_start, r.byte_end, r.fingerprint,
                        r.member, s.adapter, s.retired_at
                 FROM record r JOIN source s ON s.id = r.source_id WHERE r.id = ?1",
                [id],
                |r| {
                    let fp: Vec<u8> = r.get(7)?;
                    let mut arr = [0u8; 32];
                    if fp.len() == 32 {
                        arr.copy_from_slice(&fp);
                    }
                    Ok(RecordLocation {
                        id: r.get(0)?,
                        source_key: r.get(1)?,
                        kind: r.get(2)?,
                        locator: r.get(3)?,
                        position: r.get(4)?,
                        byte_start: r.get(5)?,
                        byte_end: r.get(6)?,
                        fingerprint: fornax_types::Fingerprint(arr).to_hex(),
                        member: r.get(8)?,
                        adapter: r.get(9)?,
                        retired_at: r.get(10)?,
                    })
                },
            )
            .optional()?
            .ok_or(StoreError::NoSuchRecord(id))
    }

    pub fn doctor_stats(&self) -> Result<DoctorStats, StoreError> {
        let size_bytes = ["", "-wal"]
            .iter()
            .filter_map(|s| {
                let mut p = self.path.clone().into_os_string();
                p.push(s);
                std::fs::metadata(p).ok().map(|m| m.len())
            })
            .sum();
        let mut sources_by_status = BTreeMap::new();
        let mut stmt = self
            .conn
            .prepare("SELECT status, COUNT(*) FROM source GROUP BY status")?;
        for r in stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))? {
            let (s, n) = r?;
            sources_by_status.insert(s, n);
        }
        let count = |sql: &str| -> Result<i64, StoreError> {
            Ok(self.conn.query_row(sql, [], |r| r.get(0))?)
        };
        let mut stmt = self.conn.prepare(
            "SELECT provider, adapter, runtime_version, outcome, discriminator, count FROM drift
             WHERE outcome = 'unrecognized' ORDER BY count DESC LIMIT 100",
        )?;
        let drift = stmt
            .query_map([], |r| {
                Ok(DriftRow {
                    provider: r.get(0)?,
                    adapter: r.get(1)?,
                    runtime_version: r.get(2)?,
                    outcome: r.get(3)?,
                    discriminator: r.get(4)?,
                    count: r.get(5)?,
                })
            })?
            .collect::<Result<_, _>>()?;
        let last_scan: Option<String> = self
            .conn
            .query_row(
                "SELECT summary FROM scan WHERE finished_at IS NOT NULL ORDER BY id DESC LIMIT 1",
                [],
                |r| r.get(0),
            )
            .optional()?
            .flatten();
        Ok(DoctorStats {
            path: self.path.display().to_string(),
            size_bytes,
            schema_version: crate::SCHEMA_VERSION,
            sources_by_status,
            sessions: count("SELECT COUNT(*) FROM session")?,
            items: count("SELECT COUNT(*) FROM item")?,
            records: count("SELECT COUNT(*) FROM record")?,
            malformed: count("SELECT COALESCE(SUM(malformed), 0) FROM source")?,
            oversized: count("SELECT COALESCE(SUM(oversized), 0) FROM source")?,
            drift,
            last_scan: last_scan.and_then(|s| serde_json::from_str(&s).ok()),
        })
    }

    /// Records a finished scan's summary (shown by `doctor`; it names files and native shapes).
    pub fn record_scan(
        &self,
        started_at: &str,
        finished_at: &str,
        summary: &Redacted<serde_json::Value>,
    ) -> Result<(), StoreError> {
        self.conn.execute(
            "INSERT INTO scan (started_at, finished_at, summary) VALUES (?1, ?2, ?3)",
            params![started_at, finished_at, summary.get().to_string()],
        )?;
        Ok(())
    }

    /// Session row id by identity, if stored.
    pub fn find_session(&self, s: &SessionRef) -> Result<Option<i64>, StoreError> {
        Ok(self
            .conn
            .query_row(
                "SELECT id FROM session WHERE provider = ?1 AND native_id = ?2",
                params![s.provider.as_str(), s.native_id],
                |r| r.get(0),
            )
            .optional()?)
    }

    /// Verdict counts over current findings (optionally for some sessions only).
    pub fn verdict_counts(
        &self,
        sessions: Option<&[i64]>,
    ) -> Result<BTreeMap<String, i64>, StoreError> {
        let mut out = BTreeMap::new();
        // A few sessions (a status line, one family): only their findings are read, through
        // `finding_by_claim`, instead of every current finding.
        if let Some(ids) = sessions.filter(|ids| ids.len() <= 64) {
            let mut stmt = self.conn.prepare_cached(
                "SELECT f.verdict, COUNT(*) FROM finding f
                 WHERE f.session_id = ?1
                   AND f.id = (SELECT MAX(f2.id) FROM finding f2
                               WHERE f2.session_id = f.session_id AND f2.claim_key = f.claim_key)
                 GROUP BY f.verdict",
            )?;
            for id in ids.iter().collect::<std::collections::BTreeSet<_>>() {
                for r in
                    stmt.query_map([id], |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?
                {
                    let (v, n) = r?;
                    *out.entry(v).or_insert(0) += n;
                }
            }
            return Ok(out);
        }
        let wanted: Option<std::collections::HashSet<i64>> =
            sessions.map(|s| s.iter().copied().collect());
        let mut stmt = self
            .conn
            .prepare("SELECT session_id, verdict FROM current_finding")?;
        for r in stmt.query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))? {
            let (sid, v) = r?;
            if wanted.as_ref().is_none_or(|s| s.contains(&sid)) {
                *out.entry(v).or_insert(0) += 1;
            }
        }
        Ok(out)
    }
}

/// An item whose text matched a search.
struct HitRow {
    sid: i64,
    seq: i64,
    key: String,
    role: String,
    at: Option<String>,
    loop_position: Option<i64>,
    native_id: String,
    provider: String,
    body: String,
}

fn snippet(body: &str, needle_lower: &str) -> String {
    let lower = body.to_lowercase();
    let Some(pos) = lower.find(needle_lower) else {
        return short(body, 160);
    };
    // Map the position back onto `body` conservatively (lowercasing may change byte lengths).
    let pos = pos.min(body.len());
    let mut start = pos.saturating_sub(60);
    while start > 0 && !body.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = (pos + needle_lower.len() + 60).min(body.len());
    while end < body.len() && !body.is_char_boundary(end) {
        end += 1;
    }
    let mut s = String::new();
    if start > 0 {
        s.push('…');
    }
    s.push_str(&body[start..end].replace('\n', " "));
    if end < body.len() {
        s.push('…');
    }
    s
}
