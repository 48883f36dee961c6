//! Which files a tool call or a shell command writes: edit tools (Write, Edit, MultiEdit,
//! apply_patch, patch, write/edit of other runtimes), patches (`*** Begin Patch` and unified
//! diffs), and shell writes (redirections, `tee`, `sed -i`, `mv`, `cp`, `rm`, `touch`,
//! `git restore`).
//!
//! Formatters (`cargo fmt`, `prettier --write`, `ruff format`) also rewrite files, but they do
//! not change behaviour; they are deliberately not counted, so that formatting after a test run
//! does not make the run look stale.

use std::sync::LazyLock;

use fornax_types::evidence::FileOperation;
use fornax_types::Invocation;
use regex::Regex;
use serde_json::Value;

use crate::commands::base_name;
use crate::paths::is_scratch;

/// One file a call writes (or attempts to).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileTarget {
    /// The path as the call names it; empty when the call writes files it does not name
    /// (`git apply`, `patch -p1`).
    pub path: String,
    pub operation: FileOperation,
    /// The mechanism (`Write`, `Edit`, `apply_patch`, `shell_redirect`, `sed -i`, ...).
    pub tool: String,
}

fn target(path: &str, operation: FileOperation, tool: &str) -> FileTarget {
    FileTarget {
        path: path.trim().to_string(),
        operation,
        tool: tool.to_string(),
    }
}

/// The normalised name of an edit tool, if `name` is one: `write`, `edit` or `patch`.
pub fn edit_tool_kind(name: &str) -> Option<&'static str> {
    // MCP tools: `mcp__filesystem__write_file`.
    let n = name
        .rsplit("__")
        .next()
        .unwrap_or(name)
        .to_ascii_lowercase();
    match n.as_str() {
        "write" | "write_file" | "writefile" | "create_file" | "createfile" | "create"
        | "save_file" => Some("write"),
        "edit"
        | "multiedit"
        | "multi_edit"
        | "notebookedit"
        | "notebook_edit"
        | "edit_file"
        | "editfile"
        | "replace"
        | "str_replace"
        // Cursor's agent.
        | "strreplace"
        | "search_replace"
        | "insert"
        | "str_replace_editor"
        | "str_replace_based_edit_tool"
        | "edit_notebook" => Some("edit"),
        "apply_patch" | "applypatch" | "patch" | "apply_diff" => Some("patch"),
        _ => None,
    }
}

pub(crate) const PATH_KEYS: &[&str] = &[
    "file_path",
    "filePath",
    "path",
    "notebook_path",
    "notebookPath",
    "absolute_path",
    "file",
    "filename",
    "target_file",
    "targetFile",
    "filepath",
];

/// The files an edit tool call writes, from its arguments. `None` when `name` is not an edit
/// tool (or is an editor call that only reads, such as `str_replace_editor` with `view`).
pub fn tool_call_targets(name: &str, arguments: &Value) -> Option<Vec<FileTarget>> {
    let kind = edit_tool_kind(name)?;
    if let Some(cmd) = arguments.get("command").and_then(Value::as_str) {
        if matches!(cmd, "view" | "read") {
            return None;
        }
    }
    if kind == "patch" {
        let mut out = Vec::new();
        for text in strings_in(arguments) {
            out.extend(patch_targets(text, name));
        }
        if out.is_empty() {
            if let Some(p) = path_argument(arguments) {
                out.push(target(&p, FileOperation::Update, name));
            }
        }
        return Some(out);
    }
    let path = path_argument(arguments)?;
    let operation = if kind == "write" {
        FileOperation::Create
    } else {
        FileOperation::Update
    };
    Some(vec![target(&path, operation, name)])
}

fn path_argument(arguments: &Value) -> Option<String> {
    PATH_KEYS
        .iter()
        .find_map(|k| arguments.get(*k).and_then(Value::as_str))
        .filter(|p| !p.trim().is_empty())
        .map(str::to_string)
}

fn strings_in(value: &Value) -> Vec<&str> {
    let mut out = Vec::new();
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) => out.push(s.as_str()),
            Value::Array(a) => stack.extend(a.iter()),
            Value::Object(o) => stack.extend(o.values()),
            _ => {}
        }
    }
    out
}

