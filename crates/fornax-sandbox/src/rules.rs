//! The filesystem plan: which trees are readable, which writable, and which secrets are left
//! out. Landlock grants rights beneath a path and cannot carve a hole in a grant, so a tree
//! that contains a denied path is granted child by child, around it.

use std::path::{Path, PathBuf};

/// Folders and files under the user's home that hold credentials (relative to `$HOME`).
pub const HOME_SECRETS: [&str; 12] = [
    ".ssh",
    ".aws",
    ".config/gh",
    ".gnupg",
    ".kube",
    ".docker",
    ".netrc",
    ".git-credentials",
    ".config/gcloud",
    ".azure",
    ".npmrc",
    ".pypirc",
];

/// The denied paths for a user whose home is `home` and whose Fornax data is `fornax_home`.
pub fn default_denied(home: Option<&Path>, fornax_home: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = home
        .map(|h| HOME_SECRETS.iter().map(|s| h.join(s)).collect())
        .unwrap_or_default();
    out.push(fornax_home.to_path_buf());
    out
}

/// Rules to install: (path, writable).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FsPlan {
    pub read: Vec<PathBuf>,
    pub write: Vec<PathBuf>,
}

fn canonical(p: &Path) -> PathBuf {
    p.canonicalize().unwrap_or_else(|_| p.to_path_buf())
}

/// Plans read access to `/` and write access to `writable`, leaving out every `denied` path
/// (and anything a symlink inside a granted tree would reach of one).
pub fn plan_filesystem(writable: &[PathBuf], denied: &[PathBuf]) -> FsPlan {
    let denied: Vec<PathBuf> = denied.iter().map(|d| canonical(d)).collect();
    let mut plan = FsPlan::default();
    grant(Path::new("/"), &denied, &mut plan.read, 0);
    for w in writable {
        grant(&canonical(w), &denied, &mut plan.write, 0);
    }
    plan
}

fn grant(path: &Path, denied: &[PathBuf], out: &mut Vec<PathBuf>, depth: usize) {
    let real = canonical(path);
    if denied.iter().any(|d| real.starts_with(d)) {
        return;
    }
    let holds_denied = denied.iter().any(|d| d.starts_with(&real) && *d != real);
    if !holds_denied {
        out.push(real);
        return;
    }
    if depth > 32 || !real.is_dir() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(&real) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        grant(&entry.path(), denied, out, depth + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_denied_folder_is_left_out_of_its_parent_grant() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        std::fs::create_dir_all(home.join(".ssh")).unwrap();
        std::fs::create_dir_all(home.join("src/app")).unwrap();
        std::fs::write(home.join("notes.txt"), "x").unwrap();
        std::os::unix::fs::symlink(home.join(".ssh"), home.join("keys")).unwrap();
        let plan = plan_filesystem(&[home.join("src/app")], &[home.join(".ssh")]);
        let home = home.canonicalize().unwrap();
        assert!(plan.read.contains(&home.join("notes.txt")));
        assert!(plan.read.contains(&home.join("src")));
        assert!(!plan.read.iter().any(|p| p.starts_with(home.join(".ssh"))));
        assert!(
            !plan.read.contains(&home),
            "the parent is never granted whole"
        );
        assert!(plan.write.contains(&home.join("src/app")));
        assert!(
            !plan.read.contains(&home.join("keys")),
            "a symlink into a secret is left out"
        );
    }
}
