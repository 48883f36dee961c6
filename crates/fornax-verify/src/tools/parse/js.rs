//! JavaScript runners: jest, vitest, mocha, bun, deno, playwright, and jest's JSON report.

use std::sync::LazyLock;

use fornax_types::evidence::TestOutcome;
use fornax_types::ScopeUnit;
use regex::Regex;

use super::*;

/// `Tests:       2 failed, 58 skipped, 7 passed, 67 total` (and `Test Suites:` for suites that
/// failed to run); `PASS src/a.test.js` / `FAIL src/b.test.js` per file, `● suite › test` per
/// failing test and, with `--verbose`, `✓ name` / `✕ name` per test.
pub fn jest(out: &str) -> Option<TestReport> {
    static TESTS: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^Tests:\s+(.+?),\s+(\d+) total"));
    static SUITES: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^Test Suites:\s+(.+?),\s+(?:\d+ of )?(\d+) total"));
    static FILE: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*(PASS|FAIL)\s+(\S+)"));
    static FAILURE: LazyLock<Regex> = LazyLock::new(|| re(r"^\s+● (.+?)\s*$"));
    static VERBOSE: LazyLock<Regex> = LazyLock::new(|| {
        re(r"^\s+([✓✕○√×]) (?:skipped |todo )?(.+?)(?: \(\d+(?:\.\d+)? m?s\))?\s*$")
    });
    if !out.contains("Tests:") && !out.contains("Test Suites:") {
        return None;
    }
    let out = plain(out);
    let out = out.as_ref();
    let tests = TESTS.captures_iter(out).last();
    let suites = SUITES.captures_iter(out).last();
    if tests.is_none() && suites.is_none() {
        return None;
    }
    let mut r = TestReport::new("jest");
    if let Some(c) = &tests {
        count_words(&mut r, c.get(1).map_or("", |m| m.as_str()), &COMMA);
    }
    if let Some(c) = &suites {
        let mut suite = TestReport::new("jest");
        count_words(&mut suite, c.get(1).map_or("", |m| m.as_str()), &COMMA);
        // A suite that failed to load has no failing test of its own.
        if suite.has_failures() && !r.has_failures() {
            r.failed = suite.failed;
        }
    }
    r.failed.get_or_insert(0);
    for line in out.lines() {
        if let Some(c) = FILE.captures(line) {
            let outcome = if c.get(1).map(|m| m.as_str()) == Some("PASS") {
                TestOutcome::Passed
            } else {
                TestOutcome::Failed
            };
            r.scope(
                ScopeUnit::File,
                c.get(2).map_or("", |m| m.as_str()),
                outcome,
            );
        } else if let Some(c) = FAILURE.captures(line) {
            let name = c.get(1).map_or("", |m| m.as_str());
            // `● Test suite failed to run` names no test.
            if name != "Test suite failed to run" {
                r.scope(
                    ScopeUnit::Test,
                    &name.replace(" › ", " > "),
                    TestOutcome::Failed,
                );
            }
        } else if let Some(c) = VERBOSE.captures(line) {
            let outcome = match c.get(1).map_or("", |m| m.as_str()) {
                "✓" | "√" => TestOutcome::Passed,
                "✕" | "×" => TestOutcome::Failed,
                _ => TestOutcome::Skipped,
            };
            r.scope(
                ScopeUnit::Test,
                c.get(2).map_or("", |m| m.as_str()),
                outcome,
            );
        }
    }
    Some(r.finish())
}

