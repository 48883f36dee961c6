#![allow(clippy::print_stderr)] // a skipped terminal test says why
//! `fornax watch` end to end: in a real pseudo-terminal (a private tmux server), and through
//! a pipe. A Claude Code transcript grows by the turn that claims "All tests pass"; once
//! `fornax scan` has ingested it, the view shows the claim CONTRADICTED without a restart.

mod support;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use support::{fixtures, fornax, in_ci, scan, NOW};

const SESSION: &str = "5b7c1f0e-2d4a-4c55-9a1e-0f3b6c2d8e11";

/// The fixture transcript split before its last line (the turn with the false claim).
fn transcript_parts() -> (String, String) {
    let text = std::fs::read_to_string(fixtures().join("e2e/claude-transcript.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let (head, tail) = lines.split_at(lines.len() - 1);
    (format!("{}\n", head.join("\n")), format!("{}\n", tail[0]))
}

/// A home holding the transcript without its last turn, and where the transcript lives.
fn home_with_first_turns() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let file = data.join(format!("{SESSION}.jsonl"));
    std::fs::write(&file, transcript_parts().0).unwrap();
    scan(&dir.path().join("home"), &data);
    (dir, file)
}

fn append_last_turn(file: &Path) {
    let mut f = std::fs::OpenOptions::new().append(true).open(file).unwrap();
    f.write_all(transcript_parts().1.as_bytes()).unwrap();
}

/// A private tmux server running one `fornax watch` in a fixed-size window.
struct Tmux {
    socket: PathBuf,
}

impl Tmux {
    fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.arg("-S").arg(&self.socket);
        c
    }

    fn start(dir: &Path, home: &Path, args: &str) -> Option<Tmux> {
        if Command::new("tmux").arg("-V").output().is_err() {
            assert!(!in_ci(), "tmux is required under CI (.ci/run installs it)");
            eprintln!("skipping: tmux is not installed");
            return None;
        }
        let tmux = Tmux {
            socket: dir.join("tmux.sock"),
        };
        let program = format!(
            "env FORNAX_HOME={} FORNAX_NOW={NOW} TZ=UTC NO_COLOR=1 {} watch {args}",
            home.display(),
            env!("CARGO_BIN_EXE_fornax"),
        );
        let status = tmux
            .cmd()
            .args([
                "-f",
                "/dev/null",
                "new-session",
                "-d",
                "-s",
                "w",
                "-x",
                "110",
                "-y",
                "26",
            ])
            .arg(program)
            .status()
            .unwrap();
        assert!(status.success(), "tmux new-session failed");
        Some(tmux)
    }

    fn screen(&self) -> String {
        let out = self
            .cmd()
            .args(["capture-pane", "-p", "-t", "w"])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let lines: Vec<&str> = text.lines().map(str::trim_end).collect();
        lines.join("\n").trim_end().to_string()
    }

    /// The screen once it shows `needle` (and has stopped changing), or a failure showing it.
    fn wait_for(&self, needle: &str) -> String {
        let deadline = Instant::now() + Duration::from_secs(20);
        loop {
            let screen = self.screen();
            if screen.contains(needle) {
                std::thread::sleep(Duration::from_millis(300));
                let again = self.screen();
                if again == screen {
                    return screen;
                }
                continue;
            }
            assert!(
                Instant::now() < deadline,
                "the view never showed {needle:?}; it shows:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn keys(&self, keys: &[&str]) {
        let status = self
            .cmd()
            .args(["send-keys", "-t", "w"])
            .args(keys)
            .status()
            .unwrap();
        assert!(status.success());
    }

    fn running(&self) -> bool {
        self.cmd()
            .args(["has-session", "-t", "w"])
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").stderr(Stdio::null()).status();
    }
}

#[test]
fn the_terminal_view_shows_a_verdict_appear_as_the_transcript_grows() {
    let (dir, file) = home_with_first_turns();
    let home = dir.path().join("home");
    let Some(tmux) = Tmux::start(dir.path(), &home, "--interval 100") else {
        return;
    };
    let before = tmux.wait_for("cargo test");
    assert!(!before.contains("CONTRADICTED"), "{before}");
    insta::assert_snapshot!("watch_before_the_claim", before);

    append_last_turn(&file);
    scan(&home, file.parent().unwrap());
    let after = tmux.wait_for("CONTRADICTED");
    assert!(after.contains("All tests pass now"), "{after}");
    insta::assert_snapshot!("watch_after_the_claim", after);

    // Enter opens the session: its full id and its own claims.
    tmux.keys(&["Enter"]);
    let open = tmux.wait_for("This session's claims");
    assert!(open.contains("5b7c1f0e-2d4a"), "the full id: {open}");
    assert!(open.contains("CONTRADICTED"), "{open}");
    insta::assert_snapshot!("watch_session_open", open);

    // Pause: the view says so; Esc back, then q quits and the terminal is given back.
    // (Separate sends: Esc followed at once by a key reads as Alt plus that key.)
    tmux.keys(&["Escape"]);
    tmux.wait_for("↑↓ select");
    tmux.keys(&["p"]);
    assert!(tmux.wait_for("PAUSED").contains("Sessions (1)"));
    tmux.keys(&["q"]);
    let deadline = Instant::now() + Duration::from_secs(10);
    while tmux.running() {
        assert!(
            Instant::now() < deadline,
            "q did not quit:\n{}",
            tmux.screen()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn the_agent_filter_hides_other_agents_sessions() {
    let (dir, _file) = home_with_first_turns();
    let home = dir.path().join("home");
    let Some(tmux) = Tmux::start(dir.path(), &home, "--provider codex") else {
        return;
    };
    let screen = tmux.wait_for("Sessions (0)");
    assert!(screen.contains("Codex"), "{screen}");
    assert!(!screen.contains("cargo test"), "{screen}");
    // `a` moves on through the agents that have sessions, then to all: Claude Code's appears.
    tmux.keys(&["a"]);
    let screen = tmux.wait_for("Sessions (1)");
    assert!(screen.contains("cargo test"), "{screen}");
}

#[test]
fn the_plain_stream_prints_the_new_turn_and_its_verdict() {
    let (dir, file) = home_with_first_turns();
    let home = dir.path().join("home");
    let mut child = fornax(&home)
        .args(["watch", "--interval", "100"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut seen = Vec::new();
    let mut wait_for = |needle: &str| {
        let deadline = Instant::now() + Duration::from_secs(20);
        while !seen.iter().any(|l: &String| l.contains(needle)) {
            let left = deadline.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => seen.push(line),
                Err(_) => panic!("no line with {needle:?}; got:\n{}", seen.join("\n")),
            }
        }
        seen.clone()
    };
    let start = wait_for("5b7c1f0e");
    assert!(
        start[0].starts_with("— daemon: not running · spool: nothing waiting"),
        "{start:?}"
    );
    append_last_turn(&file);
    scan(&home, file.parent().unwrap());
    let lines = wait_for("CONTRADICTED");
    let _ = child.kill();
    let _ = child.wait();
    let new: Vec<&String> = lines.iter().skip(start.len()).collect();
    assert!(
        new.iter()
            .any(|l| l.starts_with("08:00:20 Claude Code 5b7c1f0e") && l.contains("All tests pass")),
        "the new turn is streamed with its time, agent and session: {new:?}"
    );
    let verdict = new.iter().find(|l| l.contains("CONTRADICTED")).unwrap();
    assert!(verdict.contains("“All tests pass now"), "{verdict}");
    assert!(
        !verdict.contains('\u{1b}'),
        "no color on a pipe: {verdict:?}"
    );
}

#[test]
fn a_bad_provider_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let out = fornax(dir.path())
        .args(["watch", "--provider", "nonesuch"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("nonesuch"));
}
