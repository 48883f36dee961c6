//! Privacy operations: forgetting sessions and re-applying the redactor to what is stored.
//!
//! Both run on a writable handle (the store-writer lock) with `secure_delete` on, rebuild the
//! full-text index's segments afterwards (`optimize`, so no deleted text lingers in an old
//! segment) and truncate the WAL, so the removed bytes are gone from every database file, not
//! only unreachable.

use rusqlite::{params, OptionalExtension};

use fornax_redact::{RedactionCounts, Redactor};

use crate::{SourceCursor, Store, StoreError};

/// Status of a source whose sessions were forgotten: it is never read again.
pub const FORGOTTEN: &str = "forgotten";

/// What `forget` removed.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Forgotten {
    /// `provider:native_id` of every session removed (subagent sessions included).
    pub sessions: Vec<String>,
    /// The runtimes' own ids of those sessions (to find their events in the spool).
    #[serde(skip)]
    pub native_ids: Vec<String>,
    pub loops: u64,
    pub items: u64,
    pub texts: u64,
    pub evidence: u64,
    pub claims: u64,
    pub findings: u64,
    pub rechecks: u64,
    pub usage: u64,
    pub records: u64,
    /// Archived copies deleted (copies other records share stay).
    pub archived: u64,
    /// Sources only these sessions used: kept as tombstones (status `forgotten`, no
    /// checkpoint) so that a later scan does not import them again.
    pub sources_closed: u64,
    /// Where their records sit in spool segments (locator, byte range), to be blanked there.
    #[serde(skip)]
    pub spool_ranges: Vec<SpoolRange>,
    /// Files of the agents that still hold these sessions (Fornax does not delete them).
    pub native_files: Vec<String>,
}

/// One record's bytes in a spool segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpoolRange {
    pub locator: String,
    pub source_key: String,
    pub start: u64,
    pub end: u64,
}

/// What `redact --again` changed.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct Rerun {
    /// Values read.
    pub values: u64,
    /// Values the current detectors changed.
    pub changed: u64,
    /// Secrets found, by kind.
    pub kinds: std::collections::BTreeMap<String, u64>,
}

/// Columns whose values are packed (`crate::packed`): rewritten through `packed()`.
const PACKED: &[(&str, &str)] = &[
    ("source", "adapter_state"),
    ("item_store", "value"),
    ("evidence_store", "payload"),
];

/// Every column holding text that came from native data: `(table, column, json)`. Each is
/// read through `unpacked()` (plain text passes through it unchanged).
const REDACTABLE: &[(&str, &str, bool)] = &[
    ("text_store", "body", false),
    ("item_store", "value", true),
    ("evidence_store", "payload", true),
    ("evidence_store", "extension", true),
    ("claim", "text", false),
    ("claim", "subject", false),
    ("claim", "target", false),
    ("finding", "rationale", false),
    ("finding", "evidence", true),
    ("recheck", "summary", false),
    ("recheck", "subjects", true),
    ("recheck", "evidence", true),
    ("source", "adapter_state", true),
    ("session", "name", false),
    ("session", "cwd", false),
];

impl Store {
    /// A session and every session delegated from it (subagents), as row ids.
    pub fn forget_set(&self, session_id: i64) -> Result<Vec<i64>, StoreError> {
        self.family_ids(session_id)
    }

    /// Sessions whose working directory is `project` or inside it, with their subagents.
    pub fn sessions_under(&self, project: &str) -> Result<Vec<i64>, StoreError> {
        let root = project.trim_end_matches('/');
        let mut stmt = self.conn.prepare(
            "SELECT id FROM session WHERE cwd = ?1 OR substr(cwd, 1, length(?1) + 1) = ?1 || '/'
             ORDER BY id",
        )?;
        let direct: Vec<i64> = stmt
            .query_map([root], |r| r.get(0))?
            .collect::<Result<_, _>>()?;
        let mut all = Vec::new();
        for id in direct {
            for member in self.family_ids(id)? {
                if !all.contains(&member) {
                    all.push(member);
                }
            }
        }
        Ok(all)
    }

