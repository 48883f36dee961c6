//! Packed JSON columns: items' values and evidence payloads, records and sources (ADR 0014).
//!
//! These are small (most under 300 bytes) and alike, so zstd alone finds little to reuse in
//! one of them; a dictionary trained on a column's own rows does. Each column ([`Column`])
//! gets one, stored in `pack_dict`, once the store holds [`TRAIN_AFTER`] rows of it: the next
//! writer to start a source trains it from up to [`SAMPLES`] rows, and values written from then
//! on are packed with it when that makes them smaller. Before, values of
//! [`crate::packed::MIN_PACKED`] bytes or more are packed without one. The tables are
//! `item_store` and `evidence_store`; the views `item` and `evidence` read them through
//! `unpacked()`, so `fornax query` and every reader see the JSON.
//!
//! # Invariants
//!
//! * A column value is TEXT (the JSON itself) or a zstd frame of it, with or without a
//!   dictionary; the frame names its dictionary by id, and `unpacked()` reads every form.
//! * A dictionary is never changed in place and never deleted while a row uses it, except by
//!   [`retire`], which re-packs those rows without one in the same transaction. Whatever
//!   removes data (`forget`, `redact --again`) retires them: a dictionary holds fragments of
//!   the rows it was trained on.
//! * A writer checks the stored dictionaries before it packs (another process may have trained
//!   or retired one), so it never writes a frame whose dictionary is not stored.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use rusqlite::types::Value;
use rusqlite::{params, Connection, OpenFlags, OptionalExtension};

use crate::archive::Packer;
use crate::packed::MIN_PACKED;
use crate::StoreError;

/// Rows of a column before its dictionary is trained.
pub(crate) const TRAIN_AFTER: i64 = 1_000;
/// Rows a dictionary is trained from (the latest ones).
const SAMPLES: i64 = 4_000;
/// Largest dictionary: the samples are small, a larger one only holds rarer fragments.
const MAX_DICT: usize = 32 * 1024;
/// With a dictionary, values shorter than this are kept as they are.
const MIN_WITH_DICT: usize = 24;

/// A packed JSON column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Column {
    ItemValue,
    EvidencePayload,
    EvidenceRecords,
    EvidenceSource,
}

impl Column {
    pub(crate) const ALL: [Column; 4] = [
        Column::ItemValue,
        Column::EvidencePayload,
        Column::EvidenceRecords,
        Column::EvidenceSource,
    ];

    /// Its name in `pack_dict`.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Column::ItemValue => "item.value",
            Column::EvidencePayload => "evidence.payload",
            Column::EvidenceRecords => "evidence.records",
            Column::EvidenceSource => "evidence.source",
        }
    }

    /// Its table and column in storage.
    pub(crate) fn stored(self) -> (&'static str, &'static str) {
        match self {
            Column::ItemValue => ("item_store", "value"),
            Column::EvidencePayload => ("evidence_store", "payload"),
            Column::EvidenceRecords => ("evidence_store", "records"),
            Column::EvidenceSource => ("evidence_store", "source"),
        }
    }
}

/// The dictionaries a connection's `unpacked()` reads frames with, by id, each loaded into a
/// decompression context once. A dictionary this process did not train is read from the
/// database file on first use (through a connection of its own: a function cannot query the
/// connection that runs it).
#[derive(Default)]
pub(crate) struct PackDicts {
    path: Option<PathBuf>,
    contexts: Mutex<HashMap<u32, zstd::bulk::Decompressor<'static>>>,
}

impl std::fmt::Debug for PackDicts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PackDicts")
            .field("path", &self.path)
            .finish()
    }
}

impl PackDicts {
    /// Dictionaries of the database at `path`.
    pub(crate) fn of(path: &std::path::Path) -> Arc<PackDicts> {
        Arc::new(PackDicts {
            path: Some(path.to_path_buf()),
            contexts: Mutex::default(),
        })
    }

    /// Makes `body` (dictionary `id`) readable now: a writer's own dictionary is not committed
    /// yet when it first reads a value packed with it.
    pub(crate) fn insert(&self, id: u32, body: &[u8]) -> Result<(), String> {
        let ctx = zstd::bulk::Decompressor::with_dictionary(body)
            .map_err(|e| format!("dictionary {id} does not load: {e}"))?;
        self.lock().insert(id, ctx);
        Ok(())
    }

