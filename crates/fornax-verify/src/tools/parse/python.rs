//! pytest and unittest.

use std::sync::LazyLock;

use fornax_types::evidence::TestOutcome;
use fornax_types::ScopeUnit;
use regex::Regex;

use super::*;

/// `=== 1 failed, 41 passed, 2 skipped in 3.20s ===` (or the `-q` form without the rules),
/// `no tests ran in 0.01s`; per file the progress lines (`tests/test_x.py ..F.  [ 40%]`), per
/// test the verbose lines (`tests/test_x.py::test_a PASSED`) and the short summary
/// (`FAILED tests/test_x.py::test_b - AssertionError`).
pub fn pytest(out: &str) -> Option<TestReport> {
    static LINE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?m)^=*\s*((?:\d+ (?:failed|passed|skipped|deselected|xfailed|xpassed|errors?|warnings?|rerun)(?:, )?)+) in [\d.]+s(?:\s*\([^)]*\))?\s*=*\s*$",
        )
    });
    static NONE: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^=*\s*no tests ran in [\d.]+s"));
    static PROGRESS: LazyLock<Regex> =
        LazyLock::new(|| re(r"^(\S+\.py) ([.FEsxXR]+)\s*(?:\[\s*\d+%\])?$"));
    static VERBOSE: LazyLock<Regex> = LazyLock::new(|| {
        re(r"^(\S+\.py::\S+(?: \S+)*?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)(?:\s|$)")
    });
    static SHORT: LazyLock<Regex> = LazyLock::new(|| re(r"^(FAILED|ERROR) (\S+\.py(?:::\S+)?)"));
    if !out.contains(" in ") && !out.contains("no tests ran") {
        return None;
    }
    let mut r = TestReport::new("pytest");
    if let Some(c) = LINE.captures_iter(out).last() {
        count_words(&mut r, c.get(1).map_or("", |m| m.as_str()), &COMMA);
        r.failed.get_or_insert(0);
        r.passed.get_or_insert(0);
    } else if NONE.is_match(out) {
        r.passed = Some(0);
        r.failed = Some(0);
    } else {
        return None;
    }
    for line in out.lines() {
        let line = line.trim_end();
        if let Some(c) = PROGRESS.captures(line) {
            let marks = c.get(2).map_or("", |m| m.as_str());
            let failed = marks.chars().filter(|m| matches!(m, 'F' | 'E')).count() as u64;
            let passed = marks
                .chars()
                .filter(|m| matches!(m, '.' | 'X' | 'R'))
                .count() as u64;
            let outcome = if failed > 0 {
                TestOutcome::Failed
            } else if passed > 0 {
                TestOutcome::Passed
            } else {
                TestOutcome::Skipped
            };
            let file = c.get(1).map_or("", |m| m.as_str());
            r.scope_counted(ScopeUnit::File, file, outcome, Some(passed), Some(failed));
        } else if let Some(c) = VERBOSE.captures(line) {
            let outcome = match c.get(2).map_or("", |m| m.as_str()) {
                "PASSED" | "XPASS" => TestOutcome::Passed,
                "FAILED" | "ERROR" => TestOutcome::Failed,
                _ => TestOutcome::Skipped,
            };
            node(&mut r, c.get(1).map_or("", |m| m.as_str()), outcome);
        } else if let Some(c) = SHORT.captures(line) {
            node(
                &mut r,
                c.get(2).map_or("", |m| m.as_str()),
                TestOutcome::Failed,
            );
        }
    }
    Some(r.finish())
}

/// A node id (`tests/test_x.py::TestY::test_z[1]`): the test, and its file.
fn node(r: &mut TestReport, id: &str, outcome: TestOutcome) {
    let id = id.split(" - ").next().unwrap_or(id).trim();
    if let Some((file, _)) = id.split_once("::") {
        r.scope(ScopeUnit::Test, id, outcome);
        r.scope(ScopeUnit::File, file, outcome);
    } else {
        r.scope(ScopeUnit::File, id, outcome);
    }
}

/// Python unittest: `Ran 42 tests in 0.1s` then `OK` or `FAILED (failures=2, errors=1)`;
/// failing tests as `FAIL: test_x (pkg.tests.TestY.test_x)` / `ERROR: ...`, and in verbose
/// mode `test_x (pkg.tests.TestY.test_x) ... ok`.
pub fn unittest(out: &str) -> Option<TestReport> {
    static RAN: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^Ran (\d+) tests? in [\d.]+s\s*$"));
    static RESULT: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^(OK|FAILED)(?: \(([^)]*)\))?\s*$"));
    static FIELD: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(failures|errors|skipped|expected failures|unexpected successes)=(\d+)")
    });
    static HEADER: LazyLock<Regex> = LazyLock::new(|| re(r"^(FAIL|ERROR): (\w+) \(([\w.]+)\)"));
    static VERBOSE: LazyLock<Regex> =
        LazyLock::new(|| re(r"^(\w+) \(([\w.]+)\)(?:\s.*)? \.\.\. (ok|FAIL|ERROR|skipped.*)$"));
    if !out.contains("Ran ") {
        return None;
    }
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
    let mut r = TestReport::new("unittest");
    r.passed = Some(total.saturating_sub(failed + skipped));
    r.failed = Some(failed);
    r.skipped = Some(skipped);
    for line in out[..ran_at].lines() {
        if let Some(c) = HEADER.captures(line) {
            let id = qualified(
                c.get(3).map_or("", |m| m.as_str()),
                c.get(2).map_or("", |m| m.as_str()),
            );
            r.scope(ScopeUnit::Test, &id, TestOutcome::Failed);
        } else if let Some(c) = VERBOSE.captures(line) {
            let outcome = match c.get(3).map_or("", |m| m.as_str()) {
                "ok" => TestOutcome::Passed,
                "FAIL" | "ERROR" => TestOutcome::Failed,
                _ => TestOutcome::Skipped,
            };
            let id = qualified(
                c.get(2).map_or("", |m| m.as_str()),
                c.get(1).map_or("", |m| m.as_str()),
            );
            r.scope(ScopeUnit::Test, &id, outcome);
        }
    }
    Some(r.finish())
}

/// Python 3.11 prints `(pkg.TestY.test_x)`, older versions `(pkg.TestY)`: always end with the
/// method name.
fn qualified(path: &str, method: &str) -> String {
    if path.ends_with(&format!(".{method}")) {
        path.to_string()
    } else {
        format!("{path}.{method}")
    }
}
