//! `fornax mcp` over real stdio: this test binary spawns itself as the server (with the
//! environment variable below set) and speaks MCP to it through the child's stdin/stdout.
//! Runs without libtest's harness so that the child's stdout carries nothing but protocol.
#![allow(clippy::print_stdout)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use fornax_capability::{serve_stdio, CapEnv, History};
use serde_json::{json, Value};

const CHILD: &str = "FORNAX_CAPABILITY_MCP_CHILD";

struct Tiny;

impl History for Tiny {
    fn sessions(&self, _filter: &Value) -> Result<Value, String> {
        Ok(json!({"sessions": [{"provider": "pi", "native_id": "p-1"}]}))
    }
    fn session(&self, id: &str) -> Result<Value, String> {
        Ok(json!({"id": id}))
    }
    fn search(&self, text: &str, _limit: usize) -> Result<Value, String> {
        Ok(json!({"hits": [text]}))
    }
    fn findings(&self, _session: Option<&str>) -> Result<Value, String> {
        Ok(json!({"findings": []}))
    }
}

fn main() {
    if let Some(home) = std::env::var_os(CHILD) {
        let env = CapEnv {
            history: Some(std::sync::Arc::new(Tiny)),
            ..CapEnv::from_process(home.into(), None, true, None)
        };
        std::process::exit(if serve_stdio(env).is_ok() { 0 } else { 3 });
    }
    let home = tempfile::tempdir().unwrap();
    let mut child = Command::new(std::env::current_exe().unwrap())
        .env(CHILD, home.path())
        .current_dir(home.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel::<Value>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let value: Value = serde_json::from_str(&line)
                .unwrap_or_else(|e| panic!("non-JSON on stdout: {line:?}: {e}"));
            if tx.send(value).is_err() {
                break;
            }
        }
    });
    let mut send = |msg: Value| {
        writeln!(stdin, "{msg}").unwrap();
        stdin.flush().unwrap();
    };
    let recv = |id: u64| loop {
        let msg = rx
            .recv_timeout(Duration::from_secs(30))
            .expect("answer in time");
        if msg["id"] == json!(id) {
            return msg;
        }
    };
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "stdio-test", "version": "0"}
        }}),
    );
    let init = recv(1);
    assert_eq!(init["result"]["serverInfo"]["name"], "fornax", "{init}");
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}));
    let tools = recv(2);
    assert_eq!(
        tools["result"]["tools"].as_array().unwrap().len(),
        7,
        "{tools}"
    );
    send(
        json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "fornax_sessions", "arguments": {}}}),
    );
    let sessions = recv(3);
    assert_eq!(
        sessions["result"]["structuredContent"]["sessions"][0]["native_id"], "p-1",
        "{sessions}"
    );
    send(
        json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "cap_run", "arguments": {"id": "global.echo.say", "args": {"text": "over stdio"}}}}),
    );
    let echo = recv(4);
    assert_eq!(
        echo["result"]["structuredContent"]["data"]["text"], "over stdio",
        "{echo}"
    );
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(
        status.success(),
        "server exits cleanly at end of input: {status}"
    );
    println!("mcp_stdio: 1 passed, 0 failed");
}
