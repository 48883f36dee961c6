//! Test-runner output parsed into a summary: how many tests passed, failed, were skipped or
//! were filtered out.
//!
//! One small parser per runner, tried from the most specific format to the most generic; the
//! first that recognises the output wins. A parser only answers when it sees its runner's own
//! closing lines, so ordinary program output does not read as a test summary. Errors count as
//! failures (pytest `errors`, JUnit `Errors`, PHPUnit `Errors:`).

use std::sync::LazyLock;

use regex::Regex;

/// A parsed test summary. `None` counts mean the runner did not say.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Summary {
    /// Which runner's format was recognised (`cargo`, `nextest`, `pytest`, `go`, `jest`, ...).
    pub runner: &'static str,
    pub passed: Option<u64>,
    pub failed: Option<u64>,
    pub skipped: Option<u64>,
    /// Tests excluded by a filter or deselected, when the runner reports it.
    pub filtered_out: Option<u64>,
}

impl Summary {
    fn new(runner: &'static str) -> Self {
        Summary {
            runner,
            ..Summary::default()
        }
    }

    /// At least one test failed (or errored).
    pub fn has_failures(&self) -> bool {
        self.failed.unwrap_or(0) > 0
    }

    /// The run reported no failures and ran at least one test (or reported zero failures
    /// without counting passes, as Gradle does on success).
    pub fn is_clean_pass(&self) -> bool {
        !self.has_failures()
            && (self.passed.unwrap_or(0) > 0 || (self.passed.is_none() && self.failed == Some(0)))
    }

    /// The runner reports that tests were excluded by a filter.
    pub fn reports_filter(&self) -> bool {
        self.filtered_out.unwrap_or(0) > 0
    }

    /// A short human description, for rationales: `cargo: 25 passed, 0 failed`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(p) = self.passed {
            parts.push(format!("{p} passed"));
        }
        if let Some(f) = self.failed {
            parts.push(format!("{f} failed"));
        }
        if let Some(s) = self.skipped {
            if s > 0 {
                parts.push(format!("{s} skipped"));
            }
        }
        if let Some(f) = self.filtered_out {
            if f > 0 {
                parts.push(format!("{f} filtered out"));
            }
        }
        if parts.is_empty() {
            parts.push("no counts".into());
        }
        format!("{}: {}", self.runner, parts.join(", "))
    }
}

type Parser = fn(&str) -> Option<Summary>;

const PARSERS: &[Parser] = &[
    cargo, nextest, pytest, go, jest, vitest, bun, deno, mocha, playwright, rspec, exunit, phpunit,
    maven, gradle, dotnet, ctest, unittest, xctest, generic,
];

/// Parses test-runner output. `None` when no runner's summary is recognised.
pub fn parse(output: &str) -> Option<Summary> {
    if output.is_empty() {
        return None;
    }
    PARSERS.iter().find_map(|p| p(output))
}

fn re(pattern: &str) -> Regex {
    // Patterns are constants of this module, checked by the tests.
    Regex::new(pattern).unwrap_or_else(|_| Regex::new("$^").expect("empty pattern compiles"))
}

fn num(s: Option<regex::Match<'_>>) -> u64 {
    s.and_then(|m| m.as_str().parse().ok()).unwrap_or(0)
}

fn add(slot: &mut Option<u64>, n: u64) {
    *slot = Some(slot.unwrap_or(0).saturating_add(n));
}

/// Reads `N word` pairs (`1 failed, 41 passed, 2 skipped`) into a summary.
fn count_words(summary: &mut Summary, text: &str, sep: &Regex) {
    static PAIR: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*(\d+)\s+([A-Za-z][A-Za-z ()]*?)\s*$"));
    for part in sep.split(text) {
        let Some(c) = PAIR.captures(part) else {
            continue;
        };
        let n = num(c.get(1));
        let word = c.get(2).map_or("", |m| m.as_str()).to_ascii_lowercase();
        let word = word.split_whitespace().next().unwrap_or("");
        match word {
            "passed" | "passing" | "pass" | "ok" | "succeeded" => add(&mut summary.passed, n),
            "failed" | "failing" | "fail" | "failures" | "failure" | "error" | "errors"
            | "errored" | "broken" | "timed" | "crashed" => add(&mut summary.failed, n),
            "skipped" | "skip" | "pending" | "todo" | "ignored" | "xfailed" | "xfail"
            | "incomplete" => add(&mut summary.skipped, n),
            "deselected" | "filtered" => add(&mut summary.filtered_out, n),
            // xpassed tests are unexpected passes: neither a failure nor a plain pass.
            _ => {}
        }
    }
}

