#![allow(clippy::print_stderr)] // a skipped check says why
//! `fornax export otlp`: the spans follow the GenAI conventions (names, attributes, parent and
//! child links, claims as events with their verdicts), a second export of unchanged data sends
//! nothing, and a grown session sends only what changed. The file target is decoded with the
//! OTLP protobuf definitions; a real receiver (Arize Phoenix, `FORNAX_TEST_PHOENIX`) gets the
//! same spans and they are read back from its API.

#[path = "support/export_home.rs"]
mod export_home;

use std::collections::{HashMap, HashSet};
use std::io::{Read, Write};
use std::path::Path;

use export_home::{fornax, home, run_ok, scan, skip_or_fail};
use fornax_export::otlp::read_file;
use opentelemetry_proto::tonic::common::v1::any_value::Value;
use opentelemetry_proto::tonic::trace::v1::Span;

fn export(home: &Path, args: &[&str]) -> serde_json::Value {
    let out = run_ok(fornax(home).args(["--json", "export", "otlp"]).args(args));
    serde_json::from_slice(&out).unwrap()
}

fn attr<'a>(span: &'a Span, key: &str) -> Option<&'a Value> {
    span.attributes
        .iter()
        .find(|kv| kv.key == key)
        .and_then(|kv| kv.value.as_ref())
        .and_then(|v| v.value.as_ref())
}

fn text<'a>(span: &'a Span, key: &str) -> Option<&'a str> {
    match attr(span, key)? {
        Value::StringValue(s) => Some(s),
        _ => None,
    }
}

fn spans_of(path: &Path) -> Vec<Span> {
    read_file(path)
        .unwrap()
        .into_iter()
        .flat_map(|r| r.resource_spans)
        .flat_map(|r| r.scope_spans)
        .flat_map(|s| s.spans)
        .collect()
}

/// Checks the shape every export must have, and returns how many claim events it holds.
fn check_shape(spans: &[Span]) -> usize {
    let ids: HashSet<(&[u8], &[u8])> = spans
        .iter()
        .map(|s| (s.trace_id.as_slice(), s.span_id.as_slice()))
        .collect();
    assert_eq!(ids.len(), spans.len(), "span ids are unique");
    let mut claims = 0;
    for s in spans {
        assert_eq!(s.trace_id.len(), 16);
        assert_eq!(s.span_id.len(), 8);
        assert!(s.start_time_unix_nano > 0 && s.start_time_unix_nano <= s.end_time_unix_nano);
        if !s.parent_span_id.is_empty() {
            assert!(
                ids.contains(&(s.trace_id.as_slice(), s.parent_span_id.as_slice())),
                "{}: its parent is in the same trace",
                s.name
            );
        }
        match text(s, "gen_ai.operation.name") {
            Some("invoke_agent") => {
                assert!(s.name.starts_with("invoke_agent ") || s.name.starts_with("session "));
                assert!(text(s, "gen_ai.agent.name").is_some());
                assert!(text(s, "gen_ai.conversation.id").is_some());
            }
            Some("execute_tool") => {
                let tool = text(s, "gen_ai.tool.name").unwrap();
                assert_eq!(s.name, format!("execute_tool {tool}"));
                assert!(!s.parent_span_id.is_empty(), "a tool call has a parent");
            }
            other => panic!("{}: unexpected operation {other:?}", s.name),
        }
        for e in &s.events {
            assert_eq!(e.name, "fornax.claim");
            let verdict = e
                .attributes
                .iter()
                .find(|a| a.key == "fornax.claim.verdict")
                .and_then(|a| a.value.as_ref()?.value.as_ref());
            assert!(
                matches!(verdict, Some(Value::StringValue(v)) if ["VERIFIED", "UNVERIFIED", "CONTRADICTED", "REVIEW", "UNAVAILABLE"].contains(&v.as_str())),
                "{verdict:?}"
            );
            assert!(e
                .attributes
                .iter()
                .any(|a| a.key == "fornax.claim.rationale"));
            assert!(e
                .attributes
                .iter()
                .any(|a| a.key == "fornax.claim.evidence_ids"));
            claims += 1;
        }
    }
    claims
}

