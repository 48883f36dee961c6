//! Loading, rejection, duplicates, workspace discovery and shorthand resolution, over real
//! temporary directories.

mod common;

use common::*;
use fornax_capability::commands::CapCommand;
use fornax_capability::{CapError, Layout, Registry};
use serde_json::json;

fn layout(sb: &Sandbox) -> Layout {
    sb.env().layout()
}

#[test]
fn builtins_are_always_there() {
    let sb = Sandbox::new();
    let reg = Registry::load(&layout(&sb));
    for id in [
        "global.echo.say",
        "global.fornax.sessions",
        "global.fornax.session",
        "global.fornax.search",
        "global.fornax.findings",
    ] {
        assert!(reg.get(id).is_some(), "{id}");
    }
    assert!(reg.rejected.is_empty(), "{:?}", reg.rejected);
}

#[test]
fn invalid_manifest_is_rejected_whole_with_every_problem() {
    let sb = Sandbox::new();
    sb.local(&cli_manifest(
        "workspace.bad.one",
        "true",
        &[],
        json!({"adapterType": "rpc", "lifecycleState": "live", "argsSchema": {"type": "object", "properties": {"x": {"anyOf": []}}}, "sideEffects": ["telepathy"]}),
    ));
    sb.write_text("repo/.fornax/capabilities/broken.json", "{ not json");
    let reg = Registry::load(&layout(&sb));
    assert!(reg.get("workspace.bad.one").is_none(), "never half-loaded");
    let bad = reg
        .rejected
        .iter()
        .find(|r| r.id.as_deref() == Some("workspace.bad.one"))
        .unwrap();
    let text = bad.problems.join("\n");
    assert!(
        text.contains(
            "adapterType \"rpc\" is not supported: this build executes only internal and cli"
        ),
        "{text}"
    );
    assert!(text.contains("lifecycleState must be"), "{text}");
    assert!(text.contains("keyword \"anyOf\""), "{text}");
    assert!(text.contains("unknown value \"telepathy\""), "{text}");
    assert!(text.contains("properties.x: missing \"type\""), "{text}");
    assert_eq!(bad.problems.len(), 5, "{text}");
    let broken = reg
        .rejected
        .iter()
        .find(|r| r.location.ends_with("broken.json"))
        .unwrap();
    assert!(broken.problems[0].contains("not valid JSON"));
}

#[test]
fn scope_must_match_where_the_file_lives() {
    let sb = Sandbox::new();
    sb.write(
        "home/capabilities/x.json",
        &cli_manifest("workspace.wrong.place", "true", &[], json!({})),
    );
    sb.write(
        "repo/.fornax/capabilities/y.json",
        &cli_manifest("global.wrong.place", "true", &[], json!({})),
    );
    let reg = Registry::load(&layout(&sb));
    assert_eq!(reg.rejected.len(), 2, "{:?}", reg.rejected);
    assert!(reg
        .rejected
        .iter()
        .all(|r| r.problems.iter().any(|p| p.contains("must have a"))));
}

#[test]
fn duplicate_ids_reject_every_contender() {
    let sb = Sandbox::new();
    sb.write(
        "home/capabilities/a.json",
        &cli_manifest("global.dup.cap", "true", &[], json!({})),
    );
    sb.write(
        "home/capabilities/b.json",
        &cli_manifest("global.dup.cap", "false", &[], json!({})),
    );
    // A file that reuses a built-in id takes the built-in down too: no winner by order.
    sb.write("home/capabilities/echo.json", &json!({
        "manifestVersion": 1, "id": "global.echo.say", "summary": "mine", "provider": "me",
        "adapterType": "cli", "executionTarget": {"command": "echo"}, "argsSchema": {"type": "object"},
        "outputModes": ["text"], "sideEffects": [], "scope": "global", "lifecycleState": "active", "owner": "me"
    }));
    let reg = Registry::load(&layout(&sb));
    assert!(reg.get("global.dup.cap").is_none());
    assert!(reg.get("global.echo.say").is_none());
    let dups: Vec<_> = reg
        .rejected
        .iter()
        .filter(|r| r.problems[0].starts_with("duplicate id"))
        .collect();
    assert_eq!(dups.len(), 4, "{:?}", reg.rejected);
    let err = reg
        .resolve(&["global.dup.cap".to_string()], None)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("was rejected") && err.contains("duplicate id"),
        "{err}"
    );
}

