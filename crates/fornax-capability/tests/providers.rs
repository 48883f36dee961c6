//! Provider adapters over real processes: built-in test-runner adapters (cargo test and
//! nextest for real; go, pytest, jest and vitest through recorded-shape output), and sandboxed
//! script adapters.

// Skips are announced on stdout, as the project asks of tests that need an optional tool.
#![allow(clippy::print_stdout)]

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::*;
use fornax_types::evidence::{ProcessObservationPayload, TestSummaryPayload};
use fornax_types::{CollectionMethod, EvidenceKind, TrustClass};
use serde_json::{json, Value};

/// A tiny cargo package with one passing, one ignored and (optionally) one failing test.
fn cargo_project(dir: &Path, failing: bool) {
    std::fs::create_dir_all(dir.join("src")).unwrap();
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"demo\"\nversion = \"0.1.0\"\nedition = \"2021\"\n\n[workspace]\n",
    )
    .unwrap();
    let bad = if failing {
        "\n    #[test]\n    fn bad() { assert_eq!(super::add(2, 2), 5); }\n"
    } else {
        ""
    };
    std::fs::write(
        dir.join("src/lib.rs"),
        format!(
            "pub fn add(a: u32, b: u32) -> u32 {{ a + b }}\n\n#[cfg(test)]\nmod tests {{\n    #[test]\n    fn good() {{ assert_eq!(super::add(2, 2), 4); }}\n    #[test]\n    #[ignore]\n    fn slow() {{}}\n{bad}}}\n"
        ),
    )
    .unwrap();
}

fn runner_manifest(id: &str, command: &str, args: &[&str], cwd: &Path, provider: &str) -> Value {
    cli_manifest(
        id,
        command,
        args,
        json!({
            "executionTarget": {"command": command, "args": args, "cwd": cwd, "timeoutMs": 600000},
            "providerAdapter": provider,
        }),
    )
}

#[test]
fn cargo_test_through_its_provider_adapter() {
    let sb = Sandbox::new();
    let good = sb.path("proj-good");
    let bad = sb.path("proj-bad");
    cargo_project(&good, false);
    cargo_project(&bad, true);
    sb.local(&runner_manifest(
        "workspace.rust.test",
        "cargo",
        &["test", "--offline"],
        &good,
        "cargo-test",
    ));
    sb.local(&runner_manifest(
        "workspace.rust.failing",
        "cargo",
        &["test", "--offline"],
        &bad,
        "cargo-test",
    ));
    let env = sb.env();

    let out = run(&env, cap_run("workspace.rust.test", &[]));
    assert_eq!(out.exit_code, 0, "{}", out.json);
    assert_eq!(out.json["data"]["runner"], "cargo");
    assert_eq!(out.json["data"]["passed"], 1);
    assert_eq!(out.json["data"]["failed"], 0);
    assert_eq!(out.json["data"]["skipped"], 1);
    assert_eq!(out.json["meta"]["providerAdapter"], "cargo-test");
    assert_eq!(
        out.json["meta"]["adapterProvenance"]["provider"]["kind"],
        "builtin"
    );

    // Evidence: one process observation and one test summary, observed by Fornax from a
    // workspace manifest the user trusted (never plain host-observed: the agent could have
    // written it).
    assert_eq!(out.evidence.len(), 2);
    for e in &out.evidence {
        e.validate().unwrap();
        assert_eq!(e.source.trust_class, TrustClass::WorkspaceTrusted);
        assert_eq!(
            e.source.collection_method,
            CollectionMethod::ProcessObservation
        );
    }
    let process: ProcessObservationPayload = out.evidence[0].payload_as().unwrap();
    assert_eq!(process.argv, vec!["cargo", "test", "--offline"]);
    assert_eq!(process.exit_code, Some(0));
    assert_eq!(
        process.capability_id.as_deref(),
        Some("workspace.rust.test")
    );
    assert_eq!(out.evidence[1].kind, EvidenceKind::TestSummary);
    let summary: TestSummaryPayload = out.evidence[1].payload_as().unwrap();
    assert_eq!(
        (summary.passed, summary.failed, summary.skipped),
        (Some(1), Some(0), Some(1))
    );

    let out = run(&env, cap_run("workspace.rust.failing", &[]));
    assert_eq!(out.exit_code, 1, "{}", out.json);
    assert_eq!(out.json["ok"], false);
    assert_eq!(
        out.json["error"]["message"],
        "1 of 3 tests failed (cargo): tests::bad"
    );
    assert_eq!(
        out.json["meta"]["testSummary"]["failures"],
        json!(["tests::bad"])
    );
    assert_eq!(out.json["meta"]["exitCode"], 101);
    let summary: TestSummaryPayload = out.evidence[1].payload_as().unwrap();
    assert_eq!(summary.failed, Some(1));
}

