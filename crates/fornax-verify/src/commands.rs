//! Command recognition: which shell commands are test, build or lint runs, through the wrappers
//! people put around them, and whether a test run selected a subset of the suite.
//!
//! Everything works on [`Invocation`]s (see [`fornax_types::shell::parse_invocations`]).
//! Wrappers that merely launch another program (`bash -c`, `env`, `npx`, `uv run`,
//! `python -m`, ...) are unwrapped first ([`effective_invocations`]); wrappers that name a task
//! (`make test`, `npm run lint`, `just build`, `tox`) are classified by the task's name.

use fornax_types::shell::parse_invocations;
use fornax_types::{Connector, Invocation};

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

const MAX_UNWRAP_DEPTH: usize = 4;

/// The invocations that actually run, with launchers removed: `bash -lc "cd x && cargo test"`
/// becomes `cd x`, `cargo test`; `uv run pytest` becomes `pytest`; `python -m pytest` becomes
/// `pytest`. Program names are reduced to their base name.
pub fn effective_invocations(invocations: &[Invocation]) -> Vec<Invocation> {
    let mut out = Vec::new();
    for inv in invocations {
        unwrap_into(inv, 0, &mut out);
    }
    out
}

fn unwrap_into(inv: &Invocation, depth: usize, out: &mut Vec<Invocation>) {
    let mut inv = inv.clone();
    inv.program = base_name(&inv.program).to_string();
    if depth >= MAX_UNWRAP_DEPTH {
        out.push(inv);
        return;
    }
    // `bash -lc "script"`: the script is a command line of its own.
    if matches!(
        inv.program.as_str(),
        "bash" | "sh" | "zsh" | "dash" | "fish"
    ) {
        if let Some(pos) = inv.argv.iter().position(|a| is_shell_c_flag(a)) {
            if let Some(script) = inv.argv.get(pos + 1) {
                let inner = parse_invocations(script);
                let last = inner.len().saturating_sub(1);
                for (i, mut sub) in inner.into_iter().enumerate() {
                    if sub.cwd.is_none() {
                        sub.cwd = inv.cwd.clone();
                    }
                    if i == last {
                        // The script's last command inherits how the outer one connects.
                        sub.then = inv.then;
                        sub.redirects_to.extend(inv.redirects_to.iter().cloned());
                    }
                    unwrap_into(&sub, depth + 1, out);
                }
                return;
            }
        }
    }
    if let Some(inner) = launcher_target(&inv) {
        unwrap_into(&inner, depth + 1, out);
        return;
    }
    out.push(inv);
}