static COMMA: LazyLock<Regex> = LazyLock::new(|| re(r",\s*"));
static PIPE: LazyLock<Regex> = LazyLock::new(|| re(r"\s*\|\s*"));

/// `test result: ok. 19 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; ...` per test
/// binary, summed.
fn cargo(out: &str) -> Option<Summary> {
    static RESULT: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?m)^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out",
        )
    });
    static CRASH: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^error: (?:test failed|\d+ targets? failed)"));
    let mut s = Summary::new("cargo");
    let mut any = false;
    for c in RESULT.captures_iter(out) {
        any = true;
        add(&mut s.passed, num(c.get(2)));
        let failed = num(c.get(3));
        add(
            &mut s.failed,
            if c.get(1).map(|m| m.as_str()) == Some("FAILED") {
                failed.max(1)
            } else {
                failed
            },
        );
        add(&mut s.skipped, num(c.get(4)));
        add(&mut s.filtered_out, num(c.get(6)));
    }
    if !any {
        return None;
    }
    // A test binary that crashed prints no `test result` line of its own.
    if CRASH.is_match(out) && !s.has_failures() {
        s.failed = Some(1);
    }
    Some(s)
}

/// `Summary [   0.250s] 25 tests run: 24 passed, 1 failed, 2 skipped`.
fn nextest(out: &str) -> Option<Summary> {
    static SUMMARY: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^\s*Summary \[\s*[\d.]+m?s\]\s+(\d+) tests? run:\s*(.+?)\s*$"));
    let c = SUMMARY.captures_iter(out).last()?;
    let mut s = Summary::new("nextest");
    let tail = c.get(2).map_or("", |m| m.as_str());
    // `24 passed (1 slow), 1 failed` - drop the parenthesised notes.
    static PAREN: LazyLock<Regex> = LazyLock::new(|| re(r"\([^)]*\)"));
    count_words(&mut s, &PAREN.replace_all(tail, ""), &COMMA);
    if s.passed.is_none() && s.failed.is_none() {
        return None;
    }
    s.failed.get_or_insert(0);
    Some(s)
}

/// `=== 1 failed, 41 passed, 2 skipped in 3.20s ===` (or the `-q` form without the rules),
/// `no tests ran in 0.01s`.
fn pytest(out: &str) -> Option<Summary> {
    static LINE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?m)^=*\s*((?:\d+ (?:failed|passed|skipped|deselected|xfailed|xpassed|errors?|warnings?|rerun)(?:, )?)+) in [\d.]+s(?:\s*\([^)]*\))?\s*=*\s*$",
        )
    });
    static NONE: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^=*\s*no tests ran in [\d.]+s"));
    if let Some(c) = LINE.captures_iter(out).last() {
        let mut s = Summary::new("pytest");
        count_words(&mut s, c.get(1).map_or("", |m| m.as_str()), &COMMA);
        s.failed.get_or_insert(0);
        s.passed.get_or_insert(0);
        return Some(s);
    }
    if NONE.is_match(out) {
        return Some(Summary {
            runner: "pytest",
            passed: Some(0),
            failed: Some(0),
            ..Summary::default()
        });
    }
    None
}

