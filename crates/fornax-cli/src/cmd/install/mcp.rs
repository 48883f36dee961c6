//! `fornax install claude --mcp`: registers `fornax mcp` where Claude Code reads MCP servers —
//! `mcpServers` of `~/.claude.json` for the user (`$CLAUDE_CONFIG_DIR/.claude.json` when that is
//! set), or of `.mcp.json` in the current directory with `--project`. `fornax uninstall claude`
//! removes the entry again.
//!
//! The entry is ours when it is named `fornax` and runs a `fornax` binary with the single
//! argument `mcp`; an entry of that name that runs anything else is someone else's and makes
//! the install refuse, leaving the file as it was. The same invariants as every install hold
//! (idempotent, atomic replacement, previous bytes in `<file>.fornax-backup`).

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use super::atomic::{self, Mode};
use super::claude::{kind, Document};
use super::report::{Change, FileChange, Outcome};
use super::{fornax_exe, Action, Places};
use crate::error::CliError;

/// The name of Fornax's entry under `mcpServers`.
pub(super) const SERVER_NAME: &str = "fornax";

/// The user's Claude Code file that lists user-scoped MCP servers.
pub(super) fn user_config(places: &Places) -> PathBuf {
    match places.agent_var("CLAUDE_CONFIG_DIR") {
        Some(dir) => dir.join(".claude.json"),
        None => places.home.join(".claude.json"),
    }
}

/// The project's shared MCP server list.
pub(super) fn project_config(places: &Places) -> PathBuf {
    places.cwd.join(".mcp.json")
}

/// The entry this binary writes.
fn entry(exe: &Path) -> Value {
    let mut server =
        json!({"type": "stdio", "command": exe.display().to_string(), "args": ["mcp"]});
    // The server must read the index this very configuration writes.
    if let Some(home) = std::env::var_os("FORNAX_HOME").filter(|h| !h.is_empty()) {
        server["env"] = json!({"FORNAX_HOME": PathBuf::from(home).display().to_string()});
    }
    server
}

fn is_ours(value: &Value) -> bool {
    let command = value.get("command").and_then(Value::as_str).unwrap_or("");
    let name = Path::new(command)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("");
    name == "fornax" && value.get("args") == Some(&json!(["mcp"]))
}

/// Adds or removes the entry in `path`; `None` when an uninstall found nothing to remove in a
/// file the user never asked about (so the report does not mention it).
pub(super) fn run(
    path: &Path,
    action: Action,
    mode: Mode,
    asked: bool,
) -> Result<Option<FileChange>, CliError> {
    let current = atomic::read(path)?;
    let shown = current.path.clone();
    let doc = Document::parse(current.bytes.as_deref()).map_err(|why| refusal(&shown, &why))?;
    let mut root = doc.root.clone();
    let detail = match action {
        Action::Install => install(&mut root, &entry(&fornax_exe()?)),
        Action::Uninstall => Ok(uninstall(&mut root)),
    }
    .map_err(|why| refusal(&shown, &why))?;
    let project_file = shown.file_name().and_then(|n| n.to_str()) == Some(".mcp.json");
    let change = if root == doc.root {
        Change::Unchanged
    } else if current.bytes.is_none() {
        Change::Created
    } else if root.is_empty() && project_file {
        Change::Removed
    } else {
        Change::Updated
    };
    if change == Change::Unchanged && !asked {
        return Ok(None);
    }
    let mut backup = None;
    if mode == Mode::Write {
        backup = match change {
            Change::Unchanged => None,
            // A project file that held nothing but our entry goes with it.
            Change::Removed => atomic::remove(&current)?,
            _ => atomic::replace(&current, &doc.render(&root))?,
        };
    }
    let details = if change == Change::Unchanged {
        Vec::new()
    } else {
        vec![detail]
    };
    Ok(Some(FileChange::new(
        &shown,
        change,
        details,
        backup.as_deref(),
    )))
}

