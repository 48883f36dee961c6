//! The JVM: Maven Surefire, Gradle, and JUnit XML reports.

use std::sync::LazyLock;

use fornax_types::evidence::TestOutcome;
use fornax_types::ScopeUnit;
use regex::Regex;

use super::*;

/// Maven Surefire / JUnit: `Tests run: 42, Failures: 1, Errors: 0, Skipped: 2` - the aggregate
/// line (without `Time elapsed`) when present, else the per-class lines summed. Per class
/// `Tests run: 3, ... <<< FAILURE! - in com.example.CartTest` (or `-- in`), per module the
/// reactor summary (`[INFO] geo-core ...... SUCCESS [  1.2 s]`).
pub fn maven(out: &str) -> Option<TestReport> {
    static LINE: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"^(?:\[\w+\]\s+)?Tests run: (\d+), Failures: (\d+), Errors: (\d+), Skipped: (\d+)(, Time elapsed[^\n]*)?",
        )
    });
    static CLASS: LazyLock<Regex> = LazyLock::new(|| re(r"-{1,2} in ([\w.$]+)\s*$"));
    static REACTOR: LazyLock<Regex> =
        LazyLock::new(|| re(r"^\[INFO\] (\S.*?) \.+ (SUCCESS|FAILURE|SKIPPED) \["));
    static FAILED_TEST: LazyLock<Regex> = LazyLock::new(|| {
        re(r"^\[ERROR\] (?:Tests run:.*<<< (?:FAILURE|ERROR)!\s*)?([\w$]+)\.(\w+)(?::\d+)?(?:\s|$)")
    });
    if !out.contains("Tests run: ") {
        return None;
    }
    let mut r = TestReport::new("junit");
    let (mut agg, mut sum) = (None::<(u64, u64, u64)>, (0u64, 0u64, 0u64));
    let mut any = false;
    for line in out.lines() {
        let line = line.trim_end();
        if let Some(c) = LINE.captures(line) {
            any = true;
            let run = num(c.get(1));
            let failed = num(c.get(2)) + num(c.get(3));
            let skipped = num(c.get(4));
            if c.get(5).is_none() {
                agg = Some((run, failed, skipped));
            } else {
                sum = (sum.0 + run, sum.1 + failed, sum.2 + skipped);
                if let Some(class) = CLASS.captures(line).and_then(|c| c.get(1)) {
                    let outcome = if failed > 0 {
                        TestOutcome::Failed
                    } else if run > skipped {
                        TestOutcome::Passed
                    } else {
                        TestOutcome::Skipped
                    };
                    let name = class.as_str();
                    let short = name.rsplit('.').next().unwrap_or(name);
                    r.scope_counted(
                        ScopeUnit::File,
                        short,
                        outcome,
                        Some(run.saturating_sub(failed + skipped)),
                        Some(failed),
                    );
                }
            }
        } else if let Some(c) = REACTOR.captures(line) {
            let outcome = match c.get(2).map_or("", |m| m.as_str()) {
                "SUCCESS" => TestOutcome::Passed,
                "FAILURE" => TestOutcome::Failed,
                _ => TestOutcome::Skipped,
            };
            let name = c.get(1).map_or("", |m| m.as_str());
            let name = name.split(' ').next().unwrap_or(name);
            r.scope(ScopeUnit::Package, name, outcome);
        } else if let Some(c) = FAILED_TEST.captures(line) {
            let class = c.get(1).map_or("", |m| m.as_str());
            let method = c.get(2).map_or("", |m| m.as_str());
            if !matches!(class, "Tests" | "Failures" | "ERROR") && method != "run" {
                r.scope(
                    ScopeUnit::Test,
                    &format!("{class}.{method}"),
                    TestOutcome::Failed,
                );
            }
        }
    }
    if !any {
        return None;
    }
    let (run, failed, skipped) = agg.unwrap_or(sum);
    r.passed = Some(run.saturating_sub(failed + skipped));
    r.failed = Some(failed);
    r.skipped = Some(skipped);
    Some(r.finish())
}

