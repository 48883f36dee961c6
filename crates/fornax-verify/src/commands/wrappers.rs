//! Task runners and script wrappers, classified by the task or script they name (`make
//! test`, `npm run lint`, `just build`, `./gradlew :app:test`, `./scripts/test.sh`).

use super::filters::*;
use super::*;
use crate::tools::recognise::Use;

fn uses(kind: CommandKind, filtered: bool, task: Option<&str>) -> Option<Use> {
    (kind != CommandKind::Other).then(|| Use {
        kind,
        filtered,
        task: task.map(str::to_string),
        id: None,
    })
}

/// `npm test`, `npm run lint`, `pnpm build`, `yarn test`, `composer test`.
pub(crate) fn package_script_use(pm: &str, args: &[&str]) -> Option<Use> {
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
        "test" | "t" | "tst" => script_use(pm, "test", rest),
        "run" | "run-script" | "rs" => {
            // `npm run -s typecheck`: flags may come before the script's name.
            let mut j = 0;
            while let Some(a) = rest.get(j).filter(|a| a.starts_with('-') && **a != "--") {
                if matches!(*a, "-w" | "--workspace" | "--filter" | "-F") {
                    workspace_subset = true;
                }
                j += if valued.contains(a) { 2 } else { 1 };
            }
            script_use(
                pm,
                rest.get(j).copied().unwrap_or(""),
                rest.get(j + 1..).unwrap_or(&[]),
            )
        }
        // yarn and pnpm run scripts without `run` unless the name is a builtin.
        "install" | "i" | "ci" | "add" | "remove" | "uninstall" | "update" | "upgrade" | "init"
        | "create" | "publish" | "pack" | "link" | "exec" | "dlx" | "why" | "list" | "ls"
        | "outdated" | "audit" | "info" | "view" | "config" | "set" | "version" | "cache"
        | "start" | "dev" | "serve" => None,
        "" => None,
        name if pm != "npm" => script_use(pm, name, rest),
        _ => None,
    };
    if let Some(u) = class.as_mut() {
        if workspace_subset && u.kind == CommandKind::Test {
            u.filtered = true;
        }
    }
    class
}

/// A script or task named `name`, run by `runner`, with arguments passed through.
pub(crate) fn script_use(runner: &str, name: &str, passthrough: &[&str]) -> Option<Use> {
    let kind = script_kind(name);
    if kind == CommandKind::Other {
        return None;
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
    uses(kind, filtered, Some(name))
}

pub(super) fn is_subset_script(name: &str) -> bool {
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
pub(crate) fn task_use(runner: &str, args: &[&str]) -> Option<Use> {
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
            return uses(CommandKind::Build, false, Some("all"));
        }
        return None;
    }
    let (kind, name) = targets
        .iter()
        .map(|t| (script_kind(t), *t))
        .min_by_key(|(k, _)| *k)
        .unwrap_or((CommandKind::Other, ""));
    if kind == CommandKind::Other {
        if (runner == "make" || runner == "gmake") && targets.iter().all(|t| *t == "all") {
            return uses(CommandKind::Build, false, Some("all"));
        }
        return None;
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
    uses(kind, filtered, Some(name))
}

pub(crate) fn classify_maven_use(args: &[&str]) -> Option<Use> {
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
        uses(Test, filtered, None)
    } else if lint {
        crate::tools::recognise::named(Lint, "maven-lint")
    } else if build {
        uses(Build, false, None)
    } else {
        None
    }
}

pub(crate) fn gradle_use(args: &[&str]) -> Option<Use> {
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
        return uses(Test, has_flag(args, &["--tests"]) || module_subset, None);
    }
    if tasks.iter().any(|t| is_lint(t)) {
        return crate::tools::recognise::named(Lint, "gradle-lint");
    }
    if tasks.iter().any(|t| is_build(t)) {
        // `gradle build` runs `check` (and so the tests) unless excluded.
        if !excludes_tests && tasks.iter().any(|t| task_name(t) == "build") {
            return uses(Test, false, None);
        }
        return uses(Build, false, None);
    }
    None
}

/// `./scripts/test.sh`, `bin/lint`, `./run_tests.sh`.
pub(super) fn classify_script_path(program: &str) -> CommandClass {
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
