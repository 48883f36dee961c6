//! `dotnet test` (VSTest and Microsoft.Testing.Platform consoles).

use std::sync::LazyLock;

use fornax_types::evidence::TestOutcome;
use fornax_types::ScopeUnit;
use regex::Regex;

use super::*;

/// `Passed!  - Failed:     0, Passed:    42, Skipped:     0, Total:    42, Duration: 1 s -
/// Cart.Tests.dll (net8.0)` per test assembly (summed; the assembly is a package scope);
/// .NET 10's `Test summary: total: 42, failed: 0, succeeded: 42, skipped: 0`; the older `Total
/// tests: 42` block; per test `  Failed Cart.Tests.RoundsHalfUp [12 ms]` (and `Passed` with
/// normal verbosity).
pub fn dotnet(out: &str) -> Option<TestReport> {
    static LINE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^\s*(?:Passed|Failed)!\s+-\s+Failed:\s+(\d+),\s+Passed:\s+(\d+),\s+Skipped:\s+(\d+),\s+Total:\s+\d+(?:,[^-]*- (\S+?)(?:\.dll)?(?: \(|$))?",
        )
    });
    static NEW: LazyLock<Regex> = LazyLock::new(|| {
        re(r"(?mi)^\s*Test summary: total: (\d+), failed: (\d+), succeeded: (\d+), skipped: (\d+)")
    });
    static OLD_TOTAL: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^Total tests: (\d+)"));
    static OLD_FIELD: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^\s+(Passed|Failed|Skipped): (\d+)\s*$"));
    static TEST: LazyLock<Regex> =
        LazyLock::new(|| re(r"^\s+(Passed|Failed|Skipped) ([\w.`+<>,()\[\] ]+?) \[[^\]]*\]\s*$"));
    if !out.contains("Total") && !out.contains("total:") {
        return None;
    }
    let mut r = TestReport::new("dotnet");
    let mut any = false;
    for line in out.lines() {
        if let Some(c) = LINE.captures(line) {
            any = true;
            let failed = num(c.get(1));
            add(&mut r.failed, failed);
            add(&mut r.passed, num(c.get(2)));
            add(&mut r.skipped, num(c.get(3)));
            if let Some(assembly) = c.get(4) {
                let outcome = if failed > 0 {
                    TestOutcome::Failed
                } else {
                    TestOutcome::Passed
                };
                r.scope_counted(
                    ScopeUnit::Package,
                    assembly.as_str(),
                    outcome,
                    Some(num(c.get(2))),
                    Some(failed),
                );
            }
        } else if let Some(c) = TEST.captures(line) {
            let outcome = match c.get(1).map_or("", |m| m.as_str()) {
                "Passed" => TestOutcome::Passed,
                "Failed" => TestOutcome::Failed,
                _ => TestOutcome::Skipped,
            };
            r.scope(
                ScopeUnit::Test,
                c.get(2).map_or("", |m| m.as_str()),
                outcome,
            );
        }
    }
    if any {
        return Some(r.finish());
    }
    if let Some(c) = NEW.captures_iter(out).last() {
        r.passed = Some(num(c.get(3)));
        r.failed = Some(num(c.get(2)));
        r.skipped = Some(num(c.get(4)));
        return Some(r.finish());
    }
    if OLD_TOTAL.is_match(out) {
        for c in OLD_FIELD.captures_iter(out) {
            let n = num(c.get(2));
            match c.get(1).map(|m| m.as_str()) {
                Some("Passed") => add(&mut r.passed, n),
                Some("Failed") => add(&mut r.failed, n),
                _ => add(&mut r.skipped, n),
            }
        }
        r.failed.get_or_insert(0);
        return Some(r.finish());
    }
    None
}
