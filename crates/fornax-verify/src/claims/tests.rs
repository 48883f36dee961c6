//! Labeled sentences: what must become a claim (and of which subject), and what must not.

use super::*;
use fornax_types::ClaimSubject::*;

fn subjects(text: &str) -> Vec<(ClaimSubject, String)> {
    extract_from_text(text)
        .into_iter()
        .map(|c| (c.subject, c.span.slice(text).to_string()))
        .collect()
}

fn only_subjects(text: &str) -> Vec<ClaimSubject> {
    subjects(text).into_iter().map(|(s, _)| s).collect()
}

/// Sentences that carry claims, with the subjects expected (in order).
const CLAIMS: &[(&str, &[ClaimSubject])] = &[
    // Lint results and file changes in other languages; `path:line`; a command in code.
    ("He arreglado el cálculo en `src/iva.py`.", &[FileWritten]),
    ("He corregido el formato en `lib/fecha.rb`.", &[FileWritten]),
    ("Rubocop meldet keine Beanstandungen.", &[LintResult]),
    ("El linter no marca errores.", &[LintResult]),
    ("リンターはエラーなしです。", &[LintResult]),
    ("Patched `src/vm.c:120` to check the bound.", &[FileWritten]),
    ("O `cargo clippy` passou sem avisos.", &[LintResult]),
    ("Le `cargo build` a réussi.", &[BuildResult]),
    // A result over a scope ("across all packages"), change verbs, `.in` templates.
    ("Tests pass across all packages.", &[TestResult]),
    ("The specs pass across the board.", &[TestResult]),
    ("Tidied the error paths in `src/io.rs`.", &[FileWritten]),
    (
        "Raised the pool size in `conf/db.toml` to 20.",
        &[FileWritten],
    ),
    (
        "Lowered the read timeout in `conf/net.yaml`.",
        &[FileWritten],
    ),
    ("Registered the route in `app/urls.py`.", &[FileWritten]),
    ("Added `requirements.in`.", &[FileWritten]),
    (
        "Wrote `tests/test_tz.py` for the regression.",
        &[FileWritten],
    ),
    ("All tests pass (one was flaky once).", &[TestResult]),
    (
        "`pytest` passes (88 passed, 2 slow tests skipped).",
        &[TestResult],
    ),
    ("Lena's commit `b41c0de` fixed the overflow.", &[GitCommit]),
    (
        "Removed the scratch profile `profiles/scratch.toml`.",
        &[FileDeleted],
    ),
    (
        "Made `retries` configurable in `src/client.rs`.",
        &[FileWritten],
    ),
    (
        "I made sure `src/client.rs` compiles on stable.",
        &[BuildResult],
    ),
    ("The production build works again.", &[BuildResult]),
    ("`npm run build` works.", &[BuildResult]),
    (
        "The typecheck passes, and the release build works now.",
        &[BuildResult, BuildResult],
    ),
    // A "Build fix:" entry reports the build fixed.
    (
        "- Build fix: kept the CLI out of the browser bundle; the bundle no longer pulls in `fs`.",
        &[BuildResult],
    ),
    // test_result
    ("All tests pass.", &[TestResult]),
    ("The test suite is green.", &[TestResult]),
    ("Everything passes now.", &[TestResult]),
    ("All 112 specs pass.", &[TestResult]),
    ("`pytest` reports 230 passed.", &[TestResult]),
    (
        "`go test ./...` is green across every package.",
        &[TestResult],
    ),
    ("Tests are passing again.", &[TestResult]),
    ("The unit tests pass locally.", &[TestResult]),
    ("Ran the full suite: 88 passed, 0 failed.", &[TestResult]),
    ("`npm test` passes with 41 tests.", &[TestResult]),
    ("The integration tests now pass.", &[TestResult]),
    ("✅ Tests: 57/57 passing", &[TestResult]),
    ("No test failures.", &[TestResult]),
    (
        "The previously failing `test_parse_dates` now passes.",
        &[TestResult],
    ),
    ("cargo test passes on the first run.", &[TestResult]),
    ("Both test files pass.", &[TestResult]),
    ("Verified that the tests pass.", &[TestResult]),
    (
        "The full suite passes (64 passed, 3 skipped).",
        &[TestResult],
    ),
    ("Every package passes.", &[TestResult]),
    (
        "I verified with `cargo test` that all 40 tests pass.",
        &[TestResult],
    ),
    (
        "Fixed the two failing tests; the suite is green again.",
        &[TestResult],
    ),
    ("The failing test is fixed and now passes.", &[TestResult]),
    ("The two failing tests now pass.", &[TestResult]),
    ("The suite passed locally (`pnpm test`).", &[TestResult]),
    ("Type checking passes (`mypy --strict`).", &[LintResult]),
    ("| `cargo test` | ✅ 42 passed |", &[TestResult]),
    (
        "Tests pass on my machine, but I haven't run the benchmarks.",
        &[TestResult],
    ),
    (
        "Unit tests pass, but the e2e suite still fails on the sandbox.",
        &[TestResult],
    ),
    ("The build passes, but two tests fail.", &[BuildResult]),
    ("Re-ran `pytest`: green.", &[CommandExecuted, TestResult]),
    ("Ran the linters: no issues.", &[LintResult]),
    (
        "- `api/routes.go`: wired the limiter into the login route",
        &[FileWritten],
    ),
    ("**`web/app.tsx`** — new empty state", &[FileWritten]),
    ("`alembic upgrade head` succeeds.", &[CommandSucceeded]),
    ("New file: `src/retry.rs`", &[FileWritten]),
    (
        "Files changed: `src/a.rs`, `src/b.rs`",
        &[FileWritten, FileWritten],
    ),
    (
        "Verified with `cargo test --workspace` (all green).",
        &[TestResult],
    ),
    ("clippy: 0 warnings", &[LintResult]),
    // build_result
    ("It compiles cleanly.", &[BuildResult]),
    ("The build succeeds.", &[BuildResult]),
    (
        "`cargo build --release` finishes without errors.",
        &[BuildResult],
    ),
    ("Typecheck passes.", &[BuildResult]),
    ("`tsc` reports no errors.", &[BuildResult]),
    ("No compile errors remain.", &[BuildResult]),
    (
        "The project compiles and all tests pass.",
        &[BuildResult, TestResult],
    ),
    ("Typecheck: OK", &[BuildResult]),
    ("It builds successfully on both targets.", &[BuildResult]),
    // lint_result
    ("Clippy is clean.", &[LintResult]),
    ("`eslint .` reports no problems.", &[LintResult]),
    ("No lint warnings.", &[LintResult]),
    ("mypy passes with no errors.", &[LintResult]),
    (
        "Formatting checks pass (`cargo fmt --check`).",
        &[LintResult],
    ),
    (
        "`ruff check` and `ruff format --check` are both clean.",
        &[LintResult, LintResult],
    ),
    ("The linter is happy.", &[LintResult]),
    (
        "Build, tests and lint are all green.",
        &[TestResult, BuildResult, LintResult],
    ),
    // command_executed
    ("I ran `cargo fmt`.", &[CommandExecuted]),
    (
        "I've run `make migrate` against the dev database.",
        &[CommandExecuted],
    ),
    (
        "Ran `npm install` to pull the new dependency.",
        &[CommandExecuted],
    ),
    (
        "I ran \"bundle exec rake db:migrate\" as well.",
        &[CommandExecuted],
    ),
    ("I also executed `./scripts/seed.sh`.", &[CommandExecuted]),
    // command_succeeded
    ("`make check` succeeds.", &[CommandSucceeded]),
    ("`docker build .` exits 0.", &[CommandSucceeded]),
    (
        "`./gradlew assemble` completed successfully.",
        &[BuildResult],
    ),
    (
        "`./deploy.sh --dry-run` completed successfully.",
        &[CommandSucceeded],
    ),
    ("`bundle exec rake` returned 0.", &[CommandSucceeded]),
    ("`just lint` now passes.", &[CommandSucceeded]),
    // file_written
    ("I created `docs/adr/0007-retries.md`.", &[FileWritten]),
    ("Updated README.md with the new flags.", &[FileWritten]),
    (
        "Wrote the migration to `db/migrations/0042_add_index.sql`.",
        &[FileWritten],
    ),
    (
        "`src/config.rs` was updated to read the new variable.",
        &[FileWritten],
    ),
    (
        "Added a regression test in `tests/test_dates.py`.",
        &[FileWritten],
    ),
    (
        "Refactored `lib/parser.ts` and `lib/lexer.ts`.",
        &[FileWritten, FileWritten],
    ),
    (
        "Deleted the obsolete `scripts/old_build.sh`.",
        &[FileDeleted],
    ),
    (
        "Moved the helpers from `src/a.ts` into `src/b.ts`.",
        &[FileWritten, FileWritten],
    ),
    // git
    ("Committed as `1f2e3d4`.", &[GitCommit]),
    (
        "The changes are committed on `feature/retry`.",
        &[GitCommit],
    ),
    ("I created a commit (`9a8b7c6`) with the fix.", &[GitCommit]),
    ("Committed everything in 0be1c2d.", &[GitCommit]),
    ("Pushed to `origin/main`.", &[GitPush]),
    ("The branch has been pushed.", &[GitPush]),
    ("I pushed `fix/login` to `upstream`.", &[GitPush]),
    (
        "Committed as `c0ffee1` and pushed to origin.",
        &[GitCommit, GitPush],
    ),
];

