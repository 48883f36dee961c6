//! Test-runner output → one test-run summary. Pure functions over text: no I/O, never panic,
//! `None` when nothing recognizable is there (absent is not zero).

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// How many failing test names a summary keeps.
const MAX_FAILURES: usize = 50;

/// One test run, whichever runner produced it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TestRunSummary {
    /// `cargo`, `nextest`, `go`, `pytest`, `jest`, `vitest`.
    pub runner: String,
    pub passed: u64,
    pub failed: u64,
    pub skipped: u64,
    pub total: u64,
    /// Tests a filter excluded, when the runner says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filtered_out: Option<u64>,
    /// Names of failing tests (at most 50).
    #[serde(default)]
    pub failures: Vec<String>,
}

impl TestRunSummary {
    fn new(runner: &str) -> Self {
        TestRunSummary {
            runner: runner.to_string(),
            ..TestRunSummary::default()
        }
    }

    fn fail(&mut self, name: impl Into<String>) {
        let name = name.into();
        if self.failures.len() < MAX_FAILURES && !self.failures.contains(&name) {
            self.failures.push(name);
        }
    }

    fn finish(mut self) -> Self {
        self.total = self.passed + self.failed + self.skipped;
        self
    }

    pub fn success(&self) -> bool {
        self.failed == 0
    }
}

/// libtest (`cargo test`): human `test result:` lines summed over every test binary, or
/// libtest JSON events (`--format json`), whichever is present.
pub fn parse_libtest(output: &str) -> Option<TestRunSummary> {
    let mut human = TestRunSummary::new("cargo");
    let mut json = TestRunSummary::new("cargo");
    let (mut saw_human, mut saw_json) = (false, false);
    let mut filtered = 0;
    for line in output.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("test result: ") {
            saw_human = true;
            for part in rest.split([';', '.']).map(str::trim) {
                let mut words = part.split_whitespace();
                let (Some(n), Some(label)) = (words.next(), words.next()) else {
                    continue;
                };
                let Ok(n) = n.parse::<u64>() else { continue };
                match label {
                    "passed" => human.passed += n,
                    "failed" => human.failed += n,
                    "ignored" => human.skipped += n,
                    "filtered" => filtered += n,
                    _ => {}
                }
            }
        } else if let Some(name) = line
            .strip_prefix("test ")
            .and_then(|r| r.strip_suffix(" ... FAILED"))
        {
            human.fail(name);
        } else if line.starts_with('{') {
            let Ok(event) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            match (event["type"].as_str(), event["event"].as_str()) {
                (Some("suite"), Some("ok" | "failed")) => {
                    saw_json = true;
                    json.passed += event["passed"].as_u64().unwrap_or(0);
                    json.failed += event["failed"].as_u64().unwrap_or(0);
                    json.skipped += event["ignored"].as_u64().unwrap_or(0);
                    *json.filtered_out.get_or_insert(0) +=
                        event["filtered_out"].as_u64().unwrap_or(0);
                }
                (Some("test"), Some("failed")) => {
                    if let Some(name) = event["name"].as_str() {
                        json.fail(name);
                    }
                }
                _ => {}
            }
        }
    }
    if saw_json {
        Some(json.finish())
    } else if saw_human {
        human.filtered_out = Some(filtered);
        Some(human.finish())
    } else {
        None
    }
}

/// cargo-nextest's human summary (`Summary [..] N tests run: N passed, N failed, N skipped`,
/// on stderr), falling back to libtest JSON (nextest's libtest-json output).
pub fn parse_nextest(output: &str) -> Option<TestRunSummary> {
    let mut s = TestRunSummary::new("nextest");
    let mut saw = false;
    for line in output.lines() {
        let line = line.trim();
        if let Some(rest) = line.strip_prefix("FAIL [") {
            if let Some((_, name)) = rest.split_once(']') {
                // Newer nextest prefixes a progress counter: `FAIL [ 0.004s] (1/2) crate test`.
                let name = name.trim();
                let name = match name.strip_prefix('(').and_then(|r| r.split_once(") ")) {
                    Some((counter, rest)) if counter.contains('/') => rest,
                    _ => name,
                };
                s.fail(name.trim());
            }
        }
        let Some(rest) = line.strip_prefix("Summary [") else {
            continue;
        };
        let Some((_, counts)) = rest.split_once(']') else {
            continue;
        };
        saw = true;
        s.passed = 0;
        s.failed = 0;
        s.skipped = 0;
        for part in counts.split([',', ':']).map(str::trim) {
            let mut words = part.split_whitespace();
            let (Some(n), Some(label)) = (words.next(), words.next()) else {
                continue;
            };
            let Ok(n) = n.parse::<u64>() else { continue };
            match label {
                "passed" => s.passed += n,
                "failed" | "timed" => s.failed += n,
                "skipped" => s.skipped += n,
                _ => {}
            }
        }
    }
    if saw {
        return Some(s.finish());
    }
    parse_libtest(output).map(|mut j| {
        j.runner = "nextest".to_string();
        j
    })
}

