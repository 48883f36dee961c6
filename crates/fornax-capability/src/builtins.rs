//! Capabilities compiled into the binary and the `internal` handlers behind them.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;
use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::history::{History, HistoryFilter};

/// What an internal handler receives.
#[derive(Clone, Copy)]
pub struct HandlerInput<'a> {
    pub capability_id: &'a str,
    pub args: &'a Map<String, Value>,
    pub history: Option<&'a dyn History>,
    pub workspace: Option<&'a Path>,
}

impl fmt::Debug for HandlerInput<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("HandlerInput")
            .field("capability_id", &self.capability_id)
            .field("args", &self.args)
            .field("history", &self.history.is_some())
            .field("workspace", &self.workspace)
            .finish()
    }
}

/// An internal handler: arguments in, data or an error message out.
pub type Handler = Arc<dyn Fn(HandlerInput<'_>) -> Result<Value, String> + Send + Sync>;

/// The registry of internal handlers (`executionTarget.handler` names them).
#[derive(Clone, Default)]
pub struct Handlers {
    map: BTreeMap<String, Handler>,
}

impl fmt::Debug for Handlers {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.map.keys()).finish()
    }
}

impl Handlers {
    /// The handlers behind the built-in capabilities.
    pub fn builtin() -> Handlers {
        let mut h = Handlers::default();
        h.register("echo.say", Arc::new(echo_say));
        h.register(
            "fornax.sessions",
            Arc::new(|input: HandlerInput<'_>| {
                let filter = HistoryFilter {
                    provider: opt_str(input.args, "provider"),
                    project: opt_str(input.args, "cwd").or_else(|| opt_str(input.args, "project")),
                    since: opt_str(input.args, "since"),
                    verdict: opt_str(input.args, "verdict"),
                };
                let rows = history(input)?.sessions(&filter, 0, limit(input.args, 50))?;
                Ok(json!({ "sessions": rows }))
            }),
        );
        h.register(
            "fornax.session",
            Arc::new(|input: HandlerInput<'_>| history(input)?.session(str_arg(input.args, "id")?)),
        );
        h.register(
            "fornax.search",
            Arc::new(|input: HandlerInput<'_>| {
                let hits = history(input)?.search(
                    str_arg(input.args, "text")?,
                    &HistoryFilter::default(),
                    0,
                    limit(input.args, 20),
                )?;
                Ok(json!({ "hits": hits }))
            }),
        );
        h.register(
            "fornax.findings",
            Arc::new(|input: HandlerInput<'_>| {
                let findings = history(input)?.findings(
                    input.args.get("session").and_then(Value::as_str),
                    0,
                    limit(input.args, 200),
                )?;
                Ok(json!({ "findings": findings }))
            }),
        );
        h
    }

    /// Adds or replaces a handler (the binary may add its own).
    pub fn register(&mut self, name: &str, handler: Handler) {
        self.map.insert(name.to_string(), handler);
    }

    pub fn get(&self, name: &str) -> Option<&Handler> {
        self.map.get(name)
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.map.keys().map(String::as_str)
    }
}

fn echo_say(input: HandlerInput<'_>) -> Result<Value, String> {
    let text = str_arg(input.args, "text")?;
    let upper = input
        .args
        .get("uppercase")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    Ok(json!({"text": if upper { text.to_uppercase() } else { text.to_string() }}))
}

fn history<'a>(input: HandlerInput<'a>) -> Result<&'a dyn History, String> {
    input.history.ok_or_else(|| {
        format!(
            "{}: Fornax's history is not available here",
            input.capability_id
        )
    })
}

fn opt_str(args: &Map<String, Value>, key: &str) -> Option<String> {
    args.get(key).and_then(Value::as_str).map(str::to_string)
}

/// A `limit` argument, at most 1,000 rows.
fn limit(args: &Map<String, Value>, default: usize) -> usize {
    args.get("limit")
        .and_then(Value::as_u64)
        .map_or(default, |n| usize::try_from(n).unwrap_or(1000))
        .clamp(1, 1000)
}

fn str_arg<'a>(args: &'a Map<String, Value>, key: &str) -> Result<&'a str, String> {
    args.get(key)
        .and_then(Value::as_str)
        .ok_or_else(|| format!("missing string argument {key:?}"))
}

/// The manifests of the built-in capabilities (all `active`).
pub fn manifests() -> Vec<Value> {
    let base = |id: &str, summary: &str, handler: &str, side_effects: Value, schema: Value| {
        json!({
            "manifestVersion": 1,
            "id": id,
            "summary": summary,
            "provider": "fornax",
            "adapterType": "internal",
            "executionTarget": {"handler": handler},
            "argsSchema": schema,
            "outputModes": ["json"],
            "sideEffects": side_effects,
            "scope": "global",
            "lifecycleState": "active",
            "defaults": {},
            "policies": [],
            "owner": "fornax"
        })
    };
    vec![
        base(
            "global.echo.say",
            "Echo the given text back (the smallest in-process capability).",
            "echo.say",
            json!(["none"]),
            json!({
                "type": "object",
                "properties": {
                    "text": {"type": "string", "description": "Text to echo."},
                    "uppercase": {"type": "boolean", "default": false}
                },
                "required": ["text"],
                "additionalProperties": false
            }),
        ),
        base(
            "global.fornax.sessions",
            "List the agent sessions Fornax has indexed.",
            "fornax.sessions",
            json!(["reads-history"]),
            json!({
                "type": "object",
                "properties": {
                    "provider": {"type": "string", "description": "Only this runtime (claude-code, codex, ...)."},
                    "cwd": {"type": "string", "description": "Only sessions that worked here."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 10000, "default": 50}
                },
                "additionalProperties": false
            }),
        ),
        base(
            "global.fornax.session",
            "Show one indexed session in detail.",
            "fornax.session",
            json!(["reads-history"]),
            json!({
                "type": "object",
                "properties": {"id": {"type": "string", "description": "Native id or provider:native_id."}},
                "required": ["id"],
                "additionalProperties": false
            }),
        ),
        base(
            "global.fornax.search",
            "Full-text search over the indexed history.",
            "fornax.search",
            json!(["reads-history"]),
            json!({
                "type": "object",
                "properties": {
                    "text": {"type": "string", "minLength": 1},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 20}
                },
                "required": ["text"],
                "additionalProperties": false
            }),
        ),
        base(
            "global.fornax.findings",
            "Findings (verdicts on agents' claims), for one session or all.",
            "fornax.findings",
            json!(["reads-history"]),
            json!({
                "type": "object",
                "properties": {"session": {"type": "string", "description": "Native id or provider:native_id."}},
                "additionalProperties": false
            }),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::manifest::CapabilityManifest;

    #[test]
    fn builtin_manifests_are_valid_and_have_handlers() {
        let handlers = Handlers::builtin();
        for m in manifests() {
            let m = CapabilityManifest::from_value(&m).unwrap();
            assert!(
                handlers.get(m.target_str("handler").unwrap()).is_some(),
                "{}",
                m.id
            );
        }
    }
}
