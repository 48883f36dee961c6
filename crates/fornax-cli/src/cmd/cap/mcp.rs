//! `fornax mcp`: the MCP server on stdio; `fornax mcp test`: the same server answering the
//! questions an agent asks first, printed as the agent would receive them.

use clap::{Args, Subcommand};
use fornax_capability::mcp::{self, bound, jsonrpc::Incoming};
use serde_json::{json, Map, Value};

use crate::error::CliError;
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct McpArgs {
    #[command(subcommand)]
    pub command: Option<McpCommand>,
}

#[derive(Debug, Subcommand)]
pub enum McpCommand {
    /// Ask the server what an agent would ask first (tools, findings of the session, its last
    /// test run, sessions, a search) and print each answer with its size.
    Test {
        /// The session to ask about (default: the latest session working in this directory).
        #[arg(long)]
        session: Option<String>,
        /// Also search the history for this text.
        #[arg(long, value_name = "TEXT")]
        search: Option<String>,
        /// The byte bound of each answer.
        #[arg(long, default_value_t = bound::DEFAULT_MAX_BYTES)]
        max_bytes: usize,
    },
}

pub fn run(ctx: &Context, args: McpArgs) -> Result<(), CliError> {
    ctx.ensure_home()?;
    let env = super::env(ctx, None);
    match args.command {
        None => mcp::serve_stdio(&env).map_err(super::cap_error),
        Some(McpCommand::Test {
            session,
            search,
            max_bytes,
        }) => {
            if !(bound::MIN_MAX_BYTES..=bound::MAX_MAX_BYTES).contains(&max_bytes) {
                return Err(CliError::usage(format!(
                    "--max-bytes must be from {} to {}, got {max_bytes}",
                    bound::MIN_MAX_BYTES,
                    bound::MAX_MAX_BYTES
                )));
            }
            test(ctx, &env, session, search, max_bytes)
        }
    }
}

/// One exchange: what was asked and what came back.
struct Exchange {
    method: &'static str,
    params: Value,
    response: Value,
    bytes: usize,
}

fn ask(env: &fornax_capability::CapEnv, id: u64, method: &'static str, params: Value) -> Exchange {
    let params_map = params.as_object().cloned().unwrap_or_default();
    let response = mcp::respond(
        env,
        Incoming::Request {
            id: json!(id),
            method: method.to_string(),
            params: params_map,
        },
    )
    .unwrap_or(Value::Null);
    let bytes = response.to_string().len() + 1;
    Exchange {
        method,
        params,
        response,
        bytes,
    }
}

fn test(
    ctx: &Context,
    env: &fornax_capability::CapEnv,
    session: Option<String>,
    search: Option<String>,
    max_bytes: usize,
) -> Result<(), CliError> {
    let mut args = Map::new();
    args.insert("max_bytes".to_string(), json!(max_bytes));
    if let Some(s) = &session {
        args.insert("session".to_string(), json!(s));
    }
    let with = |extra: Value| {
        let mut a = args.clone();
        if let Value::Object(e) = extra {
            a.extend(e);
        }
        Value::Object(a)
    };
    let call = |name: &str, arguments: Value| json!({"name": name, "arguments": arguments});
    let mut asked = vec![
        (
            "initialize",
            json!({"protocolVersion": mcp::PROTOCOL_VERSIONS[0], "capabilities": {},
                   "clientInfo": {"name": "fornax mcp test", "version": env!("CARGO_PKG_VERSION")}}),
        ),
        ("tools/list", json!({})),
        ("tools/call", call("fornax_findings", with(json!({})))),
        ("tools/call", call("fornax_last_test_run", with(json!({})))),
        (
            "tools/call",
            call("fornax_sessions", json!({"max_bytes": max_bytes})),
        ),
    ];
    if let Some(text) = &search {
        asked.push((
            "tools/call",
            call(
                "fornax_search",
                json!({"text": text, "max_bytes": max_bytes}),
            ),
        ));
    }
    let exchanges: Vec<Exchange> = asked
        .into_iter()
        .enumerate()
        .map(|(i, (method, params))| ask(env, i as u64 + 1, method, params))
        .collect();
    let over = exchanges
        .iter()
        .filter(|e| e.method == "tools/call" && e.bytes > max_bytes)
        .count();
    if ctx.json {
        output::json(&json!({
            "max_bytes": max_bytes,
            "exchanges": exchanges.iter().map(|e| json!({
                "method": e.method, "params": e.params, "bytes": e.bytes, "response": e.response,
            })).collect::<Vec<_>>(),
        }));
    } else {
        for e in &exchanges {
            print_exchange(e, max_bytes);
        }
        output::line(&format!(
            "{} answers, {} over the {max_bytes}-byte bound; register the server with `fornax install claude --mcp`",
            exchanges.len(),
            over
        ));
    }
    if over > 0 {
        return Err(CliError::Exit(1));
    }
    Ok(())
}

fn print_exchange(e: &Exchange, max_bytes: usize) {
    let name = e.params["name"].as_str();
    let title = match name {
        Some(n) => format!("tools/call {n} {}", e.params["arguments"]),
        None => e.method.to_string(),
    };
    output::line(&format!("── {title}  ({} bytes of {max_bytes})", e.bytes));
    let result = &e.response["result"];
    if let Some(err) = e.response.get("error") {
        output::line(&format!(
            "protocol error {}: {}",
            err["code"],
            err["message"].as_str().unwrap_or("")
        ));
    } else if e.method == "tools/list" {
        for t in result["tools"].as_array().into_iter().flatten() {
            output::line(&format!(
                "  {}  {}",
                t["name"].as_str().unwrap_or(""),
                t["description"].as_str().unwrap_or("")
            ));
        }
    } else if let Some(text) = result["content"][0]["text"].as_str() {
        if result["isError"] == true {
            output::line("tool error (the agent reads it):");
        }
        let pretty = serde_json::from_str::<Value>(text)
            .ok()
            .and_then(|v| serde_json::to_string_pretty(&v).ok())
            .unwrap_or_else(|| text.to_string());
        output::line(&pretty);
    } else {
        output::line(&serde_json::to_string_pretty(result).unwrap_or_default());
    }
}
