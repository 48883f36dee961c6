//! The files an `apply_patch` call touches, read from the patch text or from the change map
//! of `patch_apply_end` / `FileChange` items.
//!
//! Patch grammar (Codex's own): `*** Begin Patch`, then per file `*** Add File: p`,
//! `*** Update File: p` (optionally `*** Move to: q`) or `*** Delete File: p`, hunks of
//! `+`/`-`/` ` lines, and `*** End Patch`.

use fornax_types::evidence::FileOperation;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::text::str_of;

/// One file a patch creates, changes, moves or removes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FileChange {
    pub path: String,
    pub operation: FileOperation,
    /// Destination of a move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub move_to: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines_added: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines_removed: Option<u64>,
}

/// Parses patch text. Unknown lines are skipped; nothing here fails.
pub(crate) fn parse_patch(text: &str) -> Vec<FileChange> {
    let mut out: Vec<FileChange> = Vec::new();
    let mut open = false;
    for raw in text.lines() {
        let line = raw.trim_end_matches('\r');
        let header = |prefix: &str| {
            line.strip_prefix(prefix)
                .map(str::trim)
                .filter(|p| !p.is_empty())
        };
        if let Some(path) = header("*** Add File:") {
            out.push(change(path, FileOperation::Create, Some(0), Some(0)));
            open = true;
        } else if let Some(path) = header("*** Update File:") {
            out.push(change(path, FileOperation::Update, Some(0), Some(0)));
            open = true;
        } else if let Some(path) = header("*** Delete File:") {
            out.push(change(path, FileOperation::Delete, None, None));
            open = false;
        } else if let Some(dest) = header("*** Move to:") {
            if let Some(last) = out.last_mut().filter(|_| open) {
                last.operation = FileOperation::Rename;
                last.move_to = Some(dest.to_string());
            }
        } else if line.starts_with("*** End Patch") {
            open = false;
        } else if open && !line.starts_with("*** ") {
            if let Some(last) = out.last_mut() {
                count_line(last, line);
            }
        }
    }
    out
}

fn change(
    path: &str,
    operation: FileOperation,
    added: Option<u64>,
    removed: Option<u64>,
) -> FileChange {
    FileChange {
        path: path.to_string(),
        operation,
        move_to: None,
        lines_added: added,
        lines_removed: removed,
    }
}

fn count_line(change: &mut FileChange, line: &str) {
    if line.starts_with('+') {
        change.lines_added = Some(change.lines_added.unwrap_or(0) + 1);
    } else if line.starts_with('-') {
        change.lines_removed = Some(change.lines_removed.unwrap_or(0) + 1);
    }
}

/// The patch inside a shell command that invokes Codex's `apply_patch` (which Codex
/// intercepts and applies itself): `apply_patch <<'EOF' ... EOF` or argv
/// `["apply_patch", "<patch>"]`.
pub(crate) fn patch_in_command(command: &str) -> Option<&str> {
    let trimmed = command.trim_start();
    let invokes = ["apply_patch", "applypatch", "'apply_patch'"]
        .iter()
        .any(|p| {
            trimmed
                .strip_prefix(p)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with(char::is_whitespace))
        });
    if !invokes {
        return None;
    }
    let start = trimmed.find("*** Begin Patch")?;
    let body = &trimmed[start..];
    let end = body
        .find("*** End Patch")
        .map(|i| i + "*** End Patch".len())
        .unwrap_or(body.len());
    Some(&body[..end])
}

