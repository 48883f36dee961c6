//! Test-runner output → one test-run summary, for the built-in test-runner envelopes. The
//! output is read by the verifier's own parsers ([`fornax_verify::tools::parse`], the tool
//! table's), so a run Fornax performs and a run an agent performed are read the same way;
//! this module only shapes their report into the capability's summary. Pure: no I/O, never
//! panics, `None` when nothing recognizable is there (absent is not zero).

use fornax_types::evidence::TestOutcome;
use fornax_types::ScopeUnit;
use fornax_verify::tools::{parse, TestReport};
use serde::{Deserialize, Serialize};

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
    /// The summary of a parsed report, stamped with `runner`: its counts (an uncounted
    /// total is 0) and the names of its failing tests, else of its failing files or packages
    /// (a package that failed to build has no failing test).
    pub fn from_report(report: &TestReport, runner: &str) -> Self {
        let passed = report.passed.unwrap_or(0);
        let failed = report.failed.unwrap_or(0);
        let skipped = report.skipped.unwrap_or(0);
        let failing = |unit: ScopeUnit| {
            report
                .scopes_of(unit)
                .filter(|s| s.outcome == TestOutcome::Failed)
                .map(|s| s.name.clone())
                .collect::<Vec<String>>()
        };
        let mut failures = failing(ScopeUnit::Test);
        if failures.is_empty() {
            failures = [ScopeUnit::File, ScopeUnit::Package, ScopeUnit::Module]
                .into_iter()
                .flat_map(failing)
                .collect();
        }
        failures.dedup();
        failures.truncate(MAX_FAILURES);
        TestRunSummary {
            runner: runner.to_string(),
            passed,
            failed,
            skipped,
            total: passed + failed + skipped,
            filtered_out: report.filtered_out,
            failures,
        }
    }

    pub fn success(&self) -> bool {
        self.failed == 0
    }
}

/// libtest (`cargo test`): its human `test result:` lines summed over every test binary, or
/// its JSON events (`--format json`).
pub fn parse_libtest(output: &str) -> Option<TestRunSummary> {
    let output = parse::bounded(output);
    parse::libtest_json(output)
        .or_else(|| parse::cargo(output))
        .map(|r| TestRunSummary::from_report(&r, "cargo"))
}

/// cargo-nextest's summary (or its libtest JSON output).
pub fn parse_nextest(output: &str) -> Option<TestRunSummary> {
    let output = parse::bounded(output);
    parse::nextest(output)
        .or_else(|| parse::libtest_json(output))
        .map(|r| TestRunSummary::from_report(&r, "nextest"))
}

/// `go test -json` events.
pub fn parse_go_test_json(output: &str) -> Option<TestRunSummary> {
    parse::go_json(parse::bounded(output)).map(|r| TestRunSummary::from_report(&r, "go"))
}

/// A JUnit XML report (pytest's `--junitxml`, Maven Surefire, Gradle), stamped with `runner`.
pub fn parse_junit_xml(xml: &str, runner: &str) -> Option<TestRunSummary> {
    parse::junit_xml(xml).map(|r| TestRunSummary::from_report(&r, runner))
}

/// pytest's terminal summary (`4 passed, 1 failed in 0.31s`).
pub fn parse_pytest_text(output: &str) -> Option<TestRunSummary> {
    parse::pytest(parse::bounded(output)).map(|r| TestRunSummary::from_report(&r, "pytest"))
}

/// A jest (or vitest) `--json` report, stamped with `runner`.
pub fn parse_jest_json(output: &str, runner: &str) -> Option<TestRunSummary> {
    parse::jest_json(parse::bounded(output)).map(|r| TestRunSummary::from_report(&r, runner))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert!(!s.success());
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
        let out = "    FAIL [   0.004s] demo::tests::bad\n────────────\n     Summary [   0.010s] 3 tests run: 2 passed, 1 failed, 1 skipped\n";
        let s = parse_nextest(out).unwrap();
        assert_eq!(
            (s.runner.as_str(), s.passed, s.failed, s.skipped),
            ("nextest", 2, 1, 1)
        );
        assert_eq!(s.failures.len(), 1, "{:?}", s.failures);
        assert!(s.failures[0].ends_with("bad"), "{:?}", s.failures);
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
        // The package that failed without a failing test (a build error) counts as one.
        assert_eq!((s.passed, s.failed, s.skipped), (1, 2, 1));
        assert!(
            s.failures.contains(&"TestB".to_string()),
            "{:?}",
            s.failures
        );
        // Only packages that failed to build: their names are the failures.
        let s =
            parse_go_test_json(r#"{"Action":"fail","Package":"ex/broken","Elapsed":0}"#).unwrap();
        assert_eq!(s.failures, vec!["ex/broken"]);
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
        let report = r#"{"numPassedTests": 3, "numFailedTests": 1, "numPendingTests": 1, "numTodoTests": 0,
            "testResults": [{"name": "/r/a.test.js", "status": "failed", "assertionResults": [
                {"fullName": "math adds", "status": "passed"},
                {"fullName": "math divides", "status": "failed"}]}]}"#;
        let s = parse_jest_json(report, "vitest").unwrap();
        assert_eq!((s.passed, s.failed, s.skipped, s.total), (3, 1, 1, 5));
        assert_eq!(s.runner, "vitest");
        assert_eq!(s.failures, vec!["math divides"]);
        assert!(parse_jest_json("\"text\"", "jest").is_none());
    }

    #[test]
    fn agents_runs_and_capability_runs_read_alike() {
        // The same output, read by the verifier for an agent's run and here for a run Fornax
        // performed, gives the same counts.
        let out = "tests/test_api.py ..F.   [100%]\nFAILED tests/test_api.py::test_post - assert 1 == 2\n1 failed, 3 passed in 0.20s\n";
        let ours = parse_pytest_text(out).unwrap();
        let theirs =
            fornax_verify::tools::parse_tests(out, fornax_verify::tools::by_id("pytest")).unwrap();
        assert_eq!(Some(ours.passed), theirs.passed);
        assert_eq!(Some(ours.failed), theirs.failed);
        assert_eq!(ours.failures, vec!["tests/test_api.py::test_post"]);
    }
}
