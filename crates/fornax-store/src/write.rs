//! Source-atomic writes.
//!
//! A [`SourceWriter`] wraps one transaction for one source: its records, every canonical and
//! judgement message normalized from them, and the source's new cursor are committed together
//! by [`SourceWriter::finish`]. Dropping the writer without finishing rolls everything back.

use std::collections::{BTreeSet, HashMap, HashSet};

use fornax_redact::Redacted;
use fornax_types::{
    ByteRange, Evidence, Fingerprint, IngestMessage, Item, Loop, RecordRef, RuntimeCapabilities,
    SemanticValue, Session, SessionRef, UsageFact,
};
use rusqlite::{params, OptionalExtension, Transaction};

use crate::packs::{Column, Packs};
use crate::{Store, StoreError};

/// What identifies a source and how to read it.
#[derive(Debug, Clone)]
pub struct SourceSpec {
    /// Stable key, equal to the `SourceId` adapters cite.
    pub key: String,
    pub provider: String,
    pub kind: String,
    pub locator: String,
    pub adapter: String,
    pub session_hint: Option<String>,
}

#[cfg(test)]
impl SourceSpec {
    /// A Codex rollout file `/tmp/{key}.jsonl`, for the store's unit tests.
    pub(crate) fn codex_file(key: &str) -> SourceSpec {
        SourceSpec {
            key: key.into(),
            provider: "codex".into(),
            kind: "file".into(),
            locator: format!("/tmp/{key}.jsonl"),
            adapter: "codex-rollout".into(),
            session_hint: None,
        }
    }
}

/// The stored state of a source, used to decide what a rescan must read.
#[derive(Debug, Clone, PartialEq)]
pub struct SourceState {
    pub id: i64,
    pub adapter: String,
    /// How the source is read (`file`, `array`, `concat`, `tree`, `database`, `dump`).
    pub kind: String,
    pub cursor: SourceCursor,
    pub next_position: u64,
    pub adapter_state: Option<String>,
    pub status: String,
}

/// File identity and read position, persisted with the data in the same transaction.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceCursor {
    pub inode: Option<u64>,
    pub size: Option<u64>,
    pub mtime_ns: Option<i64>,
    /// Length and BLAKE3 of the file prefix covered by the fingerprint.
    pub prefix_len: Option<u64>,
    pub prefix_fp: Option<Vec<u8>>,
    /// Byte offset up to which complete records were consumed.
    pub offset: u64,
    /// The last record is a final line without its newline (the cursor stands after it).
    pub open_tail: bool,
    /// Fingerprints of the 1 MiB blocks before `offset` (16 bytes each), when computed.
    pub blocks: Option<Vec<u8>>,
}

/// One row of the drift table: a native shape an adapter did not translate.
#[derive(Debug, Clone, Copy)]
pub struct Drift<'a> {
    pub provider: &'a str,
    pub adapter: &'a str,
    pub runtime_version: &'a str,
    /// `unrecognized` or `ignored`.
    pub outcome: &'a str,
    /// The native shape's name (a record type, a reason): it came from native data.
    pub discriminator: &'a Redacted<String>,
}

/// Where one native record is and what identifies it (its raw bytes are not kept here).
#[derive(Debug, Clone, Copy)]
pub struct NativeRecordRow<'a> {
    pub position: u64,
    /// Where it sits inside a multi-document source.
    pub member: Option<&'a str>,
    pub byte_range: Option<ByteRange>,
    /// BLAKE3 of the raw native bytes.
    pub fingerprint: &'a Fingerprint,
    pub runtime_ts: Option<&'a str>,
    /// The native record's length in bytes, when known.
    pub byte_len: Option<u64>,
}

/// Counts of what one writer did: rows it added (a row it only updated, for a fact seen again
/// through another source, is not counted).
#[derive(Debug, Clone, Default)]
pub struct WriteSummary {
    pub records: u64,
    pub items: u64,
    pub loops: u64,
    pub evidence: u64,
    pub new_sessions: u64,
    /// Copies added to the archive (a record whose copy was already there adds none).
    pub archived: u64,
    /// Sessions (row ids) whose data changed and must be re-verified.
    pub touched_sessions: BTreeSet<i64>,
}

