//! `fornax mcp` through the real binary on a real store: a session of 10,000 items, one tool
//! output of 50 MB, a false "tests pass" claim. Every tool's answer stays within its byte
//! bound and the pages, followed by their cursors, cover the whole session exactly once;
//! malformed JSON is answered with -32700 and the next request still is. `fornax mcp test`
//! prints what an agent would see, and `install claude --mcp` / `uninstall claude` edit
//! `~/.claude.json` and `.mcp.json` idempotently in a throwaway home.

// One line of numbers (pages, largest answer) for whoever runs it with --nocapture.
#![allow(clippy::print_stderr)]

mod support;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{json, Value};
use support::fornax;

const BIG_OUTPUT: usize = 50 * 1024 * 1024;
const SESSION: &str = "5e550000-0000-4000-8000-00000000b16f";

/// A Claude Code transcript: a prompt, `calls` shell calls with results (one of them 50 MB),
/// then a failing `cargo test` and the agent saying the tests pass.
fn transcript(path: &Path, cwd: &Path, calls: usize) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    let cwd = cwd.display().to_string();
    let mut n = 0usize;
    let mut parent: Option<String> = None;
    let mut line = |f: &mut std::io::BufWriter<std::fs::File>, kind: &str, message: Value| {
        n += 1;
        let uuid = format!("u{n}");
        let v = json!({
            "parentUuid": parent, "isSidechain": false, "userType": "external", "cwd": cwd,
            "sessionId": SESSION, "version": "2.1.119", "type": kind, "uuid": uuid,
            "timestamp": format!("2026-04-20T{:02}:{:02}:{:02}.000Z", (n / 3600) % 24, (n / 60) % 60, n % 60),
            "message": message,
        });
        serde_json::to_writer(&mut *f, &v).unwrap();
        f.write_all(b"\n").unwrap();
        parent = Some(uuid);
    };
    line(
        &mut f,
        "user",
        json!({"role": "user", "content": "Fix the parser and make the tests pass."}),
    );
    let mut call = |f: &mut std::io::BufWriter<std::fs::File>,
                    i: usize,
                    command: &str,
                    output: String,
                    error: bool| {
        let id = format!("toolu_{i:05}");
        line(
            f,
            "assistant",
            json!({
                "id": format!("msg_{i}"), "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                "content": [{"type": "tool_use", "id": id, "name": "Bash", "input": {"command": command}}],
                "stop_reason": "tool_use", "usage": {"input_tokens": 10, "output_tokens": 5}
            }),
        );
        line(
            f,
            "user",
            json!({"role": "user", "content": [
                {"tool_use_id": id, "type": "tool_result", "content": output, "is_error": error}
            ]}),
        );
    };
    for i in 0..calls {
        let output = if i == 7 {
            let mut big = String::with_capacity(BIG_OUTPUT + 64);
            while big.len() < BIG_OUTPUT {
                big.push_str("log line with \"quotes\" and a tab\tto escape\n");
            }
            big
        } else {
            format!("step {i}: ok")
        };
        call(&mut f, i, &format!("./step.sh {i}"), output, false);
    }
    call(
        &mut f,
        calls,
        "cargo test",
        "running 5 tests\ntest a ... ok\ntest b ... FAILED\n\ntest result: FAILED. 3 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out\n\nerror: test failed\nExit code 101".to_string(),
        true,
    );
    line(
        &mut f,
        "assistant",
        json!({"id": "msg_end", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
               "content": [{"type": "text", "text": "Done: all tests pass now."}],
               "stop_reason": "end_turn", "usage": {"input_tokens": 10, "output_tokens": 5}}),
    );
}

struct Server {
    child: Child,
    stdin: ChildStdin,
    rx: mpsc::Receiver<String>,
    next_id: u64,
    /// The largest tool answer seen, in bytes.
    largest: usize,
}

