//! End-to-end verdicts over canonical timelines, one test per kind of session the verifier must
//! judge (true passes, piped false passes, stale mid-loop claims, subagent relays, failed edits,
//! filtered runs, flaky re-runs, rejected pushes, hook captures without results, ...).
//! All content is invented for these tests.

use fornax_types::evidence::{FileDiffPayload, FileOperation, GitCommitCheckPayload};
use fornax_types::{
    ClockSource, CollectionMethod, Evidence, EvidenceKind, EvidencePayload, EvidenceSource,
    EvidenceStrength, ExitCode, Freshness, Item, Provider, RecordRef, Role, RuntimeCapabilities,
    Semantic, SemanticValue, SessionRef, ShellCallValue, SignalAvailability, SignalClass, SourceId,
    SourceKind, TextValue, ToolCallValue, ToolOutputValue, TrustClass, Verdict,
};
use fornax_verify::{verify, FamilyMember, TimelineInput, Verification};
use serde_json::json;

/// A timeline under construction.
struct Session {
    items: Vec<Item>,
    session: SessionRef,
    family: Vec<FamilyMember>,
    n: usize,
    clock: u32,
}

impl Session {
    fn new(provider: Provider, id: &str) -> Self {
        Session {
            items: Vec::new(),
            session: SessionRef::new(provider, id),
            family: Vec::new(),
            n: 0,
            clock: 0,
        }
    }

    fn push_in(&mut self, session: SessionRef, role: Role, value: SemanticValue) -> String {
        self.n += 1;
        self.clock += 1;
        let key = format!("r{}", self.n);
        self.items.push(Item {
            session,
            key: key.clone(),
            loop_position: Some(0),
            at: Some(format!(
                "2026-05-04T10:{:02}:{:02}Z",
                self.clock / 60,
                self.clock % 60
            )),
            semantic: Semantic::new(role, value, EvidenceStrength::Structural),
            records: vec![RecordRef::new(SourceId::new("file:test"), self.n as u64)],
        });
        key
    }

    fn push(&mut self, role: Role, value: SemanticValue) -> String {
        let s = self.session.clone();
        self.push_in(s, role, value)
    }

    fn user(&mut self, text: &str) {
        self.push(
            Role::HumanRequest,
            SemanticValue::Text(TextValue::full(text)),
        );
    }

    fn say(&mut self, text: &str) {
        self.push(
            Role::AgentCommentary,
            SemanticValue::Text(TextValue::full(text)),
        );
    }

    fn answer(&mut self, text: &str) {
        self.push(
            Role::AgentFinalAnswer,
            SemanticValue::Text(TextValue::full(text)),
        );
    }

    fn call_in(&mut self, session: SessionRef, command: &str) -> String {
        let id = format!("call_{}", self.n + 1);
        self.push_in(
            session,
            Role::AgentToolCallShell,
            SemanticValue::ShellCall(ShellCallValue {
                call_id: Some(id.clone()),
                tool_name: "Bash".into(),
                command: command.into(),
                invocations: fornax_types::shell::parse_invocations(command),
                cwd: None,
                timeout_ms: None,
            }),
        );
        id
    }

    fn output_in(
        &mut self,
        session: SessionRef,
        id: &str,
        text: &str,
        exit: Option<(i64, EvidenceStrength)>,
        failed: Option<bool>,
    ) -> String {
        self.push_in(
            session,
            Role::ToolOutput,
            SemanticValue::ToolOutput(ToolOutputValue {
                call_id: Some(id.into()),
                tool_name: None,
                text: Some(TextValue::full(text)),
                stderr: None,
                exit_code: exit.map(|(code, strength)| ExitCode { code, strength }),
                failed,
                interrupted: None,
                duration_ms: None,
                runtime_truncated: None,
            }),
        )
    }

    /// A shell call whose runtime wrote the exit code.
    fn run(&mut self, command: &str, exit: i64, text: &str) -> String {
        let id = self.call_in(self.session.clone(), command);
        self.output_in(
            self.session.clone(),
            &id,
            text,
            Some((exit, EvidenceStrength::Structural)),
            Some(exit != 0),
        )
    }

    /// A shell call whose runtime only said whether it failed (Claude Code transcripts, hooks).
    fn run_flagged(&mut self, command: &str, failed: bool, text: &str) -> String {
        let id = self.call_in(self.session.clone(), command);
        self.output_in(self.session.clone(), &id, text, None, Some(failed))
    }

    fn call_only(&mut self, command: &str) {
        self.call_in(self.session.clone(), command);
    }

    fn tool(
        &mut self,
        name: &str,
        args: serde_json::Value,
        result: Option<(&str, bool)>,
    ) -> String {
        let id = format!("call_{}", self.n + 1);
        let key = self.push(
            Role::AgentToolCall,
            SemanticValue::ToolCall(ToolCallValue {
                call_id: Some(id.clone()),
                name: name.into(),
                arguments: args,
                cwd: None,
            }),
        );
        match result {
            Some((text, failed)) => self.push(
                Role::ToolOutput,
                SemanticValue::ToolOutput(ToolOutputValue {
                    call_id: Some(id),
                    tool_name: Some(name.into()),
                    text: Some(TextValue::full(text)),
                    stderr: None,
                    exit_code: None,
                    failed: Some(failed),
                    interrupted: None,
                    duration_ms: None,
                    runtime_truncated: None,
                }),
            ),
            None => key,
        }
    }

    fn edit(&mut self, path: &str) {
        self.tool(
            "Edit",
            json!({"file_path": path, "old_string": "a", "new_string": "b"}),
            Some(("The file has been updated successfully.", false)),
        );
    }

    fn verify(&self) -> Verification {
        self.verify_with(&[], &[])
    }

    fn verify_with(&self, evidence: &[Evidence], caps: &[RuntimeCapabilities]) -> Verification {
        let v = verify(&TimelineInput {
            items: self.items.iter().collect(),
            evidence: evidence.iter().collect(),
            capabilities: caps.iter().collect(),
            family: self.family.clone(),
        });
        assert_eq!(v.claims.len(), v.findings.len(), "one finding per claim");
        for (c, f) in v.claims.iter().zip(&v.findings) {
            assert_eq!(c.id, f.claim_id);
            let rationale = f.rationale();
            assert!(!rationale.is_empty() && !f.rule.is_empty());
            assert!(
                !f.evidence.iter().any(|id| rationale.contains(id.as_str())),
                "a rationale names no evidence id: {rationale}"
            );
        }
        for e in &v.evidence {
            assert_eq!(
                e.source.collection_method,
                CollectionMethod::CanonicalDerivation
            );
            assert_eq!(e.source.trust_class, TrustClass::AgentAdjacent);
            assert!(e.item_key.is_some());
        }
        v
    }
}

/// The verdict of the one claim whose text contains `quote`.
fn verdict(v: &Verification, quote: &str) -> Verdict {
    let matching: Vec<usize> = v
        .claims
        .iter()
        .enumerate()
        .filter(|(_, c)| c.text.contains(quote))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(
        matching.len(),
        1,
        "expected one claim containing {quote:?}, got {:?}",
        v.claims.iter().map(|c| &c.text).collect::<Vec<_>>()
    );
    v.findings[matching[0]].verdict
}

fn rationale(v: &Verification, quote: &str) -> String {
    let i = v
        .claims
        .iter()
        .position(|c| c.text.contains(quote))
        .expect("claim present");
    v.findings[i].rationale()
}

fn no_claim(v: &Verification, quote: &str) {
    assert!(
        !v.claims.iter().any(|c| c.text.contains(quote)),
        "unexpected claim for {quote:?}"
    );
}

const CARGO_OK: &str = "\nrunning 14 tests\ntest geo::tests::haversine ... ok\n\ntest result: ok. 14 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.03s\n\n     Running tests/api.rs\n\nrunning 3 tests\ntest result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.20s\n";

