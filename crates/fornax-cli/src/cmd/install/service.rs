//! `--service`: a user service that keeps the daemon running, so live capture does not hang
//! on a hook starting it. A systemd user unit on Linux
//! (`$XDG_CONFIG_HOME/systemd/user/fornax.service`), a launchd agent on macOS
//! (`~/Library/LaunchAgents/dev.fornax.daemon.plist`).
//!
//! The file is written (or removed) like every agent file: atomically, idempotently, with a
//! backup of previous bytes; only a file carrying Fornax's marker is ever replaced or removed.
//! Then the service manager is asked to load it (`systemctl --user enable --now`, `launchctl
//! load`); when it is unavailable (no user session bus, a container, `FORNAX_AGENT_HOME` set
//! for a scratch install) nothing fails: the outcome says the command to run.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::error::CliError;

use super::atomic::{self, Mode};
use super::report::{Change, FileChange};
use super::{Action, Places};

/// First line of every service file Fornax writes: how `uninstall` knows it is ours.
const MARKER: &str = "Written by `fornax install --service`";
const UNIT: &str = "fornax.service";
const LABEL: &str = "dev.fornax.daemon";

/// Which service manager this system has.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Manager {
    Systemd,
    Launchd,
}

impl Manager {
    fn here() -> Manager {
        if cfg!(target_os = "macos") {
            Manager::Launchd
        } else {
            Manager::Systemd
        }
    }
}

fn file_path(places: &Places, manager: Manager) -> PathBuf {
    match manager {
        Manager::Systemd => places
            .agent_var("XDG_CONFIG_HOME")
            .unwrap_or_else(|| places.home.join(".config"))
            .join("systemd/user")
            .join(UNIT),
        Manager::Launchd => places
            .home
            .join("Library/LaunchAgents")
            .join(format!("{LABEL}.plist")),
    }
}

/// systemd's quoting of one `ExecStart` word.
fn systemd_word(s: &str) -> String {
    let escaped = s
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('%', "%%")
        .replace('$', "$$");
    format!("\"{escaped}\"")
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The service file's bytes for this binary and home.
fn contents(manager: Manager, exe: &Path, home: &Path) -> String {
    let exe = exe.display().to_string();
    let home = home.display().to_string();
    match manager {
        Manager::Systemd => format!(
            "# {MARKER}; `fornax uninstall <agent> --service` removes it.\n\
             [Unit]\n\
             Description=Fornax live capture daemon\n\
             \n\
             [Service]\n\
             Type=simple\n\
             ExecStart={} --home {} daemon run\n\
             Restart=on-failure\n\
             RestartSec=5\n\
             \n\
             [Install]\n\
             WantedBy=default.target\n",
            systemd_word(&exe),
            systemd_word(&home)
        ),
        Manager::Launchd => format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <!-- {MARKER}; `fornax uninstall <agent> --service` removes it. -->\n\
             <!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n\
             <plist version=\"1.0\">\n<dict>\n\
             \t<key>Label</key><string>{LABEL}</string>\n\
             \t<key>ProgramArguments</key>\n\t<array>\n\
             \t\t<string>{}</string>\n\t\t<string>--home</string>\n\t\t<string>{}</string>\n\
             \t\t<string>daemon</string>\n\t\t<string>run</string>\n\t</array>\n\
             \t<key>RunAtLoad</key><true/>\n\
             \t<key>KeepAlive</key><dict><key>SuccessfulExit</key><false/></dict>\n\
             </dict>\n</plist>\n",
            xml(&exe),
            xml(&home)
        ),
    }
}

fn ours(bytes: &[u8]) -> bool {
    String::from_utf8_lossy(bytes)
        .lines()
        .take(3)
        .any(|l| l.contains(MARKER))
}

/// The commands that load or unload the service, as the user would type them.
fn manager_commands(manager: Manager, action: Action, path: &Path) -> Vec<Vec<String>> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let p = path.display().to_string();
    match (manager, action) {
        (Manager::Systemd, Action::Install) => vec![
            s(&["systemctl", "--user", "daemon-reload"]),
            s(&["systemctl", "--user", "enable", "--now", UNIT]),
        ],
        (Manager::Systemd, Action::Uninstall) => {
            vec![s(&["systemctl", "--user", "disable", "--now", UNIT])]
        }
        (Manager::Launchd, Action::Install) => vec![vec!["launchctl".into(), "load".into(), p]],
        (Manager::Launchd, Action::Uninstall) => {
            vec![vec!["launchctl".into(), "unload".into(), p]]
        }
    }
}

