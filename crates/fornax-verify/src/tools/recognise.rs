//! How each tool's invocations look (after launchers such as `npx`, `uv run`, `bash -c` or
//! `timeout` are unwrapped): which subcommand or flags make an invocation this tool's, and
//! whether it selected a subset of what the tool checks.
//!
//! One function per tool (or family of look-alike tools); the table in [`super::table`] says
//! which programs each applies to.

use crate::commands::filters::*;
use crate::commands::wrappers::{
    classify_maven_use, gradle_use, package_script_use, script_use, task_use,
};
use crate::commands::CommandKind::{self, *};

/// One invocation as a recogniser sees it.
#[derive(Debug, Clone, Copy)]
pub struct Args<'a> {
    /// The program's base name (`cargo`, `pytest`, `gradlew`).
    pub program: &'a str,
    pub argv: &'a [&'a str],
}

impl Args<'_> {
    pub fn sub(&self) -> &str {
        self.argv.first().copied().unwrap_or("")
    }
    fn rest(&self) -> &[&str] {
        self.argv.get(1..).unwrap_or(&[])
    }
}

/// What a recognised invocation is for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Use {
    pub kind: CommandKind,
    /// The run selected a subset (a filter, a package, a path).
    pub filtered: bool,
    /// The script or task a runner ran (`npm run lint` → `lint`).
    pub task: Option<String>,
    /// A narrower tool id than the entry's, for entries that cover look-alike subcommands
    /// (`mix format --check-formatted` is `mix-format`).
    pub id: Option<&'static str>,
}

pub(crate) fn named(kind: CommandKind, id: &'static str) -> Option<Use> {
    Some(Use {
        kind,
        filtered: false,
        task: None,
        id: Some(id),
    })
}

pub(crate) fn direct(kind: CommandKind, filtered: bool) -> Option<Use> {
    Some(Use {
        kind,
        filtered,
        task: None,
        id: None,
    })
}

/// A recogniser that accepts every invocation of its programs.
pub fn always_test(_: &Args<'_>) -> Option<Use> {
    direct(Test, false)
}
pub fn always_build(_: &Args<'_>) -> Option<Use> {
    direct(Build, false)
}
pub fn always_lint(_: &Args<'_>) -> Option<Use> {
    direct(Lint, false)
}

/// Cargo's subcommand, after toolchain selectors and global options.
pub fn cargo_sub<'a>(args: &'a [&'a str]) -> (&'a str, &'a [&'a str]) {
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
    (
        args.get(i).copied().unwrap_or(""),
        args.get(i + 1..).unwrap_or(&[]),
    )
}

pub fn cargo_test(a: &Args<'_>) -> Option<Use> {
    let (sub, rest) = cargo_sub(a.argv);
    match sub {
        "test" | "t" => direct(Test, cargo_test_filtered(rest)),
        "llvm-cov" | "tarpaulin" | "miri" if !rest.contains(&"report") => {
            direct(Test, cargo_test_filtered(rest))
        }
        "insta" if rest.first() == Some(&"test") => direct(Test, cargo_test_filtered(&rest[1..])),
        _ => None,
    }
}

pub fn nextest(a: &Args<'_>) -> Option<Use> {
    if a.program == "cargo-nextest" {
        let rest = if a.sub() == "run" { a.rest() } else { a.argv };
        return direct(Test, nextest_filtered(rest));
    }
    let (sub, rest) = cargo_sub(a.argv);
    (sub == "nextest" && rest.first() == Some(&"run")).then(|| Use {
        kind: Test,
        filtered: nextest_filtered(&rest[1..]),
        task: None,
        id: None,
    })
}

pub fn cargo_build(a: &Args<'_>) -> Option<Use> {
    matches!(cargo_sub(a.argv).0, "build" | "b").then(|| Use {
        kind: Build,
        filtered: false,
        task: None,
        id: None,
    })
}

pub fn cargo_check(a: &Args<'_>) -> Option<Use> {
    matches!(cargo_sub(a.argv).0, "check" | "c").then(|| Use {
        kind: Build,
        filtered: false,
        task: None,
        id: None,
    })
}

