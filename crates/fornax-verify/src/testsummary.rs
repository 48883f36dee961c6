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
        LazyLock::new(|| re(r"(?m)^> Task \S*:?(?:test|check)\w*\b"));
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
            r"(?mi)^\W*(?:tests?:?\s*)?(\d+) (?:tests? )?passed[,;]\s*(\d+) (?:tests? )?failed\b|^\W*(?:tests?:?\s*)?(\d+) (?:tests? )?failed[,;]\s*(\d+) (?:tests? )?passed\b",
        )
    });
    static ALL: LazyLock<Regex> = LazyLock::new(|| re(r"(?mi)^\W*all (\d+) tests? passed\b"));
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
mod tests {
    use super::*;

    fn counts(s: &Summary) -> (Option<u64>, Option<u64>, Option<u64>, Option<u64>) {
        (s.passed, s.failed, s.skipped, s.filtered_out)
    }

    #[test]
    fn cargo_sums_binaries() {
        let out = "\nrunning 12 tests\ntest a::b ... ok\n\ntest result: ok. 12 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.02s\n\n     Running tests/cli.rs\n\nrunning 4 tests\ntest result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.31s\n\n   Doc-tests weatherkit\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 3 filtered out; finished in 0.11s\n";
        let s = parse(out).unwrap();
        assert_eq!(s.runner, "cargo");
        assert_eq!(counts(&s), (Some(18), Some(0), Some(1), Some(3)));
        assert!(s.is_clean_pass());
    }

    #[test]
    fn cargo_failure_and_crash() {
        let out = "test parse::rejects_empty ... FAILED\n\nfailures:\n\n---- parse::rejects_empty stdout ----\nthread 'parse::rejects_empty' panicked at src/parse.rs:40:9\n\ntest result: FAILED. 30 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.05s\n\nerror: test failed, to rerun pass `--lib`\n";
        assert_eq!(parse(out).unwrap().failed, Some(1));
        let crashed = "test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\nerror: test failed, to rerun pass `--test integration`\n\nCaused by:\n  process didn't exit successfully (signal: 11, SIGSEGV)\n";
        assert!(parse(crashed).unwrap().has_failures());
    }

    #[test]
    fn nextest_summary() {
        let out = "    Starting 27 tests across 4 binaries (1 test skipped)\n        PASS [   0.011s] ledger::tests::balance\n        FAIL [   0.020s] ledger::tests::overdraft\n------------\n     Summary [   0.412s] 27 tests run: 26 passed (2 slow), 1 failed, 1 skipped\n";
        let s = parse(out).unwrap();
        assert_eq!(s.runner, "nextest");
        assert_eq!(counts(&s), (Some(26), Some(1), Some(1), None));
        let ok = "     Summary [   0.102s] 9 tests run: 9 passed, 0 skipped\n";
        assert!(parse(ok).unwrap().is_clean_pass());
    }

    #[test]
    fn pytest_forms() {
        let quiet = "....F....\n=== short test summary info ===\nFAILED tests/test_rates.py::test_round - AssertionError\n1 failed, 57 passed in 3.88s\n";
        let s = parse(quiet).unwrap();
        assert_eq!(
            (s.runner, s.passed, s.failed),
            ("pytest", Some(57), Some(1))
        );
        let ruled =
            "============ 120 passed, 3 skipped, 4 deselected, 2 warnings in 12.01s ============\n";
        let s = parse(ruled).unwrap();
        assert_eq!(counts(&s), (Some(120), Some(0), Some(3), Some(4)));
        assert!(s.reports_filter());
        let errors = "=========== 2 errors in 0.41s ===========\n";
        assert!(parse(errors).unwrap().has_failures());
        let none =
            "============================ no tests ran in 0.02s =============================\n";
        assert!(!parse(none).unwrap().is_clean_pass());
        let timed = "======= 64 passed in 2.87s (0:00:02) =======\n";
        assert_eq!(parse(timed).unwrap().passed, Some(64));
    }

    #[test]
    fn go_packages() {
        let ok = "ok  \tgithub.com/acme/relay/internal/queue\t0.231s\n?   \tgithub.com/acme/relay/cmd/relayd\t[no test files]\nok  \tgithub.com/acme/relay/internal/wire\t(cached)\n";
        let s = parse(ok).unwrap();
        assert_eq!((s.runner, s.passed, s.failed), ("go", Some(2), Some(0)));
        let fail = "--- FAIL: TestBackoff (0.00s)\n    backoff_test.go:31: got 400ms, want 800ms\nFAIL\nFAIL\tgithub.com/acme/relay/internal/retry\t0.114s\nok  \tgithub.com/acme/relay/internal/wire\t0.020s\nFAIL\n";
        let s = parse(fail).unwrap();
        assert_eq!((s.passed, s.failed), (Some(1), Some(1)));
        let build = "# github.com/acme/relay/internal/retry\ninternal/retry/backoff.go:12:2: undefined: jitter\nFAIL\tgithub.com/acme/relay/internal/retry [build failed]\n";
        assert!(parse(build).unwrap().has_failures());
        let json = "{\"Time\":\"2026-01-02T10:00:00Z\",\"Action\":\"pass\",\"Package\":\"example.com/m/a\",\"Test\":\"TestA\",\"Elapsed\":0}\n{\"Time\":\"2026-01-02T10:00:00Z\",\"Action\":\"pass\",\"Package\":\"example.com/m/a\",\"Elapsed\":0.01}\n{\"Time\":\"2026-01-02T10:00:00Z\",\"Action\":\"fail\",\"Package\":\"example.com/m/b\",\"Elapsed\":0.02}\n";
        let s = parse(json).unwrap();
        assert_eq!((s.passed, s.failed), (Some(1), Some(1)));
    }

