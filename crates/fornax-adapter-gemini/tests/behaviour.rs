//! Targeted behaviour: loops, final answers, exit codes, file evidence, re-appended
//! messages, rewinds, subagents, resume.

use std::collections::BTreeMap;
use std::path::PathBuf;

use fornax_adapter_conformance::{load_fixtures, replay, Fixture};
use fornax_adapter_gemini::{descriptors, GeminiAdapter};
use fornax_types::evidence::{FileDiffPayload, FileOperation};
use fornax_types::*;
use serde_json::{json, Value};

fn fixture(name: &str) -> Fixture {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    load_fixtures(&dir)
        .expect("fixtures load")
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, f)| f)
        .unwrap_or_else(|| panic!("no fixture {name}"))
}

fn messages(fixture: &Fixture) -> Vec<IngestMessage> {
    replay(&mut GeminiAdapter::default(), fixture)
        .messages()
        .into_iter()
        .cloned()
        .collect()
}

fn items(msgs: &[IngestMessage]) -> BTreeMap<String, Item> {
    msgs.iter()
        .filter_map(|m| match m {
            IngestMessage::Item(i) => Some((i.key.clone(), i.clone())),
            _ => None,
        })
        .collect()
}

fn loops(msgs: &[IngestMessage]) -> BTreeMap<u32, Loop> {
    msgs.iter()
        .filter_map(|m| match m {
            IngestMessage::Loop(l) => Some((l.position, l.clone())),
            _ => None,
        })
        .collect()
}

fn evidence(msgs: &[IngestMessage]) -> Vec<Evidence> {
    msgs.iter()
        .filter_map(|m| match m {
            IngestMessage::Evidence(e) => Some(e.clone()),
            _ => None,
        })
        .collect()
}

fn output(item: &Item) -> &ToolOutputValue {
    match &item.semantic.value {
        SemanticValue::ToolOutput(o) => o,
        other => panic!("not a tool output: {other:?}"),
    }
}

fn outcome(lp: &Loop) -> Option<LoopOutcome> {
    lp.end.as_ref().map(|e| e.outcome)
}

#[test]
fn two_descriptors_one_adapter() {
    let d = descriptors();
    let names: Vec<&str> = d.iter().map(|d| d.name).collect();
    assert_eq!(names, ["gemini-chat-jsonl", "gemini-chat-json"]);
    assert_eq!(d[0].framing, Framing::JsonLines);
    assert_eq!(d[1].framing, Framing::WholeFile);
    assert_eq!(d[0].file_suffixes, &[".jsonl"]);
    assert_eq!(d[1].file_suffixes, &[".json"]);
    for desc in &d {
        assert_eq!(desc.default_roots, &[".gemini/tmp"]);
        assert_eq!(desc.transport, SourceKind::File);
        assert_eq!((desc.create)().provider(), Provider::Gemini);
    }
}

