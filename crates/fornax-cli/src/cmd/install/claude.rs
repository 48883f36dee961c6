//! Claude Code: command hooks and the status line in a `settings.json`.
//!
//! Install adds, for every hook event Fornax maps, one matcher group running
//! `<dir>/fornax-hook claude` when that binary sits next to the running one, else
//! `<fornax> hook claude` (same code, slower start), and sets `statusLine` to
//! `<fornax> status --statusline` when the file has none. An entry is Fornax's when its command
//! is a `fornax` binary with exactly those arguments ([`super::shell::is_fornax_call`]), or a
//! `fornax-hook` binary with `claude`; install repoints such entries at the running binary and
//! drops duplicates, uninstall removes them (and the groups, event lists and `hooks` object
//! they leave empty). Everything else keeps its place, order and value.

use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::error::CliError;

use super::atomic::{self, Mode};
use super::report::{Change, FileChange, Outcome};
use super::shell;
use super::{fornax_exe, hook_binary, Action, Places};

const HOOK_ARGS: [&str; 2] = ["hook", "claude"];
/// The arguments of the same hook run by the `fornax-hook` binary.
const HOOK_BINARY_ARGS: [&str; 1] = ["claude"];
const STATUS_ARGS: [&str; 2] = ["status", "--statusline"];
/// Seconds Claude Code waits for the hook; the hook itself gives up after 3.
const TIMEOUT_SECS: u64 = 10;

/// Every event the Claude hook adapter maps, and whether the event filters by a matcher
/// (tool name, session source, notification type, agent type, compaction trigger, end
/// reason). Events without one get no `matcher` key.
pub(super) const EVENTS: [(&str, bool); 12] = [
    ("SessionStart", true),
    ("UserPromptSubmit", false),
    ("PreToolUse", true),
    ("PostToolUse", true),
    ("PostToolUseFailure", true),
    ("PermissionRequest", true),
    ("Notification", true),
    ("Stop", false),
    ("SubagentStart", true),
    ("SubagentStop", true),
    ("PreCompact", true),
    ("SessionEnd", true),
];

const CAPTURED: &str = "live hook events (session start and end, prompts, every tool call before \
and after with its output, tool failures with their error text (which carries the exit code), permission \
requests, notifications, subagents, compaction, turn ends) are spooled by `fornax-hook claude` \
(or `fornax hook claude`); transcripts under ~/.claude/projects are read by `fornax scan` and followed live by \
`fornax daemon start`";

/// `settings.json` of the user's Claude Code configuration.
pub(super) fn user_settings(places: &Places) -> PathBuf {
    places
        .agent_var("CLAUDE_CONFIG_DIR")
        .unwrap_or_else(|| places.home.join(".claude"))
        .join("settings.json")
}

/// The commands this binary writes.
struct Commands {
    hook: String,
    status: String,
}

/// What an edit did inside the file, and what the user should know.
#[derive(Default)]
struct Edit {
    details: Vec<String>,
    hints: Vec<String>,
}

pub(super) fn run(path: &Path, action: Action, mode: Mode) -> Result<Outcome, CliError> {
    let exe = fornax_exe()?;
    let commands = Commands {
        hook: match hook_binary(&exe) {
            Some(hook) => shell::command(&hook, &HOOK_BINARY_ARGS),
            None => shell::command(&exe, &HOOK_ARGS),
        },
        status: shell::command(&exe, &STATUS_ARGS),
    };
    let current = atomic::read(path)?;
    let shown = current.path.clone();
    let doc = Document::parse(current.bytes.as_deref()).map_err(|why| refusal(&shown, &why))?;
    let mut root = doc.root.clone();
    let edit = match action {
        Action::Install => install(&mut root, &commands),
        Action::Uninstall => Ok(uninstall(&mut root)),
    }
    .map_err(|why| refusal(&shown, &why))?;

    let change = if root == doc.root {
        Change::Unchanged
    } else if current.bytes.is_none() {
        Change::Created
    } else {
        Change::Updated
    };
    let mut backup = None;
    if change != Change::Unchanged && mode == Mode::Write {
        backup = atomic::replace(&current, &doc.render(&root))?;
    }
    let mut hints = edit.hints;
    if action == Action::Install && root.get("disableAllHooks") == Some(&Value::Bool(true)) {
        hints.push(format!(
            "{} sets \"disableAllHooks\": true, so Claude Code runs no hooks until it is removed",
            shown.display()
        ));
    }
    let details = if change == Change::Unchanged {
        Vec::new()
    } else {
        edit.details
    };
    Ok(Outcome::new(
        "claude",
        action,
        mode == Mode::DryRun,
        vec![FileChange::new(&shown, change, details, backup.as_deref())],
        CAPTURED.to_string(),
        hints,
    ))
}

