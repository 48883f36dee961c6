//! Trained zstd dictionaries for the archive's copies, one per provider (ADR 0013).
//!
//! A copy is one small JSON record, and zstd alone finds little to reuse inside one record;
//! records of one runtime share most of their keys and shapes. Once a provider has
//! [`TRAIN_AFTER`] copies, the next source of that provider trains a dictionary from up to
//! [`SAMPLES`] of them (`archive_dict`), and copies written from then on are compressed with
//! it. A frame names its dictionary by id, so a copy is read the same way whichever way it was
//! written.
//!
//! # Invariants
//!
//! * A dictionary is never changed in place, and never deleted while a copy uses it, except by
//!   [`retire`], which re-packs those copies without one in the same transaction.
//! * A dictionary holds fragments of the redacted copies it was trained on, so whatever removes
//!   data (`forget`, `redact --again`) retires every dictionary: nothing removed survives in
//!   one. The provider trains a new one from what stays at its next source.
//! * A provider whose training fails keeps a row without a dictionary (`dict_id` NULL) and is
//!   not trained again until its dictionaries are retired.

use std::collections::HashMap;

use rusqlite::{params, Connection, OptionalExtension};

use crate::archive::Packer;
use crate::StoreError;

/// Copies of a provider before its dictionary is trained.
pub(crate) const TRAIN_AFTER: i64 = 1_000;
/// Copies a dictionary is trained from.
const SAMPLES: i64 = 2_000;
/// Largest dictionary (zstd's own default size).
const MAX_DICT: usize = 112_640;

/// Dictionaries by id, each read and loaded into a decompression context once per use.
pub(crate) struct Dictionaries<'c> {
    conn: &'c Connection,
    cache: HashMap<u32, Option<zstd::bulk::Decompressor<'static>>>,
}