static PATCH_HEADER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\*\*\* (Add|Update|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$")
        .expect("valid regex")
});
static DIFF_PLUS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?m)^--- (\S+).*\n\+\+\+ (\S+)").expect("valid regex"));

/// Files named by a patch: the `*** Begin Patch` format (Add/Update/Delete File, Move to) or a
/// unified diff (`--- a/x` / `+++ b/x`).
pub fn patch_targets(patch: &str, tool: &str) -> Vec<FileTarget> {
    let mut out = Vec::new();
    for c in PATCH_HEADER.captures_iter(patch) {
        if let (Some(kind), Some(path)) = (c.get(1), c.get(2)) {
            let op = match kind.as_str() {
                "Add" => FileOperation::Create,
                "Delete" => FileOperation::Delete,
                _ => FileOperation::Update,
            };
            out.push(target(path.as_str(), op, tool));
        } else if let Some(to) = c.get(3) {
            out.push(target(to.as_str(), FileOperation::Rename, tool));
        }
    }
    if out.is_empty() {
        for c in DIFF_PLUS.captures_iter(patch) {
            let old = c.get(1).map_or("", |m| m.as_str());
            let new = c.get(2).map_or("", |m| m.as_str());
            let strip = |p: &str| {
                p.strip_prefix("a/")
                    .or_else(|| p.strip_prefix("b/"))
                    .unwrap_or(p)
                    .to_string()
            };
            if new == "/dev/null" {
                out.push(target(&strip(old), FileOperation::Delete, tool));
            } else if old == "/dev/null" {
                out.push(target(&strip(new), FileOperation::Create, tool));
            } else {
                out.push(target(&strip(new), FileOperation::Update, tool));
            }
        }
    }
    out
}

static PATCH_OUTPUT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?m)^([AMD]) (\S.*?)\s*$").expect("valid regex"));

/// Files listed by an apply_patch success report (`Success. Updated the following files:` then
/// `M path` lines).
pub fn patch_output_targets(output: &str, tool: &str) -> Vec<FileTarget> {
    let Some(at) = output.find("Updated the following files") else {
        return Vec::new();
    };
    PATCH_OUTPUT
        .captures_iter(&output[at..])
        .filter_map(|c| {
            let op = match c.get(1)?.as_str() {
                "A" => FileOperation::Create,
                "D" => FileOperation::Delete,
                _ => FileOperation::Update,
            };
            Some(target(c.get(2)?.as_str(), op, tool))
        })
        .collect()
}

/// Whether an edit tool's output says the edit did not happen, when the runtime did not mark it
/// failed itself.
pub fn edit_output_failed(text: &str) -> bool {
    static FAILED: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)<tool_use_error>|string to replace not found|old_?string not found|could not find (?:the )?(?:exact )?(?:text|string|match)|no match(?:es)? found|found \d+ matches of the string|file has not been read yet|failed to apply patch|patch failed|invalid patch|permission denied|no such file or directory|^error:|^error\b",
        )
        .expect("valid regex")
    });
    FAILED.is_match(text.trim_start())
}

/// Removes here-document bodies (`cat > f <<'EOF' ... EOF`), so that their lines are not read
/// as commands.
pub fn strip_heredocs(command: &str) -> String {
    static HEREDOC: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r#"<<-?\s*['"]?([A-Za-z_][A-Za-z0-9_]*)['"]?"#).expect("valid regex")
    });
    let mut out = String::with_capacity(command.len());
    let mut lines = command.split_inclusive('\n');
    while let Some(line) = lines.next() {
        out.push_str(line);
        let delimiters: Vec<String> = HEREDOC
            .captures_iter(line)
            .filter_map(|c| c.get(1).map(|m| m.as_str().to_string()))
            .collect();
        for delim in delimiters {
            for body in lines.by_ref() {
                if body.trim() == delim {
                    // Keep the line break so the next command stays a command of its own.
                    out.push('\n');
                    break;
                }
            }
        }
    }
    out
}