fn refusal(path: &Path, why: &str) -> CliError {
    CliError::from(anyhow::anyhow!(
        "{}: {why}; the file was left unchanged",
        path.display()
    ))
    .with_hint("fix the file by hand (Claude Code would not read it either), or pass --settings with another file")
}

/// A settings file as text: its value and the layout to write it back in.
pub(super) struct Document {
    pub(super) root: Map<String, Value>,
    bom: bool,
    indent: String,
    crlf: bool,
    trailing_newline: bool,
}

impl Document {
    pub(super) fn parse(bytes: Option<&[u8]>) -> Result<Document, String> {
        let mut doc = Document {
            root: Map::new(),
            bom: false,
            indent: "  ".to_string(),
            crlf: false,
            trailing_newline: true,
        };
        let Some(bytes) = bytes else {
            return Ok(doc);
        };
        let text = std::str::from_utf8(bytes).map_err(|e| format!("not UTF-8 text ({e})"))?;
        let text = match text.strip_prefix('\u{feff}') {
            Some(rest) => {
                doc.bom = true;
                rest
            }
            None => text,
        };
        if text.trim().is_empty() {
            return Ok(doc);
        }
        doc.crlf = text.contains("\r\n");
        doc.trailing_newline = text.ends_with('\n');
        if let Some(indent) = text
            .lines()
            .skip(1)
            .map(|l| &l[..l.len() - l.trim_start().len()])
            .find(|ws| !ws.is_empty())
        {
            doc.indent = indent.to_string();
        }
        match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(map)) => {
                doc.root = map;
                Ok(doc)
            }
            Ok(other) => Err(format!(
                "the settings root is {}, not an object",
                kind(&other)
            )),
            Err(e) => Err(format!("not valid JSON ({e})")),
        }
    }

    pub(super) fn render(&self, root: &Map<String, Value>) -> Vec<u8> {
        let mut out = Vec::new();
        if self.bom {
            out.extend_from_slice("\u{feff}".as_bytes());
        }
        let formatter = serde_json::ser::PrettyFormatter::with_indent(self.indent.as_bytes());
        let mut body = Vec::new();
        let mut ser = serde_json::Serializer::with_formatter(&mut body, formatter);
        // Serializing a map of JSON values into memory cannot fail.
        let _ = serde::Serialize::serialize(root, &mut ser);
        if self.trailing_newline {
            body.push(b'\n');
        }
        if self.crlf {
            // JSON strings escape their newlines, so every raw newline is layout.
            for b in body {
                if b == b'\n' {
                    out.push(b'\r');
                }
                out.push(b);
            }
        } else {
            out.extend(body);
        }
        out
    }
}

pub(super) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Drops the groups (by ascending index) whose hooks Fornax just emptied, and only those.
fn remove_groups(groups: &mut Vec<Value>, emptied: &[usize]) {
    for &g in emptied.iter().rev() {
        groups.remove(g);
    }
}

/// Whether a matcher group runs for every occurrence of its event.
fn matches_everything(group: &Value, takes_matcher: bool) -> bool {
    !takes_matcher
        || match group.get("matcher") {
            None | Some(Value::Null) => true,
            Some(Value::String(m)) => m.is_empty() || m == "*",
            Some(_) => false,
        }
}

fn command_of(entry: &Value) -> Option<&str> {
    entry.get("command").and_then(Value::as_str)
}

fn is_our_hook(entry: &Value) -> bool {
    command_of(entry).is_some_and(|c| {
        shell::is_fornax_call(c, &HOOK_ARGS) || shell::is_fornax_hook_call(c, &HOOK_BINARY_ARGS)
    })
}

fn is_our_status_line(value: &Value) -> bool {
    command_of(value).is_some_and(|c| shell::is_fornax_call(c, &STATUS_ARGS))
}