impl<'c> Dictionaries<'c> {
    pub(crate) fn new(conn: &'c Connection) -> Dictionaries<'c> {
        Dictionaries {
            conn,
            cache: HashMap::new(),
        }
    }

    /// Decompresses a frame made with dictionary `id` into at most `cap` bytes; an error says
    /// why it cannot (the dictionary is not stored, or the frame does not decompress).
    pub(crate) fn decompress(
        &mut self,
        id: u32,
        frame: &[u8],
        cap: usize,
    ) -> Result<Vec<u8>, String> {
        if !self.cache.contains_key(&id) {
            let body: Option<Vec<u8>> = self
                .conn
                .prepare_cached("SELECT body FROM archive_dict WHERE dict_id = ?1")
                .and_then(|mut s| s.query_row([i64::from(id)], |r| r.get(0)).optional())
                .map_err(|e| format!("its dictionary cannot be read: {e}"))?;
            let ctx = match body {
                Some(dict) => Some(
                    zstd::bulk::Decompressor::with_dictionary(&dict)
                        .map_err(|e| format!("its dictionary does not load: {e}"))?,
                ),
                None => None,
            };
            self.cache.insert(id, ctx);
        }
        match self.cache.get_mut(&id).and_then(|c| c.as_mut()) {
            Some(ctx) => ctx
                .decompress(frame, cap)
                .map_err(|e| format!("it does not decompress: {e}")),
            None => Err(format!("its dictionary {id} is not stored")),
        }
    }
}

/// The packer a source of `provider` archives its copies with: with the provider's
/// dictionary, trained now if the provider has enough copies and none was tried yet.
/// A zstd dictionary of at most `max` bytes trained on `samples`, with its id; `None` when
/// training fails or `table` (with a `dict_id` column) already holds a dictionary of that id,
/// since frames naming one id must find one dictionary.
pub(crate) fn train_unused<S: AsRef<[u8]>>(
    tx: &Connection,
    samples: &[S],
    max: usize,
    table: &str,
) -> Result<Option<(u32, Vec<u8>)>, StoreError> {
    let Some((id, dict)) = zstd::dict::from_samples(samples, max)
        .ok()
        .and_then(|d| zstd::zstd_safe::get_dict_id(&d).map(|id| (id.get(), d)))
    else {
        return Ok(None);
    };
    let taken = tx
        .prepare_cached(&format!("SELECT 1 FROM {table} WHERE dict_id = ?1"))?
        .exists([i64::from(id)])?;
    Ok((!taken).then_some((id, dict)))
}

pub(crate) fn packer_for(tx: &Connection, provider: &str) -> Result<Packer, StoreError> {
    // An empty body: training was tried and failed.
    let known: Option<Vec<u8>> = tx
        .prepare_cached("SELECT body FROM archive_dict WHERE provider = ?1")?
        .query_row([provider], |r| r.get(0))
        .optional()?;
    let dict = match known {
        Some(body) => Some(body).filter(|b| !b.is_empty()),
        None => train(tx, provider)?,
    };
    match dict {
        Some(dict) => Packer::with_dictionary(&dict),
        None => Ok(Packer::default()),
    }
}

/// Trains and stores `provider`'s dictionary when it has [`TRAIN_AFTER`] copies; `None` when
/// it has fewer (nothing stored) or training fails (a row without a dictionary is stored).
fn train(tx: &Connection, provider: &str) -> Result<Option<Vec<u8>>, StoreError> {
    let copies: i64 = tx
        .prepare_cached(
            "SELECT COUNT(*) FROM (SELECT 1 FROM source s JOIN record r ON r.source_id = s.id
                 WHERE s.provider = ?1 AND r.archived IS NOT NULL LIMIT ?2)",
        )?
        .query_row(params![provider, TRAIN_AFTER], |r| r.get(0))?;
    if copies < TRAIN_AFTER {
        return Ok(None);
    }
    let mut samples: Vec<Vec<u8>> = Vec::new();
    {
        let mut dicts = Dictionaries::new(tx);
        let mut stmt = tx.prepare(
            "SELECT b.hash, b.raw_len, b.body FROM source s JOIN record r ON r.source_id = s.id
                 JOIN archive_blob b ON b.hash = r.archived
             WHERE s.provider = ?1 LIMIT ?2",
        )?;
        let mut rows = stmt.query(params![provider, SAMPLES])?;
        while let Some(r) = rows.next()? {
            let (hash, len, body): (Vec<u8>, i64, Vec<u8>) = (r.get(0)?, r.get(1)?, r.get(2)?);
            if let crate::ArchivedCopy::Intact(bytes) =
                crate::archive::open_copy(&mut dicts, &hash, len, &body)
            {
                samples.push(bytes);
            }
        }
    }
    // Another provider's dictionary with the same id would make copies unreadable.
    let trained = train_unused(tx, &samples, MAX_DICT, "archive_dict")?;
    match trained {
        Some((id, dict)) => {
            tx.prepare_cached(
                "INSERT INTO archive_dict (provider, dict_id, body) VALUES (?1, ?2, ?3)",
            )?
            .execute(params![provider, i64::from(id), dict])?;
            Ok(Some(dict))
        }
        None => {
            tx.prepare_cached(
                "INSERT INTO archive_dict (provider, dict_id, body) VALUES (?1, NULL, x'')",
            )?
            .execute([provider])?;
            Ok(None)
        }
    }
}

