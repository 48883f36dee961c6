//! Every Claude Code sample of the shared corpus (`../shared/corpus/`, when present) through
//! the adapters: no panic, no Unrecognized for any shape the real agent wrote, a session for
//! every transcript, the conformance suite green, and the counts printed per role and per
//! discriminator. Skips cleanly when the corpus is absent.

#![allow(clippy::print_stdout)]

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use fornax_adapter_claude::{
    is_hook_payload, is_transcript_line, ClaudeHookAdapter, ClaudeTranscriptAdapter,
};
use fornax_adapter_conformance::{check_adapter, shared_dir};
use fornax_types::{AgentAdapter, IngestMessage, NormalizationOutcome};
use serde_json::Value;

fn corpus() -> Option<PathBuf> {
    let dir = shared_dir()?.join("corpus");
    dir.is_dir().then_some(dir)
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    paths
}

/// Some logging scripts wrote Python `surrogateescape` artefacts (`\udc90`) that no JSON parser
/// accepts; framing (not the adapter) has to repair them, as here.
fn replace_lone_surrogates(text: &str) -> String {
    fn escape_at(b: &[u8], i: usize) -> Option<u32> {
        if b.get(i) == Some(&b'\\') && b.get(i + 1) == Some(&b'u') {
            let hex = std::str::from_utf8(b.get(i + 2..i + 6)?).ok()?;
            return u32::from_str_radix(hex, 16).ok();
        }
        None
    }
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' {
            match escape_at(b, i) {
                Some(0xD800..=0xDBFF) if matches!(escape_at(b, i + 6), Some(0xDC00..=0xDFFF)) => {
                    out.extend_from_slice(&b[i..i + 12]);
                    i += 12;
                }
                Some(0xD800..=0xDFFF) => {
                    out.extend_from_slice(b"\\ufffd");
                    i += 6;
                }
                _ => {
                    out.extend_from_slice(&b[i..(i + 2).min(b.len())]);
                    i += 2;
                }
            }
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

/// A file's records: JSONL lines, a JSON array of lines, or one JSON document.
fn records(path: &Path) -> Vec<Value> {
    let bytes = std::fs::read(path).unwrap_or_default();
    let text = replace_lone_surrogates(&String::from_utf8_lossy(&bytes));
    if let Ok(doc) = serde_json::from_str::<Value>(&text) {
        return match doc {
            Value::Array(items) => items,
            other => vec![other],
        };
    }
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            serde_json::from_str(l).unwrap_or_else(|e| panic!("{}: bad line: {e}", path.display()))
        })
        .collect()
}

/// Hook-log scripts sometimes wrap the payload (`{timestamp, ..., raw_input: {payload}}`).
fn unwrap_raw_input(v: Value) -> Value {
    match v.get("raw_input") {
        Some(inner) if inner.get("hook_event_name").is_some() => inner.clone(),
        _ => v,
    }
}

#[derive(Default)]
struct Tally {
    roles: BTreeMap<String, usize>,
    discriminators: BTreeMap<String, BTreeMap<&'static str, usize>>,
}

impl Tally {
    fn record(&mut self, discriminator: String, outcome: &NormalizationOutcome) {
        let kind = match outcome {
            NormalizationOutcome::Messages(msgs) => {
                for m in msgs {
                    if let IngestMessage::Item(i) = m {
                        *self
                            .roles
                            .entry(i.semantic.role.as_str().to_string())
                            .or_default() += 1;
                    }
                }
                "projected"
            }
            NormalizationOutcome::Ignored { .. } => "ignored",
            NormalizationOutcome::Unrecognized { .. } => "unrecognized",
        };
        *self
            .discriminators
            .entry(discriminator)
            .or_default()
            .entry(kind)
            .or_default() += 1;
    }

    fn print(&self, title: &str) {
        println!("== {title}: items per role");
        for (role, n) in &self.roles {
            println!("   {role:<28} {n}");
        }
        println!("== {title}: outcomes per discriminator");
        for (d, counts) in &self.discriminators {
            println!("   {d:<40} {counts:?}");
        }
    }
}

fn transcript_discriminator(v: &Value) -> String {
    let ty = v.get("type").and_then(Value::as_str).unwrap_or("<no type>");
    let sub = match ty {
        "system" => v.get("subtype").and_then(Value::as_str),
        "attachment" => v
            .get("attachment")
            .and_then(|a| a.get("type"))
            .and_then(Value::as_str),
        "progress" => v
            .get("data")
            .and_then(|d| d.get("type"))
            .and_then(Value::as_str),
        _ => None,
    };
    match sub {
        Some(sub) => format!("{ty}:{sub}"),
        None => ty.to_string(),
    }
}

/// Whether a transcript line names its session (`sessionId`, `session_id`) or, on a sidechain,
/// its agent.
fn states_identity(v: &Value) -> bool {
    let has = |k: &str| v.get(k).and_then(Value::as_str).is_some();
    has("sessionId")
        || has("session_id")
        || (v.get("isSidechain").and_then(Value::as_bool) == Some(true) && has("agentId"))
}

fn normalize_all(
    adapter: &mut dyn AgentAdapter,
    events: &[Value],
    hint: &str,
) -> Vec<NormalizationOutcome> {
    let source = fornax_types::SourceId::new("corpus");
    events
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let record = fornax_types::RecordRef::new(source.clone(), i as u64);
            adapter.normalize(hint, &fornax_types::NativeRecord::new(&record, v))
        })
        .collect()
}

