//! A session family as OpenTelemetry spans, after the GenAI semantic conventions: one trace per
//! root session; a session span; an `invoke_agent` span per loop; an `execute_tool` span per
//! tool call; each claim a span event with its verdict, rationale and evidence ids; subagent
//! sessions as child spans of the loop that started them.

use std::collections::HashMap;

use fornax_store::{FindingRow, LoopRow};
use fornax_types::{Item, SemanticValue, ToolOutputValue};
use opentelemetry_proto::tonic::common::v1::{any_value::Value, AnyValue, ArrayValue, KeyValue};
use opentelemetry_proto::tonic::trace::v1::{span, status::StatusCode, Span, Status};

use super::ids::{span_id, trace_id};
use crate::SessionExport;

/// What of tool arguments and outputs leaves the machine (already redacted when stored).
#[derive(Debug, Clone, Copy)]
pub struct ContentPolicy {
    /// Send tool arguments and results at all.
    pub include: bool,
    /// Bytes kept of each argument or result text.
    pub max_bytes: usize,
}

impl Default for ContentPolicy {
    fn default() -> Self {
        ContentPolicy {
            include: true,
            max_bytes: 4096,
        }
    }
}

/// Builds every span of a session family (the root and its subagents).
pub fn family_spans(root: &SessionExport, policy: ContentPolicy) -> Vec<Span> {
    let trace = trace_id(&root.session.provider, &root.session.native_id);
    let mut out = Vec::new();
    session_spans(root, &trace, None, policy, &mut out);
    out
}

fn session_spans(
    s: &SessionExport,
    trace: &[u8; 16],
    parent: Option<[u8; 8]>,
    policy: ContentPolicy,
    out: &mut Vec<Span>,
) {
    let provider = s.session.provider.as_str();
    let native = s.session.native_id.as_str();
    let times = Times::of(s);
    let session_id = span_id("session", provider, native, "");
    let loop_id = |p: i64| span_id("loop", provider, native, &p.to_string());

    let mut attrs = vec![
        kv("gen_ai.operation.name", "invoke_agent"),
        kv("gen_ai.agent.name", provider),
        kv("gen_ai.conversation.id", native),
        kv("openinference.span.kind", "AGENT"),
        kv("fornax.session.native_id", native),
        kv("fornax.session.provider", provider),
    ];
    if let Some(p) = model_provider(provider) {
        attrs.push(kv("gen_ai.provider.name", p));
    }
    opt(&mut attrs, "fornax.session.cwd", s.session.cwd.as_deref());
    opt(&mut attrs, "fornax.session.name", s.session.name.as_deref());
    opt(
        &mut attrs,
        "fornax.session.parent_native_id",
        s.session.parent_native_id.as_deref(),
    );
    opt(
        &mut attrs,
        "fornax.runtime.version",
        s.session.runtime_version.as_deref(),
    );
    let mut session_span = Span {
        trace_id: trace.to_vec(),
        span_id: session_id.to_vec(),
        parent_span_id: parent.map(|p| p.to_vec()).unwrap_or_default(),
        name: format!("session {provider}"),
        kind: span::SpanKind::Internal as i32,
        start_time_unix_nano: times.session.0,
        end_time_unix_nano: times.session.1,
        attributes: attrs,
        ..Default::default()
    };
    let mut loop_spans: Vec<Span> = s
        .loops
        .iter()
        .map(|l| loop_span(s, l, trace, session_id, loop_id(l.position), &times))
        .collect();

    for f in &s.findings {
        let event = claim_event(f, &times);
        match f
            .loop_position
            .and_then(|p| loop_spans.iter_mut().find(|sp| sp.span_id == loop_id(p)))
        {
            Some(sp) => sp.events.push(event),
            None => session_span.events.push(event),
        }
    }

    let outputs: HashMap<&str, (&Item, &ToolOutputValue)> = s
        .items
        .iter()
        .filter_map(|i| match &i.semantic.value {
            SemanticValue::ToolOutput(o) => Some((o.call_id.as_deref()?, (i, o))),
            _ => None,
        })
        .collect();
    let mut tool_spans = Vec::new();
    for item in &s.items {
        let (name, call_id, args) = match &item.semantic.value {
            SemanticValue::ToolCall(c) => (
                c.name.as_str(),
                c.call_id.as_deref(),
                (!c.arguments.is_null()).then(|| c.arguments.to_string()),
            ),
            SemanticValue::ShellCall(c) => (
                c.tool_name.as_str(),
                c.call_id.as_deref(),
                Some(serde_json::json!({"command": c.command}).to_string()),
            ),
            _ => continue,
        };
        let parent = match item.loop_position {
            Some(p) if s.loops.iter().any(|l| l.position == i64::from(p)) => loop_id(i64::from(p)),
            _ => session_id,
        };
        let output = call_id.and_then(|c| outputs.get(c));
        let start = times.at(item.at.as_deref(), item.loop_position);
        let end = output
            .map(|(i, _)| times.at(i.at.as_deref(), i.loop_position))
            .unwrap_or(start)
            .max(start);
        let mut attrs = vec![
            kv("gen_ai.operation.name", "execute_tool"),
            kv("gen_ai.tool.name", name),
            kv("gen_ai.tool.type", "function"),
            kv("openinference.span.kind", "TOOL"),
            kv("fornax.item.key", &item.key),
        ];
        opt(&mut attrs, "gen_ai.tool.call.id", call_id);
        if policy.include {
            if let Some(a) = args {
                attrs.push(kv("gen_ai.tool.call.arguments", &cut(&a, policy.max_bytes)));
            }
            if let Some(text) = output.and_then(|(_, o)| o.text.as_ref()) {
                attrs.push(kv(
                    "gen_ai.tool.call.result",
                    &cut(&text.text, policy.max_bytes),
                ));
            }
        }
        let mut status = None;
        if let Some((_, o)) = output {
            if let Some(code) = o.exit_code {
                attrs.push(int("fornax.tool.exit_code", code.code));
            }
            let failed = o.failed == Some(true) || o.exit_code.is_some_and(|c| c.code != 0);
            if failed {
                status = Some(Status {
                    message: "the tool call failed".into(),
                    code: StatusCode::Error as i32,
                });
            }
        }
        tool_spans.push(Span {
            trace_id: trace.to_vec(),
            span_id: span_id("tool", provider, native, &item.key).to_vec(),
            parent_span_id: parent.to_vec(),
            name: format!("execute_tool {name}"),
            kind: span::SpanKind::Internal as i32,
            start_time_unix_nano: start,
            end_time_unix_nano: end,
            attributes: attrs,
            status,
            ..Default::default()
        });
    }
    out.push(session_span);
    out.append(&mut loop_spans);
    out.append(&mut tool_spans);

    for child in &s.subagents {
        // The loop whose item names the child session started it; else the session itself.
        let started_by = s.items.iter().find_map(|i| match &i.semantic.value {
            SemanticValue::Subagent(v)
                if v.child_session.as_deref() == Some(child.session.native_id.as_str()) =>
            {
                i.loop_position
            }
            _ => None,
        });
        let parent = match started_by {
            Some(p) if s.loops.iter().any(|l| l.position == i64::from(p)) => loop_id(i64::from(p)),
            _ => session_id,
        };
        session_spans(child, trace, Some(parent), policy, out);
    }
}