impl Store {
    pub fn source_state(&self, key: &str) -> Result<Option<SourceState>, StoreError> {
        // Called once per file of every scan: the statement is prepared once.
        let row = self
            .conn
            .prepare_cached(
                "SELECT id, adapter, inode, size, mtime_ns, prefix_len, prefix_fp, cursor,
                        next_position, adapter_state, status, open_tail, block_fps, kind
                 FROM source WHERE source_key = ?1",
            )?
            .query_row([key], |r| {
                Ok(SourceState {
                    id: r.get(0)?,
                    adapter: r.get(1)?,
                    kind: r.get(13)?,
                    cursor: SourceCursor {
                        inode: r.get::<_, Option<i64>>(2)?.map(|v| v as u64),
                        size: r.get::<_, Option<i64>>(3)?.map(|v| v as u64),
                        mtime_ns: r.get(4)?,
                        prefix_len: r.get::<_, Option<i64>>(5)?.map(|v| v as u64),
                        prefix_fp: r.get(6)?,
                        offset: r.get::<_, i64>(7)? as u64,
                        open_tail: r.get::<_, i64>(11)? != 0,
                        blocks: r.get(12)?,
                    },
                    next_position: r.get::<_, i64>(8)? as u64,
                    adapter_state: crate::packed::unpack(r.get_ref(9)?, &self.dicts).map_err(
                        |e| {
                            rusqlite::Error::FromSqlConversionFailure(
                                9,
                                rusqlite::types::Type::Blob,
                                Box::new(e),
                            )
                        },
                    )?,
                    status: r.get(10)?,
                })
            })
            .optional()?;
        Ok(row)
    }

    /// Every known source key with its locator (for noticing removed files).
    pub fn source_keys(&self) -> Result<Vec<(String, String, String)>, StoreError> {
        let mut stmt = self
            .conn
            .prepare("SELECT source_key, locator, status FROM source")?;
        let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// Records that retention deleted a source's file once everything in it was stored: its
    /// records stay (with `retired_at` set), and its key is freed, so a new file at the same
    /// path is a new source and never rebuilds (or deletes) what the retired one held.
    pub fn retire_source(&self, key: &str, now: &str) -> Result<bool, StoreError> {
        let n = self.conn.execute(
            "UPDATE source SET status = 'retired', retired_at = ?2,
                 source_key = source_key || '#retired@' || ?2
             WHERE source_key = ?1",
            params![key, now],
        )?;
        Ok(n > 0)
    }

    /// Marks a source's status (for example `missing`) without touching its data.
    pub fn set_source_status(&self, key: &str, status: &str) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE source SET status = ?2 WHERE source_key = ?1",
            params![key, status],
        )?;
        Ok(())
    }

    /// Sets a source's status and retirement as another store recorded them (`reindex`
    /// carries them over).
    pub fn restore_source_status(
        &self,
        key: &str,
        status: &str,
        retired_at: Option<&str>,
    ) -> Result<(), StoreError> {
        self.conn.execute(
            "UPDATE source SET status = ?2, retired_at = ?3 WHERE source_key = ?1",
            params![key, status, retired_at],
        )?;
        Ok(())
    }

    /// Starts the transaction for one source. With `rebuild`, everything previously derived from
    /// the source is removed first (inside the same transaction).
    pub fn begin_source(
        &mut self,
        spec: &SourceSpec,
        rebuild: bool,
    ) -> Result<SourceWriter<'_>, StoreError> {
        let tx = self.conn.transaction()?;
        tx.execute(
            "INSERT INTO source (source_key, provider, kind, locator, adapter, session_hint)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT(source_key) DO UPDATE SET provider = excluded.provider,
                 kind = excluded.kind, locator = excluded.locator, adapter = excluded.adapter,
                 session_hint = excluded.session_hint, status = 'active'",
            params![
                spec.key,
                spec.provider,
                spec.kind,
                spec.locator,
                spec.adapter,
                spec.session_hint
            ],
        )?;
        let source_id: i64 = tx.query_row(
            "SELECT id FROM source WHERE source_key = ?1",
            [&spec.key],
            |r| r.get(0),
        )?;
        let mut summary = WriteSummary::default();
        let mut replaced = HashSet::new();
        if rebuild {
            replaced = reset_source(&tx, source_id, &mut summary)?;
        }
        let archiver = crate::dictionary::packer_for(&tx, &spec.provider)?;
        self.packs.sync(&tx, &self.dicts, true)?;
        let next_seq: i64 = tx.query_row(
            "SELECT COALESCE((SELECT value FROM counter WHERE name = 'item_seq'),
                             (SELECT MAX(seq) FROM item_store), 0) + 1",
            [],
            |r| r.get(0),
        )?;
        Ok(SourceWriter {
            tx,
            source_id,
            source_key: spec.key.clone(),
            records: HashMap::new(),
            sessions: HashMap::new(),
            next_seq,
            summary,
            last_activity: HashMap::new(),
            usage_sessions: HashSet::new(),
            replaced,
            copies: HashSet::new(),
            packer: crate::archive::Packer::default(),
            archiver,
            packs: &mut self.packs,
            first_seq: next_seq,
        })
    }
}

