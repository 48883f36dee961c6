//! Command identity: an invocation normalised to its tool, the arguments that decide what it
//! runs, and whether it selected a subset; and the coverage relation between a claimed
//! command and a run.
//!
//! Output-only arguments (verbosity, colour, `--nocapture`, `2>&1`, a pipe into `tail`, a
//! redirection, `cd x &&`, `timeout`, launchers) do not change identity: `pytest -q 2>&1 | tail`
//! is the same run as `pytest`. Arguments naming everything (`./...`, `tests/`, `--workspace`)
//! widen or keep the whole suite. Anything else is part of what the command runs:
//! `pytest --runslow` is a different invocation from `pytest`.

use fornax_types::shell::parse_invocations;
use fornax_types::{ClaimScope, Invocation, ScopeUnit};

use crate::commands::{classify_invocation, effective_invocations, CommandKind};

/// A normalised invocation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Identity {
    /// The tool id (`cargo-test`, `npm:build`), or the program's name when the table does not
    /// know it.
    pub tool: String,
    pub kind: CommandKind,
    /// The run selected a subset of what the tool checks.
    pub filtered: bool,
    /// Arguments that decide what runs, normalised, in order (output-only ones left out).
    pub args: Vec<String>,
    /// Arguments that only widen the run (`--workspace`, `--all-features`).
    pub widening: Vec<String>,
}

/// How a run relates to a claimed command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coverage {
    /// The same invocation (output handling aside).
    Same,
    /// The run covers the claimed command and more (`pytest` for `pytest tests/a.py`).
    Covers,
    /// The run selected part of what the claimed command runs (`pytest -k x` for `pytest`).
    Narrower,
    /// Another tool, script, target or selection.
    Different,
}

/// Arguments that change how output looks or how fast a run goes, never what it runs.
const NEUTRAL: &[&str] = &[
    "-q",
    "-qq",
    "--quiet",
    "-v",
    "-vv",
    "-vvv",
    "--verbose",
    "-s",
    "--nocapture",
    "--no-capture",
    "--show-output",
    "-x",
    "--exitfirst",
    "--no-header",
    "-rA",
    "-ra",
    "-rf",
    "--color",
    "--colour",
    "--no-color",
    "--ci",
    "--runInBand",
    "-i",
    "--silent",
    "--locked",
    "--frozen",
    "--offline",
    "--release",
    "-r",
    "--no-fail-fast",
    "--fail-fast",
    "--coverage",
    "--watchAll=false",
    "--no-watch",
    "--run",
    "run",
    "--passWithNoTests",
    "--",
    "-race",
    "-count=1",
    "-v=1",
    "--no-cache",
    "--cache-clear",
    "-p",
    "no:cacheprovider",
    "--tb=short",
    "--tb=line",
    "--tb=no",
    "--tb=long",
    "--durations=0",
    "--test-threads=1",
    "--noEmit",
    "--pretty",
    "--format",
    "pretty",
    "--quiet=true",
    "--progress",
    "plain",
    "--no-progress",
    "-D",
    "warnings",
    "--all-targets",
    "--verbose=false",
    "--output-on-failure",
];

/// Prefixes of valued output options (`--color=always`, `--reporter=dot`, `-j4`).
const NEUTRAL_PREFIXES: &[&str] = &[
    "--color=",
    "--colour=",
    "--tb=",
    "--reporter=",
    "--reporters=",
    "-j",
    "--jobs=",
    "--durations=",
    "--timeout=",
    "--test-threads=",
    "-n=",
    "--maxfail=",
    "--maxWorkers=",
    "-timeout=",
    "-parallel=",
    "--message-format=",
    "--format=",
    "--outputFile=",
];

/// Arguments that select everything, or more than the default.
const WIDENING: &[&str] = &[
    "--workspace",
    "--all",
    "--all-features",
    "--include-ignored",
    "--all-files",
    "./...",
    "...",
    ".",
    "--run-ignored=all",
];

/// Selections that may run tests the default run leaves out (a pytest marker, cargo's ignored
/// tests, build tags, features): a run with one is a different invocation, never a narrower one,
/// since the claimed command may not run those tests at all.
const OTHER_SELECTION: &[&str] = &[
    "-m",
    "--runslow",
    "--run-slow",
    "--ignored",
    "--only-ignored",
    "-tags",
    "--tags",
    "--features",
    "-F",
    "--project",
    "--profile",
    "-P",
];

