//! `fornax mcp`: a stdio MCP server (rmcp) exposing Fornax's history (search, sessions, session
//! detail, findings) and the active capabilities, run under the same lifecycle gate and
//! policies as `cap run`. Evidence of runs goes to the [`EvidenceSink`](crate::EvidenceSink)
//! in the [`CapEnv`], when there is one.
//!
//! Tools: `fornax_search`, `fornax_sessions`, `fornax_session`, `fornax_findings`,
//! `cap_list`, `cap_inspect`, `cap_run`. A tool that fails returns an MCP tool error
//! (`isError: true`) with the reason; only an unknown tool name is a protocol error.

use std::sync::Arc;

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData as McpError, RoleServer, ServerHandler, ServiceExt};
use serde_json::{json, Map, Value};

use crate::commands::CapEnv;
use crate::error::CapError;
use crate::exec::RunOptions;
use crate::trust::TrustMode;
use fornax_types::RecheckTrigger;

/// Serves MCP over `reader`/`writer` until the client disconnects.
pub async fn serve_io<R, W>(env: CapEnv, reader: R, writer: W) -> Result<(), CapError>
where
    R: tokio::io::AsyncRead + Unpin + Send + 'static,
    W: tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let server = FornaxMcp { env: Arc::new(env) };
    let running = server
        .serve((reader, writer))
        .await
        .map_err(|e| CapError::Mcp(e.to_string()))?;
    running
        .waiting()
        .await
        .map_err(|e| CapError::Mcp(e.to_string()))?;
    Ok(())
}

/// Serves MCP on this process's stdin and stdout (blocking; builds its own runtime).
pub fn serve_stdio(env: CapEnv) -> Result<(), CapError> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| CapError::Mcp(format!("cannot start the async runtime: {e}")))?;
    runtime.block_on(serve_io(env, tokio::io::stdin(), tokio::io::stdout()))
}

#[derive(Debug, Clone)]
struct FornaxMcp {
    env: Arc<CapEnv>,
}

fn schema(value: Value) -> Arc<JsonObject> {
    match value {
        Value::Object(m) => Arc::new(m),
        _ => Arc::new(JsonObject::new()),
    }
}

fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            "fornax_search",
            "Full-text search over the agent sessions Fornax has indexed.",
            schema(json!({
                "type": "object",
                "properties": {
                    "text": {"type": "string", "description": "What to search for."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 1000}
                },
                "required": ["text"]
            })),
        ),
        Tool::new(
            "fornax_sessions",
            "List indexed agent sessions.",
            schema(json!({
                "type": "object",
                "properties": {
                    "provider": {"type": "string"},
                    "cwd": {"type": "string"},
                    "limit": {"type": "integer", "minimum": 1}
                }
            })),
        ),
        Tool::new(
            "fornax_session",
            "Show one indexed session in detail.",
            schema(json!({
                "type": "object",
                "properties": {"id": {"type": "string", "description": "Native id or provider:native_id."}},
                "required": ["id"]
            })),
        ),
        Tool::new(
            "fornax_findings",
            "Findings (verdicts on agents' claims), for one session or all.",
            schema(json!({"type": "object", "properties": {"session": {"type": "string"}}})),
        ),
        Tool::new(
            "cap_list",
            "List the active capabilities this server can run, with their argument schemas.",
            schema(json!({"type": "object", "properties": {}})),
        ),
        Tool::new(
            "cap_inspect",
            "Show one capability's manifest and origin.",
            schema(json!({
                "type": "object",
                "properties": {"id": {"type": "string", "description": "Full id or module.capability."}},
                "required": ["id"]
            })),
        ),
        Tool::new(
            "cap_run",
            "Run an active capability under its policies; returns the {ok, data|error, meta} envelope.",
            schema(json!({
                "type": "object",
                "properties": {
                    "id": {"type": "string", "description": "Full id or module.capability."},
                    "args": {"type": "object", "description": "Arguments, per the capability's argsSchema."}
                },
                "required": ["id"]
            })),
        ),
    ]
}