/// Removes what a source derived; returns the archive keys its records named (a copy the
/// rebuilt source no longer names is deleted when it commits, unless another record names it).
fn reset_source(
    tx: &Transaction<'_>,
    source_id: i64,
    summary: &mut WriteSummary,
) -> Result<HashSet<[u8; 32]>, StoreError> {
    let mut replaced = HashSet::new();
    {
        let mut stmt = tx.prepare(
            "SELECT DISTINCT archived FROM record WHERE source_id = ?1 AND archived IS NOT NULL",
        )?;
        let keys = stmt.query_map([source_id], |r| r.get::<_, Vec<u8>>(0))?;
        for key in keys {
            if let Ok(key) = <[u8; 32]>::try_from(key?.as_slice()) {
                replaced.insert(key);
            }
        }
    }
    {
        let mut stmt = tx.prepare("SELECT session_id FROM session_source WHERE source_id = ?1")?;
        let ids = stmt.query_map([source_id], |r| r.get::<_, i64>(0))?;
        for id in ids {
            summary.touched_sessions.insert(id?);
        }
    }
    tx.execute_batch(&format!(
        "DELETE FROM item_record WHERE record_id IN (SELECT id FROM record WHERE source_id = {source_id});
         DELETE FROM item_store WHERE source_id = {source_id}
             AND NOT EXISTS (SELECT 1 FROM item_record ir WHERE ir.item_id = item_store.id);
         DELETE FROM evidence_store WHERE source_id = {source_id} AND derived = 0;
         DELETE FROM loop WHERE source_id = {source_id};
         DELETE FROM capability WHERE source_id = {source_id};
         DELETE FROM record WHERE source_id = {source_id};
         DELETE FROM session_source WHERE source_id = {source_id};
         UPDATE source SET cursor = 0, next_position = 0, adapter_state = NULL,
             malformed = 0, oversized = 0, defects = 0, open_tail = 0, block_fps = NULL
             WHERE id = {source_id};"
    ))?;
    Ok(replaced)
}

/// One source's open transaction.
#[derive(Debug)]
pub struct SourceWriter<'c> {
    tx: Transaction<'c>,
    source_id: i64,
    source_key: String,
    /// Record ids of this source by position, for the records written in this transaction.
    records: HashMap<u64, i64>,
    sessions: HashMap<SessionRef, i64>,
    next_seq: i64,
    summary: WriteSummary,
    /// The latest item time per session seen in this transaction, written by `finish`.
    last_activity: HashMap<i64, String>,
    /// Sessions whose usage rows this writer inserted or replaced: `finish` rebuilds their
    /// rollup.
    usage_sessions: HashSet<i64>,
    /// Archive keys the records a rebuild removed named, and the keys this writer's records
    /// name: a removed key nothing names any more is deleted by `finish`.
    replaced: HashSet<[u8; 32]>,
    copies: HashSet<[u8; 32]>,
    /// Packs texts and the adapter's checkpoint (`crate::packed`): no dictionary.
    packer: crate::archive::Packer,
    /// Packs archived copies, with the provider's dictionary when it has one.
    archiver: crate::archive::Packer,
    /// The packed columns' compressors (items' values, evidence payloads and records).
    packs: &'c mut Packs,
    /// `next_seq` when the transaction began: `finish` keeps the counter when it moved.
    first_seq: i64,
}

/// Moves the primary text of a value out (it is stored once, deduplicated, in `text`).
fn take_primary_text(value: &mut SemanticValue) -> Option<String> {
    match value {
        SemanticValue::Text(t) => Some(std::mem::take(&mut t.text)),
        SemanticValue::Reasoning(r) => r.text.as_mut().map(|t| std::mem::take(&mut t.text)),
        SemanticValue::ToolOutput(o) => o.text.as_mut().map(|t| std::mem::take(&mut t.text)),
        SemanticValue::Subagent(s) => s.text.as_mut().map(|t| std::mem::take(&mut t.text)),
        SemanticValue::ToolCall(_) | SemanticValue::ShellCall(_) | SemanticValue::Delegation(_) => {
            None
        }
    }
}

/// Puts a primary text back (inverse of [`take_primary_text`]).
pub(crate) fn restore_primary_text(value: &mut SemanticValue, text: String) {
    match value {
        SemanticValue::Text(t) => t.text = text,
        SemanticValue::Reasoning(r) => {
            if let Some(t) = &mut r.text {
                t.text = text;
            }
        }
        SemanticValue::ToolOutput(o) => {
            if let Some(t) = &mut o.text {
                t.text = text;
            }
        }
        SemanticValue::Subagent(s) => {
            if let Some(t) = &mut s.text {
                t.text = text;
            }
        }
        _ => {}
    }
}

fn value_kind(value: &SemanticValue) -> &'static str {
    match value {
        SemanticValue::Text(_) => "text",
        SemanticValue::Reasoning(_) => "reasoning",
        SemanticValue::ToolCall(_) => "tool_call",
        SemanticValue::ShellCall(_) => "shell_call",
        SemanticValue::ToolOutput(_) => "tool_output",
        SemanticValue::Delegation(_) => "delegation",
        SemanticValue::Subagent(_) => "subagent",
    }
}

impl<'c> SourceWriter<'c> {
    pub fn source_id(&self) -> i64 {
        self.source_id
    }