/// `ok <pkg> 0.1s` / `FAIL <pkg> 0.2s` per package (counted per package), `--- FAIL: TestX`
/// when no package line was printed, and `go test -json` package actions.
fn go(out: &str) -> Option<Summary> {
    static OK: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^ok\s+\S+\s+(?:[\d.]+s|\(cached\))"));
    static FAIL_PKG: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^FAIL\s+\S+\s+(?:[\d.]+s|\[[^\]]+\])"));
    static FAIL_TEST: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^--- FAIL: "));
    static NO_FILES: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\?\s+\S+\s+\[no test files\]"));
    static JSON_PKG: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r#"(?m)^\{[^\n]*"Action":"(pass|fail|skip)","Package":"[^"]*"(?:,"Elapsed":[\d.]+)?\}\s*$"#,
        )
    });
    let ok = OK.find_iter(out).count() as u64;
    let fail_pkg = FAIL_PKG.find_iter(out).count() as u64;
    let fail_test = FAIL_TEST.find_iter(out).count() as u64;
    if ok + fail_pkg + fail_test > 0 {
        let mut s = Summary::new("go");
        s.passed = Some(ok);
        s.failed = Some(if fail_pkg > 0 { fail_pkg } else { fail_test });
        return Some(s);
    }
    let mut s = Summary::new("go");
    let mut any = false;
    for c in JSON_PKG.captures_iter(out) {
        if c.get(0).is_some_and(|m| m.as_str().contains("\"Test\"")) {
            continue;
        }
        any = true;
        match c.get(1).map(|m| m.as_str()) {
            Some("pass") => add(&mut s.passed, 1),
            Some("fail") => add(&mut s.failed, 1),
            _ => add(&mut s.skipped, 1),
        }
    }
    if any {
        s.failed.get_or_insert(0);
        s.passed.get_or_insert(0);
        return Some(s);
    }
    if NO_FILES.is_match(out) {
        return Some(Summary {
            runner: "go",
            passed: Some(0),
            failed: Some(0),
            ..Summary::default()
        });
    }
    None
}

/// `Tests:       2 failed, 58 skipped, 7 passed, 67 total` (and `Test Suites:` for suites that
/// failed to run).
fn jest(out: &str) -> Option<Summary> {
    static TESTS: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^Tests:\s+(.+?),\s+(\d+) total"));
    static SUITES: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^Test Suites:\s+(.+?),\s+(?:\d+ of )?(\d+) total"));
    let tests = TESTS.captures_iter(out).last();
    let suites = SUITES.captures_iter(out).last();
    if tests.is_none() && suites.is_none() {
        return None;
    }
    let mut s = Summary::new("jest");
    if let Some(c) = &tests {
        count_words(&mut s, c.get(1).map_or("", |m| m.as_str()), &COMMA);
    }
    if let Some(c) = &suites {
        let mut suite = Summary::new("jest");
        count_words(&mut suite, c.get(1).map_or("", |m| m.as_str()), &COMMA);
        // A suite that failed to load has no failing test of its own.
        if suite.has_failures() && !s.has_failures() {
            s.failed = suite.failed;
        }
    }
    s.failed.get_or_insert(0);
    Some(s)
}

/// `      Tests  2 failed | 40 passed (42)` and `Test Files  1 failed | 2 passed (3)`.
fn vitest(out: &str) -> Option<Summary> {
    static TESTS: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^\s*Tests\s{2,}(.+?)\s*(?:\((\d+)\))?\s*$"));
    static FILES: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^\s*Test Files\s{2,}(.+?)\s*(?:\((\d+)\))?\s*$"));
    let tests = TESTS.captures_iter(out).last();
    let files = FILES.captures_iter(out).last();
    if tests.is_none() && files.is_none() {
        return None;
    }
    let mut s = Summary::new("vitest");
    if let Some(c) = &tests {
        count_words(&mut s, c.get(1).map_or("", |m| m.as_str()), &PIPE);
    }
    if let Some(c) = &files {
        let mut f = Summary::new("vitest");
        count_words(&mut f, c.get(1).map_or("", |m| m.as_str()), &PIPE);
        if f.has_failures() && !s.has_failures() {
            s.failed = f.failed;
        }
    }
    if s.passed.is_none() && s.failed.is_none() {
        return None;
    }
    s.failed.get_or_insert(0);
    Some(s)
}

