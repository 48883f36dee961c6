//! A `{"version": 1, "hooks": {<event>: [<entry>, ...]}}` hooks file, the layout GitHub
//! Copilot CLI (`.github/hooks/*.json`) and Cursor (`hooks.json`) share; each entry names
//! its command under a key of its own (`bash` for Copilot, `command` for Cursor).
//!
//! Install keeps exactly one Fornax entry per event Fornax maps, pointed at the running
//! binary, and leaves every other entry where it is; uninstall removes the Fornax entries
//! (and the event lists they leave empty), and the file itself when nothing else is left in
//! it. An entry is Fornax's when its command is a `fornax` or `fornax-hook` binary with
//! exactly Fornax's arguments for that event.

use std::path::Path;

use serde_json::{json, Map, Value};

use crate::error::CliError;

use super::atomic::{self, Mode};
use super::claude::{kind, Document};
use super::report::{Change, FileChange, Outcome};
use super::shell;
use super::{fornax_exe, hook_binary, Action};

/// How one agent's hooks file looks and what Fornax writes into it.
pub(super) struct Spec {
    pub agent: &'static str,
    /// The key of an entry holding its command line.
    pub command_key: &'static str,
    /// The events Fornax registers.
    pub events: &'static [&'static str],
    /// The arguments after `fornax hook` / `fornax-hook` for `event`.
    pub args: fn(&str) -> Vec<&str>,
    /// Fields every new entry gets besides its command.
    pub extra: fn() -> Map<String, Value>,
    pub captured: &'static str,
}

impl Spec {
    fn is_ours(&self, event: &str, entry: &Value) -> bool {
        let hook_args = (self.args)(event);
        let mut with_hook = vec!["hook"];
        with_hook.extend(hook_args.iter().copied());
        entry
            .get(self.command_key)
            .and_then(Value::as_str)
            .is_some_and(|c| {
                shell::is_fornax_call(c, &with_hook) || shell::is_fornax_hook_call(c, &hook_args)
            })
    }

    fn command(&self, exe: &Path, event: &str) -> String {
        let args = (self.args)(event);
        match hook_binary(exe) {
            Some(hook) => shell::command(&hook, &args),
            None => {
                let mut with_hook = vec!["hook"];
                with_hook.extend(args.iter().copied());
                shell::command(exe, &with_hook)
            }
        }
    }
}

pub(super) fn run(
    spec: &Spec,
    path: &Path,
    action: Action,
    mode: Mode,
    hints: Vec<String>,
) -> Result<Outcome, CliError> {
    let exe = fornax_exe()?;
    let current = atomic::read(path)?;
    let shown = current.path.clone();
    let doc = Document::parse(current.bytes.as_deref()).map_err(|why| refusal(&shown, &why))?;
    let mut root = doc.root.clone();
    let details = match action {
        Action::Install => install(spec, &mut root, |event| spec.command(&exe, event)),
        Action::Uninstall => Ok(uninstall(spec, &mut root)),
    }
    .map_err(|why| refusal(&shown, &why))?;
    let leaves_nothing = action == Action::Uninstall && is_empty(&root);
    let change = if root == doc.root {
        Change::Unchanged
    } else if leaves_nothing {
        Change::Removed
    } else if current.bytes.is_none() {
        Change::Created
    } else {
        Change::Updated
    };
    let mut backup = None;
    if mode == Mode::Write {
        backup = match change {
            Change::Unchanged => None,
            Change::Removed => atomic::remove(&current)?,
            _ => atomic::replace(&current, &doc.render(&root))?,
        };
    }
    let details = if change == Change::Unchanged {
        Vec::new()
    } else {
        details
    };
    Ok(Outcome::new(
        spec.agent,
        action,
        mode == Mode::DryRun,
        vec![FileChange::new(&shown, change, details, backup.as_deref())],
        spec.captured.to_string(),
        hints,
    ))
}

fn refusal(path: &Path, why: &str) -> CliError {
    CliError::from(anyhow::anyhow!(
        "{}: {why}; the file was left unchanged",
        path.display()
    ))
    .with_hint("fix the file by hand (the agent would not read it either)")
}

/// Nothing but a version and no hooks: what uninstall leaves of a file install created.
fn is_empty(root: &Map<String, Value>) -> bool {
    root.iter().all(|(k, v)| match k.as_str() {
        "version" => true,
        "hooks" => v.as_object().is_some_and(Map::is_empty),
        _ => false,
    })
}

