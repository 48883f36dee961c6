//! Command recognition: which shell commands are test, build or lint runs, through the wrappers
//! people put around them, and whether a test run selected a subset of the suite.
//!
//! Everything works on [`Invocation`]s (see [`fornax_types::shell::parse_invocations`]).
//! Wrappers that merely launch another program (`bash -c`, `env`, `npx`, `uv run`,
//! `python -m`, ...) are unwrapped first ([`effective_invocations`]); wrappers that name a task
//! (`make test`, `npm run lint`, `just build`, `tox`) are classified by the task's name.

use fornax_types::shell::parse_invocations;
use fornax_types::{Connector, Invocation};

mod filters;
mod launchers;
mod wrappers;

use filters::*;
pub use launchers::effective_invocations;
pub use wrappers::script_kind;
use wrappers::*;

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
    fn other() -> Self {
        CommandClass {
            kind: CommandKind::Other,
            tool: None,
            filtered: false,
            wrapper: false,
        }
    }

    fn direct(kind: CommandKind, tool: &str, filtered: bool) -> Self {
        CommandClass {
            kind,
            tool: Some(tool.to_string()),
            filtered,
            wrapper: false,
        }
    }

    fn wrapped(kind: CommandKind, tool: String, filtered: bool) -> Self {
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

/// Classifies one (already unwrapped) invocation.
pub fn classify_invocation(inv: &Invocation) -> CommandClass {
    let program = base_name(&inv.program);
    let args: Vec<&str> = inv.argv.iter().map(String::as_str).collect();
    let sub = args.first().copied().unwrap_or("");
    use CommandKind::*;
    match program {
        "cargo" => classify_cargo(&args),
        "cargo-nextest" => CommandClass::direct(Test, "nextest", nextest_filtered(&args)),
        "go" => match sub {
            "test" => CommandClass::direct(Test, "go-test", go_test_filtered(&args[1..])),
            "build" | "install" => CommandClass::direct(Build, "go-build", false),
            "vet" => CommandClass::direct(Lint, "go-vet", false),
            _ => CommandClass::other(),
        },
        "golangci-lint" | "staticcheck" | "revive" | "errcheck" => {
            CommandClass::direct(Lint, program, false)
        }
        "gofmt" if args.iter().any(|a| *a == "-l" || *a == "-d") => {
            CommandClass::direct(Lint, "gofmt", false)
        }
        "pytest" | "py.test" => CommandClass::direct(Test, "pytest", pytest_filtered(&args)),
        "unittest" => CommandClass::direct(
            Test,
            "unittest",
            args.iter().any(|a| !a.starts_with('-') && *a != "discover"),
        ),
        "tox" => CommandClass::wrapped(Test, "tox".into(), posargs_filtered(&args)),
        "nox" => {
            let lint = args
                .iter()
                .any(|a| a.contains("lint") || a.contains("typing") || a.contains("mypy"));
            CommandClass::wrapped(
                if lint { Lint } else { Test },
                "nox".into(),
                posargs_filtered(&args),
            )
        }
        "jest" => CommandClass::direct(Test, "jest", js_runner_filtered(&args, &[])),
        "vitest" => {
            if sub == "bench" {
                return CommandClass::other();
            }
            let filtered = sub == "related" || js_runner_filtered(&args, &["run", "watch", "dev"]);
            CommandClass::direct(Test, "vitest", filtered)
        }
        "mocha" | "ava" | "tap" | "jasmine" | "karma" | "c8" | "nyc" => {
            CommandClass::direct(Test, program, js_runner_filtered(&args, &["start", "run"]))
        }
        "playwright" | "cypress" if matches!(sub, "test" | "run") => {
            CommandClass::direct(Test, program, js_runner_filtered(&args[1..], &[]))
        }
        "bun" => classify_bun(&args),
        "deno" if sub == "task" => classify_script_name(
            "deno",
            args.get(1).copied().unwrap_or(""),
            args.get(2..).unwrap_or(&[]),
        ),
        "hatch" | "pdm" | "rye" | "poetry" if sub == "run" => {
            let name = args.get(1).copied().unwrap_or("");
            classify_script_name(program, name, args.get(2..).unwrap_or(&[]))
        }
        "turbo" => {
            let name = if sub == "run" {
                args.get(1).copied().unwrap_or("")
            } else {
                sub
            };
            classify_script_name("turbo", name, &[])
        }
        "lerna" if sub == "run" => {
            classify_script_name("lerna", args.get(1).copied().unwrap_or(""), &[])
        }
        "nx" => {
            let target = match sub {
                "run" => args
                    .get(1)
                    .map(|t| t.rsplit(':').next().unwrap_or(t))
                    .unwrap_or(""),
                "run-many" | "affected" => args
                    .windows(2)
                    .find(|w| w[0] == "-t" || w[0] == "--target" || w[0] == "--targets")
                    .map(|w| w[1])
                    .unwrap_or(""),
                other => other,
            };
            let mut class = classify_script_name("nx", target, &[]);
            // `nx test app` or `nx affected` runs part of the workspace.
            if class.kind == Test && (sub == "affected" || (sub != "run-many" && args.len() > 1)) {
                class.filtered = true;
            }
            class
        }
        "sbt" => {
            let tasks: Vec<&str> = args
                .iter()
                .copied()
                .filter(|a| !a.starts_with('-'))
                .collect();
            if tasks
                .iter()
                .any(|t| t.starts_with("testOnly") || t.starts_with("testQuick"))
            {
                CommandClass::direct(Test, "sbt", true)
            } else if tasks.iter().any(|t| *t == "test" || t.ends_with("/test")) {
                CommandClass::direct(Test, "sbt", tasks.iter().any(|t| t.ends_with("/test")))
            } else if tasks
                .iter()
                .any(|t| t.contains("scalafmtCheck") || t.contains("scalastyle"))
            {
                CommandClass::direct(Lint, "sbt", false)
            } else if tasks
                .iter()
                .any(|t| *t == "compile" || t.ends_with("/compile") || *t == "package")
            {
                CommandClass::direct(Build, "sbt", false)
            } else {
                CommandClass::other()
            }
        }
        "deno" => match sub {
            "test" => CommandClass::direct(
                Test,
                "deno-test",
                has_flag(&args, &["--filter"]) || positional_count(&args[1..], &[]) > 0,
            ),
            "lint" => CommandClass::direct(Lint, "deno-lint", false),
            "check" => CommandClass::direct(Build, "deno-check", false),
            "fmt" if has_flag(&args, &["--check"]) => CommandClass::direct(Lint, "deno-fmt", false),
            _ => CommandClass::other(),
        },
        "npm" | "pnpm" | "yarn" => classify_package_script(program, &args),
        "rspec" => CommandClass::direct(Test, "rspec", rspec_filtered(&args)),
        "rails" if sub == "test" => {
            CommandClass::direct(Test, "rails-test", positional_count(&args[1..], &[]) > 0)
        }
        "rake" => match sub {
            "test" | "spec" => CommandClass::wrapped(Test, format!("rake:{sub}"), false),
            "rubocop" | "lint" => CommandClass::wrapped(Lint, format!("rake:{sub}"), false),
            _ => CommandClass::other(),
        },
        "rubocop" | "standardrb" => CommandClass::direct(Lint, program, false),
        "phpunit" | "pest" | "paratest" => {
            CommandClass::direct(Test, program, phpunit_filtered(&args))
        }
        "php" if sub == "artisan" && args.get(1) == Some(&"test") => {
            CommandClass::direct(Test, "artisan-test", phpunit_filtered(&args[2..]))
        }
        "phpstan" | "psalm" | "phpcs" | "php-cs-fixer" if !args.contains(&"fix") => {
            CommandClass::direct(Lint, program, false)
        }
        "composer" => classify_package_script("composer", &args),
        "mvn" | "mvnw" => classify_maven(&args),
        "gradle" | "gradlew" => classify_gradle(&args),
        "dotnet" => match sub {
            "test" => CommandClass::direct(Test, "dotnet-test", dotnet_filtered(&args[1..])),
            "build" | "publish" => CommandClass::direct(Build, "dotnet-build", false),
            "format" if has_flag(&args, &["--verify-no-changes"]) => {
                CommandClass::direct(Lint, "dotnet-format", false)
            }
            _ => CommandClass::other(),
        },
        "ctest" => CommandClass::direct(
            Test,
            "ctest",
            has_flag(
                &args,
                &[
                    "-R",
                    "--tests-regex",
                    "-L",
                    "--label-regex",
                    "-E",
                    "--exclude-regex",
                    "-I",
                ],
            ),
        ),
        "cmake" if has_flag(&args, &["--build"]) => {
            if args.iter().any(|a| *a == "test" || *a == "check") {
                CommandClass::direct(Test, "cmake-test", false)
            } else {
                CommandClass::direct(Build, "cmake-build", false)
            }
        }
        "ninja" | "msbuild" | "xcodebuild" => {
            if args.contains(&"test") {
                CommandClass::direct(Test, program, false)
            } else {
                CommandClass::direct(Build, program, false)
            }
        }
        "meson" => match sub {
            "test" => CommandClass::direct(
                Test,
                "meson-test",
                positional_count(&args[1..], &["-C"]) > 0,
            ),
            "compile" => CommandClass::direct(Build, "meson-compile", false),
            _ => CommandClass::other(),
        },
        "make" | "gmake" | "just" | "task" | "mage" => classify_task(program, &args),
        "swift" => match sub {
            "test" => {
                CommandClass::direct(Test, "swift-test", has_flag(&args, &["--filter", "--skip"]))
            }
            "build" => CommandClass::direct(Build, "swift-build", false),
            _ => CommandClass::other(),
        },
        "mix" => match sub {
            "test" => CommandClass::direct(Test, "mix-test", positional_count(&args[1..], &[]) > 0),
            "compile" => CommandClass::direct(Build, "mix-compile", false),
            "credo" | "dialyzer" => CommandClass::direct(Lint, "mix-credo", false),
            "format" if has_flag(&args, &["--check-formatted"]) => {
                CommandClass::direct(Lint, "mix-format", false)
            }
            _ => CommandClass::other(),
        },
        "stack" | "cabal" => match sub {
            "test" => CommandClass::direct(Test, "haskell-test", false),
            "build" => CommandClass::direct(Build, "haskell-build", false),
            _ => CommandClass::other(),
        },
        "zig" if sub == "build" => {
            if args.contains(&"test") {
                CommandClass::direct(Test, "zig-test", false)
            } else {
                CommandClass::direct(Build, "zig-build", false)
            }
        }
        "dart" | "flutter" => match sub {
            "test" => {
                CommandClass::direct(Test, "dart-test", positional_count(&args[1..], &[]) > 0)
            }
            "analyze" => CommandClass::direct(Lint, "dart-analyze", false),
            "build" | "compile" => CommandClass::direct(Build, "dart-build", false),
            _ => CommandClass::other(),
        },
        "tsc" | "vue-tsc" | "svelte-check" | "tsgo" => CommandClass::direct(Build, program, false),
        "webpack" | "esbuild" | "rollup" | "parcel" | "tsup" => {
            CommandClass::direct(Build, program, false)
        }
        "vite" | "next" | "nuxt" | "astro" if sub == "build" => {
            CommandClass::direct(Build, program, false)
        }
        "gcc" | "g++" | "cc" | "c++" | "clang" | "clang++" | "rustc" | "javac" | "kotlinc" => {
            CommandClass::direct(Build, program, false)
        }
        // With `--fix` a linter still reports (and exits on) what it could not fix.
        "eslint" | "stylelint" | "tslint" | "oxlint" | "standard" | "xo" | "jshint" => {
            CommandClass::direct(Lint, program, false)
        }
        "prettier" if has_flag(&args, &["--check", "-c", "--list-different", "-l"]) => {
            CommandClass::direct(Lint, "prettier", false)
        }
        "biome"
            if matches!(sub, "check" | "lint" | "ci")
                && !has_flag(&args, &["--write", "--apply", "--fix"]) =>
        {
            CommandClass::direct(Lint, "biome", false)
        }
        "ruff" => match sub {
            "format" if has_flag(&args, &["--check", "--diff"]) => {
                CommandClass::direct(Lint, "ruff-format", false)
            }
            "format" => CommandClass::other(),
            _ => CommandClass::direct(Lint, "ruff", false),
        },
        "black" | "isort" if has_flag(&args, &["--check", "--diff", "--check-only", "-c"]) => {
            CommandClass::direct(Lint, program, false)
        }
        "flake8" | "pylint" | "pyflakes" | "pycodestyle" | "pydocstyle" | "bandit" | "vulture" => {
            CommandClass::direct(Lint, program, false)
        }
        "mypy" | "dmypy" | "pyright" | "basedpyright" | "pytype" | "pyre" | "ty" => {
            CommandClass::direct(
                Lint,
                if program == "dmypy" { "mypy" } else { program },
                false,
            )
        }
        "pre-commit" if sub == "run" || sub.is_empty() => {
            CommandClass::direct(Lint, "pre-commit", false)
        }
        "ktlint" | "detekt" | "swiftlint" | "shellcheck" | "hadolint" | "clang-tidy"
        | "cppcheck" | "markdownlint" | "markdownlint-cli2" | "yamllint" | "actionlint"
        | "cpplint" | "tflint" | "luacheck" | "checkstyle" => {
            CommandClass::direct(Lint, program, false)
        }
        "clang-format" if has_flag(&args, &["--dry-run", "-n"]) => {
            CommandClass::direct(Lint, program, false)
        }
        "rustfmt" if has_flag(&args, &["--check"]) => CommandClass::direct(Lint, "rustfmt", false),
        _ => classify_script_path(&inv.program),
    }
}

fn classify_cargo(args: &[&str]) -> CommandClass {
    use CommandKind::*;
    // Skip toolchain selectors and global options before the subcommand.
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if a.starts_with('+') || (a.starts_with('-') && !a.starts_with("--manifest")) {
            i += if matches!(*a, "-C" | "--config" | "-Z") {
                2
            } else {
                1
            };
        } else {
            break;
        }
    }
    let sub = args.get(i).copied().unwrap_or("");
    let rest = args.get(i + 1..).unwrap_or(&[]);
    match sub {
        "test" | "t" => CommandClass::direct(Test, "cargo-test", cargo_test_filtered(rest)),
        "nextest" if rest.first() == Some(&"run") => {
            CommandClass::direct(Test, "nextest", nextest_filtered(&rest[1..]))
        }
        "llvm-cov" | "tarpaulin" | "miri" if !rest.contains(&"report") => {
            CommandClass::direct(Test, "cargo-test", cargo_test_filtered(rest))
        }
        "insta" if rest.first() == Some(&"test") => {
            CommandClass::direct(Test, "cargo-test", cargo_test_filtered(&rest[1..]))
        }
        "build" | "b" => CommandClass::direct(Build, "cargo-build", false),
        "check" | "c" => CommandClass::direct(Build, "cargo-check", false),
        "clippy" => {
            if has_flag(rest, &["--fix"]) {
                CommandClass::other()
            } else {
                CommandClass::direct(Lint, "clippy", false)
            }
        }
        "fmt" if has_flag(rest, &["--check"]) => CommandClass::direct(Lint, "rustfmt", false),
        "deny" | "audit" | "machete" => CommandClass::direct(Lint, "cargo-lint", false),
        "make" => classify_task("cargo-make", rest),
        _ => CommandClass::other(),
    }
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
        .all(|n| it.any(|h| h == n || normalize_arg(h) == normalize_arg(n)))
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
