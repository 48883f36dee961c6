//! ExUnit (`mix test`).

use std::sync::LazyLock;

use fornax_types::evidence::TestOutcome;
use fornax_types::ScopeUnit;
use regex::Regex;

use super::*;

/// `42 tests, 0 failures` / `1 doctest, 4 tests, 1 failure, 1 skipped`; failing tests as
/// `  1) test rounds half up (ExTest)` followed by their file line.
pub fn exunit(out: &str) -> Option<TestReport> {
    static LINE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?m)^(?:(\d+) doctests?, )?(?:(\d+) properties, )?(\d+) tests?, (\d+) failures?(?:, (\d+) excluded)?(?:, (\d+) skipped)?(?:, (\d+) invalid)?\s*$",
        )
    });
    static FAILED: LazyLock<Regex> =
        LazyLock::new(|| re(r"^\s+\d+\) (?:test|doctest|property) (.+?) \(([\w.]+)\)\s*$"));
    static FILE: LazyLock<Regex> = LazyLock::new(|| re(r"^\s+(\S+\.exs?):\d+\s*$"));
    if !out.contains(" failure") {
        return None;
    }
    let c = LINE.captures_iter(out).last()?;
    let total = num(c.get(1)) + num(c.get(2)) + num(c.get(3));
    let failures = num(c.get(4)) + num(c.get(7));
    let skipped = num(c.get(6));
    let mut r = TestReport::new("exunit");
    r.passed = Some(total.saturating_sub(failures + skipped));
    r.failed = Some(failures);
    r.skipped = Some(skipped);
    r.filtered_out = c.get(5).map(|m| m.as_str().parse().unwrap_or(0));
    let mut pending_file = false;
    for line in out.lines() {
        if let Some(c) = FAILED.captures(line) {
            let module = c.get(2).map_or("", |m| m.as_str());
            let name = c.get(1).map_or("", |m| m.as_str());
            r.scope(
                ScopeUnit::Test,
                &format!("{module} {name}"),
                TestOutcome::Failed,
            );
            r.scope(ScopeUnit::Module, module, TestOutcome::Failed);
            pending_file = true;
        } else if pending_file {
            pending_file = false;
            if let Some(c) = FILE.captures(line) {
                r.scope(
                    ScopeUnit::File,
                    c.get(1).map_or("", |m| m.as_str()),
                    TestOutcome::Failed,
                );
            }
        }
    }
    Some(r.finish())
}
