//! CTest and Swift (`swift test`: XCTest and Swift Testing).

use std::sync::LazyLock;

use fornax_types::evidence::TestOutcome;
use fornax_types::ScopeUnit;
use regex::Regex;

use super::*;

/// `100% tests passed, 0 tests failed out of 12`; per test `1/3 Test #1: name ....   Passed`.
pub fn ctest(out: &str) -> Option<TestReport> {
    static LINE: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^\s*\d+% tests passed,\s+(\d+) tests? failed out of (\d+)"));
    static TEST: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^\s*\d+/\d+ Test\s+#\d+: (\S+) \.*\s*(\*{0,3})(Passed|Failed|Not Run|Timeout|Exception|Subprocess aborted|\w[\w ]*?)\s+[\d.]+ sec",
        )
    });
    if !out.contains("tests passed") {
        return None;
    }
    let c = LINE.captures_iter(out).last()?;
    let failed = num(c.get(1));
    let total = num(c.get(2));
    let mut r = TestReport::new("ctest");
    r.passed = Some(total.saturating_sub(failed));
    r.failed = Some(failed);
    for line in out.lines() {
        if let Some(c) = TEST.captures(line) {
            let outcome = match c.get(3).map_or("", |m| m.as_str()) {
                "Passed" => TestOutcome::Passed,
                "Not Run" => TestOutcome::Skipped,
                _ => TestOutcome::Failed,
            };
            r.scope(
                ScopeUnit::Test,
                c.get(1).map_or("", |m| m.as_str()),
                outcome,
            );
        }
    }
    Some(r.finish())
}

/// XCTest: `Executed 42 tests, with 2 failures (0 unexpected) in 1.2 (1.3) seconds`, per test
/// `Test Case 'Suite.test_x' passed (0.001 seconds).` (`-[Module.Suite test_x]` on Apple
/// platforms), per class `Test Suite 'Suite' failed`; Swift Testing: `✔ Test run with 3 tests
/// passed after 0.002 seconds.` / `✘ Test run with 3 tests failed after ... with 1 issue.` and
/// per test `✔ Test name() passed after ...` / `✘ Test name() failed after ...`.
pub fn swift(out: &str) -> Option<TestReport> {
    static EXECUTED: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?m)Executed (\d+) tests?, with (\d+) failures? \((\d+) unexpected\)")
    });
    static CASE: LazyLock<Regex> =
        LazyLock::new(|| re(r"^Test Case '(?:-\[)?([\w.]+)[ .](\w+)\]?' (passed|failed|skipped)"));
    static SUITE: LazyLock<Regex> = LazyLock::new(|| re(r"^Test Suite '([\w.]+)' (passed|failed)"));
    static RUN: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?m)^\S+ Test run with (\d+) tests?(?: in \d+ suites?)? (passed|failed) after [\d.]+ seconds(?: with (\d+) issues?)?",
        )
    });
    static TESTING: LazyLock<Regex> =
        LazyLock::new(|| re(r"^\S+ Test (.+?) (passed|failed|skipped)(?: after [\d.]+ seconds)?"));
    if !out.contains("Executed ") && !out.contains("Test run with ") {
        return None;
    }
    let mut r = TestReport::new("swift");
    let mut any = false;
    // The last `Executed` line is the total over all suites (`Total executed` on Linux, or the
    // `All tests` suite's line).
    if let Some(c) = EXECUTED.captures_iter(out).last() {
        any = true;
        let total = num(c.get(1));
        let failed = num(c.get(2));
        r.passed = Some(total.saturating_sub(failed));
        r.failed = Some(failed);
    }
    if let Some(c) = RUN.captures_iter(out).last() {
        let total = num(c.get(1));
        let failed_run = c.get(2).map(|m| m.as_str()) == Some("failed");
        // XCTest's harness prints `Executed 0 tests` when every test is a Swift Testing test.
        if !any || r.passed == Some(0) && r.failed == Some(0) {
            let issues = num(c.get(3)).max(u64::from(failed_run));
            r.failed = Some(if failed_run {
                issues.min(total).max(1)
            } else {
                0
            });
            r.passed = Some(total.saturating_sub(r.failed.unwrap_or(0)));
        }
        any = true;
    }
    if !any {
        return None;
    }
    for line in out.lines() {
        let line = line.trim();
        if let Some(c) = CASE.captures(line) {
            let outcome = outcome_word(c.get(3).map_or("", |m| m.as_str()));
            let suite = c.get(1).map_or("", |m| m.as_str());
            let test = c.get(2).map_or("", |m| m.as_str());
            r.scope(ScopeUnit::Test, &format!("{suite}.{test}"), outcome);
        } else if let Some(c) = SUITE.captures(line) {
            let name = c.get(1).map_or("", |m| m.as_str());
            if name != "All tests" && !name.ends_with(".xctest") && name != "Selected tests" {
                r.scope(
                    ScopeUnit::File,
                    name,
                    outcome_word(c.get(2).map_or("", |m| m.as_str())),
                );
            }
        } else if !line.contains("Test run with ") {
            if let Some(c) = TESTING.captures(line) {
                let name = c.get(1).map_or("", |m| m.as_str()).trim_matches('"');
                r.scope(
                    ScopeUnit::Test,
                    name,
                    outcome_word(c.get(2).map_or("", |m| m.as_str())),
                );
            }
        }
    }
    Some(r.finish())
}

fn outcome_word(w: &str) -> TestOutcome {
    match w {
        "passed" => TestOutcome::Passed,
        "failed" => TestOutcome::Failed,
        _ => TestOutcome::Skipped,
    }
}
