//! File edits as diffs: an agent's edit call (old text → new text), a whole-file write, or a
//! patch it applied, shown as added and removed lines.

use maud::{html, Markup};
use serde_json::Value;
use similar::{ChangeTag, TextDiff};

/// Lines of a diff shown before the rest is summarized.
const MOST_LINES: usize = 400;

/// One edit of one file, as the call described it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Edit {
    pub path: Option<String>,
    pub change: Change,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Change {
    /// Replace `old` with `new`.
    Replace { old: String, new: String },
    /// The whole file written.
    Write { content: String },
    /// A patch in the agent's own format (unified diff or `*** Begin Patch`).
    Patch { text: String },
}

fn string(args: &Value, keys: &[&str]) -> Option<String> {
    keys.iter()
        .find_map(|k| args.get(*k).and_then(Value::as_str))
        .map(str::to_string)
}

const PATH: &[&str] = &[
    "file_path",
    "filePath",
    "path",
    "file",
    "filename",
    "absolute_path",
];
const OLD: &[&str] = &[
    "old_string",
    "oldString",
    "old_str",
    "oldText",
    "old_text",
    "old",
];
const NEW: &[&str] = &[
    "new_string",
    "newString",
    "new_str",
    "newText",
    "new_text",
    "new",
];
const CONTENT: &[&str] = &["content", "contents", "file_text", "text"];

/// The edits a tool call makes, if it is an edit, a write or a patch.
pub fn edits(tool: &str, args: &Value) -> Vec<Edit> {
    let name = tool.to_ascii_lowercase();
    let path = string(args, PATH);
    if let Some(list) = args.get("edits").and_then(Value::as_array) {
        return list
            .iter()
            .filter_map(|e| {
                Some(Edit {
                    path: path.clone(),
                    change: Change::Replace {
                        old: string(e, OLD)?,
                        new: string(e, NEW)?,
                    },
                })
            })
            .collect();
    }
    if let (Some(old), Some(new)) = (string(args, OLD), string(args, NEW)) {
        return vec![Edit {
            path,
            change: Change::Replace { old, new },
        }];
    }
    if name.contains("patch") {
        let text = string(args, &["patch", "input", "diff", "patchText"])
            .or_else(|| args.as_str().map(str::to_string));
        return text
            .map(|text| {
                vec![Edit {
                    path,
                    change: Change::Patch { text },
                }]
            })
            .unwrap_or_default();
    }
    if name.contains("write") || name == "create" || name.contains("create_file") {
        if let Some(content) = string(args, CONTENT) {
            return vec![Edit {
                path,
                change: Change::Write { content },
            }];
        }
    }
    Vec::new()
}

/// The patch inside a shell command that applies one (`apply_patch <<'EOF' … EOF`).
pub fn shell_patch(command: &str) -> Option<Edit> {
    let start = command.find("*** Begin Patch")?;
    let end = command[start..]
        .find("*** End Patch")
        .map_or(command.len(), |e| start + e + "*** End Patch".len());
    Some(Edit {
        path: None,
        change: Change::Patch {
            text: command[start..end].to_string(),
        },
    })
}

/// Lines of a diff: `(kind, text)` with kind `+`, `-`, ` ` or `@` (a hunk or file header).
pub fn lines(change: &Change) -> Vec<(char, String)> {
    match change {
        Change::Replace { old, new } => {
            let diff = TextDiff::from_lines(old.as_str(), new.as_str());
            let mut out = Vec::new();
            for (i, group) in diff.grouped_ops(3).iter().enumerate() {
                if i > 0 {
                    out.push(('@', "…".to_string()));
                }
                for op in group {
                    for change in diff.iter_changes(op) {
                        let kind = match change.tag() {
                            ChangeTag::Delete => '-',
                            ChangeTag::Insert => '+',
                            ChangeTag::Equal => ' ',
                        };
                        out.push((kind, change.value().trim_end_matches('\n').to_string()));
                    }
                }
            }
            out
        }
        Change::Write { content } => content.lines().map(|l| ('+', l.to_string())).collect(),
        Change::Patch { text } => text
            .lines()
            .map(|l| {
                let kind = if l.starts_with("***")
                    || l.starts_with("@@")
                    || l.starts_with("+++")
                    || l.starts_with("---")
                {
                    '@'
                } else if let Some(rest) = l.strip_prefix('+') {
                    return ('+', rest.to_string());
                } else if let Some(rest) = l.strip_prefix('-') {
                    return ('-', rest.to_string());
                } else {
                    ' '
                };
                (kind, l.strip_prefix(' ').unwrap_or(l).to_string())
            })
            .collect(),
    }
}

pub fn render(edit: &Edit) -> Markup {
    let lines = lines(&edit.change);
    let added = lines.iter().filter(|(k, _)| *k == '+').count();
    let removed = lines.iter().filter(|(k, _)| *k == '-').count();
    let hidden = lines.len().saturating_sub(MOST_LINES);
    html! {
        div.diff {
            div.diff-head {
                @if let Some(p) = &edit.path { code { (p) } " " }
                span.added { "+" (added) } " " span.removed { "−" (removed) }
            }
            pre {
                @for (kind, text) in lines.iter().take(MOST_LINES) {
                    @let class = match kind { '+' => "add", '-' => "del", '@' => "hunk", _ => "ctx" };
                    span class=(class) { (match kind { '+' => "+", '-' => "-", '@' => "", _ => " " }) (text) "\n" }
                }
            }
            @if hidden > 0 { p.more { (hidden) " more lines" } }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn an_edit_call_is_a_replace_diff() {
        let args = json!({"file_path": "src/a.rs", "old_string": "let x = 1;\nkeep\n", "new_string": "let x = 2;\nkeep\n"});
        let e = edits("Edit", &args);
        assert_eq!(e.len(), 1);
        assert_eq!(e[0].path.as_deref(), Some("src/a.rs"));
        assert_eq!(
            lines(&e[0].change),
            vec![
                ('-', "let x = 1;".to_string()),
                ('+', "let x = 2;".to_string()),
                (' ', "keep".to_string())
            ]
        );
    }

    #[test]
    fn multi_edits_writes_and_patches() {
        let multi = json!({"file_path": "a", "edits": [{"old_string": "a", "new_string": "b"}, {"old_string": "c", "new_string": "d"}]});
        assert_eq!(edits("MultiEdit", &multi).len(), 2);
        let write = json!({"filePath": "b.txt", "content": "one\ntwo"});
        let e = edits("write", &write);
        assert_eq!(
            lines(&e[0].change),
            vec![('+', "one".into()), ('+', "two".into())]
        );
        let patch = "*** Begin Patch\n*** Update File: x.go\n@@\n-old\n+new\n ctx\n*** End Patch";
        let e = edits("apply_patch", &json!({"input": patch}));
        let l = lines(&e[0].change);
        assert!(l.contains(&('-', "old".into())) && l.contains(&('+', "new".into())));
        assert!(edits("Bash", &json!({"command": "ls"})).is_empty());
        let shell = format!("apply_patch <<'EOF'\n{patch}\nEOF");
        assert!(matches!(
            shell_patch(&shell).unwrap().change,
            Change::Patch { .. }
        ));
    }

    #[test]
    fn rendered_diffs_escape_their_text() {
        let e = Edit {
            path: Some("<x>".into()),
            change: Change::Write {
                content: "<script>".into(),
            },
        };
        let html = render(&e).into_string();
        assert!(html.contains("&lt;script&gt;") && !html.contains("<script>"));
    }
}
