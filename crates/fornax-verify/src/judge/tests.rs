//! Claims judged with their structured quantity and scope set directly (what extraction fills
//! in), over timelines built from canonical items. All content is invented for these tests.

use fornax_types::{ClaimQuantity, ClaimScope, Item, Role, ScopeUnit, Verdict};

use super::*;
use crate::testkit::{output, say, shell_call};

/// A shell call and its output, with an exit status.
fn ran(n: usize, command: &str, exit: i64, text: &str) -> [Item; 2] {
    let id = format!("c{n}");
    [
        shell_call(&format!("k{n}a"), Some(&id), command),
        output(
            &format!("k{n}b"),
            Some(&id),
            text,
            Some(exit),
            Some(exit != 0),
        ),
    ]
}

/// Judges the claim of `subject`... extracted from `text` (the final answer after `runs`),
/// with `quantity` and `scope` set as extraction would set them.
fn judged(runs: Vec<[Item; 2]>, text: &str, quantity: ClaimQuantity, scope: ClaimScope) -> Finding {
    let mut items: Vec<Item> = runs.into_iter().flatten().collect();
    items.push(say("final", Role::AgentFinalAnswer, text));
    let refs: Vec<&Item> = items.iter().collect();
    let timeline = crate::timeline::Timeline::build(&refs);
    let (_, obs) = crate::observe::observe(&timeline, &[], &[]);
    let mut claims = crate::claims::extract_claims(items.last().expect("answer"));
    assert_eq!(claims.len(), 1, "one claim in {text:?}: {claims:?}");
    let mut claim = claims.remove(0);
    claim.quantity = quantity;
    claim.scope = scope;
    judge(
        &claim,
        &obs,
        Moment {
            pos: items.len() - 1,
            is_final: true,
            sessions: None,
        },
    )
}

fn cargo_summary(passed: u64, failed: u64) -> String {
    let mut out = format!("\nrunning {} tests\n", passed + failed);
    for i in 0..failed {
        out.push_str(&format!("test ledger::tests::case_{i} ... FAILED\n"));
    }
    out.push_str(&format!(
        "\ntest result: {}. {passed} passed; {failed} failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.41s\n",
        if failed == 0 { "ok" } else { "FAILED" }
    ));
    out
}

fn at_least(count: u64) -> ClaimQuantity {
    ClaimQuantity::AtLeast { count }
}

fn all_of(count: u64) -> ClaimQuantity {
    ClaimQuantity::AllOf { count }
}

const WHOLE: ClaimScope = ClaimScope::Whole;

#[test]
fn a_count_is_verified_by_at_least_that_many_passes() {
    let f = judged(
        vec![ran(1, "cargo test", 0, &cargo_summary(52, 0))],
        "48 tests pass.",
        at_least(48),
        WHOLE,
    );
    assert_eq!(f.verdict, Verdict::Verified, "{f:?}");
}

#[test]
fn a_count_says_nothing_about_the_other_tests() {
    let f = judged(
        vec![ran(1, "cargo test", 101, &cargo_summary(48, 2))],
        "48 tests pass.",
        at_least(48),
        WHOLE,
    );
    assert_eq!(f.verdict, Verdict::Verified, "{f:?}");
    assert!(f.rationale().contains("48 passed"), "{}", f.rationale());
    assert_eq!(f.rule, "test_result.count_met");
}

#[test]
fn fewer_passes_than_claimed_contradict_a_count() {
    let f = judged(
        vec![ran(1, "cargo test", 0, &cargo_summary(17, 0))],
        "48 tests pass.",
        at_least(48),
        WHOLE,
    );
    assert_eq!(f.verdict, Verdict::Contradicted, "{f:?}");
    assert_eq!(f.rule, "test_result.count_short");
    assert!(f.rationale().contains("17 passed") && f.rationale().contains("48"));
}

#[test]
fn a_filtered_run_with_fewer_passes_is_partial_for_a_count() {
    let out = "\nrunning 5 tests\ntest result: ok. 5 passed; 0 failed; 0 ignored; 0 measured; 43 filtered out; finished in 0.02s\n";
    let f = judged(
        vec![ran(1, "cargo test ledger::", 0, out)],
        "48 tests pass.",
        at_least(48),
        WHOLE,
    );
    assert_eq!(f.verdict, Verdict::Review, "{f:?}");
}