/// Runs the service manager's commands; `Err` says what to run by hand and why.
fn tell_manager(commands: &[Vec<String>], allowed: bool) -> Result<(), String> {
    let typed = commands
        .iter()
        .map(|c| c.join(" "))
        .collect::<Vec<_>>()
        .join(" && ");
    if !allowed {
        return Err(format!(
            "FORNAX_AGENT_HOME is set, so the service manager was not asked; run `{typed}`"
        ));
    }
    for c in commands {
        match Command::new(&c[0]).args(&c[1..]).output() {
            Ok(out) if out.status.success() => {}
            Ok(out) => {
                let why = String::from_utf8_lossy(&out.stderr).trim().to_string();
                return Err(format!(
                    "`{}` failed ({}); run `{typed}` once it can work",
                    c.join(" "),
                    if why.is_empty() {
                        out.status.to_string()
                    } else {
                        why
                    }
                ));
            }
            Err(e) => {
                return Err(format!(
                    "`{}` could not run ({e}); run `{typed}` where a service manager is available",
                    c[0]
                ))
            }
        }
    }
    Ok(())
}

/// Writes or removes the service file, then asks the service manager to follow. Returns the
/// file's change and hints (what to run when the manager could not be asked).
pub(super) fn run(
    places: &Places,
    fornax_home: &Path,
    action: Action,
    mode: Mode,
) -> Result<(FileChange, Vec<String>), CliError> {
    let manager = Manager::here();
    let path = file_path(places, manager);
    let current = atomic::read(&path)?;
    if current.bytes.as_deref().is_some_and(|b| !ours(b)) {
        return Err(CliError::from(anyhow::anyhow!(
            "{} exists and was not written by fornax; left as it is",
            path.display()
        ))
        .with_hint("remove or rename it, then run the command again"));
    }
    let wanted = match action {
        Action::Install => Some(contents(manager, &super::fornax_exe()?, fornax_home)),
        Action::Uninstall => None,
    };
    let change = match (&current.bytes, &wanted) {
        (None, None) => Change::Unchanged,
        (Some(old), Some(new)) if old == new.as_bytes() => Change::Unchanged,
        (None, Some(_)) => Change::Created,
        (Some(_), Some(_)) => Change::Updated,
        (Some(_), None) => Change::Removed,
    };
    let mut hints = Vec::new();
    let mut backup = None;
    if mode == Mode::Write && change != Change::Unchanged {
        let commands = manager_commands(manager, action, &path);
        if action == Action::Uninstall {
            // Stop the service before its file goes, or the manager loses track of it.
            if let Err(why) = tell_manager(&commands, !places.overridden) {
                hints.push(why);
            }
        }
        backup = match &wanted {
            Some(new) => {
                if let Some(dir) = path.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| {
                        anyhow::Error::new(e).context(format!("creating {}", dir.display()))
                    })?;
                }
                atomic::replace(&current, new.as_bytes())?
            }
            None => atomic::remove(&current)?,
        };
        if action == Action::Install {
            if let Err(why) = tell_manager(&commands, !places.overridden) {
                hints.push(why);
            }
        }
    }
    let details = match (action, change) {
        (_, Change::Unchanged) => vec![],
        (Action::Install, _) => vec![format!(
            "a user service runs `fornax daemon run` for {} and restarts it if it fails",
            fornax_home.display()
        )],
        (Action::Uninstall, _) => vec!["the user service is removed".to_string()],
    };
    Ok((
        FileChange::new(&path, change, details, backup.as_deref()),
        hints,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unit_words_are_quoted_and_marked() {
        let unit = contents(
            Manager::Systemd,
            Path::new("/opt/my fornax/fornax"),
            Path::new("/home/u/.local/share/fornax%1"),
        );
        assert!(ours(unit.as_bytes()));
        assert!(unit.contains(
            "ExecStart=\"/opt/my fornax/fornax\" --home \"/home/u/.local/share/fornax%%1\" daemon run"
        ));
        let plist = contents(Manager::Launchd, Path::new("/a&b/fornax"), Path::new("/h"));
        assert!(ours(plist.as_bytes()));
        assert!(plist.contains("<string>/a&amp;b/fornax</string>"));
        assert!(!ours(b"[Unit]\nDescription=someone else's\n"));
    }
}
