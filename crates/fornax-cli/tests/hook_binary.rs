//! The `fornax-hook` binary as an agent runs it: one process per event, a fake daemon on the
//! home's socket, and the spool bytes checked on disk.

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::thread::JoinHandle;

use serde_json::Value;

fn hook(home: &Path, agent: &str, stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fornax-hook"))
        .args(["--home", home.to_str().unwrap(), agent])
        .env_remove("FORNAX_HOME")
        // The fake daemon stands in for a real one: a hook must not start one.
        .env("FORNAX_DAEMON_AUTOSTART", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "a hook always exits 0");
    out
}

/// Spool lines of a home, parsed.
fn spooled(home: &Path) -> Vec<Value> {
    let mut lines = Vec::new();
    let Ok(dir) = std::fs::read_dir(home.join("spool")) else {
        return lines;
    };
    for entry in dir {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        lines.extend(
            text.lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap())
                .filter(|v| v.get("fornax_spool_segment").is_none()),
        );
    }
    lines
}

/// A daemon stand-in: accepts `n` connections on the home's socket, answers each request line
/// with `answer`, and returns the requests it saw.
fn fake_daemon(home: &Path, n: usize, answer: &'static str) -> JoinHandle<Vec<Value>> {
    std::fs::create_dir_all(home).unwrap();
    let listener = UnixListener::bind(home.join("fornax.sock")).unwrap();
    std::thread::spawn(move || {
        let mut seen = Vec::new();
        for _ in 0..n {
            let (stream, _) = listener.accept().unwrap();
            let mut line = String::new();
            BufReader::new(&stream).read_line(&mut line).unwrap();
            seen.push(serde_json::from_str(&line).unwrap());
            let _ = (&stream).write_all(format!("{answer}\n").as_bytes());
        }
        seen
    })
}

fn scratch() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let home = dir.path().join("home");
    (dir, home)
}