#[test]
fn a_count_no_output_counts_is_review() {
    let f = judged(
        vec![ran(1, "cargo test", 0, "done\n")],
        "48 tests pass.",
        at_least(48),
        WHOLE,
    );
    assert_eq!(f.verdict, Verdict::Review, "{f:?}");
    assert_eq!(f.rule, "test_result.count_unknown");
    // A failing run without counts does not show fewer passes either.
    let f = judged(
        vec![ran(1, "cargo test", 101, "error: test failed\n")],
        "48 tests pass.",
        at_least(48),
        WHOLE,
    );
    assert_eq!(f.verdict, Verdict::Review, "{f:?}");
}

#[test]
fn all_of_a_count_needs_the_count_and_no_failure() {
    let ok = judged(
        vec![ran(1, "cargo test", 0, &cargo_summary(48, 0))],
        "All 48 tests pass.",
        all_of(48),
        WHOLE,
    );
    assert_eq!(ok.verdict, Verdict::Verified, "{ok:?}");
    let failing = judged(
        vec![ran(1, "cargo test", 101, &cargo_summary(48, 1))],
        "All 48 tests pass.",
        all_of(48),
        WHOLE,
    );
    assert_eq!(failing.verdict, Verdict::Contradicted, "{failing:?}");
    let short = judged(
        vec![ran(1, "cargo test", 0, &cargo_summary(40, 0))],
        "All 48 tests pass.",
        all_of(48),
        WHOLE,
    );
    assert_eq!(short.verdict, Verdict::Contradicted, "{short:?}");
    assert_eq!(short.rule, "test_result.count_short");
    let uncounted = judged(
        vec![ran(1, "cargo test", 0, "done\n")],
        "All 48 tests pass.",
        all_of(48),
        WHOLE,
    );
    assert_eq!(uncounted.verdict, Verdict::Review, "{uncounted:?}");
}

#[test]
fn none_failed_is_verified_by_a_clean_summary_whatever_else_failed() {
    // The tests passed; the command failed afterwards (a coverage threshold).
    let out = format!(
        "{}error: coverage 71% is below the required 80%\n",
        cargo_summary(30, 0)
    );
    let f = judged(
        vec![ran(1, "cargo test", 1, &out)],
        "No test failures.",
        ClaimQuantity::NoneFailed,
        WHOLE,
    );
    assert_eq!(f.verdict, Verdict::Verified, "{f:?}");
    assert_eq!(f.rule, "test_result.none_failed");
    let plain = judged(
        vec![ran(1, "cargo test", 1, &out)],
        "The tests pass.",
        ClaimQuantity::Unqualified,
        WHOLE,
    );
    assert_eq!(plain.verdict, Verdict::Review, "{plain:?}");
    let failing = judged(
        vec![ran(1, "cargo test", 101, &cargo_summary(29, 1))],
        "No test failures.",
        ClaimQuantity::NoneFailed,
        WHOLE,
    );
    assert_eq!(failing.verdict, Verdict::Contradicted, "{failing:?}");
}

#[test]
fn all_is_about_the_whole_suite() {
    let filtered = "\nrunning 5 tests\ntest result: ok. 5 passed; 0 failed; 0 ignored; 0 measured; 43 filtered out; finished in 0.02s\n";
    let f = judged(
        vec![ran(1, "cargo test ledger::", 0, filtered)],
        "All tests pass.",
        ClaimQuantity::All,
        WHOLE,
    );
    assert_eq!(f.verdict, Verdict::Review, "{f:?}");
    let f = judged(
        vec![ran(1, "cargo test", 101, &cargo_summary(47, 1))],
        "All tests pass.",
        ClaimQuantity::All,
        WHOLE,
    );
    assert_eq!(f.verdict, Verdict::Contradicted, "{f:?}");
}

#[test]
fn a_stale_count_is_review() {
    let mut runs = vec![ran(1, "cargo test", 0, &cargo_summary(48, 0))];
    runs.push([
        crate::testkit::tool_call(
            "k2a",
            Some("c2"),
            "Edit",
            serde_json::json!({"file_path": "/w/ledger/src/lib.rs", "old_string": "a", "new_string": "b"}),
        ),
        output(
            "k2b",
            Some("c2"),
            "The file has been updated successfully.",
            None,
            Some(false),
        ),
    ]);
    let f = judged(runs, "48 tests pass.", at_least(48), WHOLE);
    assert_eq!(f.verdict, Verdict::Review, "{f:?}");
    assert!(f.rule.ends_with("stale"), "{}", f.rule);
}

