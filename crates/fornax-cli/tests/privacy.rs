//! Privacy controls through the real binary: `fornax forget` leaves no byte of a session under
//! `FORNAX_HOME` (database, WAL, spool, logs), `fornax redact --again` is idempotent, and
//! `[capture] exclude` is honoured by the hook, by scans and by the daemon.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

fn fornax(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
    c.env("FORNAX_HOME", home)
        .env("NO_COLOR", "1")
        .env_remove("FORNAX_WORKSPACE")
        // These tests start the daemon themselves when they want one.
        .env("FORNAX_DAEMON_AUTOSTART", "0");
    c
}

fn run(home: &Path, args: &[&str]) -> Output {
    let out = fornax(home).args(args).output().unwrap();
    assert!(
        out.status.success(),
        "fornax {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

fn run_json(home: &Path, args: &[&str]) -> Value {
    serde_json::from_slice(&run(home, args).stdout).unwrap()
}

fn hook(home: &Path, payload: &Value) {
    use std::io::Write;
    let mut child = fornax(home)
        .args(["hook", "claude"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.to_string().as_bytes())
        .unwrap();
    assert!(child.wait_with_output().unwrap().status.success());
}

/// A Claude Code transcript of one prompt and one answer.
fn transcript(session: &str, cwd: &str, prompt: &str, answer: &str) -> String {
    let base = |t: &str, uuid: &str, parent: Option<&str>| {
        json!({"parentUuid": parent, "isSidechain": false, "userType": "external",
            "cwd": cwd, "sessionId": session, "version": "2.1.119", "type": t,
            "uuid": uuid, "timestamp": "2026-03-14T08:00:00.000Z"})
    };
    let mut user = base("user", &format!("{session}-u"), None);
    user["message"] = json!({"role": "user", "content": prompt});
    let mut assistant = base(
        "assistant",
        &format!("{session}-a"),
        Some(&format!("{session}-u")),
    );
    assistant["message"] = json!({"id": format!("msg_{session}"), "type": "message",
        "role": "assistant", "model": "claude-sonnet-4-5",
        "content": [{"type": "text", "text": answer}], "stop_reason": "end_turn",
        "stop_sequence": null, "usage": {"input_tokens": 3, "output_tokens": 5}});
    format!("{user}\n{assistant}\n")
}

fn prompt_event(session: &str, cwd: &str, prompt: &str) -> Value {
    json!({"session_id": session, "transcript_path": "/nowhere/t.jsonl", "cwd": cwd,
        "permission_mode": "default", "hook_event_name": "UserPromptSubmit", "prompt": prompt})
}

/// Every file under `dir`, recursively.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

/// The files under `home` whose bytes contain `needle`.
fn holding(home: &Path, needle: &str) -> Vec<PathBuf> {
    files(home)
        .into_iter()
        .filter(|p| {
            let bytes = std::fs::read(p).unwrap_or_default();
            memchr::memmem::find(&bytes, needle.as_bytes()).is_some()
        })
        .collect()
}

fn session_ids(home: &Path) -> Vec<String> {
    let v = run_json(home, &["sessions", "--json", "--limit", "all"]);
    let rows = v
        .as_array()
        .cloned()
        .or_else(|| v["sessions"].as_array().cloned());
    rows.unwrap_or_default()
        .iter()
        .filter_map(|s| {
            s["native_id"]
                .as_str()
                .or(s["id"].as_str())
                .map(str::to_string)
        })
        .collect()
}

#[test]
fn forget_removes_every_byte_of_a_session_and_keeps_the_others() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let agent = tmp.path().join("agent");
    std::fs::create_dir_all(&agent).unwrap();
    let gone = "sess-forget-0001-aaaa";
    let kept = "sess-keep-0002-bbbb";
    let secret = "QUOKKA-PLANS-FOR-ZANZIBAR";
    let other = "the kept session talks about walruses";
    std::fs::write(
        agent.join("one.jsonl"),
        transcript(
            gone,
            "/w/one",
            &format!("{secret} prompt"),
            &format!("{secret} answer"),
        ),
    )
    .unwrap();
    std::fs::write(
        agent.join("two.jsonl"),
        transcript(kept, "/w/two", other, "walruses are large"),
    )
    .unwrap();
    // Live events of both sessions in the spool (today's open segment).
    hook(
        &home,
        &prompt_event(gone, "/w/one", &format!("{secret} live")),
    );
    hook(&home, &prompt_event(kept, "/w/two", "walruses live"));
    run(&home, &["scan", "--json", agent.to_str().unwrap()]);
    assert!(!holding(&home, secret).is_empty(), "the session was stored");
    assert_eq!(session_ids(&home).len(), 2);

    let report = run_json(&home, &["forget", gone, "--json"]);
    assert_eq!(
        report["store"]["sessions"],
        json!([format!("claude-code:{gone}")]),
        "{report}"
    );
    assert!(report["store"]["items"].as_u64().unwrap() >= 2, "{report}");
    assert!(report["spool"]["lines"].as_u64().unwrap() >= 1, "{report}");

    let left = holding(&home, secret);
    assert!(left.is_empty(), "{secret} still in {left:?}");
    let left = holding(&home, gone);
    assert!(left.is_empty(), "{gone} still in {left:?}");
    // The other session is whole and searchable; a rescan does not bring the forgotten back.
    run(&home, &["scan", "--json", agent.to_str().unwrap()]);
    assert_eq!(session_ids(&home), vec![kept.to_string()]);
    assert!(holding(&home, secret).is_empty());
    let found = run(&home, &["search", "walruses", "--json"]);
    assert!(String::from_utf8_lossy(&found.stdout).contains("walruses"));
    // Forgetting what is not there says so and fails.
    let out = fornax(&home).args(["forget", gone]).output().unwrap();
    assert!(!out.status.success());
}

#[test]
fn forget_a_project_takes_its_sessions() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let agent = tmp.path().join("agent");
    std::fs::create_dir_all(&agent).unwrap();
    std::fs::write(
        agent.join("a.jsonl"),
        transcript("proj-a-1111", "/w/client/x", "alpha", "a"),
    )
    .unwrap();
    std::fs::write(
        agent.join("b.jsonl"),
        transcript("proj-b-2222", "/w/client", "beta", "b"),
    )
    .unwrap();
    std::fs::write(
        agent.join("c.jsonl"),
        transcript("proj-c-3333", "/w/clients", "gamma", "c"),
    )
    .unwrap();
    run(&home, &["scan", "--json", agent.to_str().unwrap()]);
    let report = run_json(&home, &["forget", "--project", "/w/client", "--json"]);
    assert_eq!(
        report["store"]["sessions"].as_array().unwrap().len(),
        2,
        "{report}"
    );
    assert_eq!(session_ids(&home), vec!["proj-c-3333".to_string()]);
}

#[test]
fn redact_again_is_idempotent_and_counts_what_it_read() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let agent = tmp.path().join("agent");
    std::fs::create_dir_all(&agent).unwrap();
    std::fs::write(
        agent.join("s.jsonl"),
        transcript(
            "redo-1",
            "/w/r",
            "export AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            "ok",
        ),
    )
    .unwrap();
    run(&home, &["scan", "--json", agent.to_str().unwrap()]);
    let first = run_json(&home, &["redact", "--again", "--json"]);
    assert!(first["values"].as_u64().unwrap() > 0, "{first}");
    assert_eq!(
        first["changed"], 0,
        "freshly stored values are already redacted: {first}"
    );
    let out = fornax(&home).arg("redact").output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "without --again there is nothing to do"
    );
}