pub fn clippy(a: &Args<'_>) -> Option<Use> {
    if a.program == "cargo-clippy" || a.program == "clippy-driver" {
        return direct(Lint, false);
    }
    let (sub, rest) = cargo_sub(a.argv);
    // `--fix` rewrites the code; what it reports is not a lint verdict.
    (sub == "clippy" && !has_flag(rest, &["--fix"])).then_some(Use {
        kind: Lint,
        filtered: false,
        task: None,
        id: None,
    })
}

pub fn rustfmt(a: &Args<'_>) -> Option<Use> {
    if a.program == "rustfmt" {
        return has_flag(a.argv, &["--check"]).then_some(Use {
            kind: Lint,
            filtered: false,
            task: None,
            id: None,
        });
    }
    let (sub, rest) = cargo_sub(a.argv);
    (sub == "fmt" && has_flag(rest, &["--check"])).then_some(Use {
        kind: Lint,
        filtered: false,
        task: None,
        id: None,
    })
}

pub fn cargo_lint(a: &Args<'_>) -> Option<Use> {
    matches!(cargo_sub(a.argv).0, "deny" | "audit" | "machete").then(|| Use {
        kind: Lint,
        filtered: false,
        task: None,
        id: None,
    })
}

pub fn cargo_make(a: &Args<'_>) -> Option<Use> {
    let (sub, rest) = cargo_sub(a.argv);
    if sub != "make" {
        return None;
    }
    task_use("cargo-make", rest)
}

pub fn go_test(a: &Args<'_>) -> Option<Use> {
    (a.sub() == "test").then(|| Use {
        kind: Test,
        filtered: go_test_filtered(a.rest()),
        task: None,
        id: None,
    })
}

pub fn go_build(a: &Args<'_>) -> Option<Use> {
    matches!(a.sub(), "build" | "install").then(|| Use {
        kind: Build,
        filtered: false,
        task: None,
        id: None,
    })
}

pub fn go_vet(a: &Args<'_>) -> Option<Use> {
    (a.sub() == "vet").then_some(Use {
        kind: Lint,
        filtered: false,
        task: None,
        id: None,
    })
}

pub fn gofmt(a: &Args<'_>) -> Option<Use> {
    a.argv
        .iter()
        .any(|x| *x == "-l" || *x == "-d")
        .then_some(Use {
            kind: Lint,
            filtered: false,
            task: None,
            id: None,
        })
}

pub fn pytest(a: &Args<'_>) -> Option<Use> {
    direct(Test, pytest_filtered(a.argv))
}

pub fn unittest(a: &Args<'_>) -> Option<Use> {
    direct(
        Test,
        a.argv
            .iter()
            .any(|x| !x.starts_with('-') && *x != "discover"),
    )
}

pub fn tox(a: &Args<'_>) -> Option<Use> {
    Some(Use {
        kind: Test,
        filtered: posargs_filtered(a.argv),
        task: None,
        id: None,
    })
}

pub fn nox(a: &Args<'_>) -> Option<Use> {
    let lint = a
        .argv
        .iter()
        .any(|x| x.contains("lint") || x.contains("typing") || x.contains("mypy"));
    Some(Use {
        kind: if lint { Lint } else { Test },
        filtered: posargs_filtered(a.argv),
        task: None,
        id: None,
    })
}

pub fn jest(a: &Args<'_>) -> Option<Use> {
    direct(Test, js_runner_filtered(a.argv, &[]))
}

pub fn vitest(a: &Args<'_>) -> Option<Use> {
    if a.sub() == "bench" {
        return None;
    }
    let filtered = a.sub() == "related" || js_runner_filtered(a.argv, &["run", "watch", "dev"]);
    direct(Test, filtered)
}

pub fn mocha(a: &Args<'_>) -> Option<Use> {
    direct(Test, js_runner_filtered(a.argv, &["start", "run"]))
}

pub fn playwright(a: &Args<'_>) -> Option<Use> {
    matches!(a.sub(), "test" | "run").then(|| Use {
        kind: Test,
        filtered: js_runner_filtered(a.rest(), &[]),
        task: None,
        id: None,
    })
}

pub fn bun_test(a: &Args<'_>) -> Option<Use> {
    // `bun test` is bun's own runner, not a package script.
    (a.sub() == "test").then(|| Use {
        kind: Test,
        filtered: js_runner_filtered(a.rest(), &[]),
        task: None,
        id: None,
    })
}