    #[test]
    fn jest_tests_line() {
        let out = "PASS src/cart.test.js\nFAIL src/tax.test.js\n  ● tax › rounds half up\n\nTest Suites: 1 failed, 1 passed, 2 total\nTests:       1 failed, 2 skipped, 30 passed, 33 total\nSnapshots:   0 total\nTime:        2.31 s\n";
        let s = parse(out).unwrap();
        assert_eq!(s.runner, "jest");
        assert_eq!(counts(&s), (Some(30), Some(1), Some(2), None));
        let filtered = "Test Suites: 4 skipped, 1 passed, 1 of 5 total\nTests:       41 skipped, 9 passed, 50 total\n";
        let s = parse(filtered).unwrap();
        assert_eq!(
            (s.passed, s.failed, s.skipped),
            (Some(9), Some(0), Some(41))
        );
        let load_error = "FAIL src/broken.test.ts\n  ● Test suite failed to run\n\nTest Suites: 1 failed, 3 passed, 4 total\nTests:       25 passed, 25 total\n";
        assert!(parse(load_error).unwrap().has_failures());
    }

    #[test]
    fn vitest_lines() {
        let out = " ✓ src/a.test.ts (10 tests) 12ms\n ❯ src/b.test.ts (8 tests | 1 failed) 30ms\n\n Test Files  1 failed | 1 passed (2)\n      Tests  1 failed | 17 passed (18)\n   Start at  10:01:02\n   Duration  900ms\n";
        let s = parse(out).unwrap();
        assert_eq!(
            (s.runner, s.passed, s.failed),
            ("vitest", Some(17), Some(1))
        );
        let ok = " Test Files  4 passed (4)\n      Tests  52 passed | 3 skipped (55)\n";
        let s = parse(ok).unwrap();
        assert_eq!(counts(&s), (Some(52), Some(0), Some(3), None));
    }

    #[test]
    fn bun_deno_mocha() {
        let bun = "src/math.test.ts:\n✓ adds [0.10ms]\n\n 14 pass\n 1 skip\n 0 fail\n 30 expect() calls\nRan 15 tests across 3 files. [41.00ms]\n";
        let s = parse(bun).unwrap();
        assert_eq!(counts(&s), (Some(14), Some(0), Some(1), None));
        let deno = "running 3 tests from ./util_test.ts\nparse ... ok (2ms)\n\nFAILED | 11 passed (3 steps) | 2 failed | 1 ignored (410ms)\n";
        let s = parse(deno).unwrap();
        assert_eq!(counts(&s), (Some(11), Some(2), Some(1), None));
        let mocha = "  router\n    ✔ matches params\n    1) rejects bad verbs\n\n\n  23 passing (51ms)\n  1 pending\n  1 failing\n";
        let s = parse(mocha).unwrap();
        assert_eq!(counts(&s), (Some(23), Some(1), Some(1), None));
    }

    #[test]
    fn playwright_summary() {
        let out = "Running 12 tests using 4 workers\n\n  1) [chromium] › cart.spec.ts:8:3 › adds item\n\n  1 failed\n    [chromium] › cart.spec.ts:8:3 › adds item\n  1 flaky\n    [webkit] › login.spec.ts:4:1 › logs in\n  10 passed (21.4s)\n";
        let s = parse(out).unwrap();
        assert_eq!(
            (s.runner, s.passed, s.failed),
            ("playwright", Some(11), Some(1))
        );
        assert!(parse("  12 passed (9.0s)\n").unwrap().is_clean_pass());
    }

    #[test]
    fn rspec_exunit_phpunit() {
        let rspec = "Finished in 1.2 seconds (files took 0.4 seconds to load)\n48 examples, 2 failures, 3 pending\n";
        let s = parse(rspec).unwrap();
        assert_eq!(counts(&s), (Some(43), Some(2), Some(3), None));
        let ex = "Finished in 0.3 seconds (0.1s async, 0.2s sync)\n2 doctests, 30 tests, 0 failures, 1 excluded\n";
        let s = parse(ex).unwrap();
        assert_eq!(
            (s.runner, s.passed, s.failed, s.filtered_out),
            ("exunit", Some(32), Some(0), Some(1))
        );
        let ok = "PHPUnit 11.2.1 by Sebastian Bergmann and contributors.\n\n...............  15 / 15 (100%)\n\nTime: 00:00.120, Memory: 10.00 MB\n\nOK (15 tests, 38 assertions)\n";
        assert!(parse(ok).unwrap().is_clean_pass());
        let bad = "FAILURES!\nTests: 20, Assertions: 51, Failures: 2, Errors: 1, Skipped: 1.\n";
        let s = parse(bad).unwrap();
        assert_eq!(counts(&s), (Some(16), Some(3), Some(1), None));
        let pest = "  Tests:    1 failed, 27 passed (64 assertions)\n  Duration: 0.61s\n";
        assert_eq!(parse(pest).unwrap().failed, Some(1));
    }

