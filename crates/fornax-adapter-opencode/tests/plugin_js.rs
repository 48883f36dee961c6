//! Runs `plugin/fornax.js` under a real `node` (skipped when node is absent): lines reach the
//! child verbatim as NDJSON, and a missing or dying binary never breaks a hook.
#![cfg(unix)]
#![allow(clippy::print_stdout)]
// The test runs node on the plugin and reads its files; the crate itself does no I/O.
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use fornax_adapter_opencode::OpencodePluginAdapter;
use fornax_types::{
    AgentAdapter, IngestMessage, NativeRecord, RecordRef, Role, SemanticValue, SourceId,
};
use serde_json::Value;

fn node_available() -> bool {
    Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "fornax-opencode-plugin-{}-{name}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch dir");
    dir
}

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write script");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}

/// Runs the harness; returns its summary line. Fails if node hangs (the plugin must not keep
/// opencode alive) or exits non-zero (a hook threw or was slow).
fn run_harness(scenario: &str, bin: &Path, out: &Path) -> Value {
    let started = Instant::now();
    let mut child = Command::new("node")
        .arg(crate_dir().join("tests/plugin_harness.mjs"))
        .arg(crate_dir().join("plugin/fornax.js"))
        .arg(scenario)
        .env("FORNAX_BIN", bin)
        .env("FORNAX_TEST_OUT", out)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn node");
    loop {
        if child.try_wait().expect("wait").is_some() {
            break;
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            panic!("{scenario}: node did not exit: the plugin keeps the host process alive");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let output = child.wait_with_output().expect("output");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{scenario}: harness failed\nstdout: {stdout}\nstderr: {stderr}"
    );
    assert!(
        stderr.trim().is_empty(),
        "{scenario}: plugin wrote to stderr: {stderr}"
    );
    let summary = stdout.lines().last().unwrap_or_default();
    println!("{scenario}: {summary}");
    serde_json::from_str(summary).unwrap_or(Value::Null)
}

fn wait_for_lines(path: &Path, want: usize) -> Vec<String> {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let text = std::fs::read_to_string(path).unwrap_or_default();
        let lines: Vec<String> = text.lines().map(str::to_string).collect();
        if lines.len() >= want || Instant::now() > deadline {
            return lines;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn hooks_arrive_as_ndjson_lines_in_one_child() {
    if !node_available() {
        println!("node not found: plugin test skipped");
        return;
    }
    let dir = scratch("capture");
    let out = dir.join("lines.ndjson");
    let bin = script(
        &dir,
        "fornax",
        "printf '%s\\n' \"$*\" >> \"$FORNAX_TEST_OUT.args\"\nexec cat >> \"$FORNAX_TEST_OUT\"",
    );
    let summary = run_harness("capture", &bin, &out);
    assert_eq!(summary["calls"], 6);
    let lines = wait_for_lines(&out, 6);
    assert_eq!(lines.len(), 6, "lines: {lines:?}");
    let args = std::fs::read_to_string(dir.join("lines.ndjson.args")).unwrap_or_default();
    assert_eq!(
        args.trim(),
        "hook opencode",
        "one child, invoked as `fornax hook opencode`"
    );

    let parsed: Vec<Value> = lines
        .iter()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    let hooks: Vec<&str> = parsed
        .iter()
        .map(|v| v["hook"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        hooks,
        [
            "event",
            "chat.message",
            "tool.execute.before",
            "tool.execute.after",
            "event",
            "event"
        ]
    );
    for v in &parsed {
        let at = v["at"].as_str().unwrap_or_default();
        assert!(at.len() == 24 && at.ends_with('Z'), "at is ISO 8601: {at}");
    }
    // A shared (not cyclic) object is written in both places; a cycle is cut.
    assert_eq!(
        parsed[1]["payload"]["input"]["model"]["modelID"],
        "claude-sonnet-4-5"
    );
    assert_eq!(
        parsed[1]["payload"]["output"]["message"]["model"]["modelID"],
        "claude-sonnet-4-5"
    );
    assert_eq!(
        parsed[4]["payload"]["event"]["properties"]["cyclic"]["self"],
        "[circular]"
    );
    let long = parsed[4]["payload"]["event"]["properties"]["message"]
        .as_str()
        .unwrap_or_default();
    assert!(long.len() < 1_100_000 && long.contains("elided by the fornax plugin"));
    assert_eq!(parsed[3]["payload"]["output"]["metadata"]["exit"], 0);

    // And the adapter reads what the plugin wrote.
    let mut adapter = OpencodePluginAdapter::default();
    let source = SourceId::new("plugin-js");
    let mut msgs = Vec::new();
    for (i, v) in parsed.iter().enumerate() {
        let record = RecordRef::new(source.clone(), i as u64);
        msgs.extend(
            adapter
                .normalize("hint", &NativeRecord::new(&record, v))
                .messages(),
        );
    }
    let exit = msgs.iter().find_map(|m| match m {
        IngestMessage::Item(i) if i.semantic.role == Role::ToolOutput => match &i.semantic.value {
            SemanticValue::ToolOutput(o) => o.exit_code.map(|e| e.code),
            _ => None,
        },
        _ => None,
    });
    assert_eq!(exit, Some(0));
    assert!(msgs.iter().any(
        |m| matches!(m, IngestMessage::Item(i) if i.semantic.role == Role::AgentToolCallShell)
    ));
    assert!(msgs.iter().any(
        |m| matches!(m, IngestMessage::Session(s) if s.cwd.as_deref() == Some("/tmp/harness"))
    ));
    assert!(msgs
        .iter()
        .any(|m| matches!(m, IngestMessage::Loop(l) if l.end.is_some())));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_missing_binary_never_breaks_a_hook() {
    if !node_available() {
        println!("node not found: plugin test skipped");
        return;
    }
    let dir = scratch("missing");
    let summary = run_harness("missing", &dir.join("no-such-fornax"), &dir.join("unused"));
    assert_eq!(summary["calls"], 18);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_dying_binary_never_breaks_a_hook() {
    if !node_available() {
        println!("node not found: plugin test skipped");
        return;
    }
    let dir = scratch("dying");
    let bin = script(
        &dir,
        "fornax",
        "echo started >> \"$FORNAX_TEST_OUT\"\nexit 3",
    );
    let out = dir.join("starts");
    let summary = run_harness("dying", &bin, &out);
    assert_eq!(summary["calls"], 18);
    // Respawned after back-off, not on every hook.
    let starts = std::fs::read_to_string(&out)
        .unwrap_or_default()
        .lines()
        .count();
    assert!((1..=6).contains(&starts), "child started {starts} times");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_stuck_binary_does_not_hold_the_host() {
    if !node_available() {
        println!("node not found: plugin test skipped");
        return;
    }
    let dir = scratch("stuck");
    // Alive, never reading: the 2 MiB line cannot be written out.
    let bin = script(&dir, "fornax", "exec sleep 20");
    let started = Instant::now();
    let summary = run_harness("capture", &bin, &dir.join("unused"));
    assert_eq!(summary["calls"], 6);
    assert!(
        started.elapsed() < Duration::from_secs(15),
        "host held for {:?}",
        started.elapsed()
    );
    let _ = std::fs::remove_dir_all(&dir);
}
