//! The archive: every ingested record's bytes after redaction, so that a session outlives the
//! files its agent deletes (ADR 0011).
//!
//! A copy is the record's redacted JSON, zstd-compressed, in `archive_blob`, keyed by the
//! BLAKE3 of the uncompressed redacted bytes: identical records (a copied or rewritten file, a
//! session seen through two sources) are kept once. Copies are written in the source's
//! transaction, so a record and its copy are stored together or not at all. A copy is never
//! rewritten in place: `redact --again` stores a changed copy under its new key and moves its
//! records there, and a copy no record names any more (a rebuilt source, a forgotten session)
//! is deleted.
//!
//! A record row keeps two fingerprints apart: `fingerprint` is the BLAKE3 of the raw native
//! bytes (what a live source is checked against), `archived` the key of its redacted copy
//! (what the copy is checked against).

use fornax_redact::{Redacted, RedactionCounts, Redactor};
use rusqlite::{params, OptionalExtension};
use serde_json::Value;

use crate::dictionary::Dictionaries;
use crate::{Store, StoreError};

/// zstd level for copies: fast enough to run on every record of a scan.
const LEVEL: i32 = 3;

/// A redacted record as it is archived: its JSON bytes and their key.
pub(crate) struct Copy {
    pub hash: [u8; 32],
    pub bytes: Vec<u8>,
}

impl Copy {
    pub(crate) fn of(value: &Redacted<Value>) -> Result<Copy, StoreError> {
        let bytes =
            serde_json::to_vec(value.get()).map_err(|e| StoreError::json("archived record", e))?;
        Ok(Copy {
            hash: *blake3::hash(&bytes).as_bytes(),
            bytes,
        })
    }
}

/// Compresses copies with one zstd context, made on first use and kept: setting a context up
/// costs more than compressing a small record, so a writer keeps one for all its records.
#[derive(Default)]
pub(crate) struct Packer {
    ctx: Option<zstd::bulk::Compressor<'static>>,
}

impl std::fmt::Debug for Packer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Packer")
            .field("ready", &self.ctx.is_some())
            .finish()
    }
}

impl Packer {
    /// A packer whose frames use `dictionary` (they name it by its id).
    pub(crate) fn with_dictionary(dictionary: &[u8]) -> Result<Packer, StoreError> {
        let ctx = zstd::bulk::Compressor::with_dictionary(LEVEL, dictionary).map_err(|e| {
            StoreError::Archive {
                what: "load dictionary",
                detail: e.to_string(),
            }
        })?;
        Ok(Packer { ctx: Some(ctx) })
    }

    pub(crate) fn compress(&mut self, bytes: &[u8]) -> Result<Vec<u8>, StoreError> {
        let failed = |e: std::io::Error| StoreError::Archive {
            what: "compress",
            detail: e.to_string(),
        };
        let mut ctx = match self.ctx.take() {
            Some(ctx) => ctx,
            None => zstd::bulk::Compressor::new(LEVEL).map_err(failed)?,
        };
        let body = ctx.compress(bytes).map_err(failed);
        self.ctx = Some(ctx);
        body
    }
}

/// Stores a copy unless one with the same key is there. Returns whether it was new.
pub(crate) fn put(
    tx: &rusqlite::Connection,
    packer: &mut Packer,
    copy: &Copy,
) -> Result<bool, StoreError> {
    let known = tx
        .prepare_cached("SELECT 1 FROM archive_blob WHERE hash = ?1")?
        .exists([&copy.hash[..]])?;
    if known {
        return Ok(false);
    }
    let body = packer.compress(&copy.bytes)?;
    tx.prepare_cached("INSERT INTO archive_blob (hash, raw_len, body) VALUES (?1, ?2, ?3)")?
        .execute(params![&copy.hash[..], copy.bytes.len() as i64, body])?;
    Ok(true)
}

/// What the archive holds for one record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ArchivedCopy {
    /// The record was stored without a copy (the archive was off, or an older release wrote it).
    Absent,
    /// The copy decompresses and its bytes hash to its key.
    Intact(Vec<u8>),
    /// The copy is there but does not decompress to its key's bytes.
    Damaged(String),
    /// The record names a copy the archive does not hold.
    Missing,
}

impl ArchivedCopy {
    pub fn status(&self) -> &'static str {
        match self {
            ArchivedCopy::Absent => "not_archived",
            ArchivedCopy::Intact(_) => "intact",
            ArchivedCopy::Damaged(_) => "damaged",
            ArchivedCopy::Missing => "missing",
        }
    }
}

/// Decompresses a stored copy and checks it against its key.
pub(crate) fn open_copy(
    dicts: &mut Dictionaries<'_>,
    hash: &[u8],
    raw_len: i64,
    body: &[u8],
) -> ArchivedCopy {
    let cap = usize::try_from(raw_len).unwrap_or(0);
    let bytes = match zstd::zstd_safe::get_dict_id_from_frame(body) {
        None => {
            zstd::bulk::decompress(body, cap).map_err(|e| format!("it does not decompress: {e}"))
        }
        Some(id) => dicts.decompress(id.get(), body, cap),
    };
    match bytes {
        Ok(bytes) if blake3::hash(&bytes).as_bytes()[..] == *hash => ArchivedCopy::Intact(bytes),
        Ok(_) => ArchivedCopy::Damaged("its bytes do not hash to its key".into()),
        Err(e) => ArchivedCopy::Damaged(e),
    }
}