    /// Removes the sessions (row ids) and everything derived from them, in one transaction.
    pub fn forget_sessions(&mut self, ids: &[i64]) -> Result<Forgotten, StoreError> {
        let mut out = Forgotten::default();
        if ids.is_empty() {
            return Ok(out);
        }
        self.conn.pragma_update(None, "secure_delete", "ON")?;
        let tx = self.conn.transaction()?;
        tx.execute_batch(
            "CREATE TEMP TABLE IF NOT EXISTS forget_session (id INTEGER PRIMARY KEY);
             CREATE TEMP TABLE IF NOT EXISTS forget_record (id INTEGER PRIMARY KEY);
             CREATE TEMP TABLE IF NOT EXISTS forget_text (id INTEGER PRIMARY KEY);
             CREATE TEMP TABLE IF NOT EXISTS forget_source (id INTEGER PRIMARY KEY);
             DELETE FROM forget_session; DELETE FROM forget_record;
             DELETE FROM forget_text; DELETE FROM forget_source;",
        )?;
        for id in ids {
            tx.execute(
                "INSERT OR IGNORE INTO forget_session (id) VALUES (?1)",
                [id],
            )?;
        }
        {
            let mut stmt = tx.prepare(
                "SELECT provider, native_id FROM session WHERE id IN (SELECT id FROM forget_session)
                 ORDER BY id",
            )?;
            let rows =
                stmt.query_map([], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
            for row in rows {
                let (provider, native) = row?;
                out.sessions.push(format!("{provider}:{native}"));
                out.native_ids.push(native);
            }
        }
        // Sources no other session uses.
        tx.execute(
            "INSERT INTO forget_source (id)
             SELECT DISTINCT source_id FROM session_source
             WHERE session_id IN (SELECT id FROM forget_session)
               AND source_id NOT IN (SELECT source_id FROM session_source
                                     WHERE session_id NOT IN (SELECT id FROM forget_session))",
            [],
        )?;
        // Their records: every record of an exclusive source, and what the sessions cite in
        // shared ones.
        tx.execute_batch(
            "INSERT OR IGNORE INTO forget_record (id)
                 SELECT id FROM record WHERE source_id IN (SELECT id FROM forget_source);
             INSERT OR IGNORE INTO forget_record (id)
                 SELECT ir.record_id FROM item_record ir JOIN item i ON i.id = ir.item_id
                 WHERE i.session_id IN (SELECT id FROM forget_session);
             INSERT OR IGNORE INTO forget_record (id)
                 SELECT record_id FROM usage
                 WHERE session_id IN (SELECT id FROM forget_session) AND record_id IS NOT NULL;
             INSERT OR IGNORE INTO forget_record (id)
                 SELECT identity_record_id FROM session
                 WHERE id IN (SELECT id FROM forget_session) AND identity_record_id IS NOT NULL;
             INSERT OR IGNORE INTO forget_record (id)
                 SELECT start_record_id FROM loop
                 WHERE session_id IN (SELECT id FROM forget_session) AND start_record_id IS NOT NULL;
             INSERT OR IGNORE INTO forget_record (id)
                 SELECT end_record_id FROM loop
                 WHERE session_id IN (SELECT id FROM forget_session) AND end_record_id IS NOT NULL;
             INSERT OR IGNORE INTO forget_text (id)
                 SELECT text_id FROM item
                 WHERE session_id IN (SELECT id FROM forget_session) AND text_id IS NOT NULL;",
        )?;
        {
            let mut stmt = tx.prepare(
                "SELECT s.locator, s.source_key, r.byte_start, r.byte_end
                 FROM record r JOIN source s ON s.id = r.source_id
                 WHERE r.id IN (SELECT id FROM forget_record) AND s.adapter = 'fornax-spool'
                   AND r.byte_start IS NOT NULL AND r.byte_end IS NOT NULL AND r.member IS NULL
                 ORDER BY s.id, r.byte_start",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(SpoolRange {
                    locator: r.get(0)?,
                    source_key: r.get(1)?,
                    start: r.get::<_, i64>(2)? as u64,
                    end: r.get::<_, i64>(3)? as u64,
                })
            })?;
            for row in rows {
                out.spool_ranges.push(row?);
            }
            let mut stmt = tx.prepare(
                "SELECT locator FROM source WHERE id IN (SELECT id FROM forget_source)
                   AND adapter != 'fornax-spool' ORDER BY id",
            )?;
            let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
            for row in rows {
                out.native_files.push(row?);
            }
        }
        let del = |sql: &str| -> Result<u64, StoreError> { Ok(tx.execute(sql, [])? as u64) };
        del("DELETE FROM item_record WHERE item_id IN
                 (SELECT id FROM item WHERE session_id IN (SELECT id FROM forget_session))")?;
        del("DELETE FROM item_record WHERE record_id IN (SELECT id FROM forget_record)")?;
        out.items =
            del("DELETE FROM item_store WHERE session_id IN (SELECT id FROM forget_session)")?;
        out.loops = del("DELETE FROM loop WHERE session_id IN (SELECT id FROM forget_session)")?;
        out.evidence =
            del("DELETE FROM evidence_store WHERE session_id IN (SELECT id FROM forget_session)")?;
        out.claims = del("DELETE FROM claim WHERE session_id IN (SELECT id FROM forget_session)")?;
        out.findings =
            del("DELETE FROM finding WHERE session_id IN (SELECT id FROM forget_session)")?;
        out.rechecks =
            del("DELETE FROM recheck WHERE session_id IN (SELECT id FROM forget_session)")?;
        out.usage = del("DELETE FROM usage WHERE session_id IN (SELECT id FROM forget_session)")?;
        del("DELETE FROM redaction WHERE session_id IN (SELECT id FROM forget_session)")?;
        del("DELETE FROM capability WHERE session_id IN (SELECT id FROM forget_session)")?;
        del("DELETE FROM verify_pending WHERE session_id IN (SELECT id FROM forget_session)")?;
        del("DELETE FROM session_source WHERE session_id IN (SELECT id FROM forget_session)")?;
        del("DELETE FROM session WHERE id IN (SELECT id FROM forget_session)")?;
        // Their archived copies go with them, unless a record that stays shares one.
        del("CREATE TEMP TABLE IF NOT EXISTS forget_blob (hash BLOB PRIMARY KEY)")?;
        del("DELETE FROM forget_blob")?;
        del("INSERT OR IGNORE INTO forget_blob (hash)
             SELECT archived FROM record
             WHERE id IN (SELECT id FROM forget_record) AND archived IS NOT NULL")?;
        out.records = del("DELETE FROM record WHERE id IN (SELECT id FROM forget_record)")?;
        del("DELETE FROM forget_blob WHERE hash IN
                 (SELECT archived FROM record WHERE archived IS NOT NULL)")?;
        out.archived =
            del("DELETE FROM archive_blob WHERE hash IN (SELECT hash FROM forget_blob)")?;
        // The archive's dictionaries may hold fragments of the forgotten copies.
        if out.archived > 0 {
            crate::dictionary::retire(&tx)?;
        }
        // So may the packed columns' dictionaries of the forgotten items and evidence.
        if out.items > 0 || out.evidence > 0 {
            crate::packs::retire(&tx, &self.dicts)?;
        }
        // Texts no remaining item shares: out of the full-text index first (only those the
        // index holds: indexed and no longer pending), then out of the table.
        del("DELETE FROM forget_text WHERE id IN (SELECT text_id FROM item WHERE text_id IS NOT NULL)")?;
        del("INSERT INTO text_fts (text_fts, rowid, body)
             SELECT 'delete', t.id, t.body FROM text t
             WHERE t.id IN (SELECT id FROM forget_text) AND t.indexed = 1
               AND t.id NOT IN (SELECT text_id FROM fts_pending)")?;
        del("DELETE FROM fts_pending WHERE text_id IN (SELECT id FROM forget_text)")?;
        out.texts = del("DELETE FROM text_store WHERE id IN (SELECT id FROM forget_text)")?;
        // Exclusive file sources stay as tombstones so that a scan does not import them
        // again; spool segments stay live (other sessions' events arrive in them).
        out.sources_closed = del(&format!(
            "UPDATE source SET status = '{FORGOTTEN}', adapter_state = NULL, session_hint = NULL,
                 last_error = NULL
             WHERE id IN (SELECT id FROM forget_source) AND adapter != 'fornax-spool'"
        ))?;
        // A shared source's checkpoint that names a forgotten session is dropped: the source is
        // read again from its start at its next change (without the forgotten events).
        for native in &out.native_ids {
            tx.execute(
                "UPDATE source SET adapter_state = NULL
                 WHERE adapter_state IS NOT NULL AND instr(unpacked(adapter_state), ?1) > 0",
                [native],
            )?;
        }
        // The forgotten sessions' rollup goes with their calls.
        crate::usage::refresh_usage_rollup(&tx)?;
        tx.commit()?;
        self.scrub()?;
        Ok(out)
    }

    /// After a spool segment was rewritten in place (same length, forgotten lines blanked):
    /// its stored change-detection state, so the next scan sees it unchanged.
    pub fn set_source_cursor(&self, key: &str, cursor: &SourceCursor) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE source SET inode = ?2, size = ?3, mtime_ns = ?4, prefix_len = ?5,
                 prefix_fp = ?6, block_fps = ?7
             WHERE source_key = ?1",
            params![
                key,
                cursor.inode.map(|v| v as i64),
                cursor.size.map(|v| v as i64),
                cursor.mtime_ns,
                cursor.prefix_len.map(|v| v as i64),
                cursor.prefix_fp,
                cursor.blocks,
            ],
        )?;
        Ok(())
    }

    /// Re-applies `redactor` to every stored value that came from native data, `batch` rows
    /// per transaction. Idempotent: a second run changes nothing.
    pub fn redact_again(&mut self, redactor: &Redactor, batch: usize) -> Result<Rerun, StoreError> {
        let batch = batch.max(1) as i64;
        let mut out = Rerun::default();
        let mut counts = RedactionCounts::default();
        self.conn.pragma_update(None, "secure_delete", "ON")?;
        for &(table, column, json) in REDACTABLE {
            let mut after = 0i64;
            loop {
                let tx = self.conn.transaction()?;
                let rows: Vec<(i64, String)> = {
                    let mut stmt = tx.prepare(&format!(
                        "SELECT rowid, unpacked({column}) FROM {table}
                         WHERE rowid > ?1 AND {column} IS NOT NULL ORDER BY rowid LIMIT ?2"
                    ))?;
                    let rows =
                        stmt.query_map(params![after, batch], |r| Ok((r.get(0)?, r.get(1)?)))?;
                    rows.collect::<Result<_, _>>()?
                };
                let Some(last) = rows.last().map(|r| r.0) else {
                    break;
                };
                after = last;
                for (rowid, old) in rows {
                    out.values += 1;
                    let new = redo(redactor, &old, json, &mut counts);
                    let Some(new) = new else { continue };
                    out.changed += 1;
                    if table == "text_store" {
                        replace_text(&tx, rowid, &old, &new)?;
                    } else {
                        tx.execute(
                            &format!(
                                "UPDATE {table} SET {column} = {} WHERE rowid = ?1",
                                if PACKED.contains(&(table, column)) {
                                    "packed(?2)"
                                } else {
                                    "?2"
                                }
                            ),
                            params![rowid, new],
                        )?;
                    }
                }
                tx.commit()?;
            }
        }
        // A packed column's dictionary trained on rows that held a secret may hold it too.
        if out.changed > 0 {
            let tx = self.conn.transaction()?;
            crate::packs::retire(&tx, &self.dicts)?;
            tx.commit()?;
        }
        let (read, changed) = self.redact_archive_again(redactor, batch, &mut counts)?;
        // A dictionary trained on copies that held a secret may hold it too.
        if changed > 0 {
            let tx = self.conn.transaction()?;
            crate::dictionary::retire(&tx)?;
            tx.commit()?;
        }
        out.values += read;
        out.changed += changed;
        for (kind, n) in counts.iter() {
            *out.kinds.entry(kind.to_string()).or_insert(0) += n;
        }
        if out.changed > 0 {
            self.flush_search_index()?;
            self.scrub()?;
        }
        Ok(out)
    }

    /// Leaves no removed text behind: full-text segments merged (deleted entries dropped) and
    /// the WAL copied back and truncated (`secure_delete` zeroed the freed cells).
    fn scrub(&mut self) -> Result<(), StoreError> {
        self.conn
            .execute("INSERT INTO text_fts (text_fts) VALUES ('optimize')", [])?;
        self.conn.execute_batch("VACUUM")?;
        self.conn.pragma_update(None, "secure_delete", "OFF")?;
        self.checkpoint()
    }
}

