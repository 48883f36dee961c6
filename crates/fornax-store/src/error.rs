use std::path::{Path, PathBuf};

/// Everything that can go wrong in the store, naming what it was working on.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("cannot open database {path}: {source}")]
    Open {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("no database at {0} (run `fornax scan` first)")]
    Missing(PathBuf),
    #[error("database schema version {found} is newer than this fornax supports ({supported}); upgrade fornax")]
    NewerSchema { found: u32, supported: u32 },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("sqlite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("stored JSON is invalid ({what}): {source}")]
    Json {
        what: &'static str,
        source: serde_json::Error,
    },
    #[error("stored evidence {key} is not its kind's shape: {source}")]
    EvidenceShape {
        key: String,
        source: fornax_types::evidence::PayloadError,
    },
    #[error("no session matches {0:?}")]
    NoSuchSession(String),
    #[error("{query:?} matches several sessions: {candidates}")]
    AmbiguousSession { query: String, candidates: String },
    #[error("archive: cannot {what} a record's copy: {detail}")]
    Archive { what: &'static str, detail: String },
    #[error("no record with id {0}")]
    NoSuchRecord(i64),
    #[error("query refused: {0}")]
    QueryRefused(String),
    #[error("query failed: {0}")]
    Query(String),
    #[error("{path}: unknown schema: {detail}")]
    UnknownSchema { path: PathBuf, detail: String },
    #[error("another fornax is writing to {}{} (waited {:.0}s)", path.display(), holder.as_ref().map(|h| format!(": {h}")).unwrap_or_default(), waited.as_secs_f64())]
    Locked {
        path: PathBuf,
        holder: Option<String>,
        waited: std::time::Duration,
    },
}

impl StoreError {
    pub(crate) fn open(path: &Path, source: rusqlite::Error) -> Self {
        StoreError::Open {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn io(path: &Path, source: std::io::Error) -> Self {
        StoreError::Io {
            path: path.to_path_buf(),
            source,
        }
    }

    pub(crate) fn json(what: &'static str, source: serde_json::Error) -> Self {
        StoreError::Json { what, source }
    }
}
