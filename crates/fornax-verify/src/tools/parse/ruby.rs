//! RSpec and minitest.

use std::sync::LazyLock;

use fornax_types::evidence::TestOutcome;
use fornax_types::ScopeUnit;
use regex::Regex;

use super::*;

/// `42 examples, 2 failures, 1 pending` (+ `N errors occurred outside of examples`); failing
/// examples listed as `rspec ./spec/a_spec.rb:12 # Cart rounds half up`.
pub fn rspec(out: &str) -> Option<TestReport> {
    static LINE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?m)^(\d+) examples?, (\d+) failures?(?:, (\d+) pending)?(?:, (\d+) errors? occurred outside of examples)?",
        )
    });
    static OUTSIDE: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)(\d+) errors? occurred outside of examples"));
    static FAILED: LazyLock<Regex> =
        LazyLock::new(|| re(r"^rspec (\./\S+?)(?::\d+|\[[\d:]+\]) # (.+?)\s*$"));
    if !out.contains(" example") {
        return None;
    }
    let c = LINE.captures_iter(out).last()?;
    let examples = num(c.get(1));
    let failures = num(c.get(2));
    let pending = num(c.get(3));
    let outside: u64 = OUTSIDE
        .captures_iter(out)
        .last()
        .map_or(0, |o| num(o.get(1)));
    let mut r = TestReport::new("rspec");
    r.passed = Some(examples.saturating_sub(failures + pending));
    r.failed = Some(failures + outside);
    r.skipped = Some(pending);
    for line in out.lines() {
        if let Some(c) = FAILED.captures(line) {
            let file = c.get(1).map_or("", |m| m.as_str()).trim_start_matches("./");
            r.scope(ScopeUnit::File, file, TestOutcome::Failed);
            r.scope(
                ScopeUnit::Test,
                c.get(2).map_or("", |m| m.as_str()),
                TestOutcome::Failed,
            );
        }
    }
    Some(r.finish())
}

/// `4 runs, 2 assertions, 1 failures, 1 errors, 1 skips`; failing tests as
/// `CartTest#test_rounds [test/cart_test.rb:7]:` after `N) Failure:` / `N) Error:`, and in
/// verbose mode `CartTest#test_adds = 0.00 s = .`.
pub fn minitest(out: &str) -> Option<TestReport> {
    static LINE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?m)^(\d+) (?:runs|tests), (\d+) assertions, (\d+) failures, (\d+) errors, (\d+) skips",
        )
    });
    static FAILED: LazyLock<Regex> =
        LazyLock::new(|| re(r"^([\w:]+#\w+)(?: \[([^\]:]+):\d+\])?:\s*$"));
    static VERBOSE: LazyLock<Regex> =
        LazyLock::new(|| re(r"^([\w:]+#\w+) = [\d.]+ s = ([.FES])\s*$"));
    if !out.contains(" assertions, ") {
        return None;
    }
    let c = LINE.captures_iter(out).last()?;
    let runs = num(c.get(1));
    let failed = num(c.get(3)) + num(c.get(4));
    let skipped = num(c.get(5));
    let mut r = TestReport::new("minitest");
    r.passed = Some(runs.saturating_sub(failed + skipped));
    r.failed = Some(failed);
    r.skipped = Some(skipped);
    let mut after_header = false;
    for line in out.lines() {
        let trimmed = line.trim();
        if trimmed.ends_with(") Failure:") || trimmed.ends_with(") Error:") {
            after_header = true;
            continue;
        }
        if after_header {
            after_header = false;
            if let Some(c) = FAILED.captures(trimmed) {
                r.scope(
                    ScopeUnit::Test,
                    c.get(1).map_or("", |m| m.as_str()),
                    TestOutcome::Failed,
                );
                if let Some(file) = c.get(2) {
                    r.scope(ScopeUnit::File, file.as_str(), TestOutcome::Failed);
                }
            }
            continue;
        }
        if let Some(c) = VERBOSE.captures(trimmed) {
            let outcome = match c.get(2).map_or("", |m| m.as_str()) {
                "." => TestOutcome::Passed,
                "S" => TestOutcome::Skipped,
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
