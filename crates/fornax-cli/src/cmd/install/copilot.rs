//! GitHub Copilot CLI: command hooks in a repository's `.github/hooks/fornax.json`
//! (Copilot reads its hooks per repository), one per event, running
//! `fornax-hook copilot <event>` (or `fornax hook copilot <event>`): Copilot's payloads do not
//! name their event, so the command line does.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::error::CliError;

use super::atomic::Mode;
use super::hookfile::{self, Spec};
use super::report::Outcome;
use super::Action;

/// Every hook event Copilot CLI documents.
const EVENTS: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "userPromptSubmitted",
    "preToolUse",
    "postToolUse",
    "errorOccurred",
    "notification",
    "agentStop",
    "subagentStop",
    "preCompact",
];

/// Seconds Copilot waits for the hook; the hook itself gives up after 3.
const TIMEOUT_SECS: u64 = 10;

const CAPTURED: &str = "live hook events of this repository's Copilot CLI sessions (session start and end, prompts, every \
tool call before and after with its result, errors, turn ends) are spooled by `fornax-hook copilot <event>`; session \
logs under ~/.copilot/session-state are read by `fornax scan` and followed live by `fornax daemon start`, and give the \
hooked calls the same keys";

fn args(event: &str) -> Vec<&str> {
    vec!["copilot", event]
}

fn extra() -> Map<String, Value> {
    match json!({"type": "command", "timeoutSec": TIMEOUT_SECS}) {
        Value::Object(m) => m,
        _ => Map::new(),
    }
}

const SPEC: Spec = Spec {
    agent: "copilot",
    command_key: "bash",
    events: EVENTS,
    args,
    extra,
    captured: CAPTURED,
};

/// The repository to install into: `--repo`, else the git work tree around `cwd`.
pub(super) fn repository(repo: Option<&Path>, cwd: &Path) -> Result<PathBuf, CliError> {
    if let Some(repo) = repo {
        let repo = cwd.join(repo);
        if !repo.is_dir() {
            return Err(CliError::usage(format!(
                "--repo {}: not a directory",
                repo.display()
            )));
        }
        return Ok(repo);
    }
    cwd.ancestors()
        .find(|d| d.join(".git").exists())
        .map(Path::to_path_buf)
        .ok_or_else(|| {
            CliError::usage(format!(
                "{} is not inside a git repository, and Copilot CLI reads its hooks per repository",
                cwd.display()
            ))
            .with_hint("run it inside the repository, or pass --repo PATH")
        })
}

pub(super) fn run(repo: &Path, action: Action, mode: Mode) -> Result<Outcome, CliError> {
    let path = repo.join(".github").join("hooks").join("fornax.json");
    let hints = if action == Action::Install {
        vec![format!(
            "Copilot CLI loads {} in sessions started inside {}; commit it to share the hooks, or add it to .git/info/exclude to keep them yours",
            path.display(),
            repo.display()
        )]
    } else {
        Vec::new()
    };
    hookfile::run(&SPEC, &path, action, mode, hints)
}
