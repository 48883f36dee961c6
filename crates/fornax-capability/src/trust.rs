//! Workspace trust, in the manner of direnv's `allow`.
//!
//! Anything found under a workspace's `.fornax/` (capability manifests, adapter folders,
//! toolspaces) could have been written by the agent working in that workspace, so it is
//! *untrusted* until the user trusts it with `fornax cap trust [PATH]`. Trusting records the
//! file's path and the BLAKE3 hash of its content in `$FORNAX_HOME/trust.json`; a file whose
//! content changes no longer matches its record and is untrusted again.
//!
//! A capability's *trust inputs* are every workspace file that decides what it runs: its
//! manifest, the toolspace that mounts it, and the workspace adapters (manifest and script) it
//! runs through. Hashes are taken from the bytes the registry parsed, never re-read, so a file
//! swapped between loading and checking cannot borrow a trusted file's record.
//!
//! What a run's evidence is worth follows from this ([`RunTrust::evidence_class`]): built-in
//! and `FORNAX_HOME` capabilities are host-observed; a workspace capability whose every input
//! the user trusted is `workspace_trusted` (a verdict may rest on it); a run the user allowed
//! once without trusting is `workspace_untrusted` (recorded, never a verdict's basis).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use fornax_types::TrustClass;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::error::CapError;
use crate::layout::{Layout, Root, WORKSPACE_MARKER};

/// The trust store's file name under `FORNAX_HOME`.
pub const TRUST_FILE: &str = "trust.json";
const TRUST_VERSION: u32 = 1;

/// BLAKE3 of `bytes`, as the trust store writes it.
pub fn content_hash(bytes: &[u8]) -> String {
    format!("blake3:{}", blake3::hash(bytes).to_hex())
}

/// One file a capability's behaviour depends on, hashed when it was read.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct TrustInput {
    pub path: PathBuf,
    pub root: Root,
    pub hash: String,
}

impl TrustInput {
    /// `path` is made canonical, so a record matches however the workspace was reached.
    pub fn new(path: &Path, root: Root, bytes: &[u8]) -> TrustInput {
        TrustInput {
            path: path.canonicalize().unwrap_or_else(|_| path.to_path_buf()),
            root,
            hash: content_hash(bytes),
        }
    }
}

/// Whether a run may go ahead when its capability is not trusted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TrustMode {
    /// Refuse untrusted workspace capabilities (MCP, `verify --recheck`, `cap run`).
    #[default]
    RequireTrusted,
    /// The user allowed this one run (`cap run --trust-once`); its evidence stays untrusted.
    Once,
}

/// What is known of a capability's provenance when it is about to run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunTrust {
    /// Workspace files the run depends on (empty: built-in or `FORNAX_HOME` only).
    pub inputs: Vec<TrustInput>,
    /// Inputs whose current hash has no record in the trust store.
    pub untrusted: Vec<TrustInput>,
    /// One hash over every workspace input (path and content), recorded with the evidence.
    pub fingerprint: Option<String>,
}

impl RunTrust {
    pub fn new(mut inputs: Vec<TrustInput>, store: &TrustStore) -> RunTrust {
        inputs.retain(|i| i.root == Root::Workspace);
        inputs.sort();
        inputs.dedup();
        let untrusted = inputs
            .iter()
            .filter(|i| !store.is_trusted(&i.path, &i.hash))
            .cloned()
            .collect();
        let fingerprint = (!inputs.is_empty()).then(|| {
            let mut h = blake3::Hasher::new();
            for i in &inputs {
                h.update(i.path.to_string_lossy().as_bytes());
                h.update(b"\0");
                h.update(i.hash.as_bytes());
                h.update(b"\n");
            }
            format!("blake3:{}", h.finalize().to_hex())
        });
        RunTrust {
            inputs,
            untrusted,
            fingerprint,
        }
    }

    /// Does the capability come from a workspace at all?
    pub fn from_workspace(&self) -> bool {
        !self.inputs.is_empty()
    }

    pub fn is_trusted(&self) -> bool {
        self.untrusted.is_empty()
    }

    /// The trust class of evidence a run with this provenance produces.
    pub fn evidence_class(&self) -> TrustClass {
        if !self.from_workspace() {
            TrustClass::HostObserved
        } else if self.is_trusted() {
            TrustClass::WorkspaceTrusted
        } else {
            TrustClass::WorkspaceUntrusted
        }
    }