    #[test]
    fn junit_gradle_dotnet_ctest() {
        let mvn = "[INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 s - in com.acme.CartTest\n[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.2 s <<< FAILURE! - in com.acme.TaxTest\n[INFO] Results:\n[ERROR] Tests run: 8, Failures: 1, Errors: 0, Skipped: 0\n[INFO] BUILD FAILURE\n";
        let s = parse(mvn).unwrap();
        assert_eq!((s.runner, s.passed, s.failed), ("junit", Some(7), Some(1)));
        let gradle_fail = "> Task :app:test FAILED\n\nOrderServiceTest > refundsPartially() FAILED\n\n31 tests completed, 1 failed, 2 skipped\n\nFAILURE: Build failed with an exception.\n";
        let s = parse(gradle_fail).unwrap();
        assert_eq!(counts(&s), (Some(28), Some(1), Some(2), None));
        let gradle_ok = "> Task :compileJava UP-TO-DATE\n> Task :test\n\nBUILD SUCCESSFUL in 4s\n5 actionable tasks: 1 executed, 4 up-to-date\n";
        let s = parse(gradle_ok).unwrap();
        assert!(s.is_clean_pass());
        let dotnet = "Passed!  - Failed:     0, Passed:    40, Skipped:     1, Total:    41, Duration: 1 s - Shop.Tests.dll (net8.0)\nFailed!  - Failed:     2, Passed:    10, Skipped:     0, Total:    12, Duration: 300 ms - Shop.Api.Tests.dll (net8.0)\n";
        let s = parse(dotnet).unwrap();
        assert_eq!(counts(&s), (Some(50), Some(2), Some(1), None));
        let dotnet10 =
            "Test summary: total: 12, failed: 0, succeeded: 12, skipped: 0, duration: 0.8s\n";
        assert!(parse(dotnet10).unwrap().is_clean_pass());
        let ctest = "1/3 Test #1: unit ...........   Passed    0.01 sec\n\n67% tests passed, 1 tests failed out of 3\n\nTotal Test time (real) =   0.05 sec\n";
        let s = parse(ctest).unwrap();
        assert_eq!((s.passed, s.failed), (Some(2), Some(1)));
    }

    #[test]
    fn unittest_xctest_generic() {
        let ut = "..F.\n======\nFAIL: test_b (tests.test_x.T)\n----------------------------------------------------------------------\nRan 4 tests in 0.003s\n\nFAILED (failures=1)\n";
        let s = parse(ut).unwrap();
        assert_eq!(
            (s.runner, s.passed, s.failed),
            ("unittest", Some(3), Some(1))
        );
        let ok = "Ran 9 tests in 0.010s\n\nOK (skipped=1)\n";
        assert_eq!(
            counts(&parse(ok).unwrap()),
            (Some(8), Some(0), Some(1), None)
        );
        let xc = "Test Suite 'All tests' passed at 2026-01-01 10:00:00.000.\n\t Executed 12 tests, with 0 failures (0 unexpected) in 0.041 (0.050) seconds\n";
        assert!(parse(xc).unwrap().is_clean_pass());
        let home = "./build/test_core\n18 passed, 0 failed\n./build/test_io\n3 passed, 2 failed\nmake: *** [Makefile:20: check] Error 1\n";
        let s = parse(home).unwrap();
        assert_eq!(
            (s.runner, s.passed, s.failed),
            ("generic", Some(21), Some(2))
        );
        let all = "All 40 tests passed\n";
        assert!(parse(all).unwrap().is_clean_pass());
    }

    #[test]
    fn ordinary_output_is_not_a_summary() {
        for out in [
            "",
            "   Compiling demo v0.1.0\n    Finished `dev` profile in 1.2s\n",
            "[main 1a2b3c4] fix: things\n 1 file changed\n",
            "the parser passed the token to the lexer\n",
            "src/lib.rs:10: passed = 3\n",
        ] {
            assert_eq!(parse(out), None, "{out:?}");
        }
    }

    #[test]
    fn describe_is_compact() {
        let s = Summary {
            runner: "pytest",
            passed: Some(3),
            failed: Some(1),
            skipped: Some(0),
            filtered_out: Some(2),
        };
        assert_eq!(s.describe(), "pytest: 3 passed, 1 failed, 2 filtered out");
    }
}