/// `go test -json`: one event per line; the last pass/fail/skip action per test counts.
/// A package that fails without a failing test (a build error) counts as one failure.
pub fn parse_go_test_json(output: &str) -> Option<TestRunSummary> {
    use std::collections::BTreeMap;
    let mut outcomes: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut failed_packages: Vec<String> = Vec::new();
    let mut saw = false;
    for line in output.lines() {
        let Ok(event) = serde_json::from_str::<Value>(line.trim()) else {
            continue;
        };
        let Some(action) = event["Action"].as_str() else {
            continue;
        };
        saw = true;
        let package = event["Package"].as_str().unwrap_or_default().to_string();
        match (event["Test"].as_str(), action) {
            (Some(test), "pass" | "fail" | "skip") => {
                outcomes.insert((package, test.to_string()), action.to_string());
            }
            (None, "fail") => failed_packages.push(package),
            _ => {}
        }
    }
    if !saw {
        return None;
    }
    let mut s = TestRunSummary::new("go");
    for ((package, test), action) in &outcomes {
        match action.as_str() {
            "pass" => s.passed += 1,
            "skip" => s.skipped += 1,
            _ => {
                s.failed += 1;
                s.fail(format!("{package}.{test}"));
            }
        }
    }
    for package in failed_packages {
        if !outcomes
            .iter()
            .any(|((p, _), a)| *p == package && a == "fail")
        {
            s.failed += 1;
            s.fail(format!("{package} (package failed)"));
        }
    }
    Some(s.finish())
}

/// JUnit XML (pytest `--junitxml`, and most other runners): counts `<testcase>` elements by
/// their `<failure>`, `<error>` and `<skipped>` children.
pub fn parse_junit_xml(xml: &str, runner: &str) -> Option<TestRunSummary> {
    let doc = roxmltree::Document::parse(xml).ok()?;
    let root = doc.root_element();
    if root.tag_name().name() != "testsuites" && root.tag_name().name() != "testsuite" {
        return None;
    }
    let mut s = TestRunSummary::new(runner);
    for case in doc.descendants().filter(|n| n.has_tag_name("testcase")) {
        let child = |tag: &str| case.children().any(|c| c.has_tag_name(tag));
        let name = match case.attribute("classname") {
            Some(class) if !class.is_empty() => {
                format!("{class}::{}", case.attribute("name").unwrap_or("?"))
            }
            _ => case.attribute("name").unwrap_or("?").to_string(),
        };
        if child("failure") || child("error") {
            s.failed += 1;
            s.fail(name);
        } else if child("skipped") {
            s.skipped += 1;
        } else {
            s.passed += 1;
        }
    }
    Some(s.finish())
}

/// pytest's closing line (`==== 3 passed, 1 failed, 2 skipped in 0.12s ====`).
pub fn parse_pytest_text(output: &str) -> Option<TestRunSummary> {
    let line = output
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('=') && l.ends_with('=') && l.contains(" in "))?;
    let inner = line.trim_matches('=').trim();
    let counts = inner.rsplit_once(" in ").map(|(c, _)| c)?;
    let mut s = TestRunSummary::new("pytest");
    let mut saw = false;
    for part in counts.split(',').map(str::trim) {
        let mut words = part.split_whitespace();
        let (Some(n), Some(label)) = (words.next(), words.next()) else {
            continue;
        };
        let Ok(n) = n.parse::<u64>() else { continue };
        saw = true;
        match label {
            "passed" | "xpassed" => s.passed += n,
            "failed" | "error" | "errors" => s.failed += n,
            "skipped" | "xfailed" | "deselected" => s.skipped += n,
            _ => {}
        }
    }
    saw.then(|| s.finish())
}