#[test]
fn true_pass_after_the_last_edit() {
    let mut s = Session::new(Provider::ClaudeCode, "aa11");
    s.user("Handle antimeridian crossings in the route planner, test it, lint it and commit.");
    s.edit("/home/kim/atlas/src/geo.rs");
    s.edit("/home/kim/atlas/src/geo.rs");
    s.run_flagged("cargo test", false, CARGO_OK);
    s.run_flagged(
        "cargo clippy --all-targets -- -D warnings",
        false,
        "    Checking atlas v0.2.0\n    Finished `dev` profile in 2.01s",
    );
    s.run_flagged(
        "git commit -am \"geo: wrap longitudes\"",
        false,
        "[main 7d3c2b1] geo: wrap longitudes\n 1 file changed, 9 insertions(+)",
    );
    s.answer("Longitudes now wrap at ±180°. I changed `src/geo.rs` accordingly.\n\n- `cargo test`: 17 tests pass.\n- `cargo clippy --all-targets -- -D warnings` is clean.\n- Committed as `7d3c2b1`.");
    let v = s.verify();
    assert_eq!(verdict(&v, "I changed `src/geo.rs`"), Verdict::Verified);
    assert_eq!(verdict(&v, "17 tests pass"), Verdict::Verified);
    assert_eq!(verdict(&v, "is clean"), Verdict::Verified);
    assert_eq!(verdict(&v, "Committed as `7d3c2b1`"), Verdict::Verified);
    let r = rationale(&v, "17 tests pass");
    assert!(
        r.contains("cargo test")
            && r.contains("17 passed")
            && r.contains("heuristic")
            && r.contains("fresh"),
        "{r}"
    );
}

#[test]
fn piped_run_hides_the_failure_exit_code() {
    let mut s = Session::new(Provider::ClaudeCode, "bb22");
    s.tool(
        "Write",
        json!({"file_path": "/w/invoice/tests/test_tax.py", "content": "..."}),
        Some((
            "File created successfully at: /w/invoice/tests/test_tax.py",
            false,
        )),
    );
    s.run_flagged("python -m pytest -q 2>&1 | tail -n 8", false, ">       assert total == Decimal('10.01')\nE       AssertionError\n=========================== short test summary info ===========================\nFAILED tests/test_tax.py::test_rounding_half_even - AssertionError\n2 failed, 30 passed in 1.84s");
    s.answer("I added `tests/test_tax.py` with the half-even cases. The suite passes. I haven't run the slow e2e suite.");
    let v = s.verify();
    assert_eq!(verdict(&v, "The suite passes"), Verdict::Contradicted);
    assert_eq!(verdict(&v, "tests/test_tax.py"), Verdict::Verified);
    no_claim(&v, "I haven't run");
    assert!(rationale(&v, "The suite passes").contains("2 failed"));
}

#[test]
fn mid_loop_claim_is_judged_when_made_and_a_later_typecheck_fails() {
    let mut s = Session::new(Provider::ClaudeCode, "cc33");
    s.edit("/w/ui/src/table.tsx");
    s.run_flagged("npx vitest run", false, " ✓ tests/table.test.tsx (20 tests) 30ms\n\n Test Files  2 passed (2)\n      Tests  31 passed (31)\n");
    s.say("All 31 vitest tests pass on this pass.");
    s.edit("/w/ui/src/table.tsx");
    s.run_flagged("npx tsc --noEmit", true, "Exit code 2\nsrc/table.tsx(40,3): error TS2322: Type 'null' is not assignable to type 'Row'.");
    s.answer("Typecheck is clean with `tsc --noEmit`, and the vitest suite is green.");
    let v = s.verify();
    assert_eq!(verdict(&v, "All 31 vitest tests pass"), Verdict::Verified);
    assert_eq!(verdict(&v, "Typecheck is clean"), Verdict::Contradicted);
    assert_eq!(verdict(&v, "the vitest suite is green"), Verdict::Review);
    assert!(rationale(&v, "the vitest suite is green").contains("stale"));
}

#[test]
fn subagent_run_backs_the_parent_relay() {
    let mut s = Session::new(Provider::ClaudeCode, "dd44");
    let child = SessionRef::new(Provider::ClaudeCode, "agent-0f1e2d3c4b5a69788");
    s.edit("/go/src/relay/internal/queue/queue.go");
    s.tool(
        "Agent",
        json!({"prompt": "run go test ./... and report"}),
        None,
    );
    s.push_in(
        child.clone(),
        Role::HumanRequest,
        SemanticValue::Text(TextValue::full("run go test ./...")),
    );
    let id = s.call_in(child.clone(), "cd /go/src/relay && go test ./...");
    s.output_in(child.clone(), &id, "ok  \texample.com/relay/internal/queue\t0.21s\nok  \texample.com/relay/internal/wire\t0.02s\n", None, Some(false));
    s.push_in(
        child,
        Role::AgentFinalAnswer,
        SemanticValue::Text(TextValue::full("Both packages pass under `go test ./...`.")),
    );
    s.answer("The subagent reports that every package passes. I ran `go vet ./...` too. I have not run the benchmarks.");
    let v = s.verify();
    assert_eq!(verdict(&v, "Both packages pass"), Verdict::Verified);
    assert_eq!(verdict(&v, "every package passes"), Verdict::Verified);
    assert_eq!(verdict(&v, "I ran `go vet ./...` too"), Verdict::Unverified);
    no_claim(&v, "benchmarks");
}

#[test]
fn subagent_failure_contradicts_the_parent_relay() {
    let mut s = Session::new(Provider::ClaudeCode, "dd45");
    let child = SessionRef::new(Provider::ClaudeCode, "agent-99");
    let id = s.call_in(child.clone(), "pytest");
    s.output_in(
        child,
        &id,
        "FAILED tests/test_io.py::test_utf16 - UnicodeError\n1 failed, 80 passed in 4.00s",
        None,
        Some(true),
    );
    s.answer("All green: the subagent's full pytest run passed.");
    let v = s.verify();
    assert_eq!(verdict(&v, "All green"), Verdict::Contradicted);
}

#[test]
fn failed_edit_filtered_run_and_nothing_to_commit() {
    let mut s = Session::new(Provider::ClaudeCode, "ee55");
    s.tool(
        "Edit",
        json!({"file_path": "/w/shop/src/cart.js", "old_string": "x", "new_string": "y"}),
        Some((
            "<tool_use_error>String to replace not found in file.\nString: x</tool_use_error>",
            true,
        )),
    );
    s.run_flagged("npm test -- -t \"cart totals\"", false, "> shop@1.0.0 test\n> jest -t cart totals\n\nTest Suites: 5 skipped, 1 passed, 1 of 6 total\nTests:       40 skipped, 6 passed, 46 total\n");
    s.run_flagged(
        "git commit -am \"fix(cart): totals\"",
        true,
        "Exit code 1\nOn branch main\nnothing to commit, working tree clean",
    );
    s.answer("Updated `src/cart.js` to round once. All tests pass, and I committed it to `main`. The checkout e2e suite still fails on the sandbox login.");
    let v = s.verify();
    assert_eq!(verdict(&v, "Updated `src/cart.js`"), Verdict::Contradicted);
    assert_eq!(verdict(&v, "All tests pass"), Verdict::Review);
    assert_eq!(verdict(&v, "I committed it"), Verdict::Contradicted);
    no_claim(&v, "still fails");
    assert!(rationale(&v, "All tests pass").contains("part of the suite"));
}

#[test]
fn build_failure_then_edit_without_rebuild_is_stale() {
    let mut s = Session::new(Provider::ClaudeCode, "ff66");
    s.edit("/w/pix/src/crop.rs");
    s.run_flagged("cargo build", true, "Exit code 101\n   Compiling pix v0.1.0\nerror[E0308]: mismatched types\n --> src/crop.rs:9:20");
    s.edit("/w/pix/src/crop.rs");
    s.answer("Fixed the mismatch. It builds now, and clippy reports nothing.");
    let v = s.verify();
    assert_eq!(verdict(&v, "It builds now"), Verdict::Review);
    assert_eq!(verdict(&v, "clippy reports nothing"), Verdict::Unverified);
}

