//! `go test`, as text and as `-json` events.

use std::sync::LazyLock;

use fornax_types::evidence::TestOutcome;
use fornax_types::ScopeUnit;
use regex::Regex;

use super::*;

/// `ok <pkg> 0.1s` / `FAIL <pkg> 0.2s` / `FAIL <pkg> [build failed]` per package (the totals
/// count packages), `--- FAIL: TestX` / `--- PASS:` / `--- SKIP:` per test.
pub fn go(out: &str) -> Option<TestReport> {
    static OK: LazyLock<Regex> = LazyLock::new(|| re(r"^ok\s+(\S+)\s+(?:[\d.]+s|\(cached\))"));
    static FAIL_PKG: LazyLock<Regex> =
        LazyLock::new(|| re(r"^FAIL\s+(\S+)\s+(?:[\d.]+s|\[[^\]]+\])"));
    static TEST: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*--- (PASS|FAIL|SKIP): (\S+)"));
    static NO_FILES: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^\?\s+\S+\s+\[no test files\]"));
    if out.trim_start().starts_with('{') && out.contains("\"Action\"") {
        return go_json(out);
    }
    let mut r = TestReport::new("go");
    let (mut ok, mut fail_pkg, mut fail_test) = (0u64, 0u64, 0u64);
    for line in out.lines() {
        let line = line.trim_end();
        if let Some(c) = OK.captures(line) {
            ok += 1;
            r.scope(
                ScopeUnit::Package,
                c.get(1).map_or("", |m| m.as_str()),
                TestOutcome::Passed,
            );
        } else if let Some(c) = FAIL_PKG.captures(line) {
            fail_pkg += 1;
            r.scope(
                ScopeUnit::Package,
                c.get(1).map_or("", |m| m.as_str()),
                TestOutcome::Failed,
            );
        } else if let Some(c) = TEST.captures(line) {
            let outcome = match c.get(1).map_or("", |m| m.as_str()) {
                "PASS" => TestOutcome::Passed,
                "FAIL" => {
                    fail_test += 1;
                    TestOutcome::Failed
                }
                _ => TestOutcome::Skipped,
            };
            r.scope(
                ScopeUnit::Test,
                c.get(2).map_or("", |m| m.as_str()),
                outcome,
            );
        }
    }
    if ok + fail_pkg + fail_test > 0 {
        r.passed = Some(ok);
        r.failed = Some(if fail_pkg > 0 { fail_pkg } else { fail_test });
        return Some(r.finish());
    }
    if NO_FILES.is_match(out) {
        r.passed = Some(0);
        r.failed = Some(0);
        return Some(r.finish());
    }
    None
}

/// `go test -json`: the last pass/fail/skip action per test and per package. The totals count
/// tests when tests reported, else packages; a package that fails without a failing test (a
/// build error) counts as one failure.
pub fn go_json(out: &str) -> Option<TestReport> {
    let mut r = TestReport::new("go");
    let mut any = false;
    let (mut passed, mut failed, mut skipped) = (0u64, 0u64, 0u64);
    let mut failed_packages: Vec<String> = Vec::new();
    let mut packages_with_failed_test: Vec<String> = Vec::new();
    let (mut pkg_pass, mut pkg_fail, mut pkg_skip) = (0u64, 0u64, 0u64);
    for line in out.lines() {
        let line = line.trim();
        if !line.starts_with('{') || !line.contains("\"Action\"") {
            continue;
        }
        let Ok(v) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let Some(action) = v["Action"].as_str() else {
            continue;
        };
        let outcome = match action {
            "pass" => TestOutcome::Passed,
            "fail" => TestOutcome::Failed,
            "skip" => TestOutcome::Skipped,
            _ => continue,
        };
        any = true;
        let package = v["Package"].as_str().unwrap_or_default();
        match v["Test"].as_str() {
            Some(test) => {
                // Subtests (`TestA/case`) are counted inside their parent.
                if !test.contains('/') {
                    match outcome {
                        TestOutcome::Passed => passed += 1,
                        TestOutcome::Failed => {
                            failed += 1;
                            packages_with_failed_test.push(package.to_string());
                        }
                        TestOutcome::Skipped => skipped += 1,
                    }
                }
                r.scope(ScopeUnit::Test, test, outcome);
            }
            None => {
                match outcome {
                    TestOutcome::Passed => pkg_pass += 1,
                    TestOutcome::Failed => {
                        pkg_fail += 1;
                        failed_packages.push(package.to_string());
                    }
                    TestOutcome::Skipped => pkg_skip += 1,
                }
                r.scope(ScopeUnit::Package, package, outcome);
            }
        }
    }
    if !any {
        return None;
    }
    if passed + failed + skipped == 0 {
        (passed, failed, skipped) = (pkg_pass, pkg_fail, pkg_skip);
    } else {
        failed += failed_packages
            .iter()
            .filter(|p| !packages_with_failed_test.contains(p))
            .count() as u64;
    }
    r.passed = Some(passed);
    r.failed = Some(failed);
    r.skipped = Some(skipped);
    Some(r.finish())
}