/// `      Tests  2 failed | 40 passed (42)` and `Test Files  1 failed | 2 passed (3)`; per file
/// ` ✓ src/a.test.ts (3 tests) 2ms` / ` ❯ src/b.test.ts (3 tests | 1 failed)`, per test
/// `   × name` / `   ✓ name` and `FAIL  src/b.test.ts > suite > name`.
pub fn vitest(out: &str) -> Option<TestReport> {
    static TESTS: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^\s*Tests\s{2,}(.+?)\s*(?:\((\d+)\))?\s*$"));
    static FILES: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^\s*Test Files\s{2,}(.+?)\s*(?:\((\d+)\))?\s*$"));
    static FILE: LazyLock<Regex> = LazyLock::new(|| {
        re(r"^ ([✓❯×↓]) (\S+\.\w+) \((\d+) tests?(?: \| (\d+) failed)?(?: \| (\d+) skipped)?\)")
    });
    static TEST: LazyLock<Regex> =
        LazyLock::new(|| re(r"^\s{3,}([✓×↓]) (.+?)(?: \d+(?:\.\d+)?m?s)?\s*$"));
    static FAIL: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*FAIL\s+(\S+\.\w+) > (.+?)\s*$"));
    if !out.contains("Test") {
        return None;
    }
    let out = plain(out);
    let out = out.as_ref();
    let tests = TESTS.captures_iter(out).last();
    let files = FILES.captures_iter(out).last();
    if tests.is_none() && files.is_none() {
        return None;
    }
    let mut r = TestReport::new("vitest");
    if let Some(c) = &tests {
        count_words(&mut r, c.get(1).map_or("", |m| m.as_str()), &PIPE);
    }
    if let Some(c) = &files {
        let mut f = TestReport::new("vitest");
        count_words(&mut f, c.get(1).map_or("", |m| m.as_str()), &PIPE);
        if f.has_failures() && !r.has_failures() {
            r.failed = f.failed;
        }
    }
    if r.passed.is_none() && r.failed.is_none() {
        return None;
    }
    r.failed.get_or_insert(0);
    for line in out.lines() {
        if let Some(c) = FILE.captures(line) {
            let total = num(c.get(3));
            let failed = num(c.get(4));
            let skipped = num(c.get(5));
            let outcome = match c.get(1).map_or("", |m| m.as_str()) {
                "✓" => TestOutcome::Passed,
                "↓" => TestOutcome::Skipped,
                _ => TestOutcome::Failed,
            };
            let name = c.get(2).map_or("", |m| m.as_str());
            r.scope_counted(
                ScopeUnit::File,
                name,
                outcome,
                total.checked_sub(failed + skipped).filter(|_| total > 0),
                Some(failed).filter(|_| total > 0),
            );
        } else if let Some(c) = FAIL.captures(line) {
            r.scope(
                ScopeUnit::File,
                c.get(1).map_or("", |m| m.as_str()),
                TestOutcome::Failed,
            );
            r.scope(
                ScopeUnit::Test,
                c.get(2).map_or("", |m| m.as_str()),
                TestOutcome::Failed,
            );
        } else if let Some(c) = TEST.captures(line) {
            let outcome = match c.get(1).map_or("", |m| m.as_str()) {
                "✓" => TestOutcome::Passed,
                "×" => TestOutcome::Failed,
                _ => TestOutcome::Skipped,
            };
            r.scope(
                ScopeUnit::Test,
                c.get(2).map_or("", |m| m.as_str()),
                outcome,
            );
        }
    }
    Some(r.finish())
}