#[test]
fn flaky_failure_then_identical_passing_rerun() {
    let mut s = Session::new(Provider::Codex, "0199aaaa");
    s.tool("apply_patch", json!({"input": "*** Begin Patch\n*** Update File: pkg/cache.py\n@@\n-a\n+b\n*** End Patch"}), Some(("Success. Updated the following files:\nM pkg/cache.py\n", false)));
    s.run("pytest -q", 1, "....F...\nFAILED tests/test_cache.py::test_ttl - AssertionError: took 0.6s\n1 failed, 40 passed in 2.2s\n");
    s.say("One timing failure; re-running to check for noise.");
    s.run("pytest -q", 0, "........\n41 passed in 2.0s\n");
    s.run("ruff check .", 0, "All checks passed!\n");
    s.answer("I updated `pkg/cache.py`.\n\n- `pytest -q`: 41 passed.\n- `ruff check .` reports no issues and `mypy pkg` is clean.");
    let v = s.verify();
    assert_eq!(verdict(&v, "I updated `pkg/cache.py`"), Verdict::Verified);
    assert_eq!(verdict(&v, "41 passed"), Verdict::Verified);
    assert_eq!(
        verdict(&v, "`ruff check .` reports no issues"),
        Verdict::Verified
    );
    assert_eq!(verdict(&v, "`mypy pkg` is clean"), Verdict::Unverified);
}

#[test]
fn last_build_after_last_patch_fails() {
    let mut s = Session::new(Provider::Codex, "0199bbbb");
    s.tool(
        "apply_patch",
        json!({"input": "*** Begin Patch\n*** Update File: src/lib.rs\n*** End Patch"}),
        Some((
            "Success. Updated the following files:\nM src/lib.rs\n",
            false,
        )),
    );
    s.run("cargo build", 101, "error[E0382]: borrow of moved value: `cfg`\nerror: could not compile `kiln` due to 1 previous error\n");
    s.answer("The build is green. I haven't run `cargo test` yet.");
    let v = s.verify();
    assert_eq!(verdict(&v, "The build is green"), Verdict::Contradicted);
    no_claim(&v, "haven't run");
}

#[test]
fn pass_then_edit_then_filtered_failure_commit_and_rejected_push() {
    let mut s = Session::new(Provider::Codex, "0199cccc");
    s.run(
        "go test ./...",
        0,
        "ok  \texample.com/eta/internal/plan\t0.1s\nok  \texample.com/eta/internal/api\t0.2s\n",
    );
    s.tool(
        "apply_patch",
        json!({"input": "*** Begin Patch\n*** Update File: internal/plan/plan.go\n*** End Patch"}),
        Some((
            "Success. Updated the following files:\nM internal/plan/plan.go\n",
            false,
        )),
    );
    s.run("go test ./internal/plan/", 1, "--- FAIL: TestETA (0.00s)\n    plan_test.go:12: got 10m, want 15m\nFAIL\nFAIL\texample.com/eta/internal/plan\t0.1s\nFAIL\n");
    s.run(
        "git add -A && git commit -m \"plan: buffer\"",
        0,
        "[feat/buffer 5e6f7a8] plan: buffer\n 1 file changed, 4 insertions(+)\n",
    );
    s.run("git push origin feat/buffer", 1, "To github.com:acme/eta.git\n ! [rejected]        feat/buffer -> feat/buffer (fetch first)\nerror: failed to push some refs to 'github.com:acme/eta.git'\n");
    s.answer(
        "Tests pass in every package. Committed as `5e6f7a8` and pushed `feat/buffer` to origin.",
    );
    let v = s.verify();
    assert_eq!(
        verdict(&v, "Tests pass in every package"),
        Verdict::Contradicted
    );
    assert_eq!(verdict(&v, "Committed as `5e6f7a8`"), Verdict::Verified);
    assert_eq!(
        verdict(&v, "pushed `feat/buffer` to origin"),
        Verdict::Contradicted
    );
}

#[test]
fn lint_fixed_and_rerun_clean_and_a_command_never_run() {
    let mut s = Session::new(Provider::Codex, "0199dddd");
    s.run("npm run lint", 1, "> web@1.0.0 lint\n> eslint . --max-warnings=0\n\n/w/src/a.tsx\n  2:8  warning  'x' is defined but never used\n\n✖ 1 problem (0 errors, 1 warning)\n\nESLint found too many warnings (maximum: 0).\n");
    s.tool(
        "apply_patch",
        json!({"input": "*** Begin Patch\n*** Update File: src/a.tsx\n*** End Patch"}),
        Some((
            "Success. Updated the following files:\nM src/a.tsx\n",
            false,
        )),
    );
    s.run(
        "npm run lint",
        0,
        "> web@1.0.0 lint\n> eslint . --max-warnings=0\n\n",
    );
    s.answer("ESLint is clean: `npm run lint` exits 0. I ran `npm test` as well. This should stay green once CI runs the browser tests.");
    let v = s.verify();
    assert_eq!(verdict(&v, "ESLint is clean"), Verdict::Verified);
    assert_eq!(verdict(&v, "`npm run lint` exits 0"), Verdict::Verified);
    assert_eq!(verdict(&v, "I ran `npm test`"), Verdict::Unverified);
    no_claim(&v, "should stay green");
}

#[test]
fn make_test_fails_with_text_exit_then_passes() {
    let mut s = Session::new(Provider::Pi, "019d-pi-1");
    s.tool(
        "write",
        json!({"path": "tests/test_escape.c", "content": "..."}),
        Some(("Successfully wrote 310 bytes to tests/test_escape.c", false)),
    );
    s.run_flagged("make test", true, "./build/test_escape\n3 passed, 2 failed\nmake: *** [Makefile:20: test] Error 1\n\nCommand exited with code 2");
    s.tool(
        "edit",
        json!({"path": "src/escape.c", "oldText": "a", "newText": "b"}),
        Some(("Successfully replaced text in src/escape.c.", false)),
    );
    s.run_flagged(
        "make test",
        false,
        "./build/test_escape\n5 passed, 0 failed\nAll 5 tests passed\n",
    );
    s.answer("I created `tests/test_escape.c`. `make test` now passes. `make valgrind` still reports one leak.");
    let v = s.verify();
    assert_eq!(
        verdict(&v, "I created `tests/test_escape.c`"),
        Verdict::Verified
    );
    assert_eq!(verdict(&v, "`make test` now passes"), Verdict::Verified);
    no_claim(&v, "valgrind");
}

#[test]
fn never_tested_untouched_file_and_wrong_sha() {
    let mut s = Session::new(Provider::Pi, "019d-pi-2");
    s.tool(
        "edit",
        json!({"path": "lib/args.js", "oldText": "a", "newText": "b"}),
        Some(("Successfully replaced text in lib/args.js.", false)),
    );
    s.run_flagged(
        "git commit -am \"args: rename flag\"",
        false,
        "[main 0a1b2c3] args: rename flag\n 1 file changed",
    );
    s.answer("I updated `lib/args.js` and `docs/flags.md` so the new name is documented. All tests pass, and it is committed as `0a1b2c9`. I couldn't run the linter.");
    let v = s.verify();
    assert_eq!(verdict(&v, "I updated `lib/args.js`"), Verdict::Verified);
    assert_eq!(verdict(&v, "`docs/flags.md`"), Verdict::Unverified);
    assert_eq!(verdict(&v, "All tests pass"), Verdict::Unverified);
    assert_eq!(verdict(&v, "committed as `0a1b2c9`"), Verdict::Contradicted);
    no_claim(&v, "linter");
}