#[test]
fn a_claude_event_is_spooled_with_its_bytes_and_pokes_the_daemon() {
    let (_dir, home) = scratch();
    let daemon = fake_daemon(&home, 1, r#"{"ok":true}"#);
    let payload =
        br#"{"session_id":"s1", "hook_event_name":"PreToolUse","tool_input":{"command":"ls"}}"#;
    let out = hook(&home, "claude", payload);
    assert!(out.stdout.is_empty());
    assert_eq!(
        daemon.join().unwrap(),
        vec![serde_json::json!({"op": "poke"})]
    );

    let files: Vec<_> = std::fs::read_dir(home.join("spool")).unwrap().collect();
    assert_eq!(files.len(), 1);
    let path = files[0].as_ref().unwrap().path();
    let name = path.file_name().unwrap().to_str().unwrap().to_string();
    assert!(
        name.starts_with("events-") && name.ends_with(".ndjson"),
        "{name}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let (header, text) = text.split_once('\n').unwrap();
    let header: Value = serde_json::from_str(header).unwrap();
    assert_eq!(
        header["fornax_spool_segment"], 1,
        "a segment starts with its header"
    );
    assert_eq!(header["day"].as_str().unwrap(), &name[7..17]);
    let prefix = r#"{"fornax_spool":1,"adapter":"claude-hook","received_at":""#;
    assert!(text.starts_with(prefix), "{text}");
    let suffix = format!(",\"payload\":{}}}\n", std::str::from_utf8(payload).unwrap());
    assert!(
        text.ends_with(&suffix),
        "the payload bytes are kept: {text}"
    );
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
}

#[test]
fn a_stop_asks_the_daemon_only_when_intervention_is_on() {
    let (_dir, home) = scratch();
    let stop = br#"{"session_id":"s1","hook_event_name":"Stop","stop_hook_active":false}"#;

    // Off (no config): a poke, nothing printed.
    let daemon = fake_daemon(&home, 1, r#"{"ok":true}"#);
    assert!(hook(&home, "claude", stop).stdout.is_empty());
    assert_eq!(daemon.join().unwrap()[0]["op"], "poke");

    // On: the daemon is asked, and its block decision is the hook's only output.
    std::fs::write(home.join("config.toml"), "[intervene]\nenabled = true\n").unwrap();
    std::fs::remove_file(home.join("fornax.sock")).unwrap();
    let daemon = fake_daemon(
        &home,
        1,
        r#"{"reply":"decision","block":"You said \"done\"."}"#,
    );
    let out = hook(&home, "claude", stop);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "{\"decision\":\"block\",\"reason\":\"You said \\\"done\\\".\"}\n"
    );
    assert_eq!(
        daemon.join().unwrap(),
        vec![serde_json::json!({"op": "decide", "session_id": "s1", "stop_hook_active": false})]
    );

    // A config `fornax` would refuse means intervention off.
    std::fs::write(
        home.join("config.toml"),
        "[intervene]\nenabled = true\nbogus = 1\n",
    )
    .unwrap();
    std::fs::remove_file(home.join("fornax.sock")).unwrap();
    let daemon = fake_daemon(&home, 1, r#"{"reply":"decision","block":"x"}"#);
    assert!(hook(&home, "claude", stop).stdout.is_empty());
    assert_eq!(daemon.join().unwrap()[0]["op"], "poke");
    assert_eq!(spooled(&home).len(), 3, "every Stop is spooled");
}

#[test]
fn a_pretty_printed_payload_is_spooled_on_one_line_with_its_value() {
    let (_dir, home) = scratch();
    let value = serde_json::json!({"session_id": "s1", "hook_event_name": "PreToolUse",
        "tool_input": {"command": "printf 'a\\nb'", "lines": ["x", "y"]}});
    let pretty = serde_json::to_string_pretty(&value)
        .unwrap()
        .replace('\n', "\r\n");
    assert!(pretty.contains("\r\n"));
    hook(&home, "claude", pretty.as_bytes());
    let lines = spooled(&home);
    assert_eq!(lines.len(), 1);
    assert_eq!(
        lines[0]["payload"], value,
        "the payload's value is unchanged"
    );
}

#[test]
fn failures_never_reach_the_agent() {
    let (_dir, home) = scratch();
    // No daemon, an empty payload, a payload that is not JSON.
    assert!(hook(&home, "claude", b"").stdout.is_empty());
    assert!(spooled(&home).is_empty(), "nothing to record");
    let out = hook(&home, "claude", b"{not json");
    assert!(out.stdout.is_empty() && out.stderr.is_empty());
    let log = std::fs::read_to_string(home.join("hook.log")).unwrap();
    assert!(log.contains("hook Claude failed"), "{log}");
    assert!(spooled(&home).is_empty());
    // With intervention on and no daemon, a Stop is still spooled and prints nothing.
    std::fs::write(home.join("config.toml"), "[intervene]\nenabled = true\n").unwrap();
    let out = hook(
        &home,
        "claude",
        br#"{"session_id":"s","hook_event_name":"Stop"}"#,
    );
    assert!(out.stdout.is_empty());
    assert_eq!(spooled(&home).len(), 1);
}

#[test]
fn the_opencode_stream_spools_each_json_line() {
    let (_dir, home) = scratch();
    let out = hook(
        &home,
        "opencode",
        b"{\"type\":\"session.created\"}\n\nnot json\n{\"type\":\"message.updated\"}\n",
    );
    assert!(out.stdout.is_empty());
    let lines = spooled(&home);
    assert_eq!(lines.len(), 2);
    assert!(lines.iter().all(|l| l["adapter"] == "opencode-plugin"));
    assert_eq!(lines[1]["payload"]["type"], "message.updated");
    let log = std::fs::read_to_string(home.join("hook.log")).unwrap();
    assert!(log.contains("not JSON; dropped"), "{log}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&home).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o700, "a home the hook creates is private");
}

#[test]
fn the_home_comes_from_fornax_home_and_usage_errors_exit_2() {
    let (_dir, home) = scratch();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fornax-hook"))
        .arg("claude")
        .env("FORNAX_HOME", &home)
        .env("FORNAX_DAEMON_AUTOSTART", "0")
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"{}").unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(spooled(&home).len(), 1);

    let out = Command::new(env!("CARGO_BIN_EXE_fornax-hook"))
        .arg("codex")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn a_stdin_left_open_ends_at_the_deadline_with_success() {
    let (_dir, home) = scratch();
    let started = std::time::Instant::now();
    let mut child = Command::new(env!("CARGO_BIN_EXE_fornax-hook"))
        .args(["--home", home.to_str().unwrap(), "claude"])
        .env_remove("FORNAX_HOME")
        .env("FORNAX_DAEMON_AUTOSTART", "0")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Half a payload, and the pipe stays open: the agent hung.
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(br#"{"session_id":"s","#).unwrap();
    let status = child.wait().unwrap();
    let took = started.elapsed();
    drop(stdin);
    assert!(status.success(), "a hook at its deadline exits 0: {status}");
    assert!(
        took >= fornax_live::hook::HOOK_DEADLINE && took < std::time::Duration::from_secs(8),
        "ended after {took:?}"
    );
    let log = std::fs::read_to_string(home.join("hook.log")).unwrap();
    assert!(log.contains("hook deadline reached"), "{log}");
    assert!(spooled(&home).is_empty(), "nothing half-read is recorded");
}

/// What an ELF file asks of the dynamic loader: whether it names an interpreter, and how many
/// shared libraries it needs.
fn elf_dynamic_needs(path: &str) -> (bool, usize) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[..4], b"\x7fELF", "{path} is an ELF file");
    assert_eq!(bytes[4], 2, "{path} is a 64-bit ELF file");
    let u16_at = |at: usize| u16::from_le_bytes(bytes[at..at + 2].try_into().unwrap()) as usize;
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap()) as usize;
    let (phoff, phentsize, phnum) = (u64_at(0x20), u16_at(0x36), u16_at(0x38));
    let mut interp = false;
    let mut needed = 0;
    for i in 0..phnum {
        let ph = phoff + i * phentsize;
        match u32_at(ph) {
            // PT_INTERP
            3 => interp = true,
            // PT_DYNAMIC: 16-byte entries, DT_NEEDED = 1, DT_NULL = 0 ends them.
            2 => {
                let (offset, size) = (u64_at(ph + 8), u64_at(ph + 32));
                for entry in (offset..offset + size).step_by(16) {
                    match u64_at(entry) {
                        0 => break,
                        1 => needed += 1,
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    (interp, needed)
}

#[cfg(all(target_os = "linux", target_env = "gnu", target_endian = "little"))]
#[test]
fn the_hook_binary_is_static_where_the_build_could_link_it_so() {
    let hook = env!("CARGO_BIN_EXE_fornax-hook");
    let fornax = env!("CARGO_BIN_EXE_fornax");
    assert!(
        elf_dynamic_needs(fornax).0,
        "`fornax` keeps the ordinary dynamic link"
    );
    let (interp, needed) = elf_dynamic_needs(hook);
    match env!("FORNAX_HOOK_LINK") {
        "static" => assert_eq!(
            (interp, needed),
            (false, 0),
            "{hook} loads no interpreter and no shared library"
        ),
        "dynamic" => assert!(interp, "{hook} is dynamic, as the build said"),
        other => panic!("FORNAX_HOOK_LINK={other}"),
    }
    // The static binary still answers like the dynamic one.
    let out = Command::new(hook).arg("--version").output().unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("fornax-hook "));
}
