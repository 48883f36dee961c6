//! The cli type adapter with real processes: argument translation, working directory,
//! environment, JSON/text output, failures, timeout, output cap, exit codes.

mod common;

use common::*;
use fornax_capability::commands::CapCommand;
use serde_json::{json, Value};

fn args_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string"},
            "count": {"type": "integer"},
            "verbose": {"type": "boolean"},
            "quiet": {"type": "boolean"},
            "skip": {"type": ["string", "null"]},
            "tag": {"type": "array", "items": {"type": "string"}},
            "path": {"type": "string"},
            "filter": {"type": "string"}
        }
    })
}

#[test]
fn args_translate_to_flags_with_arg_map_overrides() {
    let sb = Sandbox::new();
    sb.local(&cli_manifest(
        "workspace.show.argv",
        "printf",
        &["%s\\n"],
        json!({
            "argsSchema": args_schema(),
            "argMap": {"filter": "-k", "path": {"positional": true}},
            "defaults": {"count": 2}
        }),
    ));
    let out = run(
        &sb.env(),
        CapCommand::Run {
            target: vec!["show".into(), "argv".into()],
            args: vec![
                "name=x y".into(),
                "verbose=true".into(),
                "quiet=false".into(),
                "tag=a,b".into(),
                "path=src/lib.rs".into(),
                "filter=smoke".into(),
            ],
            args_json: Some(r#"{"skip": null}"#.into()),
            any_lifecycle: false,
            session: None,
            toolspace: None,
            trust_once: false,
        },
    );
    assert_eq!(out.exit_code, 0, "{:?}", out.report);
    let lines: Vec<&str> = out.json["data"].as_str().unwrap().lines().collect();
    assert_eq!(
        lines,
        // Values are bound to their flags and positional values follow `--`: no value can be
        // read as a flag.
        vec![
            "--name=x y",
            "--count=2",
            "--verbose",
            "--tag=a",
            "--tag=b",
            "-k",
            "smoke",
            "--",
            "src/lib.rs"
        ]
    );
    assert_eq!(out.json["meta"]["argv"][0], "printf");
}

#[test]
fn json_stdout_is_parsed_and_text_is_trimmed() {
    let sb = Sandbox::new();
    sb.local(&cli_manifest(
        "workspace.out.json",
        "printf",
        &[r#"  {"a": [1, 2]}  "#],
        json!({}),
    ));
    sb.local(&cli_manifest(
        "workspace.out.text",
        "printf",
        &["\n  hello world \n\n"],
        json!({}),
    ));
    let env = sb.env();
    let j = run(&env, cap_run("workspace.out.json", &[]));
    assert_eq!(j.json["data"], json!({"a": [1, 2]}));
    let t = run(&env, cap_run("workspace.out.text", &[]));
    assert_eq!(t.json["data"], json!("hello world"));
    assert_eq!(t.json["ok"], true);
    assert_eq!(t.json["meta"]["capabilityId"], "workspace.out.text");
    assert_eq!(t.json["meta"]["adapterType"], "cli");
    assert_eq!(t.json["meta"]["providerAdapter"], Value::Null);
    assert!(t.json["meta"]["durations"]["totalMs"].is_u64());
}

#[test]
fn working_directory_and_environment_are_explicit() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.workspace.join("sub")).unwrap();
    sb.local(&cli_manifest("workspace.where.pwd", "pwd", &[], json!({})));
    sb.local(&cli_manifest(
        "workspace.where.sub",
        "pwd",
        &[],
        json!({"executionTarget": {"command": "pwd", "cwd": "sub"}}),
    ));
    sb.local(&cli_manifest(
        "workspace.where.env",
        "env",
        &[],
        json!({"executionTarget": {"command": "env", "env": {"GREETING": "hi"}}}),
    ));
    let mut env = sb.env();
    env.cwd = sb.workspace.join("sub");
    let canonical = |p: &std::path::Path| p.canonicalize().unwrap();
    let pwd = run(&env, cap_run("workspace.where.pwd", &[]));
    assert_eq!(
        canonical(pwd.json["data"].as_str().unwrap().as_ref()),
        canonical(&sb.workspace),
        "defaults to the workspace root"
    );
    let sub = run(&env, cap_run("workspace.where.sub", &[]));
    assert_eq!(
        canonical(sub.json["data"].as_str().unwrap().as_ref()),
        canonical(&sb.workspace.join("sub"))
    );
    let out = run(&env, cap_run("workspace.where.env", &[]));
    let text = out.json["data"].as_str().unwrap();
    let names: Vec<&str> = text
        .lines()
        .filter_map(|l| l.split_once('='))
        .map(|(k, _)| k)
        .collect();
    assert!(text.contains("GREETING=hi"), "{text}");
    assert!(
        text.contains("FORNAX_CAPABILITY_ID=workspace.where.env"),
        "{text}"
    );
    assert!(names.contains(&"PATH"));
    assert!(
        !names.contains(&"CARGO_MANIFEST_DIR"),
        "cargo's test environment must not leak: {names:?}"
    );
    assert!(!names.contains(&"CARGO_PKG_NAME"), "{names:?}");
}

