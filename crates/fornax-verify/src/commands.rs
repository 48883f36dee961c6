//! Command recognition: which shell commands are test, build or lint runs, through the wrappers
//! people put around them, and whether a test run selected a subset of the suite.
//!
//! Everything works on [`Invocation`]s (see [`fornax_types::shell::parse_invocations`]).
//! Wrappers that merely launch another program (`bash -c`, `env`, `npx`, `uv run`,
//! `python -m`, ...) are unwrapped first ([`effective_invocations`]); wrappers that name a task
//! (`make test`, `npm run lint`, `just build`, `tox`) are classified by the task's name.

use fornax_types::shell::parse_invocations;
use fornax_types::{Connector, Invocation};

pub(crate) mod filters;
mod launchers;
pub(crate) mod wrappers;

pub use launchers::effective_invocations;
use wrappers::classify_script_path;
pub use wrappers::script_kind;

/// What a command is for, as far as claims are concerned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CommandKind {
    Test,
    Build,
    Lint,
    Other,
}

impl CommandKind {
    pub fn as_str(self) -> &'static str {
        match self {
            CommandKind::Test => "test",
            CommandKind::Build => "build",
            CommandKind::Lint => "lint",
            CommandKind::Other => "other",
        }
    }
}

/// The classification of one command line (or one invocation in it).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandClass {
    pub kind: CommandKind,
    /// A stable tool id (`cargo-test`, `pytest`, `clippy`, `npm:lint`, `make:test`, ...).
    pub tool: Option<String>,
    /// The run selected a subset of the suite (a filter, a package, a path).
    pub filtered: bool,
    /// The tool is a task runner or script whose real program is not visible here
    /// (`make test`, `npm run lint`, `./scripts/test.sh`).
    pub wrapper: bool,
}

impl CommandClass {
    pub(crate) fn other() -> Self {
        CommandClass {
            kind: CommandKind::Other,
            tool: None,
            filtered: false,
            wrapper: false,
        }
    }

    pub(crate) fn wrapped(kind: CommandKind, tool: String, filtered: bool) -> Self {
        CommandClass {
            kind,
            tool: Some(tool),
            filtered,
            wrapper: true,
        }
    }
}

/// Classifies a whole command line: the most significant recognised invocation wins
/// (test over lint over build), so that `cargo build && cargo test` reads as a test run.
pub fn classify(invocations: &[Invocation]) -> CommandClass {
    classify_each(invocations)
        .into_iter()
        .map(|(_, class)| class)
        .min_by_key(|c| c.kind)
        .unwrap_or_else(CommandClass::other)
}

/// Parses and classifies a command line.
pub fn classify_command(command: &str) -> CommandClass {
    classify(&parse_invocations(command))
}

/// Classifies every invocation of a command line after unwrapping launchers; only recognised
/// (non-`Other`) invocations are returned, with their index in [`effective_invocations`].
pub fn classify_each(invocations: &[Invocation]) -> Vec<(usize, CommandClass)> {
    effective_invocations(invocations)
        .iter()
        .enumerate()
        .map(|(i, inv)| (i, classify_invocation(inv)))
        .filter(|(_, c)| c.kind != CommandKind::Other)
        .collect()
}

/// The base name of a program path, without a Windows `.exe`/`.cmd` suffix.
pub fn base_name(program: &str) -> &str {
    let name = program.rsplit(['/', '\\']).next().unwrap_or(program);
    for suffix in [".exe", ".cmd", ".bat"] {
        if let Some(stripped) = name.strip_suffix(suffix) {
            return stripped;
        }
    }
    name
}

/// Classifies one (already unwrapped) invocation: the tool table's entry for it, else a
/// script path named for its purpose (`./scripts/test.sh`).
pub fn classify_invocation(inv: &Invocation) -> CommandClass {
    crate::tools::classify(inv).unwrap_or_else(|| classify_script_path(&inv.program))
}

/// Whether the exit status of the whole line reflects the invocation at `index` (an index into
/// `invocations` as given): false when its output is piped onward, when `||` or `;` follows it,
/// or when it runs in the background. `&&` keeps the status meaningful: a later command only runs
/// after this one succeeded.
pub fn exit_reflects(invocations: &[Invocation], index: usize) -> bool {
    let Some(tail) = invocations.get(index..) else {
        return false;
    };
    let last = tail.len().saturating_sub(1);
    tail.iter().enumerate().all(|(i, inv)| {
        if i == last {
            !matches!(inv.then, Some(Connector::Background))
        } else {
            matches!(inv.then, Some(Connector::And))
        }
    })
}

