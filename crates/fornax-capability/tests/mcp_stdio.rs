//! `fornax mcp` over real stdio: this test binary spawns itself as the server (with the
//! environment variable below set) and speaks MCP to it through the child's stdin/stdout.
//! Runs without libtest's harness so that the child's stdout carries nothing but protocol.
#![allow(clippy::print_stdout)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use fornax_capability::{serve_stdio, CapEnv, History, HistoryFilter};
use fornax_types::Item;
use serde_json::{json, Value};

const CHILD: &str = "FORNAX_CAPABILITY_MCP_CHILD";

struct Tiny;

impl History for Tiny {
    fn sessions(&self, _: &HistoryFilter, offset: usize, _: usize) -> Result<Vec<Value>, String> {
        Ok(if offset == 0 {
            vec![json!({"provider": "pi", "native_id": "p-1"})]
        } else {
            Vec::new()
        })
    }
    fn session(&self, id: &str) -> Result<Value, String> {
        Ok(json!({"id": id, "item_count": 0}))
    }
    fn items(&self, _: &str, _: usize, _: usize) -> Result<Vec<Item>, String> {
        Ok(Vec::new())
    }
    fn search(
        &self,
        text: &str,
        _: &HistoryFilter,
        _: usize,
        _: usize,
    ) -> Result<Vec<Value>, String> {
        Ok(vec![json!(text)])
    }
    fn findings(&self, _: Option<&str>, _: usize, _: usize) -> Result<Vec<Value>, String> {
        Ok(Vec::new())
    }
}

fn main() {
    if let Some(home) = std::env::var_os(CHILD) {
        let env = CapEnv {
            history: Some(std::sync::Arc::new(Tiny)),
            ..CapEnv::from_process(home.into(), None, true, None)
        };
        std::process::exit(if serve_stdio(&env).is_ok() { 0 } else { 3 });
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
    let mut send = |msg: &dyn std::fmt::Display| {
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
        &json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "stdio-test", "version": "0"}
        }}),
    );
    let init = recv(1);
    assert_eq!(init["result"]["serverInfo"]["name"], "fornax", "{init}");
    send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}));
    let tools = recv(2);
    assert_eq!(
        tools["result"]["tools"].as_array().unwrap().len(),
        9,
        "{tools}"
    );
    send(
        &json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "fornax_sessions", "arguments": {}}}),
    );
    let sessions = recv(3);
    let text: Value =
        serde_json::from_str(sessions["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text["sessions"][0]["native_id"], "p-1", "{sessions}");
    send(
        &json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "cap_run", "arguments": {"id": "global.echo.say", "args": {"text": "over stdio"}}}}),
    );
    let echo = recv(4);
    let text: Value =
        serde_json::from_str(echo["result"]["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text["data"]["text"], "over stdio", "{echo}");
    // Malformed JSON over real stdio: -32700, and the next request is answered.
    send(&"{not json");
    let parse = rx.recv_timeout(Duration::from_secs(30)).expect("an answer");
    assert_eq!(parse["error"]["code"], -32700, "{parse}");
    send(&json!({"jsonrpc": "2.0", "id": 5, "method": "ping"}));
    assert_eq!(recv(5)["result"], json!({}));
    drop(stdin);
    let status = child.wait().unwrap();
    assert!(
        status.success(),
        "server exits cleanly at end of input: {status}"
    );
    println!("mcp_stdio: 1 passed, 0 failed");
}
