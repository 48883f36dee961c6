//! The one error type of this crate. Every variant names the input that failed.

use std::path::PathBuf;

/// Errors from capability commands. A capability run that fails is *not* an error: it is an
/// `{ok: false}` envelope with a non-zero exit code. These are the failures before a run can
/// even be attempted (bad usage, unknown ids, unwritable files).
#[derive(Debug, thiserror::Error)]
pub enum CapError {
    #[error("no capability matches {query:?}{hint}")]
    NotFound { query: String, hint: String },
    #[error("{query:?} is ambiguous: it matches {candidates}")]
    Ambiguous { query: String, candidates: String },
    #[error("invalid capability id {id:?}: {reason}")]
    InvalidId { id: String, reason: String },
    #[error("{path}: invalid manifest:\n  - {}", problems.join("\n  - "))]
    InvalidManifest { path: String, problems: Vec<String> },
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("{path} already exists; scaffolding never overwrites")]
    AlreadyExists { path: PathBuf },
    #[error("{0}")]
    Usage(String),
    #[error("lifecycle change refused for {id}: {reason}")]
    Lifecycle { id: String, reason: String },
    #[error("MCP server: {0}")]
    Mcp(String),
}

impl CapError {
    pub(crate) fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        CapError::Io {
            path: path.into(),
            source,
        }
    }
}