pub fn deno_test(a: &Args<'_>) -> Option<Use> {
    (a.sub() == "test").then(|| Use {
        kind: Test,
        filtered: has_flag(a.argv, &["--filter"]) || positional_count(a.rest(), &[]) > 0,
        task: None,
        id: None,
    })
}

pub fn deno_check(a: &Args<'_>) -> Option<Use> {
    (a.sub() == "check").then_some(Use {
        kind: Build,
        filtered: false,
        task: None,
        id: None,
    })
}

pub fn deno_lint(a: &Args<'_>) -> Option<Use> {
    match a.sub() {
        "lint" => named(Lint, "deno-lint"),
        "fmt" if has_flag(a.argv, &["--check"]) => named(Lint, "deno-fmt"),
        _ => None,
    }
}

pub fn rspec(a: &Args<'_>) -> Option<Use> {
    direct(Test, rspec_filtered(a.argv))
}

/// `rails test`, `bin/rails test`, and `ruby -Itest test/a_test.rb`.
pub fn minitest(a: &Args<'_>) -> Option<Use> {
    match a.program {
        "rails" => (a.sub() == "test").then(|| Use {
            kind: Test,
            filtered: positional_count(a.rest(), &[]) > 0,
            task: None,
            id: None,
        }),
        _ => a
            .argv
            .iter()
            .any(|x| x.ends_with("_test.rb") || x.starts_with("test/"))
            .then_some(Use {
                kind: Test,
                filtered: true,
                task: None,
                id: None,
            }),
    }
}

pub fn phpunit(a: &Args<'_>) -> Option<Use> {
    if a.program == "php" {
        return (a.sub() == "artisan" && a.argv.get(1) == Some(&"test")).then(|| Use {
            kind: Test,
            filtered: phpunit_filtered(&a.argv[2..]),
            task: None,
            id: None,
        });
    }
    direct(Test, phpunit_filtered(a.argv))
}

pub fn php_lint(a: &Args<'_>) -> Option<Use> {
    (!a.argv.contains(&"fix")).then_some(Use {
        kind: Lint,
        filtered: false,
        task: None,
        id: None,
    })
}

pub fn maven(a: &Args<'_>) -> Option<Use> {
    classify_maven_use(a.argv)
}

pub fn gradle(a: &Args<'_>) -> Option<Use> {
    gradle_use(a.argv)
}

pub fn dotnet_test(a: &Args<'_>) -> Option<Use> {
    (a.sub() == "test").then(|| Use {
        kind: Test,
        filtered: dotnet_filtered(a.rest()),
        task: None,
        id: None,
    })
}

pub fn dotnet_build(a: &Args<'_>) -> Option<Use> {
    match a.sub() {
        "build" | "publish" => direct(Build, false),
        "format" if has_flag(a.argv, &["--verify-no-changes"]) => named(Lint, "dotnet-format"),
        _ => None,
    }
}