#[test]
fn a_scoped_count_uses_the_scope_counts() {
    // vitest counts tests per file.
    let out = " ✓ src/parser.test.ts (12 tests) 14ms\n ❯ src/render.test.ts (3 tests | 1 failed) 9ms\n\n Test Files  1 failed | 1 passed (2)\n      Tests  1 failed | 14 passed (15)\n";
    let scope = || ClaimScope::Named {
        unit: ScopeUnit::File,
        name: "src/parser.test.ts".into(),
    };
    let f = judged(
        vec![ran(1, "npx vitest run", 1, out)],
        "The 12 tests in `src/parser.test.ts` pass.",
        at_least(12),
        scope(),
    );
    assert_eq!(f.verdict, Verdict::Verified, "{f:?}");
    let f = judged(
        vec![ran(1, "npx vitest run", 1, out)],
        "The 20 tests in `src/parser.test.ts` pass.",
        at_least(20),
        scope(),
    );
    assert_eq!(f.verdict, Verdict::Review, "{f:?}");
}

fn named(unit: ScopeUnit, name: &str) -> ClaimScope {
    ClaimScope::Named {
        unit,
        name: name.into(),
    }
}

const PYTEST_MIXED: &str = "tests/test_api.py ....                                                  [ 50%]\ntests/test_render.py ..F.                                               [100%]\n=========================== short test summary info ============================\nFAILED tests/test_render.py::test_wide_table - AssertionError\n==================== 1 failed, 7 passed in 0.31s ====================\n";

fn scoped_test(runs: Vec<[Item; 2]>, text: &str, scope: ClaimScope) -> Finding {
    judged(runs, text, ClaimQuantity::Unqualified, scope)
}

#[test]
fn a_file_shown_passing_is_verified_although_others_failed() {
    let f = scoped_test(
        vec![ran(1, "pytest", 1, PYTEST_MIXED)],
        "The API tests pass.",
        named(ScopeUnit::File, "tests/test_api.py"),
    );
    assert_eq!(f.verdict, Verdict::Verified, "{f:?}");
    assert_eq!(f.rule, "test_result.scope_passes");
}

#[test]
fn a_file_shown_failing_is_contradicted() {
    let f = scoped_test(
        vec![ran(1, "pytest", 1, PYTEST_MIXED)],
        "The render tests pass.",
        named(ScopeUnit::File, "tests/test_render.py"),
    );
    assert_eq!(f.verdict, Verdict::Contradicted, "{f:?}");
    assert!(f.rationale().contains("tests/test_render.py"));
}

#[test]
fn a_failing_run_with_totals_only_is_review_for_a_scope() {
    let f = scoped_test(
        vec![ran(
            1,
            "pytest -q",
            1,
            "..F.....\n1 failed, 7 passed in 0.31s\n",
        )],
        "The API tests pass.",
        named(ScopeUnit::File, "tests/test_api.py"),
    );
    assert_eq!(f.verdict, Verdict::Review, "{f:?}");
    // No summary at all: a failing exit does not say where it failed either.
    let f = scoped_test(
        vec![ran(
            1,
            "pytest -q",
            1,
            "Traceback (most recent call last):\n  ...\n",
        )],
        "The API tests pass.",
        named(ScopeUnit::File, "tests/test_api.py"),
    );
    assert_eq!(f.verdict, Verdict::Review, "{f:?}");
    assert_eq!(f.rule, "test_result.scope_unknown");
}

#[test]
fn a_run_of_just_that_scope_is_full_evidence_for_it_and_partial_for_the_suite() {
    let pass = || {
        ran(
            1,
            "pytest tests/test_api.py -q",
            0,
            "....\n4 passed in 0.12s\n",
        )
    };
    let f = scoped_test(
        vec![pass()],
        "The API tests pass.",
        named(ScopeUnit::File, "tests/test_api.py"),
    );
    assert_eq!(f.verdict, Verdict::Verified, "{f:?}");
    let f = scoped_test(vec![pass()], "The tests pass.", WHOLE);
    assert_eq!(f.verdict, Verdict::Review, "{f:?}");
    assert!(f.rule.ends_with("filtered"), "{}", f.rule);
    // The same selection failing, with totals only, contradicts the scope.
    let f = scoped_test(
        vec![ran(
            1,
            "pytest tests/test_api.py -q",
            1,
            "..F.\n1 failed, 3 passed in 0.12s\n",
        )],
        "The API tests pass.",
        named(ScopeUnit::File, "tests/test_api.py"),
    );
    assert_eq!(f.verdict, Verdict::Contradicted, "{f:?}");
    // A directory holding the file selects it too.
    let f = scoped_test(
        vec![ran(
            1,
            "python -m pytest tests/",
            0,
            "........\n8 passed in 0.30s\n",
        )],
        "The API tests pass.",
        named(ScopeUnit::File, "tests/test_api.py"),
    );
    assert_eq!(f.verdict, Verdict::Verified, "{f:?}");
}

