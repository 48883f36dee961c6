//! Capability processes are confined, through the real binary and its confinement helper:
//! secrets unreadable, nothing written outside the workspace, no network (loopback included)
//! unless declared, bounded memory, no descendant alive after the deadline, and arguments that
//! cannot become flags. A capability that needs none of this still works.
#![cfg(target_os = "linux")]
#![allow(clippy::print_stderr)]

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

struct Box {
    _tmp: tempfile::TempDir,
    home: PathBuf,
    user_home: PathBuf,
    ws: PathBuf,
}

impl Box {
    fn new() -> Box {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("fornax-home");
        let user_home = tmp.path().join("user");
        let ws = tmp.path().join("ws");
        for d in [&home, &user_home, &ws] {
            std::fs::create_dir_all(d).unwrap();
        }
        Box {
            _tmp: tmp,
            home,
            user_home,
            ws,
        }
    }

    /// A capability in FORNAX_HOME (the user's own: trusted, host-observed).
    fn capability(&self, name: &str, command: &str, args: &[&str], extra: Value) {
        let id = format!("global.probe.{name}");
        let mut m = json!({
            "manifestVersion": 1, "id": id, "summary": "probe", "provider": "test",
            "adapterType": "cli",
            "executionTarget": {"command": command, "args": args},
            "argsSchema": {"type": "object", "properties": {}},
            "outputModes": ["text"], "sideEffects": ["process"], "scope": "global",
            "lifecycleState": "active", "owner": "tests"
        });
        for (k, v) in extra.as_object().unwrap() {
            if k == "executionTarget" {
                for (tk, tv) in v.as_object().unwrap() {
                    m["executionTarget"][tk] = tv.clone();
                }
            } else {
                m[k] = v.clone();
            }
        }
        let dir = self.home.join("capabilities");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(format!("{id}.json")), m.to_string()).unwrap();
    }

    fn run(&self, name: &str, args: &[&str]) -> (bool, Value) {
        let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
        c.env("FORNAX_HOME", &self.home)
            .env("HOME", &self.user_home)
            .env("NO_COLOR", "1")
            .env_remove("FORNAX_WORKSPACE")
            .current_dir(&self.ws)
            .args(["--json", "cap", "run", &format!("global.probe.{name}")]);
        for a in args {
            c.args(["-a", a]);
        }
        let out = c.output().unwrap();
        let envelope: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
            panic!(
                "{e}: {}\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            )
        });
        (out.status.success(), envelope)
    }
}

fn confinement(envelope: &Value, name: &str) -> bool {
    envelope["meta"]["confinement"]
        .as_array()
        .into_iter()
        .flatten()
        .any(|c| c["name"] == name && c["active"] == true)
}

fn python() -> Option<&'static str> {
    ["/usr/bin/python3", "/usr/local/bin/python3"]
        .into_iter()
        .find(|p| Path::new(p).exists())
}

#[test]
fn a_capability_that_needs_nothing_confined_still_works() {
    let b = Box::new();
    b.capability("echo", "/bin/echo", &["hello", "there"], json!({}));
    let (ok, env) = b.run("echo", &[]);
    assert!(ok, "{env}");
    assert_eq!(env["data"], "hello there");
    for name in ["filesystem", "network", "memory", "descendants"] {
        assert!(confinement(&env, name), "{name} not active: {env}");
    }
}

#[test]
fn secrets_under_a_fake_home_are_unreadable() {
    let b = Box::new();
    std::fs::create_dir_all(b.user_home.join(".ssh")).unwrap();
    std::fs::write(b.user_home.join(".ssh/id_rsa"), "PRIVATE-KEY-MATERIAL").unwrap();
    std::fs::write(b.user_home.join("notes.txt"), "ordinary notes").unwrap();
    b.capability(
        "cat",
        "/bin/cat",
        &[b.user_home.join(".ssh/id_rsa").to_str().unwrap()],
        json!({}),
    );
    let (ok, env) = b.run("cat", &[]);
    assert!(!ok, "{env}");
    assert!(!env.to_string().contains("PRIVATE-KEY-MATERIAL"), "{env}");
    // FORNAX_HOME is out of reach too.
    b.capability("catdb", "/bin/ls", &[b.home.to_str().unwrap()], json!({}));
    let (ok, env) = b.run("catdb", &[]);
    assert!(!ok, "{env}");
    // An ordinary file under the same home is readable.
    b.capability(
        "notes",
        "/bin/cat",
        &[b.user_home.join("notes.txt").to_str().unwrap()],
        json!({}),
    );
    let (ok, env) = b.run("notes", &[]);
    assert!(ok, "{env}");
    assert_eq!(env["data"], "ordinary notes");
}