fn loop_span(
    s: &SessionExport,
    l: &LoopRow,
    trace: &[u8; 16],
    session: [u8; 8],
    id: [u8; 8],
    times: &Times,
) -> Span {
    let provider = s.session.provider.as_str();
    let mut attrs = vec![
        kv("gen_ai.operation.name", "invoke_agent"),
        kv("gen_ai.agent.name", provider),
        kv("gen_ai.conversation.id", &s.session.native_id),
        kv("openinference.span.kind", "AGENT"),
        int("fornax.loop.position", l.position),
    ];
    if let Some(p) = model_provider(provider) {
        attrs.push(kv("gen_ai.provider.name", p));
    }
    if let Some(m) = &l.model {
        attrs.push(kv("gen_ai.request.model", m));
        attrs.push(kv("gen_ai.response.model", m));
    }
    for (key, n) in [
        ("gen_ai.usage.input_tokens", l.input_tokens),
        ("gen_ai.usage.output_tokens", l.output_tokens),
        (
            "gen_ai.usage.cache_read.input_tokens",
            l.cached_input_tokens,
        ),
        (
            "fornax.usage.reasoning_output_tokens",
            l.reasoning_output_tokens,
        ),
    ] {
        if let Some(n) = n {
            attrs.push(int(key, n));
        }
    }
    opt(&mut attrs, "fornax.loop.native_id", l.native_id.as_deref());
    opt(&mut attrs, "fornax.loop.outcome", l.outcome.as_deref());
    let (start, end) = times.of_loop(l);
    Span {
        trace_id: trace.to_vec(),
        span_id: id.to_vec(),
        parent_span_id: session.to_vec(),
        name: format!("invoke_agent {provider}"),
        kind: span::SpanKind::Internal as i32,
        start_time_unix_nano: start,
        end_time_unix_nano: end,
        attributes: attrs,
        status: (l.outcome.as_deref() == Some("failed")).then(|| Status {
            message: "the loop failed".into(),
            code: StatusCode::Error as i32,
        }),
        ..Default::default()
    }
}

