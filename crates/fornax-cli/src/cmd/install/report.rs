//! What an install or uninstall did, for people and for `--json`.

use std::path::Path;

use serde::Serialize;

use crate::home::Context;
use crate::output;

use super::Action;

/// The result of one `install` or `uninstall`.
#[derive(Debug, Serialize)]
pub struct Outcome {
    pub agent: &'static str,
    pub action: &'static str,
    /// Whether a file changed (with `--dry-run`: would change).
    pub changed: bool,
    pub dry_run: bool,
    /// One line: what happened as a whole.
    pub summary: String,
    pub files: Vec<FileChange>,
    /// What Fornax captures from this agent, and how.
    pub captured: String,
    pub hints: Vec<String>,
}

#[derive(Debug, Serialize)]
pub struct FileChange {
    pub path: String,
    pub change: Change,
    /// What changed inside the file, one line each.
    pub details: Vec<String>,
    /// Where the previous bytes were kept.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backup: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    Created,
    Updated,
    Removed,
    Unchanged,
}

impl FileChange {
    pub fn new(path: &Path, change: Change, details: Vec<String>, backup: Option<&Path>) -> Self {
        FileChange {
            path: path.display().to_string(),
            change,
            details,
            backup: backup.map(|b| b.display().to_string()),
        }
    }
}

impl Outcome {
    /// An outcome whose summary follows from its files.
    pub fn new(
        agent: &'static str,
        action: Action,
        dry_run: bool,
        files: Vec<FileChange>,
        captured: String,
        hints: Vec<String>,
    ) -> Outcome {
        let changed = files.iter().any(|f| f.change != Change::Unchanged);
        let summary = match (action, changed, dry_run) {
            (Action::Install, true, false) => "installed",
            (Action::Install, true, true) => "would install (dry run, nothing written)",
            (Action::Install, false, _) => "already installed; nothing to change",
            (Action::Uninstall, true, false) => "uninstalled",
            (Action::Uninstall, true, true) => "would uninstall (dry run, nothing written)",
            (Action::Uninstall, false, _) => "not installed; nothing to remove",
        };
        Outcome {
            agent,
            action: action.verb(),
            changed,
            dry_run,
            summary: summary.to_string(),
            files,
            captured,
            hints,
        }
    }

    /// An outcome that writes nothing by design (the agent is read from its own files).
    pub fn nothing_to_write(
        agent: &'static str,
        action: Action,
        summary: String,
        captured: String,
        hints: Vec<String>,
    ) -> Outcome {
        Outcome {
            agent,
            action: action.verb(),
            changed: false,
            dry_run: false,
            summary,
            files: Vec::new(),
            captured,
            hints,
        }
    }
}

pub fn print(ctx: &Context, outcome: &Outcome) {
    if ctx.json {
        output::json(outcome);
        return;
    }
    output::line(&format!("{}: {}", outcome.agent, outcome.summary));
    for f in &outcome.files {
        let verb = match (f.change, outcome.dry_run) {
            (Change::Created, false) => "created",
            (Change::Created, true) => "would create",
            (Change::Updated, false) => "updated",
            (Change::Updated, true) => "would update",
            (Change::Removed, false) => "removed",
            (Change::Removed, true) => "would remove",
            (Change::Unchanged, _) => "unchanged",
        };
        output::line(&format!("  {verb} {}", f.path));
        for d in &f.details {
            output::line(&format!("    {d}"));
        }
        if let Some(b) = &f.backup {
            output::line(&format!("    previous bytes kept in {b}"));
        }
    }
    output::line(&format!("captured: {}", outcome.captured));
    for h in &outcome.hints {
        output::line(&format!("hint: {h}"));
    }
}
