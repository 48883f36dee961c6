//! One real-looking output sample per supported runner.

use super::*;

fn counts(s: &Summary) -> (Option<u64>, Option<u64>, Option<u64>, Option<u64>) {
    (s.passed, s.failed, s.skipped, s.filtered_out)
}

#[test]
fn cargo_sums_binaries() {
    let out = "\nrunning 12 tests\ntest a::b ... ok\n\ntest result: ok. 12 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.02s\n\n     Running tests/cli.rs\n\nrunning 4 tests\ntest result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.31s\n\n   Doc-tests weatherkit\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 3 filtered out; finished in 0.11s\n";
    let s = parse(out).unwrap();
    assert_eq!(s.runner, "cargo");
    assert_eq!(counts(&s), (Some(18), Some(0), Some(1), Some(3)));
    assert!(s.is_clean_pass());
}

#[test]
fn cargo_failure_and_crash() {
    let out = "test parse::rejects_empty ... FAILED\n\nfailures:\n\n---- parse::rejects_empty stdout ----\nthread 'parse::rejects_empty' panicked at src/parse.rs:40:9\n\ntest result: FAILED. 30 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.05s\n\nerror: test failed, to rerun pass `--lib`\n";
    assert_eq!(parse(out).unwrap().failed, Some(1));
    let crashed = "test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\nerror: test failed, to rerun pass `--test integration`\n\nCaused by:\n  process didn't exit successfully (signal: 11, SIGSEGV)\n";
    assert!(parse(crashed).unwrap().has_failures());
}

#[test]
fn nextest_summary() {
    let out = "    Starting 27 tests across 4 binaries (1 test skipped)\n        PASS [   0.011s] ledger::tests::balance\n        FAIL [   0.020s] ledger::tests::overdraft\n------------\n     Summary [   0.412s] 27 tests run: 26 passed (2 slow), 1 failed, 1 skipped\n";
    let s = parse(out).unwrap();
    assert_eq!(s.runner, "nextest");
    assert_eq!(counts(&s), (Some(26), Some(1), Some(1), None));
    let ok = "     Summary [   0.102s] 9 tests run: 9 passed, 0 skipped\n";
    assert!(parse(ok).unwrap().is_clean_pass());
}

#[test]
fn pytest_forms() {
    let quiet = "....F....\n=== short test summary info ===\nFAILED tests/test_rates.py::test_round - AssertionError\n1 failed, 57 passed in 3.88s\n";
    let s = parse(quiet).unwrap();
    assert_eq!(
        (s.runner, s.passed, s.failed),
        ("pytest", Some(57), Some(1))
    );
    let ruled =
        "============ 120 passed, 3 skipped, 4 deselected, 2 warnings in 12.01s ============\n";
    let s = parse(ruled).unwrap();
    assert_eq!(counts(&s), (Some(120), Some(0), Some(3), Some(4)));
    assert!(s.reports_filter());
    let errors = "=========== 2 errors in 0.41s ===========\n";
    assert!(parse(errors).unwrap().has_failures());
    let none = "============================ no tests ran in 0.02s =============================\n";
    assert!(!parse(none).unwrap().is_clean_pass());
    let timed = "======= 64 passed in 2.87s (0:00:02) =======\n";
    assert_eq!(parse(timed).unwrap().passed, Some(64));
}

#[test]
fn go_packages() {
    let ok = "ok  \tgithub.com/acme/relay/internal/queue\t0.231s\n?   \tgithub.com/acme/relay/cmd/relayd\t[no test files]\nok  \tgithub.com/acme/relay/internal/wire\t(cached)\n";
    let s = parse(ok).unwrap();
    assert_eq!((s.runner, s.passed, s.failed), ("go", Some(2), Some(0)));
    let fail = "--- FAIL: TestBackoff (0.00s)\n    backoff_test.go:31: got 400ms, want 800ms\nFAIL\nFAIL\tgithub.com/acme/relay/internal/retry\t0.114s\nok  \tgithub.com/acme/relay/internal/wire\t0.020s\nFAIL\n";
    let s = parse(fail).unwrap();
    assert_eq!((s.passed, s.failed), (Some(1), Some(1)));
    let build = "# github.com/acme/relay/internal/retry\ninternal/retry/backoff.go:12:2: undefined: jitter\nFAIL\tgithub.com/acme/relay/internal/retry [build failed]\n";
    assert!(parse(build).unwrap().has_failures());
    let json = "{\"Time\":\"2026-01-02T10:00:00Z\",\"Action\":\"pass\",\"Package\":\"example.com/m/a\",\"Test\":\"TestA\",\"Elapsed\":0}\n{\"Time\":\"2026-01-02T10:00:00Z\",\"Action\":\"pass\",\"Package\":\"example.com/m/a\",\"Elapsed\":0.01}\n{\"Time\":\"2026-01-02T10:00:00Z\",\"Action\":\"fail\",\"Package\":\"example.com/m/b\",\"Elapsed\":0.02}\n";
    let s = parse(json).unwrap();
    assert_eq!((s.passed, s.failed), (Some(1), Some(1)));
}