#[test]
fn non_zero_exit_fails_with_stderr_and_status() {
    let sb = Sandbox::new();
    sb.local(&cli_manifest(
        "workspace.fail.ls",
        "ls",
        &["/definitely/not/here"],
        json!({}),
    ));
    let out = run(&sb.env(), cap_run("workspace.fail.ls", &[]));
    assert_eq!(out.exit_code, 1);
    assert_eq!(out.json["ok"], false);
    let message = out.json["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("`ls` exited with status 2"),
        "{message}"
    );
    assert!(
        message.contains("/definitely/not/here"),
        "stderr is in the message: {message}"
    );
    assert_eq!(out.json["meta"]["exitCode"], 2);
    let fornax_capability::CapReport::Run(run) = &out.report else {
        panic!("a run reports a run: {:?}", out.report)
    };
    assert!(
        !run.ok
            && run
                .error
                .as_deref()
                .is_some_and(|e| e.starts_with("`ls` exited with status 2")),
        "{run:?}"
    );
}

#[test]
fn missing_program_is_a_failure_not_a_panic() {
    let sb = Sandbox::new();
    sb.local(&cli_manifest(
        "workspace.fail.missing",
        "fornax-no-such-program-xyz",
        &[],
        json!({}),
    ));
    let out = run(&sb.env(), cap_run("workspace.fail.missing", &[]));
    assert_eq!(out.exit_code, 1);
    assert!(
        out.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("could not start"),
        "{}",
        out.json
    );
    assert!(out.evidence.len() == 1, "a spawn attempt is still observed");
}

#[test]
fn timeout_kills_the_process_group() {
    let sb = Sandbox::new();
    sb.local(&cli_manifest(
        "workspace.slow.sleep",
        "sleep",
        &["30"],
        json!({"executionTarget": {"command": "sleep", "args": ["30"], "timeoutMs": 300}}),
    ));
    let started = std::time::Instant::now();
    let out = run(&sb.env(), cap_run("workspace.slow.sleep", &[]));
    assert!(
        started.elapsed().as_secs() < 10,
        "took {:?}",
        started.elapsed()
    );
    assert_eq!(out.exit_code, 1);
    assert_eq!(out.json["meta"]["timedOut"], true);
    assert!(
        out.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("timed out after"),
        "{}",
        out.json
    );
}

#[test]
fn output_is_capped() {
    let sb = Sandbox::new();
    sb.local(&cli_manifest("workspace.big.seq", "seq", &["1", "200000"], json!({"executionTarget": {"command": "seq", "args": ["1", "200000"], "maxOutputBytes": 100}})));
    let out = run(&sb.env(), cap_run("workspace.big.seq", &[]));
    assert_eq!(out.exit_code, 0);
    assert!(out.json["data"].as_str().unwrap().len() <= 100);
    assert_eq!(out.json["meta"]["stdoutTruncated"], true);
    assert!(out.json["meta"]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_str().unwrap().contains("truncated")));
}

#[test]
fn invalid_arguments_fail_before_spawning() {
    let sb = Sandbox::new();
    let marker = sb.workspace.join("spawned");
    sb.local(&cli_manifest("workspace.args.strict", "touch", &[marker.to_str().unwrap()], json!({
        "argsSchema": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1}}, "required": ["n"]},
        "argMap": {"n": {"positional": true}}
    })));
    let env = sb.env();
    let out = run(&env, cap_run("workspace.args.strict", &["n=zero"]));
    assert_eq!(out.exit_code, 1);
    assert!(
        out.json["error"]["message"]
            .as_str()
            .unwrap()
            .contains("not an integer"),
        "{}",
        out.json
    );
    let out = run(&env, cap_run("workspace.args.strict", &[]));
    assert!(
        out.json["meta"]["argErrors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|e| e.as_str().unwrap().contains("\"n\" is a required property")),
        "{}",
        out.json
    );
    assert!(!marker.exists());
    let out = run(&env, cap_run("workspace.args.strict", &["n=3"]));
    assert_eq!(out.exit_code, 0, "{}", out.json);
    assert!(marker.exists());
}

#[test]
fn internal_echo_runs_in_process() {
    let sb = Sandbox::new();
    let env = sb.env();
    let out = run(
        &env,
        CapCommand::Run {
            target: vec!["echo".into(), "say".into()],
            args: vec!["text=hello".into(), "uppercase=yes".into()],
            args_json: None,
            any_lifecycle: false,
            session: None,
            toolspace: None,
            trust_once: false,
        },
    );
    assert_eq!(out.json["data"], json!({"text": "HELLO"}));
    assert_eq!(out.json["meta"]["adapterType"], "internal");
    assert!(out.evidence.is_empty(), "no process ran");
    let bad = run(&env, cap_run("global.echo.say", &["wat=1"]));
    assert_eq!(bad.exit_code, 1);
}
