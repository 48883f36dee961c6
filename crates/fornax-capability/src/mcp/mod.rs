//! `fornax mcp`: an MCP server over stdio (newline-delimited JSON-RPC 2.0) exposing Fornax's
//! history — findings of a session, its last test run, search, sessions, a session's
//! timeline, an item's whole text — and the active capabilities, run under the same lifecycle
//! gate and policies as `cap run`.
//!
//! # Invariants
//!
//! * Every answer fits its byte bound: a tool's response line is at most the call's
//!   `max_bytes` (default 32 KiB); listings page with `next_cursor`; cut texts say how to read
//!   the rest. A response that would still exceed it is replaced by an error saying so.
//! * Nothing a client sends stops the server: malformed JSON is answered with `-32700`, an
//!   invalid request with `-32600`, an unknown method with `-32601`, an unknown tool or bad
//!   params with `-32602`; the next message is read as usual. Only the end of input stops it.
//! * A tool that fails answers `isError: true` with the reason; the agent reads it.
//! * No tool changes a finding (see [`tools`]).

pub mod bound;
pub mod jsonrpc;
pub mod tools;

use std::io::{BufRead, Write};

use serde_json::{json, Map, Value};

use crate::commands::CapEnv;
use crate::error::CapError;
use jsonrpc::{Incoming, Line};

/// The MCP revisions this server speaks, newest first.
pub const PROTOCOL_VERSIONS: [&str; 3] = ["2025-06-18", "2025-03-26", "2024-11-05"];

const INSTRUCTIONS: &str = "Fornax indexes AI coding agents' sessions and checks their claims \
against evidence it observed. Ask fornax_findings for the verdicts on this session's claims, \
fornax_last_test_run whether the latest test run passed, fornax_search to search the history. \
Answers are bounded (max_bytes); follow next_cursor for more.";

/// Serves MCP over `reader`/`writer` until the input ends.
pub fn serve(
    env: &CapEnv,
    mut reader: impl BufRead,
    mut writer: impl Write,
) -> Result<(), CapError> {
    let io = |e: std::io::Error| CapError::Mcp(format!("the transport failed: {e}"));
    loop {
        let reply = match jsonrpc::read_line(&mut reader).map_err(io)? {
            Line::End => return Ok(()),
            Line::TooLong(n) => Some(jsonrpc::error(
                &Value::Null,
                jsonrpc::INVALID_REQUEST,
                &format!(
                    "invalid request: a message of {n} bytes is longer than the {} this server reads",
                    jsonrpc::MAX_MESSAGE_BYTES
                ),
            )),
            Line::Message(bytes) => respond(env, jsonrpc::parse(&bytes)),
        };
        if let Some(reply) = reply {
            writeln!(writer, "{reply}").map_err(io)?;
            writer.flush().map_err(io)?;
        }
    }
}

/// Serves MCP on this process's stdin and stdout.
pub fn serve_stdio(env: &CapEnv) -> Result<(), CapError> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    serve(env, stdin.lock(), stdout.lock())
}

/// The reply to one message, if it gets one.
pub fn respond(env: &CapEnv, incoming: Incoming) -> Option<Value> {
    match incoming {
        Incoming::Notification { .. } | Incoming::Response => None,
        Incoming::Invalid { id, code, message } => Some(jsonrpc::error(&id, code, &message)),
        Incoming::Request { id, method, params } => Some(match request(env, &method, &params) {
            Ok(result) => bounded(&id, result, &params),
            Err((code, message)) => jsonrpc::error(&id, code, &message),
        }),
    }
}

/// A result, checked against the call's bound as it will be sent.
fn bounded(id: &Value, result: Value, params: &Map<String, Value>) -> Value {
    let response = jsonrpc::result(id, result);
    let limit = params
        .get("arguments")
        .and_then(Value::as_object)
        .and_then(|a| bound::max_bytes(a).ok())
        .unwrap_or(bound::DEFAULT_MAX_BYTES);
    let len = response.to_string().len();
    if len <= limit {
        return response;
    }
    jsonrpc::result(
        id,
        tool_result(
            &json!({"error": format!("the answer would take {len} bytes, more than max_bytes {limit}; ask for less (a filter, a smaller page)")}),
            true,
        ),
    )
}

fn tool_result(value: &Value, is_error: bool) -> Value {
    json!({"content": [{"type": "text", "text": value.to_string()}], "isError": is_error})
}

fn request(
    env: &CapEnv,
    method: &str,
    params: &Map<String, Value>,
) -> Result<Value, (i64, String)> {
    match method {
        "initialize" => {
            let asked = params.get("protocolVersion").and_then(Value::as_str);
            let version = asked
                .filter(|v| PROTOCOL_VERSIONS.contains(v))
                .unwrap_or(PROTOCOL_VERSIONS[0]);
            Ok(json!({
                "protocolVersion": version,
                "capabilities": {"tools": {"listChanged": false}},
                "serverInfo": {"name": "fornax", "version": env!("CARGO_PKG_VERSION")},
                "instructions": INSTRUCTIONS,
            }))
        }
        "ping" => Ok(json!({})),
        "tools/list" => Ok(json!({"tools": tools::list()})),
        "tools/call" => {
            let Some(name) = params.get("name").and_then(Value::as_str) else {
                return Err((
                    jsonrpc::INVALID_PARAMS,
                    "tools/call needs a string \"name\"".to_string(),
                ));
            };
            let args = match params.get("arguments") {
                None | Some(Value::Null) => Map::new(),
                Some(Value::Object(m)) => m.clone(),
                Some(_) => {
                    return Err((
                        jsonrpc::INVALID_PARAMS,
                        "tools/call \"arguments\" must be an object".to_string(),
                    ))
                }
            };
            match tools::call(env, name, &args) {
                tools::Outcome::Answer(v) => Ok(tool_result(&v, false)),
                tools::Outcome::ToolError(v) => Ok(tool_result(&v, true)),
                tools::Outcome::UnknownTool(n) => Err((
                    jsonrpc::INVALID_PARAMS,
                    format!("unknown tool {n:?}; tools/list names the tools"),
                )),
            }
        }
        _ => Err((
            jsonrpc::METHOD_NOT_FOUND,
            format!("method not found: {method:?}"),
        )),
    }
}