/// Files a shell command line writes. `command` is the raw line (for patches given inline);
/// `invocations` its parsed, here-doc free invocations.
pub fn shell_targets(command: &str, invocations: &[Invocation]) -> Vec<FileTarget> {
    let mut out = Vec::new();
    if command.contains("*** Begin Patch") {
        out.extend(patch_targets(command, "apply_patch"));
    }
    for inv in invocations {
        for r in &inv.redirects_to {
            out.push(target(
                &join_cwd(inv, r),
                FileOperation::Update,
                "shell_redirect",
            ));
        }
        let program = base_name(&inv.program);
        let args: Vec<&str> = inv.argv.iter().map(String::as_str).collect();
        let positional: Vec<&str> = args
            .iter()
            .copied()
            .filter(|a| !a.starts_with('-'))
            .collect();
        match program {
            "tee" => {
                for p in &positional {
                    out.push(target(&join_cwd(inv, p), FileOperation::Update, "tee"));
                }
            }
            "sed" | "gsed"
                if args
                    .iter()
                    .any(|a| a.starts_with("-i") || a.starts_with("--in-place")) =>
            {
                out.extend(
                    sed_files(&args)
                        .into_iter()
                        .map(|p| target(&join_cwd(inv, p), FileOperation::Update, "sed -i")),
                );
            }
            "perl"
                if args
                    .iter()
                    .any(|a| a.starts_with("-i") || (a.starts_with("-p") && a.contains('i'))) =>
            {
                // perl -pi -e 'script' files...
                let mut skip_next = false;
                for a in &args {
                    if skip_next {
                        skip_next = false;
                        continue;
                    }
                    if *a == "-e" || *a == "-E" {
                        skip_next = true;
                        continue;
                    }
                    if !a.starts_with('-') {
                        out.push(target(&join_cwd(inv, a), FileOperation::Update, "perl -i"));
                    }
                }
            }
            "mv" if positional.len() >= 2 => {
                if let Some((dst, srcs)) = positional.split_last() {
                    for s in srcs {
                        out.push(target(&join_cwd(inv, s), FileOperation::Delete, "mv"));
                    }
                    out.push(target(&join_cwd(inv, dst), FileOperation::Rename, "mv"));
                }
            }
            "cp" if positional.len() >= 2 => {
                if let Some(dst) = positional.last() {
                    out.push(target(&join_cwd(inv, dst), FileOperation::Update, "cp"));
                }
            }
            "rm" | "unlink" => {
                for p in &positional {
                    out.push(target(&join_cwd(inv, p), FileOperation::Delete, "rm"));
                }
            }
            "touch" | "truncate" => {
                let valued = ["-s", "--size", "-r", "--reference", "-d", "-t"];
                let mut i = 0;
                while let Some(a) = args.get(i) {
                    if valued.contains(a) {
                        i += 2;
                        continue;
                    }
                    if !a.starts_with('-') {
                        out.push(target(&join_cwd(inv, a), FileOperation::Update, program));
                    }
                    i += 1;
                }
            }
            "git" => match args.first().copied() {
                Some("restore") | Some("checkout")
                    if args.contains(&"--") || args.first() == Some(&"restore") =>
                {
                    let files: Vec<&str> = match args.iter().position(|a| *a == "--") {
                        Some(p) => args[p + 1..].to_vec(),
                        None => args[1..]
                            .iter()
                            .copied()
                            .filter(|a| !a.starts_with('-'))
                            .collect(),
                    };
                    for f in files {
                        out.push(target(
                            &join_cwd(inv, f),
                            FileOperation::Update,
                            "git restore",
                        ));
                    }
                }
                // `git rm` deletes from the tree too, unless it only unstages (`--cached`) or
                // only says what it would do (`-n`).
                Some("rm")
                    if !args
                        .iter()
                        .any(|a| *a == "--cached" || *a == "-n" || *a == "--dry-run") =>
                {
                    for f in args[1..].iter().filter(|a| !a.starts_with('-')) {
                        out.push(target(&join_cwd(inv, f), FileOperation::Delete, "git rm"));
                    }
                }
                Some("apply") | Some("am") | Some("stash")
                    if !args.contains(&"--check")
                        && args.get(1) != Some(&"list")
                        && args.get(1) != Some(&"show") =>
                {
                    out.push(target("", FileOperation::Update, "git"));
                }
                _ => {}
            },
            "patch" => out.push(target("", FileOperation::Update, "patch")),
            _ => {}
        }
    }
    out.retain(|t| t.path.is_empty() || !is_scratch(&t.path));
    out
}