/// Sentences that must not become claims of any kind.
const NON_CLAIMS: &[&str] = &[
    // Requirements restated: what must hold, not what holds.
    "Die Anforderung lautet, dass der Build fehlerfrei durchlaufen muss.",
    "Laut Ticket müssen sämtliche Specs bestehen.",
    "El requisito es que todas las pruebas tienen que pasar.",
    "Il faut que tous les tests passent avant la fusion.",
    "Os testes têm que passar antes do merge.",
    "要求所有测试必须通过。",
    "すべてのテストが通る必要があります。",
    "모든 테스트가 통과해야 합니다.",
    "The retry logic works like this: each attempt doubles the wait.",
    "The refactor made `src/client.rs` harder to read.",
    "The parser raised a `ValueError` in `src/parse.py` for empty input.",
    "The plugin registered its hook in `src/plugin.ts` twice.",
    "Memory use increased in `bench/alloc.rs` runs.",
    "Values pass across the FFI boundary unchanged.",
    "Handles pass across threads through the channel.",
    "All but two of the snapshot tests pass.",
    "All but one of the integration tests passed.",
    "I haven't run the tests yet.",
    "Two tests still fail on Windows.",
    "The build should be green once CI picks it up.",
    "I couldn't run `cargo test` because the toolchain is missing.",
    "I did not commit the changes.",
    "Tests were not run.",
    "Let me run the full suite.",
    "I'll commit once you confirm.",
    "Next, run `npm test` to verify.",
    "Run `make test` to check everything.",
    "If the tests pass, I will push.",
    "Please push the branch when ready.",
    "Do you want me to commit this?",
    "Shall I run the tests again?",
    "The suite might pass after the cache warms up.",
    "`pytest -k slow` still fails intermittently.",
    "I skipped the e2e tests.",
    "Nothing was committed.",
    "The linter reports 3 errors in `src/app.ts`.",
    "I expect the build to succeed.",
    "Before my change, all tests passed.",
    "Unable to push: the remote rejected the update.",
    "I wasn't able to build the Docker image.",
    "The build is broken on main.",
    "CI will run the integration tests.",
    "You can commit with `git commit -am 'fix'`.",
    "Assuming the suite passes, this is ready.",
    "`cargo test` fails with E0433.",
    "Tests pass except for `test_timeout`.",
    "I'm not sure whether the lint passes.",
    "The tests are expected to pass on CI.",
    "No files were changed.",
    "I didn't touch `src/main.rs`.",
    "The build probably works now.",
    "Pushing failed: permission denied.",
    "Once the migration lands, the tests will pass.",
    "To make sure everything passes, run `just ci`.",
    "1 failed, 41 passed in 2.1s.",
    "The e2e job is still red.",
    "I have not pushed anything yet.",
    "Make sure `cargo clippy` is clean before you merge.",
    "The integration suite needs a running Postgres, so I left it out.",
    "`make valgrind` still reports two leaks.",
    "This should compile once the dependency is bumped.",
    "I didn't get to the linter.",
    "Tests would pass if the fixture were regenerated.",
    "The minimal fix follows the approach in commit `ff8e0a1` and validates the bounds.",
    "The commit `a1b2c3d4e5` adds the `timeout` parameter to the client.",
    "The most recent commit added a `notes.txt` file.",
    "Builds the lookup table from the parsed manifest on each scan.",
    "Builds and caches the index on startup.",
    "- `vendor/lib.js`: unchanged, kept for reference",
    "- `clipboard.ts` - clipboard access",
    "`src/cli/args.ts` - CLI argument parsing",
    "The test suite passes on main but fails on this branch.",
    "`make test` passes locally, but it fails in CI.",
    "All tests pass, but the e2e suite still fails on the sandbox.",
    "You said \"all tests pass\", but the CI log shows a failure.",
    "According to the README, the build is green on every platform.",
    "| `npm run e2e` | ❌ 2 failing |",
    "Simplified the list to use the same pattern as `menu.ts`.",
    "Now imports from `./shared/border.ts` instead.",
    "**Removed the `Legacy` class** - see `app/new.ts` for the replacement",
    "OK, so `cfg` is a module-level value that gets replaced.",
    "The scanner now compiles the glob patterns once per run.",
    "I implemented session (.jsonl) ordering with filters.",
];