#[test]
fn jest_tests_line() {
    let out = "PASS src/cart.test.js\nFAIL src/tax.test.js\n  ● tax › rounds half up\n\nTest Suites: 1 failed, 1 passed, 2 total\nTests:       1 failed, 2 skipped, 30 passed, 33 total\nSnapshots:   0 total\nTime:        2.31 s\n";
    let s = parse(out).unwrap();
    assert_eq!(s.runner, "jest");
    assert_eq!(counts(&s), (Some(30), Some(1), Some(2), None));
    let filtered = "Test Suites: 4 skipped, 1 passed, 1 of 5 total\nTests:       41 skipped, 9 passed, 50 total\n";
    let s = parse(filtered).unwrap();
    assert_eq!(
        (s.passed, s.failed, s.skipped),
        (Some(9), Some(0), Some(41))
    );
    let load_error = "FAIL src/broken.test.ts\n  ● Test suite failed to run\n\nTest Suites: 1 failed, 3 passed, 4 total\nTests:       25 passed, 25 total\n";
    assert!(parse(load_error).unwrap().has_failures());
}

#[test]
fn vitest_lines() {
    let out = " ✓ src/a.test.ts (10 tests) 12ms\n ❯ src/b.test.ts (8 tests | 1 failed) 30ms\n\n Test Files  1 failed | 1 passed (2)\n      Tests  1 failed | 17 passed (18)\n   Start at  10:01:02\n   Duration  900ms\n";
    let s = parse(out).unwrap();
    assert_eq!(
        (s.runner, s.passed, s.failed),
        ("vitest", Some(17), Some(1))
    );
    let ok = " Test Files  4 passed (4)\n      Tests  52 passed | 3 skipped (55)\n";
    let s = parse(ok).unwrap();
    assert_eq!(counts(&s), (Some(52), Some(0), Some(3), None));
}

#[test]
fn bun_deno_mocha() {
    let bun = "src/math.test.ts:\n✓ adds [0.10ms]\n\n 14 pass\n 1 skip\n 0 fail\n 30 expect() calls\nRan 15 tests across 3 files. [41.00ms]\n";
    let s = parse(bun).unwrap();
    assert_eq!(counts(&s), (Some(14), Some(0), Some(1), None));
    let deno = "running 3 tests from ./util_test.ts\nparse ... ok (2ms)\n\nFAILED | 11 passed (3 steps) | 2 failed | 1 ignored (410ms)\n";
    let s = parse(deno).unwrap();
    assert_eq!(counts(&s), (Some(11), Some(2), Some(1), None));
    let mocha = "  router\n    ✔ matches params\n    1) rejects bad verbs\n\n\n  23 passing (51ms)\n  1 pending\n  1 failing\n";
    let s = parse(mocha).unwrap();
    assert_eq!(counts(&s), (Some(23), Some(1), Some(1), None));
}

#[test]
fn playwright_summary() {
    let out = "Running 12 tests using 4 workers\n\n  1) [chromium] › cart.spec.ts:8:3 › adds item\n\n  1 failed\n    [chromium] › cart.spec.ts:8:3 › adds item\n  1 flaky\n    [webkit] › login.spec.ts:4:1 › logs in\n  10 passed (21.4s)\n";
    let s = parse(out).unwrap();
    assert_eq!(
        (s.runner, s.passed, s.failed),
        ("playwright", Some(11), Some(1))
    );
    assert!(parse("  12 passed (9.0s)\n").unwrap().is_clean_pass());
}

#[test]
fn rspec_exunit_phpunit() {
    let rspec = "Finished in 1.2 seconds (files took 0.4 seconds to load)\n48 examples, 2 failures, 3 pending\n";
    let s = parse(rspec).unwrap();
    assert_eq!(counts(&s), (Some(43), Some(2), Some(3), None));
    let ex = "Finished in 0.3 seconds (0.1s async, 0.2s sync)\n2 doctests, 30 tests, 0 failures, 1 excluded\n";
    let s = parse(ex).unwrap();
    assert_eq!(
        (s.runner, s.passed, s.failed, s.filtered_out),
        ("exunit", Some(32), Some(0), Some(1))
    );
    let ok = "PHPUnit 11.2.1 by Sebastian Bergmann and contributors.\n\n...............  15 / 15 (100%)\n\nTime: 00:00.120, Memory: 10.00 MB\n\nOK (15 tests, 38 assertions)\n";
    assert!(parse(ok).unwrap().is_clean_pass());
    let bad = "FAILURES!\nTests: 20, Assertions: 51, Failures: 2, Errors: 1, Skipped: 1.\n";
    let s = parse(bad).unwrap();
    assert_eq!(counts(&s), (Some(16), Some(3), Some(1), None));
    let pest = "  Tests:    1 failed, 27 passed (64 assertions)\n  Duration: 0.61s\n";
    assert_eq!(parse(pest).unwrap().failed, Some(1));
}