fn refusal(path: &Path, why: &str) -> CliError {
    CliError::from(anyhow::anyhow!(
        "{}: {why}; the file was left unchanged",
        path.display()
    ))
    .with_hint(
        "fix the file by hand (Claude Code would not read it either), or install without --mcp",
    )
}

fn install(root: &mut Map<String, Value>, ours: &Value) -> Result<String, String> {
    let servers = match root
        .entry("mcpServers")
        .or_insert_with(|| Value::Object(Map::new()))
    {
        Value::Object(m) => m,
        other => return Err(format!("\"mcpServers\" is {}, not an object", kind(other))),
    };
    match servers.get(SERVER_NAME) {
        Some(existing) if existing == ours => Ok(String::new()),
        Some(existing) if !is_ours(existing) => Err(format!(
            "an MCP server named \"{SERVER_NAME}\" is already registered and runs {}",
            existing
                .get("command")
                .and_then(Value::as_str)
                .unwrap_or("something else")
        )),
        _ => {
            servers.insert(SERVER_NAME.to_string(), ours.clone());
            Ok(format!(
                "mcpServers.{SERVER_NAME}: {} mcp",
                ours["command"].as_str().unwrap_or_default()
            ))
        }
    }
}

fn uninstall(root: &mut Map<String, Value>) -> String {
    let Some(Value::Object(servers)) = root.get_mut("mcpServers") else {
        return String::new();
    };
    if !servers.get(SERVER_NAME).is_some_and(is_ours) {
        return String::new();
    }
    servers.remove(SERVER_NAME);
    if servers.is_empty() {
        root.remove("mcpServers");
    }
    format!("mcpServers.{SERVER_NAME} removed")
}

/// `outcome` with the MCP file's change added (its summary follows from all the files).
pub(super) fn with_file(outcome: Outcome, action: Action, file: Option<FileChange>) -> Outcome {
    let Some(file) = file else {
        return outcome;
    };
    let mut files = outcome.files;
    let mut hints = outcome.hints;
    if action == Action::Install && file.change != Change::Unchanged {
        hints.push(
            "Claude Code starts `fornax mcp` in new sessions; `fornax mcp test` shows what it will answer"
                .to_string(),
        );
    }
    files.push(file);
    Outcome::new(
        outcome.agent,
        action,
        outcome.dry_run,
        files,
        outcome.captured,
        hints,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ours() -> Value {
        json!({"type": "stdio", "command": "/opt/bin/fornax", "args": ["mcp"]})
    }

    #[test]
    fn install_then_uninstall_restores_the_file_and_keeps_foreign_servers() {
        let before = json!({"numStartups": 4, "mcpServers": {"other": {"command": "x"}}});
        let mut root = before.as_object().unwrap().clone();
        assert!(!install(&mut root, &ours()).unwrap().is_empty());
        assert_eq!(root["mcpServers"]["fornax"], ours());
        assert_eq!(install(&mut root, &ours()).unwrap(), "", "idempotent");
        assert!(!uninstall(&mut root).is_empty());
        assert_eq!(Value::Object(root), before);
    }

    #[test]
    fn a_foreign_server_of_our_name_is_refused_and_never_removed() {
        let mut root =
            json!({"mcpServers": {"fornax": {"command": "/usr/bin/other", "args": ["mcp"]}}})
                .as_object()
                .unwrap()
                .clone();
        let kept = root.clone();
        assert!(install(&mut root, &ours())
            .unwrap_err()
            .contains("/usr/bin/other"));
        assert_eq!(uninstall(&mut root), "");
        assert_eq!(root, kept);
        let mut odd = json!({"mcpServers": []}).as_object().unwrap().clone();
        assert!(install(&mut odd, &ours()).unwrap_err().contains("a list"));
    }

    #[test]
    fn an_older_path_of_ours_is_updated() {
        let mut root =
            json!({"mcpServers": {"fornax": {"command": "/old/fornax", "args": ["mcp"]}}})
                .as_object()
                .unwrap()
                .clone();
        assert!(install(&mut root, &ours())
            .unwrap()
            .contains("/opt/bin/fornax"));
        assert_eq!(root["mcpServers"]["fornax"], ours());
    }
}