/// Gradle: `42 tests completed, 2 failed, 1 skipped`; on success Gradle prints no counts, so a
/// `BUILD SUCCESSFUL` after a test task reads as zero failures. Per test `CartTest > adds()
/// FAILED` (and `PASSED` / `SKIPPED` with test logging on), per project `> Task :app:test
/// FAILED`.
pub fn gradle(out: &str) -> Option<TestReport> {
    static COUNTS: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^(\d+) tests? completed(?:, (\d+) failed)?(?:, (\d+) skipped)?"));
    static TEST_TASK: LazyLock<Regex> =
        LazyLock::new(|| re(r"(?m)^> Task \S*:?(?:test|check)\w*(?-u:\b)"));
    static SUCCESS: LazyLock<Regex> = LazyLock::new(|| re(r"(?m)^BUILD SUCCESSFUL"));
    static FAILING: LazyLock<Regex> =
        LazyLock::new(|| re(r"There were failing tests|(?m)^> Task \S*test\w* FAILED"));
    static TEST: LazyLock<Regex> =
        LazyLock::new(|| re(r"^([\w.$]+) > (.+?) (PASSED|FAILED|SKIPPED)\s*$"));
    static TASK: LazyLock<Regex> = LazyLock::new(|| {
        re(r"^> Task :(?:(\S+):)?(\w*[tT]est\w*)(?: (FAILED|UP-TO-DATE|NO-SOURCE))?\s*$")
    });
    if !out.contains("> Task") && !out.contains("tests completed") {
        return None;
    }
    let mut r = TestReport::new("gradle");
    if let Some(c) = COUNTS.captures_iter(out).last() {
        let total = num(c.get(1));
        let failed = num(c.get(2));
        let skipped = num(c.get(3));
        r.passed = Some(total.saturating_sub(failed + skipped));
        r.failed = Some(failed);
        r.skipped = Some(skipped);
    } else if FAILING.is_match(out) {
        r.failed = Some(1);
    } else if TEST_TASK.is_match(out) && SUCCESS.is_match(out) {
        r.failed = Some(0);
    } else {
        return None;
    }
    for line in out.lines() {
        let line = line.trim_end();
        if let Some(c) = TEST.captures(line) {
            let outcome = match c.get(3).map_or("", |m| m.as_str()) {
                "PASSED" => TestOutcome::Passed,
                "FAILED" => TestOutcome::Failed,
                _ => TestOutcome::Skipped,
            };
            let class = c.get(1).map_or("", |m| m.as_str());
            let short = class.rsplit('.').next().unwrap_or(class);
            r.scope(
                ScopeUnit::Test,
                &format!("{short}.{}", c.get(2).map_or("", |m| m.as_str())),
                outcome,
            );
            r.scope(ScopeUnit::File, short, outcome);
        } else if let Some(c) = TASK.captures(line) {
            let Some(project) = c.get(1) else { continue };
            let outcome = match c.get(3).map(|m| m.as_str()) {
                Some("FAILED") => TestOutcome::Failed,
                Some("NO-SOURCE") => TestOutcome::Skipped,
                _ => TestOutcome::Passed,
            };
            r.scope(ScopeUnit::Package, project.as_str(), outcome);
        }
    }
    Some(r.finish())
}

/// JUnit XML (`--junitxml`, Surefire reports, and most other runners' XML): `<testcase>`
/// elements counted by their `<failure>`, `<error>` and `<skipped>` children; per test
/// `classname::name`, per class the `classname`.
pub fn junit_xml(xml: &str) -> Option<TestReport> {
    let start = xml.find('<')?;
    let doc = roxmltree::Document::parse(&xml[start..]).ok()?;
    let root = doc.root_element();
    if !matches!(root.tag_name().name(), "testsuites" | "testsuite") {
        return None;
    }
    let mut r = TestReport::new("junit");
    let (mut passed, mut failed, mut skipped) = (0u64, 0u64, 0u64);
    for case in doc.descendants().filter(|n| n.has_tag_name("testcase")) {
        let child = |tag: &str| case.children().any(|c| c.has_tag_name(tag));
        let outcome = if child("failure") || child("error") {
            failed += 1;
            TestOutcome::Failed
        } else if child("skipped") {
            skipped += 1;
            TestOutcome::Skipped
        } else {
            passed += 1;
            TestOutcome::Passed
        };
        let name = case.attribute("name").unwrap_or("?");
        match case.attribute("classname").filter(|c| !c.is_empty()) {
            Some(class) => {
                r.scope(ScopeUnit::Test, &format!("{class}::{name}"), outcome);
                r.scope(ScopeUnit::File, class, outcome);
            }
            None => r.scope(ScopeUnit::Test, name, outcome),
        }
    }
    r.passed = Some(passed);
    r.failed = Some(failed);
    r.skipped = Some(skipped);
    Some(r.finish())
}
