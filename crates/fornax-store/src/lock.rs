//! The store-writer lock: one writer per database (so per `FORNAX_HOME`) at a time.
//!
//! Every writable [`Store`](crate::Store) holds it for as long as it lives: scans, the daemon
//! (during each pass), re-checks, capability runs. It is an exclusive `flock` on
//! `<database>.lock`, released by the kernel when its holder exits however it exits, so a
//! crashed writer never leaves a stale lock. The holder writes who it is into the file (pid,
//! purpose, since), so a writer that must wait can say for whom.
//!
//! Within one process the lock is shared: a second writable handle on the same database joins
//! the lock the process already holds (SQLite's own locking serializes those handles).

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock, Weak};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use crate::StoreError;

/// Who holds the lock, as the holder wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockHolder {
    pub pid: u32,
    /// What it is doing (`scan`, `daemon`, ...).
    pub purpose: String,
    /// Since when, in seconds since the Unix epoch.
    pub since_unix: u64,
}

impl std::fmt::Display for LockHolder {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_secs())
            .unwrap_or(0);
        write!(
            f,
            "pid {} ({}, for {}s)",
            self.pid,
            self.purpose,
            now.saturating_sub(self.since_unix)
        )
    }
}

#[derive(Debug)]
struct Inner {
    _file: File,
    path: PathBuf,
}

impl Drop for Inner {
    fn drop(&mut self) {
        if let Ok(mut held) = held().lock() {
            held.remove(&self.path);
        }
        // Closing the file releases the flock.
    }
}

/// A held store-writer lock (released on drop).
#[derive(Debug, Clone)]
pub struct WriterLock {
    _held: Arc<Inner>,
}

fn held() -> &'static Mutex<HashMap<PathBuf, Weak<Inner>>> {
    static HELD: OnceLock<Mutex<HashMap<PathBuf, Weak<Inner>>>> = OnceLock::new();
    HELD.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Called once when a writer finds the lock held, with its holder when known.
pub type OnWait<'a> = &'a mut dyn FnMut(Option<&LockHolder>);

/// How long a writer waits for the lock, and what it does meanwhile.
pub struct LockWait<'a> {
    /// Give up after this long (zero: do not wait).
    pub timeout: Duration,
    /// Called once, when the lock is found held, with its holder when known.
    pub on_wait: Option<OnWait<'a>>,
}

impl std::fmt::Debug for LockWait<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LockWait")
            .field("timeout", &self.timeout)
            .finish()
    }
}

impl LockWait<'_> {
    /// Waits up to `timeout`, silently.
    pub fn up_to(timeout: Duration) -> LockWait<'static> {
        LockWait {
            timeout,
            on_wait: None,
        }
    }
}

impl WriterLock {
    /// The lock file of a database: `<database>.lock`.
    pub fn path_for(db: &Path) -> PathBuf {
        let mut p = db.as_os_str().to_owned();
        p.push(".lock");
        PathBuf::from(p)
    }

    /// Who holds the lock of `db` now, if anyone does (and wrote its name).
    pub fn holder(db: &Path) -> Option<LockHolder> {
        let path = Self::path_for(db);
        let file = File::open(&path).ok()?;
        if file.try_lock_shared().is_ok() {
            // Nobody holds it exclusively; what the file says is from a finished writer.
            let _ = file.unlock();
            return None;
        }
        read_holder(&mut &file)
    }