fn install(root: &mut Map<String, Value>, commands: &Commands) -> Result<Edit, String> {
    let mut edit = Edit::default();
    let hooks = match root
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()))
    {
        Value::Object(h) => h,
        other => return Err(format!("\"hooks\" is {}, not an object", kind(other))),
    };
    let mut added = Vec::new();
    let mut repointed = 0;
    let mut duplicates = 0;
    for (event, takes_matcher) in EVENTS {
        let groups = match hooks
            .entry(event)
            .or_insert_with(|| Value::Array(Vec::new()))
        {
            Value::Array(g) => g,
            other => return Err(format!("\"hooks.{event}\" is {}, not a list", kind(other))),
        };
        // Keep one Fornax hook per event, in a group that matches everything; any other
        // Fornax hook of the event is a duplicate (or a narrowed copy) and goes.
        let keep = groups.iter().enumerate().find_map(|(g, group)| {
            if !matches_everything(group, takes_matcher) {
                return None;
            }
            let entries = group.get("hooks")?.as_array()?;
            entries.iter().position(is_our_hook).map(|e| (g, e))
        });
        let mut emptied = Vec::new();
        for (g, group) in groups.iter_mut().enumerate() {
            let Some(entries) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
                continue;
            };
            let before = entries.len();
            let mut e = 0;
            entries.retain_mut(|entry| {
                let here = (g, e);
                e += 1;
                if !is_our_hook(entry) {
                    true
                } else if keep == Some(here) {
                    if command_of(entry) != Some(commands.hook.as_str()) {
                        entry["command"] = Value::String(commands.hook.clone());
                        repointed += 1;
                    }
                    true
                } else {
                    duplicates += 1;
                    false
                }
            });
            if entries.is_empty() && before > 0 {
                emptied.push(g);
            }
        }
        remove_groups(groups, &emptied);
        let found = keep.is_some();
        if !found {
            let entry =
                json!({"type": "command", "command": commands.hook, "timeout": TIMEOUT_SECS});
            let group = if takes_matcher {
                json!({"matcher": "*", "hooks": [entry]})
            } else {
                json!({"hooks": [entry]})
            };
            groups.push(group);
            added.push(event);
        }
    }
    if !added.is_empty() {
        edit.details.push(format!(
            "added `{}` (timeout {TIMEOUT_SECS}s) for {} events: {}",
            commands.hook,
            added.len(),
            added.join(", ")
        ));
    }
    if repointed > 0 {
        edit.details.push(format!(
            "pointed {repointed} earlier Fornax hooks at this binary"
        ));
    }
    if duplicates > 0 {
        edit.details.push(format!(
            "removed {duplicates} other Fornax hooks (duplicates, or copies narrowed by a matcher)"
        ));
    }

    match root.get_mut("statusLine") {
        None => {
            root.insert(
                "statusLine".to_string(),
                json!({"type": "command", "command": commands.status}),
            );
            edit.details
                .push(format!("set statusLine to `{}`", commands.status));
        }
        Some(status) if is_our_status_line(status) => {
            if command_of(status) != Some(commands.status.as_str()) {
                status["command"] = Value::String(commands.status.clone());
                edit.details
                    .push("pointed the Fornax statusLine at this binary".to_string());
            }
        }
        Some(status) => edit.hints.push(chain_hint(status, &commands.status)),
    }
    Ok(edit)
}

/// How to show Fornax's status next to a status line the user already has.
fn chain_hint(existing: &Value, ours: &str) -> String {
    match command_of(existing) {
        Some(theirs) => format!(
            "statusLine is already set (`{theirs}`) and was left as it is. To show both, make \
             it run a script that feeds the same input to each: \
             input=$(cat); printf '%s' \"$input\" | {theirs}; printf '%s' \"$input\" | {ours}"
        ),
        None => format!(
            "statusLine is already set and was left as it is; to show Fornax's verdicts there, \
             set its command to `{ours}`"
        ),
    }
}

