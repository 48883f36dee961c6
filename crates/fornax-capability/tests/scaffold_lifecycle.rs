//! Scaffolding → doctor → promote → run, round trip; never overwrite; lifecycle rewrites.

mod common;

use common::*;
use fornax_capability::commands::{CapCommand, InitCommand};
use fornax_capability::CapError;
use serde_json::{json, Value};

fn init(env: &fornax_capability::CapEnv, what: InitCommand) -> Result<Value, CapError> {
    try_run(env, CapCommand::Init { what }).map(|o| o.json)
}

fn change(
    env: &fornax_capability::CapEnv,
    id: &str,
    to: &str,
    promote: bool,
) -> Result<Value, CapError> {
    let target = vec![id.to_string()];
    let cmd = if promote {
        CapCommand::Promote {
            target,
            to: to.to_string(),
        }
    } else {
        CapCommand::Demote {
            target,
            to: to.to_string(),
        }
    };
    try_run(env, cmd).map(|o| o.json)
}

#[test]
fn scaffolding_and_doctor_round_trip() {
    let sb = Sandbox::new();
    let env = sb.env();
    let created = init(
        &env,
        InitCommand::Capability {
            id: "workspace.hello.greet".into(),
        },
    )
    .unwrap();
    let path = created["created"][0].as_str().unwrap().to_string();
    assert!(
        path.ends_with(".fornax/capabilities/hello.greet.json"),
        "{path}"
    );
    init(
        &env,
        InitCommand::Capability {
            id: "global.hello.wave".into(),
        },
    )
    .unwrap();
    assert!(sb.home.join("capabilities/hello.wave.json").is_file());
    init(&env, InitCommand::Toolspace { name: "ci".into() }).unwrap();
    let files = init(
        &env,
        InitCommand::Adapter {
            name: "greeter".into(),
            kind: "provider".into(),
            composes: "cli".into(),
            toolspace: Some("ci".into()),
        },
    )
    .unwrap();
    assert_eq!(files["created"].as_array().unwrap().len(), 2);
    init(
        &env,
        InitCommand::Adapter {
            name: "cli".into(),
            kind: "type".into(),
            composes: "cli".into(),
            toolspace: None,
        },
    )
    .unwrap_err();
    init(
        &env,
        InitCommand::Adapter {
            name: "shout".into(),
            kind: "provider".into(),
            composes: "cli".into(),
            toolspace: None,
        },
    )
    .unwrap();
    assert!(sb.home.join("adapters/shout/adapter.rhai").is_file());

    // Everything scaffolded loads cleanly; the empty toolspace's adapters are reported orphaned.
    let report = doctor(&env);
    assert_eq!(report["capabilities"]["rejected"], json!([]), "{report}");
    assert_eq!(report["adapters"]["rejected"], json!([]), "{report}");
    assert_eq!(report["missing"], json!([]), "{report}");
    assert_eq!(
        report["orphanedToolspaceAdapters"][0]["reason"],
        "its toolspace.json mounts nothing"
    );
    let loaded: Vec<&str> = report["adapters"]["loaded"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["name"].as_str().unwrap())
        .collect();
    assert!(
        loaded.contains(&"greeter") && loaded.contains(&"shout"),
        "{loaded:?}"
    );

    // Drafts are hidden and refused until promoted on purpose.
    let list = run(
        &env,
        CapCommand::List {
            all: false,
            scope: Some("workspace".into()),
            toolspace: None,
        },
    );
    assert_eq!(list.json["capabilities"], json!([]));
    assert_eq!(run(&env, cap_run("hello.greet", &[])).exit_code, 1);
    let changed = change(&env, "workspace.hello.greet", "active", true).unwrap();
    assert_eq!(changed["from"], "draft");
    assert_eq!(changed["to"], "active");
    let out = run(&env, cap_run("hello.greet", &[]));
    assert_eq!(out.exit_code, 0, "{}", out.json);
    assert_eq!(out.json["data"], "greet");

    // Mount it in the toolspace with the scaffolded provider; the toolspace is a draft, so the
    // mounted capability is held back until the toolspace itself is promoted.
    let ts_path = sb.workspace.join(".fornax/toolspaces/ci/toolspace.json");
    let mut ts: Value = serde_json::from_str(&std::fs::read_to_string(&ts_path).unwrap()).unwrap();
    ts["moduleMounts"] = json!([{"source": "workspace.hello", "capabilities": ["greet"]}]);
    std::fs::write(&ts_path, ts.to_string()).unwrap();
    let mut cap: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    cap["providerAdapter"] = json!("greeter");
    std::fs::write(&path, cap.to_string()).unwrap();
    let report = doctor(&env);
    assert_eq!(report["orphanedToolspaceAdapters"], json!([]), "{report}");
    assert!(
        report["missing"]
            .to_string()
            .contains("workspace.hello.greet"),
        "greeter is private to ci: {report}"
    );
    // The files were edited by hand: the user trusts them again after looking.
    sb.trust_workspace();
    let out = run(
        &env,
        CapCommand::Run {
            target: vec!["toolspace.ci.hello.greet".into()],
            args: vec![],
            args_json: None,
            any_lifecycle: true,
            session: None,
            toolspace: None,
            trust_once: false,
        },
    );
    assert_eq!(out.exit_code, 0, "{}", out.json);
    assert_eq!(out.json["meta"]["wrappedBy"], "greeter");
    assert!(
        out.json["meta"]["warnings"]
            .to_string()
            .contains("adapter \\\"greeter\\\" is draft"),
        "{}",
        out.json
    );
    let err = change(&env, "toolspace.ci.hello.greet", "active", true)
        .unwrap_err()
        .to_string();
    assert!(err.contains("toolspace ci is draft"), "{err}");
}

