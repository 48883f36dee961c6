//! Every Cursor sample of the shared corpus (`../shared/corpus/cursor/`, when present), each
//! read by its transport and placed where Cursor keeps it (the layout names the
//! conversation): no panic, no `Unrecognized`, the conversation's session, the conformance
//! suite green. The `.md` hook audit log holds raw hook payloads in fenced blocks; they go
//! through the hook adapter. The chat store is read through the store in the CLI's corpus
//! scan. Counts are printed for review.

#![allow(clippy::print_stdout)]
// The test reads the shared corpus from disk; the crate itself does no I/O (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use fornax_adapter_conformance::{check_adapter, shared_dir};
use fornax_adapter_cursor::{
    is_cursor_hook, is_text_transcript_line, is_transcript_line, CursorHookAdapter,
    CursorTextAdapter, CursorTranscriptAdapter,
};
use fornax_types::{
    AgentAdapter, IngestMessage, NativeRecord, NormalizationOutcome, RecordRef, SourceId,
};
use serde_json::Value;

fn corpus() -> Option<PathBuf> {
    let dir = shared_dir()?.join("corpus").join("cursor");
    dir.is_dir().then_some(dir)
}

fn name_of(path: &Path) -> String {
    path.file_name().unwrap().to_string_lossy().into_owned()
}

/// Where Cursor would keep the sample: the conversation id is the file name.
fn place(name: &str) -> String {
    let root = "/home/dev/.cursor/projects/home-dev-app/agent-transcripts";
    const PARENT: &str = "0b3e5c77-1a2d-4e9f-8c61-5d2f0a9b7e14";
    if name.ends_with("cursor-subagent__parent.jsonl") {
        return format!("{root}/{PARENT}/{PARENT}.jsonl");
    }
    if name.ends_with("cursor-subagent__subagents__child.jsonl") {
        return format!("{root}/{PARENT}/subagents/child.jsonl");
    }
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    let id = stem.rsplit("__").next().unwrap_or(stem);
    let id = if id.len() == 36 {
        id.to_string()
    } else {
        // A sample named after its fixture: give it a conversation id of its own.
        format!(
            "{:08x}-0000-4000-8000-{:012x}",
            stem.len(),
            stem.bytes().map(u64::from).sum::<u64>()
        )
    };
    if name.ends_with(".jsonl") {
        format!("{root}/{id}/{id}.jsonl")
    } else {
        format!("{root}/{id}.txt")
    }
}

fn run(
    adapter: &mut dyn AgentAdapter,
    natives: &[Value],
    location: &str,
    tally: &mut BTreeMap<String, usize>,
) -> (Vec<IngestMessage>, Vec<(usize, String)>) {
    let source = SourceId::new(location);
    let mut messages = Vec::new();
    let mut unrecognized = Vec::new();
    for (i, v) in natives.iter().enumerate() {
        let r = RecordRef::new(source.clone(), i as u64);
        match adapter.normalize("", &NativeRecord::new(&r, v).at(location)) {
            NormalizationOutcome::Messages(m) => messages.extend(m),
            NormalizationOutcome::Ignored { reason } => {
                *tally.entry(format!("ignored: {reason}")).or_default() += 1
            }
            NormalizationOutcome::Unrecognized { discriminator } => {
                unrecognized.push((i, discriminator))
            }
        }
    }
    messages.extend(adapter.finish());
    (messages, unrecognized)
}

fn count_roles(messages: &[IngestMessage], tally: &mut BTreeMap<String, usize>) -> Vec<String> {
    let mut sessions = Vec::new();
    for m in messages {
        match m {
            IngestMessage::Item(i) => {
                *tally
                    .entry(i.semantic.role.as_str().to_string())
                    .or_default() += 1
            }
            IngestMessage::Session(s) if !sessions.contains(&s.id.native_id) => {
                sessions.push(s.id.native_id.clone())
            }
            _ => {}
        }
    }
    sessions
}

/// The hook payloads of the audit log: one fenced ```json block each, the payload on its
/// one line (a payload may itself contain a fence inside a string).
fn audit_payloads(text: &str) -> Vec<Value> {
    text.split("```json\n")
        .skip(1)
        .filter_map(|block| block.lines().next())
        .map(|json| serde_json::from_str(json.trim()).expect("a payload per block"))
        .collect()
}