#[test]
fn junit_gradle_dotnet_ctest() {
    let mvn = "[INFO] Tests run: 5, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.1 s - in com.acme.CartTest\n[ERROR] Tests run: 3, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.2 s <<< FAILURE! - in com.acme.TaxTest\n[INFO] Results:\n[ERROR] Tests run: 8, Failures: 1, Errors: 0, Skipped: 0\n[INFO] BUILD FAILURE\n";
    let s = parse(mvn).unwrap();
    assert_eq!((s.runner, s.passed, s.failed), ("junit", Some(7), Some(1)));
    let gradle_fail = "> Task :app:test FAILED\n\nOrderServiceTest > refundsPartially() FAILED\n\n31 tests completed, 1 failed, 2 skipped\n\nFAILURE: Build failed with an exception.\n";
    let s = parse(gradle_fail).unwrap();
    assert_eq!(counts(&s), (Some(28), Some(1), Some(2), None));
    let gradle_ok = "> Task :compileJava UP-TO-DATE\n> Task :test\n\nBUILD SUCCESSFUL in 4s\n5 actionable tasks: 1 executed, 4 up-to-date\n";
    let s = parse(gradle_ok).unwrap();
    assert!(s.is_clean_pass());
    let dotnet = "Passed!  - Failed:     0, Passed:    40, Skipped:     1, Total:    41, Duration: 1 s - Shop.Tests.dll (net8.0)\nFailed!  - Failed:     2, Passed:    10, Skipped:     0, Total:    12, Duration: 300 ms - Shop.Api.Tests.dll (net8.0)\n";
    let s = parse(dotnet).unwrap();
    assert_eq!(counts(&s), (Some(50), Some(2), Some(1), None));
    let dotnet10 =
        "Test summary: total: 12, failed: 0, succeeded: 12, skipped: 0, duration: 0.8s\n";
    assert!(parse(dotnet10).unwrap().is_clean_pass());
    let ctest = "1/3 Test #1: unit ...........   Passed    0.01 sec\n\n67% tests passed, 1 tests failed out of 3\n\nTotal Test time (real) =   0.05 sec\n";
    let s = parse(ctest).unwrap();
    assert_eq!((s.passed, s.failed), (Some(2), Some(1)));
}

#[test]
fn unittest_xctest_generic() {
    let ut = "..F.\n======\nFAIL: test_b (tests.test_x.T)\n----------------------------------------------------------------------\nRan 4 tests in 0.003s\n\nFAILED (failures=1)\n";
    let s = parse(ut).unwrap();
    assert_eq!(
        (s.runner, s.passed, s.failed),
        ("unittest", Some(3), Some(1))
    );
    let ok = "Ran 9 tests in 0.010s\n\nOK (skipped=1)\n";
    assert_eq!(
        counts(&parse(ok).unwrap()),
        (Some(8), Some(0), Some(1), None)
    );
    let xc = "Test Suite 'All tests' passed at 2026-01-01 10:00:00.000.\n\t Executed 12 tests, with 0 failures (0 unexpected) in 0.041 (0.050) seconds\n";
    assert!(parse(xc).unwrap().is_clean_pass());
    let home = "./build/test_core\n18 passed, 0 failed\n./build/test_io\n3 passed, 2 failed\nmake: *** [Makefile:20: check] Error 1\n";
    let s = parse(home).unwrap();
    assert_eq!(
        (s.runner, s.passed, s.failed),
        ("generic", Some(21), Some(2))
    );
    let all = "All 40 tests passed\n";
    assert!(parse(all).unwrap().is_clean_pass());
}

#[test]
fn ordinary_output_is_not_a_summary() {
    for out in [
        "",
        "   Compiling demo v0.1.0\n    Finished `dev` profile in 1.2s\n",
        "[main 1a2b3c4] fix: things\n 1 file changed\n",
        "the parser passed the token to the lexer\n",
        "src/lib.rs:10: passed = 3\n",
    ] {
        assert_eq!(parse(out), None, "{out:?}");
    }
}

#[test]
fn describe_is_compact() {
    let s = Summary {
        runner: "pytest",
        passed: Some(3),
        failed: Some(1),
        skipped: Some(0),
        filtered_out: Some(2),
        ..Summary::default()
    };
    assert_eq!(s.describe(), "pytest: 3 passed, 1 failed, 2 filtered out");
}