/// The change map of `patch_apply_end.changes` / `FileChange.changes`:
/// `{path: {"type"|"kind": add|update|delete, "unified_diff"?, "move_path"?}}`.
pub(crate) fn changes_from_map(map: &Value) -> Vec<FileChange> {
    let Some(obj) = map.as_object() else {
        return Vec::new();
    };
    obj.iter()
        .filter(|(path, _)| !path.trim().is_empty())
        .map(|(path, spec)| {
            let kind = str_of(spec, "type")
                .or_else(|| str_of(spec, "kind"))
                .or_else(|| spec.get("kind").and_then(|k| str_of(k, "type")))
                .unwrap_or("update");
            let move_to = str_of(spec, "move_path")
                .filter(|m| !m.is_empty())
                .map(str::to_string);
            let operation = match kind {
                "add" | "create" => FileOperation::Create,
                "delete" | "remove" => FileOperation::Delete,
                _ if move_to.is_some() => FileOperation::Rename,
                _ => FileOperation::Update,
            };
            let (added, removed) = match (operation, str_of(spec, "unified_diff")) {
                (FileOperation::Delete, _) => (None, None),
                (_, Some(diff)) => diff_counts(diff),
                (FileOperation::Create, None) => {
                    let lines = str_of(spec, "content").map(|c| c.lines().count() as u64);
                    (lines, lines.map(|_| 0))
                }
                _ => (None, None),
            };
            FileChange {
                path: path.clone(),
                operation,
                move_to,
                lines_added: added,
                lines_removed: removed,
            }
        })
        .collect()
}

fn diff_counts(diff: &str) -> (Option<u64>, Option<u64>) {
    let (mut added, mut removed) = (0u64, 0u64);
    for line in diff.lines() {
        if line.starts_with("+++") || line.starts_with("---") {
            continue;
        }
        if line.starts_with('+') {
            added += 1;
        } else if line.starts_with('-') {
            removed += 1;
        }
    }
    (Some(added), Some(removed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn parses_every_header() {
        let patch = "*** Begin Patch\r\n*** Add File: a/new.py\r\n+print(1)\r\n+print(2)\r\n*** Update File: b.rs\n@@\n-old\n+new\n context\n*** Update File: c.rs\n*** Move to: d.rs\n@@\n-x\n+y\n*** End of File\n*** Delete File: e.txt\n*** End Patch";
        let changes = parse_patch(patch);
        assert_eq!(changes.len(), 4);
        assert_eq!(changes[0].path, "a/new.py");
        assert_eq!(changes[0].operation, FileOperation::Create);
        assert_eq!(changes[0].lines_added, Some(2));
        assert_eq!(changes[1].lines_added, Some(1));
        assert_eq!(changes[1].lines_removed, Some(1));
        assert_eq!(changes[2].operation, FileOperation::Rename);
        assert_eq!(changes[2].move_to.as_deref(), Some("d.rs"));
        assert_eq!(changes[3].operation, FileOperation::Delete);
        assert_eq!(changes[3].lines_added, None);
    }

    #[test]
    fn finds_patches_inside_shell_commands() {
        let cmd = "apply_patch << 'PATCH'\n*** Begin Patch\n*** Update File: x\n@@\n-a\n+b\n*** End Patch\nPATCH";
        assert!(patch_in_command(cmd).unwrap().ends_with("*** End Patch"));
        assert!(
            patch_in_command("applypatch <<EOF\n*** Begin Patch\n*** Add File: y\n+1\nEOF")
                .is_some()
        );
        assert!(patch_in_command("echo apply_patch").is_none());
        assert!(patch_in_command("apply_patch_helper *** Begin Patch").is_none());
        assert!(patch_in_command("apply_patch --help").is_none());
    }

    #[test]
    fn change_maps() {
        let changes = changes_from_map(&json!({
            "/w/a.txt": {"type": "update", "unified_diff": "--- a\n+++ b\n@@\n-x\n+y\n+z\n", "move_path": null},
            "/w/b.txt": {"type": "add", "content": "1\n2\n"},
            "/w/c.txt": {"type": "delete"},
            "/w/d.txt": {"type": "update", "move_path": "/w/e.txt"}
        }));
        assert_eq!(changes.len(), 4);
        assert_eq!(
            (changes[0].lines_added, changes[0].lines_removed),
            (Some(2), Some(1))
        );
        assert_eq!(changes[1].operation, FileOperation::Create);
        assert_eq!(changes[1].lines_added, Some(2));
        assert_eq!(changes[2].operation, FileOperation::Delete);
        assert_eq!(changes[3].operation, FileOperation::Rename);
        assert!(changes_from_map(&json!("nope")).is_empty());
    }
}