fn is_shell_c_flag(arg: &str) -> bool {
    arg.starts_with('-') && !arg.starts_with("--") && arg.contains('c')
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

/// For a launcher (a program that runs another program given in its arguments), the launched
/// invocation.
fn launcher_target(inv: &Invocation) -> Option<Invocation> {
    let args = &inv.argv;
    let rest_from = |start: usize| -> Option<Invocation> {
        let program = args.get(start)?.clone();
        Some(Invocation {
            program,
            argv: args
                .get(start + 1..)
                .map(<[String]>::to_vec)
                .unwrap_or_default(),
            env: inv.env.clone(),
            cwd: inv.cwd.clone(),
            redirects_to: inv.redirects_to.clone(),
            then: inv.then,
        })
    };
    // Index of the first argument that is not an option (options with a value are listed).
    let first_positional = |start: usize, valued: &[&str]| -> Option<usize> {
        let mut i = start;
        while let Some(a) = args.get(i) {
            if a == "--" {
                return Some(i + 1).filter(|&j| j < args.len());
            }
            if a.starts_with('-') {
                i += if valued.contains(&a.as_str()) { 2 } else { 1 };
                continue;
            }
            return Some(i);
        }
        None
    };
    match inv.program.as_str() {
        "env" => {
            let mut i = 0;
            while let Some(a) = args.get(i) {
                if a.starts_with('-') || a.contains('=') {
                    i += if a == "-u" || a == "-C" { 2 } else { 1 };
                } else {
                    break;
                }
            }
            rest_from(i)
        }
        "time" | "nohup" | "command" | "exec" | "sudo" | "stdbuf" | "caffeinate" | "xvfb-run"
        | "unbuffer" => {
            first_positional(0, &["-u", "-n", "-p", "-o", "-e", "-i", "-s"]).and_then(rest_from)
        }
        "nice" => first_positional(0, &["-n"]).and_then(rest_from),
        "timeout" | "gtimeout" => {
            // timeout [options] DURATION COMMAND...
            let duration = first_positional(0, &["-s", "-k", "--signal", "--kill-after"])?;
            rest_from(duration + 1)
        }
        "npx" | "bunx" | "pnpx" => {
            first_positional(0, &["-p", "--package", "-c"]).and_then(rest_from)
        }
        "uvx" => first_positional(0, &["--from", "--with", "-p", "--python"]).and_then(rest_from),
        "dotenv" => first_positional(0, &["-e", "-c", "-v"]).and_then(rest_from),
        "uv" | "poetry" | "pipenv" | "pdm" | "rye" | "hatch"
            if args.first().is_some_and(|a| a == "run") =>
        {
            let valued = [
                "--with",
                "-p",
                "--python",
                "--package",
                "--extra",
                "--group",
                "--env-file",
                "--directory",
                "-e",
                "--env",
                "--project",
                "--from",
            ];
            let i = first_positional(1, &valued)?;
            let inner = rest_from(i)?;
            // `hatch run test`, `pdm run lint` name project scripts, not programs: those are
            // classified by their name (see `classify_invocation`).
            let name = inner.program.rsplit(':').next().unwrap_or(&inner.program);
            let known = KNOWN_PROGRAMS.contains(&base_name(name))
                || classify_invocation(&Invocation {
                    program: name.to_string(),
                    ..inner.clone()
                })
                .kind
                    != CommandKind::Other;
            if matches!(inv.program.as_str(), "hatch" | "pdm" | "rye") && !known {
                return None;
            }
            Some(Invocation {
                program: name.to_string(),
                ..inner
            })
        }
        "npm" if matches!(args.first().map(String::as_str), Some("exec" | "x")) => {
            first_positional(1, &["-p", "--package", "-w", "--workspace"]).and_then(rest_from)
        }
        "docker" | "podman" | "docker-compose" => {
            // docker [compose] run|exec [options] SERVICE|IMAGE COMMAND...
            let mut i = 0;
            if args.get(i).is_some_and(|a| a == "compose") {
                i += 1;
            }
            if !matches!(args.get(i).map(String::as_str), Some("run" | "exec")) {
                return None;
            }
            let valued = [
                "-e",
                "--env",
                "-w",
                "--workdir",
                "-u",
                "--user",
                "-v",
                "--volume",
                "--name",
                "--entrypoint",
                "-p",
                "--publish",
                "--env-file",
                "--network",
                "--platform",
                "-l",
                "--label",
                "--mount",
            ];
            let service = first_positional(i + 1, &valued)?;
            rest_from(service + 1)
        }
        "pnpm" | "yarn" if matches!(args.first().map(String::as_str), Some("exec" | "dlx")) => {
            first_positional(1, &[]).and_then(rest_from)
        }
        "bundle" if args.first().is_some_and(|a| a == "exec") => {
            first_positional(1, &[]).and_then(rest_from)
        }
        "conda" | "mamba" | "micromamba" if args.first().is_some_and(|a| a == "run") => {
            first_positional(1, &["-n", "--name", "-p", "--prefix"]).and_then(rest_from)
        }
        "direnv" if args.first().is_some_and(|a| a == "exec") => {
            // direnv exec DIR COMMAND...
            rest_from(2)
        }
        "nix" if args.first().is_some_and(|a| a == "develop" || a == "shell") => {
            let pos = args.iter().position(|a| a == "-c" || a == "--command")?;
            rest_from(pos + 1)
        }
        p if is_python(p) => {
            let pos = args.iter().position(|a| a == "-m")?;
            // `python -m pytest`: the module acts as the program.
            if args[..pos].iter().any(|a| a.ends_with(".py")) {
                return None;
            }
            rest_from(pos + 1)
        }
        _ => None,
    }
}

fn is_python(program: &str) -> bool {
    program == "python"
        || program == "py"
        || (program.starts_with("python")
            && program[6..].chars().all(|c| c.is_ascii_digit() || c == '.'))
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

/// `cargo test` selects a subset with a positional name filter, a package, a target selector or
/// harness options after `--` that filter.
fn cargo_test_filtered(args: &[&str]) -> bool {
    let (before, after) = split_double_dash(args);
    let valued = [
        "-p",
        "--package",
        "--test",
        "--bench",
        "--bin",
        "--example",
        "--features",
        "-F",
        "-j",
        "--jobs",
        "--target",
        "--target-dir",
        "--manifest-path",
        "--profile",
        "--exclude",
        "--color",
        "--message-format",
        "-Z",
        "--config",
    ];
    let all_packages = has_flag(before, &["--workspace", "--all"]);
    let selects_package = !all_packages && has_flag(before, &["-p", "--package"]);
    let selects_target = has_flag(
        before,
        &[
            "--lib",
            "--bins",
            "--bin",
            "--test",
            "--doc",
            "--example",
            "--examples",
            "--bench",
            "--benches",
        ],
    ) && !has_flag(before, &["--all-targets"]);
    let name_filter = positional_count(before, &valued) > 0;
    let harness_filter = positional_count(
        after,
        &["--skip", "--test-threads", "--format", "-Z", "--color"],
    ) > 0
        || has_flag(after, &["--skip", "--exact", "--ignored"]);
    selects_package || selects_target || name_filter || harness_filter
}

fn nextest_filtered(args: &[&str]) -> bool {
    let (before, after) = split_double_dash(args);
    let valued = [
        "-p",
        "--package",
        "-E",
        "--filter-expr",
        "--profile",
        "-P",
        "--features",
        "-F",
        "--partition",
        "--test-threads",
        "-j",
        "--retries",
        "--target",
        "--manifest-path",
        "--color",
        "--status-level",
        "--final-status-level",
        "--message-format",
    ];
    (has_flag(before, &["-p", "--package"]) && !has_flag(before, &["--workspace", "--all"]))
        || has_flag(
            before,
            &[
                "-E",
                "--filter-expr",
                "--partition",
                "--run-ignored",
                "--lib",
                "--test",
                "--bin",
            ],
        )
        || positional_count(before, &valued) > 0
        || positional_count(after, &[]) > 0
}

/// `go test ./...` is the whole module; a package path, `.` or `-run` selects a subset.
fn go_test_filtered(args: &[&str]) -> bool {
    let valued = [
        "-run",
        "-skip",
        "-count",
        "-timeout",
        "-tags",
        "-p",
        "-parallel",
        "-coverprofile",
        "-covermode",
        "-bench",
        "-benchtime",
        "-cpu",
        "-o",
        "-exec",
        "-ldflags",
        "-gcflags",
        "-mod",
        "-shuffle",
        "-json",
        "-coverpkg",
    ];
    if has_flag(args, &["-run", "-skip"]) {
        return true;
    }
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if let Some(flag) = a.strip_prefix('-') {
            let name = format!(
                "-{}",
                flag.trim_start_matches('-')
                    .split('=')
                    .next()
                    .unwrap_or(flag)
            );
            if name == "-run" || name == "-skip" {
                return true;
            }
            i += if valued.contains(&name.as_str()) && !a.contains('=') {
                2
            } else {
                1
            };
            continue;
        }
        if !(*a == "./..." || *a == "...") {
            return true;
        }
        i += 1;
    }
    false
}

/// Positional paths other than the suite's root directory, `-k`, `-m`, node ids and
/// last-failed modes select a subset of a pytest suite.
fn pytest_filtered(args: &[&str]) -> bool {
    let valued = [
        "-k",
        "-m",
        "-c",
        "-p",
        "-o",
        "-n",
        "--numprocesses",
        "--maxfail",
        "--tb",
        "--rootdir",
        "--cov",
        "--cov-report",
        "--junitxml",
        "--junit-xml",
        "--durations",
        "-W",
        "--log-level",
        "--basetemp",
        "--confcutdir",
        "--ignore",
        "--deselect",
        "--timeout",
        "--dist",
        "-r",
        "--import-mode",
        "--cov-config",
        "--cov-fail-under",
        "--log-cli-level",
        "--html",
        "--count",
        "--reruns",
    ];
    if has_flag(
        args,
        &[
            "-k",
            "-m",
            "--lf",
            "--last-failed",
            "--ff",
            "--sw",
            "--stepwise",
            "--deselect",
            "--ignore",
        ],
    ) {
        return true;
    }
    positional_args(args, &valued)
        .iter()
        .any(|p| !is_suite_root(p))
}

fn is_suite_root(path: &str) -> bool {
    let p = path.trim_start_matches("./").trim_end_matches('/');
    matches!(
        p,
        "" | "." | "test" | "tests" | "spec" | "specs" | "src" | "__tests__" | "testing"
    )
}

/// Arguments passed through to the test runner after `--` (tox, nox).
fn posargs_filtered(args: &[&str]) -> bool {
    let (_, after) = split_double_dash(args);
    !after.is_empty() && pytest_filtered(after)
}

/// jest / vitest / mocha / bun: a name pattern, a grep, or a positional path pattern.
fn js_runner_filtered(args: &[&str], subcommands: &[&str]) -> bool {
    let filter_flags = [
        "-t",
        "--testNamePattern",
        "--test-name-pattern",
        "--testPathPattern",
        "--testPathPatterns",
        "--test-path-pattern",
        "--grep",
        "-g",
        "--fgrep",
        "-f",
        "--filter",
        "--spec",
        "--project",
        "--selectProjects",
        "--shard",
        "--changed",
        "--onlyChanged",
        "-o",
        "--findRelatedTests",
        "--only",
        "--match",
        "-m",
        "--lastCommit",
        "--changedSince",
        "--related",
    ];
    if has_flag(args, &filter_flags) {
        return true;
    }
    let valued = [
        "--config",
        "-c",
        "--reporter",
        "--reporters",
        "--coverage.provider",
        "--environment",
        "--pool",
        "--maxWorkers",
        "-w",
        "--testTimeout",
        "--timeout",
        "--outputFile",
        "--root",
        "-r",
        "--dir",
        "--require",
        "--ui",
        "--browser",
        "--workers",
        "--retries",
        "--port",
        "--mode",
        "--seed",
        "--coverageDirectory",
        "--rootDir",
        "--silent",
    ];
    positional_args(args, &valued)
        .iter()
        .any(|p| !subcommands.contains(p) && !is_suite_root(p))
}

fn rspec_filtered(args: &[&str]) -> bool {
    has_flag(
        args,
        &[
            "-e",
            "--example",
            "-t",
            "--tag",
            "--only-failures",
            "--next-failure",
            "-P",
            "--pattern",
        ],
    ) || positional_args(
        args,
        &[
            "-f",
            "--format",
            "-o",
            "--out",
            "-r",
            "--require",
            "--seed",
            "-I",
        ],
    )
    .iter()
    .any(|p| !is_suite_root(p))
}

fn phpunit_filtered(args: &[&str]) -> bool {
    has_flag(
        args,
        &[
            "--filter",
            "--testsuite",
            "--group",
            "--exclude-group",
            "--covers",
            "--uses",
            "--test-suffix",
        ],
    ) || positional_args(
        args,
        &[
            "-c",
            "--configuration",
            "--bootstrap",
            "--log-junit",
            "--coverage-html",
            "--coverage-clover",
            "--colors",
            "--order-by",
            "--cache-directory",
        ],
    )
    .iter()
    .any(|p| !is_suite_root(p))
}

fn dotnet_filtered(args: &[&str]) -> bool {
    has_flag(args, &["--filter", "--tests"])
        || positional_args(
            args,
            &[
                "-c",
                "--configuration",
                "-f",
                "--framework",
                "-l",
                "--logger",
                "-v",
                "--verbosity",
                "-r",
                "--runtime",
                "-s",
                "--settings",
                "--results-directory",
                "-a",
                "--test-adapter-path",
                "--collect",
                "-o",
                "--output",
                "--blame-hang-timeout",
                "--arch",
                "--os",
            ],
        )
        .iter()
        .any(|p| !p.ends_with(".sln") && !p.ends_with(".slnx"))
}

fn classify_bun(args: &[&str]) -> CommandClass {
    use CommandKind::*;
    match args.first().copied().unwrap_or("") {
        // `bun test` is bun's own runner, not a package script.
        "test" => CommandClass::direct(Test, "bun-test", js_runner_filtered(&args[1..], &[])),
        "run" => classify_script_name(
            "bun",
            args.get(1).copied().unwrap_or(""),
            args.get(2..).unwrap_or(&[]),
        ),
        "x" => CommandClass::other(),
        _ => CommandClass::other(),
    }
}

/// `npm test`, `npm run lint`, `pnpm build`, `yarn test`, `composer test`.
fn classify_package_script(pm: &str, args: &[&str]) -> CommandClass {
    // Skip global options such as `--prefix dir`, `-w pkg`, `--filter pkg`, `--silent`.
    let valued = [
        "--prefix",
        "-C",
        "--dir",
        "-w",
        "--workspace",
        "--filter",
        "-F",
        "--cwd",
    ];
    let mut i = 0;
    let mut workspace_subset = false;
    while let Some(a) = args.get(i) {
        if a.starts_with('-') {
            if matches!(*a, "-w" | "--workspace" | "--filter" | "-F") {
                workspace_subset = true;
            }
            i += if valued.contains(a) { 2 } else { 1 };
        } else {
            break;
        }
    }
    let sub = args.get(i).copied().unwrap_or("");
    let rest = args.get(i + 1..).unwrap_or(&[]);
    let mut class = match sub {
        "test" | "t" | "tst" => classify_script_name(pm, "test", rest),
        "run" | "run-script" | "rs" => classify_script_name(
            pm,
            rest.first().copied().unwrap_or(""),
            rest.get(1..).unwrap_or(&[]),
        ),
        // yarn and pnpm run scripts without `run` unless the name is a builtin.
        "install" | "i" | "ci" | "add" | "remove" | "uninstall" | "update" | "upgrade" | "init"
        | "create" | "publish" | "pack" | "link" | "exec" | "dlx" | "why" | "list" | "ls"
        | "outdated" | "audit" | "info" | "view" | "config" | "set" | "version" | "cache"
        | "start" | "dev" | "serve" => CommandClass::other(),
        "" => CommandClass::other(),
        name if pm != "npm" => classify_script_name(pm, name, rest),
        _ => CommandClass::other(),
    };
    if workspace_subset && class.kind == CommandKind::Test {
        class.filtered = true;
    }
    class
}

/// A script or task named `name`, run by `runner`, with arguments passed through.
fn classify_script_name(runner: &str, name: &str, passthrough: &[&str]) -> CommandClass {
    let kind = script_kind(name);
    if kind == CommandKind::Other {
        return CommandClass::other();
    }
    // npm needs `--` before forwarded arguments; pnpm, yarn and bun forward them as they are.
    let (before, after) = split_double_dash(passthrough);
    let forwarded: &[&str] = if after.is_empty() && runner != "npm" {
        before
    } else {
        after
    };
    let filtered = kind == CommandKind::Test
        && (js_runner_filtered(forwarded, &["run"])
            || has_flag(forwarded, &["-k", "-m"])
            || name.contains(':') && is_subset_script(name));
    CommandClass::wrapped(kind, format!("{runner}:{name}"), filtered)
}

fn is_subset_script(name: &str) -> bool {
    // `test:unit` runs part of the suite; `test:all` / `test:ci` do not.
    let suffix = name.rsplit(':').next().unwrap_or("");
    !matches!(
        suffix,
        "all" | "ci" | "full" | "run" | "once" | "cov" | "coverage"
    )
}

/// What a script or make target is for, from its name.
pub fn script_kind(name: &str) -> CommandKind {
    let n = name.to_ascii_lowercase();
    let parts: Vec<&str> = n
        .split([':', '-', '_', '.', '/'])
        .filter(|p| !p.is_empty())
        .collect();
    let has = |words: &[&str]| parts.iter().any(|p| words.contains(p));
    if has(&[
        "lint",
        "lints",
        "eslint",
        "clippy",
        "stylelint",
        "vet",
        "ruff",
        "flake8",
        "mypy",
        "pylint",
        "ktlint",
        "detekt",
        "rubocop",
    ]) || n == "fmt:check"
        || n == "format:check"
        || n == "fmt-check"
        || n == "format-check"
        || n == "check-format"
        || n == "check-fmt"
        || n == "prettier:check"
        || n == "style"
    {
        return CommandKind::Lint;
    }
    if has(&[
        "typecheck",
        "typecheck",
        "tsc",
        "types",
        "build",
        "compile",
        "bundle",
        "dist",
    ]) || n == "type-check"
        || n == "check-types"
        || n == "check:types"
        || n == "types:check"
    {
        return CommandKind::Build;
    }
    if has(&[
        "test",
        "tests",
        "spec",
        "specs",
        "unit",
        "e2e",
        "integration",
        "coverage",
        "cov",
        "jest",
        "vitest",
        "pytest",
        "mocha",
    ]) || n == "check"
        || n == "ci"
    {
        return CommandKind::Test;
    }
    CommandKind::Other
}

/// `make`, `just`, `task`, `cargo make`: the target names decide; `make` with no target builds.
fn classify_task(runner: &str, args: &[&str]) -> CommandClass {
    let valued = [
        "-C",
        "-f",
        "--file",
        "-j",
        "--jobs",
        "-l",
        "--directory",
        "--justfile",
        "-d",
        "-o",
        "-W",
        "-I",
    ];
    let mut targets = Vec::new();
    let mut vars = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if a.starts_with('-') {
            i += if valued.contains(a) { 2 } else { 1 };
            continue;
        }
        if a.contains('=') {
            vars.push(*a);
        } else {
            targets.push(*a);
        }
        i += 1;
    }
    if targets.is_empty() {
        if runner == "make" || runner == "gmake" {
            return CommandClass::wrapped(CommandKind::Build, format!("{runner}:all"), false);
        }
        return CommandClass::other();
    }
    let (kind, name) = targets
        .iter()
        .map(|t| (script_kind(t), *t))
        .min_by_key(|(k, _)| *k)
        .unwrap_or((CommandKind::Other, ""));
    if kind == CommandKind::Other {
        if (runner == "make" || runner == "gmake") && targets.iter().all(|t| *t == "all") {
            return CommandClass::wrapped(CommandKind::Build, format!("{runner}:all"), false);
        }
        return CommandClass::other();
    }
    let filtered = kind == CommandKind::Test
        && (vars.iter().any(|v| {
            let key = v.split('=').next().unwrap_or("").to_ascii_uppercase();
            [
                "TEST", "TESTS", "FILTER", "RUN", "ONLY", "PKG", "PACKAGE", "SPEC", "K", "CASE",
                "T",
            ]
            .iter()
            .any(|k| key == *k || key.ends_with(&format!("_{k}")))
                || (key == "ARGS" || key == "TESTARGS" || key == "PYTEST_ARGS") && v.contains("-k")
        }) || (runner == "just"
            && targets.len() > 1
            && script_kind(targets[0]) == CommandKind::Test));
    CommandClass::wrapped(kind, format!("{runner}:{name}"), filtered)
}