    /// Takes the lock, waiting as `wait` says. `purpose` is recorded for whoever waits next.
    pub fn acquire(
        db: &Path,
        purpose: &str,
        mut wait: LockWait<'_>,
    ) -> Result<WriterLock, StoreError> {
        let path = Self::path_for(db);
        let key = std::fs::canonicalize(db.parent().unwrap_or(Path::new(".")))
            .map(|d| d.join(path.file_name().unwrap_or_default()))
            .unwrap_or_else(|_| path.clone());
        let mut registry = held()
            .lock()
            .map_err(|_| StoreError::io(&path, std::io::Error::other("lock registry poisoned")))?;
        if let Some(inner) = registry.get(&key).and_then(Weak::upgrade) {
            return Ok(WriterLock { _held: inner });
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| StoreError::io(&path, e))?;
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = file.set_permissions(std::fs::Permissions::from_mode(0o600));
        }
        let started = Instant::now();
        let mut told = false;
        loop {
            match file.try_lock() {
                Ok(()) => break,
                Err(std::fs::TryLockError::WouldBlock) => {}
                Err(std::fs::TryLockError::Error(e)) => return Err(StoreError::io(&path, e)),
            }
            let holder = read_holder(&mut &file);
            if !told {
                told = true;
                if let Some(f) = wait.on_wait.as_mut() {
                    f(holder.as_ref());
                }
            }
            if started.elapsed() >= wait.timeout {
                return Err(StoreError::Locked {
                    path: db.to_path_buf(),
                    holder: holder.map(|h| h.to_string()),
                    waited: started.elapsed(),
                });
            }
            // Others may wait for this process's registry meanwhile: let them.
            drop(registry);
            std::thread::sleep(Duration::from_millis(50));
            registry = held().lock().map_err(|_| {
                StoreError::io(&path, std::io::Error::other("lock registry poisoned"))
            })?;
            if let Some(inner) = registry.get(&key).and_then(Weak::upgrade) {
                return Ok(WriterLock { _held: inner });
            }
        }
        write_holder(&file, purpose).map_err(|e| StoreError::io(&path, e))?;
        let inner = Arc::new(Inner {
            _file: file,
            path: key.clone(),
        });
        registry.insert(key, Arc::downgrade(&inner));
        Ok(WriterLock { _held: inner })
    }
}

fn write_holder(mut file: &File, purpose: &str) -> std::io::Result<()> {
    let since = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let purpose: String = purpose
        .chars()
        .filter(|c| !c.is_control())
        .take(64)
        .collect();
    file.set_len(0)?;
    file.seek(SeekFrom::Start(0))?;
    writeln!(file, "{} {since} {purpose}", std::process::id())?;
    file.flush()
}

fn read_holder(file: &mut &File) -> Option<LockHolder> {
    let mut text = String::new();
    file.seek(SeekFrom::Start(0)).ok()?;
    file.take(256).read_to_string(&mut text).ok()?;
    let mut parts = text.trim().splitn(3, ' ');
    Some(LockHolder {
        pid: parts.next()?.parse().ok()?,
        since_unix: parts.next()?.parse().ok()?,
        purpose: parts.next().unwrap_or("writer").to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_holder_per_database_shared_within_a_process() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("f.db");
        assert_eq!(WriterLock::holder(&db), None);
        let a = WriterLock::acquire(&db, "scan", LockWait::up_to(Duration::ZERO)).unwrap();
        // The same process joins its own lock instead of deadlocking on it.
        let b = WriterLock::acquire(&db, "other", LockWait::up_to(Duration::ZERO)).unwrap();
        drop(a);
        drop(b);
        // Released: another open file description can take it.
        let f = File::open(WriterLock::path_for(&db)).unwrap();
        f.try_lock().unwrap();
    }

    #[test]
    fn a_held_lock_names_its_holder_and_times_out() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("f.db");
        // Another holder: a separate open file description with the lock and its name.
        let other = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(WriterLock::path_for(&db))
            .unwrap();
        other.lock().unwrap();
        write_holder(&other, "scan").unwrap();
        let holder = WriterLock::holder(&db).unwrap();
        assert_eq!(
            (holder.pid, holder.purpose.as_str()),
            (std::process::id(), "scan")
        );
        let mut seen = None;
        let mut note = |h: Option<&LockHolder>| seen = h.cloned();
        let err = WriterLock::acquire(
            &db,
            "daemon",
            LockWait {
                timeout: Duration::from_millis(120),
                on_wait: Some(&mut note),
            },
        )
        .unwrap_err();
        assert!(
            matches!(
                err,
                StoreError::Locked {
                    holder: Some(_),
                    ..
                }
            ),
            "{err}"
        );
        assert_eq!(seen.unwrap().purpose, "scan");
        other.unlock().unwrap();
        WriterLock::acquire(&db, "daemon", LockWait::up_to(Duration::ZERO)).unwrap();
    }
}