/// Jest's `--json` report (also Vitest's `--reporter=json`, which follows it).
pub fn parse_jest_json(report: &Value, runner: &str) -> Option<TestRunSummary> {
    let obj = report.as_object()?;
    let passed = obj.get("numPassedTests")?.as_u64()?;
    let failed = obj
        .get("numFailedTests")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let pending = obj
        .get("numPendingTests")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    let todo = obj.get("numTodoTests").and_then(Value::as_u64).unwrap_or(0);
    let mut s = TestRunSummary::new(runner);
    s.passed = passed;
    s.failed = failed;
    s.skipped = pending + todo;
    for file in obj
        .get("testResults")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        for a in file
            .get("assertionResults")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if a.get("status").and_then(Value::as_str) == Some("failed") {
                let name = a
                    .get("fullName")
                    .or_else(|| a.get("title"))
                    .and_then(Value::as_str)
                    .unwrap_or("?");
                s.fail(name);
            }
        }
        // A suite that failed to run (syntax error, missing import) has no assertions.
        if file.get("status").and_then(Value::as_str) == Some("failed")
            && file
                .get("assertionResults")
                .and_then(Value::as_array)
                .is_some_and(Vec::is_empty)
        {
            if let Some(name) = file.get("name").and_then(Value::as_str) {
                s.failed += 1;
                s.fail(format!("{name} (suite failed to run)"));
            }
        }
    }
    Some(s.finish())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn libtest_human_sums_binaries() {
        let out = "running 2 tests\ntest a::one ... ok\ntest a::two ... FAILED\n\nfailures:\n\
                   test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 3 filtered out; finished in 0.01s\n\
                   running 1 test\ntest b ... ignored\n\
                   test result: ok. 0 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s\n";
        let s = parse_libtest(out).unwrap();
        assert_eq!((s.passed, s.failed, s.skipped, s.total), (1, 1, 1, 3));
        assert_eq!(s.filtered_out, Some(3));
        assert_eq!(s.failures, vec!["a::two"]);
        assert!(parse_libtest("Compiling foo\nerror[E0308]: mismatched types").is_none());
    }

    #[test]
    fn libtest_json_events() {
        let out = r#"{ "type": "suite", "event": "started", "test_count": 2 }
{ "type": "test", "event": "failed", "name": "t::bad", "stdout": "boom" }
{ "type": "suite", "event": "failed", "passed": 1, "failed": 1, "ignored": 0, "measured": 0, "filtered_out": 0, "exec_time": 0.01 }"#;
        let s = parse_libtest(out).unwrap();
        assert_eq!((s.passed, s.failed), (1, 1));
        assert_eq!(s.failures, vec!["t::bad"]);
    }

    #[test]
    fn nextest_summary() {
        let out = "    FAIL [   0.004s] demo::tests::bad\n    FAIL [   0.004s] (2/3) demo::tests::bad\n────────────\n     Summary [   0.010s] 3 tests run: 2 passed, 1 failed, 1 skipped\n";
        let s = parse_nextest(out).unwrap();
        assert_eq!((s.passed, s.failed, s.skipped), (2, 1, 1));
        assert_eq!(s.failures, vec!["demo::tests::bad"]);
    }

    #[test]
    fn go_events() {
        let out = r#"{"Action":"run","Package":"ex/m","Test":"TestA"}
{"Action":"pass","Package":"ex/m","Test":"TestA","Elapsed":0}
{"Action":"fail","Package":"ex/m","Test":"TestB","Elapsed":0}
{"Action":"skip","Package":"ex/m","Test":"TestC","Elapsed":0}
{"Action":"fail","Package":"ex/m","Elapsed":0.1}
{"Action":"fail","Package":"ex/broken","Elapsed":0}
not json"#;
        let s = parse_go_test_json(out).unwrap();
        assert_eq!((s.passed, s.failed, s.skipped), (1, 2, 1));
        assert!(s.failures.contains(&"ex/m.TestB".to_string()));
        assert!(s
            .failures
            .contains(&"ex/broken (package failed)".to_string()));
    }

    #[test]
    fn junit_and_pytest_text() {
        let xml = r#"<?xml version="1.0"?><testsuites><testsuite name="pytest" tests="3">
<testcase classname="tests.test_x" name="test_ok"/>
<testcase classname="tests.test_x" name="test_bad"><failure message="assert 1 == 2"/></testcase>
<testcase classname="tests.test_x" name="test_skip"><skipped/></testcase>
</testsuite></testsuites>"#;
        let s = parse_junit_xml(xml, "pytest").unwrap();
        assert_eq!((s.passed, s.failed, s.skipped), (1, 1, 1));
        assert_eq!(s.failures, vec!["tests.test_x::test_bad"]);
        assert!(parse_junit_xml("<html/>", "pytest").is_none());
        assert!(parse_junit_xml("<testsuite", "pytest").is_none());
        let s = parse_pytest_text("....\n===== 4 passed, 1 failed, 2 skipped in 0.31s =====\n")
            .unwrap();
        assert_eq!((s.passed, s.failed, s.skipped), (4, 1, 2));
    }

    #[test]
    fn jest_report() {
        let report = json!({
            "numPassedTests": 3, "numFailedTests": 1, "numPendingTests": 1, "numTodoTests": 0,
            "testResults": [{"name": "/r/a.test.js", "status": "failed", "assertionResults": [
                {"fullName": "math adds", "status": "passed"},
                {"fullName": "math divides", "status": "failed"}
            ]}]
        });
        let s = parse_jest_json(&report, "jest").unwrap();
        assert_eq!((s.passed, s.failed, s.skipped, s.total), (3, 1, 1, 5));
        assert_eq!(s.failures, vec!["math divides"]);
        assert!(parse_jest_json(&json!("text"), "jest").is_none());
    }
}