#[test]
fn scaffolding_never_overwrites() {
    let sb = Sandbox::new();
    let env = sb.env();
    init(
        &env,
        InitCommand::Capability {
            id: "workspace.a.b".into(),
        },
    )
    .unwrap();
    let path = sb.workspace.join(".fornax/capabilities/a.b.json");
    std::fs::write(&path, "{\"mine\": true}").unwrap();
    let err = init(
        &env,
        InitCommand::Capability {
            id: "workspace.a.b".into(),
        },
    )
    .unwrap_err();
    assert!(matches!(err, CapError::AlreadyExists { .. }), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "{\"mine\": true}");
    init(&env, InitCommand::Toolspace { name: "t".into() }).unwrap();
    assert!(matches!(
        init(&env, InitCommand::Toolspace { name: "t".into() }),
        Err(CapError::AlreadyExists { .. })
    ));
    init(
        &env,
        InitCommand::Adapter {
            name: "p".into(),
            kind: "provider".into(),
            composes: "cli".into(),
            toolspace: None,
        },
    )
    .unwrap();
    assert!(matches!(
        init(
            &env,
            InitCommand::Adapter {
                name: "p".into(),
                kind: "provider".into(),
                composes: "cli".into(),
                toolspace: None
            }
        ),
        Err(CapError::AlreadyExists { .. })
    ));
    assert!(matches!(
        init(
            &env,
            InitCommand::Capability {
                id: "toolspace.t.a.b".into()
            }
        ),
        Err(CapError::Usage(_))
    ));
    assert!(matches!(
        init(&env, InitCommand::Capability { id: "nope".into() }),
        Err(CapError::InvalidId { .. })
    ));
}

#[test]
fn promote_and_demote_rewrite_after_validation() {
    let sb = Sandbox::new();
    let path = sb.local(&cli_manifest(
        "workspace.l.c",
        "true",
        &[],
        json!({"lifecycleState": "reviewed", "x-note": "kept"}),
    ));
    let env = sb.env();
    assert!(
        change(&env, "workspace.l.c", "draft", true).is_err(),
        "promote must move forward"
    );
    assert!(
        change(&env, "workspace.l.c", "active", false).is_err(),
        "demote must move back"
    );
    assert!(matches!(
        change(&env, "workspace.l.c", "live", true),
        Err(CapError::Usage(_))
    ));
    change(&env, "workspace.l.c", "draft", false).unwrap();
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(v["lifecycleState"], "draft");
    assert_eq!(v["x-note"], "kept");
    assert!(change(&env, "global.echo.say", "draft", false)
        .unwrap_err()
        .to_string()
        .contains("built-in"));

    // A manifest that became invalid on disk is not rewritten.
    sb.local(&cli_manifest(
        "workspace.l.d",
        "true",
        &[],
        json!({"lifecycleState": "draft"}),
    ));
    let env2 = sb.env();
    let rt = env2.runtime();
    let cap = rt.registry.get("workspace.l.d").unwrap().clone();
    let file = sb.workspace.join(".fornax/capabilities/workspace.l.d.json");
    let mut broken: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    broken["adapterType"] = json!("rpc");
    std::fs::write(&file, broken.to_string()).unwrap();
    let err = fornax_capability::lifecycle::change(
        &rt.registry,
        &cap,
        fornax_capability::LifecycleState::Active,
        fornax_capability::lifecycle::Direction::Promote,
    )
    .unwrap_err();
    assert!(matches!(err, CapError::InvalidManifest { .. }), "{err}");
    let after: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(after["lifecycleState"], "draft");
}

#[test]
fn mounted_promotion_is_bounded_by_its_source() {
    let sb = Sandbox::new();
    sb.local(&cli_manifest(
        "workspace.m.c",
        "true",
        &[],
        json!({"lifecycleState": "reviewed"}),
    ));
    sb.write("repo/.fornax/toolspaces/ts/toolspace.json", &json!({
        "manifestVersion": 1, "toolspace": "ts",
        "moduleMounts": [{"source": "workspace.m", "capabilities": ["c"], "lifecycleState": "draft"}]
    }));
    let env = sb.env();
    let err = change(&env, "toolspace.ts.m.c", "active", true)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("its source workspace.m.c is reviewed"),
        "{err}"
    );
    change(&env, "toolspace.ts.m.c", "reviewed", true).unwrap();
    let reg = env.runtime().registry;
    assert_eq!(
        reg.get("toolspace.ts.m.c")
            .unwrap()
            .manifest
            .lifecycle_state
            .as_str(),
        "reviewed"
    );
}
