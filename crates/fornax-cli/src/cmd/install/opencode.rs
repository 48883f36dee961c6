//! opencode: the capture plugin `fornax.js` in opencode's plugin folder.
//!
//! opencode loads every `.js` file in `<config>/plugin/` (newer versions also `plugins/`), where
//! `<config>` is `~/.config/opencode` for the user and `.opencode` for a project. A `fornax.js`
//! is Fornax's when it opens with the plugin's first line ([`MARKER`]), which every version of
//! the plugin shares; any other `fornax.js` is the user's and is never overwritten or removed.

use std::path::{Path, PathBuf};

use fornax_adapter_opencode::PLUGIN_SOURCE;

use crate::error::CliError;

use super::atomic::{self, Current, Mode};
use super::report::{Change, FileChange, Outcome};
use super::{fornax_exe, Action, Places};

const FILE_NAME: &str = "fornax.js";
/// The first line of every version of the plugin.
const MARKER: &str = "// Fornax capture plugin for opencode.";

const CAPTURED: &str = "live plugin events (session, message and part updates, including tool \
states with their output and bash exit codes; chat messages; every tool call before and after \
with its arguments, output and metadata) are streamed to `fornax hook opencode` and spooled; \
opencode's own storage (~/.local/share/opencode/storage) is read by `fornax scan` and followed \
live by `fornax daemon start`";

fn is_ours(bytes: &[u8]) -> bool {
    bytes.starts_with(MARKER.as_bytes())
}

/// opencode's configuration folder for the user or the project.
fn config_dir(places: &Places, project: bool) -> PathBuf {
    if project {
        return places.cwd.join(".opencode");
    }
    places
        .agent_var("XDG_CONFIG_HOME")
        .unwrap_or_else(|| places.home.join(".config"))
        .join("opencode")
}

pub(super) fn run(
    places: &Places,
    project: bool,
    action: Action,
    mode: Mode,
) -> Result<Outcome, CliError> {
    let base = config_dir(places, project);
    let singular = base.join("plugin");
    let plural = base.join("plugins");
    // Both folders are loaded; a new install goes to the one that exists, `plugin/` otherwise.
    let preferred = if plural.is_dir() && !singular.is_dir() {
        &plural
    } else {
        &singular
    };
    let mut found = Vec::new();
    for dir in [&singular, &plural] {
        found.push(atomic::read(&dir.join(FILE_NAME))?);
    }
    let mut files = Vec::new();
    let mut hints = Vec::new();
    match action {
        Action::Install => {
            let target = found
                .iter()
                .position(|c| c.bytes.as_deref().is_some_and(is_ours))
                .unwrap_or(if preferred == &singular { 0 } else { 1 });
            for (i, current) in found.iter().enumerate() {
                if i == target {
                    files.push(install_at(current, mode)?);
                } else if current.bytes.as_deref().is_some_and(is_ours) {
                    // A second copy would load the plugin twice and record every event twice.
                    files.push(remove_at(
                        current,
                        mode,
                        "second copy of the Fornax plugin",
                    )?);
                }
            }
            hints.extend(binary_hint()?);
        }
        Action::Uninstall => {
            for current in &found {
                match current.bytes.as_deref() {
                    Some(b) if is_ours(b) => {
                        files.push(remove_at(current, mode, "the Fornax plugin")?)
                    }
                    Some(_) => hints.push(format!(
                        "{} was not written by Fornax and was left in place",
                        current.path.display()
                    )),
                    None => {}
                }
            }
        }
    }
    Ok(Outcome::new(
        "opencode",
        action,
        mode == Mode::DryRun,
        files,
        CAPTURED.to_string(),
        hints,
    ))
}

fn install_at(current: &Current, mode: Mode) -> Result<FileChange, CliError> {
    let (change, detail) = match current.bytes.as_deref() {
        None => (Change::Created, "the Fornax capture plugin"),
        Some(b) if b == PLUGIN_SOURCE.as_bytes() => (Change::Unchanged, ""),
        Some(b) if is_ours(b) => (Change::Updated, "the Fornax capture plugin, newer version"),
        Some(_) => {
            return Err(CliError::from(anyhow::anyhow!(
                "{} exists and was not written by Fornax; it was left unchanged",
                current.path.display()
            ))
            .with_hint("rename or remove that file, then run `fornax install opencode` again"))
        }
    };
    let mut backup = None;
    if change != Change::Unchanged && mode == Mode::Write {
        backup = atomic::replace(current, PLUGIN_SOURCE.as_bytes())?;
    }
    let details = if detail.is_empty() {
        Vec::new()
    } else {
        vec![detail.to_string()]
    };
    Ok(FileChange::new(
        &current.path,
        change,
        details,
        backup.as_deref(),
    ))
}

fn remove_at(current: &Current, mode: Mode, what: &str) -> Result<FileChange, CliError> {
    let backup = match mode {
        Mode::Write => atomic::remove(current)?,
        Mode::DryRun => None,
    };
    Ok(FileChange::new(
        &current.path,
        Change::Removed,
        vec![what.to_string()],
        backup.as_deref(),
    ))
}

/// The plugin starts `$FORNAX_BIN`, else `fornax` from PATH: say so when that is not this
/// binary.
fn binary_hint() -> Result<Option<String>, CliError> {
    let exe = fornax_exe()?;
    let same = |p: &Path| std::fs::canonicalize(p).is_ok_and(|c| c == exe);
    if let Some(configured) = std::env::var_os("FORNAX_BIN").filter(|v| !v.is_empty()) {
        let configured = PathBuf::from(configured);
        if same(&configured) {
            return Ok(None);
        }
        return Ok(Some(format!(
            "FORNAX_BIN is {}, so the plugin will start that binary rather than {}",
            configured.display(),
            exe.display()
        )));
    }
    let on_path = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("fornax"))
            .find(|p| p.is_file())
    });
    match on_path {
        Some(p) if same(&p) => Ok(None),
        Some(p) => Ok(Some(format!(
            "the plugin starts `fornax` from PATH, which is {}, not this binary; start opencode \
             with FORNAX_BIN={} to use this one",
            p.display(),
            exe.display()
        ))),
        None => Ok(Some(format!(
            "`fornax` is not on PATH, so the plugin cannot start it; start opencode with \
             FORNAX_BIN={} (or put {} on PATH)",
            exe.display(),
            exe.parent().unwrap_or(Path::new("/")).display()
        ))),
    }
}
