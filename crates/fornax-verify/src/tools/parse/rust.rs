//! libtest (`cargo test`, human and JSON) and cargo-nextest.

use std::sync::LazyLock;

use fornax_types::evidence::TestOutcome;
use fornax_types::ScopeUnit;
use regex::Regex;

use super::*;

/// `test result: ok. 19 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; ...` per test
/// binary, summed; `test a::b ... ok|FAILED|ignored` per test; `Running <target> (<binary>)`
/// names the binary each block belongs to (a crate's unit tests, or an integration test file).
pub fn cargo(out: &str) -> Option<TestReport> {
    static RESULT: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^test result: (ok|FAILED)\. (\d+) passed; (\d+) failed; (\d+) ignored; (\d+) measured; (\d+) filtered out",
        )
    });
    static CRASH: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^error: (?:test failed|\d+ targets? failed)"));
    if !out.contains("test result: ") {
        return None;
    }
    let mut r = TestReport::new("cargo");
    let mut any = false;
    // The scope of the block being read, and whether a test in it failed.
    let mut block: Option<(ScopeUnit, String)> = None;
    for line in out.lines() {
        let line = line.trim_end();
        if let Some(rest) = line.trim_start().strip_prefix("Running ") {
            block = running_scope(rest);
            continue;
        }
        if let Some(rest) = line.trim_start().strip_prefix("Doc-tests ") {
            block = Some((ScopeUnit::Package, rest.trim().replace('-', "_")));
            continue;
        }
        let Some(c) = RESULT.captures(line) else {
            if let Some((name, outcome)) = line.strip_prefix("test ").and_then(test_line) {
                r.scope(ScopeUnit::Test, name, outcome);
            }
            continue;
        };
        any = true;
        let failed_block = c.get(1).map(|m| m.as_str()) == Some("FAILED");
        add(&mut r.passed, num(c.get(2)));
        let failed = num(c.get(3));
        add(
            &mut r.failed,
            if failed_block { failed.max(1) } else { failed },
        );
        add(&mut r.skipped, num(c.get(4)));
        add(&mut r.filtered_out, num(c.get(6)));
        if let Some((unit, name)) = block.take() {
            let outcome = if failed_block {
                TestOutcome::Failed
            } else if num(c.get(2)) == 0 {
                TestOutcome::Skipped
            } else {
                TestOutcome::Passed
            };
            r.scope_counted(unit, &name, outcome, Some(num(c.get(2))), Some(failed));
        }
    }
    if !any {
        return None;
    }
    // A test binary that crashed prints no `test result` line of its own.
    if CRASH.is_match(out) && !r.has_failures() {
        r.failed = Some(1);
        if let Some((unit, name)) = block {
            r.scope(unit, &name, TestOutcome::Failed);
        }
    }
    Some(r.finish())
}

/// `unittests src/lib.rs (target/debug/deps/geo_core-1a2b3c)` is the crate `geo_core`;
/// `tests/cli.rs (target/debug/deps/cli-1a2b3c)` is that file.
fn running_scope(rest: &str) -> Option<(ScopeUnit, String)> {
    let rest = rest.trim();
    let (target, binary) = match rest.split_once(" (") {
        Some((t, b)) => (t.trim(), b.trim_end_matches(')')),
        None => (rest, rest),
    };
    if let Some(src) = target.strip_prefix("unittests ") {
        let _ = src;
        let file = binary.rsplit(['/', '\\']).next().unwrap_or(binary);
        let stem = file.rsplit_once('-').map_or(file, |(s, _)| s);
        return Some((ScopeUnit::Package, stem.to_string()));
    }
    if target.ends_with(".rs") {
        return Some((ScopeUnit::File, target.to_string()));
    }
    None
}

/// `parse::dates ... ok` (and `FAILED`, `ignored`, `ignored, reason`).
fn test_line(rest: &str) -> Option<(&str, TestOutcome)> {
    let (name, status) = rest.rsplit_once(" ... ")?;
    let outcome = match status.trim() {
        "ok" => TestOutcome::Passed,
        "FAILED" => TestOutcome::Failed,
        s if s.starts_with("ignored") => TestOutcome::Skipped,
        _ => return None,
    };
    // Doc-tests name `src/lib.rs - parse (line 12)`; keep the item path.
    Some((name.trim(), outcome))
}