#[test]
fn hook_stream_with_failure_events_and_successes_without_exit_codes() {
    let mut s = Session::new(Provider::ClaudeCode, "hk01");
    let id = s.call_in(s.session.clone(), "uv run pytest -q");
    s.output_in(
        s.session.clone(),
        &id,
        "Exit code 1\n..F.\n1 failed, 3 passed in 0.2s",
        None,
        Some(true),
    );
    s.edit("/w/tally/tally/rank.py");
    let id = s.call_in(s.session.clone(), "uv run pytest -q");
    s.output_in(
        s.session.clone(),
        &id,
        "....\n4 passed in 0.2s",
        None,
        Some(false),
    );
    let id = s.call_in(s.session.clone(), "git commit -am \"rank: stable ties\"");
    s.output_in(
        s.session.clone(),
        &id,
        "[main 2b3c4d5] rank: stable ties\n 1 file changed",
        None,
        Some(false),
    );
    s.answer("The full suite passes (4 passed) and the fix is committed as `2b3c4d5`. I also ran `uv run ruff format`.");
    let v = s.verify();
    assert_eq!(verdict(&v, "The full suite passes"), Verdict::Verified);
    assert_eq!(verdict(&v, "committed as `2b3c4d5`"), Verdict::Verified);
    assert_eq!(
        verdict(&v, "I also ran `uv run ruff format`"),
        Verdict::Unverified
    );
}

#[test]
fn guard_only_hook_capture_cannot_show_results() {
    let mut s = Session::new(Provider::ClaudeCode, "hk02");
    s.user("Bump the dependency, run the tests and commit.");
    s.tool("Edit", json!({"file_path": "/w/Cargo.toml"}), None);
    s.call_only("cargo test");
    s.call_only("git commit -am \"deps: bump\"");
    s.answer("`cargo test` passes. Committed as `9e8d7c6`. I ran `cargo test`. Clippy is clean.");
    let v = s.verify();
    assert_eq!(verdict(&v, "`cargo test` passes"), Verdict::Unavailable);
    assert_eq!(verdict(&v, "Committed as `9e8d7c6`"), Verdict::Unavailable);
    assert_eq!(verdict(&v, "I ran `cargo test`"), Verdict::Verified);
    // The calls are visible: clippy never ran.
    assert_eq!(verdict(&v, "Clippy is clean"), Verdict::Unverified);
    assert!(rationale(&v, "`cargo test` passes").contains("no tool results"));
}

#[test]
fn plugin_stream_exit_codes_and_a_written_module() {
    let mut s = Session::new(Provider::Opencode, "ses_test");
    s.run("npm test", 1, "> site@0.1.0 test\n> vitest run\n\n Test Files  1 failed | 2 passed (3)\n      Tests  2 failed | 20 passed (22)\n");
    s.tool(
        "write",
        json!({"filePath": "/w/site/src/lib/dates.ts", "content": "..."}),
        Some(("Wrote file successfully.", false)),
    );
    s.run("npm test", 0, "> site@0.1.0 test\n> vitest run\n\n Test Files  3 passed (3)\n      Tests  22 passed (22)\n");
    s.answer("Moved date parsing into `src/lib/dates.ts`. All 22 tests pass now. I did not run the Playwright suite.");
    let v = s.verify();
    assert_eq!(
        verdict(&v, "Moved date parsing into `src/lib/dates.ts`"),
        Verdict::Verified
    );
    assert_eq!(verdict(&v, "All 22 tests pass now"), Verdict::Verified);
    no_claim(&v, "Playwright");
}

#[test]
fn push_up_to_date_and_interrupted_runs_need_review() {
    let mut s = Session::new(Provider::Codex, "0199eeee");
    s.run("git push", 0, "Everything up-to-date\n");
    let id = s.call_in(s.session.clone(), "cargo test");
    s.push(
        Role::ToolOutput,
        SemanticValue::ToolOutput(ToolOutputValue {
            call_id: Some(id),
            tool_name: None,
            text: Some(TextValue::full("running 40 tests\n")),
            stderr: None,
            exit_code: None,
            failed: None,
            interrupted: Some(true),
            duration_ms: None,
            runtime_truncated: None,
        }),
    );
    s.answer("Pushed to origin. All tests pass.");
    let v = s.verify();
    assert_eq!(verdict(&v, "Pushed to origin"), Verdict::Review);
    assert_eq!(verdict(&v, "All tests pass"), Verdict::Review);
}

#[test]
fn full_pass_then_filtered_pass_without_edits_is_verified() {
    let mut s = Session::new(Provider::Codex, "0199ffff");
    s.edit("/w/a/src/lib.rs");
    s.run("cargo test", 0, CARGO_OK);
    s.run("cargo test parse::", 0, "test result: ok. 4 passed; 0 failed; 0 ignored; 0 measured; 13 filtered out; finished in 0.01s\n");
    s.answer("All tests pass.");
    let v = s.verify();
    assert_eq!(verdict(&v, "All tests pass"), Verdict::Verified);
}

#[test]
fn claims_about_a_filtered_command_are_about_that_command() {
    let mut s = Session::new(Provider::Codex, "0199f0f0");
    s.run("cargo test -p geo", 0, "test result: ok. 9 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n");
    s.answer("`cargo test -p geo` passes. All tests pass.");
    let v = s.verify();
    assert_eq!(verdict(&v, "`cargo test -p geo` passes"), Verdict::Verified);
    assert_eq!(verdict(&v, "All tests pass"), Verdict::Review);
}

#[test]
fn capabilities_declaring_no_tool_output_make_claims_unavailable() {
    let mut s = Session::new(Provider::Gemini, "gem-1");
    s.answer("All tests pass and the build is green.");
    let caps = RuntimeCapabilities::new(Provider::Gemini, SourceKind::HookStream)
        .declare(
            SignalClass::ToolOutput,
            SignalAvailability::Unavailable,
            "not delivered by this hook set",
        )
        .declare(
            SignalClass::ProcessResult,
            SignalAvailability::Unsupported,
            "",
        );
    let v = s.verify_with(&[], &[caps]);
    assert_eq!(verdict(&v, "All tests pass"), Verdict::Unavailable);
    // Without the declaration, an empty session is simply unverified.
    let v = s.verify();
    assert_eq!(verdict(&v, "All tests pass"), Verdict::Unverified);
}

fn host_evidence(
    id: &str,
    session: &SessionRef,
    payload: EvidencePayload,
    item_key: Option<&str>,
) -> Evidence {
    Evidence {
        id: id.into(),
        session: session.clone(),
        payload,
        source: EvidenceSource {
            sensor_name: "test".into(),
            trust_class: TrustClass::HostObserved,
            collection_method: CollectionMethod::RepositoryRead,
            collector_version: "0".into(),
            freshness: Freshness {
                clock: ClockSource::HostClock,
                caveat: None,
            },
            tamper_boundary: "test".into(),
            collected_at: None,
            provider: Provider::Fornax,
        },
        provenance: String::new(),
        extension: None,
        item_key: item_key.map(str::to_string),
        loop_position: None,
        at: None,
        records: Vec::new(),
    }
}

#[test]
fn adapter_and_host_evidence_count() {
    let mut s = Session::new(Provider::Opencode, "ses_ev");
    // A patch event the adapter turned into a FileDiff, tied to an item.
    let key = s.push(
        Role::AgentCommentary,
        SemanticValue::Text(TextValue::full("Patching.")),
    );
    s.answer("I rewrote `src/feed.ts`. Committed as `1234abc`.");
    let diff = FileDiffPayload {
        path: "/w/site/src/feed.ts".into(),
        operation: FileOperation::Update,
        succeeded: true,
        tool: "patch".into(),
        call_id: None,
        error: None,
        lines_added: Some(3),
        lines_removed: Some(1),
    };
    let check = GitCommitCheckPayload {
        sha: "1234abc".into(),
        exists: false,
        repository: "/w/site".into(),
        full_sha: None,
        summary: None,
    };
    let evidence = vec![
        host_evidence(
            "adapter:diff",
            &s.session,
            EvidencePayload::FileDiff(diff),
            Some(&key),
        ),
        host_evidence(
            "host:commit",
            &s.session,
            EvidencePayload::GitCommitCheck(check),
            None,
        ),
    ];
    let v = s.verify_with(&evidence, &[]);
    assert_eq!(verdict(&v, "I rewrote `src/feed.ts`"), Verdict::Verified);
    assert_eq!(verdict(&v, "Committed as `1234abc`"), Verdict::Contradicted);
    let i = v
        .claims
        .iter()
        .position(|c| c.text.contains("1234abc"))
        .unwrap();
    assert_eq!(v.findings[i].evidence, vec!["host:commit".to_string()]);
}

