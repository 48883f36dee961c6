//! Whether a test run selected a subset of the suite: a name filter, a package, a path, a
//! target selector, and the argument helpers those checks share.

/// `cargo test` selects a subset with a positional name filter, a package, a target selector or
/// harness options after `--` that filter.
pub(crate) fn cargo_test_filtered(args: &[&str]) -> bool {
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

pub(crate) fn nextest_filtered(args: &[&str]) -> bool {
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
pub(crate) fn go_test_filtered(args: &[&str]) -> bool {
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
pub(crate) fn pytest_filtered(args: &[&str]) -> bool {
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

pub(crate) fn is_suite_root(path: &str) -> bool {
    let p = path.trim_start_matches("./").trim_end_matches('/');
    matches!(
        p,
        "" | "." | "test" | "tests" | "spec" | "specs" | "src" | "__tests__" | "testing"
    )
}

/// Arguments passed through to the test runner after `--` (tox, nox).
pub(crate) fn posargs_filtered(args: &[&str]) -> bool {
    let (_, after) = split_double_dash(args);
    !after.is_empty() && pytest_filtered(after)
}

/// jest / vitest / mocha / bun: a name pattern, a grep, or a positional path pattern.
pub(crate) fn js_runner_filtered(args: &[&str], subcommands: &[&str]) -> bool {
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

pub(crate) fn rspec_filtered(args: &[&str]) -> bool {
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

pub(crate) fn phpunit_filtered(args: &[&str]) -> bool {
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

pub(crate) fn dotnet_filtered(args: &[&str]) -> bool {
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

pub(crate) fn split_double_dash<'a, 'b>(args: &'a [&'b str]) -> (&'a [&'b str], &'a [&'b str]) {
    match args.iter().position(|a| *a == "--") {
        Some(p) => (&args[..p], &args[p + 1..]),
        None => (args, &[]),
    }
}

/// Whether any of `flags` occurs (also as `--flag=value`).
pub(crate) fn has_flag(args: &[&str], flags: &[&str]) -> bool {
    args.iter().any(|a| {
        flags
            .iter()
            .any(|f| *a == *f || (a.starts_with(f) && a[f.len()..].starts_with('=')))
    })
}

/// Non-option arguments, skipping the values of options listed in `valued`.
pub(crate) fn positional_args<'a>(args: &[&'a str], valued: &[&str]) -> Vec<&'a str> {
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

pub(crate) fn positional_count(args: &[&str], valued: &[&str]) -> usize {
    positional_args(args, valued).len()
}