fn selects_other(identity: &Identity, than: &Identity) -> bool {
    identity.args.iter().any(|a| {
        let flag = a.split_once('=').map_or(a.as_str(), |(f, _)| f);
        OTHER_SELECTION.contains(&flag) && !than.args.contains(a)
    })
}

fn normalise(arg: &str) -> String {
    let a = arg.trim_start_matches("./");
    let a = a.strip_suffix('/').unwrap_or(a);
    if a.is_empty() {
        ".".to_string()
    } else {
        a.to_string()
    }
}

fn is_suite_root(a: &str) -> bool {
    matches!(
        a,
        "." | "test" | "tests" | "spec" | "specs" | "src" | "__tests__"
    )
}

/// The identity of one (unwrapped) invocation.
pub fn identify(inv: &Invocation) -> Identity {
    let class = classify_invocation(inv);
    let program = crate::commands::base_name(&inv.program).to_string();
    let tool = class.tool.clone().unwrap_or_else(|| program.clone());
    // The words naming the tool or task are part of its id, not of its arguments.
    let skip = leading_words(&tool, &inv.argv);
    let mut args = Vec::new();
    let mut widening = Vec::new();
    for a in inv.argv.iter().skip(skip) {
        let n = normalise(a);
        if NEUTRAL.contains(&a.as_str()) || NEUTRAL_PREFIXES.iter().any(|p| a.starts_with(p)) {
            continue;
        }
        if WIDENING.contains(&n.as_str()) || is_suite_root(&n) {
            widening.push(n);
            continue;
        }
        args.push(n);
    }
    Identity {
        tool,
        kind: class.kind,
        filtered: class.filtered,
        args,
        widening,
    }
}

/// How many leading arguments name the subcommand or task (`test` in `cargo test`, `run
/// build` in `npm run build`).
fn leading_words(tool: &str, argv: &[String]) -> usize {
    let task = tool.split_once(':').map(|(_, t)| t);
    let mut n = 0;
    for a in argv.iter().take(3) {
        let is_word = matches!(
            a.as_str(),
            "test"
                | "t"
                | "run"
                | "run-script"
                | "nextest"
                | "build"
                | "check"
                | "clippy"
                | "fmt"
                | "vet"
                | "exec"
                | "x"
                | "task"
                | "b"
                | "c"
        ) || task == Some(a.as_str());
        if is_word {
            n += 1;
        } else {
            break;
        }
    }
    n
}

/// The main invocation of a command line: its first recognised one, else its first that is
/// not a `cd`.
pub fn main_invocation(command: &str) -> Option<Invocation> {
    let invs = effective_invocations(&parse_invocations(command));
    invs.iter()
        .find(|i| classify_invocation(i).kind != CommandKind::Other)
        .or_else(|| invs.iter().find(|i| i.program != "cd"))
        .cloned()
}

/// How `run` relates to `claimed`.
pub fn coverage(claimed: &Identity, run: &Identity) -> Coverage {
    let same_tool = claimed.tool == run.tool
        || (claimed.kind != CommandKind::Other
            && super::family_of(&claimed.tool) == super::family_of(&run.tool)
            && !claimed.tool.contains(':')
            && !run.tool.contains(':'));
    if !same_tool {
        return Coverage::Different;
    }
    let contains = |big: &[String], small: &[String]| small.iter().all(|s| big.contains(s));
    if selects_other(run, claimed) || selects_other(claimed, run) {
        return Coverage::Different;
    }
    if claimed.args == run.args {
        return if run.widening.iter().any(|w| !claimed.widening.contains(w)) {
            Coverage::Covers
        } else {
            Coverage::Same
        };
    }
    if run.filtered && !claimed.filtered && contains(&run.args, &claimed.args) {
        return Coverage::Narrower;
    }
    if claimed.filtered && !run.filtered && contains(&claimed.args, &run.args) {
        return Coverage::Covers;
    }
    Coverage::Different
}