fn classify_maven(args: &[&str]) -> CommandClass {
    use CommandKind::*;
    let filtered = args.iter().any(|a| {
        a.starts_with("-Dtest=") || a.starts_with("-Dit.test=") || a.starts_with("-Dgroups=")
    }) || has_flag(args, &["-pl", "--projects"]);
    let skip_tests = args
        .iter()
        .any(|a| a.starts_with("-DskipTests") || a.starts_with("-Dmaven.test.skip"));
    let goals: Vec<&str> = args
        .iter()
        .copied()
        .filter(|a| !a.starts_with('-'))
        .collect();
    let lint = goals.iter().any(|g| {
        g.starts_with("checkstyle:")
            || g.starts_with("spotless:check")
            || g.starts_with("pmd:")
            || g.starts_with("spotbugs:")
    });
    let test = !skip_tests
        && goals
            .iter()
            .any(|g| matches!(*g, "test" | "verify" | "integration-test" | "surefire:test"));
    let build = goals.iter().any(|g| {
        matches!(
            *g,
            "compile" | "package" | "install" | "deploy" | "test-compile"
        )
    });
    if test {
        CommandClass::direct(Test, "maven", filtered)
    } else if lint {
        CommandClass::direct(Lint, "maven-lint", false)
    } else if build {
        CommandClass::direct(Build, "maven", false)
    } else {
        CommandClass::other()
    }
}