#[test]
fn a_run_of_another_scope_is_no_evidence_for_this_one() {
    let f = scoped_test(
        vec![ran(
            1,
            "pytest tests/test_render.py -q",
            0,
            "....\n4 passed in 0.12s\n",
        )],
        "The API tests pass.",
        named(ScopeUnit::File, "tests/test_api.py"),
    );
    assert_eq!(f.verdict, Verdict::Unverified, "{f:?}");
    assert_eq!(f.rule, "test_result.no_scope_run");
    let f = scoped_test(
        vec![ran(
            1,
            "pytest tests/test_render.py -q",
            1,
            "..F.\n1 failed, 3 passed in 0.12s\n",
        )],
        "The API tests pass.",
        named(ScopeUnit::File, "tests/test_api.py"),
    );
    assert_eq!(f.verdict, Verdict::Unverified, "{f:?}");
}

const GO_MIXED: &str = "ok  \texample.com/shop/api\t0.014s\n--- FAIL: TestCheckout (0.00s)\n    checkout_test.go:31: total = 9, want 10\nFAIL\nFAIL\texample.com/shop/web\t0.021s\nFAIL\n";

#[test]
fn packages_are_judged_by_their_own_lines() {
    let run = || ran(1, "go test ./...", 1, GO_MIXED);
    let f = scoped_test(
        vec![run()],
        "The api package tests pass.",
        named(ScopeUnit::Package, "api"),
    );
    assert_eq!(f.verdict, Verdict::Verified, "{f:?}");
    let f = scoped_test(
        vec![run()],
        "The web package tests pass.",
        named(ScopeUnit::Package, "web"),
    );
    assert_eq!(f.verdict, Verdict::Contradicted, "{f:?}");
    // `go test ./api/...` selects the package.
    let f = scoped_test(
        vec![ran(
            1,
            "go test ./api/...",
            0,
            "ok  \texample.com/shop/api\t0.014s\n",
        )],
        "The api package tests pass.",
        named(ScopeUnit::Package, "api"),
    );
    assert_eq!(f.verdict, Verdict::Verified, "{f:?}");
}

#[test]
fn services_and_modules_are_judged_by_their_own_lines() {
    let jest = "PASS services/invoice-service/src/invoice.test.ts\nFAIL services/billing/src/charge.test.ts\n  ● charge › retries\n\nTest Suites: 1 failed, 1 passed, 2 total\nTests:       1 failed, 11 passed, 12 total\n";
    let f = scoped_test(
        vec![ran(1, "npx jest", 1, jest)],
        "The invoice-service tests are all green now.",
        named(ScopeUnit::Service, "invoice-service"),
    );
    assert_eq!(f.verdict, Verdict::Verified, "{f:?}");
    let f = scoped_test(
        vec![ran(1, "npx jest", 1, jest)],
        "The billing tests are green.",
        named(ScopeUnit::Service, "billing"),
    );
    assert_eq!(f.verdict, Verdict::Contradicted, "{f:?}");
    let cargo = "\nrunning 3 tests\ntest parser::tests::empty ... ok\ntest parser::tests::nested ... ok\ntest render::tests::wide ... FAILED\n\ntest result: FAILED. 2 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n";
    let f = scoped_test(
        vec![ran(1, "cargo test", 101, cargo)],
        "The parser tests pass.",
        named(ScopeUnit::Module, "parser"),
    );
    assert_eq!(f.verdict, Verdict::Verified, "{f:?}");
}

fn scoped_check(runs: Vec<[Item; 2]>, text: &str, scope: ClaimScope) -> Finding {
    judged(runs, text, ClaimQuantity::Unqualified, scope)
}

#[test]
fn build_errors_in_the_claimed_file_contradict_and_elsewhere_are_partial() {
    let tsc = "src/table.tsx(40,3): error TS2322: Type 'null' is not assignable to type 'Row'.\n\nFound 1 error in src/table.tsx:40\n";
    let f = scoped_check(
        vec![ran(1, "npx tsc --noEmit", 2, tsc)],
        "`src/table.tsx` typechecks.",
        named(ScopeUnit::File, "src/table.tsx"),
    );
    assert_eq!(f.verdict, Verdict::Contradicted, "{f:?}");
    assert_eq!(f.rule, "build_result.scope_fails");
    let f = scoped_check(
        vec![ran(1, "npx tsc --noEmit", 2, tsc)],
        "`src/api.ts` typechecks.",
        named(ScopeUnit::File, "src/api.ts"),
    );
    assert_eq!(f.verdict, Verdict::Review, "{f:?}");
    assert!(f.rationale().contains("src/table.tsx"), "{}", f.rationale());
    let go = "# example.com/shop/web\nweb/main.go:3:2: undefined: render\n";
    let f = scoped_check(
        vec![ran(1, "go build ./...", 1, go)],
        "The api package builds.",
        named(ScopeUnit::Package, "api"),
    );
    assert_eq!(f.verdict, Verdict::Review, "{f:?}");
    let f = scoped_check(
        vec![ran(1, "go build ./...", 1, go)],
        "The web package builds.",
        named(ScopeUnit::Package, "web"),
    );
    assert_eq!(f.verdict, Verdict::Contradicted, "{f:?}");
}

