//! Finding candidate sources under roots.
//!
//! Symlinks inside roots are followed (a loop back to an ancestor is reported, not walked
//! again), and a file reached through several links is one candidate (its resolved path).
//! Directories that cannot be read and links that lead nowhere are named with the reason.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::{Registry, SkippedFile};

/// What discovery found: candidates to read, and paths it could not look into.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Discovery {
    /// Files and document-tree roots, resolved, sorted and without duplicates.
    pub candidates: Vec<PathBuf>,
    pub skipped: Vec<SkippedFile>,
}

/// Lists candidate sources under `roots` (see [`discover_paths`]), without the skipped paths.
pub fn discover(roots: &[PathBuf], registry: &Registry) -> Vec<PathBuf> {
    discover_paths(roots, registry).candidates
}

/// Lists candidate sources under `roots`, sorted for determinism: files (files given directly
/// are always candidates; only a cheap suffix filter applies, content decides later), and
/// directories that are the root of an adapter's document tree (their contents are read as
/// that tree, never file by file).
pub fn discover_paths(roots: &[PathBuf], registry: &Registry) -> Discovery {
    let mut found = BTreeSet::new();
    let mut skipped = Vec::new();
    for root in roots {
        if root.is_file() {
            found.insert(resolve(root));
            continue;
        }
        let mut walk = walkdir::WalkDir::new(root).follow_links(true).into_iter();
        while let Some(entry) = walk.next() {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    if let Some(skip) = skipped_by(&e) {
                        skipped.push(skip);
                    }
                    continue;
                }
            };
            if entry.file_type().is_dir() {
                if registry.tree_for_dir(entry.path()).is_some() {
                    found.insert(resolve(entry.path()));
                    walk.skip_current_dir();
                }
                continue;
            }
            if entry.file_type().is_file() && registry.is_candidate(entry.path()) {
                found.insert(resolve(entry.path()));
            }
        }
    }
    skipped.sort_by(|a: &SkippedFile, b| a.path.cmp(&b.path));
    skipped.dedup();
    Discovery {
        candidates: found.into_iter().collect(),
        skipped,
    }
}

/// A path with its symlinks resolved (itself when that fails: reading it will say why).
fn resolve(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

/// How a walk error is reported.
fn skipped_by(e: &walkdir::Error) -> Option<SkippedFile> {
    let path = e.path()?.display().to_string();
    if let Some(ancestor) = e.loop_ancestor() {
        return Some(SkippedFile {
            path,
            reason: format!("symlink loop (back to {})", ancestor.display()),
        });
    }
    let reason = match e.io_error().map(std::io::Error::kind) {
        Some(std::io::ErrorKind::PermissionDenied) => "permission denied".to_string(),
        Some(std::io::ErrorKind::NotFound) => "broken symlink or vanished while scanning".into(),
        _ => format!("cannot read: {e}"),
    };
    Some(SkippedFile { path, reason })
}

pub(crate) fn file_stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}