/// ` 42 pass` / ` 0 fail` / `Ran 42 tests across 5 files.`; per file the `path:` headers, per
/// test `(pass) suite > name [0.03ms]` / `(fail) ...` / `(skip) ...`.
pub fn bun(out: &str) -> Option<TestReport> {
    static RAN: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^Ran \d+ tests? across \d+ files?"));
    static PASS: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*(\d+) pass\s*$"));
    static FAIL: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*(\d+) fail\s*$"));
    static SKIP: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*(\d+) (?:skip|todo)\s*$"));
    static HEADER: LazyLock<Regex> = LazyLock::new(|| {
        re(r"^(\S+\.(?:test|spec|_test)\.\w+|\S+_test\.\w+|\S+\.(?:test|spec)\.\w+):$")
    });
    static TEST: LazyLock<Regex> =
        LazyLock::new(|| re(r"^\((pass|fail|skip|todo)\) (.+?)(?: \[[\d.]+m?s\])?\s*$"));
    if !out.contains(" pass") {
        return None;
    }
    let out = plain(out);
    let out = out.as_ref();
    let pass = PASS.captures_iter(out).last();
    let fail = FAIL.captures_iter(out).last();
    if !(RAN.is_match(out) || pass.is_some() && fail.is_some()) {
        return None;
    }
    let mut r = TestReport::new("bun");
    r.passed = Some(pass.map_or(0, |c| num(c.get(1))));
    r.failed = Some(fail.map_or(0, |c| num(c.get(1))));
    let skipped: u64 = SKIP.captures_iter(out).map(|c| num(c.get(1))).sum();
    if skipped > 0 {
        r.skipped = Some(skipped);
    }
    let mut file: Option<(String, TestOutcome)> = None;
    let flush = |r: &mut TestReport, file: &mut Option<(String, TestOutcome)>| {
        if let Some((name, outcome)) = file.take() {
            r.scope(ScopeUnit::File, &name, outcome);
        }
    };
    for line in out.lines() {
        let line = line.trim_end();
        if let Some(c) = HEADER.captures(line) {
            flush(&mut r, &mut file);
            file = Some((
                c.get(1).map_or("", |m| m.as_str()).to_string(),
                TestOutcome::Skipped,
            ));
        } else if let Some(c) = TEST.captures(line) {
            let outcome = match c.get(1).map_or("", |m| m.as_str()) {
                "pass" => TestOutcome::Passed,
                "fail" => TestOutcome::Failed,
                _ => TestOutcome::Skipped,
            };
            r.scope(
                ScopeUnit::Test,
                c.get(2).map_or("", |m| m.as_str()),
                outcome,
            );
            if let Some((_, o)) = file.as_mut() {
                if outcome == TestOutcome::Failed || *o == TestOutcome::Skipped {
                    *o = outcome;
                }
            }
        }
    }
    flush(&mut r, &mut file);
    Some(r.finish())
}

/// `ok | 42 passed | 0 failed (1s)` / `FAILED | 40 passed | 2 failed | 1 ignored (1s)`; per file
/// `running 3 tests from ./a_test.ts`, per test `name ... ok (2ms)` / `name ... FAILED (1ms)`.
pub fn deno(out: &str) -> Option<TestReport> {
    static LINE: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^(?:ok|FAILED) \| (.+?)(?: \([\d.]+m?s\))?\s*$"));
    static STEPS: LazyLock<Regex> = LazyLock::new(|| re(r"\s*\(\d+ steps?\)"));
    static FROM: LazyLock<Regex> = LazyLock::new(|| re(r"^running \d+ tests? from (\S+)"));
    static TEST: LazyLock<Regex> =
        LazyLock::new(|| re(r"^(.+?) \.\.\. (ok|FAILED|ignored)(?: \([\d.]+(?:m|µ|u)?s\))?\s*$"));
    if !out.contains(" | ") {
        return None;
    }
    let out = plain(out);
    let out = out.as_ref();
    let c = LINE.captures_iter(out).last()?;
    let mut r = TestReport::new("deno");
    let body = STEPS.replace_all(c.get(1).map_or("", |m| m.as_str()), "");
    count_words(&mut r, &body, &PIPE);
    r.passed?;
    r.failed.get_or_insert(0);
    let mut file: Option<(String, TestOutcome)> = None;
    for line in out.lines() {
        let line = line.trim_end();
        if let Some(c) = FROM.captures(line) {
            if let Some((name, o)) = file.take() {
                r.scope(ScopeUnit::File, &name, o);
            }
            let name = c.get(1).map_or("", |m| m.as_str()).trim_start_matches("./");
            file = Some((name.to_string(), TestOutcome::Skipped));
        } else if let Some(c) = TEST.captures(line) {
            let outcome = match c.get(2).map_or("", |m| m.as_str()) {
                "ok" => TestOutcome::Passed,
                "FAILED" => TestOutcome::Failed,
                _ => TestOutcome::Skipped,
            };
            r.scope(
                ScopeUnit::Test,
                c.get(1).map_or("", |m| m.as_str()),
                outcome,
            );
            if let Some((_, o)) = file.as_mut() {
                if outcome == TestOutcome::Failed || *o == TestOutcome::Skipped {
                    *o = outcome;
                }
            }
        } else if line.trim() == "ERRORS" || line.trim() == "FAILURES" {
            break;
        }
    }
    if let Some((name, o)) = file.take() {
        r.scope(ScopeUnit::File, &name, o);
    }
    Some(r.finish())
}