/// Whether a claimed command names the invocations of an actual command line: every claimed
/// invocation matches some actual invocation with the same program whose arguments contain the
/// claimed ones in order (`cargo test` names `cd x && cargo test --workspace`).
pub fn names_command(claimed: &str, actual: &[Invocation]) -> bool {
    let claimed = effective_invocations(&parse_invocations(claimed));
    let claimed: Vec<&Invocation> = claimed.iter().filter(|i| i.program != "cd").collect();
    if claimed.is_empty() {
        return false;
    }
    let actual = effective_invocations(actual);
    claimed.iter().all(|c| {
        actual.iter().any(|a| {
            base_name(&a.program) == base_name(&c.program) && is_subsequence(&c.argv, &a.argv)
        })
    })
}

fn is_subsequence(needle: &[String], hay: &[String]) -> bool {
    let mut it = hay.iter();
    needle
        .iter()
        .all(|n| it.any(|h| h == n || normalize_arg(h) == normalize_arg(n) || same_path_arg(n, h)))
}

/// A file argument written as the agent names it (`system-prompt.ts`) and as the command ran
/// it (`~/code/app/src/system-prompt.ts`) is the same argument.
fn same_path_arg(claimed: &str, ran: &str) -> bool {
    let pathy = |a: &str| !a.starts_with('-') && a.contains(['.', '/']) && !a.contains('=');
    pathy(claimed) && pathy(ran) && crate::paths::same_file(claimed, ran)
}

fn normalize_arg(a: &str) -> &str {
    a.trim_start_matches("./").trim_end_matches('/')
}

/// Whether a string plausibly is a shell command (for spans such as `` `npm test` ``).
pub fn looks_like_command(text: &str) -> bool {
    let t = text.trim();
    if t.is_empty() || t.len() > 300 || t.starts_with('-') {
        return false;
    }
    let invs = parse_invocations(t);
    let Some(first) = invs.iter().find(|i| i.program != "cd") else {
        return false;
    };
    if classify_command(t).kind != CommandKind::Other {
        return true;
    }
    let program = base_name(&first.program);
    if KNOWN_PROGRAMS.contains(&program)
        || crate::tools::known_program(program)
        || first.program.starts_with("./") && !first.argv.is_empty()
    {
        return true;
    }
    // An unknown program with plain arguments (`alembic upgrade head`, `terraform plan`), but
    // not prose or code (`the fix`, `x = 1`, `foo(bar)`).
    let word = |w: &str| {
        !w.is_empty()
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || "-./:@_=,+%^~*".contains(c))
    };
    invs.len() == 1
        && t.len() <= 80
        && !first.argv.is_empty()
        && first.argv.len() <= 6
        && program.len() >= 2
        && program
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_lowercase())
        && program
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-_.".contains(c))
        && first
            .argv
            .iter()
            .all(|a| word(a) && a != "=" && !a.contains("=>"))
        && !ENGLISH.contains(&program)
}

/// Words that start prose, not commands.
const ENGLISH: &[&str] = &[
    "the", "a", "an", "and", "or", "to", "is", "in", "of", "for", "on", "at", "by", "with", "it",
    "this", "that", "fix", "add", "use", "set", "get", "new", "old", "not", "no", "if", "else",
    "let", "const", "var", "return", "see", "all", "any", "each", "some", "one", "two", "when",
    "then", "from", "into", "as", "be", "do", "does", "has", "have", "was", "were", "are", "i",
    "we", "you", "they", "my", "our", "fn", "def", "pub", "impl", "type", "struct", "class",
    "import", "export", "select", "insert", "update", "delete", "where",
];

const KNOWN_PROGRAMS: &[&str] = &[
    "cargo",
    "rustc",
    "rustup",
    "go",
    "gofmt",
    "npm",
    "npx",
    "pnpm",
    "yarn",
    "bun",
    "bunx",
    "deno",
    "node",
    "python",
    "python3",
    "pip",
    "pip3",
    "uv",
    "uvx",
    "poetry",
    "pipenv",
    "pytest",
    "tox",
    "nox",
    "ruff",
    "black",
    "mypy",
    "flake8",
    "pylint",
    "make",
    "just",
    "cmake",
    "ctest",
    "git",
    "gh",
    "docker",
    "kubectl",
    "mvn",
    "gradle",
    "dotnet",
    "ruby",
    "bundle",
    "rake",
    "rails",
    "rspec",
    "php",
    "composer",
    "phpunit",
    "swift",
    "mix",
    "jest",
    "vitest",
    "mocha",
    "tsc",
    "eslint",
    "prettier",
    "ls",
    "cat",
    "grep",
    "rg",
    "sed",
    "awk",
    "curl",
    "valgrind",
    "helm",
    "terraform",
    "ktlint",
    "golangci-lint",
    "clippy",
    "sh",
    "bash",
    "zsh",
    "echo",
    "find",
    "sqlite3",
    "psql",
    "java",
    "javac",
    "kotlinc",
    "clang",
    "gcc",
    "zig",
    "nix",
    "brew",
    "apt",
    "apt-get",
];

#[cfg(test)]
mod tests;
