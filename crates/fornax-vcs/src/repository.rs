//! Finding and opening the repository that contains a directory.

use std::path::Path;

use crate::VcsError;

/// Finds the repository containing `dir`, walking up its parents the way git does.
///
/// Only the repository's own configuration is read: user, system and environment configuration
/// can name hooks, includes or helper programs, none of which a read-only lookup needs.
pub(crate) fn discover(dir: &Path) -> Result<gix::Repository, VcsError> {
    let isolated = gix::open::Options::isolated();
    let trust_map = gix::sec::trust::Mapping {
        full: isolated.clone(),
        reduced: isolated,
    };
    gix::ThreadSafeRepository::discover_opts(dir, Default::default(), trust_map)
        .map(gix::Repository::from)
        .map_err(|err| classify(dir, err))
}

fn classify(dir: &Path, err: gix::Error) -> VcsError {
    use gix::discover::upwards::Error as Upwards;
    match err.downcast_any_ref::<Upwards>() {
        Some(
            Upwards::NoGitRepository { .. }
            | Upwards::NoGitRepositoryWithinCeiling { .. }
            | Upwards::NoGitRepositoryWithinFs { .. },
        ) => VcsError::NotARepository {
            path: dir.to_path_buf(),
        },
        _ => VcsError::git(dir, err),
    }
}

/// The directory that names the repository in reports: its work tree, or the git dir when bare.
pub(crate) fn display_dir(repo: &gix::Repository) -> String {
    repo.workdir()
        .unwrap_or_else(|| repo.git_dir())
        .display()
        .to_string()
}