#[test]
fn document_loops_final_answer_and_cancel() {
    let msgs = messages(&fixture("json_document_tools_and_cancel"));
    let session = msgs
        .iter()
        .find_map(|m| match m {
            IngestMessage::Session(s) => Some(s),
            _ => None,
        })
        .unwrap();
    assert_eq!(session.id.native_id, "3f9a1c7e-55d2-4c1b-9e0a-7b6d2f4e8a10");
    assert_eq!(
        session.name.as_deref(),
        Some("Fix parser overflow and add regression test")
    );
    assert_eq!(
        session.created_at.as_deref(),
        Some("2025-12-14T10:02:11.000Z")
    );

    let loops = loops(&msgs);
    assert_eq!(outcome(&loops[&0]), Some(LoopOutcome::Completed));
    assert_eq!(outcome(&loops[&1]), Some(LoopOutcome::Interrupted));
    let usage = loops[&0].usage.unwrap();
    assert!(usage.validate().is_ok());
    assert_eq!(usage.input_tokens, Some(9120 + 11050 + 12400));
    assert_eq!(usage.cached_input_tokens, Some(8900 + 11000));
    assert_eq!(usage.output_tokens, Some(40 + 120 + 210 + 31));
    assert_eq!(usage.reasoning_output_tokens, Some(120));
    assert_eq!(loops[&0].model.as_deref(), Some("gemini-2.5-pro"));

    let items = items(&msgs);
    let fin = &items["msg:8d1f0c2a-0004-4a8e-9c3b-1e2d3f4a5b60"];
    assert_eq!(fin.semantic.role, Role::AgentFinalAnswer);
    assert_eq!(fin.semantic.evidence_strength, EvidenceStrength::Heuristic);
    assert_eq!(
        items["msg:8d1f0c2a-0003-4a8e-9c3b-1e2d3f4a5b60"]
            .semantic
            .role,
        Role::AgentCommentary
    );
    let thought = &items["msg:8d1f0c2a-0002-4a8e-9c3b-1e2d3f4a5b60:thought:0"];
    assert_eq!(thought.at.as_deref(), Some("2025-12-14T10:02:15.000Z"));
    match &thought.semantic.value {
        SemanticValue::Reasoning(r) => assert_eq!(r.mode, ReasoningMode::Summary),
        other => panic!("{other:?}"),
    }

    let failing = output(&items["out:run_shell_command-1765706540000-a1b2c3d4e5f6"]);
    assert_eq!(
        failing.exit_code,
        Some(ExitCode {
            code: 101,
            strength: EvidenceStrength::Structural
        })
    );
    assert_eq!(
        failing.failed,
        Some(false),
        "a non-zero exit is still a successful tool call"
    );
    let passing = output(&items["out:run_shell_command-1765706600000-d4e5f6a7b8c9"]);
    assert_eq!(passing.exit_code.map(|e| e.code), Some(0));
    let cancelled = output(&items["out:run_shell_command-1765706705000-e5f6a7b8c9d0"]);
    assert_eq!(cancelled.interrupted, Some(true));
    assert_eq!(cancelled.exit_code, None);
    match &items["call:run_shell_command-1765706600000-d4e5f6a7b8c9"]
        .semantic
        .value
    {
        SemanticValue::ShellCall(s) => {
            assert_eq!(s.cwd.as_deref(), Some("."));
            assert_eq!(s.invocations[0].program, "cargo");
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        items["msg:8d1f0c2a-0007-4a8e-9c3b-1e2d3f4a5b60"]
            .semantic
            .role,
        Role::RuntimeNotice
    );

    let ev = evidence(&msgs);
    assert_eq!(ev.len(), 2);
    for e in &ev {
        assert!(e.payload.file_diff().is_some());
        assert_eq!(e.source.sensor_name, "gemini.file_mutation");
        assert_eq!(e.source.trust_class, TrustClass::AgentAdjacent);
        assert_eq!(e.source.collection_method, CollectionMethod::FilePoll);
        assert_eq!(e.source.freshness.clock, ClockSource::RuntimeRecord);
    }
    let replace: FileDiffPayload = ev[0].payload.file_diff().cloned().unwrap();
    assert_eq!(replace.operation, FileOperation::Update);
    assert!(replace.succeeded);
    let write: FileDiffPayload = ev[1].payload.file_diff().cloned().unwrap();
    assert_eq!(write.operation, FileOperation::Create);
    assert_eq!(write.path, "parser/tests/long_literal.rs");
    assert_eq!(
        ev[1].id,
        "file:write_file-1765706589000-c3d4e5f6a7b8:parser/tests/long_literal.rs"
    );
    assert_eq!(
        ev[1].item_key.as_deref(),
        Some("out:write_file-1765706589000-c3d4e5f6a7b8")
    );
}

#[test]
fn a_rewritten_document_replays_to_the_same_facts() {
    let fixture = fixture("json_document_tools_and_cancel");
    let mut adapter = GeminiAdapter::default();
    let record = RecordRef::new(SourceId::new("doc"), 0);
    let first = adapter
        .normalize("h", &NativeRecord::new(&record, &fixture.native_events[0]))
        .messages();
    let second = adapter
        .normalize("h", &NativeRecord::new(&record, &fixture.native_events[0]))
        .messages();
    let without_caps = |m: &[IngestMessage]| -> Vec<IngestMessage> {
        m.iter()
            .filter(|m| !matches!(m, IngestMessage::Capabilities(_)))
            .cloned()
            .collect()
    };
    assert_eq!(
        without_caps(&first),
        second,
        "same facts, capabilities only once"
    );
}

#[test]
fn jsonl_progressive_copies_rewind_and_error() {
    let msgs = messages(&fixture("jsonl_v039_progressive_rewind"));
    let loops = loops(&msgs);
    assert_eq!(loops.len(), 3);
    assert_eq!(outcome(&loops[&0]), Some(LoopOutcome::Completed));
    assert_eq!(outcome(&loops[&1]), Some(LoopOutcome::Failed));
    assert_eq!(outcome(&loops[&2]), Some(LoopOutcome::Completed));
    // g-0001 and g-0002 were each appended twice: usage counts each once.
    let usage = loops[&0].usage.unwrap();
    assert_eq!(usage.input_tokens, Some(10400 + 10610));
    assert_eq!(usage.cached_input_tokens, Some(9800 + 10200));

    let items = items(&msgs);
    let lint = output(&items["out:run_shell_command_1776672914000_0"]);
    assert_eq!(lint.exit_code.map(|e| e.code), Some(2));
    assert_eq!(items["msg:g-0002"].semantic.role, Role::AgentFinalAnswer);
    assert_eq!(items["msg:g-0004"].semantic.role, Role::AgentCommentary);
    assert_eq!(items["msg:g-0005"].semantic.role, Role::AgentFinalAnswer);
    let rewinds: Vec<&Item> = items
        .values()
        .filter(|i| i.key.starts_with("rewind:"))
        .collect();
    assert_eq!(rewinds.len(), 1);
    assert_eq!(rewinds[0].semantic.role, Role::RuntimeState);
    assert_eq!(items["msg:e-0001"].semantic.role, Role::RuntimeNotice);

    let names: Vec<Option<String>> = msgs
        .iter()
        .filter_map(|m| match m {
            IngestMessage::Session(s) => Some(s.name.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(names, [None, Some("Lint app.ts".to_string())]);

    let ev = evidence(&msgs);
    let write: FileDiffPayload = ev[0].payload.file_diff().cloned().unwrap();
    assert!(!write.succeeded);
    assert!(write.error.unwrap().contains("workspace directories"));
    let replace: FileDiffPayload = ev[1].payload.file_diff().cloned().unwrap();
    assert!(replace.succeeded);
    assert_eq!(
        (replace.lines_added, replace.lines_removed),
        (Some(0), Some(1))
    );
}

#[test]
fn a_subagent_chat_takes_its_task_as_instructions() {
    let msgs = messages(&fixture("jsonl_subagent"));
    let items = items(&msgs);
    assert_eq!(items["msg:sa-u1"].semantic.role, Role::RuntimeInstructions);
    assert_eq!(items["msg:sa-g2"].semantic.role, Role::AgentFinalAnswer);
    assert!(!items
        .values()
        .any(|i| i.semantic.role == Role::HumanRequest));
    assert_eq!(outcome(&loops(&msgs)[&0]), Some(LoopOutcome::Completed));
}

#[test]
fn a_message_list_in_set_adds_only_new_messages() {
    let mut adapter = GeminiAdapter::default();
    let events = [
        json!({"sessionId":"s","projectHash":"h","startTime":"t","kind":"main"}),
        json!({"id":"u1","timestamp":"t1","type":"user","content":"hi"}),
        json!({"id":"g1","timestamp":"t2","type":"gemini","content":"hello"}),
        json!({"$set":{"messages":[
            {"id":"u1","timestamp":"t1","type":"user","content":"hi"},
            {"id":"g1","timestamp":"t2","type":"gemini","content":"[masked]"},
            {"id":"i9","timestamp":"t3","type":"info","content":"Chat compressed."}
        ]}}),
    ];
    let mut all = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let r = RecordRef::new(SourceId::new("f"), i as u64);
        all.extend(adapter.normalize("h", &NativeRecord::new(&r, e)).messages());
    }
    let items = items(&all);
    assert_eq!(items["msg:g1"].semantic.value.primary_text(), Some("hello"));
    assert!(items.contains_key("msg:i9"));
    assert_eq!(loops(&all).len(), 1);
}

#[test]
fn a_later_model_message_reopens_a_completed_loop() {
    let mut adapter = GeminiAdapter::default();
    let events = [
        json!({"sessionId":"s","projectHash":"h","startTime":"t","kind":"main"}),
        json!({"id":"u1","timestamp":"t1","type":"user","content":"check"}),
        json!({"id":"g1","timestamp":"t2","type":"gemini","content":"All good."}),
        json!({"id":"g2","timestamp":"t3","type":"gemini","content":"","toolCalls":[
            {"id":"c1","name":"run_shell_command","args":{"command":"make test"},"status":"executing"}
        ]}),
    ];
    let mut all = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let r = RecordRef::new(SourceId::new("f"), i as u64);
        all.extend(adapter.normalize("h", &NativeRecord::new(&r, e)).messages());
    }
    let items = items(&all);
    assert_eq!(
        items["msg:g1"].semantic.role,
        Role::AgentCommentary,
        "demoted"
    );
    assert!(
        !items.contains_key("out:c1"),
        "no output while the call runs"
    );
    assert_eq!(outcome(&loops(&all)[&0]), None, "running again");
}

#[test]
fn checkpoint_and_resume_continue_where_they_left_off() {
    for name in ["jsonl_v039_progressive_rewind", "jsonl_subagent"] {
        let fixture = fixture(name);
        let straight = messages(&fixture);
        for cut in 1..fixture.native_events.len() {
            let run = |adapter: &mut GeminiAdapter,
                       range: std::ops::Range<usize>,
                       out: &mut Vec<IngestMessage>| {
                for i in range {
                    let r = RecordRef::new(SourceId::new("fixture"), i as u64);
                    let hint = fixture.session_hint.as_deref().unwrap_or("fixture-session");
                    out.extend(
                        adapter
                            .normalize(hint, &NativeRecord::new(&r, &fixture.native_events[i]))
                            .messages(),
                    );
                }
            };
            let mut first = GeminiAdapter::default();
            let mut out = Vec::new();
            run(&mut first, 0..cut, &mut out);
            let snapshot: Value = first.checkpoint().expect("checkpoint");
            let text = serde_json::to_string(&snapshot).unwrap();
            let mut second = GeminiAdapter::default();
            assert!(
                second.resume(&serde_json::from_str(&text).unwrap()),
                "{name}@{cut}"
            );
            run(&mut second, cut..fixture.native_events.len(), &mut out);
            out.extend(second.finish());
            assert_eq!(out, straight, "{name}: resumed at {cut} differs");
        }
    }
}

#[test]
fn resume_refuses_foreign_snapshots() {
    let mut adapter = GeminiAdapter::default();
    assert!(!adapter.resume(&json!({"format": 99})));
    assert!(!adapter.resume(&json!([])));
}
