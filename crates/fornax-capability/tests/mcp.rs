//! The MCP server in-process over a socket pair: a real JSON-RPC handshake (initialize,
//! notifications/initialized), tools/list and tools/call, with a fake history; and the
//! protocol errors a client can provoke, each answered while the server keeps serving.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::os::unix::net::UnixStream;
use std::sync::Arc;

use common::*;
use fornax_capability::{serve, CapEnv};
use serde_json::{json, Value};

struct Client {
    lines: std::io::Lines<BufReader<UnixStream>>,
    writer: UnixStream,
    next_id: u64,
}

impl Client {
    fn send_raw(&mut self, line: &str) {
        self.writer.write_all(line.as_bytes()).unwrap();
        self.writer.write_all(b"\n").unwrap();
        self.writer.flush().unwrap();
    }

    fn send(&mut self, message: Value) {
        self.send_raw(&message.to_string());
    }

    fn next(&mut self) -> Value {
        let line = self.lines.next().expect("server still connected").unwrap();
        serde_json::from_str(&line).unwrap()
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let msg = self.next();
            if msg["id"] == json!(id) {
                return msg;
            }
        }
    }

    /// A tools/call's result, with the JSON its text content holds under `"json"`.
    fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let response = self.request("tools/call", json!({"name": tool, "arguments": arguments}));
        let mut result = response["result"].clone();
        let text = result["content"][0]["text"].as_str().unwrap_or("null");
        result["json"] = serde_json::from_str(text).unwrap();
        result
    }
}

fn start(env: CapEnv) -> (Client, std::thread::JoinHandle<()>) {
    let (client_side, server_side) = UnixStream::pair().unwrap();
    client_side
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    let server = std::thread::spawn(move || {
        let reader = BufReader::new(server_side.try_clone().unwrap());
        serve(&env, reader, server_side).unwrap();
    });
    let mut client = Client {
        lines: BufReader::new(client_side.try_clone().unwrap()).lines(),
        writer: client_side,
        next_id: 0,
    };
    let init = client.request(
        "initialize",
        json!({
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "fornax-test", "version": "0.0.0"}
        }),
    );
    assert_eq!(init["result"]["serverInfo"]["name"], "fornax", "{init}");
    assert_eq!(init["result"]["protocolVersion"], "2025-06-18", "{init}");
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );
    client.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    (client, server)
}