/// ` 42 pass` / ` 0 fail` / `Ran 42 tests across 5 files.`
fn bun(out: &str) -> Option<Summary> {
    static RAN: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^Ran \d+ tests? across \d+ files?"));
    static PASS: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*(\d+) pass\s*$"));
    static FAIL: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*(\d+) fail\s*$"));
    static SKIP: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*(\d+) (?:skip|todo)\s*$"));
    let pass = PASS.captures_iter(out).last();
    let fail = FAIL.captures_iter(out).last();
    if !(RAN.is_match(out) || pass.is_some() && fail.is_some()) {
        return None;
    }
    let mut s = Summary::new("bun");
    s.passed = Some(pass.map_or(0, |c| num(c.get(1))));
    s.failed = Some(fail.map_or(0, |c| num(c.get(1))));
    let skipped: u64 = SKIP.captures_iter(out).map(|c| num(c.get(1))).sum();
    if skipped > 0 {
        s.skipped = Some(skipped);
    }
    Some(s)
}

/// `ok | 42 passed | 0 failed (1s)` / `FAILED | 40 passed | 2 failed | 1 ignored (1s)`.
fn deno(out: &str) -> Option<Summary> {
    static LINE: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^(?:ok|FAILED) \| (.+?)(?: \([\d.]+m?s\))?\s*$"));
    let c = LINE.captures_iter(out).last()?;
    let mut s = Summary::new("deno");
    static STEPS: LazyLock<Regex> = LazyLock::new(|| re(r"\s*\(\d+ steps?\)"));
    let body = STEPS.replace_all(c.get(1).map_or("", |m| m.as_str()), "");
    count_words(&mut s, &body, &PIPE);
    s.passed?;
    s.failed.get_or_insert(0);
    Some(s)
}

/// `  7 passing (12ms)` / `  2 failing` / `  1 pending`.
fn mocha(out: &str) -> Option<Summary> {
    static PASSING: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*(\d+) passing \("));
    static FAILING: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*(\d+) failing\s*$"));
    static PENDING: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*(\d+) pending\s*$"));
    let passing = PASSING.captures_iter(out).last();
    let failing = FAILING.captures_iter(out).last();
    if passing.is_none() && failing.is_none() {
        return None;
    }
    let mut s = Summary::new("mocha");
    s.passed = Some(passing.map_or(0, |c| num(c.get(1))));
    s.failed = Some(failing.map_or(0, |c| num(c.get(1))));
    if let Some(c) = PENDING.captures_iter(out).last() {
        s.skipped = Some(num(c.get(1)));
    }
    Some(s)
}

/// Playwright: `  11 passed (20.1s)`, `  1 failed`, `  2 flaky`, `  3 skipped`.
fn playwright(out: &str) -> Option<Summary> {
    static PASSED: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^\s+(\d+) passed \([\d.]+m?s\)\s*$"));
    static OTHER: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^\s+(\d+) (failed|flaky|skipped|did not run|interrupted)\s*$"));
    let passed = PASSED.captures_iter(out).last();
    let others: Vec<_> = OTHER.captures_iter(out).collect();
    if passed.is_none()
        && !others
            .iter()
            .any(|c| c.get(2).is_some_and(|m| m.as_str() == "failed"))
    {
        return None;
    }
    let mut s = Summary::new("playwright");
    s.passed = Some(passed.map_or(0, |c| num(c.get(1))));
    s.failed = Some(0);
    for c in others {
        match c.get(2).map(|m| m.as_str()) {
            Some("failed" | "interrupted") => add(&mut s.failed, num(c.get(1))),
            Some("skipped" | "did not run") => add(&mut s.skipped, num(c.get(1))),
            // Flaky tests failed first and passed on retry.
            _ => add(&mut s.passed, num(c.get(1))),
        }
    }
    Some(s)
}

/// `42 examples, 2 failures, 1 pending` (+ `N errors occurred outside of examples`).
fn rspec(out: &str) -> Option<Summary> {
    static LINE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?m)^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?",
        )
    });
    static OUTSIDE: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)(\d+) errors? occurred outside of examples"));
    let c = LINE.captures_iter(out).last()?;
    let examples = num(c.get(1));
    let failures = num(c.get(2));
    let pending = num(c.get(3));
    let outside: u64 = OUTSIDE
        .captures_iter(out)
        .last()
        .map_or(0, |o| num(o.get(1)));
    Some(Summary {
        runner: "rspec",
        passed: Some(examples.saturating_sub(failures + pending)),
        failed: Some(failures + outside),
        skipped: Some(pending),
        filtered_out: None,
    })
}

