//! The third-party corpus (`../shared/corpus/codex-rollout/`, read only, never copied):
//! every file replays without a panic, without an `Unrecognized` for any type present there,
//! as exactly one session when it has an identity record, and through the conformance suite.
//! Counts per native discriminator and per published role are printed for review.

// Printing the counts is this test's purpose (run with `--nocapture`).
#![allow(clippy::print_stdout)]

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use fornax_adapter_codex::{descriptors, is_history_row, CodexAdapter, CodexHistoryAdapter};
use fornax_adapter_conformance::{check_adapter, shared_dir};
use fornax_types::{
    AgentAdapter, IngestMessage, NativeRecord, NormalizationOutcome, RecordRef, SourceId,
};
use serde_json::Value;

fn corpus_files() -> Option<Vec<PathBuf>> {
    let dir = shared_dir()?.join("corpus").join("codex-rollout");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    Some(files)
}

/// Lines as the framer hands them: split on `\n`, `\r` stripped, blank lines skipped.
fn records(path: &PathBuf) -> (Vec<Value>, usize) {
    let bytes = std::fs::read(path).unwrap_or_default();
    let mut out = Vec::new();
    let mut malformed = 0;
    for line in bytes.split(|b| *b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<Value>(line) {
            Ok(v) => out.push(v),
            Err(_) => malformed += 1,
        }
    }
    (out, malformed)
}

/// The native discriminator of a record, for counting.
fn discriminator(v: &Value) -> String {
    let t = v.get("type").and_then(Value::as_str);
    let pt = v
        .get("payload")
        .and_then(|p| p.get("type"))
        .and_then(Value::as_str);
    match (t, pt, v.get("payload").is_some()) {
        (Some(t), Some(pt), true) => format!("{t}:{pt}"),
        (Some(t), None, true) => t.to_string(),
        (Some(t), _, false) => format!("legacy:{t}"),
        (None, _, _) if v.get("record_type").is_some() => "legacy:record_type".into(),
        (None, _, _) if v.get("id").is_some() && v.get("timestamp").is_some() => {
            "legacy:header".into()
        }
        _ => "untyped".into(),
    }
}

fn has_identity(v: &Value) -> bool {
    let t = v.get("type").and_then(Value::as_str);
    t == Some("session_meta")
        || (t.is_none()
            && v.get("id").is_some_and(Value::is_string)
            && v.get("timestamp").is_some())
}

#[test]
fn corpus_replays_cleanly() {
    let Some(files) = corpus_files() else {
        println!("shared corpus not present: skipping the codex corpus test");
        return;
    };
    assert!(!files.is_empty(), "codex-rollout corpus folder is empty");
    let sniff = descriptors()[0].sniff;
    let mut by_discriminator: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_role: BTreeMap<String, usize> = BTreeMap::new();
    let mut by_outcome: BTreeMap<String, usize> = BTreeMap::new();
    for path in &files {
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let hint = path
            .file_stem()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        let (natives, malformed) = records(path);
        // As the pipeline does: the format is chosen from the content of the first records.
        let history = natives.iter().take(5).any(is_history_row);
        let mut adapter: Box<dyn AgentAdapter> = if history {
            Box::new(CodexHistoryAdapter::default())
        } else {
            Box::new(CodexAdapter::default())
        };
        let source = SourceId::new(name.clone());
        let mut sessions: Vec<String> = Vec::new();
        let mut unrecognized = Vec::new();
        let (mut items, mut loops, mut evidence) = (0usize, 0usize, 0usize);
        for (i, v) in natives.iter().enumerate() {
            *by_discriminator.entry(discriminator(v)).or_default() += 1;
            let record = RecordRef::new(source.clone(), i as u64);
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                adapter.normalize(&hint, &NativeRecord::new(&record, v))
            }))
            .unwrap_or_else(|_| panic!("{name}: record {i} panicked"));
            match outcome {
                NormalizationOutcome::Messages(msgs) => {
                    *by_outcome.entry("messages".into()).or_default() += 1;
                    for m in msgs {
                        match m {
                            IngestMessage::Session(s) if !sessions.contains(&s.id.native_id) => {
                                sessions.push(s.id.native_id)
                            }
                            IngestMessage::Item(item) => {
                                items += 1;
                                *by_role
                                    .entry(item.semantic.role.as_str().to_string())
                                    .or_default() += 1;
                            }
                            IngestMessage::Loop(_) => loops += 1,
                            IngestMessage::Evidence(_) => evidence += 1,
                            _ => {}
                        }
                    }
                }
                NormalizationOutcome::Ignored { reason } => {
                    *by_outcome.entry(format!("ignored: {reason}")).or_default() += 1;
                }
                NormalizationOutcome::Unrecognized { discriminator } => {
                    unrecognized.push((i, discriminator));
                }
            }
        }
        let _ = adapter.finish();
        assert!(
            unrecognized.is_empty(),
            "{name}: unrecognized {unrecognized:?}"
        );
        if natives.iter().any(has_identity) {
            assert_eq!(sessions.len(), 1, "{name}: sessions {sessions:?}");
        }
        let sniffed = history || natives.iter().take(5).any(sniff);
        println!(
            "{name}: {} records ({malformed} malformed), sessions {}, item publications {items}, loop publications {loops}, evidence {evidence}, sniffed {sniffed}",
            natives.len(),
            sessions.len()
        );
    }
    println!("\nper native discriminator:");
    for (k, n) in &by_discriminator {
        println!("  {n:>6}  {k}");
    }
    println!("\nper published role (item publications, re-publications included):");
    for (k, n) in &by_role {
        println!("  {n:>6}  {k}");
    }
    println!("\nper outcome:");
    for (k, n) in &by_outcome {
        println!("  {n:>6}  {k}");
    }
}

#[test]
fn corpus_passes_the_conformance_suite() {
    let Some(files) = corpus_files() else {
        println!("shared corpus not present: skipping the codex corpus conformance test");
        return;
    };
    for path in &files {
        let (natives, _) = records(path);
        let report = if natives.iter().take(5).any(is_history_row) {
            check_adapter(CodexHistoryAdapter::default, &natives)
        } else {
            check_adapter(CodexAdapter::default, &natives)
        };
        assert!(
            report.is_ok(),
            "{}: {:?}",
            path.display(),
            report.violations
        );
    }
}
