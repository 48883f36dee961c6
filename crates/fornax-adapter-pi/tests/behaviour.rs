//! Targeted behaviour: loops, final answers, exit codes, file evidence, keys, resume.

use std::path::PathBuf;

use fornax_adapter_conformance::{load_fixtures, replay, Fixture};
use fornax_adapter_pi::{descriptors, PiAdapter};
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
    replay(&mut PiAdapter::default(), fixture)
        .messages()
        .into_iter()
        .cloned()
        .collect()
}

/// The last published version of every item, by key.
fn items(msgs: &[IngestMessage]) -> std::collections::BTreeMap<String, Item> {
    msgs.iter()
        .filter_map(|m| match m {
            IngestMessage::Item(i) => Some((i.key.clone(), i.clone())),
            _ => None,
        })
        .collect()
}

fn loops(msgs: &[IngestMessage]) -> std::collections::BTreeMap<u32, Loop> {
    msgs.iter()
        .filter_map(|m| match m {
            IngestMessage::Loop(l) => Some((l.position, l.clone())),
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

#[test]
fn descriptor_is_registered_as_documented() {
    let d = descriptors();
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].name, "pi-session");
    assert_eq!(d[0].framing, Framing::JsonLines);
    assert_eq!(d[0].transport, SourceKind::File);
    assert_eq!(d[0].default_roots, &[".pi/agent/sessions"]);
    assert_eq!(d[0].file_suffixes, &[".jsonl"]);
    assert_eq!((d[0].create)().provider(), Provider::Pi);
}

#[test]
fn v3_session_loop_and_final_answer() {
    let msgs = messages(&fixture("v3_tool_loop"));
    let sessions: Vec<&Session> = msgs
        .iter()
        .filter_map(|m| match m {
            IngestMessage::Session(s) => Some(s),
            _ => None,
        })
        .collect();
    assert_eq!(
        sessions[0].id.native_id,
        "7c1e4b2a-3f6d-4e8b-9a51-0d2c6e8f1b34"
    );
    assert_eq!(
        sessions[0].cwd.as_deref(),
        Some("/home/dev/projects/ledger")
    );
    assert_eq!(
        sessions.last().unwrap().name.as_deref(),
        Some("ledger rounding fix")
    );
    let caps = msgs
        .iter()
        .filter(|m| matches!(m, IngestMessage::Capabilities(_)))
        .count();
    assert_eq!(caps, 1, "capabilities once per session");

    let loops = loops(&msgs);
    assert_eq!(loops.len(), 1);
    let lp = &loops[&0];
    assert_eq!(
        lp.end.as_ref().map(|e| e.outcome),
        Some(LoopOutcome::Completed)
    );
    assert_eq!(lp.model.as_deref(), Some("claude-sonnet-4-5"));
    let usage = lp.usage.unwrap();
    assert!(usage.validate().is_ok());
    assert_eq!(
        usage.cached_input_tokens,
        Some(10240 + 12288 + 12698 + 12818)
    );
    assert_eq!(usage.output_tokens, Some(92 + 61 + 48 + 27));

    let items = items(&msgs);
    let final_answers: Vec<&Item> = items
        .values()
        .filter(|i| i.semantic.role == Role::AgentFinalAnswer)
        .collect();
    assert_eq!(final_answers.len(), 1);
    assert_eq!(final_answers[0].key, "msg:d0e1f2a3:0");
    assert_eq!(items["msg:b8c9d0e1:0"].semantic.role, Role::AgentCommentary);
    assert_eq!(items["msg:c3d4e5f6"].semantic.role, Role::HumanRequest);
    assert_eq!(
        items["msg:c3d4e5f6"].at.as_deref(),
        Some("2026-01-12T09:14:10.502Z")
    );
}

#[test]
fn bash_results_carry_exit_codes_only_when_written() {
    let items = items(&messages(&fixture("v3_tool_loop")));
    let call = &items["call:toolu_01RunTests"];
    assert_eq!(call.semantic.role, Role::AgentToolCallShell);
    match &call.semantic.value {
        SemanticValue::ShellCall(s) => {
            assert_eq!(s.invocations[0].program, "cd");
            assert!(s.invocations.iter().any(|i| i.program == "cargo"));
            assert_eq!(s.cwd.as_deref(), Some("/home/dev/projects/ledger"));
        }
        other => panic!("{other:?}"),
    }
    let failed = output(&items["out:toolu_01RunTests"]);
    assert_eq!(
        failed.exit_code,
        Some(ExitCode {
            code: 101,
            strength: EvidenceStrength::Structural
        })
    );
    assert_eq!(failed.failed, Some(true));
    let passed = output(&items["out:toolu_03Rerun"]);
    assert_eq!(passed.exit_code, None, "Pi writes no code for exit 0");
    assert_eq!(passed.failed, Some(false));
    match &items["call:toolu_03Rerun"].semantic.value {
        SemanticValue::ShellCall(s) => assert_eq!(s.timeout_ms, Some(300_000)),
        other => panic!("{other:?}"),
    }

    let v1 = items_of("v1_linear_compaction");
    let aborted = output(&v1["out:toolu_v1Grep"]);
    assert_eq!(aborted.interrupted, Some(true));
    assert_eq!(aborted.exit_code, None);
}

fn items_of(name: &str) -> std::collections::BTreeMap<String, Item> {
    items(&messages(&fixture(name)))
}

#[test]
fn file_tools_publish_file_evidence_and_nothing_else() {
    for name in ["v3_tool_loop", "v2_branch_steering_custom"] {
        let msgs = messages(&fixture(name));
        for m in &msgs {
            if let IngestMessage::Evidence(ev) = m {
                assert_eq!(
                    ev.kind(),
                    EvidenceKind::FileDiff,
                    "{name}: only file evidence"
                );
                assert_eq!(ev.source.sensor_name, "pi.file_mutation");
                assert_eq!(ev.source.trust_class, TrustClass::AgentAdjacent);
                assert_eq!(ev.source.collection_method, CollectionMethod::FilePoll);
                assert_eq!(ev.source.freshness.clock, ClockSource::RuntimeRecord);
                assert_eq!(ev.records.len(), 2, "call and result records");
            }
        }
    }
    let v3 = messages(&fixture("v3_tool_loop"));
    let edit = v3
        .iter()
        .find_map(|m| match m {
            IngestMessage::Evidence(e) => Some(e),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        edit.id,
        "file:toolu_02Edit:/home/dev/projects/ledger/crates/ledger-core/src/money.rs"
    );
    assert_eq!(edit.item_key.as_deref(), Some("out:toolu_02Edit"));
    let payload: FileDiffPayload = edit.payload.file_diff().cloned().unwrap();
    assert_eq!(payload.operation, FileOperation::Update);
    assert!(payload.succeeded);
    assert_eq!(
        (payload.lines_added, payload.lines_removed),
        (Some(1), Some(1))
    );

    let v2 = messages(&fixture("v2_branch_steering_custom"));
    let write: FileDiffPayload = v2
        .iter()
        .find_map(|m| match m {
            IngestMessage::Evidence(e) => e.payload.file_diff().cloned(),
            _ => None,
        })
        .unwrap();
    assert!(!write.succeeded);
    assert_eq!(write.operation, FileOperation::Create);
    assert!(write.error.unwrap().contains("EACCES"));
}

#[test]
fn steering_branches_and_summaries() {
    let msgs = messages(&fixture("v2_branch_steering_custom"));
    let items = items(&msgs);
    let loops = loops(&msgs);
    assert_eq!(loops.len(), 2);
    assert_eq!(
        loops[&0].end.as_ref().map(|e| e.outcome),
        Some(LoopOutcome::Failed)
    );
    assert_eq!(
        loops[&1].end.as_ref().map(|e| e.outcome),
        Some(LoopOutcome::Completed)
    );

    let steer = &items["msg:10000004"];
    assert_eq!(steer.semantic.role, Role::HumanSteering);
    assert_eq!(
        steer.semantic.evidence_strength,
        EvidenceStrength::Heuristic
    );
    assert_eq!(steer.loop_position, Some(0));
    assert_eq!(
        items["entry:10000006"].semantic.role,
        Role::RuntimeCompactionSummary
    );
    assert_eq!(items["entry:10000007"].semantic.role, Role::RuntimeNotice);
    assert_eq!(items["entry:10000008"].semantic.role, Role::RuntimeContext);
    assert_eq!(items["msg:1000000a"].semantic.role, Role::RuntimeContext);
    // The stop message has no text: the loop's last text, one message earlier, is final.
    assert_eq!(
        items["msg:1000000b:1"].semantic.role,
        Role::AgentFinalAnswer
    );
    match &items["msg:1000000b:0"].semantic.value {
        SemanticValue::Reasoning(r) => assert_eq!(r.mode, ReasoningMode::Unavailable),
        other => panic!("{other:?}"),
    }
    // A text cut off by the length limit is never a final answer.
    assert_eq!(items["msg:10000005:0"].semantic.role, Role::AgentCommentary);

    let session = msgs
        .iter()
        .find_map(|m| match m {
            IngestMessage::Session(s) => Some(s),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        session.forked_from.as_deref(),
        Some("91c3a5e7-0d2f-4b4a-a6c8-e0f1a2b3c4d5")
    );
}

#[test]
fn v1_loops_keys_and_runtime_items() {
    let msgs = messages(&fixture("v1_linear_compaction"));
    let items = items(&msgs);
    let loops = loops(&msgs);
    assert_eq!(
        loops[&0].end.as_ref().map(|e| e.outcome),
        Some(LoopOutcome::Interrupted)
    );
    assert_eq!(
        loops[&1].end.as_ref().map(|e| e.outcome),
        Some(LoopOutcome::Failed)
    );
    assert_eq!(loops[&1].model.as_deref(), Some("gpt-5.1-codex"));
    // Id-less entries are keyed by record position.
    assert_eq!(items["msg:r1"].semantic.role, Role::HumanRequest);
    assert_eq!(items["msg:r5"].semantic.role, Role::RuntimeContext);
    assert!(items["msg:r5"]
        .semantic
        .value
        .primary_text()
        .unwrap()
        .contains("Command exited with code 1"));
    assert_eq!(items["err:r8"].semantic.role, Role::RuntimeNotice);
    assert_eq!(
        items["entry:r9"].semantic.role,
        Role::RuntimeCompactionSummary
    );
    assert_eq!(items["entry:r6"].semantic.role, Role::RuntimeState);
    assert!(!items
        .values()
        .any(|i| i.semantic.role == Role::AgentFinalAnswer));
    let session = msgs
        .iter()
        .find_map(|m| match m {
            IngestMessage::Session(s) => Some(s),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        session.forked_from.as_deref(),
        Some("0a9d3e7b-1c2f-4b6a-8e5d-7f3c2b1a0e99")
    );
}

#[test]
fn two_objects_at_one_position_get_distinct_keys() {
    let mut adapter = PiAdapter::default();
    let record = RecordRef::new(SourceId::new("f"), 7);
    let a = json!({"type":"message","timestamp":"t","message":{"role":"user","content":"a"}});
    let b = json!({"type":"compaction","timestamp":"t","summary":"s"});
    let ka = keys(adapter.normalize("h", &NativeRecord::new(&record, &a)));
    let kb = keys(adapter.normalize("h", &NativeRecord::new(&record, &b)));
    assert_eq!(ka, vec!["msg:r7".to_string()]);
    assert_eq!(kb, vec!["entry:r7.1".to_string()]);
}

fn keys(outcome: NormalizationOutcome) -> Vec<String> {
    outcome
        .messages()
        .into_iter()
        .filter_map(|m| match m {
            IngestMessage::Item(i) => Some(i.key),
            _ => None,
        })
        .collect()
}

#[test]
fn an_assistant_after_a_completed_loop_resumes_it() {
    let mut adapter = PiAdapter::default();
    let events = [
        json!({"type":"session","version":3,"id":"s1","timestamp":"t0","cwd":"/x"}),
        json!({"type":"message","id":"u1","parentId":null,"timestamp":"t1","message":{"role":"user","content":"go"}}),
        json!({"type":"message","id":"a1","parentId":"u1","timestamp":"t2","message":{"role":"assistant","content":[{"type":"text","text":"done"}],"stopReason":"stop"}}),
        json!({"type":"custom_message","id":"c1","parentId":"a1","timestamp":"t3","customType":"ci","content":"CI failed","display":true}),
        json!({"type":"message","id":"a2","parentId":"c1","timestamp":"t4","message":{"role":"assistant","content":[{"type":"text","text":"CI failed after all."}],"stopReason":"error"}}),
    ];
    let mut all = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let r = RecordRef::new(SourceId::new("f"), i as u64);
        all.extend(adapter.normalize("h", &NativeRecord::new(&r, e)).messages());
    }
    let items = items(&all);
    assert_eq!(
        items["msg:a1:0"].semantic.role,
        Role::AgentCommentary,
        "demoted on resume"
    );
    assert_eq!(items["msg:a2:0"].semantic.role, Role::AgentCommentary);
    let loops = loops(&all);
    assert_eq!(
        loops[&0].end.as_ref().map(|e| e.outcome),
        Some(LoopOutcome::Failed)
    );
}

#[test]
fn checkpoint_and_resume_continue_where_they_left_off() {
    for name in [
        "v3_tool_loop",
        "v1_linear_compaction",
        "v2_branch_steering_custom",
    ] {
        let fixture = fixture(name);
        let straight: Vec<IngestMessage> = messages(&fixture);
        for cut in 1..fixture.native_events.len() {
            let mut first = PiAdapter::default();
            let mut out = Vec::new();
            let run = |adapter: &mut PiAdapter,
                       range: std::ops::Range<usize>,
                       out: &mut Vec<IngestMessage>| {
                for i in range {
                    let r = RecordRef::new(SourceId::new("fixture"), i as u64);
                    out.extend(
                        adapter
                            .normalize(
                                "fixture-session",
                                &NativeRecord::new(&r, &fixture.native_events[i]),
                            )
                            .messages(),
                    );
                }
            };
            run(&mut first, 0..cut, &mut out);
            let snapshot: Value = first.checkpoint().expect("checkpoint");
            let text = serde_json::to_string(&snapshot).unwrap();
            let mut second = PiAdapter::default();
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
    let mut adapter = PiAdapter::default();
    assert!(!adapter.resume(&json!({"format": 99})));
    assert!(!adapter.resume(&json!("nope")));
}