impl Server {
    fn start(home: &Path, cwd: &Path) -> Server {
        let mut child = fornax(home)
            .arg("mcp")
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut s = Server {
            child,
            stdin,
            rx,
            next_id: 0,
            largest: 0,
        };
        let (init, _) = s.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "fornax", "{init}");
        s.raw(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string());
        s
    }

    fn raw(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn next(&mut self) -> String {
        self.rx
            .recv_timeout(Duration::from_secs(120))
            .expect("the server answers in time")
    }

    /// The response and the size of its line.
    fn request(&mut self, method: &str, params: Value) -> (Value, usize) {
        self.next_id += 1;
        let id = self.next_id;
        self.raw(
            &json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string(),
        );
        loop {
            let line = self.next();
            let v: Value = serde_json::from_str(&line).unwrap();
            if v["id"] == json!(id) {
                return (v, line.len() + 1);
            }
        }
    }

    /// A tool's answer (the JSON of its text), asserting it is within `bound` bytes.
    fn call(&mut self, tool: &str, args: Value, bound: usize) -> (Value, bool) {
        let (response, bytes) =
            self.request("tools/call", json!({"name": tool, "arguments": args}));
        self.largest = self.largest.max(bytes);
        assert!(
            bytes <= bound,
            "{tool} {args}: {bytes} bytes, over the bound of {bound}"
        );
        let result = &response["result"];
        let text = result["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{tool}: no text in {response}"));
        (
            serde_json::from_str(text).unwrap(),
            result["isError"] == true,
        )
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn every_answer_is_bounded_and_pages_cover_a_huge_session() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    let project = tmp.path().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let data = tmp.path().join("data");
    // 1 prompt + 2 per call + the test run's 2 + the claim: 10,004 items.
    let calls = 5000;
    transcript(
        &data
            .join(".claude/projects/-project")
            .join(format!("{SESSION}.jsonl")),
        &project,
        calls,
    );
    support::scan(&home, &data);

    let mut server = Server::start(&home, &project);
    const DEFAULT: usize = 32 * 1024;

    // The session, page by page, from the default of "the session working here".
    let mut cursor = Value::Null;
    let mut seen = 0usize;
    let mut pages = 0usize;
    let mut big = None;
    loop {
        let (page, error) = server.call("fornax_session", json!({"cursor": cursor}), DEFAULT);
        assert!(!error, "{page}");
        for item in page["items"].as_array().unwrap() {
            assert_eq!(item["index"], json!(seen), "items come in order, each once");
            let text = item["value"]["text"]["text"].as_str().unwrap_or("");
            if item["value"]["text"]["byte_len"].as_u64() >= Some(BIG_OUTPUT as u64) {
                assert!(
                    text.contains("[cut: "),
                    "the big output is cut: {text:.200}"
                );
                assert!(text.contains("fornax_output"), "and says how to read more");
                big = Some(seen);
            }
            seen += 1;
        }
        pages += 1;
        cursor = page["next_cursor"].clone();
        if cursor.is_null() {
            assert_eq!(Some(seen as u64), page["item_count"].as_u64());
            break;
        }
    }
    assert!(
        seen >= 10_000 && pages > 10,
        "{seen} items in {pages} pages"
    );
    eprintln!(
        "fornax_session: {seen} items in {pages} pages, the largest answer {} bytes",
        server.largest
    );
    let big = big.expect("the 50 MB output is in the session");

    // Its whole stored text, through fornax_output and next_offset.
    let mut offset = json!(0);
    let mut read = 0usize;
    let mut total = 0usize;
    while !offset.is_null() {
        let (part, error) = server.call(
            "fornax_output",
            json!({"session": "latest", "item": big, "offset": offset, "max_bytes": 8192}),
            8192,
        );
        assert!(!error, "{part}");
        read += part["text"].as_str().unwrap().len();
        total = part["bytes"].as_u64().unwrap() as usize;
        offset = part["next_offset"].clone();
    }
    assert_eq!(read, total, "the pages of an output join into the whole");

    // Findings of my session: the false claim, in sentences.
    let (findings, error) = server.call("fornax_findings", json!({}), DEFAULT);
    assert!(!error, "{findings}");
    let rows = findings["findings"].as_array().unwrap();
    assert!(
        rows.iter().any(|f| f["verdict"] == "CONTRADICTED"),
        "{findings}"
    );
    assert!(rows.iter().all(|f| f["reason"].is_string()));

    // Did my last test run pass? No.
    let (last, _) = server.call("fornax_last_test_run", json!({}), DEFAULT);
    assert_eq!(last["passed"], false, "{last}");
    assert_eq!(last["command"], "cargo test");

    // Sessions and search, within small bounds, paged to the end.
    for (tool, args, key) in [
        ("fornax_sessions", json!({}), "sessions"),
        ("fornax_search", json!({"text": "tests pass"}), "hits"),
        ("cap_list", json!({}), "capabilities"),
    ] {
        let mut cursor = Value::Null;
        let mut rows = 0;
        for _ in 0..2000 {
            let mut a = args.clone();
            a["cursor"] = cursor;
            a["max_bytes"] = json!(2048);
            let (page, error) = server.call(tool, a, 2048);
            assert!(!error, "{tool}: {page}");
            rows += page[key].as_array().unwrap().len();
            cursor = page["next_cursor"].clone();
            if cursor.is_null() {
                break;
            }
        }
        assert!(cursor.is_null() && rows > 0, "{tool} pages to its end");
    }

    // Malformed JSON: -32700, and the next request is answered.
    server.raw("{\"jsonrpc\": \"2.0\", \"id\": 99, \"method\": \"tools/list\"");
    let parse: Value = serde_json::from_str(&server.next()).unwrap();
    assert_eq!(parse["error"]["code"], -32700, "{parse}");
    let (ping, _) = server.request("ping", json!({}));
    assert_eq!(ping["result"], json!({}));
    let (missing, _) = server.request("no/such", json!({}));
    assert_eq!(missing["error"]["code"], -32601);

    // `fornax mcp test` shows the same answers, within the bound.
    let out = fornax(&home)
        .args(["mcp", "test", "--search", "parser"])
        .current_dir(&project)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("tools/call fornax_findings"), "{text}");
    assert!(text.contains("CONTRADICTED"), "{text}");
    assert!(text.contains("0 over the 32768-byte bound"), "{text}");
}