fn classify_gradle(args: &[&str]) -> CommandClass {
    use CommandKind::*;
    let tasks: Vec<&str> = args
        .iter()
        .copied()
        .filter(|a| !a.starts_with('-'))
        .collect();
    let task_name = |t: &str| t.rsplit(':').next().unwrap_or(t).to_string();
    let is_test = |t: &str| {
        let n = task_name(t);
        n == "test"
            || n == "check"
            || n.ends_with("Test")
            || n == "connectedCheck"
            || n.ends_with("Tests")
    };
    let is_lint = |t: &str| {
        let n = task_name(t).to_ascii_lowercase();
        n == "lint"
            || n.contains("ktlint")
            || n.contains("detekt")
            || n.contains("spotlesscheck")
            || n.starts_with("checkstyle")
    };
    let is_build = |t: &str| {
        let n = task_name(t);
        matches!(
            n.as_str(),
            "build"
                | "assemble"
                | "compileJava"
                | "compileKotlin"
                | "jar"
                | "classes"
                | "compileTestJava"
                | "compileTestKotlin"
        ) || n.starts_with("assemble")
    };
    let excludes_tests = args
        .windows(2)
        .any(|w| w[0] == "-x" && w[1].ends_with("test"));
    if !excludes_tests && tasks.iter().any(|t| is_test(t)) {
        // `:app:test` runs one module's tests; `--tests` selects names.
        let module_subset = tasks
            .iter()
            .filter(|t| is_test(t))
            .all(|t| t.trim_start_matches(':').contains(':'));
        return CommandClass::direct(
            Test,
            "gradle",
            has_flag(args, &["--tests"]) || module_subset,
        );
    }
    if tasks.iter().any(|t| is_lint(t)) {
        return CommandClass::direct(Lint, "gradle-lint", false);
    }
    if tasks.iter().any(|t| is_build(t)) {
        // `gradle build` runs `check` (and so the tests) unless excluded.
        if !excludes_tests && tasks.iter().any(|t| task_name(t) == "build") {
            return CommandClass::direct(Test, "gradle", false);
        }
        return CommandClass::direct(Build, "gradle", false);
    }
    CommandClass::other()
}

