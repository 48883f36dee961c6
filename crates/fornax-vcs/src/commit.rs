//! Checking a claimed commit against the object database.

use std::path::Path;

use crate::{repository, sha, VcsError};

/// What the repository says about a claimed commit.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CommitCheck {
    /// The repository's work dir (its git dir when bare).
    pub repository: String,
    /// The sha as claimed.
    pub sha: String,
    /// Exactly one commit matches the claimed sha.
    pub exists: bool,
    /// The matching commit's full id, when `exists`.
    pub full_sha: Option<String>,
    /// The first line of the matching commit's message, when `exists`.
    pub summary: Option<String>,
    /// More than one commit matches the claimed prefix, so none is picked.
    pub ambiguous: bool,
}

/// Finds the repository containing `dir` (walking up like git does) and looks `sha` (a 4–40 hex prefix) up.
pub fn check_commit(dir: &Path, sha: &str) -> Result<CommitCheck, VcsError> {
    let prefix = sha::parse_prefix(sha)?;
    let repo = repository::discover(dir)?;
    let commits = matching_commits(&repo, dir, prefix)?;
    let mut check = CommitCheck {
        repository: repository::display_dir(&repo),
        sha: sha.to_owned(),
        exists: false,
        full_sha: None,
        summary: None,
        ambiguous: false,
    };
    match commits.as_slice() {
        [] => {}
        [id] => {
            check.exists = true;
            check.full_sha = Some(id.to_string());
            check.summary = Some(summary(&repo, dir, *id)?);
        }
        _ => check.ambiguous = true,
    }
    Ok(check)
}

/// Every commit whose id starts with `prefix`; objects of other kinds are not commits.
fn matching_commits(
    repo: &gix::Repository,
    dir: &Path,
    prefix: gix::hash::Prefix,
) -> Result<Vec<gix::ObjectId>, VcsError> {
    let mut candidates = std::collections::HashSet::new();
    let found = repo
        .objects
        .lookup_prefix(prefix, Some(&mut candidates))
        .map_err(|err| VcsError::git(dir, err))?;
    if found.is_none() {
        return Ok(Vec::new());
    }
    let mut commits = Vec::new();
    for id in candidates {
        let header = repo
            .find_header(id)
            .map_err(|err| VcsError::git(dir, err))?;
        if header.kind() == gix::object::Kind::Commit {
            commits.push(id);
        }
    }
    commits.sort();
    Ok(commits)
}

/// The first line of the commit's message, as git's `%s` shows it (lossily decoded).
fn summary(repo: &gix::Repository, dir: &Path, id: gix::ObjectId) -> Result<String, VcsError> {
    let commit = repo
        .find_commit(id)
        .map_err(|err| VcsError::git(dir, err))?;
    let message = commit.message().map_err(|err| VcsError::git(dir, err))?;
    Ok(message.summary().to_string())
}
