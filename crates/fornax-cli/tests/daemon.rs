//! The live path with real processes, a real socket and temp homes.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn fornax(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
    c.env("FORNAX_HOME", home).env("NO_COLOR", "1");
    c
}

fn json(home: &Path, args: &[&str]) -> serde_json::Value {
    let out = fornax(home).args(args).arg("--json").output().unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn hook_output(home: &Path, payload: &serde_json::Value) -> String {
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
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

/// A hook that must print nothing (no decision due).
fn hook(home: &Path, payload: &serde_json::Value) {
    assert!(hook_output(home, payload).is_empty());
}

fn query(home: &Path, sql: &str) -> i64 {
    json(home, &["query", sql])["rows"][0][0].as_i64().unwrap()
}

struct Daemon<'a>(&'a Path);

impl Drop for Daemon<'_> {
    fn drop(&mut self) {
        let _ = fornax(self.0).args(["daemon", "stop"]).output();
    }
}

#[test]
fn start_status_stop_and_a_stale_socket() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path();
    std::fs::create_dir_all(home).unwrap();
    // A socket file left by a daemon that died.
    drop(std::os::unix::net::UnixListener::bind(home.join("fornax.sock")).unwrap());
    assert!(!json(home, &["daemon", "status"])["running"]
        .as_bool()
        .unwrap());
    let _guard = Daemon(home);
    let started = json(home, &["daemon", "start"]);
    assert_eq!(started["running"], true);
    for key in ["pid", "socket", "spool_bytes", "uptime_s"] {
        assert!(started.get(key).is_some(), "status lacks {key}: {started}");
    }
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(home.join("fornax.sock"))
        .unwrap()
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o600);
    let again = json(home, &["daemon", "start"]);
    assert_eq!(again["pid"], started["pid"], "one daemon per home");
    // A second instance refuses to run.
    let out = fornax(home).args(["daemon", "run"]).output().unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("already runs"));
    let stopped = json(home, &["daemon", "stop"]);
    assert_eq!(stopped["stopped"], true);
    assert!(!home.join("fornax.sock").exists());
}

#[test]
fn every_event_is_stored_exactly_once_across_sigkills() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path().to_path_buf();
    let _guard = Daemon(&home);
    json(&home, &["daemon", "start"]);
    const EVENTS: usize = 1000;
    let sender = {
        let home = home.clone();
        std::thread::spawn(move || {
            for i in 0..EVENTS {
                hook(
                    &home,
                    &serde_json::json!({
                        "session_id": format!("kill-test-{}", i % 7),
                        "cwd": "/tmp/project",
                        "hook_event_name": "PreToolUse",
                        "tool_name": "Bash",
                        "tool_input": {"command": format!("echo {i}")},
                        "tool_use_id": format!("toolu_{i:05}"),
                    }),
                );
            }
        })
    };
    // Kill the daemon with SIGKILL at a few points while events arrive, and restart it.
    let mut kills = 0;
    let deadline = Instant::now() + Duration::from_secs(600);
    while !sender.is_finished() && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(700 + 300 * kills));
        let status = json(&home, &["daemon", "status"]);
        if let Some(pid) = status["pid"].as_u64() {
            let killed = Command::new("kill")
                .args(["-9", &pid.to_string()])
                .status()
                .unwrap();
            assert!(killed.success());
            kills += 1;
            std::thread::sleep(Duration::from_millis(50));
            json(&home, &["daemon", "start"]);
        }
        if kills >= 4 {
            break;
        }
    }
    sender.join().unwrap();
    assert!(kills > 0, "the daemon was never killed mid-stream");
    let stopped = json(&home, &["daemon", "stop"]);
    assert_eq!(stopped["stopped"], true);
    assert_eq!(query(&home, "SELECT COUNT(*) FROM record"), EVENTS as i64);
    assert_eq!(
        query(&home, "SELECT COUNT(*) FROM item WHERE key LIKE 'call:%'"),
        EVENTS as i64
    );
    assert_eq!(
        query(&home, "SELECT COUNT(DISTINCT native_id) FROM session"),
        7
    );
}