/// ExUnit: `42 tests, 0 failures` / `3 doctests, 40 tests, 2 failures, 1 excluded`.
fn exunit(out: &str) -> Option<Summary> {
    static LINE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?m)^(?:(\d+) doctests?, )?(?:(\d+) properties, )?(\d+) tests?, (\d+) failures?(?:, (\d+) excluded)?(?:, (\d+) skipped)?(?:, (\d+) invalid)?\s*$",
        )
    });
    let c = LINE.captures_iter(out).last()?;
    let total = num(c.get(1)) + num(c.get(2)) + num(c.get(3));
    let failures = num(c.get(4)) + num(c.get(7));
    let skipped = num(c.get(6));
    Some(Summary {
        runner: "exunit",
        passed: Some(total.saturating_sub(failures + skipped)),
        failed: Some(failures),
        skipped: Some(skipped),
        filtered_out: c.get(5).map(|m| m.as_str().parse().unwrap_or(0)),
    })
}

/// `OK (42 tests, 120 assertions)` or `Tests: 42, Assertions: 120, Failures: 2, Errors: 1,
/// Skipped: 1.`; Pest's `Tests:    2 failed, 40 passed (100 assertions)`.
fn phpunit(out: &str) -> Option<Summary> {
    static OK: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^OK \((\d+) tests?, \d+ assertions?\)"));
    static TESTS: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^Tests: (\d+), Assertions: \d+(.*)$"));
    static FIELD: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(Errors|Failures|Skipped|Incomplete|Risky|Warnings|Deprecations|Notices): (\d+)")
    });
    static PEST: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^\s*Tests:\s+(.+?)\s*\(\d+ assertions?\)"));
    if let Some(c) = OK.captures_iter(out).last() {
        return Some(Summary {
            runner: "phpunit",
            passed: Some(num(c.get(1))),
            failed: Some(0),
            ..Summary::default()
        });
    }
    if let Some(c) = TESTS.captures_iter(out).last() {
        let total = num(c.get(1));
        let (mut failed, mut skipped) = (0, 0);
        for f in FIELD.captures_iter(c.get(2).map_or("", |m| m.as_str())) {
            match f.get(1).map(|m| m.as_str()) {
                Some("Errors" | "Failures") => failed += num(f.get(2)),
                Some("Skipped" | "Incomplete") => skipped += num(f.get(2)),
                _ => {}
            }
        }
        return Some(Summary {
            runner: "phpunit",
            passed: Some(total.saturating_sub(failed + skipped)),
            failed: Some(failed),
            skipped: Some(skipped),
            filtered_out: None,
        });
    }
    if let Some(c) = PEST.captures_iter(out).last() {
        let mut s = Summary::new("pest");
        count_words(&mut s, c.get(1).map_or("", |m| m.as_str()), &COMMA);
        s.passed?;
        s.failed.get_or_insert(0);
        return Some(s);
    }
    None
}

