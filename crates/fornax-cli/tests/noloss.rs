#![allow(clippy::print_stdout)] // a corpus test says when it skips
//! Nothing lost, nothing silently skipped: the capture side under faults and odd input, through
//! the real binary, on real files, with real processes and SIGKILLs.

use std::io::Write;
use std::os::unix::net::UnixStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

fn fornax(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
    c.env("FORNAX_HOME", home)
        .env("NO_COLOR", "1")
        .env_remove("FORNAX_FAIL_AFTER_RECORDS")
        // These tests start the daemon themselves when they want one.
        .env("FORNAX_DAEMON_AUTOSTART", "0");
    c
}

fn run(home: &Path, args: &[&str]) -> Output {
    fornax(home).args(args).output().unwrap()
}

fn text(out: &[u8]) -> String {
    String::from_utf8_lossy(out).into_owned()
}

/// Runs a command that must succeed and parses its `--json` output.
fn json_of(home: &Path, args: &[&str]) -> Value {
    let out = fornax(home).args(args).arg("--json").output().unwrap();
    assert!(
        out.status.success(),
        "{args:?} failed: {}{}",
        text(&out.stdout),
        text(&out.stderr)
    );
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{args:?}: not JSON ({e}): {}", text(&out.stdout)))
}

fn scan_json(home: &Path, paths: &[&Path]) -> Value {
    let mut args = vec!["scan".to_string()];
    args.extend(paths.iter().map(|p| p.display().to_string()));
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    json_of(home, &args)
}

fn count(home: &Path, sql: &str) -> i64 {
    json_of(home, &["query", sql])["rows"][0][0]
        .as_i64()
        .unwrap_or_else(|| panic!("{sql}: no count"))
}

/// Sends one Claude Code hook payload (raw bytes) through `fornax hook claude`.
fn hook_raw(home: &Path, payload: &[u8]) {
    let mut child = fornax(home)
        .args(["hook", "claude"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(payload).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "a hook always exits 0");
    assert!(out.stdout.is_empty(), "{}", text(&out.stdout));
}

fn hook(home: &Path, payload: &Value) {
    hook_raw(home, payload.to_string().as_bytes());
}

fn pre_tool(session: &str, id: &str, command: &str) -> Value {
    json!({
        "session_id": session,
        "cwd": "/tmp/project",
        "hook_event_name": "PreToolUse",
        "tool_name": "Bash",
        "tool_input": {"command": command},
        "tool_use_id": id,
    })
}

/// A Claude Code transcript: one prompt and `n` assistant text lines (one item each).
fn transcript(session: &str, n: usize, pad: usize) -> String {
    let mut out = String::new();
    let user = json!({"type": "user", "sessionId": session, "uuid": "u0", "parentUuid": null,
        "cwd": "/tmp/project", "version": "2.1.119", "timestamp": "2026-03-14T08:00:00.000Z",
        "message": {"role": "user", "content": "Please tidy the module."}});
    out.push_str(&user.to_string());
    out.push('\n');
    for i in 0..n {
        out.push_str(&assistant_line(
            session,
            i,
            &format!("note {i} {}", "x".repeat(pad)),
        ));
        out.push('\n');
    }
    out
}

fn assistant_line(session: &str, i: usize, body: &str) -> String {
    json!({"type": "assistant", "sessionId": session, "uuid": format!("a{i}"),
        "parentUuid": if i == 0 { "u0".to_string() } else { format!("a{}", i - 1) },
        "cwd": "/tmp/project", "version": "2.1.119",
        "timestamp": format!("2026-03-14T08:{:02}:{:02}.000Z", (i / 60) % 60, i % 60),
        "message": {"id": format!("msg_{i}"), "type": "message", "role": "assistant",
            "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": body}],
            "stop_reason": null}})
    .to_string()
}

fn scratch() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    (dir, home, data)
}

/// Stops the daemon of a home when a test ends, however it ends.
struct Daemon(PathBuf);

impl Drop for Daemon {
    fn drop(&mut self) {
        let _ = fornax(&self.0).args(["daemon", "stop"]).output();
    }
}

fn start_daemon(home: &Path) -> (Daemon, Value) {
    let guard = Daemon(home.to_path_buf());
    let status = json_of(home, &["daemon", "start"]);
    (guard, status)
}