#[test]
fn the_file_target_holds_genai_spans_and_a_second_export_sends_none() {
    let (dir, home) = home(true);
    let file = dir.path().join("traces.otlp");
    let first = export(&home, &["--file", file.to_str().unwrap()]);
    let spans = spans_of(&file);
    assert_eq!(first["spans_sent"].as_u64().unwrap() as usize, spans.len());
    assert!(first["sessions"].as_u64().unwrap() >= 4);
    let claims = check_shape(&spans);
    assert!(claims > 0, "claims travel as span events");
    let loops: Vec<&Span> = spans
        .iter()
        .filter(|s| s.name.starts_with("invoke_agent "))
        .collect();
    assert!(!loops.is_empty());
    assert!(
        loops
            .iter()
            .any(|s| attr(s, "gen_ai.usage.input_tokens").is_some()
                && attr(s, "gen_ai.request.model").is_some()),
        "loops carry usage and model"
    );
    assert!(spans.iter().any(|s| s.name.starts_with("execute_tool ")));
    if export_home::corpus().is_some() {
        // The corpus holds Claude Code subagents: their session spans are children.
        assert!(
            spans
                .iter()
                .any(|s| s.name.starts_with("session ") && !s.parent_span_id.is_empty()),
            "subagent sessions are child spans"
        );
    }

    let second = export(&home, &["--file", file.to_str().unwrap()]);
    assert_eq!(second["spans_sent"], 0, "{second}");
    assert_eq!(second["spans_built"], first["spans_built"]);
    assert_eq!(spans_of(&file).len(), spans.len(), "nothing appended");

    // --full ignores the cursor; the ids are the same, so a receiver sees the same spans.
    let again = dir.path().join("again.otlp");
    export(&home, &["--file", again.to_str().unwrap(), "--full"]);
    let a: HashSet<Vec<u8>> = spans.iter().map(|s| s.span_id.clone()).collect();
    let b: HashSet<Vec<u8>> = spans_of(&again).iter().map(|s| s.span_id.clone()).collect();
    assert_eq!(a, b, "ids derive from native ids");
}

#[test]
fn a_grown_session_sends_only_its_new_spans() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    // A session of several loops: the corpus's five-loop Codex rollout when it is present.
    let source = export_home::corpus()
        .map(|c| c.join("codex-rollout/seokhyeonhong__motion-jepa__rollout-2026-08-06T16-45-32-019fd608-da80-7713-bcdd-bc47748af23d.jsonl"))
        .filter(|p| p.is_file());
    let several_loops = source.is_some();
    let full = std::fs::read_to_string(
        source.unwrap_or_else(|| export_home::fixtures().join("claude-transcript.jsonl")),
    )
    .unwrap();
    let lines: Vec<&str> = full.lines().collect();
    let cut = lines.len() / 2;
    let transcript = data.join("session.jsonl");
    std::fs::write(&transcript, format!("{}\n", lines[..cut].join("\n"))).unwrap();
    let home = dir.path().join("home");
    scan(&home, &data);
    let file = dir.path().join("t.otlp");
    let first = export(&home, &["--file", file.to_str().unwrap()]);
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&transcript)
        .unwrap();
    writeln!(f, "{}", lines[cut..].join("\n")).unwrap();
    drop(f);
    scan(&home, &data);
    let second = export(&home, &["--file", file.to_str().unwrap()]);
    let built = second["spans_built"].as_u64().unwrap();
    let sent = second["spans_sent"].as_u64().unwrap();
    assert!(
        built > first["spans_built"].as_u64().unwrap(),
        "{first} {second}"
    );
    assert!(sent > 0, "{second}");
    if several_loops {
        // The loops that were done before the append are not sent again.
        assert!(sent < built, "only new or changed spans: {second}");
    }
    // A changed span is sent again under the same id; the latest version is what counts.
    let mut latest: HashMap<Vec<u8>, Span> = HashMap::new();
    for s in spans_of(&file) {
        latest.insert(s.span_id.clone(), s);
    }
    check_shape(&latest.into_values().collect::<Vec<_>>());
}

/// A GET over plain HTTP/1.0 (no chunking), returning the body of a 200 (`None` otherwise:
/// the receiver creates a project when its first span is stored).
fn get(base: &str, path: &str) -> Option<String> {
    let authority = base.trim_start_matches("http://").trim_end_matches('/');
    let mut s = std::net::TcpStream::connect(authority).unwrap();
    write!(s, "GET {path} HTTP/1.0\r\nHost: {authority}\r\n\r\n").unwrap();
    let mut out = Vec::new();
    s.read_to_end(&mut out).unwrap();
    let text = String::from_utf8_lossy(&out).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap();
    (head.starts_with("HTTP/1.1 200") || head.starts_with("HTTP/1.0 200")).then(|| body.to_string())
}