    /// Forgets every loaded dictionary (they were retired).
    pub(crate) fn clear(&self) {
        self.lock().clear();
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<u32, zstd::bulk::Decompressor<'static>>> {
        self.contexts.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Decompresses a frame made with dictionary `id` into at most `cap` bytes.
    pub(crate) fn decompress(&self, id: u32, frame: &[u8], cap: usize) -> Result<Vec<u8>, String> {
        if !self.lock().contains_key(&id) {
            let body = self
                .read(id)?
                .ok_or_else(|| format!("its dictionary {id} is not stored"))?;
            self.insert(id, &body)?;
        }
        let mut contexts = self.lock();
        let ctx = contexts
            .get_mut(&id)
            .ok_or_else(|| format!("its dictionary {id} is not loaded"))?;
        ctx.decompress(frame, cap)
            .map_err(|e| format!("it does not decompress with dictionary {id}: {e}"))
    }

    fn read(&self, id: u32) -> Result<Option<Vec<u8>>, String> {
        let Some(path) = &self.path else {
            return Ok(None);
        };
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| format!("{}: {e}", path.display()))?;
        conn.busy_timeout(std::time::Duration::from_secs(10))
            .map_err(|e| e.to_string())?;
        conn.query_row(
            "SELECT body FROM pack_dict WHERE dict_id = ?1",
            [i64::from(id)],
            |r| r.get(0),
        )
        .optional()
        .map_err(|e| format!("its dictionary {id} cannot be read: {e}"))
    }
}

/// Packs one column's values: with its dictionary once there is one.
#[derive(Debug, Default)]
struct ColumnPacker {
    dict_id: Option<u32>,
    packer: Packer,
}

impl ColumnPacker {
    fn pack(&mut self, text: &str) -> Result<Value, StoreError> {
        let min = if self.dict_id.is_some() {
            MIN_WITH_DICT
        } else {
            MIN_PACKED
        };
        if text.len() < min {
            return Ok(Value::Text(text.to_string()));
        }
        let frame = self.packer.compress(text.as_bytes())?;
        Ok(if frame.len() < text.len() {
            Value::Blob(frame)
        } else {
            Value::Text(text.to_string())
        })
    }
}

/// The packers of every column, kept by the store across transactions.
#[derive(Debug, Default)]
pub(crate) struct Packs {
    columns: HashMap<Column, ColumnPacker>,
}

impl Packs {
    /// The value to store for `text` in `column`.
    pub(crate) fn pack(&mut self, column: Column, text: &str) -> Result<Value, StoreError> {
        self.columns.entry(column).or_default().pack(text)
    }