/// Maven Surefire / JUnit: `Tests run: 42, Failures: 1, Errors: 0, Skipped: 2`; the aggregate
/// line (without `Time elapsed`) when present, else the per-class lines summed.
fn maven(out: &str) -> Option<Summary> {
    static LINE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?m)^(?:\[\w+\]\s+)?Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(, Time elapsed[^\n]*)?",
        )
    });
    let all: Vec<_> = LINE.captures_iter(out).collect();
    if all.is_empty() {
        return None;
    }
    let aggregate: Vec<_> = all.iter().filter(|c| c.get(5).is_none()).collect();
    let lines: Vec<_> = if let Some(last) = aggregate.last() {
        vec![*last]
    } else {
        all.iter().collect()
    };
    let (mut run, mut failed, mut skipped) = (0, 0, 0);
    for c in lines {
        run += num(c.get(1));
        failed += num(c.get(2)) + num(c.get(3));
        skipped += num(c.get(4));
    }
    Some(Summary {
        runner: "junit",
        passed: Some(run.saturating_sub(failed + skipped)),
        failed: Some(failed),
        skipped: Some(skipped),
        filtered_out: None,
    })
}

/// Gradle: `42 tests completed, 2 failed, 1 skipped`; on success Gradle prints no counts, so a
/// `BUILD SUCCESSFUL` after a test task reads as zero failures.
fn gradle(out: &str) -> Option<Summary> {
    static COUNTS: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^(\d+) tests? completed(?:, (\d+) failed)?(?:, (\d+) skipped)?"));
    static TEST_TASK: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^> Task \S*:?(?:test|check)\w*(?-u:\b)"));
    static SUCCESS: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^BUILD SUCCESSFUL"));
    static FAILING: LazyLock<Regex> =
        LazyLock::new(|| re(r"There were failing tests|(?m)^> Task \S*test\w* FAILED"));
    if let Some(c) = COUNTS.captures_iter(out).last() {
        let total = num(c.get(1));
        let failed = num(c.get(2));
        let skipped = num(c.get(3));
        return Some(Summary {
            runner: "gradle",
            passed: Some(total.saturating_sub(failed + skipped)),
            failed: Some(failed),
            skipped: Some(skipped),
            filtered_out: None,
        });
    }
    if FAILING.is_match(out) {
        return Some(Summary {
            runner: "gradle",
            failed: Some(1),
            ..Summary::default()
        });
    }
    if TEST_TASK.is_match(out) && SUCCESS.is_match(out) {
        return Some(Summary {
            runner: "gradle",
            failed: Some(0),
            ..Summary::default()
        });
    }
    None
}

/// `Passed!  - Failed:     0, Passed:    42, Skipped:     0, Total:    42, ...` per test
/// assembly (summed); .NET 10's `Test summary: total: 42, failed: 0, succeeded: 42, skipped: 0`;
/// the older `Total tests: 42` block.
fn dotnet(out: &str) -> Option<Summary> {
    static LINE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?m)^\s*(?:Passed|Failed)!\s+-\s+Failed:\s+(\d+),\s+Passed:\s+(\d+),\s+Skipped:\s+(\d+),\s+Total:\s+\d+",
        )
    });
    static NEW: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?mi)^\s*Test summary: total: (\d+), failed: (\d+), succeeded: (\d+), skipped: (\d+)")
    });
    static OLD_TOTAL: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^Total tests: (\d+)"));
    static OLD_FIELD: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^\s+(Passed|Failed|Skipped): (\d+)\s*$"));
    let mut s = Summary::new("dotnet");
    let mut any = false;
    for c in LINE.captures_iter(out) {
        any = true;
        add(&mut s.failed, num(c.get(1)));
        add(&mut s.passed, num(c.get(2)));
        add(&mut s.skipped, num(c.get(3)));
    }
    if any {
        return Some(s);
    }
    if let Some(c) = NEW.captures_iter(out).last() {
        return Some(Summary {
            runner: "dotnet",
            passed: Some(num(c.get(3))),
            failed: Some(num(c.get(2))),
            skipped: Some(num(c.get(4))),
            filtered_out: None,
        });
    }
    if OLD_TOTAL.is_match(out) {
        for c in OLD_FIELD.captures_iter(out) {
            let n = num(c.get(2));
            match c.get(1).map(|m| m.as_str()) {
                Some("Passed") => add(&mut s.passed, n),
                Some("Failed") => add(&mut s.failed, n),
                _ => add(&mut s.skipped, n),
            }
        }
        s.failed.get_or_insert(0);
        return Some(s);
    }
    None
}

