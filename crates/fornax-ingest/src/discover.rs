//! Finding candidate files under roots.

use std::path::{Path, PathBuf};

use crate::Registry;

/// Lists candidate files under `roots` (files given directly are always candidates), sorted
/// for determinism. Only a cheap suffix filter applies here; content decides later.
pub fn discover(roots: &[PathBuf], registry: &Registry) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for root in roots {
        if root.is_file() {
            out.push(root.clone());
            continue;
        }
        for entry in walkdir::WalkDir::new(root)
            .follow_links(false)
            .into_iter()
            .filter_map(Result::ok)
        {
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
