//! Which branch is checked out.

use std::path::Path;

use crate::{repository, VcsError};

/// The branch HEAD points at, if any (None when detached).
///
/// The name is short (`main`, not `refs/heads/main`). A branch without commits yet still counts:
/// HEAD points at it.
pub fn head_branch(dir: &Path) -> Result<Option<String>, VcsError> {
    let repo = repository::discover(dir)?;
    let name = repo.head_name().map_err(|err| VcsError::git(dir, err))?;
    Ok(name.map(|name| name.shorten().to_string()))
}
