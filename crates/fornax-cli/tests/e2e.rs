//! End to end, through the real binary: for every provider, a session whose agent ran a failing
//! test suite and then said "all tests pass" is CONTRADICTED.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn fornax(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
    // The daemon-down path: hooks spool, `fornax scan` stores (no daemon started by a hook).
    c.env("FORNAX_HOME", home)
        .env("FORNAX_DAEMON_AUTOSTART", "0")
        .env("NO_COLOR", "1")
        .env_remove("FORNAX_WORKSPACE");
    c
}

fn pipe(home: &Path, args: &[&str], input: &[u8]) {
    use std::io::Write;
    let mut child = fornax(home)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert!(
        out.stdout.is_empty(),
        "hooks print nothing unless a decision is due"
    );
}

fn findings(home: &Path) -> Vec<serde_json::Value> {
    let out = fornax(home).args(["findings", "--json"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["findings"].as_array().unwrap().clone()
}

#[test]
fn a_false_all_tests_pass_is_contradicted_for_every_provider() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    // Live transports: one hook process per Claude Code event, one long-lived opencode child.
    let hooks = std::fs::read_to_string(fixtures().join("e2e-live/claude.hooks.ndjson")).unwrap();
    for line in hooks.lines() {
        pipe(home, &["hook", "claude"], format!("{line}\n").as_bytes());
    }
    pipe(
        home,
        &["hook", "opencode"],
        &std::fs::read(fixtures().join("e2e-live/opencode.ndjson")).unwrap(),
    );
    let scan = fornax(home)
        .args(["scan", "--json"])
        .arg(fixtures().join("e2e"))
        .output()
        .unwrap();
    assert!(
        scan.status.success(),
        "{}",
        String::from_utf8_lossy(&scan.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&scan.stdout).unwrap();
    assert_eq!(
        summary["unrecognized"],
        serde_json::json!({}),
        "{summary:#}"
    );

    let all = findings(home);
    for provider in ["claude-code", "codex", "pi", "gemini", "opencode"] {
        let contradicted: Vec<_> = all
            .iter()
            .filter(|f| {
                f["session"]["provider"] == provider && f["claim"]["subject"] == "test_result"
            })
            .collect();
        assert!(
            !contradicted.is_empty(),
            "no test claim found for {provider}: {all:#?}"
        );
        for f in contradicted {
            assert_eq!(f["verdict"], "CONTRADICTED", "{provider}: {f:#}");
            assert!(!f["rationale"].as_str().unwrap().is_empty());
            assert!(
                !f["evidence"].as_array().unwrap().is_empty(),
                "{provider}: a verdict cites evidence"
            );
        }
    }
    // The status line Claude Code shows counts the same findings, per session.
    for f in all.iter().filter(|f| f["verdict"] == "CONTRADICTED") {
        let sid = f["session"]["native_id"].as_str().unwrap();
        let mut child = fornax(home)
            .args(["status", "--statusline"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        {
            use std::io::Write;
            let payload = serde_json::json!({"session_id": sid, "hook_event_name": "Status"});
            child
                .stdin
                .take()
                .unwrap()
                .write_all(payload.to_string().as_bytes())
                .unwrap();
        }
        let out = child.wait_with_output().unwrap();
        let line = String::from_utf8_lossy(&out.stdout);
        let session_findings: Vec<_> = all
            .iter()
            .filter(|g| g["session"]["native_id"] == sid)
            .collect();
        let contradicted = session_findings
            .iter()
            .filter(|g| g["verdict"] == "CONTRADICTED")
            .count();
        assert!(
            line.contains(&format!("✘{contradicted}")),
            "{sid}: {line:?} for {session_findings:#?}"
        );
        let verified = session_findings
            .iter()
            .filter(|g| g["verdict"] == "VERIFIED")
            .count();
        assert!(line.contains(&format!(" · ✔{verified}")), "{line:?}");
    }
    // Both Claude Code captures (hooks and transcript) are there, as different sessions.
    let claude_sessions: std::collections::BTreeSet<_> = all
        .iter()
        .filter(|f| f["session"]["provider"] == "claude-code")
        .map(|f| f["session"]["native_id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(claude_sessions.len(), 2, "{claude_sessions:?}");
}

#[test]
fn usage_errors_exit_2_and_failures_exit_1() {
    let home = tempfile::tempdir().unwrap();
    let out = fornax(home.path())
        .args(["findings", "--verdict", "MAYBE"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = fornax(home.path()).args(["sessions"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1), "no index yet");
    assert!(String::from_utf8_lossy(&out.stderr).contains("hint:"));
    let out = fornax(home.path())
        .args(["no-such-command"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn a_hook_never_fails_the_agent() {
    let home = tempfile::tempdir().unwrap();
    for input in [
        &b""[..],
        b"not json",
        b"{\"hook_event_name\": 5}",
        &[0xff, 0xfe, 0x00],
    ] {
        pipe(home.path(), &["hook", "claude"], input);
    }
}
