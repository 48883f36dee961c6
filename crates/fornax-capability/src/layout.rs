//! Where capabilities, adapters and toolspaces live on disk.
//!
//! ```text
//! $FORNAX_HOME/capabilities/*.json            global.* manifests
//! $FORNAX_HOME/adapters/<name>/               global adapters
//! $FORNAX_HOME/toolspaces/<ts>/toolspace.json toolspace mounts
//! $FORNAX_HOME/toolspaces/<ts>/adapters/      adapters private to <ts>
//! <workspace>/.fornax/capabilities/*.json     workspace.* manifests
//! <workspace>/.fornax/adapters/<name>/        global adapters shipped with the workspace
//! <workspace>/.fornax/toolspaces/<ts>/...     as under FORNAX_HOME
//! ```
//!
//! The workspace is, in order: the `--workspace` flag, then `FORNAX_WORKSPACE`, then the
//! nearest ancestor of the working directory holding a `.fornax/` directory (other than
//! `FORNAX_HOME` itself).

use std::path::{Path, PathBuf};

/// The workspace marker directory.
pub const WORKSPACE_MARKER: &str = ".fornax";
/// Environment variable that overrides workspace discovery.
pub const WORKSPACE_ENV: &str = "FORNAX_WORKSPACE";
/// Environment variable that selects the toolspace for shorthand lookups.
pub const TOOLSPACE_ENV: &str = "FORNAX_TOOLSPACE";

/// Which root a file came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Root {
    Home,
    Workspace,
}

impl Root {
    pub fn as_str(self) -> &'static str {
        match self {
            Root::Home => "home",
            Root::Workspace => "workspace",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    pub home: PathBuf,
    /// The bound workspace root (the directory that holds `.fornax/`), if any.
    pub workspace: Option<PathBuf>,
    /// The caller's working directory.
    pub cwd: PathBuf,
}

impl Layout {
    /// Resolves the workspace: `flag`, then `env_override`, then discovery from `cwd`.
    pub fn discover(
        home: &Path,
        flag: Option<&Path>,
        env_override: Option<&Path>,
        cwd: &Path,
    ) -> Layout {
        let absolute = |p: &Path| {
            if p.is_absolute() {
                p.to_path_buf()
            } else {
                cwd.join(p)
            }
        };
        let workspace = flag
            .or(env_override)
            .map(absolute)
            .or_else(|| find_workspace(cwd, home));
        Layout {
            home: home.to_path_buf(),
            workspace,
            cwd: cwd.to_path_buf(),
        }
    }

    pub fn root_dir(&self, root: Root) -> Option<PathBuf> {
        match root {
            Root::Home => Some(self.home.clone()),
            Root::Workspace => self.workspace.as_ref().map(|w| w.join(WORKSPACE_MARKER)),
        }
    }

    pub fn capabilities_dir(&self, root: Root) -> Option<PathBuf> {
        self.root_dir(root).map(|d| d.join("capabilities"))
    }

    pub fn adapters_dir(&self, root: Root) -> Option<PathBuf> {
        self.root_dir(root).map(|d| d.join("adapters"))
    }

    pub fn toolspaces_dir(&self, root: Root) -> Option<PathBuf> {
        self.root_dir(root).map(|d| d.join("toolspaces"))
    }

    /// Roots that exist in this layout, home first.
    pub fn roots(&self) -> Vec<Root> {
        let mut roots = vec![Root::Home];
        if self.workspace.is_some() {
            roots.push(Root::Workspace);
        }
        roots
    }
}

fn find_workspace(cwd: &Path, home: &Path) -> Option<PathBuf> {
    cwd.ancestors()
        .find(|dir| {
            let marker = dir.join(WORKSPACE_MARKER);
            marker.is_dir() && !same_path(&marker, home)
        })
        .map(Path::to_path_buf)
}

fn same_path(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn discovery_order() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let ws = tmp.path().join("repo");
        let deep = ws.join("a/b");
        std::fs::create_dir_all(ws.join(".fornax")).unwrap();
        std::fs::create_dir_all(&deep).unwrap();
        let l = Layout::discover(&home, None, None, &deep);
        assert_eq!(l.workspace.as_deref(), Some(ws.as_path()));
        let other = tmp.path().join("other");
        let l = Layout::discover(&home, None, Some(&other), &deep);
        assert_eq!(l.workspace.as_deref(), Some(other.as_path()));
        let flag = tmp.path().join("flag");
        let l = Layout::discover(&home, Some(&flag), Some(&other), &deep);
        assert_eq!(l.workspace.as_deref(), Some(flag.as_path()));
        let l = Layout::discover(&home, None, None, tmp.path());
        assert_eq!(l.workspace, None);
    }

    #[test]
    fn home_named_like_the_marker_is_not_a_workspace() {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join(".fornax");
        std::fs::create_dir_all(&home).unwrap();
        let l = Layout::discover(&home, None, None, tmp.path());
        assert_eq!(l.workspace, None);
    }
}