    /// Brings the packers in line with the stored dictionaries (another process may have
    /// trained or retired one); with `train`, trains the dictionary of every column that has
    /// enough rows and none yet.
    pub(crate) fn sync(
        &mut self,
        tx: &Connection,
        dicts: &PackDicts,
        train: bool,
    ) -> Result<(), StoreError> {
        let stored: HashMap<String, Option<u32>> = {
            let mut stmt = tx.prepare_cached("SELECT kind, dict_id FROM pack_dict")?;
            let rows = stmt.query_map([], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, Option<i64>>(1)?
                        .and_then(|i| u32::try_from(i).ok()),
                ))
            })?;
            rows.collect::<Result<_, _>>()?
        };
        for column in Column::ALL {
            let wanted = stored.get(column.name()).copied();
            let have = self.columns.get(&column).and_then(|p| p.dict_id);
            match wanted {
                // Tried before (a NULL id: training failed) or in place already.
                Some(id) if id == have => continue,
                Some(Some(id)) => {
                    let body: Vec<u8> = tx
                        .prepare_cached("SELECT body FROM pack_dict WHERE dict_id = ?1")?
                        .query_row([i64::from(id)], |r| r.get(0))?;
                    self.load(column, id, &body, dicts)?;
                }
                Some(None) => {
                    self.columns.insert(column, ColumnPacker::default());
                }
                None => {
                    if have.is_some() {
                        // Retired by another writer.
                        self.columns.insert(column, ColumnPacker::default());
                    }
                    if train {
                        if let Some((id, body)) = train_column(tx, column)? {
                            self.load(column, id, &body, dicts)?;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    fn load(
        &mut self,
        column: Column,
        id: u32,
        body: &[u8],
        dicts: &PackDicts,
    ) -> Result<(), StoreError> {
        let loaded = |detail: String| StoreError::Archive {
            what: "load the dictionary of a packed column",
            detail,
        };
        dicts.insert(id, body).map_err(loaded)?;
        self.columns.insert(
            column,
            ColumnPacker {
                dict_id: Some(id),
                packer: Packer::with_dictionary(body)?,
            },
        );
        Ok(())
    }
}

/// Trains and stores `column`'s dictionary when it has [`TRAIN_AFTER`] rows (a row without a
/// dictionary when training fails, so it is not tried again).
fn train_column(tx: &Connection, column: Column) -> Result<Option<(u32, Vec<u8>)>, StoreError> {
    let (table, col) = column.stored();
    let rows: i64 = tx.query_row(
        &format!("SELECT COUNT(*) FROM (SELECT 1 FROM {table} WHERE {col} IS NOT NULL LIMIT ?1)"),
        [TRAIN_AFTER],
        |r| r.get(0),
    )?;
    if rows < TRAIN_AFTER {
        return Ok(None);
    }
    let samples: Vec<String> = {
        let mut stmt = tx.prepare(&format!(
            "SELECT unpacked({col}) FROM {table} WHERE {col} IS NOT NULL
             ORDER BY rowid DESC LIMIT ?1"
        ))?;
        let rows = stmt.query_map([SAMPLES], |r| r.get(0))?;
        rows.collect::<Result<_, _>>()?
    };
    let trained = crate::dictionary::train_unused(tx, &samples, MAX_DICT, "pack_dict")?;
    tx.prepare_cached("INSERT INTO pack_dict (kind, dict_id, body) VALUES (?1, ?2, ?3)")?
        .execute(params![
            column.name(),
            trained.as_ref().map(|(id, _)| i64::from(*id)),
            trained.as_ref().map(|(_, d)| d.as_slice()).unwrap_or(&[])
        ])?;
    Ok(trained)
}

/// Re-packs without a dictionary every row packed with one, then deletes the dictionaries.
/// Returns the rows re-packed.
pub(crate) fn retire(tx: &Connection, dicts: &PackDicts) -> Result<u64, StoreError> {
    let any: bool = tx.query_row("SELECT EXISTS (SELECT 1 FROM pack_dict)", [], |r| r.get(0))?;
    if !any {
        return Ok(0);
    }
    let mut repacked = 0;
    let mut plain = ColumnPacker::default();
    for column in Column::ALL {
        let (table, col) = column.stored();
        let rowids: Vec<i64> = {
            let mut stmt = tx.prepare(&format!(
                "SELECT rowid FROM {table} WHERE typeof({col}) = 'blob' ORDER BY rowid"
            ))?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect::<Result<_, _>>()?
        };
        for rowid in rowids {
            let (frame, text): (Vec<u8>, String) = tx
                .prepare_cached(&format!(
                    "SELECT {col}, unpacked({col}) FROM {table} WHERE rowid = ?1"
                ))?
                .query_row([rowid], |r| Ok((r.get(0)?, r.get(1)?)))?;
            if zstd::zstd_safe::get_dict_id_from_frame(&frame).is_none() {
                continue;
            }
            tx.prepare_cached(&format!("UPDATE {table} SET {col} = ?2 WHERE rowid = ?1"))?
                .execute(params![rowid, plain.pack(&text)?])?;
            repacked += 1;
        }
    }
    tx.execute("DELETE FROM pack_dict", [])?;
    dicts.clear();
    Ok(repacked)
}

/// SQL that gives a schema-11 home the shape schema 10 wrote (plain `item` and `evidence`
/// tables, `item_seq`), for the upgrade tests; `unpacked` must be registered.
#[cfg(test)]
pub(crate) const BACK_TO_V10: &str = "
    DROP VIEW item;
    ALTER TABLE item_store RENAME TO item;
    UPDATE item SET value = unpacked(value);
    DROP VIEW evidence;
    ALTER TABLE evidence_store RENAME TO evidence;
    UPDATE evidence SET payload = unpacked(payload), records = unpacked(records),
        source = unpacked(source);
    DROP TABLE counter;
    DROP TABLE pack_dict;
    CREATE INDEX item_seq ON item(seq);";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{QueryLimits, SourceCursor, SourceSpec, Store};
    use fornax_redact::{RedactionCounts, Redactor};
    use fornax_types::evidence::{EvidenceSource, ExitCodePayload};
    use fornax_types::*;

    fn call(native: &str, i: u64) -> IngestMessage {
        IngestMessage::Item(Item {
            session: SessionRef::new(Provider::Codex, native),
            key: format!("call:{i}"),
            loop_position: Some(0),
            at: Some(format!("2026-01-01T00:{:02}:{:02}Z", i / 60 % 60, i % 60)),
            semantic: Semantic::new(
                Role::AgentToolCall,
                SemanticValue::ToolCall(ToolCallValue {
                    call_id: Some(format!("call_{i:06}")),
                    name: "shell".into(),
                    arguments: serde_json::json!({
                        "command": ["cargo", "test", "-p", format!("crate{}", i % 17)],
                        "workdir": "/work/ledger"
                    }),
                    cwd: Some("/work/ledger".into()),
                }),
                EvidenceStrength::Structural,
            ),
            records: vec![RecordRef::new(SourceId::new(native), i)],
        })
    }

    fn exit(native: &str, i: u64) -> IngestMessage {
        IngestMessage::Evidence(Evidence {
            id: format!("exit:{i}"),
            session: SessionRef::new(Provider::Codex, native),
            payload: EvidencePayload::ExitCode(ExitCodePayload {
                command: format!("cargo test -p crate{}", i % 17),
                call_id: Some(format!("call_{i:06}")),
                cwd: Some("/work/ledger".into()),
                exit_code: Some((i % 3) as i64),
                strength: EvidenceStrength::Structural,
                failed: None,
                interrupted: None,
                timed_out: None,
                duration_ms: Some(1000 + i),
            }),
            source: EvidenceSource::pre_provenance(),
            provenance: "codex:test:exit".into(),
            extension: None,
            item_key: Some(format!("call:{i}")),
            loop_position: Some(0),
            at: None,
            records: vec![RecordRef::new(SourceId::new(native), i)],
        })
    }

    /// One source (and session) of `n` tool calls and their exit codes; the archive is off
    /// (`add_record`: no copies), so everything is read from SQLite.
    fn write(store: &mut Store, native: &str, n: u64) {
        let spec = SourceSpec::codex_file(native);
        let redactor = Redactor::new();
        let mut w = store.begin_source(&spec, false).unwrap();
        for i in 0..n {
            w.add_record(
                i,
                Some(ByteRange {
                    start: i * 100,
                    end: i * 100 + 99,
                }),
                &Fingerprint::of(format!("{native}{i}").as_bytes()),
                None,
            )
            .unwrap();
            for m in [call(native, i), exit(native, i)] {
                w.apply(&redactor.redact(m, &mut RedactionCounts::default()))
                    .unwrap();
            }
        }
        w.finish(&SourceCursor::default(), n, None, 0, 0, 0, "now")
            .unwrap();
        store.flush_search_index().unwrap();
    }

    /// Everything a reader sees of items and evidence: `show`, the verifier's reading, search,
    /// and `query` on the views.
    fn observed(store: &Store) -> String {
        let mut out = String::new();
        let ids = store
            .query("SELECT id FROM session ORDER BY id", QueryLimits::default())
            .unwrap();
        for row in &ids.rows {
            let id = row[0].as_i64().unwrap();
            out += &serde_json::to_string(&store.session_detail(id).unwrap()).unwrap();
            let family = store.family(id).unwrap();
            out += &format!(
                "{:?}{:?}{:?}",
                family.items, family.item_seqs, family.evidence
            );
        }
        for term in ["shell", "cargo"] {
            out += &serde_json::to_string(&store.search(term, 50, true).unwrap()).unwrap();
        }
        for sql in [
            "SELECT * FROM item ORDER BY id",
            "SELECT * FROM evidence ORDER BY id",
            "SELECT COUNT(*) FROM item WHERE value LIKE '%crate3\"%'",
        ] {
            let q = store.query(sql, QueryLimits::default()).unwrap();
            out += &serde_json::to_string(&q.rows).unwrap();
        }
        out
    }

    fn forms(store: &Store, column: Column) -> (i64, i64, i64) {
        let (table, col) = column.stored();
        let mut stmt = store
            .conn
            .prepare(&format!(
                "SELECT {col} FROM {table} WHERE {col} IS NOT NULL"
            ))
            .unwrap();
        let rows = stmt
            .query_map([], |r| Ok(r.get_ref(0)?.as_blob().ok().map(|b| b.to_vec())))
            .unwrap();
        let (mut text, mut plain, mut dict) = (0, 0, 0);
        for row in rows {
            match row.unwrap() {
                None => text += 1,
                Some(b) if zstd::zstd_safe::get_dict_id_from_frame(&b).is_some() => dict += 1,
                Some(_) => plain += 1,
            }
        }
        (text, plain, dict)
    }

    /// Once a column has enough rows, the next source trains its dictionary and packs its
    /// values with it; every reader sees the same JSON whichever form a row has.
    #[test]
    fn values_after_training_are_packed_with_the_dictionary() {
        let tmp = tempfile::tempdir().unwrap();
        let mut store = Store::open(&tmp.path().join("fornax.db")).unwrap();
        write(&mut store, "a", TRAIN_AFTER as u64);
        assert_eq!(forms(&store, Column::ItemValue).2, 0);
        write(&mut store, "b", 200);
        for column in [Column::ItemValue, Column::EvidencePayload] {
            let (_, _, dict) = forms(&store, column);
            assert_eq!(dict, 200, "{column:?}");
        }
        let value: String = store
            .conn
            .query_row(
                "SELECT value FROM item WHERE key = 'call:7' AND session_id =
                     (SELECT id FROM session WHERE native_id = 'b')",
                [],
                |r| r.get(0),
            )
            .unwrap();
        let value: serde_json::Value = serde_json::from_str(&value).unwrap();
        assert_eq!(value["arguments"]["command"][3], "crate7");
        // A reader in another process loads the dictionary from the file.
        let reader = Store::open_read_only(&tmp.path().join("fornax.db")).unwrap();
        assert_eq!(observed(&reader), observed(&store));
    }

    /// A home written by the previous schema (10: plain JSON in the tables `item` and
    /// `evidence`, `item_seq`) upgrades in place to the same `show`, verifier's reading,
    /// search and `query` results, and packs the values of later sources.
    #[test]
    fn a_schema_10_home_upgrades_and_reads_the_same() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("fornax.db");
        let mut store = Store::open(&path).unwrap();
        write(&mut store, "a", TRAIN_AFTER as u64);
        write(&mut store, "b", 50);
        let fresh = observed(&store);
        assert!(fresh.contains("crate7"), "{fresh}");
        drop(store);
        {
            let conn = Connection::open(&path).unwrap();
            crate::packed::register(&conn, &PackDicts::of(&path)).unwrap();
            conn.execute_batch(&format!("{BACK_TO_V10} PRAGMA user_version = 10;"))
                .unwrap();
            let plain: i64 = conn
                .query_row(
                    "SELECT COUNT(*) FROM item WHERE typeof(value) = 'text'",
                    [],
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(plain, TRAIN_AFTER + 50);
        }
        let mut store = Store::open(&path).unwrap();
        assert_eq!(observed(&store), fresh);
        let seq: i64 = store
            .conn
            .query_row(
                "SELECT value FROM counter WHERE name = 'item_seq'",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(seq, TRAIN_AFTER + 50);
        write(&mut store, "c", 10);
        assert_eq!(forms(&store, Column::ItemValue).2, 10);
        let seqs: (i64, i64) = store
            .conn
            .query_row(
                "SELECT MIN(seq), MAX(seq) FROM item WHERE session_id =
                     (SELECT id FROM session WHERE native_id = 'c')",
                [],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .unwrap();
        assert_eq!(seqs, (TRAIN_AFTER + 51, TRAIN_AFTER + 60));
    }

    /// Forgetting a session retires the dictionaries (they may hold its fragments): the rows
    /// packed with one are re-packed without it and read the same.
    #[test]
    fn forget_retires_the_dictionaries_and_the_rest_reads_the_same() {
        let tmp = tempfile::tempdir().unwrap();
        let mut store = Store::open(&tmp.path().join("fornax.db")).unwrap();
        write(&mut store, "a", TRAIN_AFTER as u64);
        write(&mut store, "b", 100);
        write(&mut store, "gone", 10);
        let id = store.resolve_session("gone").unwrap();
        let before = observed(&store);
        store.forget_sessions(&[id]).unwrap();
        let dicts: i64 = store
            .conn
            .query_row("SELECT COUNT(*) FROM pack_dict", [], |r| r.get(0))
            .unwrap();
        assert_eq!(dicts, 0);
        for column in Column::ALL {
            assert_eq!(forms(&store, column).2, 0, "{column:?}");
        }
        let after = observed(&store);
        assert!(!after.contains("\"gone\""));
        assert!(after.contains("crate7"));
        // What stays reads as it did: session b's items are all in both.
        let b = store.resolve_session("b").unwrap();
        let detail = serde_json::to_string(&store.session_detail(b).unwrap()).unwrap();
        assert!(before.contains(&detail));
        // The next source trains a new dictionary.
        write(&mut store, "c", 10);
        assert_eq!(forms(&store, Column::ItemValue).2, 10);
    }
}
