//! GitHub Copilot CLI and Cursor end to end, through the real binary, from our fixtures in
//! their real shapes: an agent that ran a failing test suite and then said all tests pass is
//! CONTRADICTED, from Copilot's session log, from Copilot's and Cursor's hooks; a Cursor text
//! transcript, which stores no tool results, gives UNAVAILABLE instead; hooks and the log of
//! one Copilot session keep one fact per hooked call.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

fn fornax(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
    // The daemon-down path: hooks spool, `fornax scan` stores (no daemon started by a hook).
    c.env("FORNAX_HOME", home)
        .env("FORNAX_DAEMON_AUTOSTART", "0")
        .env("NO_COLOR", "1")
        .env_remove("FORNAX_WORKSPACE");
    c
}

/// The native events of an adapter crate's golden fixture.
fn fixture_events(krate: &str, name: &str) -> Vec<Value> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(krate)
        .join("tests/fixtures")
        .join(format!("{name}.json"));
    let v: Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    v["native_events"].as_array().unwrap().clone()
}

/// Runs a hook with `payload` on stdin; returns its stdout.
fn hook(home: &Path, args: &[&str], payload: &str) -> String {
    let mut child = fornax(home)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "a hook always exits 0");
    String::from_utf8(out.stdout).unwrap()
}

fn scan(home: &Path, dir: &Path) -> Value {
    let out = fornax(home)
        .args(["scan", "--json"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        summary["unrecognized"],
        serde_json::json!({}),
        "{summary:#}"
    );
    assert_eq!(summary["errors"], serde_json::json!([]), "{summary:#}");
    summary
}

fn findings(home: &Path) -> Vec<Value> {
    let out = fornax(home).args(["findings", "--json"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["findings"].as_array().unwrap().clone()
}

fn query(home: &Path, sql: &str) -> Vec<Vec<Value>> {
    let out = fornax(home)
        .args(["query", "--json", sql])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    serde_json::from_value(v["rows"].clone()).unwrap()
}

fn test_claims<'a>(all: &'a [Value], session: &str) -> Vec<&'a Value> {
    all.iter()
        .filter(|f| f["session"]["native_id"] == session && f["claim"]["subject"] == "test_result")
        .collect()
}

fn write_lines(path: &Path, lines: &[Value]) -> PathBuf {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(path, text).unwrap();
    path.to_path_buf()
}

const COPILOT: &str = "5b0e7c1a-9d42-4f6e-b3a8-2c71d0e94f15";
const CURSOR: &str = "7d3b0e52-9c14-4a8f-b6e2-4f1a0d9c8b37";

#[test]
fn copilot_session_log_and_hooks_contradict_a_false_all_tests_pass() {
    let work = tempfile::tempdir().unwrap();
    let home = work.path().join("home");
    // Live: every hook Copilot would run for the session, one process each.
    for h in fixture_events("fornax-adapter-copilot", "hooks_v1_0_55_prompt_tools_stop") {
        let event = h["hookType"].as_str().unwrap();
        let out = hook(&home, &["hook", "copilot", event], &h["input"].to_string());
        assert_eq!(out, "", "Copilot reads no answer from these hooks");
    }
    // Then the session log itself, where Copilot keeps it.
    let data = work.path().join("data");
    let log = data.join(format!(".copilot/session-state/{COPILOT}/events.jsonl"));
    write_lines(
        &log,
        &fixture_events(
            "fornax-adapter-copilot",
            "v1_0_55_tool_loop_subagent_shutdown",
        ),
    );
    scan(&home, &data);

    let all = findings(&home);
    let claims = test_claims(&all, COPILOT);
    assert!(!claims.is_empty(), "{all:#?}");
    for f in &claims {
        assert_eq!(f["verdict"], "CONTRADICTED", "{f:#}");
        assert!(!f["evidence"].as_array().unwrap().is_empty());
    }
    // The hooked `cargo test` is one fact with witnesses from both transports.
    let rows = query(
        &home,
        "SELECT i.key, COUNT(DISTINCT r.source_id) FROM item i JOIN item_record ir ON ir.item_id = i.id \
         JOIN record r ON r.id = ir.record_id WHERE i.key LIKE 'hook:1780481405050:%' GROUP BY i.key ORDER BY i.key",
    );
    assert_eq!(rows.len(), 2, "the call and its output: {rows:?}");
    for row in rows {
        assert_eq!(row[1], 2, "witnessed by the spool and the log: {row:?}");
    }
}

#[test]
fn cursor_hooks_answer_permissively_and_contradict_a_false_all_tests_pass() {
    let work = tempfile::tempdir().unwrap();
    let home = work.path().join("home");
    for payload in fixture_events(
        "fornax-adapter-cursor",
        "hooks_2_7_shell_edit_response_stop",
    ) {
        let event = payload["hook_event_name"].as_str().unwrap().to_string();
        let out = hook(&home, &["hook", "cursor"], &payload.to_string());
        let answer: Value = serde_json::from_str(out.trim()).unwrap();
        let expected = match event.as_str() {
            "beforeShellExecution" | "beforeReadFile" => serde_json::json!({"permission": "allow"}),
            "beforeSubmitPrompt" => serde_json::json!({"continue": true}),
            _ => serde_json::json!({}),
        };
        assert_eq!(answer, expected, "{event}");
    }
    // A payload that is not JSON still gets an answer, and the agent is not failed.
    assert_eq!(hook(&home, &["hook", "cursor"], "not json").trim(), "{}");
    let empty = work.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    scan(&home, &empty);
    let all = findings(&home);
    let claims = test_claims(&all, CURSOR);
    assert!(!claims.is_empty(), "{all:#?}");
    for f in &claims {
        assert_eq!(f["verdict"], "CONTRADICTED", "{f:#}");
    }
    // The edit is evidence of its own.
    let edits = query(
        &home,
        "SELECT COUNT(*) FROM evidence e JOIN session s ON s.id = e.session_id WHERE s.provider = 'cursor' AND e.kind = 'file_diff'",
    );
    assert_eq!(edits[0][0], 2);
}

#[test]
fn a_cursor_text_transcript_cannot_show_tool_results_so_its_claim_is_unavailable() {
    let work = tempfile::tempdir().unwrap();
    let home = work.path().join("home");
    let data = work.path().join("data");
    let id = "3f0d6b2e-8a41-4c7f-9e25-1b6a0c4d8e93";
    let lines: Vec<String> =
        fixture_events("fornax-adapter-cursor", "txt_2025_thinking_tool_calls")
            .iter()
            .map(|l| l.as_str().unwrap().to_string())
            .collect();
    let text = lines.join("\n");
    let transcript = data.join(format!(
        ".cursor/projects/home-dev-site/agent-transcripts/{id}.txt"
    ));
    std::fs::create_dir_all(transcript.parent().unwrap()).unwrap();
    std::fs::write(&transcript, &text).unwrap();
    // The same text anywhere else is nobody's transcript.
    std::fs::write(data.join("notes.txt"), &text).unwrap();
    let summary = scan(&home, &data);
    assert_eq!(summary["sources"]["new"], 1, "{summary:#}");
    let all = findings(&home);
    let claims = test_claims(&all, id);
    assert!(!claims.is_empty(), "{all:#?}");
    for f in &claims {
        assert_eq!(f["verdict"], "UNAVAILABLE", "{f:#}");
    }
}