    /// `trusted`, `untrusted` or `not-applicable` (nothing from a workspace).
    pub fn status(&self) -> &'static str {
        if !self.from_workspace() {
            "not-applicable"
        } else if self.is_trusted() {
            "trusted"
        } else {
            "untrusted"
        }
    }

    /// The refusal message for an untrusted run, with the command that trusts it.
    pub fn refusal(&self, capability: &str) -> String {
        let files: Vec<String> = self
            .untrusted
            .iter()
            .map(|i| i.path.display().to_string())
            .collect();
        let target = common_target(&self.untrusted);
        format!(
            "{capability} comes from a workspace and is not trusted ({} not trusted or changed since \
             trusted: {}); the agent working there could have written it. Review it, then trust it \
             with `fornax cap trust {}`",
            if files.len() == 1 { "this file is" } else { "these files are" },
            files.join(", "),
            target.display()
        )
    }

    pub fn to_json(&self) -> Value {
        json!({
            "status": self.status(),
            "class": self.evidence_class(),
            "fingerprint": self.fingerprint,
            "inputs": self.inputs.iter().map(|i| json!({"path": i.path, "hash": i.hash})).collect::<Vec<_>>(),
            "untrusted": self.untrusted.iter().map(|i| &i.path).collect::<Vec<_>>(),
        })
    }
}

/// The path `fornax cap trust` should be given to trust every file in `inputs`: the file
/// itself when there is one, else the workspace root they share.
fn common_target(inputs: &[TrustInput]) -> PathBuf {
    match inputs {
        [one] => one.path.clone(),
        _ => inputs
            .first()
            .and_then(|i| workspace_root_of(&i.path))
            .unwrap_or_else(|| PathBuf::from(".")),
    }
}

/// The workspace root (the directory holding `.fornax/`) a path lies under.
fn workspace_root_of(path: &Path) -> Option<PathBuf> {
    path.ancestors()
        .find(|a| a.file_name().is_some_and(|n| n == WORKSPACE_MARKER))
        .and_then(Path::parent)
        .map(Path::to_path_buf)
}

/// One trusted file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TrustRecord {
    pub path: PathBuf,
    pub hash: String,
    pub trusted_at: String,
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct TrustFile {
    version: u32,
    #[serde(default)]
    trusted: Vec<TrustRecord>,
}

/// `$FORNAX_HOME/trust.json`: the files the user trusted, by path and content hash.
#[derive(Debug, Clone, Default)]
pub struct TrustStore {
    path: PathBuf,
    records: BTreeMap<PathBuf, TrustRecord>,
    /// Why the file could not be read, when it exists but is unusable (then nothing is trusted).
    pub problem: Option<String>,
}

impl TrustStore {
    /// Reads the trust store of `home`. A missing file trusts nothing; an unreadable or
    /// malformed one trusts nothing and says why in [`TrustStore::problem`].
    pub fn load(home: &Path) -> TrustStore {
        let path = home.join(TRUST_FILE);
        let mut store = TrustStore {
            path: path.clone(),
            ..TrustStore::default()
        };
        let text = match std::fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return store,
            Err(e) => {
                store.problem = Some(format!("{}: cannot read: {e}", path.display()));
                return store;
            }
        };
        match serde_json::from_str::<TrustFile>(&text) {
            Ok(file) if file.version <= TRUST_VERSION => {
                for r in file.trusted {
                    store.records.insert(r.path.clone(), r);
                }
            }
            Ok(file) => {
                store.problem = Some(format!(
                    "{}: written by a newer Fornax (version {}); nothing is trusted",
                    path.display(),
                    file.version
                ));
            }
            Err(e) => {
                store.problem = Some(format!(
                    "{}: not a valid trust store ({e}); nothing is trusted",
                    path.display()
                ));
            }
        }
        store
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn is_trusted(&self, path: &Path, hash: &str) -> bool {
        self.records.get(path).is_some_and(|r| r.hash == hash)
    }

    pub fn records(&self) -> impl Iterator<Item = &TrustRecord> {
        self.records.values()
    }

    /// Records `inputs` as trusted at `now`.
    pub fn trust(&mut self, inputs: &[TrustInput], now: &str) {
        for i in inputs {
            self.records.insert(
                i.path.clone(),
                TrustRecord {
                    path: i.path.clone(),
                    hash: i.hash.clone(),
                    trusted_at: now.to_string(),
                },
            );
        }
    }

    /// Forgets every record at or under `path`; returns what was removed.
    pub fn untrust(&mut self, path: &Path) -> Vec<TrustRecord> {
        let gone: Vec<PathBuf> = self
            .records
            .keys()
            .filter(|p| p.starts_with(path))
            .cloned()
            .collect();
        gone.iter().filter_map(|p| self.records.remove(p)).collect()
    }

    /// Writes the store atomically (a private temporary file renamed over the old one).
    pub fn save(&self) -> Result<(), CapError> {
        if let Some(problem) = &self.problem {
            return Err(CapError::Usage(format!(
                "refusing to overwrite the trust store: {problem}"
            )));
        }
        let dir = self.path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| CapError::io(dir, e))?;
        let file = TrustFile {
            version: TRUST_VERSION,
            trusted: self.records.values().cloned().collect(),
        };
        let text = serde_json::to_string_pretty(&file).unwrap_or_default();
        let tmp = self.path.with_extension("json.tmp");
        write_private(&tmp, text.as_bytes()).map_err(|e| CapError::io(&tmp, e))?;
        std::fs::rename(&tmp, &self.path).map_err(|e| CapError::io(&self.path, e))
    }
}

