//! The MCP server in-process over an async pipe: a real JSON-RPC handshake (initialize,
//! notifications/initialized), tools/list and tools/call, with a fake history.

mod common;

use std::sync::Arc;

use common::*;
use fornax_capability::{serve_io, CapEnv};
use serde_json::{json, Value};
use tokio::io::{
    AsyncBufReadExt, AsyncWriteExt, BufReader, DuplexStream, Lines, ReadHalf, WriteHalf,
};

struct Client {
    lines: Lines<BufReader<ReadHalf<DuplexStream>>>,
    writer: WriteHalf<DuplexStream>,
    next_id: u64,
}

impl Client {
    async fn send(&mut self, message: Value) {
        self.writer
            .write_all(format!("{message}\n").as_bytes())
            .await
            .unwrap();
        self.writer.flush().await.unwrap();
    }

    async fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}))
            .await;
        loop {
            let line =
                tokio::time::timeout(std::time::Duration::from_secs(30), self.lines.next_line())
                    .await
                    .expect("server answered in time")
                    .unwrap()
                    .expect("server still connected");
            let msg: Value = serde_json::from_str(&line).unwrap();
            if msg["id"] == json!(id) {
                return msg;
            }
        }
    }

    async fn call(&mut self, tool: &str, arguments: Value) -> Value {
        let response = self
            .request("tools/call", json!({"name": tool, "arguments": arguments}))
            .await;
        response["result"].clone()
    }
}

async fn start(env: CapEnv) -> (Client, tokio::task::JoinHandle<()>) {
    let (client_side, server_side) = tokio::io::duplex(1 << 16);
    let (server_read, server_write) = tokio::io::split(server_side);
    let server = tokio::spawn(async move {
        serve_io(env, server_read, server_write).await.unwrap();
    });
    let (read, writer) = tokio::io::split(client_side);
    let mut client = Client {
        lines: BufReader::new(read).lines(),
        writer,
        next_id: 0,
    };
    let init = client
        .request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "fornax-test", "version": "0.0.0"}
            }),
        )
        .await;
    assert_eq!(init["result"]["serverInfo"]["name"], "fornax", "{init}");
    assert!(
        init["result"]["capabilities"]["tools"].is_object(),
        "{init}"
    );
    client
        .send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        .await;
    (client, server)
}

#[tokio::test]
async fn handshake_list_and_call() {
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
    let (mut client, server) = start(env).await;

    let tools = client.request("tools/list", json!({})).await;
    let names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        vec![
            "fornax_search",
            "fornax_sessions",
            "fornax_session",
            "fornax_findings",
            "cap_list",
            "cap_inspect",
            "cap_run"
        ]
    );
    insta::assert_json_snapshot!("mcp_tools", tools["result"]["tools"]);

    let search = client
        .call("fornax_search", json!({"text": "tests pass", "limit": 3}))
        .await;
    assert_eq!(search["structuredContent"]["query"], "tests pass");
    let text: Value = serde_json::from_str(search["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text["limit"], 3);
    assert_ne!(search["isError"], true);

    let sessions = client
        .call("fornax_sessions", json!({"provider": "claude-code"}))
        .await;
    assert_eq!(
        sessions["structuredContent"]["sessions"][0]["native_id"],
        "s-2"
    );
    let session = client.call("fornax_session", json!({"id": "nope"})).await;
    assert_eq!(session["isError"], true);
    let findings = client.call("fornax_findings", json!({})).await;
    assert_eq!(
        findings["structuredContent"]["findings"][0]["verdict"],
        "VERIFIED"
    );

    let list = client.call("cap_list", json!({})).await;
    let ids: Vec<&str> = list["structuredContent"]["capabilities"]
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

    let echo = client
        .call("cap_run", json!({"id": "echo.say", "args": {"text": "hi"}}))
        .await;
    assert_eq!(echo["structuredContent"]["ok"], true, "{echo}");
    assert_eq!(echo["structuredContent"]["data"], json!({"text": "hi"}));

    let cli = client
        .call("cap_run", json!({"id": "workspace.mcp.echo"}))
        .await;
    assert_eq!(cli["structuredContent"]["data"], "from-cli", "{cli}");
    let recorded = sink.0.lock().unwrap().clone();
    assert_eq!(recorded.len(), 1, "the cli run's evidence reached the sink");
    assert_eq!(
        recorded[0]
            .payload
            .process_observation()
            .and_then(|p| p.capability_id.as_deref()),
        Some("workspace.mcp.echo")
    );

    let draft = client
        .call("cap_run", json!({"id": "workspace.mcp.draft"}))
        .await;
    assert_eq!(draft["isError"], true);
    assert!(draft["structuredContent"]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("only active capabilities run"));
    let guarded = client
        .call("cap_run", json!({"id": "workspace.mcp.guarded"}))
        .await;
    assert_eq!(guarded["isError"], true);
    assert!(guarded["structuredContent"]["meta"]["policyErrors"][0]
        .as_str()
        .unwrap()
        .contains("no_such_policy"));

    let unknown = client
        .request("tools/call", json!({"name": "rm_rf", "arguments": {}}))
        .await;
    assert!(unknown["error"].is_object(), "{unknown}");

    drop(client);
    tokio::time::timeout(std::time::Duration::from_secs(10), server)
        .await
        .expect("server stops when the client leaves")
        .unwrap();
}

#[tokio::test]
async fn history_tools_without_history_are_tool_errors() {
    let sb = Sandbox::new();
    let (mut client, _server) = start(sb.env()).await;
    let search = client.call("fornax_search", json!({"text": "x"})).await;
    assert_eq!(search["isError"], true);
    assert!(search["structuredContent"]["error"]
        .as_str()
        .unwrap()
        .contains("not available"));
}