/// Counts for `doctor` and reports.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArchiveStats {
    /// Distinct copies kept.
    pub blobs: u64,
    /// Their redacted bytes, uncompressed.
    pub raw_bytes: u64,
    /// What they take compressed.
    pub stored_bytes: u64,
    /// Record rows with a copy, and without one.
    pub records_archived: u64,
    pub records_unarchived: u64,
    /// Sessions every record of which has a copy.
    pub sessions_archived: u64,
    pub sessions: u64,
}

/// One stored record with its copy, as `reindex` replays it.
#[derive(Debug, Clone)]
pub struct ArchivedRecord {
    pub position: u64,
    pub member: Option<String>,
    pub byte_start: Option<u64>,
    pub byte_end: Option<u64>,
    /// BLAKE3 of the raw native bytes, kept as the scan computed it.
    pub fingerprint: [u8; 32],
    pub runtime_ts: Option<String>,
    /// The native record's length in bytes.
    pub byte_len: u64,
    pub copy: ArchivedCopy,
}

/// One stored source, as `reindex` re-creates it.
#[derive(Debug, Clone)]
pub struct ArchivedSource {
    pub id: i64,
    pub spec: crate::SourceSpec,
    pub status: String,
    pub retired_at: Option<String>,
    pub cursor: crate::SourceCursor,
    pub next_position: u64,
}

impl Store {
    /// The archived copy of record `id`.
    pub fn archived_copy(&self, id: i64) -> Result<ArchivedCopy, StoreError> {
        let row: Option<Option<Vec<u8>>> = self
            .conn
            .query_row("SELECT archived FROM record WHERE id = ?1", [id], |r| {
                r.get(0)
            })
            .optional()?;
        let Some(hash) = row.ok_or(StoreError::NoSuchRecord(id))? else {
            return Ok(ArchivedCopy::Absent);
        };
        self.copy_by_hash(&hash)
    }