/// Streams `lines` to `fornax hook opencode` started in `cwd`, as opencode's plugin does.
fn opencode_plugin(home: &Path, cwd: &Path, lines: &[Value]) {
    use std::io::Write;
    let mut child = fornax(home)
        .args(["hook", "opencode"])
        .current_dir(cwd)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    for line in lines {
        writeln!(stdin, "{line}").unwrap();
    }
    drop(stdin);
    assert!(child.wait().unwrap().success());
}

fn plugin_message(session: &str, text: &str) -> Value {
    json!({"hook": "chat.message", "at": "2026-03-14T08:00:00.000Z", "payload": {
        "input": {"sessionID": session},
        "output": {"message": {"id": format!("msg_{session}"), "sessionID": session,
            "role": "user"},
            "parts": [{"id": format!("prt_{session}"), "sessionID": session,
                "messageID": format!("msg_{session}"), "type": "text", "text": text}]}}})
}

#[test]
fn an_opencode_plugin_in_an_excluded_project_keeps_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let secret = tmp.path().join("client-work");
    let open = tmp.path().join("side-project");
    for dir in [&home, &secret, &open] {
        std::fs::create_dir_all(dir).unwrap();
    }
    let secret = std::fs::canonicalize(&secret).unwrap();
    std::fs::write(
        home.join("config.toml"),
        format!("[capture]\nexclude = [\"{}\"]\n", secret.display()),
    )
    .unwrap();
    opencode_plugin(
        &home,
        &secret,
        &[plugin_message("ses_excluded01", "EXCLUDED-PLUGIN-TEXT")],
    );
    opencode_plugin(
        &home,
        &open,
        &[plugin_message("ses_captured01", "captured plugin text")],
    );
    assert!(holding(&home, "EXCLUDED-PLUGIN-TEXT").is_empty());
    assert!(!holding(&home, "captured plugin text").is_empty());
}