/// Deletes every dictionary after re-packing, without one, every copy that used one.
/// Returns the copies re-packed.
pub(crate) fn retire(tx: &Connection) -> Result<u64, StoreError> {
    let any: bool = tx.query_row("SELECT EXISTS (SELECT 1 FROM archive_dict)", [], |r| {
        r.get(0)
    })?;
    if !any {
        return Ok(0);
    }
    // Row ids first, then one copy at a time: memory stays bounded by one copy.
    let rowids: Vec<i64> = {
        let mut stmt = tx.prepare("SELECT rowid FROM archive_blob ORDER BY rowid")?;
        let rows = stmt.query_map([], |r| r.get(0))?;
        rows.collect::<Result<_, _>>()?
    };
    let mut repacked = 0;
    let mut plain = Packer::default();
    let mut dicts = Dictionaries::new(tx);
    for rowid in rowids {
        let (hash, len, body): (Vec<u8>, i64, Vec<u8>) = tx
            .prepare_cached("SELECT hash, raw_len, body FROM archive_blob WHERE rowid = ?1")?
            .query_row([rowid], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
        if zstd::zstd_safe::get_dict_id_from_frame(&body).is_none() {
            continue;
        }
        let bytes = match crate::archive::open_copy(&mut dicts, &hash, len, &body) {
            crate::ArchivedCopy::Intact(bytes) => bytes,
            other => {
                return Err(StoreError::Archive {
                    what: "retire dictionary",
                    detail: format!("copy {rowid} cannot be re-packed: {}", other.status()),
                })
            }
        };
        tx.prepare_cached("UPDATE archive_blob SET body = ?2 WHERE rowid = ?1")?
            .execute(params![rowid, plain.compress(&bytes)?])?;
        repacked += 1;
    }
    tx.execute("DELETE FROM archive_dict", [])?;
    Ok(repacked)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{ArchivedCopy, NativeRecordRow, SourceCursor, SourceSpec, Store};
    use fornax_redact::{RedactionCounts, Redactor};
    use fornax_types::{ByteRange, Fingerprint};

    fn record(i: u64) -> serde_json::Value {
        serde_json::json!({
            "type": "response_item",
            "timestamp": format!("2026-01-01T00:{:02}:{:02}.000Z", i / 60 % 60, i % 60),
            "payload": {"type": "function_call", "name": "shell", "call_id": format!("call_{i:06}"),
                        "arguments": format!("{{\"command\":[\"cargo\",\"test\",\"-p\",\"crate{}\"]}}", i % 17)}
        })
    }

    /// Writes `n` records with copies, from record `first` on, as one source of `provider`.
    fn write(store: &mut Store, key: &str, first: u64, n: u64) {
        let spec = SourceSpec::codex_file(key);
        let redactor = Redactor::new();
        let mut w = store.begin_source(&spec, false).unwrap();
        for i in first..first + n {
            let value = redactor.redact(record(i), &mut RedactionCounts::default());
            let fp = Fingerprint::of(value.get().to_string().as_bytes());
            let row = NativeRecordRow {
                position: i - first,
                member: None,
                byte_range: Some(ByteRange {
                    start: i * 300,
                    end: i * 300 + 299,
                }),
                fingerprint: &fp,
                runtime_ts: None,
                byte_len: Some(299),
            };
            w.add_archived_record(&row, Some(&value)).unwrap();
        }
        w.finish(&SourceCursor::default(), n, None, 0, 0, 0, "now")
            .unwrap();
    }

    fn frames(store: &Store) -> (i64, i64) {
        let mut stmt = store.conn.prepare("SELECT body FROM archive_blob").unwrap();
        let bodies: Vec<Vec<u8>> = stmt
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let with = bodies
            .iter()
            .filter(|b| zstd::zstd_safe::get_dict_id_from_frame(b).is_some())
            .count() as i64;
        (with, bodies.len() as i64 - with)
    }

    fn copies_are_intact(store: &Store) {
        let ids: Vec<(i64, i64)> = {
            let mut stmt = store
                .conn
                .prepare("SELECT id, position FROM record")
                .unwrap();
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
            rows.collect::<Result<_, _>>().unwrap()
        };
        for (id, _) in ids {
            match store.archived_copy(id).unwrap() {
                ArchivedCopy::Intact(bytes) => {
                    let v: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
                    assert_eq!(v["type"], "response_item");
                }
                other => panic!("record {id}: {other:?}"),
            }
        }
    }

    /// A provider's first copies are packed alone; once it has enough, its next source trains a
    /// dictionary and packs its copies with it (smaller), every copy reads back intact, and
    /// retiring the dictionaries re-packs the copies that used one without it.
    #[test]
    fn copies_after_training_use_the_dictionary_and_read_back() {
        let tmp = tempfile::tempdir().unwrap();
        let mut store = Store::open(&tmp.path().join("fornax.db")).unwrap();
        write(&mut store, "a", 0, TRAIN_AFTER as u64);
        assert_eq!(frames(&store), (0, TRAIN_AFTER));
        let plain: i64 = store
            .conn
            .query_row("SELECT SUM(length(body)) FROM archive_blob", [], |r| {
                r.get(0)
            })
            .unwrap();
        write(&mut store, "b", TRAIN_AFTER as u64, TRAIN_AFTER as u64);
        assert_eq!(frames(&store), (TRAIN_AFTER, TRAIN_AFTER));
        let trained: i64 = store
            .conn
            .query_row(
                "SELECT SUM(length(body)) FROM archive_blob WHERE rowid > ?1",
                [TRAIN_AFTER],
                |r| r.get(0),
            )
            .unwrap();
        assert!(trained * 10 < plain * 8, "{trained} with, {plain} without");
        copies_are_intact(&store);

        let tx = store.conn.transaction().unwrap();
        assert_eq!(retire(&tx).unwrap(), TRAIN_AFTER as u64);
        tx.commit().unwrap();
        assert_eq!(frames(&store), (0, 2 * TRAIN_AFTER));
        let dicts: i64 = store
            .conn
            .query_row("SELECT COUNT(*) FROM archive_dict", [], |r| r.get(0))
            .unwrap();
        assert_eq!(dicts, 0);
        copies_are_intact(&store);
    }
}