    fn copy_by_hash(&self, hash: &[u8]) -> Result<ArchivedCopy, StoreError> {
        let blob: Option<(i64, Vec<u8>)> = self
            .conn
            .prepare_cached("SELECT raw_len, body FROM archive_blob WHERE hash = ?1")?
            .query_row([hash], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        Ok(match blob {
            Some((raw_len, body)) => {
                open_copy(&mut Dictionaries::new(&self.conn), hash, raw_len, &body)
            }
            None => ArchivedCopy::Missing,
        })
    }

    pub fn archive_stats(&self) -> Result<ArchiveStats, StoreError> {
        let (blobs, raw_bytes, stored_bytes): (i64, i64, i64) = self.conn.query_row(
            "SELECT COUNT(*), COALESCE(SUM(raw_len), 0), COALESCE(SUM(length(body)), 0)
             FROM archive_blob",
            [],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )?;
        let (archived, unarchived): (i64, i64) = self.conn.query_row(
            "SELECT COALESCE(SUM(archived IS NOT NULL), 0), COALESCE(SUM(archived IS NULL), 0)
             FROM record",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        let (sessions, sessions_archived): (i64, i64) = self.conn.query_row(
            "SELECT COUNT(*), COALESCE(SUM(NOT EXISTS (
                 SELECT 1 FROM session_source ss JOIN record r ON r.source_id = ss.source_id
                 WHERE ss.session_id = session.id AND r.archived IS NULL)), 0)
             FROM session",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )?;
        Ok(ArchiveStats {
            blobs: blobs as u64,
            raw_bytes: raw_bytes as u64,
            stored_bytes: stored_bytes as u64,
            records_archived: archived as u64,
            records_unarchived: unarchived as u64,
            sessions_archived: sessions_archived as u64,
            sessions: sessions as u64,
        })
    }

    /// Every stored source in the order it was first stored (the order a scan met them).
    pub fn archived_sources(&self) -> Result<Vec<ArchivedSource>, StoreError> {
        let mut stmt = self.conn.prepare(
            "SELECT id, source_key, provider, kind, locator, adapter, session_hint, status,
                    retired_at, inode, size, mtime_ns, prefix_len, prefix_fp, cursor, open_tail,
                    block_fps, next_position
             FROM source ORDER BY id",
        )?;
        let rows = stmt.query_map([], |r| {
            Ok(ArchivedSource {
                id: r.get(0)?,
                spec: crate::SourceSpec {
                    key: r.get(1)?,
                    provider: r.get(2)?,
                    kind: r.get(3)?,
                    locator: r.get(4)?,
                    adapter: r.get(5)?,
                    session_hint: r.get(6)?,
                },
                status: r.get(7)?,
                retired_at: r.get(8)?,
                cursor: crate::SourceCursor {
                    inode: r.get::<_, Option<i64>>(9)?.map(|v| v as u64),
                    size: r.get::<_, Option<i64>>(10)?.map(|v| v as u64),
                    mtime_ns: r.get(11)?,
                    prefix_len: r.get::<_, Option<i64>>(12)?.map(|v| v as u64),
                    prefix_fp: r.get(13)?,
                    offset: r.get::<_, i64>(14)? as u64,
                    open_tail: r.get::<_, i64>(15)? != 0,
                    blocks: r.get(16)?,
                },
                next_position: r.get::<_, i64>(17)? as u64,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }

    /// A source's records in position order, each with its archived copy. Calls `each` per
    /// record (one copy in memory at a time); stops at the first error `each` returns.
    pub fn each_archived_record<E: From<StoreError>>(
        &self,
        source_id: i64,
        mut each: impl FnMut(ArchivedRecord) -> Result<(), E>,
    ) -> Result<(), E> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT r.position, r.member, r.byte_start, r.byte_end, r.fingerprint, r.runtime_ts,
                        r.byte_len, r.archived, b.raw_len, b.body
                 FROM record r LEFT JOIN archive_blob b ON b.hash = r.archived
                 WHERE r.source_id = ?1 ORDER BY r.position",
            )
            .map_err(StoreError::from)?;
        let mut rows = stmt.query([source_id]).map_err(StoreError::from)?;
        let mut dicts = Dictionaries::new(&self.conn);
        while let Some(r) = rows.next().map_err(StoreError::from)? {
            let mut read = || -> Result<ArchivedRecord, rusqlite::Error> {
                let fp: Vec<u8> = r.get(4)?;
                let mut fingerprint = [0u8; 32];
                if fp.len() == 32 {
                    fingerprint.copy_from_slice(&fp);
                }
                let start = r.get::<_, Option<i64>>(2)?.map(|v| v as u64);
                let end = r.get::<_, Option<i64>>(3)?.map(|v| v as u64);
                let hash: Option<Vec<u8>> = r.get(7)?;
                let blob: Option<(i64, Vec<u8>)> = match r.get::<_, Option<i64>>(8)? {
                    Some(len) => Some((len, r.get(9)?)),
                    None => None,
                };
                let copy = match (hash, blob) {
                    (None, _) => ArchivedCopy::Absent,
                    (Some(_), None) => ArchivedCopy::Missing,
                    (Some(h), Some((len, body))) => open_copy(&mut dicts, &h, len, &body),
                };
                let byte_len = match (r.get::<_, Option<i64>>(6)?, start, end) {
                    (Some(n), _, _) => n as u64,
                    (None, Some(s), Some(e)) => e.saturating_sub(s),
                    _ => 0,
                };
                Ok(ArchivedRecord {
                    position: r.get::<_, i64>(0)? as u64,
                    member: r.get(1)?,
                    byte_start: start,
                    byte_end: end,
                    fingerprint,
                    runtime_ts: r.get(5)?,
                    byte_len,
                    copy,
                })
            };
            each(read().map_err(StoreError::from)?)?;
        }
        Ok(())
    }
}

impl Store {
    /// `redact --again` over the archive, `batch` copies per transaction: each copy redacted
    /// with the current detectors; one they change is stored under its new key, the records
    /// that named the old copy name the new one, and the old copy is deleted. Returns the
    /// copies read and the copies changed. A damaged copy is left as it is (`record verify`
    /// names it).
    pub(crate) fn redact_archive_again(
        &mut self,
        redactor: &Redactor,
        batch: i64,
        counts: &mut RedactionCounts,
    ) -> Result<(u64, u64), StoreError> {
        let (mut read, mut changed) = (0, 0);
        let mut after = 0i64;
        let mut packer = Packer::default();
        loop {
            let tx = self.conn.transaction()?;
            let rows: Vec<(i64, Vec<u8>, i64, Vec<u8>)> = {
                let mut stmt = tx.prepare(
                    "SELECT rowid, hash, raw_len, body FROM archive_blob
                     WHERE rowid > ?1 ORDER BY rowid LIMIT ?2",
                )?;
                let rows = stmt.query_map(params![after, batch], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })?;
                rows.collect::<Result<_, _>>()?
            };
            let Some(last) = rows.last().map(|r| r.0) else {
                break;
            };
            after = last;
            for (rowid, hash, raw_len, body) in rows {
                read += 1;
                let ArchivedCopy::Intact(bytes) =
                    open_copy(&mut Dictionaries::new(&tx), &hash, raw_len, &body)
                else {
                    continue;
                };
                let Ok(value) = serde_json::from_slice::<Value>(&bytes) else {
                    continue;
                };
                let redacted = redactor.redact_record(value.clone(), counts);
                if *redacted.get() == value {
                    continue;
                }
                changed += 1;
                let copy = Copy::of(&redacted)?;
                put(&tx, &mut packer, &copy)?;
                tx.execute(
                    "UPDATE record SET archived = ?2 WHERE archived = ?1",
                    params![hash, &copy.hash[..]],
                )?;
                tx.execute("DELETE FROM archive_blob WHERE rowid = ?1", [rowid])?;
            }
            tx.commit()?;
        }
        Ok((read, changed))
    }
}