/// `  7 passing (12ms)` / `  2 failing` / `  1 pending`; per test `✔ title` (passed) and
/// `1) title` (failed) in the spec listing.
pub fn mocha(out: &str) -> Option<TestReport> {
    static PASSING: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*(\d+) passing \("));
    static FAILING: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*(\d+) failing\s*$"));
    static PENDING: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\s*(\d+) pending\s*$"));
    static PASS: LazyLock<Regex> = LazyLock::new(|| re(r"^\s+[✔✓√] (.+?)(?: \(\d+ms\))?\s*$"));
    static FAIL: LazyLock<Regex> = LazyLock::new(|| re(r"^\s+\d+\) (.+?)\s*$"));
    if !out.contains("passing") && !out.contains("failing") {
        return None;
    }
    let out = plain(out);
    let out = out.as_ref();
    let passing = PASSING.captures_iter(out).last();
    let failing = FAILING.captures_iter(out).last();
    if passing.is_none() && failing.is_none() {
        return None;
    }
    let mut r = TestReport::new("mocha");
    r.passed = Some(passing.as_ref().map_or(0, |c| num(c.get(1))));
    r.failed = Some(failing.as_ref().map_or(0, |c| num(c.get(1))));
    if let Some(c) = PENDING.captures_iter(out).last() {
        r.skipped = Some(num(c.get(1)));
    }
    // The listing ends at the `N passing` line; failure details follow it.
    let listing_end = passing
        .as_ref()
        .and_then(|c| c.get(0))
        .map_or(out.len(), |m| m.start());
    for line in out[..listing_end].lines() {
        if let Some(c) = PASS.captures(line) {
            r.scope(
                ScopeUnit::Test,
                c.get(1).map_or("", |m| m.as_str()),
                TestOutcome::Passed,
            );
        } else if let Some(c) = FAIL.captures(line) {
            r.scope(
                ScopeUnit::Test,
                c.get(1).map_or("", |m| m.as_str()),
                TestOutcome::Failed,
            );
        }
    }
    Some(r.finish())
}

/// Playwright: `  11 passed (20.1s)`, `  1 failed`, `  2 flaky`, `  3 skipped`; failing tests
/// listed as `[chromium] › tests/a.spec.ts:3:5 › suite › name`.
pub fn playwright(out: &str) -> Option<TestReport> {
    static PASSED: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^\s+(\d+) passed \([\d.]+m?s\)\s*$"));
    static OTHER: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^\s+(\d+) (failed|flaky|skipped|did not run|interrupted)\s*$"));
    static LISTED: LazyLock<Regex> = LazyLock::new(|| {
        re(r"^\s+(?:\[[\w-]+\] › )?(\S+?):\d+:\d+ › (.+?)(?: \(\d.*\))?(?:\s*─+)?\s*$")
    });
    // The list reporter: `  ✓  1 tests/a.spec.ts:3:3 › suite › name (16ms)`.
    static LIST: LazyLock<Regex> = LazyLock::new(|| {
        re(r"^\s+([✓✘-])\s+\d+ (?:\[[\w-]+\] › )?(\S+?):\d+:\d+ › (.+?)(?: \(\d[^)]*\))?\s*$")
    });
    if !out.contains(" passed") && !out.contains(" failed") {
        return None;
    }
    let out = plain(out);
    let out = out.as_ref();
    let passed = PASSED.captures_iter(out).last();
    let others: Vec<_> = OTHER.captures_iter(out).collect();
    if passed.is_none()
        && !others
            .iter()
            .any(|c| c.get(2).is_some_and(|m| m.as_str() == "failed"))
    {
        return None;
    }
    let mut r = TestReport::new("playwright");
    r.passed = Some(passed.map_or(0, |c| num(c.get(1))));
    r.failed = Some(0);
    let mut state: Option<TestOutcome> = None;
    for c in &others {
        match c.get(2).map(|m| m.as_str()) {
            Some("failed" | "interrupted") => add(&mut r.failed, num(c.get(1))),
            Some("skipped" | "did not run") => add(&mut r.skipped, num(c.get(1))),
            // Flaky tests failed first and passed on retry.
            _ => add(&mut r.passed, num(c.get(1))),
        }
    }
    // After the `N failed` line, the failing tests are listed, then `N flaky` lists the flaky.
    for line in out.lines() {
        if let Some(c) = LIST.captures(line) {
            let outcome = match c.get(1).map_or("", |m| m.as_str()) {
                "✓" => TestOutcome::Passed,
                "✘" => TestOutcome::Failed,
                _ => TestOutcome::Skipped,
            };
            r.scope(
                ScopeUnit::File,
                c.get(2).map_or("", |m| m.as_str()),
                outcome,
            );
            r.scope(
                ScopeUnit::Test,
                c.get(3).map_or("", |m| m.as_str()),
                outcome,
            );
        } else if let Some(c) = OTHER.captures(line) {
            state = match c.get(2).map(|m| m.as_str()) {
                Some("failed" | "interrupted") => Some(TestOutcome::Failed),
                Some("flaky") => Some(TestOutcome::Passed),
                _ => None,
            };
        } else if let (Some(outcome), Some(c)) = (state, LISTED.captures(line)) {
            r.scope(
                ScopeUnit::File,
                c.get(1).map_or("", |m| m.as_str()),
                outcome,
            );
            r.scope(
                ScopeUnit::Test,
                c.get(2).map_or("", |m| m.as_str()),
                outcome,
            );
        }
    }
    Some(r.finish())
}

/// Jest's `--json` report (also Vitest's `--reporter=json`, which follows it): the counts, each
/// file's status and each assertion's.
pub fn jest_json(out: &str) -> Option<TestReport> {
    let start = out.find('{')?;
    let v: serde_json::Value = serde_json::from_str(out[start..].trim()).ok()?;
    let obj = v.as_object()?;
    let passed = obj.get("numPassedTests")?.as_u64()?;
    let mut r = TestReport::new("jest");
    r.passed = Some(passed);
    r.failed = Some(
        obj.get("numFailedTests")
            .and_then(|n| n.as_u64())
            .unwrap_or(0),
    );
    let pending = obj
        .get("numPendingTests")
        .and_then(|n| n.as_u64())
        .unwrap_or(0);
    let todo = obj
        .get("numTodoTests")
        .and_then(|n| n.as_u64())
        .unwrap_or(0);
    r.skipped = Some(pending + todo);
    for file in obj
        .get("testResults")
        .and_then(|t| t.as_array())
        .into_iter()
        .flatten()
    {
        let name = file.get("name").and_then(|n| n.as_str()).unwrap_or("");
        let assertions = file.get("assertionResults").and_then(|a| a.as_array());
        let file_failed = file.get("status").and_then(|s| s.as_str()) == Some("failed");
        for a in assertions.into_iter().flatten() {
            let outcome = match a.get("status").and_then(|s| s.as_str()) {
                Some("passed") => TestOutcome::Passed,
                Some("failed") => TestOutcome::Failed,
                _ => TestOutcome::Skipped,
            };
            let title = a
                .get("fullName")
                .or_else(|| a.get("title"))
                .and_then(|t| t.as_str())
                .unwrap_or("?");
            r.scope(ScopeUnit::Test, title, outcome);
        }
        // A suite that failed to run (syntax error, missing import) has no assertions.
        if file_failed && assertions.is_some_and(|a| a.is_empty()) {
            add(&mut r.failed, 1);
        }
        let outcome = if file_failed {
            TestOutcome::Failed
        } else {
            TestOutcome::Passed
        };
        r.scope(ScopeUnit::File, name, outcome);
    }
    Some(r.finish())
}
