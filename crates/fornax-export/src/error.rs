//! Errors, each naming the input it failed on.

use std::path::PathBuf;

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Store(#[from] fornax_store::StoreError),
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("OTLP endpoint {endpoint}: {detail}")]
    Endpoint { endpoint: String, detail: String },
    #[error("cursor file {path} is unreadable: {detail}")]
    Cursor { path: PathBuf, detail: String },
    #[cfg(feature = "postgres")]
    #[error("PostgreSQL at {url}: {source}")]
    Postgres {
        url: String,
        source: tokio_postgres::Error,
    },
    #[error("PostgreSQL URL {url:?} is not usable: {detail}")]
    PostgresUrl { url: String, detail: String },
    #[error("unknown export format {0:?} (expected md, html or jsonl)")]
    Format(String),
}

impl ExportError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        ExportError::Io {
            path: path.into(),
            source,
        }
    }
}
