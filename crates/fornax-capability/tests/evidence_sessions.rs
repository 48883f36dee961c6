//! Evidence of runs: host-observed process observations tied to a session when asked or
//! when the workspace and time match one; history capabilities through the History trait.

mod common;

use std::sync::Arc;

use common::*;
use fornax_capability::commands::CapCommand;
use fornax_capability::evidence::unattached_session;
use fornax_capability::CapError;
use fornax_types::{ClockSource, Provider, SessionRef};
use serde_json::json;

/// `run TARGET... [--session S] [--arg|-a K=V]... [--args-json J]` as a request (the binary
/// owns the real command line; these tests only need its shape).
fn parse(args: &[&str]) -> CapCommand {
    assert_eq!(args[0], "run");
    let mut target = Vec::new();
    let (mut session, mut kv, mut args_json) = (None, Vec::new(), None);
    let mut rest = args[1..].iter();
    while let Some(a) = rest.next() {
        match *a {
            "--session" => session = rest.next().map(|s| s.to_string()),
            "--arg" | "-a" => kv.push(rest.next().unwrap().to_string()),
            "--args-json" => args_json = rest.next().map(|s| s.to_string()),
            t => target.push(t.to_string()),
        }
    }
    CapCommand::Run {
        target,
        args: kv,
        args_json,
        any_lifecycle: false,
        session,
        toolspace: None,
        trust_once: false,
    }
}

fn setup() -> Sandbox {
    let sb = Sandbox::new();
    sb.local(&cli_manifest("workspace.ev.true", "true", &[], json!({})));
    sb
}

#[test]
fn explicit_session_ties_the_evidence() {
    let sb = setup();
    let out = run(
        &sb.env(),
        parse(&["run", "workspace.ev.true", "--session", "codex:abc-123"]),
    );
    assert_eq!(out.exit_code, 0);
    assert_eq!(out.evidence.len(), 1);
    let e = &out.evidence[0];
    assert_eq!(e.session, SessionRef::new(Provider::Codex, "abc-123"));
    assert_eq!(e.source.freshness.clock, ClockSource::HostClock);
    assert!(e.source.collected_at.as_deref().unwrap().ends_with('Z'));
    assert!(e.at.is_some());
    assert_eq!(
        out.json["meta"]["session"],
        json!({"provider": "codex", "nativeId": "abc-123"})
    );
    assert_eq!(out.json["meta"]["evidence"][0], json!(e.id));

    // A bare id is resolved through the history; an unknown one is a usage error.
    let history = Arc::new(FakeHistory::default());
    let env = sb.env_with_history(history);
    let out = run(
        &env,
        parse(&["run", "workspace.ev.true", "--session", "s-1"]),
    );
    assert_eq!(
        out.evidence[0].session,
        SessionRef::new(Provider::Codex, "s-1")
    );
    let err = try_run(
        &env,
        parse(&["run", "workspace.ev.true", "--session", "zzz"]),
    )
    .unwrap_err();
    assert!(matches!(err, CapError::Usage(_)), "{err}");
}

#[test]
fn workspace_and_time_match_a_session() {
    let sb = setup();
    let active = SessionRef::new(Provider::ClaudeCode, "live-1");
    let history = Arc::new(FakeHistory::with_active(active.clone()));
    let out = run(
        &sb.env_with_history(history.clone()),
        parse(&["run", "workspace.ev.true"]),
    );
    assert_eq!(out.evidence[0].session, active);
    let calls = history.session_at_calls.lock().unwrap();
    assert_eq!(calls.len(), 1);
    assert_eq!(calls[0].0, sb.workspace);
    assert!(calls[0].1.ends_with('Z'), "RFC 3339 time: {}", calls[0].1);
}

#[test]
fn runs_outside_any_session_are_filed_apart() {
    let sb = setup();
    let out = run(&sb.env(), parse(&["run", "workspace.ev.true"]));
    assert_eq!(out.evidence[0].session, unattached_session());
    assert!(out.json["meta"].get("session").is_none());
}

#[test]
fn history_capabilities_go_through_the_trait() {
    let sb = Sandbox::new();
    let env = sb.env_with_history(Arc::new(FakeHistory::default()));
    let out = run(
        &env,
        parse(&[
            "run",
            "fornax",
            "search",
            "--arg",
            "text=cargo test",
            "--arg",
            "limit=5",
        ]),
    );
    assert_eq!(out.json["data"]["hits"][0]["text"], "... cargo test ...");
    let out = run(
        &env,
        parse(&[
            "run",
            "fornax.sessions",
            "--args-json",
            r#"{"provider": "codex"}"#,
        ]),
    );
    assert_eq!(out.json["data"]["sessions"].as_array().unwrap().len(), 1);
    let out = run(
        &env,
        parse(&["run", "global.fornax.session", "-a", "id=s-1"]),
    );
    assert_eq!(out.json["data"]["native_id"], "s-1");
    let out = run(
        &env,
        parse(&["run", "global.fornax.session", "-a", "id=nope"]),
    );
    assert_eq!(out.exit_code, 1);
    assert_eq!(out.json["error"]["message"], "no session nope");
    let out = run(
        &env,
        parse(&["run", "fornax", "findings", "-a", "session=s-1"]),
    );
    assert_eq!(out.json["data"]["findings"][0]["verdict"], "VERIFIED");
    assert!(out.evidence.is_empty(), "in-process handlers spawn nothing");

    let bare = sb.env();
    let out = run(&bare, parse(&["run", "fornax", "search", "-a", "text=x"]));
    assert_eq!(out.exit_code, 1);
    assert!(out.json["error"]["message"]
        .as_str()
        .unwrap()
        .contains("history is not available"));
}

#[test]
fn malformed_and_unknown_requests_are_usage_and_lookup_errors() {
    let sb = Sandbox::new();
    let err = try_run(
        &sb.env(),
        parse(&["run", "echo", "say", "--arg", "novalue"]),
    )
    .unwrap_err();
    assert!(err.to_string().contains("KEY=VALUE"), "{err}");
    let err = try_run(&sb.env(), parse(&["run", "nothing.here"])).unwrap_err();
    assert!(matches!(err, CapError::NotFound { .. }));
}