    /// Records one framed native record.
    pub fn add_record(
        &mut self,
        position: u64,
        byte_range: Option<ByteRange>,
        fingerprint: &Fingerprint,
        runtime_ts: Option<&str>,
    ) -> Result<(), StoreError> {
        self.add_member_record(position, None, byte_range, fingerprint, runtime_ts)
    }

    /// Records one native record of a multi-document source: `member` names where it sits
    /// inside the source (a path under a tree root, or `<table>/<key>` of a database).
    pub fn add_member_record(
        &mut self,
        position: u64,
        member: Option<&str>,
        byte_range: Option<ByteRange>,
        fingerprint: &Fingerprint,
        runtime_ts: Option<&str>,
    ) -> Result<(), StoreError> {
        let record = NativeRecordRow {
            position,
            member,
            byte_range,
            fingerprint,
            runtime_ts,
            byte_len: byte_range.map(|r| r.end.saturating_sub(r.start)),
        };
        self.add_archived_record(&record, None)
    }

    /// Records one native record with its copy for the archive (`None`: the archive is off).
    /// The copy is the record's value after redaction; it is kept once however many records
    /// share it, in this source's transaction.
    pub fn add_archived_record(
        &mut self,
        record: &NativeRecordRow<'_>,
        copy: Option<&Redacted<serde_json::Value>>,
    ) -> Result<(), StoreError> {
        let archived = match copy {
            Some(value) => {
                let copy = crate::archive::Copy::of(value)?;
                if crate::archive::put(&self.tx, &mut self.archiver, &copy)? {
                    self.summary.archived += 1;
                }
                if !self.replaced.is_empty() {
                    self.copies.insert(copy.hash);
                }
                Some(copy.hash)
            }
            None => None,
        };
        let byte_range = record.byte_range;
        let mut stmt = self.tx.prepare_cached(
            "INSERT INTO record (source_id, position, byte_start, byte_end, fingerprint, runtime_ts,
                 member, archived, byte_len)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)
             ON CONFLICT(source_id, position) DO UPDATE SET byte_start = excluded.byte_start,
                 byte_end = excluded.byte_end, fingerprint = excluded.fingerprint,
                 runtime_ts = excluded.runtime_ts, member = excluded.member,
                 archived = excluded.archived, byte_len = excluded.byte_len
             RETURNING id",
        )?;
        let id: i64 = stmt.query_row(
            params![
                self.source_id,
                record.position as i64,
                byte_range.map(|r| r.start as i64),
                byte_range.map(|r| r.end as i64),
                &record.fingerprint.0[..],
                record.runtime_ts,
                record.member,
                archived.as_ref().map(|h| &h[..]),
                record.byte_len.map(|n| n as i64)
            ],
            |r| r.get(0),
        )?;
        self.records.insert(record.position, id);
        self.summary.records += 1;
        Ok(())
    }

    fn record_id(&mut self, r: &RecordRef) -> Result<Option<i64>, StoreError> {
        if r.source.as_str() == self.source_key {
            if let Some(id) = self.records.get(&r.position) {
                return Ok(Some(*id));
            }
        }
        let mut stmt = self.tx.prepare_cached(
            "SELECT record.id FROM record JOIN source ON source.id = record.source_id
             WHERE source.source_key = ?1 AND record.position = ?2",
        )?;
        Ok(stmt
            .query_row(params![r.source.as_str(), r.position as i64], |row| {
                row.get(0)
            })
            .optional()?)
    }

    /// The row id of a session, creating a bare row if the session is not known yet.
    pub fn session_id(&mut self, s: &SessionRef) -> Result<i64, StoreError> {
        if let Some(id) = self.sessions.get(s) {
            return Ok(*id);
        }
        let existing: Option<i64> = self
            .tx
            .prepare_cached("SELECT id FROM session WHERE provider = ?1 AND native_id = ?2")?
            .query_row(params![s.provider.as_str(), s.native_id], |r| r.get(0))
            .optional()?;
        let id = match existing {
            Some(id) => id,
            None => {
                self.tx.execute(
                    "INSERT INTO session (provider, native_id) VALUES (?1, ?2)",
                    params![s.provider.as_str(), s.native_id],
                )?;
                self.summary.new_sessions += 1;
                self.tx.last_insert_rowid()
            }
        };
        self.tx.execute(
            "INSERT OR IGNORE INTO session_source (session_id, source_id) VALUES (?1, ?2)",
            params![id, self.source_id],
        )?;
        self.sessions.insert(s.clone(), id);
        self.summary.touched_sessions.insert(id);
        Ok(id)
    }

    /// Applies one canonical or judgement message (redacted: only `fornax-redact` makes a
    /// [`Redacted`]).
    pub fn apply(&mut self, msg: &Redacted<IngestMessage>) -> Result<(), StoreError> {
        match msg.get() {
            IngestMessage::Session(s) => self.put_session(s),
            IngestMessage::Loop(l) => self.put_loop(l),
            IngestMessage::Item(i) => self.put_item(i),
            IngestMessage::Evidence(e) => self.put_evidence(e, false),
            IngestMessage::Capabilities(c) => self.put_capabilities(c),
            IngestMessage::Usage(u) => self.put_usage(u),
            // Sources and records are framed by the caller; claims and findings are computed
            // by verification, which writes through `Store::write_verification`.
            IngestMessage::Source(_)
            | IngestMessage::Record(_)
            | IngestMessage::Claim(_)
            | IngestMessage::Finding(_) => Ok(()),
        }
    }

    fn put_session(&mut self, s: &Session) -> Result<(), StoreError> {
        let id = self.session_id(&s.id)?;
        let identity = self.record_id(&s.identity_record)?;
        let d = s.delegated_from.as_ref();
        self.tx
            .prepare_cached(
                "UPDATE session SET cwd = COALESCE(?2, cwd), name = COALESCE(?3, name),
                 created_at = COALESCE(created_at, ?4), forked_from = COALESCE(?5, forked_from),
                 parent_native_id = COALESCE(?6, parent_native_id),
                 parent_call_id = COALESCE(?7, parent_call_id), agent_id = COALESCE(?8, agent_id),
                 agent_type = COALESCE(?9, agent_type),
                 runtime_version = COALESCE(runtime_version, ?10),
                 identity_record_id = COALESCE(identity_record_id, ?11)
             WHERE id = ?1",
            )?
            .execute(params![
                id,
                s.cwd,
                s.name,
                s.created_at,
                s.forked_from,
                d.map(|d| d.parent_native_id.as_str()),
                d.and_then(|d| d.call_id.as_deref()),
                d.and_then(|d| d.agent_id.as_deref()),
                d.and_then(|d| d.agent_type.as_deref()),
                s.runtime_version,
                identity
            ])?;
        Ok(())
    }

    fn put_loop(&mut self, l: &Loop) -> Result<(), StoreError> {
        let sid = self.session_id(&l.session)?;
        let start = self.record_id(&l.start_record)?;
        let end_record = match &l.end {
            Some(e) => self.record_id(&e.record)?,
            None => None,
        };
        let outcome = l.end.as_ref().map(|e| match e.outcome {
            fornax_types::LoopOutcome::Completed => "completed",
            fornax_types::LoopOutcome::Interrupted => "interrupted",
            fornax_types::LoopOutcome::Failed => "failed",
        });
        let u = l.usage.unwrap_or_default();
        let n = |v: Option<u64>| v.map(|v| v as i64);
        let known = self
            .tx
            .prepare_cached("SELECT 1 FROM loop WHERE session_id = ?1 AND position = ?2")?
            .exists(params![sid, l.position])?;
        self.tx.prepare_cached(
            "INSERT INTO loop (session_id, position, native_id, start_record_id, started_at,
                 end_record_id, outcome, ended_at, model, input_tokens, cached_input_tokens,
                 output_tokens, reasoning_output_tokens, runtime_version, source_id)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
             ON CONFLICT(session_id, position) DO UPDATE SET
                 native_id = COALESCE(excluded.native_id, native_id),
                 start_record_id = COALESCE(start_record_id, excluded.start_record_id),
                 started_at = COALESCE(started_at, excluded.started_at),
                 end_record_id = COALESCE(excluded.end_record_id, end_record_id),
                 outcome = COALESCE(excluded.outcome, outcome),
                 ended_at = COALESCE(excluded.ended_at, ended_at),
                 model = COALESCE(excluded.model, model),
                 input_tokens = COALESCE(excluded.input_tokens, input_tokens),
                 cached_input_tokens = COALESCE(excluded.cached_input_tokens, cached_input_tokens),
                 output_tokens = COALESCE(excluded.output_tokens, output_tokens),
                 reasoning_output_tokens = COALESCE(excluded.reasoning_output_tokens, reasoning_output_tokens),
                 runtime_version = COALESCE(excluded.runtime_version, runtime_version)",
        )?
        .execute(params![
            sid,
            l.position,
            l.native_id,
            start,
            l.started_at,
            end_record,
            outcome,
            l.end.as_ref().and_then(|e| e.ended_at.clone()),
            l.model,
            n(u.input_tokens),
            n(u.cached_input_tokens),
            n(u.output_tokens),
            n(u.reasoning_output_tokens),
            l.runtime_version,
            self.source_id
        ])?;
        if !known {
            self.summary.loops += 1;
        }
        Ok(())
    }

    /// One model call's usage, once per `(provider, key)` across every source: the same call
    /// seen again in its own session (a split message's later line, a grown count) replaces
    /// the counts; seen in another session (a resumed or copied file) it is kept where it was
    /// first stored and not counted again.
    fn put_usage(&mut self, u: &UsageFact) -> Result<(), StoreError> {
        let sid = self.session_id(&u.session)?;
        let record = self.record_id(&u.record)?;
        // Only this session's row can change (a call stored in another session is kept there).
        self.usage_sessions.insert(sid);
        let t = &u.tokens;
        let n = |v: u64| i64::try_from(v).unwrap_or(i64::MAX);
        self.tx
            .prepare_cached(
                "INSERT INTO usage (provider, key, session_id, loop_position, at, model,
                     input_tokens, output_tokens, cache_creation_tokens, cache_read_tokens,
                     reasoning_tokens, reported_cost_usd, record_id, source_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
                 ON CONFLICT(provider, key) DO UPDATE SET
                     loop_position = COALESCE(excluded.loop_position, loop_position),
                     at = COALESCE(at, excluded.at),
                     model = COALESCE(excluded.model, model),
                     input_tokens = excluded.input_tokens,
                     output_tokens = excluded.output_tokens,
                     cache_creation_tokens = excluded.cache_creation_tokens,
                     cache_read_tokens = excluded.cache_read_tokens,
                     reasoning_tokens = COALESCE(excluded.reasoning_tokens, reasoning_tokens),
                     reported_cost_usd = COALESCE(excluded.reported_cost_usd, reported_cost_usd),
                     record_id = excluded.record_id
                 WHERE usage.session_id = excluded.session_id",
            )?
            .execute(params![
                u.session.provider.as_str(),
                u.key,
                sid,
                u.loop_position,
                u.at,
                u.model,
                n(t.input),
                n(t.output),
                n(t.cache_creation),
                n(t.cache_read),
                t.reasoning.map(n),
                u.reported_cost_usd,
                record,
                self.source_id
            ])?;
        Ok(())
    }

    fn put_text(&mut self, body: &str, index: bool) -> Result<i64, StoreError> {
        let hash = blake3::hash(body.as_bytes());
        let existing: Option<(i64, i64)> = self
            .tx
            .prepare_cached("SELECT id, indexed FROM text_store WHERE hash = ?1")?
            .query_row([&hash.as_bytes()[..]], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        // `indexed`: 1 searchable. A searchable text enters the FTS index through
        // `fts_pending`, in batches (`Store::flush_search_index`).
        let (id, newly_searchable) = match existing {
            Some((id, indexed)) => {
                let newly = index && indexed == 0;
                if newly {
                    self.tx
                        .prepare_cached("UPDATE text_store SET indexed = 1 WHERE id = ?1")?
                        .execute([id])?;
                }
                (id, newly)
            }
            None => {
                let packed = crate::packed::pack(&mut self.packer, body)?;
                self.tx
                    .prepare_cached(
                        "INSERT INTO text_store (hash, body, indexed) VALUES (?1, ?2, ?3)",
                    )?
                    .execute(params![&hash.as_bytes()[..], packed, index])?;
                (self.tx.last_insert_rowid(), index)
            }
        };
        if newly_searchable {
            self.tx
                .prepare_cached("INSERT OR IGNORE INTO fts_pending (text_id) VALUES (?1)")?
                .execute([id])?;
        }
        Ok(id)
    }

    fn put_item(&mut self, item: &Item) -> Result<(), StoreError> {
        let sid = self.session_id(&item.session)?;
        let mut value = item.semantic.value.clone();
        let text = take_primary_text(&mut value);
        let searchable = !matches!(item.semantic.role, fornax_types::Role::ToolOutput);
        let text_id = match &text {
            Some(t) => Some(self.put_text(t, searchable)?),
            None => None,
        };
        let (tool_name, call_id, exit_code, failed) = match &item.semantic.value {
            SemanticValue::ToolCall(c) => (Some(c.name.clone()), c.call_id.clone(), None, None),
            SemanticValue::ShellCall(c) => {
                (Some(c.tool_name.clone()), c.call_id.clone(), None, None)
            }
            SemanticValue::ToolOutput(o) => (
                o.tool_name.clone(),
                o.call_id.clone(),
                o.exit_code.map(|e| e.code),
                o.failed,
            ),
            _ => (None, None, None, None),
        };
        let value_json =
            serde_json::to_string(&value).map_err(|e| StoreError::json("item value", e))?;
        let value_json = self.packs.pack(Column::ItemValue, &value_json)?;
        let strength = match item.semantic.evidence_strength {
            fornax_types::EvidenceStrength::Structural => "structural",
            fornax_types::EvidenceStrength::Heuristic => "heuristic",
        };
        let seq = self.next_seq;
        // An upsert keeps the row's first seq: the same seq back means a new row.
        let item_id = self
            .tx
            .prepare_cached(
                "INSERT INTO item_store (session_id, key, seq, loop_position, at, role, strength, kind,
                     text_id, value, tool_name, call_id, exit_code, failed, source_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
                 ON CONFLICT(session_id, key) DO UPDATE SET
                     loop_position = COALESCE(excluded.loop_position, loop_position),
                     at = COALESCE(at, excluded.at), role = excluded.role,
                     strength = excluded.strength, kind = excluded.kind,
                     text_id = excluded.text_id, value = excluded.value,
                     tool_name = excluded.tool_name, call_id = excluded.call_id,
                     exit_code = excluded.exit_code, failed = excluded.failed
                 RETURNING id, seq",
            )?
            .query_row(
                params![
                    sid,
                    item.key,
                    seq,
                    item.loop_position,
                    item.at,
                    item.semantic.role.as_str(),
                    strength,
                    value_kind(&item.semantic.value),
                    text_id,
                    value_json,
                    tool_name,
                    call_id,
                    exit_code,
                    failed,
                    self.source_id
                ],
                |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)? == seq)),
            )?;
        let (item_id, inserted) = item_id;
        self.next_seq += 1;
        for r in &item.records {
            if let Some(rid) = self.record_id(r)? {
                self.tx
                    .prepare_cached(
                        "INSERT OR IGNORE INTO item_record (item_id, record_id) VALUES (?1, ?2)",
                    )?
                    .execute(params![item_id, rid])?;
            }
        }
        if let Some(at) = &item.at {
            match self.last_activity.get_mut(&sid) {
                Some(latest) if latest.as_str() >= at.as_str() => {}
                Some(latest) => at.clone_into(latest),
                None => {
                    self.last_activity.insert(sid, at.clone());
                }
            }
        }
        if inserted {
            self.summary.items += 1;
        }
        Ok(())
    }

    fn put_evidence(&mut self, e: &Evidence, derived: bool) -> Result<(), StoreError> {
        let sid = self.session_id(&e.session)?;
        let known = self
            .tx
            .prepare_cached("SELECT 1 FROM evidence WHERE session_id = ?1 AND evidence_key = ?2")?
            .exists(params![sid, e.id])?;
        write_evidence(&self.tx, self.packs, sid, e, derived, Some(self.source_id))?;
        if !known {
            self.summary.evidence += 1;
        }
        Ok(())
    }

    fn put_capabilities(&mut self, c: &RuntimeCapabilities) -> Result<(), StoreError> {
        let Some(native) = c.notes.get(RuntimeCapabilities::NOTE_SESSION_ID) else {
            return Ok(());
        };
        let sid = self.session_id(&SessionRef::new(c.provider.clone(), native.clone()))?;
        let body = serde_json::to_string(c).map_err(|e| StoreError::json("capabilities", e))?;
        let transport = c.transport.map(|t| t.as_str()).unwrap_or("unknown");
        self.tx
            .prepare_cached(
                "INSERT INTO capability (session_id, transport, source_id, body) VALUES (?1, ?2, ?3, ?4)
                 ON CONFLICT(session_id, transport) DO UPDATE SET body = excluded.body,
                     source_id = excluded.source_id",
            )?
            .execute(params![sid, transport, self.source_id, body])?;
        Ok(())
    }

    /// Adds redaction counts (never the secrets) to a session.
    pub fn add_redactions(
        &mut self,
        session: &SessionRef,
        kind: &str,
        count: u64,
    ) -> Result<(), StoreError> {
        let sid = self.session_id(session)?;
        self.tx
            .prepare_cached(
                "INSERT INTO redaction (session_id, kind, count) VALUES (?1, ?2, ?3)
                 ON CONFLICT(session_id, kind) DO UPDATE SET count = count + excluded.count",
            )?
            .execute(params![sid, kind, count as i64])?;
        Ok(())
    }

    /// Counts an `Unrecognized` or `Ignored` outcome for the drift table.
    pub fn add_drift(
        &mut self,
        drift: &Drift<'_>,
        count: u64,
        now: &str,
    ) -> Result<(), StoreError> {
        let Drift {
            provider,
            adapter,
            runtime_version,
            outcome,
            discriminator,
        } = *drift;
        self.tx
            .prepare_cached(
                "INSERT INTO drift (provider, adapter, runtime_version, outcome, discriminator, count, last_seen)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
                 ON CONFLICT DO UPDATE SET count = count + excluded.count, last_seen = excluded.last_seen",
            )?
            .execute(params![provider, adapter, runtime_version, outcome, discriminator.as_str(), count as i64, now])?;
        Ok(())
    }

    /// Commits everything with the new cursor, framing counters and adapter checkpoint (an
    /// adapter's state can hold native text, so it is redacted like the rest).
    #[allow(clippy::too_many_arguments)]
    pub fn finish(
        mut self,
        cursor: &SourceCursor,
        next_position: u64,
        adapter_state: Option<&Redacted<serde_json::Value>>,
        malformed: u64,
        oversized: u64,
        defects: u64,
        now: &str,
    ) -> Result<WriteSummary, StoreError> {
        // Copies of the rewritten source's old records that no record names any more: nothing
        // can reach them, and `forget` could not find them.
        let stale: Vec<&[u8; 32]> = self.replaced.difference(&self.copies).collect();
        if !stale.is_empty() {
            self.tx
                .execute_batch("CREATE TEMP TABLE IF NOT EXISTS stale_copy (hash BLOB PRIMARY KEY); DELETE FROM stale_copy;")?;
            for key in stale {
                self.tx
                    .prepare_cached("INSERT OR IGNORE INTO stale_copy (hash) VALUES (?1)")?
                    .execute([&key[..]])?;
            }
            self.tx.execute_batch(
                "DELETE FROM archive_blob WHERE hash IN
                     (SELECT hash FROM stale_copy
                      EXCEPT SELECT archived FROM record WHERE archived IS NOT NULL);
                 DELETE FROM stale_copy;",
            )?;
        }
        if self.next_seq != self.first_seq {
            self.tx
                .prepare_cached(
                    "INSERT INTO counter (name, value) VALUES ('item_seq', ?1)
                     ON CONFLICT(name) DO UPDATE SET value = MAX(value, excluded.value)",
                )?
                .execute([self.next_seq - 1])?;
        }
        // The sessions this source changed are owed a judgement, committed with the data: a
        // pass that dies before verifying them leaves them for the next one.
        for sid in &self.summary.touched_sessions {
            self.tx
                .prepare_cached("INSERT OR IGNORE INTO verify_pending (session_id) VALUES (?1)")?
                .execute([sid])?;
        }
        for (sid, at) in &self.last_activity {
            self.tx
                .prepare_cached(
                    "UPDATE session SET last_activity = ?2
                     WHERE id = ?1 AND (last_activity IS NULL OR last_activity < ?2)",
                )?
                .execute(params![sid, at])?;
        }
        // The rollup of the sessions whose calls this source changed, committed with them.
        for sid in &self.usage_sessions {
            self.tx
                .prepare_cached("INSERT OR IGNORE INTO usage_pending (session_id) VALUES (?1)")?
                .execute([sid])?;
        }
        crate::usage::refresh_usage_rollup(&self.tx)?;
        let adapter_state = adapter_state
            .map(|v| crate::packed::pack(&mut self.packer, &v.get().to_string()))
            .transpose()?;
        self.tx.execute(
            "UPDATE source SET inode = ?2, size = ?3, mtime_ns = ?4, prefix_len = ?5, prefix_fp = ?6,
                 cursor = ?7, next_position = ?8, adapter_state = ?9,
                 malformed = malformed + ?10, oversized = oversized + ?11, defects = defects + ?12,
                 status = 'active', last_error = NULL, updated_at = ?13, open_tail = ?14,
                 block_fps = ?15
             WHERE id = ?1",
            params![
                self.source_id,
                cursor.inode.map(|v| v as i64),
                cursor.size.map(|v| v as i64),
                cursor.mtime_ns,
                cursor.prefix_len.map(|v| v as i64),
                cursor.prefix_fp,
                cursor.offset as i64,
                next_position as i64,
                adapter_state,
                malformed as i64,
                oversized as i64,
                defects as i64,
                now,
                cursor.open_tail,
                cursor.blocks
            ],
        )?;
        self.tx.commit()?;
        Ok(self.summary)
    }
}