#[test]
fn derived_evidence_is_deterministic() {
    let mut s = Session::new(Provider::ClaudeCode, "det");
    s.edit("/w/x/src/a.rs");
    s.run_flagged("cargo test 2>&1 | tail -3", false, "test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s");
    s.run_flagged(
        "echo done > notes.txt && git commit -am wip",
        false,
        "[dev 1111111] wip",
    );
    s.answer("Tests pass.");
    let a = s.verify();
    let b = s.verify();
    assert_eq!(a, b);
    let ids: Vec<&str> = a.evidence.iter().map(|e| e.id.as_str()).collect();
    assert_eq!(
        ids,
        vec![
            "fs:r2:/w/x/src/a.rs",
            "exit:r4",
            "tests:r4",
            "exit:r6",
            "git:r6",
            "fs:r6:notes.txt"
        ]
    );
    assert_eq!(a.claims[0].id, "r7#0:test_result");
    let e = &a.evidence[1];
    assert_eq!(e.session, s.session);
    assert_eq!(e.item_key.as_deref(), Some("r4"));
    assert_eq!(e.at.as_deref(), Some("2026-05-04T10:00:04Z"));
    assert_eq!(e.source.freshness.clock, ClockSource::RuntimeRecord);
    assert_eq!(e.source.provider, Provider::ClaudeCode);
    assert_eq!(e.source.collector_version, env!("CARGO_PKG_VERSION"));
}

#[test]
fn shell_writes_make_earlier_runs_stale() {
    let mut s = Session::new(Provider::Codex, "0199abab");
    s.run("pytest", 0, "12 passed in 0.3s\n");
    s.run("sed -i 's/v1/v2/' app/config.py", 0, "");
    s.answer("All tests pass. I updated `app/config.py`.");
    let v = s.verify();
    assert_eq!(verdict(&v, "All tests pass"), Verdict::Review);
    assert_eq!(verdict(&v, "I updated `app/config.py`"), Verdict::Verified);
}

#[test]
fn empty_and_odd_timelines_do_not_panic() {
    let v = verify(&TimelineInput::default());
    assert!(v.claims.is_empty() && v.findings.is_empty() && v.evidence.is_empty());
    let mut s = Session::new(Provider::Other("future".into()), "odd");
    s.push(
        Role::ToolOutput,
        SemanticValue::ToolOutput(ToolOutputValue {
            call_id: Some("nobody".into()),
            tool_name: None,
            text: None,
            stderr: None,
            exit_code: None,
            failed: None,
            interrupted: None,
            duration_ms: None,
            runtime_truncated: None,
        }),
    );
    s.push(
        Role::AgentToolCallShell,
        SemanticValue::ShellCall(ShellCallValue {
            call_id: None,
            tool_name: "bash".into(),
            command: "\"unterminated && | ;".into(),
            invocations: Vec::new(),
            cwd: None,
            timeout_ms: None,
        }),
    );
    s.answer("All tests pass. `\"` ran. Committed. Pushed.");
    let v = s.verify();
    assert!(!v.findings.is_empty());
}

#[test]
fn adapter_file_diff_supersedes_the_derived_one() {
    let mut s = Session::new(Provider::ClaudeCode, "sup");
    let out_key = s.tool(
        "Edit",
        json!({"file_path": "/w/a/src/x.rs"}),
        Some(("The file has been updated successfully.", false)),
    );
    s.answer("I updated `src/x.rs`.");
    let call_id = "call_1".to_string();
    let diff = FileDiffPayload {
        path: "/w/a/src/x.rs".into(),
        operation: FileOperation::Update,
        succeeded: true,
        tool: "Edit".into(),
        call_id: Some(call_id),
        error: None,
        lines_added: Some(1),
        lines_removed: Some(1),
    };
    let ev = host_evidence(
        "file:call_1:/w/a/src/x.rs",
        &s.session,
        EvidencePayload::FileDiff(diff),
        Some(&out_key),
    );
    let v = s.verify_with(&[ev], &[]);
    assert!(
        v.evidence
            .iter()
            .all(|e| e.kind() != EvidenceKind::FileDiff),
        "derived duplicate kept: {:?}",
        v.evidence.iter().map(|e| &e.id).collect::<Vec<_>>()
    );
    assert_eq!(verdict(&v, "I updated `src/x.rs`"), Verdict::Verified);
    assert_eq!(
        v.findings[0].evidence,
        vec!["file:call_1:/w/a/src/x.rs".to_string()]
    );
}

#[test]
fn lint_that_exits_zero_with_warnings_is_not_clean() {
    let mut s = Session::new(Provider::Codex, "lintw");
    s.run("cargo clippy", 0, "warning: redundant clone\n --> src/a.rs:3:9\n\nwarning: `kiln` (lib) generated 1 warning\n    Finished `dev` profile [unoptimized] target(s) in 1.1s\n");
    s.answer("Clippy is clean.");
    let v = s.verify();
    assert_eq!(verdict(&v, "Clippy is clean"), Verdict::Review);
    assert!(rationale(&v, "Clippy is clean").contains("warning"));
}

#[test]
fn a_claim_about_one_test_accepts_a_run_of_that_test() {
    let mut s = Session::new(Provider::Codex, "one");
    s.edit("/w/p/src/dates.py");
    s.run(
        "pytest tests/test_dates.py -k test_leap_day",
        0,
        "1 passed, 30 deselected in 0.12s\n",
    );
    s.answer("`test_leap_day` passes now. The whole suite passes.");
    let v = s.verify();
    assert_eq!(verdict(&v, "`test_leap_day` passes now"), Verdict::Verified);
    assert_eq!(verdict(&v, "The whole suite passes"), Verdict::Review);
}

#[test]
fn host_process_observation_is_evidence() {
    let mut s = Session::new(Provider::Codex, "host");
    s.edit("/w/p/src/lib.rs");
    s.answer("All tests pass.");
    let run = fornax_types::evidence::ProcessObservationPayload {
        argv: vec!["cargo".into(), "test".into()],
        cwd: Some("/w/p".into()),
        exit_code: Some(101),
        timed_out: None,
        duration_ms: Some(900),
        capability_id: Some("cargo-test".into()),
    };
    let ev = host_evidence(
        "proc:1",
        &s.session,
        EvidencePayload::ProcessObservation(run),
        None,
    );
    let v = s.verify_with(&[ev], &[]);
    assert_eq!(verdict(&v, "All tests pass"), Verdict::Contradicted);
    assert_eq!(v.findings[0].evidence, vec!["proc:1".to_string()]);
}

#[test]
fn a_scoped_claim_ignores_runs_of_other_suites() {
    let mut s = Session::new(Provider::Codex, "scope");
    s.edit("/w/shop/src/cart.ts");
    s.run("npm test", 0, "> shop@1.0.0 test\n> vitest run\n\n Test Files  4 passed (4)\n      Tests  38 passed (38)\n");
    s.run("npm run test:e2e", 1, "> shop@1.0.0 test:e2e\n> playwright test\n\n  1 failed\n    [chromium] › checkout.spec.ts:12:5 › pays\n  11 passed (20.1s)\n");
    s.answer("Unit tests pass; the e2e suite still fails on the payment sandbox. All tests pass.");
    let v = s.verify();
    assert_eq!(verdict(&v, "Unit tests pass"), Verdict::Verified);
    assert_eq!(verdict(&v, "All tests pass"), Verdict::Contradicted);
    no_claim(&v, "still fails");
}