/// The scope a filtered claimed command selects (`pytest tests/test_a.py` is the file, `cargo
/// test -p geo` the package `geo`, `go test ./internal/route` the package `route`), when its
/// selection names one.
pub fn selected_scope(identity: &Identity) -> Option<ClaimScope> {
    if !identity.filtered {
        return None;
    }
    let mut it = identity.args.iter();
    while let Some(a) = it.next() {
        let value = |it: &mut std::slice::Iter<'_, String>| it.next().cloned();
        let named = |unit, name: String| ClaimScope::Named { unit, name };
        match a.as_str() {
            "-p" | "--package" => return value(&mut it).map(|v| named(ScopeUnit::Package, v)),
            "-k" | "-t" | "--filter" | "-run" | "--testNamePattern" | "--grep" | "-g"
            | "--tests" => {
                return value(&mut it).map(|v| named(ScopeUnit::Test, v));
            }
            _ if a.starts_with('-') => continue,
            _ => {
                let path = a.split("::").next().unwrap_or(a);
                let file = path.rsplit('/').next().unwrap_or(path);
                if a.contains("::") {
                    return Some(named(ScopeUnit::Test, a.clone()));
                }
                if file.contains('.') {
                    return Some(named(ScopeUnit::File, path.to_string()));
                }
                if identity.tool == "go-test" || identity.tool == "cargo-test" {
                    return Some(named(ScopeUnit::Package, file.to_string()));
                }
                return Some(named(ScopeUnit::Module, path.to_string()));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(command: &str) -> Identity {
        identify(&main_invocation(command).unwrap())
    }

    #[test]
    fn coverage_relation() {
        use Coverage::*;
        let cases = [
            ("pytest", "pytest -q 2>&1 | tail -5", Same),
            ("pytest", "cd api && timeout 600 uv run pytest -x", Same),
            ("pytest", "pytest --runslow", Different),
            ("pytest", "pytest -m slow", Different),
            ("pytest -m slow", "pytest -m slow -q", Same),
            ("cargo test", "cargo test -- --ignored", Different),
            ("pytest", "pytest -k refund", Narrower),
            ("pytest", "pytest -k parser", Narrower),
            ("pytest tests/test_api.py", "pytest", Covers),
            (
                "pytest tests/test_api.py",
                "pytest tests/test_rates.py",
                Different,
            ),
            ("npm run build", "npm run build:docs", Different),
            ("npm run build", "npm run build > build.log 2>&1", Same),
            ("npm test", "npm test -- --coverage", Same),
            ("npm test", "npm test -- -t totals", Narrower),
            ("cargo test", "cargo test --workspace", Covers),
            ("cargo test", "cargo test -p geo", Narrower),
            ("cargo test", "cargo nextest run", Same),
            ("go test ./...", "go test ./internal/route/", Narrower),
            ("go test ./...", "go test -race -count=1 ./...", Same),
            ("make test", "make lint", Different),
            ("cargo build", "cargo build --release", Same),
            ("pytest tests/unit", "python -m pytest tests/unit -q", Same),
            ("pytest", "python3 -m pytest -q", Same),
            (
                "pytest tests/unit",
                "python -m pytest tests/integration",
                Different,
            ),
            ("python -m pytest -m slow", "pytest -m slow", Same),
        ];
        let mut failures = Vec::new();
        for (claimed, run, want) in cases {
            let got = coverage(&id(claimed), &id(run));
            if got != want {
                failures.push(format!(
                    "{claimed:?} vs {run:?}: want {want:?}, got {got:?}"
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn scopes_of_filtered_commands() {
        let s = |c: &str| selected_scope(&id(c));
        assert_eq!(
            s("pytest tests/test_api.py"),
            Some(ClaimScope::Named {
                unit: ScopeUnit::File,
                name: "tests/test_api.py".into()
            })
        );
        assert_eq!(
            s("cargo test -p geo_core"),
            Some(ClaimScope::Named {
                unit: ScopeUnit::Package,
                name: "geo_core".into()
            })
        );
        assert_eq!(
            s("go test ./internal/route/"),
            Some(ClaimScope::Named {
                unit: ScopeUnit::Package,
                name: "route".into()
            })
        );
        assert_eq!(s("pytest"), None);
    }
}
