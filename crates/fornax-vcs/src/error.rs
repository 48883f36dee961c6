use std::path::PathBuf;

/// Why a git query could not be answered.
#[derive(Debug, thiserror::Error)]
pub enum VcsError {
    /// Neither the directory nor any of its parents holds a git repository.
    #[error("{} is not inside a git repository", path.display())]
    NotARepository {
        /// The directory the search started from.
        path: PathBuf,
    },
    /// The claimed sha is not a 4 to 40 character hexadecimal object id (prefix).
    #[error("{sha:?} is not a 4 to 40 character hexadecimal commit id")]
    InvalidSha {
        /// The sha as it was claimed.
        sha: String,
    },
    /// The repository exists but could not be read.
    #[error("git could not read the repository at {}: {message}", path.display())]
    Git {
        /// The directory the query was about.
        path: PathBuf,
        /// What gix reported.
        message: String,
    },
}

impl VcsError {
    pub(crate) fn git(path: &std::path::Path, err: impl std::fmt::Display) -> Self {
        VcsError::Git {
            path: path.to_path_buf(),
            message: err.to_string(),
        }
    }
}