pub fn ctest(a: &Args<'_>) -> Option<Use> {
    if a.program == "cmake" {
        if !has_flag(a.argv, &["--build"]) {
            return None;
        }
        let test = a.argv.iter().any(|x| *x == "test" || *x == "check");
        return named(Test, "cmake-test").filter(|_| test);
    }
    direct(
        Test,
        has_flag(
            a.argv,
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
    )
}

pub fn cmake_build(a: &Args<'_>) -> Option<Use> {
    match a.program {
        "cmake" => named(Build, "cmake-build").filter(|_| {
            has_flag(a.argv, &["--build"]) && !a.argv.iter().any(|x| *x == "test" || *x == "check")
        }),
        "meson" => named(Build, "meson-compile").filter(|_| a.sub() == "compile"),
        "ninja" if a.argv.contains(&"test") => named(Test, "ninja"),
        "msbuild" if a.argv.contains(&"test") => named(Test, "msbuild"),
        "xcodebuild" if a.argv.contains(&"test") => named(Test, "xcodebuild"),
        "ninja" => named(Build, "ninja"),
        "msbuild" => named(Build, "msbuild"),
        "xcodebuild" => named(Build, "xcodebuild"),
        _ => None,
    }
}

pub fn meson_test(a: &Args<'_>) -> Option<Use> {
    (a.sub() == "test").then(|| Use {
        kind: Test,
        filtered: positional_count(a.rest(), &["-C"]) > 0,
        task: None,
        id: None,
    })
}

pub fn swift_test(a: &Args<'_>) -> Option<Use> {
    (a.sub() == "test").then(|| Use {
        kind: Test,
        filtered: has_flag(a.argv, &["--filter", "--skip"]),
        task: None,
        id: None,
    })
}

pub fn swift_build(a: &Args<'_>) -> Option<Use> {
    (a.sub() == "build").then_some(Use {
        kind: Build,
        filtered: false,
        task: None,
        id: None,
    })
}

pub fn mix_test(a: &Args<'_>) -> Option<Use> {
    (a.sub() == "test").then(|| Use {
        kind: Test,
        filtered: positional_count(a.rest(), &[]) > 0,
        task: None,
        id: None,
    })
}

pub fn mix_other(a: &Args<'_>) -> Option<Use> {
    match a.sub() {
        "compile" => named(Build, "mix-compile"),
        "credo" | "dialyzer" => named(Lint, "mix-credo"),
        "format" if has_flag(a.argv, &["--check-formatted"]) => named(Lint, "mix-format"),
        _ => None,
    }
}

/// stack, cabal, zig, dart and flutter: `test` / `build` subcommands.
pub fn sub_test_build(a: &Args<'_>) -> Option<Use> {
    let positional = positional_count(a.rest(), &[]) > 0;
    let mut u = match (a.program, a.sub()) {
        ("zig", "build") if a.argv.contains(&"test") => named(Test, "zig-test"),
        ("zig", "build") => named(Build, "zig-build"),
        ("dart" | "flutter", "test") => named(Test, "dart-test"),
        ("dart" | "flutter", "analyze") => named(Lint, "dart-analyze"),
        ("dart" | "flutter", "build" | "compile") => named(Build, "dart-build"),
        ("stack" | "cabal", "test") => named(Test, "haskell-test"),
        ("stack" | "cabal", "build") => named(Build, "haskell-build"),
        _ => None,
    }?;
    u.filtered = u.kind == Test && positional && a.program != "stack" && a.program != "cabal";
    Some(u)
}

pub fn sbt(a: &Args<'_>) -> Option<Use> {
    let tasks: Vec<&str> = a
        .argv
        .iter()
        .copied()
        .filter(|x| !x.starts_with('-'))
        .collect();
    if tasks
        .iter()
        .any(|t| t.starts_with("testOnly") || t.starts_with("testQuick"))
    {
        direct(Test, true)
    } else if tasks.iter().any(|t| *t == "test" || t.ends_with("/test")) {
        direct(Test, tasks.iter().any(|t| t.ends_with("/test")))
    } else if tasks
        .iter()
        .any(|t| t.contains("scalafmtCheck") || t.contains("scalastyle"))
    {
        direct(Lint, false)
    } else if tasks
        .iter()
        .any(|t| *t == "compile" || t.ends_with("/compile") || *t == "package")
    {
        direct(Build, false)
    } else {
        None
    }
}

pub fn tsc(_: &Args<'_>) -> Option<Use> {
    direct(Build, false)
}

pub fn js_bundler(a: &Args<'_>) -> Option<Use> {
    match a.program {
        "vite" | "next" | "nuxt" | "astro" => (a.sub() == "build").then_some(Use {
            kind: Build,
            filtered: false,
            task: None,
            id: None,
        }),
        _ => direct(Build, false),
    }
}

pub fn prettier(a: &Args<'_>) -> Option<Use> {
    has_flag(a.argv, &["--check", "-c", "--list-different", "-l"]).then_some(Use {
        kind: Lint,
        filtered: false,
        task: None,
        id: None,
    })
}

pub fn biome(a: &Args<'_>) -> Option<Use> {
    (matches!(a.sub(), "check" | "lint" | "ci")
        && !has_flag(a.argv, &["--write", "--apply", "--fix"]))
    .then_some(Use {
        kind: Lint,
        filtered: false,
        task: None,
        id: None,
    })
}

pub fn ruff(a: &Args<'_>) -> Option<Use> {
    match a.sub() {
        "format" if has_flag(a.argv, &["--check", "--diff"]) => named(Lint, "ruff-format"),
        "format" => None,
        _ => direct(Lint, false),
    }
}

pub fn py_formatter(a: &Args<'_>) -> Option<Use> {
    has_flag(a.argv, &["--check", "--diff", "--check-only", "-c"]).then_some(Use {
        kind: Lint,
        filtered: false,
        task: None,
        id: None,
    })
}

pub fn pre_commit(a: &Args<'_>) -> Option<Use> {
    (a.sub() == "run" || a.sub().is_empty()).then_some(Use {
        kind: Lint,
        filtered: false,
        task: None,
        id: None,
    })
}

pub fn clang_format(a: &Args<'_>) -> Option<Use> {
    has_flag(a.argv, &["--dry-run", "-n"]).then_some(Use {
        kind: Lint,
        filtered: false,
        task: None,
        id: None,
    })
}

/// `python -m py_compile a.py`, `python -m compileall src`.
pub fn py_compile(_: &Args<'_>) -> Option<Use> {
    direct(Build, false)
}

pub fn golangci_lint(a: &Args<'_>) -> Option<Use> {
    (a.sub() != "fmt" && a.sub() != "version").then_some(Use {
        kind: Lint,
        filtered: false,
        task: None,
        id: None,
    })
}

// Package managers and task runners: what a run is for comes from the script or task named.

pub fn npm(a: &Args<'_>) -> Option<Use> {
    package_script_use(a.program, a.argv)
}

pub fn bun_run(a: &Args<'_>) -> Option<Use> {
    (a.sub() == "run").then(|| {
        script_use(
            "bun",
            a.argv.get(1).copied().unwrap_or(""),
            a.argv.get(2..).unwrap_or(&[]),
        )
    })?
}

pub fn deno_task(a: &Args<'_>) -> Option<Use> {
    (a.sub() == "task").then(|| {
        script_use(
            "deno",
            a.argv.get(1).copied().unwrap_or(""),
            a.argv.get(2..).unwrap_or(&[]),
        )
    })?
}

pub fn python_project_run(a: &Args<'_>) -> Option<Use> {
    (a.sub() == "run").then(|| {
        script_use(
            a.program,
            a.argv.get(1).copied().unwrap_or(""),
            a.argv.get(2..).unwrap_or(&[]),
        )
    })?
}

pub fn make(a: &Args<'_>) -> Option<Use> {
    task_use(a.program, a.argv)
}

pub fn rake(a: &Args<'_>) -> Option<Use> {
    let sub = a.sub();
    let kind = match sub {
        "test" | "spec" => Test,
        "rubocop" | "lint" => Lint,
        _ => return None,
    };
    Some(Use {
        kind,
        filtered: false,
        task: Some(sub.to_string()),
        id: None,
    })
}

pub fn monorepo(a: &Args<'_>) -> Option<Use> {
    let sub = a.sub();
    match a.program {
        "turbo" => {
            let name = if sub == "run" {
                a.argv.get(1).copied().unwrap_or("")
            } else {
                sub
            };
            script_use("turbo", name, &[])
        }
        "lerna" => (sub == "run")
            .then(|| script_use("lerna", a.argv.get(1).copied().unwrap_or(""), &[]))?,
        _ => {
            let target = match sub {
                "run" => a
                    .argv
                    .get(1)
                    .map(|t| t.rsplit(':').next().unwrap_or(t))
                    .unwrap_or(""),
                "run-many" | "affected" => a
                    .argv
                    .windows(2)
                    .find(|w| w[0] == "-t" || w[0] == "--target" || w[0] == "--targets")
                    .map(|w| w[1])
                    .unwrap_or(""),
                other => other,
            };
            let mut u = script_use("nx", target, &[])?;
            // `nx test app` or `nx affected` runs part of the workspace.
            if u.kind == Test && (sub == "affected" || (sub != "run-many" && a.argv.len() > 1)) {
                u.filtered = true;
            }
            Some(u)
        }
    }
}

/// `git commit` and `git push` (read by [`crate::gitout`]); not a test, build or lint run.
pub fn git(a: &Args<'_>) -> Option<Use> {
    a.argv
        .iter()
        .any(|x| *x == "commit" || *x == "push")
        .then_some(Use {
            kind: Other,
            filtered: false,
            task: None,
            id: None,
        })
}