#[test]
fn workspace_overrides_flag_then_env_then_discovery() {
    let sb = Sandbox::new();
    let other = sb.path("elsewhere");
    std::fs::create_dir_all(other.join(".fornax/capabilities")).unwrap();
    sb.write(
        "elsewhere/.fornax/capabilities/t.json",
        &cli_manifest("workspace.else.where", "true", &[], json!({})),
    );
    sb.local(&cli_manifest("workspace.here.it", "true", &[], json!({})));
    let deep = sb.workspace.join("src/deep");
    std::fs::create_dir_all(&deep).unwrap();
    let mut env = sb.env();
    env.cwd = deep;
    assert!(
        env.runtime().registry.get("workspace.here.it").is_some(),
        "discovered from a subdirectory"
    );
    env.workspace_env = Some(other.clone());
    let reg = env.runtime().registry;
    assert!(reg.get("workspace.else.where").is_some() && reg.get("workspace.here.it").is_none());
    env.workspace = Some(sb.workspace.clone());
    assert!(
        env.runtime().registry.get("workspace.here.it").is_some(),
        "--workspace beats FORNAX_WORKSPACE"
    );
}

#[test]
fn shorthand_resolves_toolspace_then_global_then_workspace() {
    let sb = Sandbox::new();
    sb.global(&cli_manifest("global.tools.fmt", "true", &[], json!({})));
    sb.local(&cli_manifest("workspace.tools.fmt", "true", &[], json!({})));
    sb.local(&cli_manifest(
        "workspace.tools.lint",
        "true",
        &[],
        json!({}),
    ));
    let reg = Registry::load(&layout(&sb));
    let q = |parts: &[&str], ts: Option<&str>| -> Result<String, CapError> {
        reg.resolve(&parts.iter().map(|s| s.to_string()).collect::<Vec<_>>(), ts)
            .map(|c| c.manifest.id.clone())
    };
    assert_eq!(
        q(&["tools", "fmt"], None).unwrap(),
        "global.tools.fmt",
        "global before workspace"
    );
    assert_eq!(q(&["tools.lint"], None).unwrap(), "workspace.tools.lint");
    assert_eq!(
        q(&["workspace.tools.fmt"], None).unwrap(),
        "workspace.tools.fmt",
        "full ids are exact"
    );

    // Mount tools.fmt in two toolspaces: the toolspace comes first, and two are ambiguous.
    for ts in ["ci", "dev"] {
        sb.write(
            &format!("repo/.fornax/toolspaces/{ts}/toolspace.json"),
            &json!({
                "manifestVersion": 1, "toolspace": ts,
                "moduleMounts": [{"source": "workspace.tools", "capabilities": ["fmt"]}]
            }),
        );
    }
    let reg = Registry::load(&layout(&sb));
    let q = |parts: &[&str], ts: Option<&str>| -> Result<String, CapError> {
        reg.resolve(&parts.iter().map(|s| s.to_string()).collect::<Vec<_>>(), ts)
            .map(|c| c.manifest.id.clone())
    };
    assert_eq!(
        q(&["tools", "fmt"], Some("dev")).unwrap(),
        "toolspace.dev.tools.fmt"
    );
    assert!(matches!(
        q(&["tools", "fmt"], None),
        Err(CapError::Ambiguous { .. })
    ));
    assert_eq!(
        q(&["tools", "lint"], Some("dev")).unwrap(),
        "workspace.tools.lint",
        "falls through when not mounted"
    );
    assert!(matches!(
        q(&["tools", "nope"], None),
        Err(CapError::NotFound { .. })
    ));
}

#[test]
fn toolspace_mounts_inherit_lifecycle_policies_and_defaults() {
    let sb = Sandbox::new();
    sb.local(&cli_manifest(
        "workspace.tests.unit",
        "true",
        &[],
        json!({
            "lifecycleState": "active",
            "defaults": {"a": 1, "b": 1},
            "policies": ["forbid_network", {"name": "limit_execution", "timeoutMs": 50000}]
        }),
    ));
    sb.local(&cli_manifest(
        "workspace.tests.slow",
        "true",
        &[],
        json!({"lifecycleState": "reviewed"}),
    ));
    sb.write(
        "repo/.fornax/toolspaces/ci/toolspace.json",
        &json!({
            "manifestVersion": 1, "toolspace": "ci",
            "defaults": {"b": 2, "c": 2},
            "policies": ["require_workspace_binding"],
            "moduleMounts": [
                {"module": "check", "source": "workspace.tests", "capabilities": ["*"],
                 "defaults": {"c": 3}, "policies": [{"name": "limit_execution", "timeoutMs": 1000}]}
            ]
        }),
    );
    sb.write("repo/.fornax/toolspaces/trial/toolspace.json", &json!({
        "manifestVersion": 1, "toolspace": "trial",
        "moduleMounts": [{"source": "workspace.tests", "capabilities": ["unit"], "lifecycleState": "draft"}]
    }));
    let reg = Registry::load(&layout(&sb));
    assert!(reg.rejected.is_empty(), "{:?}", reg.rejected);
    let unit = reg.get("toolspace.ci.check.unit").unwrap();
    assert_eq!(unit.manifest.lifecycle_state.as_str(), "active");
    assert_eq!(
        serde_json::Value::Object(unit.manifest.defaults.clone()),
        json!({"a": 1, "b": 2, "c": 3})
    );
    assert_eq!(
        unit.manifest.policies,
        vec![
            json!("forbid_network"),
            json!({"name": "limit_execution", "timeoutMs": 1000}),
            json!("require_workspace_binding")
        ]
    );
    assert_eq!(unit.manifest.scope.as_str(), "toolspace-local");
    assert_eq!(
        reg.get("toolspace.ci.check.slow")
            .unwrap()
            .manifest
            .lifecycle_state
            .as_str(),
        "reviewed"
    );
    assert_eq!(
        reg.get("toolspace.trial.tests.unit")
            .unwrap()
            .manifest
            .lifecycle_state
            .as_str(),
        "draft",
        "a mount holds back"
    );
}

