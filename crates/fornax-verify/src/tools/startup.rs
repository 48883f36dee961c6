//! A tool that could not start: the shell found no such command, the file is not executable,
//! the module, script, subcommand, target or toolchain does not exist. Such a run is not a
//! failing test, build or lint run: it is no run at all.
//!
//! Only short outputs (or exit statuses 126 and 127, the shell's own "cannot execute" and "not
//! found") are read, and only their first and last lines, so a test log that mentions a
//! missing command somewhere inside does not read as a start failure.

use std::sync::LazyLock;

use regex::Regex;

use super::parse::re;

/// Outputs with more non-empty lines than this are runs, unless the shell said 126 or 127.
const SHORT: usize = 30;
/// Lines read at each end of an output.
const EDGE: usize = 8;

static NOT_STARTED: LazyLock<Regex> = LazyLock::new(|| {
    re(concat!(
        r"(?i)^(?:",
        r".*: command not found(?::.*)?",
        r"|(?:zsh|fish): command not found: .+",
        r"|(?:/bin/)?(?:ba|da|z)?sh: (?:line )?\d+: .+: not found",
        r"|(?:/bin/)?(?:ba|da|z)?sh: (?:line \d+: )?\S+: (?:No such file or directory|Permission denied)",
        r"|env: '?[^:']+'?: No such file or directory",
        r"|exec: .+: executable file not found in \$PATH.*",
        r"|\S*python[\d.]*: No module named \S+",
        r"|npm (?:error|ERR!) Missing script: .+",
        r"|\s*ERR_PNPM_NO_SCRIPT .+",
        r"|error Command .+ not found\.?",
        r"|Usage Error: Couldn't find a script named .+",
        r"|error: Script not found .+",
        r"|error: no such (?:command|subcommand): .+",
        r"|error: toolchain '[^']+' is not installed.*",
        r"|g?make(?:\[\d+\])?: \*\*\* No rule to make target .+",
        r"|npm (?:error|ERR!) could not determine executable to run",
        r"|error: Failed to spawn: .+",
        r"|'.+' is not recognized as an internal or external command.*",
        r"|Error: Could not find or load main class .+",
        r"|go: unknown subcommand .+|go: cannot find main module.*",
        r")\s*$"
    ))
});

/// The line that shows the command could not start, if the output (with the exit status the
/// runtime recorded) shows that.
pub fn could_not_start(output: &str, exit_code: Option<i64>) -> Option<String> {
    let lines: Vec<&str> = output
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect();
    let shell_said = matches!(exit_code, Some(126 | 127));
    if lines.is_empty() || (lines.len() > SHORT && !shell_said) {
        return None;
    }
    // A command that exited 0 started (and a `|| true` line exits 0 whatever it ran).
    if exit_code == Some(0) {
        return None;
    }
    let head = lines.iter().take(EDGE);
    let tail = lines.iter().rev().take(EDGE);
    head.chain(tail)
        .find(|l| NOT_STARTED.is_match(l))
        .map(|l| l.trim().chars().take(200).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_failures_and_runs() {
        assert!(could_not_start("bash: line 1: pytest: command not found\n", Some(127)).is_some());
        assert!(could_not_start("sh: 1: jest: not found\n", None).is_some());
        assert!(could_not_start(
            "npm error Missing script: \"typecheck\"\nnpm error\n",
            Some(1)
        )
        .is_some());
        assert!(
            could_not_start("make: *** No rule to make target 'test'.  Stop.\n", Some(2)).is_some()
        );
        // A run that failed is not a start failure, and neither is a log that mentions one.
        assert!(could_not_start("1 failed, 3 passed in 0.1s\n", Some(1)).is_none());
        let long = format!(
            "{}bash: jq: command not found\n{}",
            "line\n".repeat(40),
            "x\n".repeat(40)
        );
        assert!(could_not_start(&long, Some(1)).is_none());
        assert!(could_not_start("bash: line 1: pytest: command not found\n", Some(0)).is_none());
    }
}
