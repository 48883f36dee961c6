//! Every Copilot CLI sample of the shared corpus (`../shared/corpus/copilot-cli/`, when
//! present) through the session-log adapter, as the pipeline frames it (split on `\n`, `\r`
//! stripped, blank lines skipped, invalid lines counted): sniffed, no panic, no
//! `Unrecognized`, the session of its `session.start`, the conformance suite green; the hook
//! inputs the logs mirror go through the hook adapter too. Counts are printed for review.

#![allow(clippy::print_stdout)]
// The test reads the shared corpus from disk; the crate itself does no I/O (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::collections::BTreeMap;
use std::path::PathBuf;

use fornax_adapter_conformance::{check_adapter, shared_dir};
use fornax_adapter_copilot::{
    is_copilot_event, is_copilot_hook, CopilotEventsAdapter, CopilotHookAdapter,
};
use fornax_types::{
    AgentAdapter, IngestMessage, NativeRecord, NormalizationOutcome, RecordRef, SourceId,
};
use serde_json::{json, Value};

fn corpus_files() -> Option<Vec<PathBuf>> {
    let dir = shared_dir()?.join("corpus").join("copilot-cli");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    Some(files)
}

fn records(path: &PathBuf) -> (Vec<Value>, usize) {
    let bytes = std::fs::read(path).unwrap_or_default();
    let mut out = Vec::new();
    let mut invalid = 0;
    for line in bytes.split(|b| *b == b'\n') {
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        match serde_json::from_slice::<Value>(line) {
            Ok(v) => out.push(v),
            Err(_) => invalid += 1,
        }
    }
    (out, invalid)
}

fn run(adapter: &mut dyn AgentAdapter, natives: &[Value], name: &str) -> Vec<NormalizationOutcome> {
    let source = SourceId::new(name);
    let mut outcomes: Vec<NormalizationOutcome> = natives
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let r = RecordRef::new(source.clone(), i as u64);
            adapter.normalize("events", &NativeRecord::new(&r, v))
        })
        .collect();
    outcomes.push(NormalizationOutcome::Messages(adapter.finish()));
    outcomes
}

#[test]
fn copilot_corpus_imports_cleanly() {
    let Some(files) = corpus_files() else {
        println!("skipped: no shared corpus folder");
        return;
    };
    assert!(!files.is_empty(), "copilot-cli corpus folder is empty");
    let mut roles: BTreeMap<String, usize> = BTreeMap::new();
    let mut outcomes: BTreeMap<String, usize> = BTreeMap::new();
    let mut hook_inputs = Vec::new();
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let (natives, invalid) = records(path);
        assert!(
            natives.iter().take(5).any(is_copilot_event),
            "{name}: not sniffed as a Copilot session log"
        );
        let mut adapter = CopilotEventsAdapter::default();
        let results = run(&mut adapter, &natives, &name);
        let mut sessions = Vec::new();
        let mut unrecognized = Vec::new();
        for (i, outcome) in results.iter().enumerate() {
            match outcome {
                NormalizationOutcome::Messages(msgs) => {
                    for m in msgs {
                        match m {
                            IngestMessage::Session(s) if !sessions.contains(&s.id.native_id) => {
                                sessions.push(s.id.native_id.clone())
                            }
                            IngestMessage::Item(item) => {
                                *roles
                                    .entry(item.semantic.role.as_str().to_string())
                                    .or_default() += 1
                            }
                            _ => {}
                        }
                    }
                }
                NormalizationOutcome::Ignored { reason } => {
                    *outcomes.entry(format!("ignored: {reason}")).or_default() += 1
                }
                NormalizationOutcome::Unrecognized { discriminator } => {
                    unrecognized.push((i, discriminator.clone()))
                }
            }
        }
        assert!(unrecognized.is_empty(), "{name}: {unrecognized:?}");
        let start = natives
            .iter()
            .find(|v| v["type"] == "session.start")
            .and_then(|v| v["data"]["sessionId"].as_str())
            .expect("every sample starts its session");
        assert_eq!(sessions.first().map(String::as_str), Some(start), "{name}");
        check_adapter(CopilotEventsAdapter::default, &natives).assert_ok();
        for v in &natives {
            if v["type"] == "hook.start" {
                let data = &v["data"];
                hook_inputs.push(json!({"hookType": data["hookType"], "input": data["input"]}));
            }
        }
        println!(
            "   {name}: {} events ({invalid} invalid lines), sessions {sessions:?}",
            natives.len()
        );
    }
    // The hook inputs the logs mirror are what `fornax hook copilot` spools.
    let with_session: Vec<Value> = hook_inputs
        .into_iter()
        .filter(|h| h["input"]["sessionId"].is_string())
        .collect();
    assert!(!with_session.is_empty());
    for h in &with_session {
        assert!(is_copilot_hook(h), "{h}");
    }
    let hooks = run(&mut CopilotHookAdapter::default(), &with_session, "hooks");
    assert!(hooks
        .iter()
        .all(|o| !matches!(o, NormalizationOutcome::Unrecognized { .. })));
    check_adapter(CopilotHookAdapter::default, &with_session).assert_ok();
    println!("== items per role: {roles:#?}");
    println!("== ignored: {outcomes:#?}");
}