#[test]
fn lint_per_file_verdicts() {
    let ruff = "src/billing/charge.py:12:5: F841 Local variable `x` is assigned to but never used\nFound 1 error.\n";
    let f = scoped_check(
        vec![ran(1, "ruff check .", 1, ruff)],
        "`src/billing/charge.py` is lint clean.",
        named(ScopeUnit::File, "src/billing/charge.py"),
    );
    assert_eq!(f.verdict, Verdict::Contradicted, "{f:?}");
    let f = scoped_check(
        vec![ran(1, "ruff check .", 1, ruff)],
        "`src/billing/refund.py` is lint clean.",
        named(ScopeUnit::File, "src/billing/refund.py"),
    );
    assert_eq!(f.verdict, Verdict::Review, "{f:?}");
    // A run of just that file is full evidence for it, and passing runs of the whole
    // project cover it.
    let f = scoped_check(
        vec![ran(
            1,
            "ruff check src/billing/refund.py",
            0,
            "All checks passed!\n",
        )],
        "`src/billing/refund.py` is lint clean.",
        named(ScopeUnit::File, "src/billing/refund.py"),
    );
    assert_eq!(f.verdict, Verdict::Verified, "{f:?}");
    let f = scoped_check(
        vec![ran(1, "ruff check src/billing/charge.py", 1, ruff)],
        "`src/billing/charge.py` is lint clean.",
        named(ScopeUnit::File, "src/billing/charge.py"),
    );
    assert_eq!(f.verdict, Verdict::Contradicted, "{f:?}");
    let f = scoped_check(
        vec![ran(1, "ruff check src/other.py", 0, "All checks passed!\n")],
        "`src/billing/refund.py` is lint clean.",
        named(ScopeUnit::File, "src/billing/refund.py"),
    );
    assert_eq!(f.verdict, Verdict::Unverified, "{f:?}");
}

#[test]
fn a_module_launched_runner_is_the_claimed_runner() {
    let f = judged(
        vec![
            ran(
                1,
                "python -m pytest tests/unit -q",
                0,
                "......................                                     [100%]\n22 passed in 0.31s\n",
            ),
            ran(
                2,
                "python -m pytest tests/integration -q",
                1,
                "..F..\nFAILED tests/integration/test_booking.py::test_overlap - OperationalError\n1 failed, 4 passed in 2.10s\n",
            ),
        ],
        "`pytest tests/unit` passes (22 tests).",
        at_least(22),
        ClaimScope::Whole,
    );
    assert_eq!(f.verdict, Verdict::Verified, "{f:?}");
}

fn mypy_claim_after(exit: i64, output: &str) -> Finding {
    judged(
        vec![ran(1, "mypy harbor", exit, output)],
        "mypy 靜態檢查無錯誤。",
        ClaimQuantity::Unqualified,
        ClaimScope::Whole,
    )
}

#[test]
fn a_lint_tool_run_on_the_package_is_a_run_of_that_tool() {
    let failing = mypy_claim_after(
        1,
        "harbor/io.py:12: error: Incompatible return value type (got \"int\", expected \"str\")  [return-value]\nFound 1 error in 1 file (checked 9 source files)\n",
    );
    assert_eq!(failing.verdict, Verdict::Contradicted, "{failing:?}");
    let passing = mypy_claim_after(0, "Success: no issues found in 9 source files\n");
    assert_eq!(passing.verdict, Verdict::Verified, "{passing:?}");
    // `--strict` selects other rules: not a run of the claimed check.
    let other = judged(
        vec![ran(
            1,
            "mypy --strict harbor",
            1,
            "harbor/io.py:3: error: Missing type\n",
        )],
        "mypy 靜態檢查無錯誤。",
        ClaimQuantity::Unqualified,
        ClaimScope::Whole,
    );
    assert_ne!(other.verdict, Verdict::Contradicted, "{other:?}");
}