#[test]
fn a_real_receiver_gets_the_spans_once() {
    let Ok(phoenix) = std::env::var("FORNAX_TEST_PHOENIX") else {
        skip_or_fail("FORNAX_TEST_PHOENIX is not set (.ci/run starts Arize Phoenix)");
        return;
    };
    let (dir, home) = home(false);
    let project = format!("fornax-test-{}", std::process::id());
    let resource = format!("openinference.project.name={project}");
    let first = export(&home, &["--endpoint", &phoenix, "--resource", &resource]);
    let sent = first["spans_sent"].as_u64().unwrap();
    assert!(sent > 0, "{first}");
    // The same spans, decoded locally, to compare with what the receiver stored.
    let file = dir.path().join("same.otlp");
    export(&home, &["--file", file.to_str().unwrap()]);
    let local: HashMap<String, Span> = spans_of(&file)
        .into_iter()
        .map(|s| (hex(&s.span_id), s))
        .collect();
    assert_eq!(local.len() as u64, sent);

    let trace_ids: HashSet<String> = local.values().map(|s| hex(&s.trace_id)).collect();
    let stored = read_back(&phoenix, &trace_ids, local.len());
    assert_eq!(stored.len(), local.len(), "every span reached the receiver");
    for s in &stored {
        let id = s["context"]["span_id"].as_str().unwrap();
        let mine = &local[id];
        assert_eq!(s["name"], mine.name.as_str());
        let parent = s["parent_id"].as_str().unwrap_or("");
        assert_eq!(parent, hex(&mine.parent_span_id), "{}", mine.name);
        assert_eq!(
            s["attributes"]["gen_ai.operation.name"].as_str(),
            text(mine, "gen_ai.operation.name")
        );
        if let Some(tool) = text(mine, "gen_ai.tool.name") {
            assert_eq!(s["attributes"]["gen_ai.tool.name"], tool);
        }
        assert_eq!(
            s["events"].as_array().map(Vec::len).unwrap_or(0),
            mine.events.len()
        );
    }

    let second = export(&home, &["--endpoint", &phoenix, "--resource", &resource]);
    assert_eq!(
        second["spans_sent"], 0,
        "unchanged data sends nothing: {second}"
    );
    assert_eq!(second["requests"], 0);
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// The spans of these traces the receiver stored, read until `expected` are there (it ingests
/// asynchronously) or 30 s passed.
fn read_back(
    phoenix: &str,
    trace_ids: &HashSet<String>,
    expected: usize,
) -> Vec<serde_json::Value> {
    // The receiver ingests asynchronously: read back until every span is there.
    // The receiver keeps a span id once, in the project that first sent it (an earlier run
    // against the same receiver may have), so every project is read.
    let mut stored: Vec<serde_json::Value> = Vec::new();
    for _ in 0..60 {
        stored.clear();
        let projects: serde_json::Value =
            serde_json::from_str(&get(phoenix, "/v1/projects").unwrap()).unwrap();
        for p in projects["data"].as_array().unwrap() {
            let name = p["name"].as_str().unwrap();
            let Some(body) = get(phoenix, &format!("/v1/projects/{name}/spans?limit=1000")) else {
                continue;
            };
            let v: serde_json::Value = serde_json::from_str(&body).unwrap();
            stored.extend(
                v["data"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|s| {
                        s["context"]["trace_id"]
                            .as_str()
                            .is_some_and(|t| trace_ids.contains(t))
                    })
                    .cloned(),
            );
        }
        if stored.len() >= expected {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(500));
    }
    stored
}

#[cfg(feature = "grpc")]
#[test]
fn otlp_over_grpc_reaches_a_real_receiver() {
    let Ok(grpc) = std::env::var("FORNAX_TEST_PHOENIX_GRPC") else {
        skip_or_fail("FORNAX_TEST_PHOENIX_GRPC is not set (.ci/run starts Arize Phoenix)");
        return;
    };
    let phoenix = std::env::var("FORNAX_TEST_PHOENIX").unwrap();
    let Some(corpus) = export_home::corpus() else {
        eprintln!("skipped: the corpus is absent (its sessions are the ones no other test sends)");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let name = "seokhyeonhong__motion-jepa__rollout-2026-08-06T16-45-32-019fd608-da80-7713-bcdd-bc47748af23d.jsonl";
    std::fs::copy(corpus.join("codex-rollout").join(name), data.join(name)).unwrap();
    let home = dir.path().join("home");
    scan(&home, &data);
    let first = export(&home, &["--grpc", &grpc]);
    let sent = first["spans_sent"].as_u64().unwrap() as usize;
    assert!(sent > 0, "{first}");
    let file = dir.path().join("same.otlp");
    export(&home, &["--file", file.to_str().unwrap()]);
    let local = spans_of(&file);
    assert_eq!(local.len(), sent);
    let trace_ids: HashSet<String> = local.iter().map(|s| hex(&s.trace_id)).collect();
    let stored = read_back(&phoenix, &trace_ids, sent);
    assert_eq!(
        stored.len(),
        sent,
        "every span reached the receiver over gRPC"
    );
    let second = export(&home, &["--grpc", &grpc]);
    assert_eq!(second["spans_sent"], 0, "{second}");
}