/// `./scripts/test.sh`, `bin/lint`, `./run_tests.sh`.
fn classify_script_path(program: &str) -> CommandClass {
    let is_path = program.contains('/') || program.ends_with(".sh");
    if !is_path {
        return CommandClass::other();
    }
    let name = base_name(program);
    let stem = name.split('.').next().unwrap_or(name);
    let kind = script_kind(stem);
    if kind == CommandKind::Other {
        return CommandClass::other();
    }
    CommandClass::wrapped(kind, format!("script:{stem}"), false)
}

fn split_double_dash<'a, 'b>(args: &'a [&'b str]) -> (&'a [&'b str], &'a [&'b str]) {
    match args.iter().position(|a| *a == "--") {
        Some(p) => (&args[..p], &args[p + 1..]),
        None => (args, &[]),
    }
}

/// Whether any of `flags` occurs (also as `--flag=value`).
fn has_flag(args: &[&str], flags: &[&str]) -> bool {
    args.iter().any(|a| {
        flags
            .iter()
            .any(|f| *a == *f || (a.starts_with(f) && a[f.len()..].starts_with('=')))
    })
}

/// Non-option arguments, skipping the values of options listed in `valued`.
fn positional_args<'a>(args: &[&'a str], valued: &[&str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        if *a == "--" {
            break;
        }
        if a.starts_with('-') {
            i += if valued.contains(a) { 2 } else { 1 };
            continue;
        }
        out.push(*a);
        i += 1;
    }
    out
}

