//! Policies and the lifecycle gate: errors short-circuit before anything runs, warnings ride
//! along, unknown names are errors, recognized-but-unimplemented ones are warnings.

mod common;

use common::*;
use fornax_capability::commands::CapCommand;
use serde_json::json;

fn touching(sb: &Sandbox, id: &str, extra: serde_json::Value) -> std::path::PathBuf {
    let marker = sb.path(&format!("ran-{id}"));
    sb.local(&cli_manifest(
        id,
        "touch",
        &[marker.to_str().unwrap()],
        extra,
    ));
    marker
}

#[test]
fn policy_errors_short_circuit() {
    let sb = Sandbox::new();
    let marker = touching(
        &sb,
        "workspace.pol.net",
        json!({
            "sideEffects": ["network"],
            "policies": ["forbid_network", "rate_limit", "no_such_policy"]
        }),
    );
    let out = run(&sb.env(), cap_run("workspace.pol.net", &[]));
    assert_eq!(out.exit_code, 1);
    assert_eq!(out.json["ok"], false);
    assert!(!marker.exists(), "nothing ran");
    assert!(out.evidence.is_empty());
    let errors = out.json["meta"]["policyErrors"].as_array().unwrap();
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors
        .iter()
        .any(|e| e.as_str().unwrap().contains("forbid_network")));
    assert!(errors.iter().any(|e| e
        .as_str()
        .unwrap()
        .contains("unknown policy \"no_such_policy\"")));
    assert_eq!(
        out.json["meta"]["policyWarnings"],
        json!(["policy \"rate_limit\" is recognized but not enforced by this build"])
    );
    assert!(out.json["error"]["message"]
        .as_str()
        .unwrap()
        .starts_with("policy check failed: "));
}

#[test]
fn warnings_ride_along_on_success() {
    let sb = Sandbox::new();
    let marker = touching(
        &sb,
        "workspace.pol.warn",
        json!({"policies": ["require_human_approval", "forbid_network"]}),
    );
    let out = run(&sb.env(), cap_run("workspace.pol.warn", &[]));
    assert_eq!(out.exit_code, 0, "{}", out.json);
    assert!(marker.exists());
    // forbid_network is enforced (no network namespace unless declared), so only the
    // unenforced policy warns; this run had no confinement helper, which warns on its own.
    let warnings = out.json["meta"]["policyWarnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    assert!(out.json["meta"]["warnings"]
        .to_string()
        .contains("ran unconfined"));
    assert!(out.json["meta"]["warnings"].as_array().unwrap().len() >= 2);
    let fornax_capability::CapReport::Run(run) = &out.report else {
        panic!("a run reports a run: {:?}", out.report)
    };
    assert!(run.warnings.len() >= 2, "{run:?}");
}

#[test]
fn require_workspace_binding_needs_a_workspace() {
    let sb = Sandbox::new();
    sb.global(&cli_manifest(
        "global.pol.bound",
        "true",
        &[],
        json!({"policies": ["require_workspace_binding"]}),
    ));
    let mut env = sb.env();
    assert_eq!(run(&env, cap_run("global.pol.bound", &[])).exit_code, 0);
    env.cwd = sb.tmp.path().to_path_buf();
    let out = run(&env, cap_run("global.pol.bound", &[]));
    assert_eq!(out.exit_code, 1);
    assert!(out.json["meta"]["policyErrors"][0]
        .as_str()
        .unwrap()
        .contains("no workspace is bound"));
}

#[test]
fn limit_execution_bounds_the_run() {
    let sb = Sandbox::new();
    sb.local(&cli_manifest(
        "workspace.pol.slow",
        "sleep",
        &["20"],
        json!({
            "executionTarget": {"command": "sleep", "args": ["20"], "timeoutMs": 60000},
            "policies": [{"name": "limit_execution", "timeoutMs": 200}]
        }),
    ));
    let started = std::time::Instant::now();
    let out = run(&sb.env(), cap_run("workspace.pol.slow", &[]));
    assert!(started.elapsed().as_secs() < 10);
    assert_eq!(out.json["meta"]["timedOut"], true, "{}", out.json);
    assert!(out.json["meta"]["policyWarnings"][0]
        .as_str()
        .unwrap()
        .contains("clamped to 200"));
}

#[test]
fn lifecycle_gate_and_any_lifecycle() {
    let sb = Sandbox::new();
    let marker = touching(
        &sb,
        "workspace.life.draft",
        json!({"lifecycleState": "draft"}),
    );
    let strict = touching(
        &sb,
        "workspace.life.strict",
        json!({"lifecycleState": "reviewed", "policies": ["require_active_lifecycle"]}),
    );
    let env = sb.env();
    let out = run(&env, cap_run("workspace.life.draft", &[]));
    assert_eq!(out.exit_code, 1);
    assert!(out.json["error"]["message"]
        .as_str()
        .unwrap()
        .contains("is draft; only active capabilities run"));
    assert!(!marker.exists());
    let any = |id: &str| CapCommand::Run {
        target: vec![id.to_string()],
        args: vec![],
        args_json: None,
        any_lifecycle: true,
        session: None,
        toolspace: None,
        trust_once: false,
    };
    assert_eq!(run(&env, any("workspace.life.draft")).exit_code, 0);
    assert!(marker.exists());
    let out = run(&env, any("workspace.life.strict"));
    assert_eq!(
        out.exit_code, 1,
        "the policy holds even with --any-lifecycle"
    );
    assert!(!strict.exists());
}

#[test]
fn inspect_dry_runs_policies() {
    let sb = Sandbox::new();
    sb.local(&cli_manifest(
        "workspace.pol.show",
        "true",
        &[],
        json!({"policies": ["bogus", "rate_limit"]}),
    ));
    let out = run(&sb.env(), inspect("workspace.pol.show"));
    assert_eq!(out.json["policies"]["errors"].as_array().unwrap().len(), 1);
    assert_eq!(
        out.json["policies"]["warnings"].as_array().unwrap().len(),
        1
    );
    let fornax_capability::CapReport::Inspect(inspected) = &out.report else {
        panic!("inspect reports an inspection: {:?}", out.report)
    };
    assert!(
        inspected
            .policy_errors
            .iter()
            .any(|e| e.contains("unknown policy \"bogus\"")),
        "{inspected:?}"
    );
    let report = doctor(&sb.env());
    let policies = report["policies"].as_array().unwrap();
    assert!(policies.contains(
        &json!({"capability": "workspace.pol.show", "policy": "bogus", "status": "unknown"})
    ));
    assert!(policies.contains(&json!({"capability": "workspace.pol.show", "policy": "rate_limit", "status": "unimplemented"})));
    assert_eq!(report["ok"], false);
}
