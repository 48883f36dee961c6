//! Which Codex tool calls run a shell command, and the command line they run.
//!
//! Codex tools over time: `shell` / `container.exec` / `local_shell_call` take an argv array
//! (usually `["bash", "-lc", "<command>"]`), `shell_command` (0.6x) a command string,
//! unified `exec_command` (0.9x+) a `cmd` string. The argv wrapper is unwrapped so that the
//! command line is what the agent actually wrote.

use serde_json::Value;

use crate::text::{str_of, u64_of};

/// A shell command a call runs.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ShellCommand {
    pub command: String,
    pub cwd: Option<String>,
    pub timeout_ms: Option<u64>,
}

/// Tool names whose arguments carry a shell command.
fn is_shell_tool(name: &str) -> bool {
    matches!(
        name,
        "shell"
            | "container.exec"
            | "container_exec"
            | "local_shell"
            | "shell_command"
            | "exec_command"
            | "unified_exec"
    )
}

/// The shell command of a function or custom tool call, when the tool runs one.
pub(crate) fn shell_from_call(name: &str, args: &Value) -> Option<ShellCommand> {
    if !is_shell_tool(name) {
        return None;
    }
    let command = command_of(args.get("command").or_else(|| args.get("cmd"))?)?;
    Some(ShellCommand {
        command,
        cwd: str_of(args, "workdir")
            .or_else(|| str_of(args, "cwd"))
            .or_else(|| str_of(args, "working_directory"))
            .map(str::to_string),
        timeout_ms: u64_of(args, "timeout_ms").or_else(|| u64_of(args, "timeout")),
    })
}

/// `local_shell_call.action` (`{"type": "exec", "command": [...], ...}`).
pub(crate) fn shell_from_local_action(action: &Value) -> Option<ShellCommand> {
    let command = command_of(action.get("command")?)?;
    Some(ShellCommand {
        command,
        cwd: str_of(action, "working_directory")
            .or_else(|| str_of(action, "cwd"))
            .map(str::to_string),
        timeout_ms: u64_of(action, "timeout_ms"),
    })
}

/// A command given as a string or as an argv array.
pub(crate) fn command_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) if !s.trim().is_empty() => Some(s.clone()),
        Value::Array(items) => {
            let argv: Vec<String> = items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect();
            if argv.is_empty() || argv.len() != items.len() {
                return None;
            }
            Some(argv_to_command(&argv))
        }
        _ => None,
    }
}

/// Unwraps `["bash", "-lc", "cmd"]` (and `sh -c`, `zsh -lc`, `pwsh -Command`) to `cmd`;
/// joins any other argv with shell quoting.
pub(crate) fn argv_to_command(argv: &[String]) -> String {
    if let [shell, flag, command] = argv {
        let base = basename(shell);
        let posix = matches!(
            base.as_str(),
            "bash" | "sh" | "zsh" | "dash" | "ksh" | "fish"
        );
        let is_c_flag = flag.starts_with('-') && !flag.starts_with("--") && flag.contains('c');
        if posix && is_c_flag {
            return command.clone();
        }
    }
    if let Some(shell) = argv.first() {
        let base = basename(shell);
        if matches!(base.as_str(), "powershell" | "pwsh" | "cmd") {
            if let Some(i) = argv.iter().position(|a| {
                let a = a.to_ascii_lowercase();
                a == "-command" || a == "-c" || a == "/c"
            }) {
                if i + 1 < argv.len() {
                    return argv[i + 1..].join(" ");
                }
            }
        }
    }
    argv.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" ")
}

fn basename(path: &str) -> String {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    name.strip_suffix(".exe")
        .unwrap_or(name)
        .to_ascii_lowercase()
}

fn quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c));
    if plain {
        arg.to_string()
    } else {
        format!("'{}'", arg.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unwraps_login_shell_argv() {
        let s = shell_from_call("shell", &json!({"command": ["bash", "-lc", "cargo test && ls"], "workdir": "/w", "timeout_ms": 120000})).unwrap();
        assert_eq!(s.command, "cargo test && ls");
        assert_eq!(s.cwd.as_deref(), Some("/w"));
        assert_eq!(s.timeout_ms, Some(120000));
    }

    #[test]
    fn joins_plain_argv_with_quotes() {
        let s = shell_from_call(
            "shell",
            &json!({"command": ["git", "commit", "-m", "fix it"]}),
        )
        .unwrap();
        assert_eq!(s.command, "git commit -m 'fix it'");
        let s = shell_from_call("container.exec", &json!({"command": ["ls"]})).unwrap();
        assert_eq!(s.command, "ls");
    }

    #[test]
    fn string_commands() {
        let s = shell_from_call(
            "shell_command",
            &json!({"command": "python3 hoge.py", "workdir": "/w/app"}),
        )
        .unwrap();
        assert_eq!(s.command, "python3 hoge.py");
        let s = shell_from_call(
            "exec_command",
            &json!({"cmd": "cd /tmp && ls", "yield_time_ms": 1000}),
        )
        .unwrap();
        assert_eq!(s.command, "cd /tmp && ls");
        assert!(shell_from_call("write_stdin", &json!({"session_id": 1, "chars": ""})).is_none());
        assert!(shell_from_call("shell", &json!({"command": 3})).is_none());
        assert!(shell_from_call("shell", &json!({"command": ["ls", 3]})).is_none());
    }

    #[test]
    fn powershell_and_local_shell() {
        let s = argv_to_command(&[
            "pwsh.exe".into(),
            "-NoProfile".into(),
            "-Command".into(),
            "Get-ChildItem".into(),
        ]);
        assert_eq!(s, "Get-ChildItem");
        let s = shell_from_local_action(&json!({"type": "exec", "command": ["/bin/sh", "-c", "make"], "working_directory": "/src"})).unwrap();
        assert_eq!(s.command, "make");
        assert_eq!(s.cwd.as_deref(), Some("/src"));
    }
}