fn uninstall(root: &mut Map<String, Value>) -> Edit {
    let mut edit = Edit::default();
    let mut removed = 0;
    let mut events = Vec::new();
    let mut hooks_emptied = false;
    if let Some(Value::Object(hooks)) = root.get_mut("hooks") {
        let mut emptied_events = Vec::new();
        for (event, list) in hooks.iter_mut() {
            let Value::Array(groups) = list else {
                continue;
            };
            let mut removed_here = 0;
            let mut emptied = Vec::new();
            for (g, group) in groups.iter_mut().enumerate() {
                let Some(entries) = group.get_mut("hooks").and_then(Value::as_array_mut) else {
                    continue;
                };
                let before = entries.len();
                entries.retain(|e| !is_our_hook(e));
                let gone = before - entries.len();
                if gone > 0 && entries.is_empty() {
                    emptied.push(g);
                }
                removed_here += gone;
            }
            if removed_here > 0 {
                remove_groups(groups, &emptied);
                removed += removed_here;
                events.push(event.clone());
                if groups.is_empty() {
                    emptied_events.push(event.clone());
                }
            }
        }
        for event in emptied_events {
            hooks.shift_remove(&event);
        }
        hooks_emptied = removed > 0 && hooks.is_empty();
    }
    if hooks_emptied {
        root.shift_remove("hooks");
    }
    if removed > 0 {
        edit.details.push(format!(
            "removed {removed} Fornax hooks ({})",
            events.join(", ")
        ));
    }
    if root.get("statusLine").is_some_and(is_our_status_line) {
        root.shift_remove("statusLine");
        edit.details
            .push("removed the Fornax statusLine".to_string());
    }
    edit
}

#[cfg(test)]
mod tests {
    use super::*;

    fn commands() -> Commands {
        Commands {
            hook: "/opt/bin/fornax hook claude".into(),
            status: "/opt/bin/fornax status --statusline".into(),
        }
    }

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    #[test]
    fn install_then_uninstall_restores_the_value() {
        let original = obj(json!({
            "model": "sonnet",
            "hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]},
            "env": {"A": "1"}
        }));
        let mut v = original.clone();
        install(&mut v, &commands()).unwrap();
        assert_eq!(v["hooks"].as_object().unwrap().len(), EVENTS.len());
        assert_eq!(v["hooks"]["Stop"].as_array().unwrap().len(), 2);
        let again = v.clone();
        install(&mut v, &commands()).unwrap();
        assert_eq!(v, again, "a second install changes nothing");
        uninstall(&mut v);
        assert_eq!(v, original);
        let keys: Vec<_> = v.keys().cloned().collect();
        assert_eq!(keys, ["model", "hooks", "env"]);
    }

    #[test]
    fn a_mixed_group_keeps_its_foreign_hooks() {
        let mut v = obj(
            json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "fornax hook claude"},
                {"type": "command", "command": "./guard.sh"}
            ]}]}}),
        );
        uninstall(&mut v);
        assert_eq!(
            Value::Object(v),
            json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
                {"type": "command", "command": "./guard.sh"}
            ]}]}})
        );
    }

    #[test]
    fn hook_binary_entries_are_ours_too() {
        let mut v = obj(json!({"hooks": {"Stop": [{"hooks": [
            {"type": "command", "command": "/old/bin/fornax-hook claude"},
            {"type": "command", "command": "/old/bin/fornax-hook claude --x"}
        ]}]}}));
        install(&mut v, &commands()).unwrap();
        let stop = v["hooks"]["Stop"].clone();
        assert_eq!(
            stop[0]["hooks"][0]["command"],
            "/opt/bin/fornax hook claude"
        );
        assert_eq!(
            stop[0]["hooks"][1]["command"],
            "/old/bin/fornax-hook claude --x"
        );
        uninstall(&mut v);
        assert_eq!(
            Value::Object(v),
            json!({"hooks": {"Stop": [{"hooks": [
                {"type": "command", "command": "/old/bin/fornax-hook claude --x"}
            ]}]}})
        );
    }

    #[test]
    fn unexpected_shapes_are_refused_on_install_and_skipped_on_uninstall() {
        let mut v = obj(json!({"hooks": []}));
        assert!(install(&mut v, &commands()).is_err());
        uninstall(&mut v);
        assert_eq!(Value::Object(v), json!({"hooks": []}));
        let mut v = obj(json!({"hooks": {"Stop": {"oops": 1}}}));
        assert!(install(&mut v, &commands()).is_err());
    }

    #[test]
    fn odd_foreign_entries_are_left_alone() {
        let original = obj(json!({"hooks": {"Stop": [null, "x", {"hooks": "y"}]}}));
        let mut v = original.clone();
        install(&mut v, &commands()).unwrap();
        assert_eq!(v["hooks"]["Stop"].as_array().unwrap().len(), 4);
        uninstall(&mut v);
        assert_eq!(v, original);
    }

    #[test]
    fn layout_is_detected_and_kept() {
        let text = b"{\r\n\t\"a\": [\r\n\t\t1\r\n\t]\r\n}";
        let doc = Document::parse(Some(text)).unwrap();
        assert_eq!(doc.render(&doc.root), text.to_vec());
    }
}