fn wait_until(limit: Duration, what: &str, mut ok: impl FnMut() -> bool) {
    let start = Instant::now();
    while !ok() {
        assert!(start.elapsed() < limit, "{what}: not after {limit:?}");
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// Whether a process runs (an exited one not yet reaped by its new parent does not).
fn alive(pid: u64) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        stat.rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X")
    })
}

/// Many transcripts, enough for a scan to take a while.
fn big_data(data: &Path, files: usize) {
    for f in 0..files {
        let session = format!("7a3c{f:04}-0000-4000-8000-000000000000");
        std::fs::write(
            data.join(format!("{session}.jsonl")),
            transcript(&session, 200, 200),
        )
        .unwrap();
    }
}

fn spawn_scan(home: &Path, args: &[&str]) -> Child {
    fornax(home)
        .arg("scan")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

// ---------------------------------------------------------------------------------------------
// One writer: the lock, waiting, handing over to the daemon, race-free schema creation.

#[test]
fn a_daemon_started_during_a_scan_ingests_once_the_scan_ends() {
    let (_dir, home, data) = scratch();
    big_data(&data, 60);
    let scan = spawn_scan(&home, &[data.to_str().unwrap()]);
    std::thread::sleep(Duration::from_millis(400));
    let (_guard, _) = start_daemon(&home);
    hook(&home, &pre_tool("d-during-scan", "toolu_during", "ls"));
    let out = scan.wait_with_output().unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    let ended = Instant::now();
    wait_until(Duration::from_secs(10), "the event is stored", || {
        count(
            &home,
            "SELECT COUNT(*) FROM item WHERE key = 'call:toolu_during'",
        ) == 1
    });
    assert!(ended.elapsed() < Duration::from_secs(10));
    let status = json_of(&home, &["daemon", "status"]);
    assert_eq!(status["store"]["state"], "ok", "{status:#}");
}

#[test]
fn a_daemon_that_cannot_open_the_store_says_so_and_recovers() {
    let (_dir, home, _data) = scratch();
    // Something that is not a database where the store must be.
    std::fs::create_dir_all(home.join("fornax.db")).unwrap();
    let _guard = Daemon(home.clone());
    let out = run(&home, &["daemon", "start", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let status: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(status["ingesting"], false, "{status:#}");
    assert_eq!(status["store"]["state"], "unavailable", "{status:#}");
    assert!(status["store"]["detail"]
        .as_str()
        .unwrap()
        .contains("fornax.db"));
    let doctor = run(&home, &["doctor"]);
    assert!(
        text(&doctor.stdout).contains("NOT ingesting"),
        "{}",
        text(&doctor.stdout)
    );
    hook(&home, &pre_tool("s-recover", "toolu_recover", "true"));
    // Fixed: the daemon's next attempt (back-off) opens it and stores what waited.
    std::fs::remove_dir(home.join("fornax.db")).unwrap();
    wait_until(Duration::from_secs(20), "the daemon recovers", || {
        json_of(&home, &["daemon", "status"])["ingesting"] == true
    });
    wait_until(
        Duration::from_secs(20),
        "the waiting event is stored",
        || {
            count(
                &home,
                "SELECT COUNT(*) FROM item WHERE key = 'call:toolu_recover'",
            ) == 1
        },
    );
}

#[test]
fn a_second_scan_waits_for_the_first_or_says_who_holds_the_store() {
    let (_dir, home, data) = scratch();
    big_data(&data, 40);
    let small = tempfile::tempdir().unwrap();
    std::fs::write(
        small.path().join("s.jsonl"),
        transcript("5c000000-0000-4000-8000-000000000001", 3, 0),
    )
    .unwrap();
    let first = spawn_scan(&home, &[data.to_str().unwrap()]);
    wait_until(
        Duration::from_secs(20),
        "the first scan holds the lock",
        || home.join("fornax.db.lock").exists(),
    );
    std::thread::sleep(Duration::from_millis(300));
    let refused = run(
        &home,
        &["scan", "--wait", "0", small.path().to_str().unwrap()],
    );
    assert_eq!(refused.status.code(), Some(1), "{}", text(&refused.stderr));
    let why = text(&refused.stderr);
    assert!(why.contains("pid") && why.contains("--wait"), "{why}");
    let waited = run(
        &home,
        &["scan", "--wait", "300", small.path().to_str().unwrap()],
    );
    assert!(waited.status.success(), "{}", text(&waited.stderr));
    assert!(
        text(&waited.stderr).contains("waiting"),
        "{}",
        text(&waited.stderr)
    );
    assert!(first.wait_with_output().unwrap().status.success());
    assert_eq!(count(&home, "SELECT COUNT(*) FROM session"), 41);
}

#[test]
fn eight_concurrent_first_scans_all_succeed() {
    let (_dir, home, data) = scratch();
    big_data(&data, 8);
    let scans: Vec<Child> = (0..8)
        .map(|_| spawn_scan(&home, &[data.to_str().unwrap()]))
        .collect();
    for s in scans {
        let out = s.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    assert_eq!(count(&home, "SELECT COUNT(*) FROM session"), 8);
    assert_eq!(count(&home, "SELECT COUNT(*) FROM item"), 8 * 201);
}

#[test]
fn a_scan_hands_the_pass_to_a_running_daemon() {
    let (_dir, home, data) = scratch();
    big_data(&data, 3);
    let (_guard, status) = start_daemon(&home);
    let summary = scan_json(&home, &[&data]);
    assert_eq!(summary["via"], "daemon", "{summary:#}");
    assert_eq!(summary["daemon_pid"], status["pid"]);
    assert_eq!(summary["sources"]["new"], 3, "{summary:#}");
    assert_eq!(count(&home, "SELECT COUNT(*) FROM item"), 3 * 201);
}

// ---------------------------------------------------------------------------------------------
// A spool that cannot be poisoned.

#[test]
fn a_pretty_printed_payload_does_not_hide_the_events_after_it() {
    let (_dir, home, _data) = scratch();
    let first = pre_tool("s-pretty", "toolu_p0", "echo first");
    hook_raw(
        &home,
        serde_json::to_string_pretty(&first).unwrap().as_bytes(),
    );
    for i in 1..=100 {
        hook(
            &home,
            &pre_tool("s-pretty", &format!("toolu_p{i}"), "echo next"),
        );
    }
    let summary = json_of(&home, &["scan"]);
    assert_eq!(summary["sources"]["skipped"], json!({}), "{summary:#}");
    assert_eq!(count(&home, "SELECT COUNT(*) FROM record"), 101);
    assert_eq!(
        count(
            &home,
            "SELECT COUNT(*) FROM item WHERE key LIKE 'call:toolu_p%'"
        ),
        101
    );
}

#[test]
fn lone_surrogate_escapes_are_repaired_counted_and_stored() {
    let (_dir, home, data) = scratch();
    // Node's JSON.stringify writes a lone surrogate when a string is cut mid-emoji.
    hook_raw(
        &home,
        br#"{"session_id":"s-sur","hook_event_name":"UserPromptSubmit","prompt":"cut here \ud83d"}"#,
    );
    let session = "5c000000-0000-4000-8000-00000000000a";
    let mut file = transcript(session, 1, 0);
    file.push_str(&assistant_line(session, 1, "done").replace("done", "done \\udc00 now"));
    file.push('\n');
    std::fs::write(data.join("t.jsonl"), &file).unwrap();
    let summary = scan_json(&home, &[&data]);
    assert_eq!(summary["repaired_escapes"], 2, "{summary:#}");
    assert_eq!(summary["malformed_records"], 0, "{summary:#}");
    let repaired = count(
        &home,
        "SELECT COUNT(*) FROM item i JOIN text t ON t.id = i.text_id WHERE instr(t.body, char(65533)) > 0",
    );
    assert_eq!(repaired, 2);
    // The record still points at the raw bytes, escape included.
    let id = count(&home, "SELECT MIN(id) FROM record");
    assert!(run(&home, &["record", "verify", &id.to_string()])
        .status
        .success());
}

#[test]
fn daemon_stop_reports_what_it_stored_and_what_remains() {
    let (_dir, home, _data) = scratch();
    let (_guard, status) = start_daemon(&home);
    for i in 0..5 {
        hook(&home, &pre_tool("s-stop", &format!("toolu_s{i}"), "true"));
    }
    let stopped = json_of(&home, &["daemon", "stop"]);
    assert_eq!(stopped["stopped"], true, "{stopped:#}");
    assert_eq!(stopped["remaining_bytes"], 0, "{stopped:#}");
    assert_eq!(stopped["stored_records"], 5, "{stopped:#}");
    assert!(!alive(status["pid"].as_u64().unwrap()));
}

// ---------------------------------------------------------------------------------------------
// Complete records at the end of a file; change detection; symlinks; unreadable paths.

#[test]
fn a_final_line_without_newline_is_indexed_once() {
    let (_dir, home, data) = scratch();
    let session = "5c000000-0000-4000-8000-00000000000b";
    let file = data.join("t.jsonl");
    let mut body = transcript(session, 2, 0);
    body.push_str(&assistant_line(session, 2, "the final answer"));
    std::fs::write(&file, &body).unwrap();
    scan_json(&home, &[&data]);
    assert_eq!(count(&home, "SELECT COUNT(*) FROM item"), 4);
    // The writer completes the line, then appends another.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap();
    f.write_all(b"\n").unwrap();
    f.write_all(assistant_line(session, 3, "one more").as_bytes())
        .unwrap();
    f.write_all(b"\n").unwrap();
    drop(f);
    let summary = scan_json(&home, &[&data]);
    assert_eq!(summary["sources"]["appended"], 1, "{summary:#}");
    assert_eq!(count(&home, "SELECT COUNT(*) FROM item"), 5);
    assert_eq!(count(&home, "SELECT COUNT(*) FROM record"), 5);
}

#[test]
fn a_rewrite_past_the_first_mebibyte_is_rebuilt() {
    let (_dir, home, data) = scratch();
    let session = "5c000000-0000-4000-8000-00000000000c";
    let file = data.join("t.jsonl");
    let body = transcript(session, 800, 3000);
    assert!(body.len() > 2 << 20);
    std::fs::write(&file, &body).unwrap();
    scan_json(&home, &[&data]);
    // Same size, one line changed one mebibyte in.
    let at = body[1 << 20..].find("note ").unwrap() + (1 << 20);
    let mut changed = body.clone().into_bytes();
    changed[at..at + 5].copy_from_slice(b"zqwv ");
    std::fs::write(&file, &changed).unwrap();
    let summary = scan_json(&home, &[&data]);
    assert_eq!(summary["sources"]["rebuilt"], 1, "{summary:#}");
    let hits = json_of(&home, &["search", "zqwv"]);
    assert_eq!(hits["hits"].as_array().unwrap().len(), 1, "{hits:#}");
    // Appends stay appends.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap();
    f.write_all(assistant_line(session, 900, "appended").as_bytes())
        .unwrap();
    f.write_all(b"\n").unwrap();
    drop(f);
    let summary = scan_json(&home, &[&data]);
    assert_eq!(summary["sources"]["appended"], 1, "{summary:#}");
}

#[test]
fn symlinked_files_are_indexed_once_and_loops_are_reported() {
    let (dir, home, data) = scratch();
    let elsewhere = dir.path().join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    let target = elsewhere.join("5c000000-0000-4000-8000-00000000000d.jsonl");
    std::fs::write(
        &target,
        transcript("5c000000-0000-4000-8000-00000000000d", 2, 0),
    )
    .unwrap();
    std::os::unix::fs::symlink(&target, data.join("linked.jsonl")).unwrap();
    std::os::unix::fs::symlink(&target, data.join("again.jsonl")).unwrap();
    std::os::unix::fs::symlink(&elsewhere, data.join("dir-link")).unwrap();
    std::os::unix::fs::symlink(&data, data.join("loop")).unwrap();
    let summary = scan_json(&home, &[&data]);
    assert_eq!(count(&home, "SELECT COUNT(*) FROM session"), 1);
    assert_eq!(count(&home, "SELECT COUNT(*) FROM item"), 3);
    assert_eq!(summary["sources"]["new"], 1, "{summary:#}");
    let skipped = summary["skipped_files"].as_array().unwrap();
    assert!(
        skipped
            .iter()
            .any(|s| s["path"].as_str().unwrap().ends_with("loop")
                && s["reason"].as_str().unwrap().contains("loop")),
        "{summary:#}"
    );
}

/// Runs `fornax` as an unprivileged user when the tests run as root (root reads everything).
fn fornax_unprivileged(home: &Path) -> Command {
    let root = std::fs::metadata("/proc/self").map(|m| {
        use std::os::unix::fs::MetadataExt;
        m.uid() == 0
    });
    if root.unwrap_or(false) {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
            .arg(env!("CARGO_BIN_EXE_fornax"))
            .env("FORNAX_HOME", home)
            .env("NO_COLOR", "1");
        c
    } else {
        fornax(home)
    }
}

fn give_away(path: &Path) {
    let root = std::fs::metadata("/proc/self").map(|m| {
        use std::os::unix::fs::MetadataExt;
        m.uid() == 0
    });
    if root.unwrap_or(false) {
        std::os::unix::fs::lchown(path, Some(65534), Some(65534)).unwrap();
        if path.is_dir() && !path.is_symlink() {
            for entry in std::fs::read_dir(path).unwrap() {
                give_away(&entry.unwrap().path());
            }
        }
    }
}

#[test]
fn unreadable_files_and_directories_are_named() {
    use std::os::unix::fs::PermissionsExt;
    let (dir, home, data) = scratch();
    std::fs::create_dir_all(&home).unwrap();
    let session = "5c000000-0000-4000-8000-00000000000e";
    std::fs::write(data.join("ok.jsonl"), transcript(session, 1, 0)).unwrap();
    let locked = data.join("locked");
    std::fs::create_dir_all(&locked).unwrap();
    std::fs::write(locked.join("inside.jsonl"), transcript(session, 1, 0)).unwrap();
    let secret = data.join("secret.jsonl");
    std::fs::write(&secret, transcript(session, 1, 0)).unwrap();
    give_away(dir.path());
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o000)).unwrap();
    let out = fornax_unprivileged(&home)
        .args(["scan", "--json"])
        .arg(&data)
        .output()
        .unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    let summary: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}{}", text(&out.stdout), text(&out.stderr)));
    let named: Vec<String> = summary["skipped_files"]
        .as_array()
        .unwrap()
        .iter()
        .chain(summary["errors"].as_array().unwrap())
        .map(|s| s["path"].as_str().unwrap().to_string())
        .collect();
    for path in [&locked, &secret] {
        assert!(
            named.iter().any(|n| Path::new(n) == path.as_path()),
            "{} not named: {summary:#}",
            path.display()
        );
    }
}

#[test]
fn skipped_files_are_named_in_the_summary_and_by_doctor() {
    let (_dir, home, data) = scratch();
    std::fs::write(data.join("notes.jsonl"), "{\"todo\":\"buy milk\"}\n").unwrap();
    std::fs::write(
        data.join("t.jsonl"),
        transcript("5c000000-0000-4000-8000-00000000000f", 1, 0),
    )
    .unwrap();
    let summary = scan_json(&home, &[&data]);
    let skipped = summary["skipped_files"].as_array().unwrap();
    assert_eq!(skipped.len(), 1, "{summary:#}");
    assert!(skipped[0]["path"]
        .as_str()
        .unwrap()
        .ends_with("notes.jsonl"));
    let human = run(&home, &["scan", data.to_str().unwrap()]);
    assert!(
        text(&human.stdout).contains("notes.jsonl"),
        "{}",
        text(&human.stdout)
    );
    let doctor = run(&home, &["doctor"]);
    assert!(
        text(&doctor.stdout).contains("notes.jsonl"),
        "{}",
        text(&doctor.stdout)
    );
}

#[test]
fn the_summary_counts_what_the_store_holds() {
    let (_dir, home, data) = scratch();
    let session = "5c000000-0000-4000-8000-000000000010";
    // The same call seen through a hook and through the transcript: one item.
    hook(&home, &pre_tool(session, "toolu_same", "cargo test"));
    let call = json!({"type": "assistant", "sessionId": session, "uuid": "a-call", "parentUuid": "u0",
        "cwd": "/tmp/project", "version": "2.1.119", "timestamp": "2026-03-14T08:10:00.000Z",
        "message": {"id": "msg_call", "type": "message", "role": "assistant", "model": "m",
            "content": [{"type": "tool_use", "id": "toolu_same", "name": "Bash",
                "input": {"command": "cargo test"}}], "stop_reason": null}});
    let mut body = transcript(session, 2, 0);
    body.push_str(&call.to_string());
    body.push('\n');
    std::fs::write(data.join("t.jsonl"), body).unwrap();
    let summary = scan_json(&home, &[&data]);
    assert_eq!(
        summary["items"].as_i64().unwrap(),
        count(&home, "SELECT COUNT(*) FROM item"),
        "{summary:#}"
    );
    assert_eq!(
        summary["records"].as_i64().unwrap(),
        count(&home, "SELECT COUNT(*) FROM record")
    );
}

// ---------------------------------------------------------------------------------------------
// Honest exit codes and health.

#[test]
fn a_scan_where_every_source_failed_exits_1() {
    let (_dir, home, data) = scratch();
    std::fs::write(data.join("opencode.db"), b"this is not a database at all").unwrap();
    let out = run(&home, &["scan", data.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stderr).contains("1 source failed"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn doctor_reports_corrupted_pages_with_the_recovery_command() {
    let (_dir, home, data) = scratch();
    big_data(&data, 4);
    scan_json(&home, &[&data]);
    let db = home.join("fornax.db");
    assert!(
        !home.join("fornax.db-wal").exists()
            || std::fs::metadata(home.join("fornax.db-wal")).unwrap().len() == 0
    );
    let mut bytes = std::fs::read(&db).unwrap();
    assert!(bytes.len() > 64 * 4096);
    for b in &mut bytes[8 * 4096..40 * 4096] {
        *b = 0x5a;
    }
    std::fs::write(&db, bytes).unwrap();
    let out = run(&home, &["doctor", "--json"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stderr));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["store"]["integrity"]["ok"], false, "{report:#}");
    assert!(
        report["store"]["integrity"]["recovery"]
            .as_str()
            .unwrap()
            .contains(".recover"),
        "{report:#}"
    );
}

#[test]
fn sixty_four_idle_connections_do_not_delay_daemon_stop() {
    let (_dir, home, _data) = scratch();
    let (_guard, status) = start_daemon(&home);
    let sock = home.join("fornax.sock");
    let idle: Vec<UnixStream> = (0..64)
        .map(|_| UnixStream::connect(&sock).unwrap())
        .collect();
    std::thread::sleep(Duration::from_millis(200));
    let started = Instant::now();
    let stopped = json_of(&home, &["daemon", "stop"]);
    let took = started.elapsed();
    assert_eq!(stopped["stopped"], true, "{stopped:#}");
    assert!(took < Duration::from_secs(2), "daemon stop took {took:?}");
    let pid = status["pid"].as_u64().unwrap();
    wait_until(Duration::from_secs(2), "the daemon is gone", || !alive(pid));
    drop(idle);
}

// ---------------------------------------------------------------------------------------------
// The failpoint that makes crash tests deterministic.

#[test]
fn the_failpoint_aborts_ingestion_and_a_rescan_converges() {
    let (_dir, home, data) = scratch();
    big_data(&data, 3);
    let out = fornax(&home)
        .env("FORNAX_FAIL_AFTER_RECORDS", "250")
        .args(["scan", data.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!out.status.success(), "the failpoint must abort the scan");
    // The first source (201 records) committed, the second did not.
    assert_eq!(count(&home, "SELECT COUNT(*) FROM record"), 201);
    scan_json(&home, &[&data]);
    assert_eq!(count(&home, "SELECT COUNT(*) FROM record"), 3 * 201);
}

// ---------------------------------------------------------------------------------------------
// Spool retention and logs.

#[test]
fn closed_spool_segments_are_retired_once_stored() {
    let (_dir, home, _data) = scratch();
    // Today's segment, through a real hook.
    hook(&home, &pre_tool("s-ret", "toolu_today", "true"));
    let spool = home.join("spool");
    let today: Vec<PathBuf> = std::fs::read_dir(&spool)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(today.len(), 1);
    // An earlier day's segment in the same format.
    let head = std::fs::read_to_string(&today[0]).unwrap();
    let old = spool.join("events-2020-01-01.ndjson");
    std::fs::write(&old, head.replace("toolu_today", "toolu_old")).unwrap();
    json_of(&home, &["scan"]);
    assert!(!old.exists(), "a closed, stored segment is retired");
    assert!(today[0].exists(), "the open segment is kept");
    assert_eq!(
        count(
            &home,
            "SELECT COUNT(*) FROM item WHERE key = 'call:toolu_old'"
        ),
        1
    );
    let id = count(
        &home,
        "SELECT r.id FROM record r JOIN source s ON s.id = r.source_id WHERE s.locator LIKE '%2020-01-01%'",
    );
    let verify = run(&home, &["record", "verify", &id.to_string(), "--json"]);
    let report: Value = serde_json::from_slice(&verify.stdout).unwrap();
    assert_eq!(report["status"], "retired", "{report:#}");
    let doctor = json_of(&home, &["doctor"]);
    assert!(doctor["spool"]["bytes"].as_u64().unwrap() > 0, "{doctor:#}");
    assert!(doctor["spool"]["oldest"].is_string(), "{doctor:#}");
}

#[test]
fn logs_never_hold_payload_text() {
    let (_dir, home, _data) = scratch();
    let (_guard, _) = start_daemon(&home);
    let marker = "PAYLOAD-MARKER-7f3a";
    hook_raw(&home, format!("{{not json {marker}").as_bytes());
    hook_raw(
        &home,
        format!("{{\"session_id\": 5, \"prompt\": \"{marker}\"}}").as_bytes(),
    );
    hook(
        &home,
        &json!({"session_id": "s-log", "hook_event_name": "Nonsense", "x": marker}),
    );
    hook(&home, &pre_tool("s-log", "toolu_log", marker));
    json_of(&home, &["daemon", "stop"]);
    for log in ["daemon.log", "hook.log", "daemon.err"] {
        let body = std::fs::read_to_string(home.join(log)).unwrap_or_default();
        assert!(!body.contains(marker), "{log} holds payload text:\n{body}");
    }
}

// ---------------------------------------------------------------------------------------------
// The dumps people have: hook logs, chat.json, opencode storage dumps.

fn corpus() -> Option<PathBuf> {
    let found = Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("shared/corpus"))
        .find(|d| d.is_dir());
    if found.is_some() {
        return found;
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must have the shared corpus"
    );
    println!("skipped: no shared corpus");
    None
}

fn copy_dir(from: &Path, to: &Path, keep: impl Fn(&Path) -> bool) -> usize {
    std::fs::create_dir_all(to).unwrap();
    let mut n = 0;
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        if p.is_file() && keep(&p) {
            std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
            n += 1;
        }
    }
    n
}

#[test]
fn the_dumps_in_the_corpus_are_imported_once() {
    let Some(corpus) = corpus() else { return };
    let (_dir, home, data) = scratch();
    let hooks = copy_dir(
        &corpus.join("claude-hooks"),
        &data.join("claude-hooks"),
        |_| true,
    );
    assert_eq!(hooks, 24);
    let chats = copy_dir(
        &corpus.join("claude-transcript"),
        &data.join("chats"),
        |p| p.to_string_lossy().ends_with("__chat.json"),
    );
    assert_eq!(chats, 2);
    let dumps = copy_dir(
        &corpus.join("opencode/storage-dumps"),
        &data.join("dumps"),
        |_| true,
    );
    assert_eq!(dumps, 4);
    let summary = scan_json(&home, &[&data]);
    let skipped = summary["sources"]["skipped"].as_object().unwrap();
    // Projects and share links of the opencode dumps belong to no session; nothing else is left.
    assert!(
        skipped.keys().all(|k| k == "document outside any session"),
        "{summary:#}"
    );
    assert_eq!(summary["skipped_files"], json!([]), "{summary:#}");
    assert_eq!(summary["errors"], json!([]), "{summary:#}");
    let members = count(
        &home,
        "SELECT COUNT(DISTINCT r.member) FROM record r JOIN source s ON s.id = r.source_id
         WHERE s.kind = 'dump' AND s.adapter = 'claude-hook'",
    );
    assert_eq!(members, 24, "every hook log file contributes records");
    let chat_sources = count(
        &home,
        "SELECT COUNT(*) FROM source WHERE locator LIKE '%__chat.json' AND adapter = 'claude-transcript'",
    );
    assert_eq!(chat_sources, 2);
    let opencode = count(
        &home,
        "SELECT COUNT(DISTINCT s.id) FROM session s WHERE s.provider = 'opencode'",
    );
    assert!(opencode >= 17, "{opencode} opencode sessions");
    let (records, items) = (
        count(&home, "SELECT COUNT(*) FROM record"),
        count(&home, "SELECT COUNT(*) FROM item"),
    );
    let again = scan_json(&home, &[&data]);
    assert_eq!(again["records"], 0, "{again:#}");
    assert_eq!(count(&home, "SELECT COUNT(*) FROM record"), records);
    assert_eq!(count(&home, "SELECT COUNT(*) FROM item"), items);
}
