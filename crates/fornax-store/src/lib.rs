//! The store: the only crate that touches SQLite.
//!
//! It holds the three layers (physical records, canonical sessions/loops/items, judgement
//! evidence/claims/findings) in one SQLite database in WAL mode, with text deduplicated and an
//! FTS5 trigram index over human and agent text.
//!
//! # Invariants
//!
//! * Unredacted native bytes are never stored: a record row holds its location and the
//!   fingerprint of its raw bytes; its copy in the archive (`archive_blob`, ADR 0011) holds
//!   its bytes after redaction, zstd-compressed and keyed by their own BLAKE3.
//! * Everything written for one source happens in one transaction together with that
//!   source's cursor, so readers see the previous or the new complete state of a source and a
//!   crash mid-scan neither loses nor duplicates anything.
//! * Writes happen only through [`SourceWriter`] and [`Store::write_verification`]; the query
//!   surface ([`Store::query`]) is read-only, enforced by an authorizer, and bounded.
//! * Full-text indexing trails the data: searchable texts are queued in `fts_pending` in the
//!   source's transaction and added to the FTS5 index in batches by [`Store::flush_search_index`] (at
//!   the end of a scan, or when the store is next opened for writing); [`Store::search`] also
//!   scans pending texts, so results never miss committed text.
//! * Findings are append-only: a new row only when a claim's judgement changes. A re-check
//!   (a run Fornax performed later) is a row of its own beside them, never a new verdict.
//! * One writer per database: every writable [`Store`] holds the store-writer lock
//!   ([`WriterLock`]) for as long as it lives, and schema creation and migrations run under it,
//!   so concurrent first opens never race. Read-only handles take no lock.
//! * Verification is owed, not assumed: a source's transaction marks the sessions it touched
//!   as pending (`verify_pending`), and only the write that stores their family's judgement
//!   clears the mark ([`Store::pending_verification`]).
//! * Database files are private to the user (0600).
//! * Another program's database ([`ForeignDocuments`]) is only ever opened read-only, and its
//!   schema is checked before any row is read.

mod archive;
mod dictionary;
mod error;
mod foreign;
mod listing;
mod lock;
mod mirror;
mod packed;
mod packs;
mod privacy;
mod query;
mod read;
mod recheck;
mod schema;
mod trees;
mod usage;
mod write;

pub use archive::{ArchiveStats, ArchivedCopy, ArchivedRecord, ArchivedSource};
pub use error::StoreError;
pub use foreign::ForeignDocuments;
pub use listing::{
    ActivityRow, ChangeMarker, ChildSession, FindingOrder, ListFilter, ProjectStat, StoredEvidence,
    LATEST,
};
pub use lock::{LockHolder, LockWait, WriterLock};
pub use mirror::{MirrorFinding, MirrorItem};
pub use privacy::{Forgotten, Rerun, SpoolRange, FORGOTTEN};
pub use query::{Column, QueryLimits, QueryResult, Relation};
pub use read::{
    describe_evidence, DoctorStats, DriftRow, EvidenceBrief, FamilyData, FindingFilter, FindingRow,
    LoopRow, RecordLocation, SearchHit, SessionDetail, SessionFilter, SessionRow,
    VerificationWrite,
};
pub use recheck::RecheckRow;
pub use schema::SCHEMA_VERSION;
pub use trees::TreeMemberState;
pub use usage::{UsageGrain, UsageQuery};
pub use write::{
    Drift, NativeRecordRow, SourceCursor, SourceSpec, SourceState, SourceWriter, WriteSummary,
};

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags, OptionalExtension};

/// An open Fornax database.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    path: PathBuf,
    /// Held by every writable handle; `None` for read-only ones.
    writer: Option<WriterLock>,
    /// The packed columns' dictionaries, as `unpacked()` on `conn` reads them.
    dicts: std::sync::Arc<packs::PackDicts>,
    /// The packed columns' compressors (writers).
    packs: packs::Packs,
}

impl Store {
    /// The page cache's bound while writing, in KiB.
    pub const CACHE_KIB: u32 = 16 * 1024;

    /// How long [`Store::open`] waits for another writer to finish.
    pub const DEFAULT_WAIT: std::time::Duration = std::time::Duration::from_secs(60);