#[test]
fn a_bad_mount_rejects_the_whole_toolspace() {
    let sb = Sandbox::new();
    sb.local(&cli_manifest(
        "workspace.tests.unit",
        "true",
        &[],
        json!({}),
    ));
    sb.write(
        "repo/.fornax/toolspaces/ci/toolspace.json",
        &json!({
            "manifestVersion": 1, "toolspace": "ci",
            "moduleMounts": [
                {"source": "workspace.tests", "capabilities": ["unit"]},
                {"source": "workspace.tests", "capabilities": ["missing"]},
                {"source": "elsewhere.tests", "capabilities": []}
            ]
        }),
    );
    sb.write(
        "repo/.fornax/toolspaces/named/toolspace.json",
        &json!({
            "manifestVersion": 1, "toolspace": "other-name", "moduleMounts": []
        }),
    );
    let reg = Registry::load(&layout(&sb));
    assert!(
        reg.get("toolspace.ci.tests.unit").is_none(),
        "never half-loaded"
    );
    let ci = reg
        .rejected
        .iter()
        .find(|r| r.location.contains("/ci/"))
        .unwrap();
    let text = ci.problems.join("\n");
    assert!(text.contains("source must be"), "{text}");
    assert!(text.contains("non-empty array"), "{text}");
    let named = reg
        .rejected
        .iter()
        .find(|r| r.location.contains("/named/"))
        .unwrap();
    assert!(named.problems[0].contains("does not match its folder"));
    // Structurally valid but mounting a missing capability is rejected too.
    sb.write(
        "repo/.fornax/toolspaces/ci/toolspace.json",
        &json!({
            "manifestVersion": 1, "toolspace": "ci",
            "moduleMounts": [{"source": "workspace.tests", "capabilities": ["unit", "missing"]}]
        }),
    );
    let reg = Registry::load(&layout(&sb));
    assert!(reg.get("toolspace.ci.tests.unit").is_none());
    assert!(reg.rejected.iter().any(|r| r
        .problems
        .iter()
        .any(|p| p.contains("workspace.tests.missing is not a loaded capability"))));
}

#[test]
fn list_hides_non_active_unless_asked() {
    let sb = Sandbox::new();
    sb.local(&cli_manifest(
        "workspace.a.draft",
        "true",
        &[],
        json!({"lifecycleState": "draft"}),
    ));
    sb.local(&cli_manifest("workspace.a.live", "true", &[], json!({})));
    let env = sb.env();
    let list = |all: bool| {
        run(
            &env,
            CapCommand::List {
                all,
                scope: Some("workspace".into()),
                toolspace: None,
            },
        )
    };
    let shown = list(false);
    let ids: Vec<&str> = shown.json["capabilities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec!["workspace.a.live"]);
    assert_eq!(shown.json["hidden"], 1);
    let fornax_capability::CapReport::List(listed) = &shown.report else {
        panic!("list reports a list: {:?}", shown.report)
    };
    assert_eq!((listed.shown.len(), listed.hidden), (1, 1));
    let all = list(true);
    assert_eq!(all.json["capabilities"].as_array().unwrap().len(), 2);
}

#[test]
fn builtin_listing_snapshot() {
    let sb = Sandbox::new();
    let out = run(
        &sb.env(),
        CapCommand::List {
            all: false,
            scope: Some("global".into()),
            toolspace: None,
        },
    );
    insta::assert_json_snapshot!("builtin_list", out.json);
}
