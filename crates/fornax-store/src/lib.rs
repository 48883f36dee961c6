//! The store: the only crate that touches SQLite.
//!
//! It holds the three layers (physical records, canonical sessions/loops/items, judgement
//! evidence/claims/findings) in one SQLite database in WAL mode, with text deduplicated and an
//! FTS5 trigram index over human and agent text.
//!
//! # Invariants
//!
//! * Raw native bytes are never stored: a record row holds its location and fingerprint only.
//! * Everything written for one source happens in one transaction together with that
//!   source's cursor, so readers see the previous or the new complete state of a source and a
//!   crash mid-scan neither loses nor duplicates anything.
//! * Writes happen only through [`SourceWriter`] and [`Store::write_verification`]; the query
//!   surface ([`Store::query`]) is read-only, enforced by an authorizer, and bounded.
//! * Findings are append-only: a new row only when a claim's judgement changes.
//! * Database files are private to the user (0600).
//! * Another program's database ([`ForeignDocuments`]) is only ever opened read-only, and its
//!   schema is checked before any row is read.

mod error;
mod foreign;
mod query;
mod read;
mod schema;
mod trees;
mod write;

pub use error::StoreError;
pub use foreign::ForeignDocuments;
pub use query::{Column, QueryLimits, QueryResult, Relation};
pub use read::{
    DoctorStats, DriftRow, EvidenceBrief, FamilyData, FindingFilter, FindingRow, RecordLocation,
    SearchHit, SessionDetail, SessionFilter, SessionRow,
};
pub use schema::SCHEMA_VERSION;
pub use trees::TreeMemberState;
pub use write::{Drift, SourceCursor, SourceSpec, SourceState, SourceWriter, WriteSummary};

use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

/// An open Fornax database.
#[derive(Debug)]
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens (creating if needed) the database at `path` and migrates it.
    pub fn open(path: &Path) -> Result<Store, StoreError> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).map_err(|e| StoreError::io(dir, e))?;
        }
        let mut conn = Connection::open(path).map_err(|e| StoreError::open(path, e))?;
        conn.busy_timeout(std::time::Duration::from_secs(10))?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "NORMAL")?;
        conn.pragma_update(None, "temp_store", "MEMORY")?;
        // Bounded page cache (negative = KiB): memory stays flat on big scans.
        conn.pragma_update(None, "cache_size", -16384)?;
        schema::migrate(&mut conn)?;
        let store = Store {
            conn,
            path: path.to_path_buf(),
        };
        store.make_private();
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
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
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

    /// Runs a WAL checkpoint so the main file holds everything (used after big scans).
    pub fn checkpoint(&self) -> Result<(), StoreError> {
        self.conn.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)")?;
        Ok(())
    }
}
