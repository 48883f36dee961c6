//! The files of a `FORNAX_HOME`, named once.

use std::path::{Path, PathBuf};

/// A Fornax home directory and the paths inside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Home {
    root: PathBuf,
}

impl Home {
    pub fn new(root: impl Into<PathBuf>) -> Home {
        Home { root: root.into() }
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// The index (SQLite).
    pub fn db(&self) -> PathBuf {
        self.root.join("fornax.db")
    }

    /// Where hooks and plugins append their events.
    pub fn spool_dir(&self) -> PathBuf {
        self.root.join("spool")
    }

    /// The daemon's Unix socket.
    pub fn socket(&self) -> PathBuf {
        self.root.join("fornax.sock")
    }

    /// Held by the one daemon of this home.
    pub fn daemon_lock(&self) -> PathBuf {
        self.root.join("daemon.lock")
    }

    pub fn daemon_pid(&self) -> PathBuf {
        self.root.join("daemon.pid")
    }

    /// The daemon's structured log.
    pub fn daemon_log(&self) -> PathBuf {
        self.root.join("daemon.log")
    }

    /// A background daemon's stderr (start-up failures before its log is open).
    pub fn daemon_err(&self) -> PathBuf {
        self.root.join("daemon.err")
    }

    /// One line per hook failure (never payload text).
    pub fn hook_log(&self) -> PathBuf {
        self.root.join("hook.log")
    }

    /// Touched by each hook's attempt to start the daemon (the rate limit of those attempts).
    pub fn autostart_stamp(&self) -> PathBuf {
        self.root.join("daemon.autostart")
    }

    pub fn config(&self) -> PathBuf {
        self.root.join("config.toml")
    }
}

/// The default home when neither `--home` nor `FORNAX_HOME` is given.
pub fn default_home() -> PathBuf {
    dirs::data_dir()
        .unwrap_or_else(|| PathBuf::from("."))
        .join("fornax")
}

/// Creates `dir` private to the user (0700) when it does not exist yet.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if !dir.exists() {
        std::fs::create_dir_all(dir)?;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}