#[test]
fn cursor_corpus_imports_cleanly() {
    let Some(dir) = corpus() else {
        println!("skipped: no shared corpus folder");
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    files.sort();
    let mut tally = BTreeMap::new();
    let mut imported = 0;
    for path in &files {
        let name = name_of(path);
        let text = String::from_utf8_lossy(&std::fs::read(path).unwrap()).into_owned();
        let location = place(&name);
        let (messages, unrecognized, sessions) = if name.ends_with("agent-audit.md") {
            let payloads = audit_payloads(&text);
            assert!(payloads.iter().all(is_cursor_hook), "{name}");
            check_adapter(CursorHookAdapter::default, &payloads).assert_ok();
            let (m, u) = run(
                &mut CursorHookAdapter::default(),
                &payloads,
                &location,
                &mut tally,
            );
            let s = count_roles(&m, &mut tally);
            (m, u, s)
        } else if name.ends_with(".jsonl") {
            let natives: Vec<Value> = text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| serde_json::from_str(l).expect("valid line"))
                .collect();
            assert!(
                natives.iter().take(3).any(is_transcript_line),
                "{name}: not sniffed"
            );
            check_adapter(CursorTranscriptAdapter::default, &natives).assert_ok();
            let (m, u) = run(
                &mut CursorTranscriptAdapter::default(),
                &natives,
                &location,
                &mut tally,
            );
            let s = count_roles(&m, &mut tally);
            (m, u, s)
        } else if name.ends_with(".txt") || name.ends_with("previous-session.md") {
            // Text transcripts, one line per record, as the text framing hands them over.
            let natives: Vec<Value> = text
                .split('\n')
                .map(|l| Value::String(l.to_string()))
                .collect();
            assert!(
                natives.iter().take(3).any(is_text_transcript_line),
                "{name}: not sniffed"
            );
            check_adapter(CursorTextAdapter::default, &natives).assert_ok();
            let (m, u) = run(
                &mut CursorTextAdapter::default(),
                &natives,
                &location,
                &mut tally,
            );
            let s = count_roles(&m, &mut tally);
            (m, u, s)
        } else {
            assert!(name.ends_with("store.db"), "{name}: which transport?");
            println!("   {name}: the chat store, read through the store (fornax-cli corpus scan)");
            continue;
        };
        assert!(unrecognized.is_empty(), "{name}: {unrecognized:?}");
        assert!(!sessions.is_empty(), "{name}: no session");
        assert!(!messages.is_empty());
        imported += 1;
        println!("   {name}: sessions {sessions:?}");
    }
    assert_eq!(imported, files.len() - 1);
    println!("== {tally:#?}");
}

#[test]
#[ignore = "prints one transcript's items for review"]
fn print_text_transcript() {
    let Some(dir) = corpus() else { return };
    for name in [
        "Lorlah__Return-It__.cursor__previous-session.md",
        "fnvtk__karuo-ai__1777a2b9-e52c-4f51-990b-3947e7b24430.txt",
    ] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap();
        let natives: Vec<Value> = text
            .split('\n')
            .map(|l| Value::String(l.to_string()))
            .collect();
        let mut tally = BTreeMap::new();
        let (m, _) = run(
            &mut CursorTextAdapter::default(),
            &natives,
            &place(name),
            &mut tally,
        );
        let mut last: BTreeMap<String, (usize, String)> = BTreeMap::new();
        for (n, msg) in m.iter().enumerate() {
            if let IngestMessage::Item(i) = msg {
                let text = i
                    .semantic
                    .value
                    .primary_text()
                    .unwrap_or("")
                    .replace('\n', "|");
                last.insert(
                    i.key.clone(),
                    (
                        n,
                        format!(
                            "{:?} {} {:?} {}",
                            i.loop_position,
                            i.semantic.role.as_str(),
                            i.semantic.evidence_strength,
                            text.chars().take(90).collect::<String>()
                        ),
                    ),
                );
            }
        }
        let mut v: Vec<_> = last.into_iter().collect();
        v.sort_by_key(|(k, (n, _))| {
            (
                k.split(':')
                    .nth(1)
                    .and_then(|r| r.trim_start_matches('r').parse::<u64>().ok())
                    .unwrap_or(0),
                *n,
            )
        });
        for (k, (_, line)) in v {
            println!("{k:14} {line}");
        }
    }
}