#[test]
fn claude_transcript_corpus() {
    let Some(corpus) = corpus() else {
        println!("skipped: no shared corpus folder");
        return;
    };
    let mut tally = Tally::default();
    let mut transcripts = 0;
    for path in files(&corpus.join("claude-transcript")) {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        if name.ends_with(".meta.json") {
            println!("   {name}: subagent metadata sidecar, not a transcript");
            continue;
        }
        if name.contains("__workflows__wf_") && name.ends_with(".json") {
            println!(
                "   {name}: workflow run summary sidecar (one JSON document), not a transcript"
            );
            continue;
        }
        let events = records(&path);
        assert!(
            events.iter().take(5).any(is_transcript_line),
            "{name}: sniff does not recognize it"
        );
        let hint = name.trim_end_matches(".jsonl").trim_end_matches(".json");
        let mut adapter = ClaudeTranscriptAdapter::default();
        let outcomes = normalize_all(&mut adapter, &events, hint);
        let _ = adapter.finish();
        let mut sessions = 0;
        for (v, outcome) in events.iter().zip(&outcomes) {
            let d = transcript_discriminator(v);
            assert!(
                !matches!(outcome, NormalizationOutcome::Unrecognized { .. }),
                "{name}: `{d}` came back Unrecognized"
            );
            sessions += outcome
                .clone()
                .messages()
                .iter()
                .filter(|m| matches!(m, IngestMessage::Session(_)))
                .count();
            tally.record(d, outcome);
        }
        // A file publishes a session when one of its lines states an identity; a workflow
        // journal or a single bookkeeping record cut out of a transcript states none.
        if events.iter().any(states_identity) {
            assert!(sessions > 0, "{name}: no session published");
        }
        // After upserting by key, a loop has at most one final answer.
        let mut latest = BTreeMap::new();
        for msg in outcomes.iter().flat_map(|o| o.clone().messages()) {
            if let IngestMessage::Item(i) = msg {
                latest.insert((i.session.native_id.clone(), i.key.clone()), i);
            }
        }
        let mut finals: BTreeMap<(String, Option<u32>), usize> = BTreeMap::new();
        for item in latest
            .values()
            .filter(|i| i.semantic.role.as_str() == "agent.final_answer")
        {
            *finals
                .entry((item.session.native_id.clone(), item.loop_position))
                .or_default() += 1;
        }
        assert!(
            finals.values().all(|n| *n == 1),
            "{name}: several final answers in a loop: {finals:?}"
        );
        check_adapter(ClaudeTranscriptAdapter::default, &events).assert_ok();
        println!(
            "   {name}: {} lines, {sessions} session publications",
            events.len()
        );
        transcripts += 1;
    }
    assert!(transcripts > 0);
    tally.print("claude-transcript");
}

#[test]
fn claude_hooks_corpus() {
    let Some(corpus) = corpus() else {
        println!("skipped: no shared corpus folder");
        return;
    };
    let mut tally = Tally::default();
    for path in files(&corpus.join("claude-hooks")) {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        let events: Vec<Value> = records(&path).into_iter().map(unwrap_raw_input).collect();
        assert!(
            events.iter().all(is_hook_payload),
            "{name}: sniff rejects a payload"
        );
        // One long-lived adapter per log, and a fresh adapter per event (one process per hook).
        let long = normalize_all(&mut ClaudeHookAdapter::default(), &events, "hint");
        for (i, (v, outcome)) in events.iter().zip(&long).enumerate() {
            let d = v
                .get("hook_event_name")
                .and_then(Value::as_str)
                .unwrap_or("<none>")
                .to_string();
            assert!(
                !matches!(outcome, NormalizationOutcome::Unrecognized { .. }),
                "{name}: `{d}` came back Unrecognized"
            );
            let fresh = normalize_all(
                &mut ClaudeHookAdapter::default(),
                std::slice::from_ref(v),
                "hint",
            );
            assert!(
                fresh[0]
                    .clone()
                    .messages()
                    .iter()
                    .any(|m| matches!(m, IngestMessage::Session(_))),
                "{name} #{i}: a fresh adapter must publish the session"
            );
            tally.record(d, outcome);
        }
        check_adapter(ClaudeHookAdapter::default, &events).assert_ok();
        println!("   {name}: {} payloads", events.len());
    }
    tally.print("claude-hooks");
}

#[test]
fn other_agents_files_are_not_sniffed_as_claude() {
    let Some(corpus) = corpus() else {
        println!("skipped: no shared corpus folder");
        return;
    };
    let mut checked = 0;
    for sub in ["codex-rollout", "pi-session", "gemini", "opencode"] {
        for path in files(&corpus.join(sub)) {
            let bytes = std::fs::read(&path).unwrap_or_default();
            let text = replace_lone_surrogates(&String::from_utf8_lossy(&bytes));
            let mut values: Vec<Value> = text
                .lines()
                .take(8)
                .filter_map(|l| serde_json::from_str(l).ok())
                .collect();
            if let Ok(doc) = serde_json::from_str::<Value>(&text) {
                values.push(doc);
            }
            for v in &values {
                assert!(
                    !is_transcript_line(v),
                    "{}: sniffed as a Claude transcript",
                    path.display()
                );
                assert!(
                    !is_hook_payload(v),
                    "{}: sniffed as a Claude hook payload",
                    path.display()
                );
            }
            checked += values.len();
        }
    }
    println!("   {checked} records of other agents rejected");
}