fn positional_count(args: &[&str], valued: &[&str]) -> usize {
    positional_args(args, valued).len()
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
mod tests {
    use super::*;
    use CommandKind::*;

    /// (command, kind, tool, filtered)
    const TABLE: &[(&str, CommandKind, Option<&str>, bool)] = &[
        ("cargo test", Test, Some("cargo-test"), false),
        (
            "cargo test --workspace --all-features",
            Test,
            Some("cargo-test"),
            false,
        ),
        ("cargo test -p geo", Test, Some("cargo-test"), true),
        ("cargo test parse::dates", Test, Some("cargo-test"), true),
        ("cargo test -- --nocapture", Test, Some("cargo-test"), false),
        (
            "cargo test -- --exact parse::dates",
            Test,
            Some("cargo-test"),
            true,
        ),
        ("cargo test --lib", Test, Some("cargo-test"), true),
        ("cargo +nightly test", Test, Some("cargo-test"), false),
        ("cargo nextest run", Test, Some("nextest"), false),
        (
            "cargo nextest run -E 'test(parse)'",
            Test,
            Some("nextest"),
            true,
        ),
        ("cargo build --release", Build, Some("cargo-build"), false),
        (
            "cargo check --all-targets",
            Build,
            Some("cargo-check"),
            false,
        ),
        (
            "cargo clippy --all-targets -- -D warnings",
            Lint,
            Some("clippy"),
            false,
        ),
        ("cargo fmt --all -- --check", Lint, Some("rustfmt"), false),
        ("cargo fmt", Other, None, false),
        ("go test ./...", Test, Some("go-test"), false),
        ("go test -race -count=1 ./...", Test, Some("go-test"), false),
        ("go test ./internal/route/", Test, Some("go-test"), true),
        ("go test -run TestETA ./...", Test, Some("go-test"), true),
        ("go vet ./...", Lint, Some("go-vet"), false),
        ("go build ./cmd/app", Build, Some("go-build"), false),
        ("pytest", Test, Some("pytest"), false),
        ("pytest -q tests/", Test, Some("pytest"), false),
        ("pytest tests/unit/test_api.py", Test, Some("pytest"), true),
        ("pytest -k 'not slow'", Test, Some("pytest"), true),
        ("python -m pytest -x -q", Test, Some("pytest"), false),
        ("python3 -m unittest", Test, Some("unittest"), false),
        ("uv run pytest -q", Test, Some("pytest"), false),
        (
            "poetry run pytest tests/test_x.py::test_y",
            Test,
            Some("pytest"),
            true,
        ),
        ("hatch run test", Test, Some("hatch:test"), false),
        ("pdm run lint", Lint, Some("pdm:lint"), false),
        ("tox", Test, Some("tox"), false),
        ("tox -e py312 -- -k parser", Test, Some("tox"), true),
        ("nox -s lint", Lint, Some("nox"), false),
        ("npm test", Test, Some("npm:test"), false),
        (
            "npm test -- -t \"cart totals\"",
            Test,
            Some("npm:test"),
            true,
        ),
        ("npm test -- --coverage", Test, Some("npm:test"), false),
        ("npm run test:unit", Test, Some("npm:test:unit"), true),
        ("npm run lint", Lint, Some("npm:lint"), false),
        ("npm run build", Build, Some("npm:build"), false),
        ("npm run typecheck", Build, Some("npm:typecheck"), false),
        ("npm install", Other, None, false),
        ("pnpm test", Test, Some("pnpm:test"), false),
        ("pnpm --filter web test", Test, Some("pnpm:test"), true),
        ("yarn test src/cart", Test, Some("yarn:test"), true),
        ("bun test", Test, Some("bun-test"), false),
        ("bun run test", Test, Some("bun:test"), false),
        ("npx jest", Test, Some("jest"), false),
        ("npx jest src/cart.test.js", Test, Some("jest"), true),
        ("npx vitest run", Test, Some("vitest"), false),
        ("npx vitest run -t slug", Test, Some("vitest"), true),
        ("npm exec -- vitest run", Test, Some("vitest"), false),
        ("npx mocha --grep parser", Test, Some("mocha"), true),
        ("npx tsc --noEmit", Build, Some("tsc"), false),
        ("npx eslint . --max-warnings=0", Lint, Some("eslint"), false),
        ("npx eslint --fix src", Lint, Some("eslint"), false),
        ("npx prettier --check .", Lint, Some("prettier"), false),
        ("npx prettier --write .", Other, None, false),
        ("deno test", Test, Some("deno-test"), false),
        ("deno task test", Test, Some("deno:test"), false),
        ("turbo run lint", Lint, Some("turbo:lint"), false),
        ("nx test api", Test, Some("nx:test"), true),
        ("nx run-many -t test", Test, Some("nx:test"), false),
        ("make", Build, Some("make:all"), false),
        ("make test", Test, Some("make:test"), false),
        ("make -C backend check", Test, Some("make:check"), false),
        ("make test TEST=test_parse", Test, Some("make:test"), true),
        ("make lint", Lint, Some("make:lint"), false),
        ("make valgrind", Other, None, false),
        ("just test", Test, Some("just:test"), false),
        ("cargo make test", Test, Some("cargo-make:test"), false),
        ("bundle exec rspec", Test, Some("rspec"), false),
        (
            "bundle exec rspec spec/models/user_spec.rb:12",
            Test,
            Some("rspec"),
            true,
        ),
        ("bundle exec rubocop", Lint, Some("rubocop"), false),
        ("vendor/bin/phpunit", Test, Some("phpunit"), false),
        (
            "vendor/bin/phpunit --filter testRefund",
            Test,
            Some("phpunit"),
            true,
        ),
        ("mvn -q test", Test, Some("maven"), false),
        ("mvn test -Dtest=CartTest", Test, Some("maven"), true),
        ("mvn -DskipTests package", Build, Some("maven"), false),
        ("./gradlew test", Test, Some("gradle"), false),
        (
            "./gradlew test --tests 'com.acme.CartTest'",
            Test,
            Some("gradle"),
            true,
        ),
        ("./gradlew :app:test", Test, Some("gradle"), true),
        ("./gradlew assemble", Build, Some("gradle"), false),
        ("./gradlew ktlintCheck", Lint, Some("gradle-lint"), false),
        ("dotnet test", Test, Some("dotnet-test"), false),
        (
            "dotnet test --filter Category=Unit",
            Test,
            Some("dotnet-test"),
            true,
        ),
        ("dotnet build", Build, Some("dotnet-build"), false),
        ("ctest --output-on-failure", Test, Some("ctest"), false),
        ("ctest -R parser", Test, Some("ctest"), true),
        ("cmake --build build", Build, Some("cmake-build"), false),
        ("sbt testOnly com.acme.CartSpec", Test, Some("sbt"), true),
        ("ruff check .", Lint, Some("ruff"), false),
        ("ruff check --fix .", Lint, Some("ruff"), false),
        ("ruff format --check .", Lint, Some("ruff-format"), false),
        ("ruff format .", Other, None, false),
        ("mypy src", Lint, Some("mypy"), false),
        ("black --check .", Lint, Some("black"), false),
        (
            "golangci-lint run ./...",
            Lint,
            Some("golangci-lint"),
            false,
        ),
        ("./scripts/test.sh", Test, Some("script:test"), false),
        ("cd web && npm test", Test, Some("npm:test"), false),
        (
            "bash -lc 'cd api && cargo test 2>&1 | tail -5'",
            Test,
            Some("cargo-test"),
            false,
        ),
        ("timeout 600 cargo test", Test, Some("cargo-test"), false),
        (
            "env RUST_BACKTRACE=1 cargo test",
            Test,
            Some("cargo-test"),
            false,
        ),
        (
            "docker compose run --rm web pytest",
            Test,
            Some("pytest"),
            false,
        ),
        ("git commit -am x", Other, None, false),
        ("ls -la", Other, None, false),
    ];

    #[test]
    fn recognises_commands_through_wrappers() {
        let mut failures = Vec::new();
        for (cmd, kind, tool, filtered) in TABLE {
            let c = classify_command(cmd);
            if c.kind != *kind || c.tool.as_deref() != *tool || c.filtered != *filtered {
                failures.push(format!(
                    "{cmd:?}: expected {kind:?} {tool:?} filtered={filtered}, got {c:?}"
                ));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    #[test]
    fn test_wins_over_build_in_one_line() {
        assert_eq!(classify_command("cargo build && cargo test").kind, Test);
        assert_eq!(
            classify_each(&parse_invocations(
                "cargo fmt --check && cargo clippy && cargo test"
            ))
            .len(),
            3
        );
    }

    #[test]
    fn exit_status_attribution() {
        let invs = effective_invocations(&parse_invocations("cargo test 2>&1 | tail -5"));
        assert!(!exit_reflects(&invs, 0));
        let invs = effective_invocations(&parse_invocations("cd x && cargo test"));
        assert!(exit_reflects(&invs, 1));
        let invs = effective_invocations(&parse_invocations("cargo test && echo ok"));
        assert!(exit_reflects(&invs, 0));
        let invs = effective_invocations(&parse_invocations("pytest || true"));
        assert!(!exit_reflects(&invs, 0));
        let invs = effective_invocations(&parse_invocations("pytest; echo done"));
        assert!(!exit_reflects(&invs, 0));
        let invs = effective_invocations(&parse_invocations("bash -lc 'pytest -q | tail -3'"));
        assert!(!exit_reflects(&invs, 0));
    }

    #[test]
    fn claimed_commands_name_actual_ones() {
        let actual = parse_invocations("cd /w/app && npx tsc --noEmit -p .");
        assert!(names_command("tsc --noEmit", &actual));
        assert!(names_command("npx tsc", &actual));
        assert!(!names_command("tsc --watch", &actual));
        assert!(!names_command(
            "npm test",
            &parse_invocations("npm run lint")
        ));
        assert!(names_command(
            "cargo test",
            &parse_invocations("cargo test --workspace")
        ));
        assert!(!names_command("", &actual));
    }

    #[test]
    fn command_like_spans() {
        for yes in [
            "npm test",
            "cargo clippy -- -D warnings",
            "go vet ./...",
            "uv run ruff format",
            "make valgrind",
            "./gradlew build",
        ] {
            assert!(looks_like_command(yes), "{yes}");
        }
        for yes in ["alembic upgrade head", "terraform plan -out plan.bin"] {
            assert!(looks_like_command(yes), "{yes}");
        }
        for no in [
            "main",
            "--dry",
            "Rule::fix",
            "dryRun",
            "PanelAction",
            "",
            "the fix",
            "x = 1",
            "foo(bar)",
            "let x = y",
        ] {
            assert!(!looks_like_command(no), "{no}");
        }
    }
}