#[test]
fn excluded_paths_are_not_captured_by_hook_scan_or_daemon() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let agent = tmp.path().join("agent");
    let hidden_dir = tmp.path().join("hidden-agent");
    std::fs::create_dir_all(&agent).unwrap();
    std::fs::create_dir_all(&hidden_dir).unwrap();
    std::fs::write(
        home.join("config.toml"),
        format!(
            "[capture]\nexclude = [\"/w/secret/\", \"{}\"]\n",
            hidden_dir.display()
        ),
    )
    .unwrap();
    // Hook: an event in an excluded project never reaches the spool.
    hook(
        &home,
        &prompt_event("hook-x", "/w/secret/sub", "EXCLUDED-HOOK-TEXT"),
    );
    hook(
        &home,
        &prompt_event("hook-ok", "/w/open", "captured hook text"),
    );
    assert!(holding(&home, "EXCLUDED-HOOK-TEXT").is_empty());
    assert!(!holding(&home, "captured hook text").is_empty());
    // Scan: a session that ran in an excluded path, and a file under an excluded path.
    std::fs::write(
        agent.join("x.jsonl"),
        transcript("scan-x", "/w/secret", "EXCLUDED-SCAN-TEXT", "no"),
    )
    .unwrap();
    std::fs::write(
        hidden_dir.join("h.jsonl"),
        transcript("scan-h", "/w/open", "EXCLUDED-FILE-TEXT", "no"),
    )
    .unwrap();
    std::fs::write(
        agent.join("ok.jsonl"),
        transcript("scan-ok", "/w/open", "captured scan text", "yes"),
    )
    .unwrap();
    let summary = run_json(
        &home,
        &[
            "scan",
            "--json",
            agent.to_str().unwrap(),
            hidden_dir.to_str().unwrap(),
        ],
    );
    for text in [
        "EXCLUDED-SCAN-TEXT",
        "EXCLUDED-FILE-TEXT",
        "EXCLUDED-HOOK-TEXT",
    ] {
        assert!(
            holding(&home, text).is_empty(),
            "{text} captured: {summary}"
        );
    }
    let ids = session_ids(&home);
    assert!(
        ids.contains(&"scan-ok".to_string()) && ids.contains(&"hook-ok".to_string()),
        "{ids:?}"
    );
    assert!(
        !ids.iter().any(|i| i == "scan-x" || i == "scan-h"),
        "{ids:?}"
    );
    // The config shows the list.
    let config = run(&home, &["config"]);
    assert!(String::from_utf8_lossy(&config.stdout).contains("/w/secret"));
    let doctor = run_json(&home, &["doctor", "--json"]);
    assert_eq!(doctor["capture_exclude"][0], "/w/secret", "{doctor}");

    // Daemon: a session in an excluded path, written while it runs, is not stored.
    let live = tmp.path().join("live");
    std::fs::create_dir_all(&live).unwrap();
    let config = std::fs::read_to_string(home.join("config.toml")).unwrap();
    std::fs::write(
        home.join("config.toml"),
        format!("{config}[roots]\nclaude = [\"{}\"]\n", live.display()),
    )
    .unwrap();
    let mut daemon = fornax(&home)
        .args(["daemon", "run"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let wait_for = |cond: &dyn Fn() -> bool| {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        while !cond() && std::time::Instant::now() < deadline {
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
    };
    wait_for(&|| home.join("fornax.sock").exists());
    std::fs::write(
        live.join("x.jsonl"),
        transcript("live-x", "/w/secret/a", "EXCLUDED-LIVE-TEXT", "no"),
    )
    .unwrap();
    std::fs::write(
        live.join("ok.jsonl"),
        transcript("live-ok", "/w/open", "captured live text", "yes"),
    )
    .unwrap();
    wait_for(&|| session_ids(&home).contains(&"live-ok".to_string()));
    let _ = fornax(&home).args(["daemon", "stop"]).output();
    let _ = daemon.wait();
    assert!(
        session_ids(&home).contains(&"live-ok".to_string()),
        "the daemon stored nothing"
    );
    assert!(holding(&home, "EXCLUDED-LIVE-TEXT").is_empty());
    assert!(!session_ids(&home).contains(&"live-x".to_string()));
}