#[test]
fn cargo_nextest_through_its_provider_adapter() {
    let available = Command::new("cargo")
        .args(["nextest", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !available {
        println!("skipping: cargo-nextest is not installed");
        return;
    }
    let sb = Sandbox::new();
    let proj = sb.path("proj");
    cargo_project(&proj, true);
    sb.local(&runner_manifest(
        "workspace.rust.nextest",
        "cargo",
        &["nextest", "run", "--offline", "--no-fail-fast"],
        &proj,
        "cargo-nextest",
    ));
    let out = run(&sb.env(), cap_run("workspace.rust.nextest", &[]));
    assert_eq!(out.exit_code, 1, "{}", out.json);
    let s = &out.json["meta"]["testSummary"];
    assert_eq!(s["runner"], "nextest", "{}", out.json);
    assert_eq!(
        (
            s["passed"].as_u64(),
            s["failed"].as_u64(),
            s["skipped"].as_u64()
        ),
        (Some(1), Some(1), Some(1)),
        "{s}"
    );
    assert_eq!(s["failures"], json!(["tests::bad"]));
}

/// Recorded-shape output (invented content) replayed through a real `cat` process.
fn replay(sb: &Sandbox, id: &str, fixture: &str, text: &str, provider: &str) -> Value {
    let path = sb.write_text(fixture, text);
    sb.local(&runner_manifest(
        id,
        "cat",
        &[path.to_str().unwrap()],
        &sb.workspace,
        provider,
    ));
    let out = run(&sb.env(), cap_run(id, &[]));
    out.json
}

#[test]
fn go_jest_and_vitest_envelopes_become_one_summary() {
    let sb = Sandbox::new();
    // go test -json (go 1.22 event shape).
    let go = r#"{"Time":"2026-03-01T10:00:00Z","Action":"start","Package":"example.com/calc"}
{"Time":"2026-03-01T10:00:00Z","Action":"run","Package":"example.com/calc","Test":"TestAdd"}
{"Time":"2026-03-01T10:00:00Z","Action":"output","Package":"example.com/calc","Test":"TestAdd","Output":"=== RUN   TestAdd\n"}
{"Time":"2026-03-01T10:00:00Z","Action":"pass","Package":"example.com/calc","Test":"TestAdd","Elapsed":0}
{"Time":"2026-03-01T10:00:00Z","Action":"run","Package":"example.com/calc","Test":"TestDiv"}
{"Time":"2026-03-01T10:00:00Z","Action":"fail","Package":"example.com/calc","Test":"TestDiv","Elapsed":0}
{"Time":"2026-03-01T10:00:00Z","Action":"skip","Package":"example.com/calc","Test":"TestSlow","Elapsed":0}
{"Time":"2026-03-01T10:00:00Z","Action":"fail","Package":"example.com/calc","Elapsed":0.01}
"#;
    let out = replay(&sb, "workspace.go.test", "go.ndjson", go, "go-test-json");
    assert_eq!(out["ok"], false);
    assert_eq!(out["meta"]["testSummary"]["passed"], 1);
    assert_eq!(out["meta"]["testSummary"]["failures"], json!(["TestDiv"]));

    // jest --json (jest 29 report shape).
    let jest = json!({
        "numFailedTestSuites": 0, "numPassedTestSuites": 1, "numTotalTestSuites": 1,
        "numFailedTests": 0, "numPassedTests": 4, "numPendingTests": 1, "numTodoTests": 0, "numTotalTests": 5,
        "success": true, "startTime": 1767000000000u64,
        "testResults": [{"name": "/app/sum.test.js", "status": "passed", "assertionResults": [
            {"ancestorTitles": ["sum"], "fullName": "sum adds", "status": "passed", "title": "adds"}
        ]}]
    });
    let out = replay(
        &sb,
        "workspace.js.jest",
        "jest.json",
        &jest.to_string(),
        "jest-json",
    );
    assert_eq!(out["ok"], true, "{out}");
    assert_eq!(
        out["data"],
        json!({"runner": "jest", "passed": 4, "failed": 0, "skipped": 1, "total": 5, "failures": []})
    );

    // vitest --reporter=json (vitest 1.x, jest-compatible shape).
    let vitest = json!({
        "numTotalTestSuites": 1, "numPassedTests": 2, "numFailedTests": 1, "numPendingTests": 0, "numTodoTests": 1,
        "numTotalTests": 4, "success": false,
        "testResults": [{"name": "/app/a.test.ts", "status": "failed", "assertionResults": [
            {"fullName": "a works", "status": "passed"}, {"fullName": "a breaks", "status": "failed"}
        ]}]
    });
    let out = replay(
        &sb,
        "workspace.js.vitest",
        "vitest.json",
        &vitest.to_string(),
        "vitest-json",
    );
    assert_eq!(out["ok"], false);
    assert_eq!(
        out["error"]["message"],
        "1 of 4 tests failed (vitest): a breaks"
    );

    // Output that is not the runner's: the run's envelope stands, with a warning.
    let out = replay(&sb, "workspace.js.odd", "odd.txt", "hello", "jest-json");
    assert_eq!(out["ok"], true);
    assert!(
        out["meta"]["warnings"]
            .to_string()
            .contains("no jest test summary"),
        "{out}"
    );
}

#[test]
fn pytest_junit_adapter_adds_the_report_path_and_reads_it() {
    if Command::new("python3").arg("--version").output().is_err() {
        println!("skipping: python3 is not installed");
        return;
    }
    let sb = Sandbox::new();
    // A stand-in for pytest: writes a JUnit report (pytest 8 shape) to --junitxml=PATH.
    let fake = sb.write_text("fake_pytest.py", r#"
import sys
path = [a.split("=", 1)[1] for a in sys.argv[1:] if a.startswith("--junitxml=")][0]
open(path, "w").write('''<?xml version="1.0" encoding="utf-8"?><testsuites><testsuite name="pytest" errors="0" failures="1" skipped="1" tests="4">
<testcase classname="tests.test_math" name="test_add" time="0.001" />
<testcase classname="tests.test_math" name="test_sub" time="0.001" />
<testcase classname="tests.test_math" name="test_div" time="0.002"><failure message="ZeroDivisionError">trace</failure></testcase>
<testcase classname="tests.test_math" name="test_big" time="0.000"><skipped message="slow" /></testcase>
</testsuite></testsuites>''')
print("===== 1 failed, 2 passed, 1 skipped in 0.05s =====")
sys.exit(1)
"#);
    sb.local(&runner_manifest(
        "workspace.py.test",
        "python3",
        &[fake.to_str().unwrap()],
        &sb.workspace,
        "pytest-junit",
    ));
    let out = run(&sb.env(), cap_run("workspace.py.test", &[]));
    assert_eq!(out.exit_code, 1);
    let s = &out.json["meta"]["testSummary"];
    assert_eq!(
        (
            s["passed"].as_u64(),
            s["failed"].as_u64(),
            s["skipped"].as_u64()
        ),
        (Some(2), Some(1), Some(1)),
        "{}",
        out.json
    );
    assert_eq!(s["failures"], json!(["tests.test_math::test_div"]));
    let argv = out.json["meta"]["argv"].as_array().unwrap();
    assert!(
        argv.last()
            .unwrap()
            .as_str()
            .unwrap()
            .starts_with("--junitxml="),
        "{argv:?}"
    );
    let report = PathBuf::from(
        argv.last()
            .unwrap()
            .as_str()
            .unwrap()
            .trim_start_matches("--junitxml="),
    );
    assert!(!report.exists(), "the adapter cleans up its report file");
}

fn script_adapter(sb: &Sandbox, base: &str, name: &str, composes: &str, script: &str) {
    sb.write(
        &format!("{base}/{name}/adapter.manifest.json"),
        &json!({
            "kind": "provider", "name": name, "composes": composes, "lifecycleState": "active",
            "summary": "test adapter", "limits": {"maxOperations": 100000, "timeoutMs": 1000}
        }),
    );
    sb.write_text(&format!("{base}/{name}/adapter.rhai"), script);
}

const UNWRAP: &str = r#"
fn execute(resolved, ctx) {
    let r = ctx.delegate();
    if !r.ok { return r; }
    let env = r.data;
    if type_of(env) == "string" { env = parse_json(env); }
    print("status=" + env.status + " via " + ctx.type_adapter);
    if env.status == "ok" {
        #{ ok: true, data: env.payload, meta: #{ hints: env.hints } }
    } else {
        #{ ok: false, error: #{ message: "provider said: " + env.reason } }
    }
}
"#;

#[test]
fn script_provider_unwraps_an_envelope() {
    let sb = Sandbox::new();
    script_adapter(&sb, "home/adapters", "unwrap", "cli", UNWRAP);
    let ok = sb.write(
        "ok.json",
        &json!({"status": "ok", "payload": {"rows": [1, 2, 3]}, "hints": ["try --all"]}),
    );
    let bad = sb.write(
        "bad.json",
        &json!({"status": "error", "reason": "quota exceeded"}),
    );
    for (id, file) in [("workspace.prov.ok", &ok), ("workspace.prov.bad", &bad)] {
        sb.local(&cli_manifest(
            id,
            "cat",
            &[file.to_str().unwrap()],
            json!({"providerAdapter": "unwrap"}),
        ));
    }
    let env = sb.env();
    let out = run(&env, cap_run("workspace.prov.ok", &[]));
    assert_eq!(out.exit_code, 0, "{}", out.json);
    assert_eq!(out.json["data"], json!({"rows": [1, 2, 3]}));
    assert_eq!(out.json["meta"]["hints"], json!(["try --all"]));
    assert_eq!(out.json["meta"]["scriptLog"], json!(["status=ok via cli"]));
    assert_eq!(out.json["meta"]["providerAdapter"], "unwrap");
    assert_eq!(out.evidence.len(), 1, "the delegated process is observed");
    let out = run(&env, cap_run("workspace.prov.bad", &[]));
    assert_eq!(out.exit_code, 1);
    assert_eq!(
        out.json["error"]["message"],
        "provider said: quota exceeded"
    );
}

#[test]
fn script_sandbox_bounds_and_isolation() {
    let sb = Sandbox::new();
    let base = "home/adapters";
    script_adapter(
        &sb,
        base,
        "spin",
        "cli",
        "fn execute(resolved, ctx) { loop { } }",
    );
    script_adapter(
        &sb,
        base,
        "reader",
        "cli",
        "fn execute(resolved, ctx) { let t = read_file(\"/etc/passwd\"); #{ ok: true, data: t } }",
    );
    script_adapter(
        &sb,
        base,
        "importer",
        "cli",
        "import \"os\" as os;\nfn execute(resolved, ctx) { #{ ok: true } }",
    );
    script_adapter(
        &sb,
        base,
        "evaler",
        "cli",
        "fn execute(resolved, ctx) { eval(\"1\") }",
    );
    script_adapter(&sb, base, "noentry", "cli", "fn run(x) { x }");
    script_adapter(
        &sb,
        base,
        "greedy",
        "cli",
        "fn execute(resolved, ctx) { for i in 0..20 { ctx.delegate(); } #{ ok: true } }",
    );
    script_adapter(&sb, base, "argv", "cli", "fn execute(resolved, ctx) { let r = ctx.delegate_argv([\"one\", \"two\"]); #{ ok: r.ok, data: r.stdout } }");
    for name in ["spin", "reader", "importer", "greedy", "argv"] {
        sb.local(&cli_manifest(
            &format!("workspace.box.{name}"),
            "printf",
            &["%s,"],
            json!({"providerAdapter": name}),
        ));
    }
    let env = sb.env();
    let started = std::time::Instant::now();
    let spin = run(&env, cap_run("workspace.box.spin", &[]));
    assert!(started.elapsed().as_secs() < 20);
    assert_eq!(spin.exit_code, 1);
    assert!(
        spin.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("script failed"),
        "{}",
        spin.json
    );
    let reader = run(&env, cap_run("workspace.box.reader", &[]));
    assert!(
        reader.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("read_file"),
        "{}",
        reader.json
    );
    let importer = run(&env, cap_run("workspace.box.importer", &[]));
    assert_eq!(importer.exit_code, 1, "{}", importer.json);
    let greedy = run(&env, cap_run("workspace.box.greedy", &[]));
    assert!(
        greedy.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("at most 8 delegations"),
        "{}",
        greedy.json
    );
    assert_eq!(greedy.evidence.len(), 8);
    let argv = run(&env, cap_run("workspace.box.argv", &[]));
    assert_eq!(argv.json["data"], "one,two,", "{}", argv.json);

    // Scripts that use `eval` or lack the entry point never load; doctor says why.
    let report = doctor(&env);
    let rejected = report["adapters"]["rejected"].as_array().unwrap();
    let reason = |name: &str| {
        rejected
            .iter()
            .find(|r| r["id"] == name)
            .map(|r| r["problems"].to_string())
            .unwrap_or_default()
    };
    assert!(
        reason("evaler").contains("does not compile"),
        "{rejected:?}"
    );
    assert!(
        reason("noentry").contains("fn execute(resolved, ctx)"),
        "{rejected:?}"
    );
}

#[test]
fn provider_must_compose_the_capability_type() {
    let sb = Sandbox::new();
    script_adapter(&sb, "home/adapters", "inner", "internal", UNWRAP);
    sb.local(&cli_manifest(
        "workspace.mix.up",
        "true",
        &[],
        json!({"providerAdapter": "inner"}),
    ));
    sb.local(&cli_manifest(
        "workspace.mix.none",
        "true",
        &[],
        json!({"providerAdapter": "nowhere"}),
    ));
    let env = sb.env();
    let out = run(&env, cap_run("workspace.mix.up", &[]));
    assert_eq!(out.exit_code, 1);
    assert!(
        out.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("composes \"internal\""),
        "{}",
        out.json
    );
    let out = run(&env, cap_run("workspace.mix.none", &[]));
    let msg = out.json["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("no provider adapter \"nowhere\" found; searched:")
            && msg.contains("built-in adapters"),
        "{msg}"
    );
    let report = doctor(&env);
    assert!(
        report["missing"].to_string().contains("nowhere"),
        "{report}"
    );
}