/// A tool's result: the JSON and whether it is an error.
fn dispatch(env: &CapEnv, name: &str, args: &Map<String, Value>) -> Result<(Value, bool), String> {
    let str_arg = |key: &str| args.get(key).and_then(Value::as_str);
    let history = || {
        env.history
            .clone()
            .ok_or_else(|| "Fornax's history is not available to this server".to_string())
    };
    let wrap = |r: Result<Value, String>| {
        Ok(match r {
            Ok(v) => (v, false),
            Err(e) => (json!({"error": e}), true),
        })
    };
    match name {
        "fornax_search" => {
            let Some(text) = str_arg("text") else {
                return wrap(Err("missing string argument \"text\"".to_string()));
            };
            let limit = args.get("limit").and_then(Value::as_u64).unwrap_or(20);
            wrap(
                history()
                    .and_then(|h| h.search(text, usize::try_from(limit).unwrap_or(usize::MAX))),
            )
        }
        "fornax_sessions" => wrap(history().and_then(|h| h.sessions(&Value::Object(args.clone())))),
        "fornax_session" => {
            let Some(id) = str_arg("id") else {
                return wrap(Err("missing string argument \"id\"".to_string()));
            };
            wrap(history().and_then(|h| h.session(id)))
        }
        "fornax_findings" => wrap(history().and_then(|h| h.findings(str_arg("session")))),
        "cap_list" => {
            let rt = env.runtime();
            let caps: Vec<Value> = rt
                .registry
                .list(false)
                .map(|c| json!({"id": c.manifest.id, "summary": c.manifest.summary, "argsSchema": c.manifest.args_schema}))
                .collect();
            wrap(Ok(json!({"capabilities": caps})))
        }
        "cap_inspect" => {
            let Some(id) = str_arg("id") else {
                return wrap(Err("missing string argument \"id\"".to_string()));
            };
            let rt = env.runtime();
            wrap(rt
                .resolve(&[id.to_string()], env.toolspace.as_deref())
                .map(|c| json!({"capability": c.manifest.to_value(), "origin": c.origin.to_json()}))
                .map_err(|e| e.to_string()))
        }
        "cap_run" => {
            let Some(id) = str_arg("id") else {
                return wrap(Err("missing string argument \"id\"".to_string()));
            };
            let run_args = match args.get("args") {
                None | Some(Value::Null) => Map::new(),
                Some(Value::Object(m)) => m.clone(),
                Some(_) => return wrap(Err("\"args\" must be an object".to_string())),
            };
            let rt = env.runtime();
            let cap = match rt.resolve(&[id.to_string()], env.toolspace.as_deref()) {
                Ok(c) => c,
                Err(e) => return wrap(Err(e.to_string())),
            };
            let mut outcome = rt.run(
                cap,
                &RunOptions {
                    args: run_args,
                    any_lifecycle: false,
                    session: None,
                    // An agent cannot trust what it may have written itself.
                    trust: TrustMode::RequireTrusted,
                },
            );
            let recheck =
                crate::evidence::recheck_of(&cap.manifest.id, &outcome, RecheckTrigger::Mcp);
            if let (Some(sink), false) = (&env.evidence_sink, outcome.evidence.is_empty()) {
                if let Err(e) = sink.record(recheck.as_ref(), &outcome.evidence) {
                    outcome
                        .envelope
                        .warn(format!("evidence was not recorded: {e}"));
                }
            }
            Ok((outcome.envelope.to_json(), !outcome.envelope.ok))
        }
        _ => Err(format!("unknown tool {name:?}")),
    }
}

impl ServerHandler for FornaxMcp {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("fornax", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Fornax indexes AI coding agents' sessions and checks their claims against evidence. \
                 Search the history with fornax_search, list sessions, read findings, and run active \
                 capabilities with cap_run (see cap_list).",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(tools()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        let env = self.env.clone();
        let name = request.name.to_string();
        let args = request.arguments.unwrap_or_default();
        let outcome = tokio::task::spawn_blocking(move || dispatch(&env, &name, &args))
            .await
            .map_err(|e| McpError::internal_error(format!("tool task failed: {e}"), None))?;
        let (value, is_error) = outcome.map_err(|e| McpError::invalid_params(e, None))?;
        let text = serde_json::to_string_pretty(&value).unwrap_or_default();
        let mut result = if is_error {
            CallToolResult::error(vec![ContentBlock::text(text)])
        } else {
            CallToolResult::success(vec![ContentBlock::text(text)])
        };
        result.structured_content = Some(value);
        Ok(result.into())
    }
}
