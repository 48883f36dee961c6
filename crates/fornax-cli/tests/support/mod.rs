//! What the dashboard's tests share: a home built from real sessions, a running `fornax ui`,
//! and a browser.

#![allow(dead_code)] // each test file uses part of it

pub mod cdp;

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// "Now" for the server, so relative times are the same on every run.
pub const NOW: &str = "2026-04-25T12:00:00Z";

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// `../shared/corpus` of real agent sessions, when it is there.
pub fn corpus() -> Option<PathBuf> {
    if let Ok(d) = std::env::var("FORNAX_SHARED_DIR") {
        return Some(PathBuf::from(d).join("corpus")).filter(|p| p.is_dir());
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("shared/corpus"))
        .find(|p| p.is_dir())
}

pub fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

pub fn fornax(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
    c.env("FORNAX_HOME", home)
        .env("FORNAX_NOW", NOW)
        .env("TZ", "UTC")
        .env("NO_COLOR", "1")
        .env_remove("FORNAX_WORKSPACE");
    c
}

pub fn copy_tree(from: &Path, to: &Path) {
    for entry in std::fs::read_dir(from).unwrap() {
        let p = entry.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &dest);
        } else {
            std::fs::create_dir_all(to).unwrap();
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}

pub fn scan(home: &Path, data: &Path) {
    let out = fornax(home)
        .args(["scan", "--json"])
        .arg(data)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "scan: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A Claude Code transcript of one prompt and `calls` shell calls with their results:
/// `2 * calls + 1` items, written for load tests.
pub fn long_transcript(path: &Path, session: &str, calls: usize) {
    use std::io::Write;
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let line = |f: &mut std::io::BufWriter<std::fs::File>, v: serde_json::Value| {
        writeln!(f, "{v}").unwrap();
    };
    let base = |kind: &str, uuid: String, parent: Option<String>, ts: String| {
        serde_json::json!({
            "parentUuid": parent, "isSidechain": false, "userType": "external",
            "cwd": "/home/dev/longrun", "sessionId": session, "version": "2.1.119",
            "type": kind, "uuid": uuid, "timestamp": ts,
        })
    };
    let ts = |i: usize| {
        format!(
            "2026-04-20T{:02}:{:02}:{:02}.000Z",
            (i / 3600) % 24,
            (i / 60) % 60,
            i % 60
        )
    };
    let mut prompt = base("user", "u0".into(), None, ts(0));
    prompt["message"] = serde_json::json!({"role": "user", "content": "Run the soak script step by step and report."});
    line(&mut f, prompt);
    let mut parent = "u0".to_string();
    for i in 0..calls {
        let call = format!("toolu_{i:05}");
        let mut a = base(
            "assistant",
            format!("a{i}"),
            Some(parent.clone()),
            ts(2 * i + 1),
        );
        a["message"] = serde_json::json!({
            "id": format!("msg_{i}"), "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": [{"type": "tool_use", "id": call, "name": "Bash", "input": {"command": format!("./soak.sh --step {i}")}}],
            "stop_reason": "tool_use", "usage": {"input_tokens": 10, "output_tokens": 5}
        });
        line(&mut f, a);
        let mut r = base(
            "user",
            format!("r{i}"),
            Some(format!("a{i}")),
            ts(2 * i + 2),
        );
        r["message"] = serde_json::json!({"role": "user", "content": [{"tool_use_id": call, "type": "tool_result", "content": format!("step {i}: ok")}]});
        line(&mut f, r);
        parent = format!("r{i}");
    }
}

/// A running `fornax ui`, stopped (by its process id) when dropped.
pub struct Ui {
    child: Child,
    pub url: String,
    pub port: u16,
}

impl Ui {
    pub fn start(home: &Path) -> Ui {
        Ui::start_with(home, &[])
    }

    pub fn start_with(home: &Path, args: &[&str]) -> Ui {
        let mut child = fornax(home)
            .args(["ui", "--json", "--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let mut reader = BufReader::new(stdout);
        let mut text = String::new();
        // The JSON object is pretty-printed: read up to its closing brace.
        loop {
            let mut line = String::new();
            assert!(reader.read_line(&mut line).unwrap() > 0, "fornax ui exited");
            text.push_str(&line);
            if line.starts_with('}') {
                break;
            }
        }
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        Ui {
            child,
            url: v["url"].as_str().unwrap().to_string(),
            port: u16::try_from(v["port"].as_u64().unwrap()).unwrap(),
        }
    }

    /// The address of a page on this server (without the token).
    pub fn page(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    pub fn token(&self) -> &str {
        self.url.split("token=").nth(1).unwrap()
    }
}

impl Drop for Ui {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Where screenshots go: `target/ui-screenshots/`.
pub fn screenshots() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .unwrap()
        .join("target/ui-screenshots")
}