/// `100% tests passed, 0 tests failed out of 12`.
fn ctest(out: &str) -> Option<Summary> {
    static LINE: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^\s*\d+% tests passed,\s+(\d+) tests? failed out of (\d+)"));
    let c = LINE.captures_iter(out).last()?;
    let failed = num(c.get(1));
    let total = num(c.get(2));
    Some(Summary {
        runner: "ctest",
        passed: Some(total.saturating_sub(failed)),
        failed: Some(failed),
        ..Summary::default()
    })
}

/// Python unittest: `Ran 42 tests in 0.1s` then `OK` or `FAILED (failures=2, errors=1)`.
fn unittest(out: &str) -> Option<Summary> {
    static RAN: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^Ran (\d+) tests? in [\d.]+s\s*$"));
    static RESULT: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^(OK|FAILED)(?: \(([^)]*)\))?\s*$"));
    static FIELD: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(failures|errors|skipped|expected failures|unexpected successes)=(\d+)")
    });
    let ran = RAN.captures_iter(out).last()?;
    let ran_at = ran.get(0).map_or(0, |m| m.end());
    let result = RESULT.captures_iter(&out[ran_at..]).next()?;
    let total = num(ran.get(1));
    let (mut failed, mut skipped) = (0, 0);
    for f in FIELD.captures_iter(result.get(2).map_or("", |m| m.as_str())) {
        match f.get(1).map(|m| m.as_str()) {
            Some("failures" | "errors" | "unexpected successes") => failed += num(f.get(2)),
            Some(_) => skipped += num(f.get(2)),
            None => {}
        }
    }
    if result.get(1).map(|m| m.as_str()) == Some("FAILED") {
        failed = failed.max(1);
    }
    Some(Summary {
        runner: "unittest",
        passed: Some(total.saturating_sub(failed + skipped)),
        failed: Some(failed),
        skipped: Some(skipped),
        filtered_out: None,
    })
}

/// XCTest: `Executed 42 tests, with 2 failures (0 unexpected) in 1.2 (1.3) seconds`.
fn xctest(out: &str) -> Option<Summary> {
    static LINE: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?m)Executed (\d+) tests?, with (\d+) failures? \((\d+) unexpected\)")
    });
    let c = LINE.captures_iter(out).last()?;
    let total = num(c.get(1));
    let failed = num(c.get(2));
    Some(Summary {
        runner: "xctest",
        passed: Some(total.saturating_sub(failed)),
        failed: Some(failed),
        ..Summary::default()
    })
}

/// Home-grown runners: every `N passed, M failed` line summed, or `All N tests passed`.
fn generic(out: &str) -> Option<Summary> {
    static PAIR: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?mi)^\W*(?:tests?:?\s*)?(\d+) (?:tests? )?passed[,;]\s*(\d+) (?:tests? )?failed(?-u:\b)|^\W*(?:tests?:?\s*)?(\d+) (?:tests? )?failed[,;]\s*(\d+) (?:tests? )?passed(?-u:\b)",
        )
    });
    static ALL: LazyLock<Regex> = LazyLock::new(|| re(r"(?mi)^\W*all (\d+) tests? passed(?-u:\b)"));
    let mut s = Summary::new("generic");
    let mut any = false;
    for c in PAIR.captures_iter(out) {
        any = true;
        if c.get(1).is_some() {
            add(&mut s.passed, num(c.get(1)));
            add(&mut s.failed, num(c.get(2)));
        } else {
            add(&mut s.failed, num(c.get(3)));
            add(&mut s.passed, num(c.get(4)));
        }
    }
    if any {
        return Some(s);
    }
    let c = ALL.captures_iter(out).last()?;
    Some(Summary {
        runner: "generic",
        passed: Some(num(c.get(1))),
        failed: Some(0),
        ..Summary::default()
    })
}

#[cfg(test)]
mod tests;