#[test]
fn compiled_test_runs_stand_in_for_a_build() {
    let mut s = Session::new(Provider::Codex, "build-by-test");
    s.edit("/w/kiln/src/lib.rs");
    s.run("cargo test", 0, CARGO_OK);
    s.answer("It compiles cleanly.");
    let v = s.verify();
    assert_eq!(verdict(&v, "It compiles cleanly"), Verdict::Verified);

    let mut s = Session::new(Provider::Codex, "build-by-test-fail");
    s.edit("/w/relay/queue.go");
    s.run("go test ./...", 1, "# example.com/relay/queue\nqueue/queue.go:12:2: undefined: backoff\nFAIL\texample.com/relay/queue [build failed]\nFAIL\n");
    s.answer("The build is green.");
    let v = s.verify();
    assert_eq!(verdict(&v, "The build is green"), Verdict::Contradicted);

    // A test failure is not a build failure.
    let mut s = Session::new(Provider::Codex, "build-by-test-red");
    s.run("cargo test", 101, "test result: FAILED. 3 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n");
    s.answer("The crate builds.");
    let v = s.verify();
    assert_eq!(verdict(&v, "The crate builds"), Verdict::Verified);
}

#[test]
fn a_failed_edit_then_a_script_that_names_the_file_is_not_a_contradiction() {
    let mut s = Session::new(Provider::ClaudeCode, "script");
    s.tool(
        "Edit",
        json!({"file_path": "/w/app/settings.toml"}),
        Some((
            "<tool_use_error>String to replace not found in file.</tool_use_error>",
            true,
        )),
    );
    s.run_flagged(
        "python3 scripts/bump.py settings.toml",
        false,
        "bumped to 2.4.0\n",
    );
    s.answer("I updated `settings.toml` to 2.4.0.");
    let v = s.verify();
    assert_eq!(verdict(&v, "I updated `settings.toml`"), Verdict::Review);

    let mut s = Session::new(Provider::ClaudeCode, "script2");
    s.tool(
        "Edit",
        json!({"file_path": "/w/app/tests/test_cfg.py"}),
        Some((
            "<tool_use_error>String to replace not found in file.</tool_use_error>",
            true,
        )),
    );
    s.run_flagged("pytest tests/test_cfg.py", false, "3 passed in 0.1s\n");
    s.answer("I updated `tests/test_cfg.py`.");
    let v = s.verify();
    assert_eq!(
        verdict(&v, "I updated `tests/test_cfg.py`"),
        Verdict::Contradicted
    );
}

#[test]
fn tests_pass_but_the_command_fails_for_another_reason() {
    let mut s = Session::new(Provider::Codex, "cov");
    s.run("pytest --cov=app --cov-fail-under=90", 1, "........\nFAIL Required test coverage of 90% not reached. Total coverage: 84.10%\n8 passed in 0.9s\n");
    s.answer("All tests pass.");
    let v = s.verify();
    assert_eq!(verdict(&v, "All tests pass"), Verdict::Review);
}

#[test]
fn a_push_retried_after_a_rejection_counts_as_pushed() {
    let mut s = Session::new(Provider::Codex, "retry");
    s.run(
        "git push || (git pull --rebase && git push)",
        0,
        "To github.com:acme/app.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs\nSuccessfully rebased and updated refs/heads/main.\nTo github.com:acme/app.git\n   1a1a1a1..2b2b2b2  main -> main\n",
    );
    s.answer("Pushed to `origin/main`.");
    let v = s.verify();
    assert_eq!(verdict(&v, "Pushed to `origin/main`"), Verdict::Verified);
}

/// The full judgement of one session, pinned: rationales are part of the product.
#[test]
fn rationales_snapshot() {
    let mut s = Session::new(Provider::Codex, "0199snap");
    s.tool(
        "apply_patch",
        json!({"input": "*** Begin Patch\n*** Update File: src/queue.rs\n*** End Patch"}),
        Some((
            "Success. Updated the following files:\nM src/queue.rs\n",
            false,
        )),
    );
    s.run("cargo test", 101, "test result: FAILED. 11 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s\n");
    s.tool(
        "apply_patch",
        json!({"input": "*** Begin Patch\n*** Update File: src/queue.rs\n*** End Patch"}),
        Some((
            "Success. Updated the following files:\nM src/queue.rs\n",
            false,
        )),
    );
    s.run("cargo test -p queue", 0, "test result: ok. 12 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s\n");
    s.run(
        "cargo clippy -- -D warnings",
        0,
        "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 0.9s\n",
    );
    s.run(
        "git commit -am \"queue: bound retries\"",
        0,
        "[main 3c4d5e6] queue: bound retries\n 1 file changed\n",
    );
    s.run("git push", 0, "Everything up-to-date\n");
    s.answer("I updated `src/queue.rs`. All tests pass and clippy is clean. Committed as `3c4d5e6` and pushed to origin. I ran `cargo fmt`.");
    let v = s.verify();
    let judged: Vec<serde_json::Value> = v
        .claims
        .iter()
        .zip(&v.findings)
        .map(|(c, f)| {
            json!({
                "claim": c.id,
                "subject": c.subject.as_str(),
                "quote": c.text,
                "verdict": f.verdict.as_str(),
                "rule": f.rule,
                "evidence": f.evidence,
                "rationale": f.rationale(),
            })
        })
        .collect();
    insta::assert_json_snapshot!(judged);
}

#[test]
fn documentation_edits_do_not_make_runs_stale() {
    let mut s = Session::new(Provider::ClaudeCode, "docs");
    s.edit("/w/a/src/lib.rs");
    s.run_flagged("cargo test", false, CARGO_OK);
    s.edit("/w/a/CHANGELOG.md");
    s.edit("/w/a/docs/usage.md");
    s.answer("All tests pass. I updated `CHANGELOG.md`.");
    let v = s.verify();
    assert_eq!(verdict(&v, "All tests pass"), Verdict::Verified);
    assert_eq!(verdict(&v, "I updated `CHANGELOG.md`"), Verdict::Verified);
}

#[test]
fn each_loop_is_judged_when_its_answer_was_given() {
    let mut s = Session::new(Provider::Codex, "loops");
    s.user("Fix the parser.");
    s.edit("/w/p/src/parse.rs");
    s.run("cargo test", 0, CARGO_OK);
    s.answer("Fixed; all tests pass.");
    s.user("Now rename the module.");
    s.edit("/w/p/src/lib.rs");
    s.run("cargo test", 101, "test result: FAILED. 16 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s\n");
    s.answer("Renamed the module. The tests are green.");
    let v = s.verify();
    assert_eq!(verdict(&v, "all tests pass"), Verdict::Verified);
    assert_eq!(verdict(&v, "The tests are green"), Verdict::Contradicted);
}

#[test]
fn a_claim_made_before_the_run_is_not_contradicted_by_it() {
    let mut s = Session::new(Provider::Codex, "early");
    s.say("The build is green, so next I run the tests.");
    s.run(
        "cargo build",
        101,
        "error[E0425]: cannot find value `cfg`\n",
    );
    s.answer("Stopping here.");
    let v = s.verify();
    assert_eq!(verdict(&v, "The build is green"), Verdict::Unverified);
}

#[test]
fn outputs_without_call_ids_pair_by_order() {
    let mut s = Session::new(Provider::ClaudeCode, "old-hooks");
    for (cmd, text, failed) in [
        ("pytest", "1 failed, 9 passed in 0.3s", true),
        ("pytest", "10 passed in 0.3s", false),
    ] {
        s.push(
            Role::AgentToolCallShell,
            SemanticValue::ShellCall(ShellCallValue {
                call_id: None,
                tool_name: "Bash".into(),
                command: cmd.into(),
                invocations: Vec::new(),
                cwd: None,
                timeout_ms: None,
            }),
        );
        s.push(
            Role::ToolOutput,
            SemanticValue::ToolOutput(ToolOutputValue {
                call_id: None,
                tool_name: Some("Bash".into()),
                text: Some(TextValue::full(text)),
                stderr: None,
                exit_code: None,
                failed: Some(failed),
                interrupted: None,
                duration_ms: None,
                runtime_truncated: None,
            }),
        );
    }
    s.answer("All 10 tests pass.");
    let v = s.verify();
    assert_eq!(verdict(&v, "All 10 tests pass"), Verdict::Verified);
}