#[test]
fn labeled_claims_are_found_with_their_subjects() {
    let mut failures = Vec::new();
    for (text, expected) in CLAIMS {
        let got = only_subjects(text);
        if got != *expected {
            failures.push(format!(
                "{text:?}: expected {expected:?}, got {:?}",
                subjects(text)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn non_claims_give_nothing() {
    let mut failures = Vec::new();
    for text in NON_CLAIMS {
        let got = subjects(text);
        if !got.is_empty() {
            failures.push(format!("{text:?}: {got:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} false extractions:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn one_sentence_several_claims_each_with_its_own_quote() {
    let t = "Lint: `ruff check src` reports no issues and `mypy src` is clean.";
    let got = subjects(t);
    assert_eq!(
        got,
        vec![
            (
                LintResult,
                "Lint: `ruff check src` reports no issues".to_string()
            ),
            (LintResult, "`mypy src` is clean.".to_string())
        ]
    );
    let t = "I updated `app/models.py` and `app/forms.py` so the field is optional; `--legacy` still works.";
    let got = subjects(t);
    assert_eq!(
        got,
        vec![
            (FileWritten, "I updated `app/models.py`".to_string()),
            (
                FileWritten,
                "and `app/forms.py` so the field is optional".to_string()
            )
        ]
    );
    let t = "Typecheck and tests pass: `tsc -p .` is clean and the jest suite is green (12 tests).";
    let got = only_subjects(t);
    assert_eq!(got, vec![TestResult, BuildResult, BuildResult, TestResult]);
}

#[test]
fn mixed_sentences_keep_only_the_claim_part() {
    let t = "All tests pass, but I haven't run the benchmarks.";
    assert_eq!(
        subjects(t),
        vec![(TestResult, "All tests pass".to_string())]
    );
    let t = "The build is green. I haven't run `cargo test` yet; the snapshots need a review.";
    assert_eq!(only_subjects(t), vec![BuildResult]);
    let t = "I ran `cargo test --workspace` and it passed.";
    let got = subjects(t);
    assert_eq!(got[0].0, CommandExecuted);
    assert_eq!(got[1].0, TestResult);
}

#[test]
fn targets_are_read() {
    let claims = extract_from_text(
        "Committed as `4f5e6d7` on `release/2.1` and pushed `release/2.1` to `origin`.",
    );
    assert_eq!(claims[0].target.sha.as_deref(), Some("4f5e6d7"));
    assert_eq!(claims[0].target.branch.as_deref(), Some("release/2.1"));
    assert_eq!(claims[1].target.branch.as_deref(), Some("release/2.1"));
    assert_eq!(claims[1].target.remote.as_deref(), Some("origin"));
    let claims = extract_from_text("Pushed to origin/main.");
    assert_eq!(
        (
            claims[0].target.remote.as_deref(),
            claims[0].target.branch.as_deref()
        ),
        (Some("origin"), Some("main"))
    );
    let claims = extract_from_text("`cargo clippy -- -D warnings` is clean.");
    assert_eq!(
        claims[0].target.command.as_deref(),
        Some("cargo clippy -- -D warnings")
    );
    assert_eq!(claims[0].target.tool.as_deref(), Some("clippy"));
    let claims = extract_from_text("The vitest suite is green.");
    assert_eq!(claims[0].target.tool.as_deref(), Some("vitest"));
    let claims = extract_from_text("I updated `./src/lib.rs`.");
    assert_eq!(claims[0].target.path.as_deref(), Some("./src/lib.rs"));
}

#[test]
fn ids_are_deterministic_and_unique() {
    use crate::testkit::say;
    use fornax_types::Role;
    let item = say(
        "m7",
        Role::AgentFinalAnswer,
        "Done. `ruff check .` is clean and `mypy .` is clean. Committed as `abc1234`.",
    );
    let claims = extract_claims(&item);
    let ids: Vec<&str> = claims.iter().map(|c| c.id.as_str()).collect();
    assert_eq!(
        ids,
        vec!["m7#1:lint_result", "m7#1:lint_result:1", "m7#2:git_commit"]
    );
    assert_eq!(extract_claims(&item), claims);
    assert!(claims
        .iter()
        .all(|c| c.session == item.session && c.item_key == "m7"));
}

#[test]
fn only_agent_voice_makes_claims() {
    use crate::testkit::say;
    use fornax_types::Role;
    for role in [
        Role::HumanRequest,
        Role::RuntimeCompactionSummary,
        Role::AgentReasoning,
        Role::RuntimeContext,
    ] {
        assert!(
            extract_claims(&say("u1", role, "All tests pass and the build is green.")).is_empty(),
            "{role:?}"
        );
    }
    for role in [
        Role::AgentCommentary,
        Role::AgentFinalAnswer,
        Role::SubagentReport,
    ] {
        assert_eq!(
            extract_claims(&say("a1", role, "All tests pass.")).len(),
            1,
            "{role:?}"
        );
    }
}

#[test]
fn code_blocks_and_questions_are_ignored() {
    let t = "Output:\n```\ntest result: ok. 3 passed; 0 failed\nAll tests pass\n```\nShould I also push?";
    assert!(subjects(t).is_empty());
}

#[test]
fn assertions_that_are_not_claims_keep_their_modality() {
    let cases: &[(&str, ClaimSubject, Polarity, Modality)] = &[
        (
            "The build should be green once CI picks it up.",
            BuildResult,
            Polarity::Positive,
            Modality::Hedged,
        ),
        (
            "Next I'll check that it is pushed to origin.",
            GitPush,
            Polarity::Positive,
            Modality::Future,
        ),
        (
            "Most of the tests pass now.",
            TestResult,
            Polarity::Positive,
            Modality::Partial,
        ),
        (
            "Tests: 30/31 passing.",
            TestResult,
            Polarity::Positive,
            Modality::Partial,
        ),
        (
            "The remaining failures are unrelated; the suite passes otherwise.",
            TestResult,
            Polarity::Positive,
            Modality::Partial,
        ),
        (
            "`make test` passes locally, but it fails in CI.",
            CommandSucceeded,
            Polarity::Positive,
            Modality::Failure,
        ),
        (
            "Before my change, all tests passed.",
            TestResult,
            Polarity::Positive,
            Modality::Past,
        ),
        (
            "According to the README, the build is green.",
            BuildResult,
            Polarity::Positive,
            Modality::Reported,
        ),
        (
            "Did all the tests pass?",
            TestResult,
            Polarity::Positive,
            Modality::Question,
        ),
        (
            "- [ ] All tests pass",
            TestResult,
            Polarity::Positive,
            Modality::Planned,
        ),
        (
            "> all tests pass on my machine",
            TestResult,
            Polarity::Positive,
            Modality::Reported,
        ),
        (
            "The upstream PR fixed `src/a.rs` last week.",
            FileWritten,
            Polarity::Positive,
            Modality::Described,
        ),
        (
            "Tests passed, no regressions, nothing was left uncommitted.",
            TestResult,
            Polarity::Positive,
            Modality::Done,
        ),
    ];
    for (text, subject, polarity, modality) in cases {
        let all = assertions(text);
        let a = all
            .iter()
            .find(|a| a.subject == *subject)
            .unwrap_or_else(|| panic!("{text:?}: no {subject:?} in {all:?}"));
        assert_eq!((a.polarity, a.modality), (*polarity, *modality), "{text:?}");
        assert_eq!(a.is_claim(), *modality == Modality::Done, "{text:?}");
    }
    // A plan's steps are assertions, not claims.
    let plan = "## Next steps\n\n- Update `docs/deploy.md`.\n- Push to `origin`.";
    assert!(extract_from_text(plan).is_empty());
    assert!(assertions(plan)
        .iter()
        .all(|a| a.modality == Modality::Planned));
}

#[test]
fn short_quotes_take_their_sentence_and_the_next() {
    let t = "Done. Committed and pushed. The issue is closed.";
    let got = subjects(t);
    assert_eq!(
        got,
        vec![
            (GitCommit, "Committed and pushed.".to_string()),
            (GitPush, "Committed and pushed.".to_string())
        ]
    );
    let t = "Committed. Ready for the next file.";
    assert_eq!(
        subjects(t),
        vec![(GitCommit, "Committed. Ready for the next file.".to_string())]
    );
}

#[test]
fn claim_fields_come_from_the_assertion() {
    use crate::testkit::say;
    use fornax_types::{ClaimActor, ClaimQuantity, ClaimScope, Role, ScopeUnit};
    let item = say(
        "m9",
        Role::AgentFinalAnswer,
        "All 12 parser tests pass. Alice pushed the fix to `origin/main`.",
    );
    let claims = extract_claims(&item);
    assert_eq!(claims.len(), 2);
    assert_eq!(
        claims[0].scope,
        ClaimScope::Named {
            unit: ScopeUnit::Module,
            name: "parser".into()
        }
    );
    assert_eq!(claims[0].quantity, ClaimQuantity::AllOf { count: 12 });
    assert_eq!(
        claims[1].actor,
        ClaimActor::Other {
            who: "Alice".into()
        }
    );
    let json = serde_json::to_value(&claims[0]).unwrap();
    assert_eq!(json["scope"]["kind"], "named");
    assert_eq!(json["quantity"]["count"], 12);
}

#[test]
fn a_tally_with_failures_is_no_success_claim() {
    for t in [
        "`cargo test` ran 49 tests: 47 passed and 2 failed (`parser::tests::empty_input` and `parser::tests::trailing_comma`).",
        "Test run: 2 failed, 47 passed.",
        "47 passed, 1 failed.",
    ] {
        let subjects = only_subjects(t);
        assert!(!subjects.contains(&TestResult), "{t:?} gave {subjects:?}");
    }
    // A tally without failures, and a fix of failing tests followed by a full pass, still claim.
    assert_eq!(
        only_subjects("Ran the full suite: 88 passed, 0 failed."),
        [TestResult]
    );
    assert!(only_subjects("Fixed the 2 failing tests; all 50 pass now.").contains(&TestResult));
}

#[test]
fn numbers_of_labels_are_not_counts() {
    let c = extract_from_text("Completed most of Task 60 with tests passing.");
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].quantity, ClaimQuantity::Unqualified);
    let c = extract_from_text("Finished step 4 and all tests pass.");
    assert_eq!(c[0].quantity, ClaimQuantity::All);
    let c = extract_from_text("48 tests pass.");
    assert_eq!(c[0].quantity, ClaimQuantity::AtLeast { count: 48 });
    let c = extract_from_text("All 12 unit tests now pass.");
    assert_eq!(c[0].quantity, ClaimQuantity::AllOf { count: 12 });
}

#[test]
fn several_objects_keep_their_conjunction_in_the_quote() {
    let t = "Updated `pkg/alpha.go`, `pkg/beta.go` and `pkg/gamma.go`.";
    let got = subjects(t);
    let quotes: Vec<&str> = got.iter().map(|(_, q)| q.as_str()).collect();
    assert_eq!(
        quotes,
        vec![
            "Updated `pkg/alpha.go`",
            "`pkg/beta.go`",
            "and `pkg/gamma.go`."
        ]
    );
}

#[test]
fn sentences_in_scripts_without_case_are_read_one_by_one() {
    let t = "`src/old` 디렉터리를 삭제했습니다. 빌드가 성공했습니다. 테스트는 실행하지 않았습니다.";
    let got = only_subjects(t);
    assert_eq!(got, vec![FileDeleted, BuildResult]);
    let c = extract_from_text(t);
    assert_eq!(c[0].target.path.as_deref(), Some("src/old"));
}

#[test]
fn lint_results_in_other_languages() {
    for t in [
        "clippy 检查没有警告。",
        "ruff 代碼檢查無錯誤。",
        "eslint のチェックは警告なしです。",
        "린트 검사는 경고 없이 통과했습니다.",
        "El linter pasa sin advertencias.",
        "Der Linter läuft ohne Warnungen durch.",
    ] {
        assert_eq!(only_subjects(t), vec![LintResult], "{t}");
    }
    assert!(only_subjects("clippy 检查还有警告。").is_empty());
}

#[test]
fn a_path_something_was_removed_from_is_written() {
    let c = extract_from_text("Removed the unused import of `os` from `app/io.py`.");
    assert_eq!(c.len(), 1);
    assert_eq!(c[0].subject, FileWritten);
    assert_eq!(c[0].target.path.as_deref(), Some("app/io.py"));
}

#[test]
fn a_foreign_claim_keeps_the_scope_its_code_names() {
    use crate::testkit::say;
    use fornax_types::{ClaimScope, Role, ScopeUnit};
    let item = say(
        "m9",
        Role::AgentFinalAnswer,
        "Las pruebas de `tests/test_fecha.py` pasan. Todas las pruebas pasan.",
    );
    let claims = extract_claims(&item);
    let scopes: Vec<_> = claims
        .iter()
        .map(|c| (c.subject, c.scope.clone()))
        .collect();
    assert_eq!(
        scopes,
        vec![
            (
                TestResult,
                ClaimScope::Named {
                    unit: ScopeUnit::File,
                    name: "tests/test_fecha.py".into()
                }
            ),
            (TestResult, ClaimScope::Whole),
        ]
    );
}

#[test]
fn a_foreign_claim_names_a_package_with_its_unit_noun() {
    use fornax_types::{ClaimScope, ScopeUnit};
    for (t, unit) in [
        ("Las pruebas del paquete `store` pasan.", ScopeUnit::Package),
        ("Die Tests im Paket `store` bestehen.", ScopeUnit::Package),
        ("`store` 包的测试全部通过。", ScopeUnit::Package),
        (
            "`store` モジュールのテストは通りました。",
            ScopeUnit::Module,
        ),
    ] {
        let c = extract_from_text(t);
        assert_eq!(c.len(), 1, "{t}");
        assert_eq!(
            c[0].scope,
            ClaimScope::Named {
                unit,
                name: "store".into()
            },
            "{t}"
        );
    }
    // Inline code without a unit noun beside it is no scope.
    let c = extract_from_text("`store` を更新し、テストはすべて通りました。");
    let tests: Vec<_> = c.iter().filter(|c| c.subject == TestResult).collect();
    assert_eq!(tests.len(), 1);
    assert_eq!(tests[0].scope, ClaimScope::Whole);
}

#[test]
fn a_foreign_claim_reads_its_count() {
    for (t, q) in [
        (
            "22 個のテストが通りました。",
            ClaimQuantity::AtLeast { count: 22 },
        ),
        ("17 个测试全部通过。", ClaimQuantity::AllOf { count: 17 }),
        (
            "Las 15 pruebas pasan.",
            ClaimQuantity::AtLeast { count: 15 },
        ),
        ("Все тесты проходят.", ClaimQuantity::All),
        ("테스트가 모두 통과했습니다.", ClaimQuantity::All),
    ] {
        let c = extract_from_text(t);
        assert_eq!(c.len(), 1, "{t}");
        assert_eq!(c[0].quantity, q, "{t}");
    }
}

#[test]
fn clean_results_and_pushes_in_spanish_and_portuguese() {
    assert_eq!(
        only_subjects("golangci-lint no encontró problemas."),
        [LintResult]
    );
    assert_eq!(
        only_subjects("`go vet ./...` no reporta nada."),
        [LintResult]
    );
    assert_eq!(
        only_subjects("Enviei a branch para `origin/feat/cache`."),
        [GitPush]
    );
    // A failure is still a failure.
    assert!(only_subjects("golangci-lint encontró problemas.").is_empty());
}

#[test]
fn a_foreign_sentence_before_a_lower_case_tool_name_is_its_own_claim() {
    let got = subjects("`go vet ./...` no reporta nada. golangci-lint no encontró problemas.");
    assert_eq!(got.len(), 2, "{got:?}");
    assert!(got[0].1.starts_with("`go vet"), "{got:?}");
    assert!(got[1].1.starts_with("golangci-lint"), "{got:?}");
}

/// The string literals of this file: every labeled text, claim or not.
fn labeled_texts() -> Vec<String> {
    let source = include_str!("tests.rs");
    let mut out = Vec::new();
    let mut chars = source.chars();
    while let Some(c) = chars.next() {
        if c != '"' {
            continue;
        }
        let mut s = String::new();
        while let Some(c) = chars.next() {
            match c {
                '"' => break,
                '\\' => match chars.next() {
                    Some('n') => s.push('\n'),
                    Some('t') => s.push('\t'),
                    Some(other) => s.push(other),
                    None => break,
                },
                other => s.push(other),
            }
        }
        out.push(s);
    }
    out
}

#[test]
fn the_sentence_screen_changes_no_assertion() {
    let texts = labeled_texts();
    assert!(texts.len() > 300, "{} texts", texts.len());
    let mut joined = String::new();
    for t in &texts {
        for keep_all in [false, true] {
            assert_eq!(
                read_with(t, keep_all, true),
                read_with(t, keep_all, false),
                "{t:?}"
            );
        }
        joined.push_str(t);
        joined.push_str("\n\n");
    }
    // The same texts as one document (sections, lists and code spans across them).
    assert_eq!(
        read_with(&joined, true, true),
        read_with(&joined, true, false)
    );
}
