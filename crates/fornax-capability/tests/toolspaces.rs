//! Toolspace-private adapters take precedence over global ones for capabilities mounted in
//! that toolspace, for inspect and for run; unmounted capabilities only see global adapters.

mod common;

use common::*;
use serde_json::json;

const TAG: &str = r#"
fn execute(resolved, ctx) {
    let r = ctx.delegate();
    #{ ok: true, data: #{ via: "WHERE", out: r.data, exitCode: r.exitCode } }
}
"#;

fn provider(sb: &Sandbox, base: &str, name: &str, tag: &str) {
    sb.write(
        &format!("{base}/{name}/adapter.manifest.json"),
        &json!({
            "kind": "provider", "name": name, "composes": "cli", "lifecycleState": "active"
        }),
    );
    sb.write_text(
        &format!("{base}/{name}/adapter.rhai"),
        &TAG.replace("WHERE", tag),
    );
}

fn setup() -> Sandbox {
    let sb = Sandbox::new();
    provider(&sb, "home/adapters", "wrap", "global");
    provider(
        &sb,
        "repo/.fornax/toolspaces/ci/adapters",
        "wrap",
        "private",
    );
    // A private cli type adapter whose settings put a variable in the child's environment.
    sb.write(
        "repo/.fornax/toolspaces/ci/adapters/cli/adapter.manifest.json",
        &json!({
            "kind": "type-adapter", "type": "cli", "lifecycleState": "active",
            "settings": {"env": {"FORNAX_TEST_LANE": "ci-private"}}
        }),
    );
    sb.local(&cli_manifest(
        "workspace.lane.show",
        "printenv",
        &["FORNAX_TEST_LANE"],
        json!({"providerAdapter": "wrap"}),
    ));
    sb.write(
        "repo/.fornax/toolspaces/ci/toolspace.json",
        &json!({
            "manifestVersion": 1, "toolspace": "ci",
            "moduleMounts": [{"source": "workspace.lane", "capabilities": ["show"]}]
        }),
    );
    sb
}

#[test]
fn private_adapters_win_for_run() {
    let sb = setup();
    let env = sb.env();
    let mounted = run(&env, cap_run("toolspace.ci.lane.show", &[]));
    assert_eq!(mounted.exit_code, 0, "{}", mounted.json);
    assert_eq!(
        mounted.json["data"],
        json!({"via": "private", "out": "ci-private", "exitCode": 0})
    );
    assert_eq!(
        mounted.json["meta"]["adapterProvenance"]["provider"]["kind"],
        "toolspace"
    );
    assert_eq!(
        mounted.json["meta"]["adapterProvenance"]["type"]["toolspace"],
        "ci"
    );

    // The same capability unmounted resolves only global adapters (printenv finds nothing).
    let global = run(&env, cap_run("workspace.lane.show", &[]));
    assert_eq!(global.json["data"]["via"], "global", "{}", global.json);
    assert_eq!(
        global.json["data"]["exitCode"], 1,
        "the private cli settings do not apply: {}",
        global.json
    );
    assert_eq!(
        global.json["meta"]["adapterProvenance"]["provider"]["kind"],
        "global"
    );
}

#[test]
fn private_adapters_win_for_inspect() {
    let sb = setup();
    let env = sb.env();
    let mounted = run(&env, inspect("toolspace.ci.lane.show"));
    assert_eq!(
        mounted.json["providerAdapter"]["provenance"]["kind"],
        "toolspace"
    );
    assert_eq!(
        mounted.json["typeAdapter"]["provenance"]["kind"],
        "toolspace"
    );
    let fornax_capability::CapReport::Inspect(inspected) = &mounted.report else {
        panic!("inspect reports an inspection: {:?}", mounted.report)
    };
    let adapters = inspected.adapters.as_ref().unwrap();
    let paths = [
        adapters.type_adapter_path.clone(),
        adapters
            .provider_adapter
            .as_ref()
            .and_then(|(_, p)| p.clone()),
    ];
    assert!(
        paths
            .iter()
            .flatten()
            .any(|p| p.contains("toolspaces/ci/adapters/wrap")),
        "{adapters:?}"
    );
    let global = run(&env, inspect("workspace.lane.show"));
    assert_eq!(
        global.json["providerAdapter"]["provenance"]["kind"],
        "global"
    );
    assert_eq!(global.json["typeAdapter"]["provenance"]["kind"], "builtin");
}

#[test]
fn doctor_reports_shadowing_and_orphans() {
    let sb = setup();
    provider(
        &sb,
        "repo/.fornax/toolspaces/ghost/adapters",
        "lonely",
        "ghost",
    );
    let report = doctor(&sb.env());
    let shadowing = report["shadowing"].as_array().unwrap();
    let names: Vec<&str> = shadowing
        .iter()
        .map(|s| s["adapter"].as_str().unwrap())
        .collect();
    assert!(
        names.contains(&"wrap") && names.contains(&"cli"),
        "{shadowing:?}"
    );
    let orphaned = report["orphanedToolspaceAdapters"].as_array().unwrap();
    assert_eq!(orphaned.len(), 1, "{orphaned:?}");
    assert_eq!(orphaned[0]["toolspace"], "ghost");
}

#[test]
fn global_folder_cannot_take_a_builtin_name_and_duplicates_are_unusable() {
    let sb = Sandbox::new();
    provider(&sb, "home/adapters", "cargo-test", "nope");
    provider(&sb, "home/adapters", "twice", "home");
    provider(&sb, "repo/.fornax/adapters", "twice", "workspace");
    sb.local(&cli_manifest(
        "workspace.dup.twice",
        "true",
        &[],
        json!({"providerAdapter": "twice"}),
    ));
    let env = sb.env();
    let report = doctor(&env);
    let rejected = report["adapters"]["rejected"].to_string();
    assert!(
        rejected.contains("taken by a built-in adapter"),
        "{rejected}"
    );
    assert!(
        rejected.contains("duplicate adapter \\\"twice\\\""),
        "{rejected}"
    );
    let out = run(&env, cap_run("workspace.dup.twice", &[]));
    assert!(
        out.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("defined more than once"),
        "{}",
        out.json
    );
}