#[test]
fn nothing_is_written_outside_the_workspace() {
    let b = Box::new();
    let outside = b.user_home.join("planted");
    b.capability(
        "touch",
        "/usr/bin/touch",
        &[outside.to_str().unwrap()],
        json!({}),
    );
    let (ok, env) = b.run("touch", &[]);
    assert!(!ok, "{env}");
    assert!(!outside.exists());
    let inside = b.ws.join("made-here");
    b.capability(
        "touchin",
        "/usr/bin/touch",
        &[inside.to_str().unwrap()],
        json!({}),
    );
    let (ok, env) = b.run("touchin", &[]);
    assert!(ok, "{env}");
    assert!(inside.exists());
}

#[test]
fn no_network_not_even_loopback_unless_declared() {
    let Some(py) = python() else {
        eprintln!("skipped: no python3 to open a socket with");
        return;
    };
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    listener.set_nonblocking(true).unwrap();
    let script = format!(
        "import socket; socket.create_connection(('127.0.0.1', {port}), timeout=3); print('connected')"
    );
    let b = Box::new();
    b.capability("connect", py, &["-c", &script], json!({}));
    let (ok, env) = b.run("connect", &[]);
    assert!(!ok, "{env}");
    assert!(
        listener.accept().is_err(),
        "a connection reached the listener"
    );
    // Declared network access is given.
    b.capability(
        "connectok",
        py,
        &["-c", &script],
        json!({"sideEffects": ["process", "network"]}),
    );
    let (ok, env) = b.run("connectok", &[]);
    assert!(ok, "{env}");
    assert_eq!(env["data"], "connected");
}

#[test]
fn a_gigabyte_allocation_is_refused() {
    let Some(py) = python() else {
        eprintln!("skipped: no python3 to allocate with");
        return;
    };
    let b = Box::new();
    let limits = json!({"executionTarget": {"limits": {"memoryMb": 512}}});
    b.capability(
        "alloc",
        py,
        &[
            "-c",
            "b = bytearray(1 << 30); b[-1] = 1; print('allocated')",
        ],
        limits.clone(),
    );
    let (ok, env) = b.run("alloc", &[]);
    assert!(!ok, "{env}");
    assert!(!env.to_string().contains("\"allocated\""), "{env}");
    b.capability(
        "small",
        py,
        &["-c", "b = bytearray(1 << 20); print('allocated')"],
        limits,
    );
    let (ok, env) = b.run("small", &[]);
    assert!(ok, "{env}");
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .map(|s| {
            !s.rsplit(')')
                .next()
                .unwrap_or("")
                .trim_start()
                .starts_with('Z')
        })
        .unwrap_or(false)
}

#[test]
fn a_setsid_grandchild_dies_at_the_deadline() {
    let b = Box::new();
    let pidfile = b.ws.join("grandchild.pid");
    let script = format!(
        "setsid sh -c 'echo $$ > {}; exec sleep 60' & sleep 60",
        pidfile.display()
    );
    b.capability(
        "linger",
        "/bin/sh",
        &["-c", &script],
        json!({"executionTarget": {"timeoutMs": 1500}}),
    );
    let started = std::time::Instant::now();
    let (ok, env) = b.run("linger", &[]);
    assert!(!ok, "{env}");
    assert_eq!(env["meta"]["timedOut"], true, "{env}");
    assert!(started.elapsed() < std::time::Duration::from_secs(20));
    let pid: u32 = std::fs::read_to_string(&pidfile)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let until = std::time::Instant::now() + std::time::Duration::from_secs(3);
    while alive(pid) && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    assert!(
        !alive(pid),
        "the setsid grandchild {pid} outlived the deadline"
    );
}

#[test]
fn an_argument_value_never_becomes_a_flag() {
    let b = Box::new();
    std::fs::write(b.ws.join("input.txt"), "b\na\n").unwrap();
    let target = b.ws.join("written-by-sort");
    b.capability(
        "sort",
        "/usr/bin/sort",
        &[],
        json!({
            "argsSchema": {"type": "object", "properties": {"file": {"type": "string"}}},
            "argMap": {"file": {"positional": true}}
        }),
    );
    let (ok, env) = b.run("sort", &[&format!("file=-o{}", target.display())]);
    assert!(!ok, "sort must read the value as a file name: {env}");
    assert!(
        !target.exists(),
        "the value was parsed as -o and wrote {}",
        target.display()
    );
    assert_eq!(env["meta"]["argv"][1], "--", "{env}");
    let (ok, env) = b.run("sort", &["file=input.txt"]);
    assert!(ok, "{env}");
    assert_eq!(env["data"], "a\nb");
}