pub(crate) fn write_evidence(
    tx: &rusqlite::Connection,
    packs: &mut Packs,
    session_id: i64,
    e: &Evidence,
    derived: bool,
    source_id: Option<i64>,
) -> Result<(), StoreError> {
    let payload = e
        .payload
        .content_json()
        .map_err(|er| StoreError::json("evidence payload", er))?;
    let payload = packs.pack(Column::EvidencePayload, &payload)?;
    let source =
        serde_json::to_string(&e.source).map_err(|er| StoreError::json("evidence source", er))?;
    let source = packs.pack(Column::EvidenceSource, &source)?;
    let trust = serde_json::to_value(e.source.trust_class)
        .ok()
        .and_then(|v| v.as_str().map(str::to_string))
        .unwrap_or_default();
    let extension = match &e.extension {
        Some(x) => Some(serde_json::to_string(x).map_err(|er| StoreError::json("extension", er))?),
        None => None,
    };
    let records = if e.records.is_empty() {
        None
    } else {
        let json = serde_json::to_string(&e.records)
            .map_err(|er| StoreError::json("evidence records", er))?;
        Some(packs.pack(Column::EvidenceRecords, &json)?)
    };
    tx.prepare_cached(
        "INSERT INTO evidence_store (session_id, evidence_key, kind, payload, source, trust_class,
             provenance, extension, item_key, loop_position, at, records, derived, source_id)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14)
         ON CONFLICT(session_id, evidence_key) DO UPDATE SET kind = excluded.kind,
             payload = excluded.payload, source = excluded.source,
             trust_class = excluded.trust_class, provenance = excluded.provenance,
             extension = excluded.extension, item_key = excluded.item_key,
             loop_position = excluded.loop_position, at = excluded.at,
             records = excluded.records, derived = excluded.derived,
             source_id = COALESCE(excluded.source_id, source_id)",
    )?
    .execute(params![
        session_id,
        e.id,
        e.kind().as_str(),
        payload,
        source,
        trust,
        e.provenance,
        extension,
        e.item_key,
        e.loop_position,
        e.at,
        records,
        derived,
        source_id
    ])?;
    Ok(())
}