fn write_private(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    #[cfg(unix)]
    use std::os::unix::fs::OpenOptionsExt;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    options.mode(0o600);
    let mut f = options.open(path)?;
    f.write_all(bytes)?;
    f.sync_all()
}

/// Every workspace file under `target` that can define or change what a capability runs:
/// `.fornax/capabilities/*.json`, adapter folders' `adapter.manifest.json` and scripts, and
/// toolspaces' `toolspace.json` and private adapters. `target` is a workspace root, its
/// `.fornax/` folder, a folder inside it, or one file. Files are hashed as read now.
pub fn files_to_trust(target: &Path, layout: &Layout) -> Result<Vec<TrustInput>, CapError> {
    let target = absolute(target, &layout.cwd);
    let meta = std::fs::metadata(&target).map_err(|e| CapError::io(&target, e))?;
    let marker_dir = if target.join(WORKSPACE_MARKER).is_dir() {
        target.join(WORKSPACE_MARKER)
    } else {
        target.clone()
    };
    let inside_marker = marker_dir
        .ancestors()
        .any(|a| a.file_name().is_some_and(|n| n == WORKSPACE_MARKER));
    if !inside_marker {
        return Err(CapError::Usage(format!(
            "{} is not a workspace (no {WORKSPACE_MARKER}/ folder) nor inside one",
            target.display()
        )));
    }
    let mut files = Vec::new();
    if meta.is_file() {
        files.push(target.clone());
    } else {
        collect(&marker_dir, &mut files, 0);
    }
    let mut out = Vec::new();
    for f in files {
        let bytes = std::fs::read(&f).map_err(|e| CapError::io(&f, e))?;
        out.push(TrustInput::new(&f, Root::Workspace, &bytes));
    }
    out.sort();
    Ok(out)
}

/// The files under a `.fornax/` tree that matter for trust (bounded depth; no symlinked
/// folders followed).
fn collect(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) {
    if depth > 6 {
        return;
    }
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        let Ok(meta) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        if meta.is_dir() {
            collect(&p, out, depth + 1);
        } else if meta.is_file() && matters(&p) {
            out.push(p);
        }
    }
}

fn matters(path: &Path) -> bool {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let parent = path
        .parent()
        .and_then(Path::file_name)
        .and_then(|n| n.to_str())
        .unwrap_or("");
    (parent == "capabilities" && name.ends_with(".json"))
        || name == crate::adapters::ADAPTER_MANIFEST
        || name == crate::toolspace::TOOLSPACE_FILE
        || name.ends_with(".rhai")
}

fn absolute(p: &Path, cwd: &Path) -> PathBuf {
    let joined = if p.is_absolute() {
        p.to_path_buf()
    } else {
        cwd.join(p)
    };
    joined.canonicalize().unwrap_or(joined)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(path: &str, text: &str) -> TrustInput {
        TrustInput::new(Path::new(path), Root::Workspace, text.as_bytes())
    }

    #[test]
    fn a_changed_file_is_untrusted_again() {
        let tmp = tempfile::tempdir().unwrap();
        let mut store = TrustStore::load(tmp.path());
        let v1 = input("/ws/.fornax/capabilities/t.json", "one");
        assert!(!RunTrust::new(vec![v1.clone()], &store).is_trusted());
        store.trust(std::slice::from_ref(&v1), "2026-01-01T00:00:00Z");
        store.save().unwrap();
        let store = TrustStore::load(tmp.path());
        let trusted = RunTrust::new(vec![v1], &store);
        assert!(trusted.is_trusted());
        assert_eq!(trusted.evidence_class(), TrustClass::WorkspaceTrusted);
        let v2 = input("/ws/.fornax/capabilities/t.json", "two");
        let changed = RunTrust::new(vec![v2], &store);
        assert!(!changed.is_trusted());
        assert_eq!(changed.evidence_class(), TrustClass::WorkspaceUntrusted);
        assert!(changed
            .refusal("workspace.t.run")
            .contains("fornax cap trust"));
    }

    #[test]
    fn home_inputs_are_not_workspace_inputs() {
        let store = TrustStore::default();
        let home = TrustInput::new(Path::new("/h/capabilities/x.json"), Root::Home, b"x");
        let t = RunTrust::new(vec![home], &store);
        assert!(!t.from_workspace());
        assert_eq!(t.evidence_class(), TrustClass::HostObserved);
        assert_eq!(t.fingerprint, None);
    }

    #[test]
    fn a_malformed_store_trusts_nothing_and_is_not_overwritten() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join(TRUST_FILE), "{not json").unwrap();
        let store = TrustStore::load(tmp.path());
        assert!(store.problem.is_some());
        assert!(store.save().is_err());
    }
}