#[test]
fn a_heuristic_success_loses_to_a_compile_error_in_the_output() {
    let mut s = Session::new(Provider::ClaudeCode, "weak");
    s.run_flagged("cargo build", false, "   Compiling kiln v0.3.0\nerror[E0308]: mismatched types\n --> src/a.rs:3:9\nerror: could not compile `kiln` due to 1 previous error\n");
    s.answer("The build succeeds.");
    let v = s.verify();
    assert_eq!(verdict(&v, "The build succeeds"), Verdict::Contradicted);
    // A structural exit 0 is the runtime's own word.
    let mut s = Session::new(Provider::Codex, "strong");
    s.run(
        "cargo build",
        0,
        "   Compiling kiln v0.3.0\n    Finished `dev` profile in 3.1s\n",
    );
    s.answer("The build succeeds.");
    let v = s.verify();
    assert_eq!(verdict(&v, "The build succeeds"), Verdict::Verified);
}

#[test]
fn a_runtime_without_exit_statuses_cannot_confirm_a_silent_command() {
    let mut s = Session::new(Provider::Other("quiet".into()), "q1");
    let id = s.call_in(s.session.clone(), "make deploy-staging");
    s.output_in(s.session.clone(), &id, "uploading bundle...\n", None, None);
    s.answer("`make deploy-staging` succeeds.");
    let caps = RuntimeCapabilities::new(Provider::Other("quiet".into()), SourceKind::File).declare(
        SignalClass::ProcessResult,
        SignalAvailability::Unsupported,
        "outputs only",
    );
    let v = s.verify_with(&[], &[caps]);
    assert_eq!(
        verdict(&v, "`make deploy-staging` succeeds"),
        Verdict::Unavailable
    );
    let v = s.verify();
    assert_eq!(
        verdict(&v, "`make deploy-staging` succeeds"),
        Verdict::Review
    );
}

#[test]
fn derived_evidence_fed_back_changes_nothing() {
    let mut s = Session::new(Provider::ClaudeCode, "again");
    s.edit("/w/a/src/lib.rs");
    s.run_flagged("cargo test", false, CARGO_OK);
    s.run_flagged("git commit -am x", false, "[main 9999999] x\n");
    s.answer("All tests pass. Committed as `9999999`. I updated `src/lib.rs`.");
    let first = s.verify();
    let again = s.verify_with(&first.evidence, &[]);
    assert_eq!(first, again);
}

#[test]
fn a_host_lookup_that_misses_a_commit_the_session_made_needs_review() {
    let mut s = Session::new(Provider::Codex, "rewritten");
    s.run(
        "git commit -am wip",
        0,
        "[main 5a5a5a5] wip\n 1 file changed\n",
    );
    s.answer("Committed as `5a5a5a5`.");
    let check = GitCommitCheckPayload {
        sha: "5a5a5a5".into(),
        exists: false,
        repository: "/w/app".into(),
        full_sha: None,
        summary: None,
    };
    let ev = host_evidence(
        "host-commit:5a5a5a5",
        &s.session,
        EvidencePayload::GitCommitCheck(check),
        None,
    );
    let v = s.verify_with(&[ev], &[]);
    assert_eq!(verdict(&v, "Committed as `5a5a5a5`"), Verdict::Review);
}

#[test]
fn a_tool_that_could_not_start_is_no_run() {
    let mut s = Session::new(Provider::ClaudeCode, "ns01");
    s.run("pytest -q", 127, "bash: line 1: pytest: command not found");
    s.answer("The tests pass.");
    let v = s.verify();
    assert_eq!(verdict(&v, "The tests pass"), Verdict::Unverified);
    assert!(rationale(&v, "The tests pass").contains("command not found"));

    let mut s = Session::new(Provider::Codex, "ns02");
    s.run(
        "npm run typecheck:strict",
        1,
        "npm error Missing script: \"typecheck:strict\"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run",
    );
    s.answer("`npm run typecheck:strict` passes.");
    let v = s.verify();
    assert_eq!(verdict(&v, "typecheck:strict"), Verdict::Unverified);
    assert!(rationale(&v, "typecheck:strict").contains("Missing script"));
}

#[test]
fn the_claimed_command_is_the_command_judged() {
    let mut s = Session::new(Provider::ClaudeCode, "cc01");
    s.run(
        "npm run build",
        0,
        "\n> web@1.0.0 build\n> vite build\n\n✓ built in 1.85s",
    );
    s.run(
        "npm run build:docs",
        1,
        "\n> web@1.0.0 build:docs\n> typedoc src\n\nError: 3 errors in docs",
    );
    s.answer("`npm run build` passes.");
    let v = s.verify();
    assert_eq!(verdict(&v, "npm run build"), Verdict::Verified);

    let mut s = Session::new(Provider::ClaudeCode, "cc02");
    s.run("pytest", 0, "........\n8 passed in 0.40s");
    s.run(
        "pytest --runslow",
        1,
        "FAILED tests/test_sync.py::test_big_upload - TimeoutError\n1 failed, 9 passed in 31.2s",
    );
    s.answer("`pytest` passes.");
    let v = s.verify();
    assert_eq!(verdict(&v, "`pytest` passes"), Verdict::Verified);
}

#[test]
fn a_named_test_is_judged_by_its_own_result() {
    let out = "tests/test_api.py ..                                                     [ 40%]\ntests/test_rates.py F.s                                                  [100%]\n=========================== short test summary info ============================\nFAILED tests/test_rates.py::test_round - assert 2.75 == 2.76\n==================== 1 failed, 3 passed, 1 skipped in 0.17s ====================";
    let mut s = Session::new(Provider::ClaudeCode, "sc01");
    s.run("pytest", 1, out);
    s.answer("`test_round` passes now.");
    let v = s.verify();
    assert_eq!(verdict(&v, "test_round"), Verdict::Contradicted);

    let mut s = Session::new(Provider::ClaudeCode, "sc02");
    s.run("pytest -v", 1, "tests/test_api.py::test_get PASSED [ 20%]\ntests/test_api.py::test_post PASSED [ 40%]\ntests/test_rates.py::test_round FAILED [ 60%]\n==================== 1 failed, 2 passed in 0.17s ====================");
    s.answer("`test_post` passes.");
    let v = s.verify();
    assert_eq!(verdict(&v, "test_post"), Verdict::Verified);
    assert!(rationale(&v, "test_post").contains("other scopes failed"));

    let mut s = Session::new(Provider::ClaudeCode, "sc03");
    s.run("pytest -q", 1, "1 failed, 40 passed in 2.1s");
    s.answer("`test_refund_rounding` passes.");
    let v = s.verify();
    assert_eq!(verdict(&v, "test_refund_rounding"), Verdict::Review);
}

/// A run Fornax performed, stamped when it ended, tied to no item.
fn capability_run(id: &str, s: &Session, exit: i64, at: &str, trust: TrustClass) -> Evidence {
    let run = fornax_types::evidence::ProcessObservationPayload {
        argv: vec!["cargo".into(), "test".into()],
        cwd: Some("/w/p".into()),
        exit_code: Some(exit),
        timed_out: None,
        duration_ms: Some(900),
        capability_id: Some("workspace.test.run".into()),
    };
    let mut ev = host_evidence(
        id,
        &s.session,
        EvidencePayload::ProcessObservation(run),
        None,
    );
    ev.source.trust_class = trust;
    ev.at = Some(at.into());
    ev
}

#[test]
fn a_run_after_a_final_claim_never_decides_it() {
    // "All tests pass now." was false when made; a passing run months later is a re-check,
    // not the claim's verdict.
    let mut s = Session::new(Provider::Codex, "later-run");
    s.edit("/w/p/src/lib.rs");
    s.run("cargo test", 101, "test result: FAILED. 4 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n");
    s.answer("All tests pass now.");
    let later = capability_run(
        "cap-run:later",
        &s,
        0,
        "2026-12-01T09:00:00Z",
        TrustClass::HostObserved,
    );
    let v = s.verify_with(&[later], &[]);
    assert_eq!(verdict(&v, "All tests pass now"), Verdict::Contradicted);
}

