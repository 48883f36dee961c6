//! Finding candidate sources under roots.

use std::path::{Path, PathBuf};

use crate::Registry;

/// Lists candidate sources under `roots`, sorted for determinism: files (files given directly
/// are always candidates; only a cheap suffix filter applies, content decides later), and
/// directories that are the root of an adapter's document tree (their contents are read as
/// that tree, never file by file).
pub fn discover(roots: &[PathBuf], registry: &Registry) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for root in roots {
        if root.is_file() {
            out.push(root.clone());
            continue;
        }
        let mut walk = walkdir::WalkDir::new(root).follow_links(false).into_iter();
        while let Some(entry) = walk.next() {
            let Ok(entry) = entry else { continue };
            if entry.file_type().is_dir() {
                if registry.tree_for_dir(entry.path()).is_some() {
                    out.push(entry.into_path());
                    walk.skip_current_dir();
                }
                continue;
            }
            if entry.file_type().is_file() && registry.is_candidate(entry.path()) {
                out.push(entry.into_path());
            }
        }
    }
    out.sort();
    out.dedup();
    out
}

pub(crate) fn file_stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}