/// The paths a failed `rm` names as not removed, with its reason: GNU `rm: cannot remove 'x':
/// reason` and BSD `rm: x: reason`.
pub fn rm_failures(output: &str) -> Vec<(String, String)> {
    static GNU: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^rm: cannot remove '([^'\n]+)': (.+?)\s*$").expect("valid regex")
    });
    static BSD: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"(?m)^rm: ([^:'\n]+): (No such file or directory|Permission denied|Directory not empty|Is a directory|Operation not permitted|Read-only file system)\s*$")
            .expect("valid regex")
    });
    let mut out: Vec<(String, String)> = GNU
        .captures_iter(output)
        .chain(BSD.captures_iter(output))
        .filter_map(|c| {
            Some((
                c.get(1)?.as_str().to_string(),
                c.get(2)?.as_str().to_string(),
            ))
        })
        .collect();
    out.dedup();
    out
}

fn sed_files<'a>(args: &[&'a str]) -> Vec<&'a str> {
    // sed -i[SUFFIX] [-e script | script] files...
    let mut files = Vec::new();
    let mut script_given = args
        .iter()
        .any(|a| *a == "-e" || *a == "--expression" || *a == "-f");
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if *a == "-e" || *a == "--expression" || *a == "-f" {
            i += 2;
            continue;
        }
        if *a == "-i" {
            // BSD sed: `-i ''` takes a (possibly empty) suffix argument.
            if args.get(i + 1).is_some_and(|n| n.is_empty()) {
                i += 1;
            }
            i += 1;
            continue;
        }
        if a.starts_with('-') {
            i += 1;
            continue;
        }
        if !script_given {
            script_given = true;
        } else {
            files.push(*a);
        }
        i += 1;
    }
    files
}