#[test]
fn handshake_list_and_call() {
    let sb = Sandbox::new();
    sb.local(&cli_manifest(
        "workspace.mcp.draft",
        "true",
        &[],
        json!({"lifecycleState": "draft"}),
    ));
    sb.local(&cli_manifest(
        "workspace.mcp.guarded",
        "true",
        &[],
        json!({"policies": ["no_such_policy"]}),
    ));
    sb.local(&cli_manifest(
        "workspace.mcp.echo",
        "printf",
        &["from-cli"],
        json!({}),
    ));
    let sink = Arc::new(CollectingSink::default());
    let env = CapEnv {
        evidence_sink: Some(sink.clone()),
        ..sb.env_with_history(Arc::new(FakeHistory::default()))
    };
    let (mut client, server) = start(env);

    let tools = client.request("tools/list", json!({}));
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        vec![
            "fornax_findings",
            "fornax_last_test_run",
            "fornax_search",
            "fornax_sessions",
            "fornax_session",
            "fornax_output",
            "cap_list",
            "cap_inspect",
            "cap_run"
        ]
    );
    insta::assert_json_snapshot!("mcp_tools", tools["result"]["tools"]);

    let search = client.call("fornax_search", json!({"text": "tests pass", "limit": 3}));
    assert_eq!(search["json"]["query"], "tests pass");
    assert_eq!(search["json"]["hits"][0]["text"], "... tests pass ...");
    assert!(search["json"]["next_cursor"].is_null());
    assert_ne!(search["isError"], true);

    let sessions = client.call("fornax_sessions", json!({"provider": "claude-code"}));
    assert_eq!(sessions["json"]["sessions"][0]["native_id"], "s-2");
    let session = client.call("fornax_session", json!({"id": "nope"}));
    assert_eq!(session["isError"], true);
    let findings = client.call("fornax_findings", json!({"session": "all"}));
    assert_eq!(findings["json"]["findings"][0]["verdict"], "VERIFIED");

    let list = client.call("cap_list", json!({}));
    let ids: Vec<&str> = list["json"]["capabilities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&"global.echo.say") && ids.contains(&"workspace.mcp.echo"));
    assert!(
        !ids.contains(&"workspace.mcp.draft"),
        "only active capabilities"
    );

    let echo = client.call("cap_run", json!({"id": "echo.say", "args": {"text": "hi"}}));
    assert_eq!(echo["json"]["ok"], true, "{echo}");
    assert_eq!(echo["json"]["data"], json!({"text": "hi"}));

    let cli = client.call("cap_run", json!({"id": "workspace.mcp.echo"}));
    assert_eq!(cli["json"]["data"], "from-cli", "{cli}");
    let recorded = sink.0.lock().unwrap().clone();
    assert_eq!(recorded.len(), 1, "the cli run's evidence reached the sink");
    assert_eq!(
        recorded[0]
            .payload
            .process_observation()
            .and_then(|p| p.capability_id.as_deref()),
        Some("workspace.mcp.echo")
    );

    let draft = client.call("cap_run", json!({"id": "workspace.mcp.draft"}));
    assert_eq!(draft["isError"], true);
    assert!(draft["json"]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("only active capabilities run"));
    let guarded = client.call("cap_run", json!({"id": "workspace.mcp.guarded"}));
    assert_eq!(guarded["isError"], true);
    assert!(guarded["json"]["meta"]["policyErrors"][0]
        .as_str()
        .unwrap()
        .contains("no_such_policy"));

    let unknown = client.request("tools/call", json!({"name": "rm_rf", "arguments": {}}));
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");

    drop(client);
    server.join().expect("server stops when the client leaves");
}

#[test]
fn history_tools_without_history_are_tool_errors() {
    let sb = Sandbox::new();
    let (mut client, _server) = start(sb.env());
    let search = client.call("fornax_search", json!({"text": "x"}));
    assert_eq!(search["isError"], true);
    assert!(search["json"]["error"]
        .as_str()
        .unwrap()
        .contains("not available"));
}

#[test]
fn protocol_errors_are_answered_and_the_server_keeps_serving() {
    let sb = Sandbox::new();
    let (mut client, server) = start(sb.env());
    client.send_raw("{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": ");
    let parse = client.next();
    assert_eq!(parse["error"]["code"], -32700, "{parse}");
    assert_eq!(parse["id"], Value::Null);
    let ping = client.request("ping", json!({}));
    assert_eq!(ping["result"], json!({}), "answered after malformed JSON");

    client.send_raw("[{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\"}]");
    assert_eq!(client.next()["error"]["code"], -32600);
    client.send(json!({"id": 41, "method": "ping"}));
    let invalid = client.next();
    assert_eq!(
        (invalid["error"]["code"].clone(), invalid["id"].clone()),
        (json!(-32600), json!(41))
    );
    let missing = client.request("resources/list", json!({}));
    assert_eq!(missing["error"]["code"], -32601, "{missing}");
    let bad_args = client.request("tools/call", json!({"name": "cap_list", "arguments": [1]}));
    assert_eq!(bad_args["error"]["code"], -32602, "{bad_args}");
    let bad_bound = client.call("cap_list", json!({"max_bytes": 3}));
    assert_eq!(bad_bound["isError"], true);
    assert!(bad_bound["json"]["error"]
        .as_str()
        .unwrap()
        .contains("max_bytes"));
    // A notification gets no answer: the next line read is the ping's.
    client.send(
        json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 3}}),
    );
    assert_eq!(client.request("ping", json!({}))["result"], json!({}));
    drop(client);
    server.join().unwrap();
}
