//! Starting the daemon from a hook that found none, so live capture never silently stops.
//!
//! The hook only spawns `fornax --home H daemon run --detached` and returns: the daemon
//! itself leaves the hook's session (`setsid`), takes its per-home lock (a second daemon
//! started by a racing hook exits at once) and the store-writer lock for each pass. The
//! child's stdio is `/dev/null` (stderr the home's `daemon.err` file): Claude Code waits until
//! every holder of the hook's pipes closes them, so the child must hold none.
//!
//! A stamp file (`<home>/daemon.autostart`) limits attempts to one per [`MIN_INTERVAL`], so a
//! daemon that cannot start (a broken binary, a full disk) costs the next hooks one `stat`
//! each, never a process.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime};

use crate::Home;

/// At most one start attempt per home in this period.
pub const MIN_INTERVAL: Duration = Duration::from_secs(10);

/// What [`start_if_due`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attempt {
    /// `[daemon] autostart = false` (or a config the hook cannot read: off, like `fornax`).
    Disabled,
    /// Another attempt ran less than [`MIN_INTERVAL`] ago.
    TooSoon,
    /// No `fornax` binary next to this one.
    NoBinary,
    /// The daemon process was spawned (its pid).
    Spawned(u32),
    /// Spawning failed.
    Failed(String),
}

/// The `fornax` binary a hook starts the daemon with: this process when it is `fornax`
/// (`fornax hook claude`), else the `fornax` beside it (`fornax-hook`).
pub fn fornax_binary() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    if exe.file_name().is_some_and(|n| n == "fornax") {
        return Some(exe);
    }
    let sibling = exe.with_file_name("fornax");
    use std::os::unix::fs::PermissionsExt;
    let meta = std::fs::metadata(&sibling).ok()?;
    (meta.is_file() && meta.permissions().mode() & 0o111 != 0).then_some(sibling)
}

/// Set to `0`, turns autostart off for one process tree (a test suite that exercises the
/// daemon-down path, a one-off import), whatever the config says.
pub const ENV_OFF: &str = "FORNAX_DAEMON_AUTOSTART";

/// Whether the home's config (and the environment) lets hooks start the daemon.
pub fn enabled(home: &Path) -> bool {
    if std::env::var_os(ENV_OFF).is_some_and(|v| v == "0") {
        return false;
    }
    crate::config::load(home)
        .map(|c| c.daemon.autostart)
        .unwrap_or(false)
}

/// Whether an attempt ran less than [`MIN_INTERVAL`] before `now`. A stamp from the future
/// (a clock set back) does not block forever.
fn recent(stamp: &Path, now: SystemTime) -> bool {
    std::fs::metadata(stamp)
        .and_then(|m| m.modified())
        .is_ok_and(|modified| {
            modified <= now && now.duration_since(modified).unwrap_or_default() < MIN_INTERVAL
        })
}

/// Claims the attempt slot: false when the stamp is younger than [`MIN_INTERVAL`].
fn claim(stamp: &Path, now: SystemTime) -> bool {
    !recent(stamp, now) && std::fs::write(stamp, crate::clock::now_rfc3339()).is_ok()
}

/// Starts the daemon for `home` unless the config forbids it or an attempt is too recent.
/// Never waits for the daemon: the hook's budget is milliseconds.
pub fn start_if_due(home: &Path) -> Attempt {
    let h = Home::new(home);
    // The stamp first: a stat is cheaper than reading the config, and opencode's plugin
    // stream asks on every event while no daemon runs.
    if recent(&h.autostart_stamp(), SystemTime::now()) {
        return Attempt::TooSoon;
    }
    if !enabled(home) {
        return Attempt::Disabled;
    }
    if !claim(&h.autostart_stamp(), SystemTime::now()) {
        return Attempt::TooSoon;
    }
    let Some(fornax) = fornax_binary() else {
        return Attempt::NoBinary;
    };
    let stderr = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(h.daemon_err())
        .map(Stdio::from)
        .unwrap_or_else(|_| Stdio::null());
    let spawned = Command::new(&fornax)
        .arg("--home")
        .arg(home)
        .args(["daemon", "run", "--detached"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn();
    match spawned {
        // The child is not waited for: it outlives the hook and init reaps it.
        Ok(child) => Attempt::Spawned(child.id()),
        Err(e) => Attempt::Failed(format!("{}: {e}", fornax.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attempts_are_rate_limited_and_config_can_refuse() {
        let dir = tempfile::tempdir().unwrap();
        let stamp = dir.path().join("stamp");
        let now = SystemTime::now();
        assert!(claim(&stamp, now), "first attempt");
        assert!(!claim(&stamp, now), "too soon");
        assert!(claim(&stamp, now + MIN_INTERVAL + Duration::from_secs(1)));
        assert!(
            claim(&stamp, now - Duration::from_secs(3600)),
            "a stamp from the future"
        );
        std::fs::write(
            dir.path().join("config.toml"),
            "[daemon]\nautostart = false\n",
        )
        .unwrap();
        assert_eq!(start_if_due(dir.path()), Attempt::Disabled);
        std::fs::write(dir.path().join("config.toml"), "[daemon]\nbogus = 1\n").unwrap();
        assert_eq!(start_if_due(dir.path()), Attempt::Disabled);
    }
}
