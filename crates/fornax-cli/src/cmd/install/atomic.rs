//! Replacing and removing agent files safely.
//!
//! A file is replaced by writing a temporary file in the same folder, syncing it and renaming
//! it over the old one, so a reader sees either the old bytes or the new, never half. Before a
//! file changes, its previous bytes go to `<file>.fornax-backup` (the same way). The file's
//! mode is kept. A symbolic link is followed, so a settings file managed as a link into a
//! dotfiles repository stays a link.

use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use anyhow::Context as _;

/// Mode of new files: agent settings are ordinary user configuration.
const NEW_FILE_MODE: u32 = 0o644;
/// Links followed before giving up (a cycle).
const MAX_LINK_HOPS: usize = 40;

/// Whether changes are written or only reported.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Write,
    DryRun,
}

/// A file as it was read before any change.
#[derive(Debug)]
pub struct Current {
    /// Where the bytes live (a link's target when the given path is a link).
    pub path: PathBuf,
    /// `None` when the file does not exist.
    pub bytes: Option<Vec<u8>>,
}

/// Reads a file that may not exist, following a link to its target.
pub fn read(path: &Path) -> anyhow::Result<Current> {
    let path = resolve_link(path)?;
    match std::fs::read(&path) {
        Ok(bytes) => Ok(Current {
            path,
            bytes: Some(bytes),
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Current { path, bytes: None }),
        Err(e) => Err(anyhow::Error::new(e).context(format!("reading {}", path.display()))),
    }
}

fn resolve_link(path: &Path) -> anyhow::Result<PathBuf> {
    let mut path = path.to_path_buf();
    for _ in 0..MAX_LINK_HOPS {
        match std::fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let target = std::fs::read_link(&path)
                    .with_context(|| format!("reading the link {}", path.display()))?;
                path = match path.parent() {
                    Some(dir) if target.is_relative() => dir.join(target),
                    _ => target,
                };
            }
            _ => return Ok(path),
        }
    }
    anyhow::bail!("{} is a chain of links that does not end", path.display())
}

/// The backup of `path`.
pub fn backup_path(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(".fornax-backup");
    path.with_file_name(name)
}

/// Replaces `current` with `new`, backing up the previous bytes. Returns the backup's path.
pub fn replace(current: &Current, new: &[u8]) -> anyhow::Result<Option<PathBuf>> {
    let path = &current.path;
    let mode = match std::fs::metadata(path) {
        Ok(meta) => meta.permissions().mode() & 0o7777,
        Err(_) => NEW_FILE_MODE,
    };
    ensure_unchanged(current)?;
    let backup = match &current.bytes {
        Some(old) => {
            let b = backup_path(path);
            write_atomically(&b, old, mode)?;
            Some(b)
        }
        None => None,
    };
    write_atomically(path, new, mode)?;
    Ok(backup)
}

/// Removes `current`, backing up its bytes first. Returns the backup's path.
pub fn remove(current: &Current) -> anyhow::Result<Option<PathBuf>> {
    let Some(old) = &current.bytes else {
        return Ok(None);
    };
    let path = &current.path;
    let mode = std::fs::metadata(path)
        .map(|m| m.permissions().mode() & 0o7777)
        .unwrap_or(NEW_FILE_MODE);
    ensure_unchanged(current)?;
    let b = backup_path(path);
    write_atomically(&b, old, mode)?;
    std::fs::remove_file(path).with_context(|| format!("removing {}", path.display()))?;
    sync_dir(path);
    Ok(Some(b))
}

/// Refuses to go on when someone else changed the file since it was read.
fn ensure_unchanged(current: &Current) -> anyhow::Result<()> {
    let now = match std::fs::read(&current.path) {
        Ok(b) => Some(b),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => {
            return Err(anyhow::Error::new(e).context(format!("reading {}", current.path.display())))
        }
    };
    if now != current.bytes {
        anyhow::bail!(
            "{} changed while Fornax was editing it; nothing was written, run the command again",
            current.path.display()
        );
    }
    Ok(())
}

fn write_atomically(path: &Path, bytes: &[u8], mode: u32) -> anyhow::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(".fornax-")
        .suffix(".tmp")
        .tempfile_in(&dir)
        .with_context(|| format!("creating a temporary file in {}", dir.display()))?;
    tmp.write_all(bytes)
        .with_context(|| format!("writing {}", tmp.path().display()))?;
    std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(mode))
        .with_context(|| format!("setting the mode of {}", tmp.path().display()))?;
    tmp.as_file()
        .sync_all()
        .with_context(|| format!("syncing {}", tmp.path().display()))?;
    tmp.persist(path)
        .map_err(|e| anyhow::Error::new(e.error))
        .with_context(|| format!("replacing {}", path.display()))?;
    sync_dir(path);
    Ok(())
}

/// Makes a rename durable; best effort, since not every file system supports it.
fn sync_dir(path: &Path) {
    if let Some(dir) = path.parent() {
        if let Ok(d) = std::fs::File::open(if dir.as_os_str().is_empty() {
            Path::new(".")
        } else {
            dir
        }) {
            let _ = d.sync_all();
        }
    }
}
