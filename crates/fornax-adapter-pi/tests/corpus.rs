//! Real Pi session files from the shared corpus (`../shared/corpus/pi-session/`), when present:
//! no panic, no `Unrecognized` for shapes found there, a session for every file, consistent
//! keys, and the conformance suite green. Counts are printed for visibility.
//!
//! The corpus is read in place and never copied; the test skips cleanly without it.

#![allow(clippy::print_stdout)]
// The test reads the shared corpus from disk; the crate itself does no I/O (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use fornax_adapter_conformance::{check_adapter, shared_dir};
use fornax_adapter_pi::{is_pi_record, PiAdapter};
use fornax_types::*;
use serde_json::Value;

/// One line of a file, split into the JSON objects it holds. A damaged line can hold two
/// objects with no newline between them; the framing layer recovers both, and so does this.
fn objects_of_line(line: &str) -> (Vec<Value>, bool) {
    let mut values = Vec::new();
    let mut malformed = false;
    for value in serde_json::Deserializer::from_str(line).into_iter::<Value>() {
        match value {
            Ok(v) => values.push(v),
            Err(_) => {
                malformed = true;
                break;
            }
        }
    }
    (values, malformed)
}

fn discriminator(v: &Value) -> String {
    let kind = v.get("type").and_then(Value::as_str).unwrap_or("<no type>");
    match v
        .get("message")
        .and_then(|m| m.get("role"))
        .and_then(Value::as_str)
    {
        Some(role) if kind == "message" => format!("message:{role}"),
        _ => kind.to_string(),
    }
}

#[test]
fn pi_corpus_normalizes_cleanly() {
    let Some(shared) = shared_dir() else {
        println!("pi corpus: shared folder absent, skipped");
        return;
    };
    let dir = shared.join("corpus/pi-session");
    let Ok(entries) = std::fs::read_dir(&dir) else {
        println!("pi corpus: {} absent, skipped", dir.display());
        return;
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .jsonl files in {}", dir.display());

    let mut shapes: BTreeMap<String, usize> = BTreeMap::new();
    let mut roles: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    let mut totals: BTreeMap<&'static str, usize> = BTreeMap::new();
    let mut unrecognized: Vec<String> = Vec::new();

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
        let source = SourceId::new(name.clone());
        let mut adapter = PiAdapter::default();
        let mut natives = Vec::new();
        let mut header_id = None;
        let mut sessions = BTreeSet::new();
        let mut messages = Vec::new();
        for (position, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let (values, malformed) = objects_of_line(line);
            if values.len() > 1 {
                *totals.entry("lines with two objects").or_default() += 1;
            }
            if malformed {
                *totals.entry("malformed lines").or_default() += 1;
            }
            let record = RecordRef::new(source.clone(), position as u64);
            for value in values {
                if value.get("type").and_then(Value::as_str) == Some("session") {
                    header_id = value.get("id").and_then(Value::as_str).map(str::to_string);
                    assert!(is_pi_record(&value), "{name}: header not sniffed");
                }
                *shapes.entry(discriminator(&value)).or_default() += 1;
                *totals.entry("records").or_default() += 1;
                match adapter.normalize(&hint, &NativeRecord::new(&record, &value)) {
                    NormalizationOutcome::Messages(m) => messages.extend(m),
                    NormalizationOutcome::Ignored { .. } => {
                        *totals.entry("ignored").or_default() += 1
                    }
                    NormalizationOutcome::Unrecognized { discriminator } => {
                        unrecognized.push(format!("{name}:{}: {discriminator}", position + 1))
                    }
                }
                natives.push(value);
            }
        }
        messages.extend(adapter.finish());

        // Keys: one key, one fact. A key published twice must cite the same records (a
        // promotion to final answer), never a different record.
        let mut cited: BTreeMap<String, Vec<RecordRef>> = BTreeMap::new();
        let mut last: BTreeMap<String, Item> = BTreeMap::new();
        let mut loops: BTreeMap<u32, Option<LoopOutcome>> = BTreeMap::new();
        for m in &messages {
            match m {
                IngestMessage::Session(s) => {
                    sessions.insert(s.id.native_id.clone());
                }
                IngestMessage::Item(item) => {
                    if let Some(prev) = cited.insert(item.key.clone(), item.records.clone()) {
                        assert_eq!(prev, item.records, "{name}: key {} reused", item.key);
                    }
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
        let header_id = header_id.unwrap_or_else(|| panic!("{name}: no session header"));
        assert_eq!(
            sessions,
            BTreeSet::from([header_id]),
            "{name}: one session, the header's"
        );
        *totals.entry("sessions").or_default() += sessions.len();

        let report = check_adapter(PiAdapter::default, &natives);
        assert!(report.is_ok(), "{name}: {:#?}", report.violations);
    }

    println!("pi corpus: {} files", files.len());
    println!("  by discriminator: {shapes:?}");
    println!("  items by role: {roles:?}");
    println!("  loops by final state: {outcomes:?}");
    println!("  totals: {totals:?}");
    assert!(
        unrecognized.is_empty(),
        "shapes present in the corpus came back Unrecognized: {unrecognized:#?}"
    );
    assert_eq!(
        totals.get("sessions"),
        Some(&files.len()),
        "a session for every file"
    );
}