fn install(agent_home: &Path, cwd: &Path, args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_fornax"))
        .env("FORNAX_HOME", agent_home.join("fornax-home"))
        .env("FORNAX_AGENT_HOME", agent_home)
        .env("NO_COLOR", "1")
        .current_dir(cwd)
        .args(args)
        .arg("--json")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn install_claude_mcp_is_idempotent_backed_up_and_undone() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("agent-home");
    let project = tmp.path().join("project");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&project).unwrap();
    let claude_json = home.join(".claude.json");
    let before = "{\n  \"numStartups\": 3,\n  \"mcpServers\": {\n    \"other\": {\n      \"command\": \"other-server\"\n    }\n  }\n}\n";
    std::fs::write(&claude_json, before).unwrap();

    let first = install(&home, &project, &["install", "claude", "--mcp"]);
    assert_eq!(first["changed"], true, "{first}");
    let written: Value = serde_json::from_slice(&std::fs::read(&claude_json).unwrap()).unwrap();
    let entry = &written["mcpServers"]["fornax"];
    assert_eq!(entry["args"], json!(["mcp"]), "{written}");
    assert!(entry["command"].as_str().unwrap().ends_with("fornax"));
    assert_eq!(written["mcpServers"]["other"]["command"], "other-server");
    assert_eq!(written["numStartups"], 3);
    assert_eq!(
        std::fs::read_to_string(home.join(".claude.json.fornax-backup")).unwrap(),
        before,
        "the previous bytes are kept"
    );
    let again = install(&home, &project, &["install", "claude", "--mcp"]);
    assert_eq!(again["changed"], false, "{again}");

    let removed = install(&home, &project, &["uninstall", "claude"]);
    assert_eq!(removed["changed"], true, "{removed}");
    assert_eq!(std::fs::read_to_string(&claude_json).unwrap(), before);
    let nothing = install(&home, &project, &["uninstall", "claude"]);
    assert_eq!(nothing["changed"], false, "{nothing}");

    // The project's `.mcp.json`: created, then removed with the entry that was all it held.
    install(
        &home,
        &project,
        &["install", "claude", "--mcp", "--project"],
    );
    let mcp_json: Value =
        serde_json::from_slice(&std::fs::read(project.join(".mcp.json")).unwrap()).unwrap();
    assert_eq!(mcp_json["mcpServers"]["fornax"]["args"], json!(["mcp"]));
    let again = install(
        &home,
        &project,
        &["install", "claude", "--mcp", "--project"],
    );
    assert_eq!(again["changed"], false, "{again}");
    install(&home, &project, &["uninstall", "claude", "--project"]);
    assert!(!project.join(".mcp.json").exists());

    // A server of our name that is not ours is refused, and the file is left as it was.
    let foreign = "{\"mcpServers\": {\"fornax\": {\"command\": \"/usr/local/bin/impostor\"}}}";
    std::fs::write(&claude_json, foreign).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_fornax"))
        .env("FORNAX_HOME", home.join("fornax-home"))
        .env("FORNAX_AGENT_HOME", &home)
        .current_dir(&project)
        .args(["install", "claude", "--mcp"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("impostor"));
    assert_eq!(std::fs::read_to_string(&claude_json).unwrap(), foreign);
}