fn install(
    spec: &Spec,
    root: &mut Map<String, Value>,
    command: impl Fn(&str) -> String,
) -> Result<Vec<String>, String> {
    match root.get("version") {
        None => {
            root.insert("version".into(), json!(1));
        }
        Some(v) if v.as_u64() == Some(1) => {}
        Some(v) => return Err(format!("\"version\" is {v}, and only version 1 is known")),
    }
    let hooks = match root
        .entry("hooks")
        .or_insert_with(|| Value::Object(Map::new()))
    {
        Value::Object(h) => h,
        other => return Err(format!("\"hooks\" is {}, not an object", kind(other))),
    };
    let (mut added, mut repointed, mut duplicates) = (Vec::new(), 0, 0);
    for event in spec.events {
        let entries = match hooks
            .entry(*event)
            .or_insert_with(|| Value::Array(Vec::new()))
        {
            Value::Array(e) => e,
            other => return Err(format!("\"hooks.{event}\" is {}, not a list", kind(other))),
        };
        let wanted = command(event);
        let mut kept = false;
        entries.retain_mut(|entry| {
            if !spec.is_ours(event, entry) {
                return true;
            }
            if kept {
                duplicates += 1;
                return false;
            }
            kept = true;
            if entry.get(spec.command_key).and_then(Value::as_str) != Some(wanted.as_str()) {
                entry[spec.command_key] = Value::String(wanted.clone());
                repointed += 1;
            }
            true
        });
        if !kept {
            let mut entry = (spec.extra)();
            entry.insert(spec.command_key.to_string(), Value::String(wanted));
            entries.push(Value::Object(entry));
            added.push(*event);
        }
    }
    let mut details = Vec::new();
    if !added.is_empty() {
        details.push(format!(
            "added Fornax's hook for {} events: {}",
            added.len(),
            added.join(", ")
        ));
    }
    if repointed > 0 {
        details.push(format!(
            "pointed {repointed} earlier Fornax hooks at this binary"
        ));
    }
    if duplicates > 0 {
        details.push(format!("removed {duplicates} duplicate Fornax hooks"));
    }
    Ok(details)
}

fn uninstall(spec: &Spec, root: &mut Map<String, Value>) -> Vec<String> {
    let Some(Value::Object(hooks)) = root.get_mut("hooks") else {
        return Vec::new();
    };
    let mut removed = 0;
    let mut emptied = Vec::new();
    for (event, list) in hooks.iter_mut() {
        let Value::Array(entries) = list else {
            continue;
        };
        let before = entries.len();
        entries.retain(|e| !spec.is_ours(event, e));
        let gone = before - entries.len();
        removed += gone;
        if gone > 0 && entries.is_empty() {
            emptied.push(event.clone());
        }
    }
    for event in emptied {
        hooks.shift_remove(&event);
    }
    if removed == 0 {
        return Vec::new();
    }
    vec![format!("removed {removed} Fornax hooks")]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec() -> Spec {
        Spec {
            agent: "test",
            command_key: "command",
            events: &["stop", "afterFileEdit"],
            args: |_| vec!["cursor"],
            extra: Map::new,
            captured: "",
        }
    }

    fn obj(v: Value) -> Map<String, Value> {
        match v {
            Value::Object(m) => m,
            _ => unreachable!(),
        }
    }

    #[test]
    fn install_is_idempotent_and_uninstall_restores_the_file() {
        let original = obj(json!({"version": 1, "hooks": {"stop": [{"command": "./notify.sh"}]}}));
        let mut v = original.clone();
        let cmd = |_: &str| "/opt/bin/fornax-hook cursor".to_string();
        install(&spec(), &mut v, cmd).unwrap();
        assert_eq!(v["hooks"]["stop"].as_array().unwrap().len(), 2);
        let again = v.clone();
        assert!(install(&spec(), &mut v, cmd).unwrap().is_empty());
        assert_eq!(v, again);
        uninstall(&spec(), &mut v);
        assert_eq!(v, original);
        let mut fresh = Map::new();
        install(&spec(), &mut fresh, cmd).unwrap();
        uninstall(&spec(), &mut fresh);
        assert!(is_empty(&fresh));
    }

    #[test]
    fn foreign_shapes_are_refused_and_duplicates_go() {
        let cmd = |_: &str| "/opt/bin/fornax hook cursor".to_string();
        assert!(install(&spec(), &mut obj(json!({"version": 2})), cmd).is_err());
        assert!(install(&spec(), &mut obj(json!({"hooks": []})), cmd).is_err());
        let mut v = obj(json!({"hooks": {"stop": [
            {"command": "/old/fornax hook cursor"}, {"command": "fornax-hook cursor"}
        ]}}));
        install(&spec(), &mut v, cmd).unwrap();
        assert_eq!(
            v["hooks"]["stop"],
            json!([{"command": "/opt/bin/fornax hook cursor"}])
        );
    }
}