/// The value redacted again, when the detectors change it.
fn redo(
    redactor: &Redactor,
    old: &str,
    json: bool,
    counts: &mut RedactionCounts,
) -> Option<String> {
    let parsed = json
        .then(|| serde_json::from_str::<serde_json::Value>(old).ok())
        .flatten();
    match parsed {
        // Compared as values: re-serializing alone is not a change.
        Some(value) => {
            let redacted = redactor.redact(value.clone(), counts).into_inner();
            (redacted != value)
                .then(|| serde_json::to_string(&redacted).ok())
                .flatten()
        }
        None => {
            let redacted = redactor.redact(old.to_string(), counts).into_inner();
            (redacted != old).then_some(redacted)
        }
    }
}

/// A deduplicated text whose body changed: its hash follows, and when the new body is already
/// stored the items point there and the old row goes. The full-text index drops the old body
/// and queues the new one.
fn replace_text(
    tx: &rusqlite::Transaction<'_>,
    id: i64,
    old: &str,
    new: &str,
) -> Result<(), StoreError> {
    let (indexed, pending): (bool, bool) = tx.query_row(
        "SELECT indexed, EXISTS (SELECT 1 FROM fts_pending WHERE text_id = ?1) FROM text_store WHERE id = ?1",
        [id],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if indexed && !pending {
        tx.execute(
            "INSERT INTO text_fts (text_fts, rowid, body) VALUES ('delete', ?1, ?2)",
            params![id, old],
        )?;
    }
    let hash = blake3::hash(new.as_bytes());
    let existing: Option<i64> = tx
        .query_row(
            "SELECT id FROM text_store WHERE hash = ?1",
            [&hash.as_bytes()[..]],
            |r| r.get(0),
        )
        .optional()?;
    match existing {
        Some(other) if other != id => {
            tx.execute(
                "UPDATE item_store SET text_id = ?2 WHERE text_id = ?1",
                params![id, other],
            )?;
            tx.execute("DELETE FROM fts_pending WHERE text_id = ?1", [id])?;
            tx.execute("DELETE FROM text_store WHERE id = ?1", [id])?;
            // The text already there becomes searchable if the replaced one was.
            if indexed
                && tx.execute(
                    "UPDATE text_store SET indexed = 1 WHERE id = ?1 AND indexed = 0",
                    [other],
                )? > 0
            {
                tx.execute(
                    "INSERT OR IGNORE INTO fts_pending (text_id) VALUES (?1)",
                    [other],
                )?;
            }
        }
        _ => {
            tx.execute(
                "UPDATE text_store SET body = packed(?2), hash = ?3 WHERE id = ?1",
                params![id, new, &hash.as_bytes()[..]],
            )?;
            if indexed {
                tx.execute(
                    "INSERT OR IGNORE INTO fts_pending (text_id) VALUES (?1)",
                    [id],
                )?;
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "ghp_R2d2C3poBb8Yoda9Luke0Leia1Han2Solo3X";

    /// A home written by a release whose detectors missed a secret: the secret sits in a text
    /// (searchable), a claim and a checkpoint. `redact --again` removes it from every one of
    /// them, from the search index and from the database file, and a second run changes nothing.
    #[test]
    fn a_secret_stored_by_an_earlier_release_is_redacted_again_everywhere() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("fornax.db");
        let mut store = Store::open(&path).unwrap();
        let body = format!("the token is {SECRET} ok");
        store
            .conn
            .execute_batch(&format!(
                "INSERT INTO session (id, provider, native_id) VALUES (1, 'claude_code', 's1');
                 INSERT INTO text_store (id, hash, body, indexed) VALUES (1, x'00', '{body}', 1);
                 INSERT INTO text_fts (rowid, body) VALUES (1, '{body}');
                 INSERT INTO item_store (session_id, key, seq, role, strength, kind, text_id, value)
                     VALUES (1, 'k', 1, 'agent', 'asserted', 'text', 1, '{{}}');
                 INSERT INTO claim (session_id, claim_key, item_key, subject, text, target)
                     VALUES (1, 'c', 'k', 'tests', 'pushed with {SECRET}', 'x');
                 INSERT INTO source (source_key, provider, kind, locator, adapter, adapter_state)
                     VALUES ('file:/x', 'claude_code', 'file', '/x', 'a', '{{\"last\":\"{SECRET}\"}}');"
            ))
            .unwrap();
        store.checkpoint().unwrap();
        let redactor = Redactor::new();
        let first = store.redact_again(&redactor, 2).unwrap();
        assert_eq!(first.changed, 3, "{first:?}");
        let body: String = store
            .conn
            .query_row("SELECT body FROM text WHERE id = 1", [], |r| r.get(0))
            .unwrap();
        assert!(
            !body.contains(SECRET) && body.starts_with("the token is "),
            "{body}"
        );
        assert!(store.search_hits(SECRET).unwrap() == 0);
        let again = store.redact_again(&redactor, 2).unwrap();
        assert_eq!(again.changed, 0, "{again:?}");
        drop(store);
        for suffix in ["", "-wal"] {
            let file = tmp.path().join(format!("fornax.db{suffix}"));
            let bytes = std::fs::read(&file).unwrap_or_default();
            assert!(
                !bytes.windows(SECRET.len()).any(|w| w == SECRET.as_bytes()),
                "{} holds the secret",
                file.display()
            );
        }
    }

    /// An archived copy written before the detectors knew a secret: `redact --again` stores the
    /// copy redacted under its new key, moves its record there, deletes the old copy, and a
    /// second run changes nothing.
    #[test]
    fn an_archived_copy_is_redacted_again_and_its_record_follows() {
        let tmp = tempfile::tempdir().unwrap();
        let mut store = Store::open(&tmp.path().join("fornax.db")).unwrap();
        let bytes =
            serde_json::to_vec(&serde_json::json!({"text": format!("token {SECRET}")})).unwrap();
        let old = crate::archive::Copy {
            hash: *blake3::hash(&bytes).as_bytes(),
            bytes,
        };
        crate::archive::put(&store.conn, &mut Default::default(), &old).unwrap();
        store
            .conn
            .execute_batch(
                "INSERT INTO source (id, source_key, provider, kind, locator, adapter)
                     VALUES (1, 'file:/x', 'claude_code', 'file', '/x', 'a');",
            )
            .unwrap();
        store
            .conn
            .execute(
                "INSERT INTO record (source_id, position, fingerprint, archived)
                 VALUES (1, 0, x'00', ?1)",
                [&old.hash[..]],
            )
            .unwrap();
        let redactor = Redactor::new();
        let first = store.redact_again(&redactor, 10).unwrap();
        assert_eq!(first.changed, 1, "{first:?}");
        let id: i64 = store
            .conn
            .query_row("SELECT id FROM record", [], |r| r.get(0))
            .unwrap();
        let crate::archive::ArchivedCopy::Intact(now) = store.archived_copy(id).unwrap() else {
            panic!("the record names an intact copy after the rerun")
        };
        let now = String::from_utf8(now).unwrap();
        assert!(!now.contains(SECRET) && now.contains("token "), "{now}");
        let blobs: i64 = store
            .conn
            .query_row("SELECT COUNT(*) FROM archive_blob", [], |r| r.get(0))
            .unwrap();
        assert_eq!(blobs, 1, "the old copy is gone");
        let again = store.redact_again(&redactor, 10).unwrap();
        assert_eq!(again.changed, 0, "{again:?}");
    }

    impl Store {
        fn search_hits(&self, needle: &str) -> Result<i64, StoreError> {
            let quoted = format!("\"{needle}\"");
            Ok(self.conn.query_row(
                "SELECT COUNT(*) FROM text_fts WHERE text_fts MATCH ?1",
                [quoted],
                |r| r.get(0),
            )?)
        }
    }
}