/// libtest JSON events (`cargo test -- -Z unstable-options --format json`, nextest's
/// libtest-json): `suite` events carry the counts, `test` events the outcome per test.
pub fn libtest_json(out: &str) -> Option<TestReport> {
    if !out.contains("\"type\"") {
        return None;
    }
    let mut r = TestReport::new("cargo");
    let mut any = false;
    for line in out.lines() {
        let line = line.trim();
        if !line.starts_with('{') || !line.contains("\"event\"") {
            continue;
        }
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        match (v["type"].as_str(), v["event"].as_str()) {
            (Some("suite"), Some("ok" | "failed")) => {
                any = true;
                add(&mut r.passed, v["passed"].as_u64().unwrap_or(0));
                let failed = v["failed"].as_u64().unwrap_or(0);
                let failed = if v["event"] == "failed" {
                    failed.max(1)
                } else {
                    failed
                };
                add(&mut r.failed, failed);
                add(&mut r.skipped, v["ignored"].as_u64().unwrap_or(0));
                add(&mut r.filtered_out, v["filtered_out"].as_u64().unwrap_or(0));
            }
            (Some("test"), Some(event)) => {
                let outcome = match event {
                    "ok" => TestOutcome::Passed,
                    "failed" | "timeout" => TestOutcome::Failed,
                    "ignored" => TestOutcome::Skipped,
                    _ => continue,
                };
                if let Some(name) = v["name"].as_str() {
                    r.scope(ScopeUnit::Test, name, outcome);
                }
            }
            _ => {}
        }
    }
    any.then(|| r.finish())
}

/// `Summary [   0.250s] 25 tests run: 24 passed, 1 failed, 2 skipped`, and the per-test
/// `PASS [   0.011s] crate::binary test::name` / `FAIL [...]` lines.
pub fn nextest(out: &str) -> Option<TestReport> {
    static SUMMARY: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^\s*Summary \[\s*[\d.]+m?s\]\s+(\d+) tests? run:\s*(.+?)\s*$"));
    static PAREN: LazyLock<Regex> = LazyLock::new(|| re(r"\([^)]*\)"));
    if !out.contains("Summary [") {
        return None;
    }
    let c = SUMMARY.captures_iter(out).last()?;
    let mut r = TestReport::new("nextest");
    let tail = c.get(2).map_or("", |m| m.as_str());
    // `24 passed (1 slow), 1 failed` - drop the parenthesised notes.
    count_words(&mut r, &PAREN.replace_all(tail, ""), &COMMA);
    if r.passed.is_none() && r.failed.is_none() {
        return None;
    }
    r.failed.get_or_insert(0);
    for line in out.lines() {
        let line = line.trim();
        let (outcome, rest) = if let Some(rest) = line.strip_prefix("PASS [") {
            (TestOutcome::Passed, rest)
        } else if let Some(rest) = line.strip_prefix("FAIL [") {
            (TestOutcome::Failed, rest)
        } else if let Some(rest) = line.strip_prefix("TIMEOUT [") {
            (TestOutcome::Failed, rest)
        } else if let Some(rest) = line.strip_prefix("SKIP [") {
            (TestOutcome::Skipped, rest)
        } else {
            continue;
        };
        let Some((_, name)) = rest.split_once(']') else {
            continue;
        };
        let name = name.trim();
        // Newer nextest prefixes a progress counter: `(1/2) crate test`.
        let name = match name.strip_prefix('(').and_then(|r| r.split_once(") ")) {
            Some((counter, rest)) if counter.contains('/') => rest,
            _ => name,
        };
        let (binary, test) = name.split_once(' ').unwrap_or(("", name));
        r.scope(ScopeUnit::Test, test.trim(), outcome);
        let package = binary.split("::").next().unwrap_or("");
        if !package.is_empty() {
            r.scope(ScopeUnit::Package, &package.replace('-', "_"), outcome);
        }
    }
    Some(r.finish())
}