    /// Opens (creating if needed) the database at `path` for writing and migrates it, waiting up
    /// to [`Store::DEFAULT_WAIT`] for the store-writer lock.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        Store::open_with(path, "writer", LockWait::up_to(Store::DEFAULT_WAIT))
    }

    /// [`Store::open`], saying what the writer does (shown to writers that wait for it) and how
    /// long to wait for the lock.
    pub fn open_with(path: &Path, purpose: &str, wait: LockWait<'_>) -> Result<Store, StoreError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::io(dir, e))?;
        }
        // Taken before the database is touched: creating the schema is one writer's job.
        let writer = WriterLock::acquire(path, purpose, wait)?;
        let mut conn = Connection::open(path).map_err(|e| StoreError::open(path, e))?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "temp_store", "MEMORY")?;
        // Bounded page cache (negative = KiB): memory stays flat on big scans.
        conn.pragma_update(None, "cache_size", -i64::from(Store::CACHE_KIB))?;
        // Checkpoint every 32 MiB of WAL instead of 4 MiB: pages a scan rewrites often (index
        // interiors) are copied to the database once per checkpoint, not once per 4 MiB.
        conn.pragma_update(None, "wal_autocheckpoint", 8192)?;
        let dicts = packs::PackDicts::of(path);
        schema::migrate_with(&mut conn, &dicts)?;
        let mut store = Store {
            conn,
            path: path.to_path_buf(),
            writer: Some(writer),
            dicts,
            packs: packs::Packs::default(),
        };
        store.make_private();
        // Sessions owed their usage rollup (a store the rollup's migration has just marked, or
        // calls changed by a path that left the rebuild to the next writer) are rebuilt now.
        {
            let tx = store
                .conn
                .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            usage::refresh_usage_rollup(&tx)?;
            tx.commit()?;
        }
        // Texts a scan that died left pending are indexed now.
        store.flush_search_index()?;
        Ok(store)
    }

    /// Opens an existing database for reading only.
    pub fn open_read_only(path: &Path) -> Result<Store, StoreError> {
        if !path.exists() {
            return Err(StoreError::Missing(path.to_path_buf()));
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| StoreError::open(path, e))?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        let dicts = packs::PackDicts::of(path);
        packed::register(&conn, &dicts)?;
        let version: u32 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if version > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema {
                found: version,
                supported: SCHEMA_VERSION,
            });
        }
        if version < SCHEMA_VERSION {
            // An older database: migrate through a writable handle first.
            drop(conn);
            drop(Store::open(path)?);
            return Store::open_read_only(path);
        }
        Ok(Store {
            conn,
            path: path.to_path_buf(),
            writer: None,
            dicts,
            packs: packs::Packs::default(),
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Whether this handle may write (it holds the store-writer lock).
    pub fn is_writer(&self) -> bool {
        self.writer.is_some()
    }

    /// Restricts the database and its WAL/SHM companions to the owner.
    pub fn make_private(&self) {
        use std::os::unix::fs::PermissionsExt;
        for suffix in ["", "-wal", "-shm"] {
            let mut p = self.path.clone().into_os_string();
            p.push(suffix);
            let p = PathBuf::from(p);
            if p.exists() {
                let _ = std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o600));
            }
        }
    }

    /// Adds every pending searchable text to the FTS index, in batches of 16,384 rows per
    /// transaction (a few large FTS5 segments instead of one or more per source).
    /// Returns how many texts were indexed. Cheap when nothing is pending.
    pub fn flush_search_index(&mut self) -> Result<u64, StoreError> {
        const BATCH: i64 = 16384;
        let mut total = 0u64;
        loop {
            let tx = self.conn.transaction()?;
            let last: Option<i64> = tx
                .query_row(
                    "SELECT text_id FROM fts_pending ORDER BY text_id LIMIT 1 OFFSET ?1",
                    [BATCH - 1],
                    |r| r.get(0),
                )
                .optional()?;
            let bound = last.unwrap_or(i64::MAX);
            let n = tx.execute(
                "INSERT INTO text_fts (rowid, body)
                 SELECT t.id, t.body FROM fts_pending p JOIN text t ON t.id = p.text_id
                 WHERE p.text_id <= ?1 ORDER BY p.text_id",
                [bound],
            )?;
            tx.execute("DELETE FROM fts_pending WHERE text_id <= ?1", [bound])?;
            tx.commit()?;
            total += n as u64;
            if last.is_none() {
                return Ok(total);
            }
        }
    }

    /// Sets the page cache's bound in KiB (the store opens with 16 MiB). A smaller cache
    /// while sessions are read back for verification leaves that memory to verification.
    pub fn set_cache_kib(&self, kib: u32) -> Result<(), StoreError> {
        self.conn
            .pragma_update(None, "cache_size", -i64::from(kib))?;
        Ok(())
    }

    /// SQLite's `PRAGMA quick_check`: an empty list when the database is sound, else what it
    /// found (at most `limit` problems).
    pub fn quick_check(&self, limit: u32) -> Result<Vec<String>, StoreError> {
        let mut stmt = self
            .conn
            .prepare(&format!("PRAGMA quick_check({})", limit.max(1)))?;
        let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
        let mut problems = Vec::new();
        for row in rows {
            let line = row?;
            if line != "ok" {
                problems.push(line);
            }
        }
        Ok(problems)
    }

    /// Runs a WAL checkpoint so the main file holds everything (used after big scans).
    pub fn checkpoint(&self) -> Result<(), StoreError> {
        self.conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")?;
        Ok(())
    }
}