fn claim_event(f: &FindingRow, times: &Times) -> span::Event {
    let claim = f.claim.get("text").and_then(|v| v.as_str()).unwrap_or("");
    let subject = f
        .claim
        .get("subject")
        .and_then(|v| v.as_str())
        .unwrap_or("");
    let ids = f
        .evidence
        .iter()
        .map(|e| AnyValue {
            value: Some(Value::StringValue(e.id.clone())),
        })
        .collect();
    span::Event {
        time_unix_nano: times.at(f.at.as_deref(), f.loop_position.map(|p| p as u32)),
        name: "fornax.claim".into(),
        attributes: vec![
            kv("fornax.claim.text", claim),
            kv("fornax.claim.subject", subject),
            kv("fornax.claim.verdict", &f.verdict),
            kv("fornax.claim.rationale", &f.rationale),
            kv("fornax.claim.rule", &f.rule),
            kv("fornax.claim.item_key", &f.item_key),
            KeyValue {
                key: "fornax.claim.evidence_ids".into(),
                value: Some(AnyValue {
                    value: Some(Value::ArrayValue(ArrayValue { values: ids })),
                }),
                ..Default::default()
            },
        ],
        dropped_attributes_count: 0,
    }
}

/// The model vendor behind an agent runtime, where the runtime has only one.
fn model_provider(agent: &str) -> Option<&'static str> {
    match agent {
        "claude-code" => Some("anthropic"),
        "codex" => Some("openai"),
        "gemini" => Some("gcp.gemini"),
        _ => None,
    }
}

/// Span times from the runtime's timestamps, with fallbacks so that every span has a start no
/// later than its end: a loop without times spans its items, an item without a time takes its
/// loop's start, and a session without times takes 1 s after the epoch.
struct Times {
    session: (u64, u64),
    loops: HashMap<i64, (u64, u64)>,
}

impl Times {
    fn of(s: &SessionExport) -> Times {
        let mut loops: HashMap<i64, (u64, u64)> = HashMap::new();
        let mut lo = u64::MAX;
        let mut hi = 0u64;
        for item in &s.items {
            if let Some(t) = item.at.as_deref().and_then(nanos) {
                lo = lo.min(t);
                hi = hi.max(t);
                if let Some(p) = item.loop_position {
                    let e = loops.entry(i64::from(p)).or_insert((t, t));
                    e.0 = e.0.min(t);
                    e.1 = e.1.max(t);
                }
            }
        }
        for l in &s.loops {
            let start = l.started_at.as_deref().and_then(nanos);
            let end = l.ended_at.as_deref().and_then(nanos);
            let e = loops.entry(l.position).or_insert((u64::MAX, 0));
            if let Some(t) = start {
                e.0 = t;
            }
            if let Some(t) = end {
                e.1 = e.1.max(t);
            }
            for t in [start, end].into_iter().flatten() {
                lo = lo.min(t);
                hi = hi.max(t);
            }
        }
        if let Some(t) = s.session.created_at.as_deref().and_then(nanos) {
            lo = lo.min(t);
            hi = hi.max(t);
        }
        if let Some(t) = s.session.last_activity.as_deref().and_then(nanos) {
            hi = hi.max(t);
            lo = lo.min(t);
        }
        if lo == u64::MAX {
            lo = 1_000_000_000;
            hi = lo;
        }
        for v in loops.values_mut() {
            if v.0 == u64::MAX {
                v.0 = lo;
            }
            v.1 = v.1.max(v.0);
        }
        Times {
            session: (lo, hi.max(lo)),
            loops,
        }
    }

    fn of_loop(&self, l: &LoopRow) -> (u64, u64) {
        self.loops
            .get(&l.position)
            .copied()
            .unwrap_or((self.session.0, self.session.0))
    }

    fn at(&self, at: Option<&str>, loop_position: Option<u32>) -> u64 {
        at.and_then(nanos)
            .or_else(|| loop_position.and_then(|p| self.loops.get(&i64::from(p)).map(|(s, _)| *s)))
            .unwrap_or(self.session.0)
    }
}

fn nanos(iso: &str) -> Option<u64> {
    let ts: jiff::Timestamp = iso.parse().ok()?;
    u64::try_from(ts.as_nanosecond()).ok()
}

fn kv(key: &str, v: &str) -> KeyValue {
    KeyValue {
        key: key.into(),
        value: Some(AnyValue {
            value: Some(Value::StringValue(v.to_string())),
        }),
        ..Default::default()
    }
}

fn int(key: &str, v: i64) -> KeyValue {
    KeyValue {
        key: key.into(),
        value: Some(AnyValue {
            value: Some(Value::IntValue(v)),
        }),
        ..Default::default()
    }
}

fn opt(attrs: &mut Vec<KeyValue>, key: &str, v: Option<&str>) {
    if let Some(v) = v {
        attrs.push(kv(key, v));
    }
}

fn cut(s: &str, limit: usize) -> String {
    if s.len() <= limit {
        return s.to_string();
    }
    let mut end = limit;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…[{} bytes cut]", &s[..end], s.len() - end)
}
