//! Live capture that cannot silently stop, with the real binaries and sockets: a hook starts
//! the missing daemon, the status line tells capturing from spooling, the first Stop carrying
//! a false claim is blocked with a plain sentence, and `--service` writes its unit idempotently.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A scratch user: a Fornax home and an agent home, so no daemon reads the real one's files.
struct Scratch {
    _dir: tempfile::TempDir,
    home: PathBuf,
    user: PathBuf,
}

fn scratch(config: &str) -> Scratch {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("fornax");
    let user = dir.path().join("user");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&user).unwrap();
    std::fs::write(home.join("config.toml"), config).unwrap();
    Scratch {
        _dir: dir,
        home,
        user,
    }
}

impl Scratch {
    fn fornax(&self) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
        c.env("FORNAX_HOME", &self.home)
            .env("HOME", &self.user)
            .env("FORNAX_AGENT_HOME", &self.user)
            .env("XDG_CONFIG_HOME", self.user.join(".config"))
            .env("XDG_DATA_HOME", self.user.join(".local/share"))
            .env("NO_COLOR", "1");
        c
    }

    /// Runs `fornax hook claude` with `payload`; its stdout, and how long until its pipes
    /// closed (a daemon it started must not hold them).
    fn hook(&self, payload: &serde_json::Value) -> (String, Duration) {
        let started = Instant::now();
        let mut child = self
            .fornax()
            .args(["hook", "claude"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
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
        (String::from_utf8(out.stdout).unwrap(), started.elapsed())
    }

    fn run(&self, args: &[&str]) -> std::process::Output {
        self.fornax().args(args).output().unwrap()
    }

    fn count(&self, sql: &str) -> i64 {
        let out = self.run(&["query", "--json", sql]);
        serde_json::from_slice::<serde_json::Value>(&out.stdout)
            .ok()
            .and_then(|v| v["rows"][0][0].as_i64())
            .unwrap_or(0)
    }

    fn daemon_up(&self) -> bool {
        let out = self.run(&["daemon", "status", "--json"]);
        serde_json::from_slice::<serde_json::Value>(&out.stdout).is_ok_and(|v| v["running"] == true)
    }

    fn statusline(&self, session: &str) -> String {
        let mut child = self
            .fornax()
            .args(["status", "--statusline"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        child
            .stdin
            .take()
            .unwrap()
            .write_all(
                serde_json::json!({ "session_id": session })
                    .to_string()
                    .as_bytes(),
            )
            .unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(out.status.success());
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = self.run(&["daemon", "stop"]);
    }
}

fn event(session: &str, name: &str) -> serde_json::Value {
    serde_json::json!({"session_id": session, "cwd": "/tmp/x", "hook_event_name": name})
}

fn wait_until(limit: Duration, mut ok: impl FnMut() -> bool) -> Option<Duration> {
    let started = Instant::now();
    while started.elapsed() < limit {
        if ok() {
            return Some(started.elapsed());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    None
}

#[test]
fn a_hook_with_no_daemon_starts_one_and_its_event_is_stored_within_two_seconds() {
    let s = scratch("");
    assert!(!s.daemon_up());
    let session = "a1b2c3d4-0000-4000-8000-000000000001";
    let mut start = event(session, "SessionStart");
    start["source"] = "startup".into();
    let started = Instant::now();
    let (out, took) = s.hook(&start);
    assert_eq!(out, "");
    assert!(
        took < Duration::from_millis(1500),
        "the hook's pipes stayed open {took:?}: the daemon it started holds them"
    );
    let stored = wait_until(Duration::from_secs(2), || {
        s.count("SELECT COUNT(*) FROM session") >= 1
    });
    assert!(
        stored.is_some(),
        "not stored within 2 s of the hook (daemon up: {}); hook.log: {:?}",
        s.daemon_up(),
        std::fs::read_to_string(s.home.join("hook.log"))
    );
    assert!(started.elapsed() < Duration::from_secs(4));
    assert!(s.daemon_up(), "the daemon keeps running after the hook");
    let log = std::fs::read_to_string(s.home.join("hook.log")).unwrap();
    assert!(log.contains("started one"), "{log}");
}

#[test]
fn autostart_off_leaves_events_spooling_and_the_status_line_says_so() {
    let s = scratch("[daemon]\nautostart = false\n");
    // Connected: Claude Code's settings hold the hooks.
    assert!(s.run(&["install", "claude"]).status.success());
    let session = "a1b2c3d4-0000-4000-8000-000000000002";
    let mut prompt = event(session, "UserPromptSubmit");
    prompt["prompt"] = "hello".into();
    s.hook(&prompt);
    s.hook(&prompt);
    std::thread::sleep(Duration::from_millis(300));
    assert!(!s.daemon_up(), "config said not to start one");
    let line = s.statusline(session);
    assert!(
        line.starts_with("fornax spooling: daemon down, 2 events waiting since "),
        "{line}"
    );
    let doctor = s.run(&["doctor", "--json"]);
    let doctor: serde_json::Value = serde_json::from_slice(&doctor.stdout).unwrap();
    assert_eq!(doctor["live"]["state"], "spooling", "{:#}", doctor["live"]);
    assert_eq!(doctor["live"]["waiting_events"], 2);
    assert!(doctor["live"]["fix"]
        .as_str()
        .unwrap()
        .contains("fornax daemon start"));
    // The daemon runs: capturing, and the spool's events are stored.
    assert!(s.run(&["daemon", "start"]).status.success());
    let capturing = wait_until(Duration::from_secs(5), || {
        s.statusline(session).starts_with("fornax capturing")
    });
    assert!(capturing.is_some(), "{}", s.statusline(session));
    // Stopped again: spooling, nothing waiting.
    assert!(s.run(&["daemon", "stop"]).status.success());
    let line = s.statusline(session);
    assert!(
        line.starts_with("fornax spooling: daemon down, nothing waiting"),
        "{line}"
    );
}

#[test]
fn the_status_line_says_not_installed_when_nothing_is_connected() {
    let s = scratch("[daemon]\nautostart = false\n");
    assert_eq!(
        s.statusline("none"),
        "fornax: not installed (fornax install claude)"
    );
}

#[test]
fn the_first_stop_with_a_false_claim_is_blocked_with_a_plain_sentence() {
    let s = scratch("[intervene]\nenabled = true\n");
    let session = "a1b2c3d4-0000-4000-8000-000000000003";
    let mut start = event(session, "SessionStart");
    start["source"] = "startup".into();
    // The first hook of the session starts the daemon.
    s.hook(&start);
    assert!(wait_until(Duration::from_secs(3), || s.daemon_up()).is_some());
    let mut prompt = event(session, "UserPromptSubmit");
    prompt["prompt"] = "fix the parser".into();
    s.hook(&prompt);
    let mut pre = event(session, "PreToolUse");
    pre["tool_name"] = "Bash".into();
    pre["tool_input"] = serde_json::json!({"command": "cargo test"});
    pre["tool_use_id"] = "toolu_live_1".into();
    s.hook(&pre);
    let mut fail = event(session, "PostToolUseFailure");
    fail["tool_name"] = "Bash".into();
    fail["tool_input"] = serde_json::json!({"command": "cargo test"});
    fail["tool_use_id"] = "toolu_live_1".into();
    fail["error"] = "Exit code 101\ntest result: FAILED. 8 passed; 2 failed; 0 ignored".into();
    s.hook(&fail);
    // No transcript anywhere: the claim is only in the Stop payload.
    let mut stop = event(session, "Stop");
    stop["stop_hook_active"] = false.into();
    stop["last_assistant_message"] = "Done: the parser is fixed and all tests pass.".into();
    let (out, took) = s.hook(&stop);
    assert!(took < Duration::from_secs(3), "the Stop hook took {took:?}");
    let decision: serde_json::Value = serde_json::from_str(out.trim()).unwrap_or_else(|_| {
        panic!(
            "a block decision, got {out:?}; hook.log {:?}",
            std::fs::read_to_string(s.home.join("hook.log"))
        )
    });
    assert_eq!(decision["decision"], "block");
    let reason = decision["reason"].as_str().unwrap();
    assert!(reason.starts_with("You said \""), "{reason}");
    assert!(reason.contains("but `cargo test` exited 101"), "{reason}");
    for internal in ["toolu_", "#", "evidence", "item", "loop", "["] {
        assert!(!reason.contains(internal), "{internal:?} in {reason}");
    }
    // Once per claim: the same Stop again is let through.
    let (again, _) = s.hook(&stop);
    assert_eq!(again, "");
}

#[test]
fn the_user_service_is_written_and_removed_idempotently() {
    let s = scratch("");
    let unit = s.user.join(".config/systemd/user/fornax.service");
    let json = |args: &[&str]| -> serde_json::Value {
        let out = s.run(args);
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let first = json(&["install", "claude", "--service", "--json"]);
    assert_eq!(first["changed"], true);
    let text = std::fs::read_to_string(&unit).unwrap();
    assert!(
        text.contains(&format!("--home \"{}\" daemon run", s.home.display())),
        "{text}"
    );
    assert!(
        first["hints"]
            .to_string()
            .contains("systemctl --user enable --now fornax.service"),
        "the manager is not asked in a scratch home, and the hint says what to run: {first:#}"
    );
    let second = json(&["install", "claude", "--service", "--json"]);
    assert_eq!(second["changed"], false, "{second:#}");
    assert_eq!(std::fs::read_to_string(&unit).unwrap(), text);
    // A unit someone else wrote is never replaced.
    let removed = json(&["uninstall", "claude", "--service", "--json"]);
    assert_eq!(removed["changed"], true);
    assert!(!unit.exists());
    let again = json(&["uninstall", "claude", "--service", "--json"]);
    assert_eq!(again["changed"], false);
    std::fs::write(&unit, "[Unit]\nDescription=mine\n").unwrap();
    let refused = s.run(&["install", "claude", "--service"]);
    assert_eq!(refused.status.code(), Some(1));
    assert_eq!(
        std::fs::read_to_string(&unit).unwrap(),
        "[Unit]\nDescription=mine\n"
    );
}
