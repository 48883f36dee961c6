//! PHPUnit (and Pest, which prints its own closing line).

use std::sync::LazyLock;

use fornax_types::evidence::TestOutcome;
use fornax_types::ScopeUnit;
use regex::Regex;

use super::*;

/// `OK (42 tests, 120 assertions)` or `Tests: 42, Assertions: 120, Failures: 2, Errors: 1,
/// Skipped: 1.`; failing tests as `1) CartTest::testRoundsHalfUp`; Pest's `Tests:    2 failed,
/// 40 passed (100 assertions)`.
pub fn phpunit(out: &str) -> Option<TestReport> {
    static OK: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^OK \((\d+) tests?, \d+ assertions?\)"));
    static TESTS: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^Tests: (\d+), Assertions: \d+(.*)$"));
    static FIELD: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(Errors|Failures|Skipped|Incomplete|Risky|Warnings|Deprecations|Notices): (\d+)")
    });
    static PEST: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^\s*Tests:\s+(.+?)\s*\(\d+ assertions?\)"));
    static FAILED: LazyLock<Regex> = LazyLock::new(|| re(r"^\d+\) ([\w\\]+)::(\w+)"));
    if !out.contains("Tests:") && !out.contains("OK (") {
        return None;
    }
    let mut r = TestReport::new("phpunit");
    if let Some(c) = OK.captures_iter(out).last() {
        r.passed = Some(num(c.get(1)));
        r.failed = Some(0);
    } else if let Some(c) = TESTS.captures_iter(out).last() {
        let total = num(c.get(1));
        let (mut failed, mut skipped) = (0, 0);
        for f in FIELD.captures_iter(c.get(2).map_or("", |m| m.as_str())) {
            match f.get(1).map(|m| m.as_str()) {
                Some("Errors" | "Failures") => failed += num(f.get(2)),
                Some("Skipped" | "Incomplete") => skipped += num(f.get(2)),
                _ => {}
            }
        }
        r.passed = Some(total.saturating_sub(failed + skipped));
        r.failed = Some(failed);
        r.skipped = Some(skipped);
    } else if let Some(c) = PEST.captures_iter(out).last() {
        r.runner = "pest";
        count_words(&mut r, c.get(1).map_or("", |m| m.as_str()), &COMMA);
        r.passed?;
        r.failed.get_or_insert(0);
    } else {
        return None;
    }
    for line in out.lines() {
        if let Some(c) = FAILED.captures(line.trim_end()) {
            let class = c.get(1).map_or("", |m| m.as_str());
            let method = c.get(2).map_or("", |m| m.as_str());
            r.scope(
                ScopeUnit::Test,
                &format!("{class}::{method}"),
                TestOutcome::Failed,
            );
            let short = class.rsplit('\\').next().unwrap_or(class);
            r.scope(ScopeUnit::File, short, TestOutcome::Failed);
        }
    }
    Some(r.finish())
}
