//! Real Gemini CLI chats from the shared corpus (`../shared/corpus/gemini/`), when present:
//! no panic, no `Unrecognized` for shapes found there, a session for every chat file, and
//! the conformance suite green. Counts are printed for visibility.
//!
//! `.json` files are framed whole (one record), `.jsonl` files by line, as the descriptors
//! say. The corpus is read in place and never copied; the test skips cleanly without it.

#![allow(clippy::print_stdout)]
// The test reads the shared corpus from disk; the crate itself does no I/O (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use fornax_adapter_conformance::{check_adapter, shared_dir};
use fornax_adapter_gemini::{is_gemini_chat_document, is_gemini_jsonl_record, GeminiAdapter};
use fornax_types::*;
use serde_json::Value;

fn discriminators(v: &Value, out: &mut BTreeMap<String, usize>) {
    let mut count = |k: String| *out.entry(k).or_default() += 1;
    let Some(obj) = v.as_object() else {
        count("<not an object>".into());
        return;
    };
    if let Some(messages) = obj.get("messages").and_then(Value::as_array) {
        count("document".into());
        for m in messages {
            discriminators(m, out);
        }
    } else if obj.contains_key("$set") {
        count("$set".into());
    } else if obj.contains_key("$rewindTo") {
        count("$rewindTo".into());
    } else if obj.contains_key("sessionId") {
        let kind = obj.get("kind").and_then(Value::as_str).unwrap_or("-");
        count(format!("metadata(kind={kind})"));
    } else if let Some(t) = obj.get("type").and_then(Value::as_str) {
        count(format!("message:{t}"));
        for call in obj
            .get("toolCalls")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let name = call.get("name").and_then(Value::as_str).unwrap_or("?");
            count(format!("toolCall:{name}"));
        }
    } else {
        let keys: Vec<&str> = obj.keys().map(String::as_str).collect();
        count(format!("other{keys:?}"));
    }
}

#[test]
fn gemini_corpus_normalizes_cleanly() {
    let Some(shared) = shared_dir() else {
        println!("gemini corpus: shared folder absent, skipped");
        return;
    };
    let dir = shared.join("corpus/gemini");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("gemini corpus: {} absent, skipped", dir.display());
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json" || e == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no chat files in {}", dir.display());

    let mut shapes: BTreeMap<String, usize> = BTreeMap::new();
    let mut roles: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    let mut totals: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut unrecognized = Vec::new();
    let mut chat_files = 0;

    for path in &files {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let text = std::fs::read_to_string(path).expect("corpus file reads");
        let hint = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let whole_file = path.extension().is_some_and(|e| e == "json");
        let natives: Vec<Value> = if whole_file {
            vec![serde_json::from_str(&text).expect("a .json chat is one JSON document")]
        } else {
            text.lines()
                .filter(|l| !l.trim().is_empty())
                .filter_map(|l| match serde_json::from_str(l) {
                    Ok(v) => Some(v),
                    Err(_) => {
                        *totals.entry("malformed lines").or_default() += 1;
                        None
                    }
                })
                .collect()
        };
        let is_chat = if whole_file {
            is_gemini_chat_document(&natives[0])
        } else {
            natives.first().is_some_and(is_gemini_jsonl_record)
        };
        // The A2A server writes one id for all its runs; the run is told apart by its start.
        let expected_id = natives.first().and_then(|v| {
            let id = v.get("sessionId").and_then(Value::as_str)?;
            Some(match (id, v.get("startTime").and_then(Value::as_str)) {
                ("a2a-server", Some(start)) => format!("a2a-server@{start}"),
                _ => id.to_string(),
            })
        });

        let source = SourceId::new(name.clone());
        let mut adapter = GeminiAdapter::default();
        let mut messages = Vec::new();
        for (position, value) in natives.iter().enumerate() {
            discriminators(value, &mut shapes);
            *totals.entry("records").or_default() += 1;
            let record = RecordRef::new(source.clone(), position as u64);
            match adapter.normalize(&hint, &NativeRecord::new(&record, value)) {
                NormalizationOutcome::Messages(m) => messages.extend(m),
                NormalizationOutcome::Ignored { reason } => {
                    *totals.entry("ignored").or_default() += 1;
                    if !is_chat {
                        println!("  {name}: not a chat file, ignored ({reason})");
                    }
                }
                NormalizationOutcome::Unrecognized { discriminator } => {
                    unrecognized.push(format!("{name}#{position}: {discriminator}"))
                }
            }
        }
        messages.extend(adapter.finish());

        let mut sessions = BTreeSet::new();
        let mut last: BTreeMap<String, Item> = BTreeMap::new();
        let mut loops: BTreeMap<u32, Option<LoopOutcome>> = BTreeMap::new();
        for m in &messages {
            match m {
                IngestMessage::Session(s) => {
                    sessions.insert(s.id.native_id.clone());
                }
                IngestMessage::Item(item) => {
                    // A re-appended message republishes its keys: the last copy counts.
                    last.insert(item.key.clone(), item.clone());
                }
                IngestMessage::Loop(lp) => {
                    assert!(
                        lp.usage.is_none_or(|u| u.validate().is_ok()),
                        "{name}: usage"
                    );
                    loops.insert(lp.position, lp.end.as_ref().map(|e| e.outcome));
                }
                IngestMessage::Evidence(ev) => {
                    assert_eq!(ev.kind(), EvidenceKind::FileDiff, "{name}");
                    *totals.entry("file evidence").or_default() += 1;
                }
                _ => {}
            }
        }
        for outcome in loops.values() {
            let label = outcome.map_or("still running".to_string(), |o| format!("{o:?}"));
            *outcomes.entry(label).or_default() += 1;
        }
        for item in last.values() {
            *roles.entry(item.semantic.role.as_str()).or_default() += 1;
            if let SemanticValue::ToolOutput(out) = &item.semantic.value {
                if out.exit_code.is_some() {
                    *totals.entry("exit codes").or_default() += 1;
                }
            }
        }
        if is_chat {
            chat_files += 1;
            let id = expected_id.unwrap_or_else(|| panic!("{name}: chat without sessionId"));
            assert_eq!(
                sessions,
                BTreeSet::from([id]),
                "{name}: one session, the file's"
            );
            *totals.entry("sessions").or_default() += sessions.len();
        } else {
            assert!(
                sessions.is_empty(),
                "{name}: a session from a file with no identity"
            );
            *totals.entry("files without a chat identity").or_default() += 1;
        }

        let report = check_adapter(GeminiAdapter::default, &natives);
        assert!(report.is_ok(), "{name}: {:#?}", report.violations);
    }

    println!("gemini corpus: {} files ({chat_files} chats)", files.len());
    println!("  by discriminator: {shapes:?}");
    println!("  items by role: {roles:?}");
    println!("  loops by final state: {outcomes:?}");
    println!("  totals: {totals:?}");
    assert!(
        unrecognized.is_empty(),
        "shapes present in the corpus came back Unrecognized: {unrecognized:#?}"
    );
    assert_eq!(
        totals.get("sessions").copied().unwrap_or(0),
        chat_files,
        "a session for every chat"
    );
}