fn join_cwd(inv: &Invocation, path: &str) -> String {
    match &inv.cwd {
        Some(cwd) if !path.starts_with('/') && !path.starts_with('~') && !cwd.is_empty() => {
            format!("{}/{}", cwd.trim_end_matches('/'), path)
        }
        _ => path.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fornax_types::shell::parse_invocations;
    use serde_json::json;

    fn shell(cmd: &str) -> Vec<(String, FileOperation, String)> {
        let stripped = strip_heredocs(cmd);
        shell_targets(cmd, &parse_invocations(&stripped))
            .into_iter()
            .map(|t| (t.path, t.operation, t.tool))
            .collect()
    }

    #[test]
    fn edit_tools_by_name() {
        let t = tool_call_targets(
            "Edit",
            &json!({"file_path": "/w/src/a.rs", "old_string": "x", "new_string": "y"}),
        )
        .unwrap();
        assert_eq!(
            t,
            vec![target("/w/src/a.rs", FileOperation::Update, "Edit")]
        );
        let t =
            tool_call_targets("write", &json!({"filePath": "src/b.ts", "content": ""})).unwrap();
        assert_eq!(t[0].operation, FileOperation::Create);
        assert!(tool_call_targets("Read", &json!({"file_path": "a"})).is_none());
        assert!(tool_call_targets(
            "str_replace_editor",
            &json!({"command": "view", "path": "a"})
        )
        .is_none());
        assert_eq!(
            tool_call_targets("mcp__fs__write_file", &json!({"path": "x.md"})).unwrap()[0].path,
            "x.md"
        );
        // Cursor's transcripts name the edit `StrReplace`.
        assert_eq!(
            tool_call_targets("StrReplace", &json!({"path": "src/cart.ts"})).unwrap(),
            vec![target("src/cart.ts", FileOperation::Update, "StrReplace")]
        );
    }

    #[test]
    fn patches() {
        let patch = "*** Begin Patch\n*** Update File: src/a.rs\n@@\n-x\n+y\n*** Add File: src/new.rs\n+fn f() {}\n*** Delete File: old.rs\n*** Update File: src/b.rs\n*** Move to: src/c.rs\n*** End Patch";
        let t = tool_call_targets("apply_patch", &json!({"input": patch})).unwrap();
        let got: Vec<(&str, FileOperation)> =
            t.iter().map(|t| (t.path.as_str(), t.operation)).collect();
        assert_eq!(
            got,
            vec![
                ("src/a.rs", FileOperation::Update),
                ("src/new.rs", FileOperation::Create),
                ("old.rs", FileOperation::Delete),
                ("src/b.rs", FileOperation::Update),
                ("src/c.rs", FileOperation::Rename)
            ]
        );
        let diff = "diff --git a/lib/x.py b/lib/x.py\n--- a/lib/x.py\n+++ b/lib/x.py\n@@ -1 +1 @@\n-a\n+b\n";
        assert_eq!(patch_targets(diff, "patch")[0].path, "lib/x.py");
        let out = "Success. Updated the following files:\nM src/a.rs\nA src/new.rs\n";
        assert_eq!(patch_output_targets(out, "apply_patch").len(), 2);
    }

    #[test]
    fn shell_writes() {
        assert_eq!(
            shell("echo hi > notes/today.md"),
            vec![(
                "notes/today.md".into(),
                FileOperation::Update,
                "shell_redirect".into()
            )]
        );
        assert_eq!(
            shell("cat > src/gen.rs <<'EOF'\nfn main() { println!(\"a > b\"); }\nEOF")[0].0,
            "src/gen.rs"
        );
        assert_eq!(shell("cat > src/gen.rs <<'EOF'\nx > y\nEOF").len(), 1);
        assert_eq!(shell("sed -i 's/a/b/' src/a.rs src/b.rs").len(), 2);
        assert_eq!(shell("sed -i '' -e 's/a/b/' src/a.rs")[0].0, "src/a.rs");
        assert_eq!(shell("sed -n '1,20p' src/a.rs"), vec![]);
        assert_eq!(shell("mv src/old.rs src/new.rs").len(), 2);
        assert_eq!(
            shell("rm -f build.log tmp.txt"),
            vec![("tmp.txt".into(), FileOperation::Delete, "rm".into())]
        );
        assert_eq!(shell("cargo test > /tmp/out.txt 2>&1"), vec![]);
        assert_eq!(
            shell("cd web && echo x | tee -a src/a.ts")[0].0,
            "web/src/a.ts"
        );
        assert_eq!(shell("git checkout -- src/a.rs")[0].0, "src/a.rs");
        assert_eq!(
            shell("git rm -q setup.cfg docs/old.md"),
            vec![
                ("setup.cfg".into(), FileOperation::Delete, "git rm".into()),
                ("docs/old.md".into(), FileOperation::Delete, "git rm".into())
            ]
        );
        assert_eq!(shell("git rm --cached secrets.env"), vec![]);
        assert_eq!(
            shell("rm -rf dist/legacy"),
            vec![("dist/legacy".into(), FileOperation::Delete, "rm".into())]
        );
        assert_eq!(
            shell("mkdir -p docs/adr && cp notes/a.md docs/adr/0001.md")[0].0,
            "docs/adr/0001.md"
        );
        assert_eq!(shell("git status"), vec![]);
        assert_eq!(shell("apply_patch <<'PATCH'\n*** Begin Patch\n*** Update File: m/t.py\n@@\n-a\n+b\n*** End Patch\nPATCH")[0].0, "m/t.py");
    }

    #[test]
    fn rm_names_what_it_could_not_remove() {
        let gnu = "rm: cannot remove 'tests/old.json': No such file or directory\nrm: cannot remove 'vendor/a.js': Permission denied\n";
        assert_eq!(
            rm_failures(gnu),
            vec![
                (
                    "tests/old.json".to_string(),
                    "No such file or directory".to_string()
                ),
                ("vendor/a.js".to_string(), "Permission denied".to_string())
            ]
        );
        assert_eq!(
            rm_failures("rm: build: Directory not empty\n"),
            vec![("build".to_string(), "Directory not empty".to_string())]
        );
        assert!(rm_failures("removed 'a'\n").is_empty());
    }

    #[test]
    fn failed_edit_text() {
        assert!(edit_output_failed(
            "<tool_use_error>String to replace not found in file.</tool_use_error>"
        ));
        assert!(edit_output_failed(
            "Error: Could not find the exact text in src/a.ts"
        ));
        assert!(!edit_output_failed(
            "The file src/a.rs has been updated successfully."
        ));
        assert!(!edit_output_failed(
            "Successfully replaced text in src/cli.js."
        ));
    }
}