#[test]
fn concurrent_sessions_are_never_mixed() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path().to_path_buf();
    let _guard = Daemon(&home);
    json(&home, &["daemon", "start"]);
    const SESSIONS: usize = 32;
    let threads: Vec<_> = (0..SESSIONS)
        .map(|n| {
            let home = home.clone();
            std::thread::spawn(move || {
                let session = format!("3{n:07}-aaaa-4bbb-8ccc-{n:012}");
                let base = |event: &str| serde_json::json!({"session_id": session, "cwd": format!("/tmp/p{n}"), "hook_event_name": event});
                let mut start = base("SessionStart");
                start["source"] = "startup".into();
                hook(&home, &start);
                let mut prompt = base("UserPromptSubmit");
                prompt["prompt"] = format!("task {n}").into();
                hook(&home, &prompt);
                let call = format!("toolu_{n:04}");
                let mut pre = base("PreToolUse");
                pre["tool_name"] = "Bash".into();
                pre["tool_input"] = serde_json::json!({"command": "cargo test"});
                pre["tool_use_id"] = call.clone().into();
                hook(&home, &pre);
                if n.is_multiple_of(2) {
                    let mut fail = base("PostToolUseFailure");
                    fail["tool_name"] = "Bash".into();
                    fail["tool_input"] = serde_json::json!({"command": "cargo test"});
                    fail["tool_use_id"] = call.into();
                    fail["error"] = "Exit code 101\ntest result: FAILED. 3 passed; 1 failed; 0 ignored".into();
                    hook(&home, &fail);
                } else {
                    let mut ok = base("PostToolUse");
                    ok["tool_name"] = "Bash".into();
                    ok["tool_input"] = serde_json::json!({"command": "cargo test"});
                    ok["tool_use_id"] = call.into();
                    ok["tool_response"] = serde_json::json!({"stdout": "test result: ok. 4 passed; 0 failed; 0 ignored", "stderr": "", "interrupted": false, "isImage": false});
                    hook(&home, &ok);
                }
                let mut stop = base("Stop");
                stop["stop_hook_active"] = false.into();
                stop["last_assistant_message"] = format!("Task {n} is done and all tests pass.").into();
                hook(&home, &stop);
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    json(&home, &["daemon", "stop"]);
    let findings = json(&home, &["findings"]);
    let findings = findings["findings"].as_array().unwrap();
    assert_eq!(findings.len(), SESSIONS, "{findings:#?}");
    for f in findings {
        let native = f["session"]["native_id"].as_str().unwrap();
        let n: usize = native[1..8].parse().unwrap();
        assert!(
            f["claim"]["text"]
                .as_str()
                .unwrap()
                .contains(&format!("Task {n} ")),
            "claims stay in their session"
        );
        let expected = if n.is_multiple_of(2) {
            "CONTRADICTED"
        } else {
            "VERIFIED"
        };
        assert_eq!(f["verdict"], expected, "session {native}: {f:#}");
    }
    // Each session holds exactly its own five facts.
    assert_eq!(
        query(
            &home,
            "SELECT MAX(c) FROM (SELECT COUNT(*) c FROM item GROUP BY session_id)"
        ),
        5
    );
    assert_eq!(
        query(
            &home,
            "SELECT MIN(c) FROM (SELECT COUNT(*) c FROM item GROUP BY session_id)"
        ),
        5
    );
}

#[test]
fn opt_in_intervention_blocks_a_contradicted_stop_once() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path().to_path_buf();
    std::fs::write(home.join("config.toml"), "[intervene]\nenabled = true\n").unwrap();
    let _guard = Daemon(&home);
    json(&home, &["daemon", "start"]);
    let session = "5e1f0a2b-3c4d-4e5f-8a6b-7c8d9e0f1a2b";
    let base = |event: &str| serde_json::json!({"session_id": session, "cwd": "/tmp/x", "hook_event_name": event});
    let mut start = base("SessionStart");
    start["source"] = "startup".into();
    hook(&home, &start);
    let mut prompt = base("UserPromptSubmit");
    prompt["prompt"] = "fix it".into();
    hook(&home, &prompt);
    let mut pre = base("PreToolUse");
    pre["tool_name"] = "Bash".into();
    pre["tool_input"] = serde_json::json!({"command": "pytest"});
    pre["tool_use_id"] = "toolu_i1".into();
    hook(&home, &pre);
    let mut fail = base("PostToolUseFailure");
    fail["tool_name"] = "Bash".into();
    fail["tool_input"] = serde_json::json!({"command": "pytest"});
    fail["tool_use_id"] = "toolu_i1".into();
    fail["error"] = "Exit code 1\n===== 2 failed, 10 passed in 0.3s =====".into();
    hook(&home, &fail);
    let mut stop = base("Stop");
    stop["stop_hook_active"] = false.into();
    stop["last_assistant_message"] = "Fixed. All tests pass.".into();
    let first = hook_output(&home, &stop);
    let decision: serde_json::Value = serde_json::from_str(first.trim()).expect("a block decision");
    assert_eq!(decision["decision"], "block");
    assert!(
        decision["reason"].as_str().unwrap().contains("pytest"),
        "{decision}"
    );
    // Claude is continuing because of our hook: never block again then.
    stop["stop_hook_active"] = true.into();
    assert_eq!(hook_output(&home, &stop), "");
    // At most once per claim.
    stop["stop_hook_active"] = false.into();
    assert_eq!(hook_output(&home, &stop), "");
}

#[test]
fn intervention_is_off_by_default() {
    let home = tempfile::tempdir().unwrap();
    let home = home.path().to_path_buf();
    let _guard = Daemon(&home);
    json(&home, &["daemon", "start"]);
    let stop = serde_json::json!({"session_id": "s", "hook_event_name": "Stop", "stop_hook_active": false, "last_assistant_message": "All tests pass."});
    assert_eq!(hook_output(&home, &stop), "");
}

/// Waits until `sql` counts at least `want`, or panics after `limit`.
fn wait_for(home: &Path, sql: &str, want: i64, limit: Duration) {
    let start = Instant::now();
    loop {
        let out = fornax(home)
            .args(["query", "--json", sql])
            .output()
            .unwrap();
        let got = serde_json::from_slice::<serde_json::Value>(&out.stdout)
            .ok()
            .and_then(|v| v["rows"][0][0].as_i64())
            .unwrap_or(0);
        if got >= want {
            return;
        }
        assert!(
            start.elapsed() < limit,
            "{sql}: {got} after {limit:?}, wanted {want}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// CPU time a process has used, in clock ticks (`/proc/PID/stat`: utime + stime).
fn cpu_ticks(pid: u64) -> u64 {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[test]
fn an_idle_daemon_stays_idle_and_its_log_small() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("fornax");
    let user = dir.path().join("user");
    let projects = user.join(".claude/projects/-w-app");
    std::fs::create_dir_all(&projects).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        home.join("config.toml"),
        format!(
            "[roots]\nclaude = [{:?}]\n",
            user.join(".claude/projects").display().to_string()
        ),
    )
    .unwrap();
    let start = fornax(&home)
        .env("HOME", &user)
        .args(["daemon", "start", "--json"])
        .output()
        .unwrap();
    assert!(
        start.status.success(),
        "{}",
        String::from_utf8_lossy(&start.stderr)
    );
    let _guard = Daemon(&home);
    let started: serde_json::Value = serde_json::from_slice(&start.stdout).unwrap();
    let pid = started["pid"].as_u64().unwrap();
    // Its first pass reads the roots; after that, nothing changes and nothing should run.
    std::thread::sleep(Duration::from_secs(2));
    let before = cpu_ticks(pid);
    std::thread::sleep(Duration::from_secs(3));
    let spent = cpu_ticks(pid) - before;
    // Clock ticks are 1/100 s: an idle daemon polls now and then (a few ticks); one whose own
    // reads of its roots woke it again used a twentieth of a core.
    assert!(spent <= 10, "an idle daemon used {spent} ticks in 3 s");
    let log = std::fs::metadata(home.join("daemon.log")).unwrap().len();
    assert!(log < 64 * 1024, "daemon.log grew to {log} bytes while idle");
}

#[test]
fn the_daemon_picks_up_files_written_under_its_roots() {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("fornax");
    let user = dir.path().join("user");
    let rollouts = user.join("rollouts");
    let opencode = user.join("opencode/storage");
    std::fs::create_dir_all(&rollouts).unwrap();
    std::fs::create_dir_all(opencode.join("session")).unwrap();
    std::fs::create_dir_all(opencode.join("message")).unwrap();
    std::fs::create_dir_all(opencode.join("part")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(
        home.join("config.toml"),
        format!(
            "[roots]\ncodex = [{:?}]\nopencode-storage = [{:?}]\n",
            rollouts.display().to_string(),
            opencode.display().to_string()
        ),
    )
    .unwrap();
    let daemon = |args: &[&str]| {
        let out = fornax(&home)
            .env("HOME", &user)
            .args(args)
            .arg("--json")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    };
    let _guard = Daemon(&home);
    daemon(&["daemon", "start"]);

    // A rollout appears under a watched root, as Codex writes it.
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    std::fs::copy(
        fixtures.join("e2e/codex-rollout.jsonl"),
        rollouts.join("rollout-2026-03-01T10-00-00-0001.jsonl"),
    )
    .unwrap();
    wait_for(
        &home,
        "SELECT COUNT(*) FROM session WHERE provider = 'codex'",
        1,
        Duration::from_secs(30),
    );
    // opencode writes its storage tree document by document.
    let storage = fixtures.join("opencode/storage");
    for sub in ["session", "message", "part"] {
        let from = storage.join(sub);
        for entry in walk(&from) {
            let to = opencode.join(sub).join(entry.strip_prefix(&from).unwrap());
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(&entry, &to).unwrap();
        }
    }
    wait_for(
        &home,
        "SELECT COUNT(*) FROM finding f JOIN session s ON s.id = f.session_id
         WHERE s.provider = 'opencode' AND f.verdict = 'CONTRADICTED'",
        1,
        Duration::from_secs(30),
    );
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else {
            out.push(p);
        }
    }
    out
}