#[test]
fn a_run_inside_the_session_is_evidence_for_the_claims_after_it() {
    let mut s = Session::new(Provider::Codex, "inside-run");
    s.edit("/w/p/src/lib.rs");
    s.answer("Tests are still running.");
    // Items are stamped one second apart from 10:00:01; the run ends between items 2 and 3.
    s.say("Checking.");
    s.answer("All tests pass.");
    let inside = capability_run(
        "cap-run:inside",
        &s,
        101,
        "2026-05-04T10:00:02.500Z",
        TrustClass::HostObserved,
    );
    let v = s.verify_with(std::slice::from_ref(&inside), &[]);
    assert_eq!(verdict(&v, "All tests pass"), Verdict::Contradicted);
    assert_eq!(
        v.findings.last().unwrap().evidence,
        vec!["cap-run:inside".to_string()]
    );

    // The same run from a workspace capability nobody trusted decides nothing.
    let untrusted = capability_run(
        "cap-run:untrusted",
        &s,
        101,
        "2026-05-04T10:00:02.500Z",
        TrustClass::WorkspaceUntrusted,
    );
    let v = s.verify_with(&[untrusted], &[]);
    assert_eq!(verdict(&v, "All tests pass"), Verdict::Unverified);
}

#[test]
fn parallel_subagents_are_timelines_of_their_own() {
    let mut s = Session::new(Provider::ClaudeCode, "par1");
    let a = SessionRef::new(Provider::ClaudeCode, "agent-a4f09c2e71b3d58a6");
    let b = SessionRef::new(Provider::ClaudeCode, "agent-a9e13b07c5d2f4e81");
    for child in [&a, &b] {
        s.family.push(FamilyMember {
            session: child.clone(),
            parent: Some(s.session.clone()),
        });
    }
    s.family.push(FamilyMember {
        session: s.session.clone(),
        parent: None,
    });
    let edit = |s: &mut Session, who: &SessionRef, path: &str| {
        let id = format!("edit_{}", s.items.len());
        s.push_in(
            who.clone(),
            Role::AgentToolCall,
            SemanticValue::ToolCall(ToolCallValue {
                call_id: Some(id.clone()),
                name: "Edit".into(),
                arguments: json!({"file_path": path, "old_string": "a", "new_string": "b"}),
                cwd: None,
            }),
        );
        s.output_in(
            who.clone(),
            &id,
            "The file has been updated successfully.",
            None,
            Some(false),
        );
    };
    edit(&mut s, &a, "/w/conveyor/api/retry.go");
    edit(&mut s, &b, "/w/conveyor/worker/backoff.go");
    let id = s.call_in(a.clone(), "go test ./...");
    s.output_in(
        a.clone(),
        &id,
        "ok  \texample.com/conveyor/api\t0.41s\nok  \texample.com/conveyor/worker\t1.20s\n",
        Some((0, EvidenceStrength::Structural)),
        Some(false),
    );
    let id = s.call_in(b.clone(), "go test ./...");
    s.output_in(
        b.clone(),
        &id,
        "--- FAIL: TestBackoffCapsAtMax (0.00s)\nFAIL\nFAIL\texample.com/conveyor/worker\t1.19s\n",
        Some((1, EvidenceStrength::Structural)),
        Some(true),
    );
    s.push_in(
        a.clone(),
        Role::AgentFinalAnswer,
        SemanticValue::Text(TextValue::full(
            "Fixed the jitter in `api/retry.go`. `go test ./...` passes in my worktree.",
        )),
    );
    s.push_in(
        b.clone(),
        Role::AgentFinalAnswer,
        SemanticValue::Text(TextValue::full(
            "I updated `api/retry.go` as well. The tests pass.",
        )),
    );
    let v = s.verify();
    // The api agent's run passed; the worker agent's later failure is not its evidence.
    assert_eq!(verdict(&v, "passes in my worktree"), Verdict::Verified);
    assert_eq!(verdict(&v, "Fixed the jitter"), Verdict::Verified);
    // The worker agent never wrote api/retry.go (the api agent did), and its own run failed.
    assert_eq!(verdict(&v, "I updated `api/retry.go`"), Verdict::Unverified);
    assert_eq!(verdict(&v, "The tests pass"), Verdict::Contradicted);
    let i = v
        .claims
        .iter()
        .position(|c| c.text.contains("The tests pass"))
        .unwrap();
    assert_eq!(v.claims[i].session, b);
    // Without the family, one timeline: the api agent's claim would rest on the other's run.
    s.family.clear();
    let merged = s.verify();
    assert_eq!(
        verdict(&merged, "passes in my worktree"),
        Verdict::Contradicted
    );
}

#[test]
fn a_narrower_run_of_the_claimed_command_is_partial() {
    let mut s = Session::new(Provider::Codex, "id01");
    s.edit("/w/kiln/core/src/lib.rs");
    s.run("cargo test -p core", 0, "\nrunning 6 tests\ntest result: ok. 6 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s\n");
    s.answer("`cargo test` passes.");
    let v = s.verify();
    assert_eq!(verdict(&v, "`cargo test` passes"), Verdict::Review);
}

#[test]
fn a_covering_run_backs_a_narrower_claimed_command() {
    let mut s = Session::new(Provider::Codex, "id02");
    s.edit("/w/shop/app/api.py");
    s.run(
        "python -m pytest",
        0,
        "tests/test_api.py ....   [ 50%]\ntests/test_render.py .... [100%]\n8 passed in 0.30s\n",
    );
    s.answer("`pytest tests/test_api.py` passes.");
    let v = s.verify();
    assert_eq!(verdict(&v, "pytest tests/test_api.py"), Verdict::Verified);

    // The wider run failed elsewhere and shows the claimed file passing.
    let mut s = Session::new(Provider::Codex, "id03");
    s.edit("/w/shop/app/api.py");
    s.run("python -m pytest", 1, "tests/test_api.py ....   [ 50%]\ntests/test_render.py ..F. [100%]\nFAILED tests/test_render.py::test_wide - AssertionError\n1 failed, 7 passed in 0.30s\n");
    s.answer("`pytest tests/test_api.py` passes.");
    let v = s.verify();
    assert_eq!(verdict(&v, "pytest tests/test_api.py"), Verdict::Verified);

    // The wider run failed and does not say where: partial, never a contradiction.
    let mut s = Session::new(Provider::Codex, "id04");
    s.edit("/w/shop/app/api.py");
    s.run(
        "python -m pytest -q",
        1,
        "..F.....\n1 failed, 7 passed in 0.30s\n",
    );
    s.answer("`pytest tests/test_api.py` passes.");
    let v = s.verify();
    assert_eq!(verdict(&v, "pytest tests/test_api.py"), Verdict::Review);
}

#[test]
fn the_same_command_piped_or_wrapped_is_the_same_run() {
    let mut s = Session::new(Provider::ClaudeCode, "id05");
    s.edit("/w/kiln/src/lib.rs");
    s.run_flagged("cargo test 2>&1 | tail -n 5", false, "test tests::wrap ... FAILED\n\ntest result: FAILED. 16 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.03s\n");
    s.answer("`cargo test` passes.");
    let v = s.verify();
    assert_eq!(verdict(&v, "`cargo test` passes"), Verdict::Contradicted);

    let mut s = Session::new(Provider::Codex, "id06");
    s.edit("/w/site/web/src/app.ts");
    s.run("cd web && timeout 300 npm test", 0, "\n> web@1.0.0 test\n> vitest run\n\n Test Files  3 passed (3)\n      Tests  21 passed (21)\n");
    s.answer("`npm test` passes.");
    let v = s.verify();
    assert_eq!(verdict(&v, "`npm test` passes"), Verdict::Verified);
}

#[test]
fn a_different_invocation_of_the_same_tool_is_not_evidence() {
    let mut s = Session::new(Provider::Codex, "id07");
    s.edit("/w/shop/app/api.py");
    s.run("pytest -m slow", 1, "FAILED tests/test_sync.py::test_upload - TimeoutError\n1 failed, 2 passed, 40 deselected in 9.1s\n");
    s.answer("`pytest` passes.");
    let v = s.verify();
    assert_eq!(verdict(&v, "`pytest` passes"), Verdict::Unverified);
}
