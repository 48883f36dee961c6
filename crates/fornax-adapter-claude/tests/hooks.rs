//! Behavior of the hook adapter: correct with a fresh adapter per event and with one
//! long-lived adapter, every field read on its own.

mod common;

use std::collections::BTreeMap;

use common::{fixture, items, latest, loops, outcomes, run, with_role};
use fornax_adapter_claude::ClaudeHookAdapter;
use fornax_types::{
    AgentAdapter, EvidenceStrength, IngestMessage, Item, LoopOutcome, NativeRecord,
    NormalizationOutcome, RecordRef, Role, SemanticValue, SourceId,
};
use serde_json::{json, Value};

/// Each event through its own adapter, as when every hook runs in a new process.
fn run_fresh(events: &[Value]) -> Vec<IngestMessage> {
    let source = SourceId::new("test");
    events
        .iter()
        .enumerate()
        .flat_map(|(i, v)| {
            let record = RecordRef::new(source.clone(), i as u64);
            ClaudeHookAdapter::default()
                .normalize("hint", &NativeRecord::new(&record, v))
                .messages()
        })
        .collect()
}

fn by_key(msgs: &[IngestMessage]) -> BTreeMap<String, Item> {
    items(msgs)
        .into_iter()
        .map(|i| (i.key.clone(), i.clone()))
        .collect()
}

#[test]
fn a_fresh_adapter_per_event_publishes_the_same_tool_facts() {
    let f = fixture("hooks", "v2_1_119_main_session");
    let long = by_key(&run(&mut ClaudeHookAdapter::default(), &f.native_events));
    let fresh_msgs = run_fresh(&f.native_events);
    let fresh = by_key(&fresh_msgs);
    for (key, item) in &long {
        if key.starts_with("call:") || key.starts_with("out:") {
            let other = fresh
                .get(key)
                .unwrap_or_else(|| panic!("fresh mode lost {key}"));
            assert_eq!(other.semantic, item.semantic, "{key}");
        }
    }
    // Every event that published a fact still does, without inventing loop positions.
    assert_eq!(with_role(&fresh_msgs, Role::AgentFinalAnswer).len(), 2);
    assert_eq!(with_role(&fresh_msgs, Role::HumanRequest).len(), 2);
    assert!(loops(&fresh_msgs).is_empty());
    assert!(items(&fresh_msgs).iter().all(|i| i.loop_position.is_none()));
    assert!(with_role(&fresh_msgs, Role::HumanRequest)
        .iter()
        .all(|i| i.semantic.evidence_strength == EvidenceStrength::Heuristic));
    // Each process announces the session it sees.
    let sessions = fresh_msgs
        .iter()
        .filter(|m| matches!(m, IngestMessage::Session(_)))
        .count();
    assert_eq!(sessions, f.native_events.len());
}

#[test]
fn a_long_lived_adapter_that_saw_the_start_numbers_loops_from_zero() {
    let f = fixture("hooks", "v2_1_119_main_session");
    let msgs = run(&mut ClaudeHookAdapter::default(), &f.native_events);
    let ended: Vec<_> = loops(&msgs)
        .into_iter()
        .filter_map(|l| l.end.as_ref().map(|e| (l.position, e.outcome)))
        .collect();
    assert_eq!(
        ended,
        vec![(0, LoopOutcome::Completed), (1, LoopOutcome::Completed)]
    );
    assert_eq!(
        latest(&msgs, "final:0").semantic.role,
        Role::AgentFinalAnswer
    );
    // A prompt with the runtime's own prompt_id is keyed by it.
    assert_eq!(
        latest(&msgs, "prompt:prm_01HkPrompt0000000002").loop_position,
        Some(1)
    );
}

#[test]
fn checkpoints_carry_loop_state_across_hook_processes() {
    let f = fixture("hooks", "v2_1_119_main_session");
    let whole = run(&mut ClaudeHookAdapter::default(), &f.native_events);
    let mut msgs = Vec::new();
    let mut state: Option<Value> = None;
    for (i, event) in f.native_events.iter().enumerate() {
        let mut adapter = ClaudeHookAdapter::default();
        if let Some(s) = &state {
            assert!(adapter.resume(s));
        }
        msgs.extend(
            outcomes(&mut adapter, std::slice::from_ref(event), i as u64)
                .into_iter()
                .flat_map(NormalizationOutcome::messages),
        );
        state = adapter.checkpoint();
    }
    assert_eq!(msgs, whole);
}

#[test]
fn failures_carry_the_stated_exit_code_and_successes_none() {
    let f = fixture("hooks", "v2_1_119_main_session");
    let msgs = run(&mut ClaudeHookAdapter::default(), &f.native_events);
    let SemanticValue::ToolOutput(ok) = &latest(&msgs, "out:toolu_01HkBash000000000000000001")
        .semantic
        .value
    else {
        panic!()
    };
    assert_eq!(
        (ok.failed, ok.exit_code, ok.duration_ms),
        (Some(false), None, Some(4210))
    );
    assert_eq!(ok.text.as_ref().unwrap().text, "Tests: 30 passed, 30 total");
    let SemanticValue::ToolOutput(bad) = &latest(&msgs, "out:toolu_01HkBash000000000000000002")
        .semantic
        .value
    else {
        panic!()
    };
    assert_eq!(bad.failed, Some(true));
    assert_eq!(bad.interrupted, Some(false));
    let code = bad.exit_code.unwrap();
    assert_eq!(
        (code.code, code.strength),
        (1, EvidenceStrength::Structural)
    );
}

#[test]
fn an_interrupted_tool_ends_the_loop_and_a_running_loop_is_steered() {
    let f = fixture("hooks", "v2_1_119_interrupt_and_steering");
    let msgs = run(&mut ClaudeHookAdapter::default(), &f.native_events);
    assert_eq!(with_role(&msgs, Role::HumanSteering).len(), 1);
    let ended: Vec<_> = loops(&msgs)
        .into_iter()
        .filter_map(|l| l.end.as_ref().map(|e| (l.position, e.outcome)))
        .collect();
    // The Stop after a blocking Stop hook (stop_hook_active) closes loop 1 again.
    assert_eq!(
        ended,
        vec![
            (0, LoopOutcome::Interrupted),
            (1, LoopOutcome::Completed),
            (1, LoopOutcome::Completed)
        ]
    );
    let last_final = latest(&msgs, "final:1");
    assert_eq!(
        last_final.semantic.value.primary_text(),
        Some("Smoke tests: 6 passed. Lint is clean.")
    );
}

#[test]
fn events_with_agent_id_belong_to_the_subagent_session() {
    let f = fixture("hooks", "v2_1_119_subagent_events");
    let msgs = run(&mut ClaudeHookAdapter::default(), &f.native_events);
    let bash = latest(&msgs, "call:toolu_01SubBash00000000000000001");
    assert_eq!(bash.session.native_id, "agent-a85d70b493ba1f5c2");
    let report = latest(&msgs, "subagent:report");
    assert_eq!(report.session.native_id, "agent-a85d70b493ba1f5c2");
    assert_eq!(report.semantic.role, Role::SubagentReport);
    assert!(matches!(report.semantic.value, SemanticValue::Text(_)));
    let delegation = latest(&msgs, "call:toolu_01SubAgent0000000000000001");
    assert_eq!(delegation.semantic.role, Role::AgentDelegation);
    assert_eq!(
        delegation.session.native_id,
        "b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e"
    );
    let child = msgs
        .iter()
        .filter_map(|m| match m {
            IngestMessage::Session(s) if s.id.native_id == "agent-a85d70b493ba1f5c2" => Some(s),
            _ => None,
        })
        .next_back()
        .unwrap();
    let d = child.delegated_from.as_ref().unwrap();
    assert_eq!(d.parent_native_id, "b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e");
    assert_eq!(
        d.agent_type.as_deref(),
        Some("general-purpose"),
        "an empty agent_type never erases it"
    );
}

#[test]
fn each_field_is_read_on_its_own() {
    let full = json!({
        "session_id": "s-1", "transcript_path": "/t.jsonl", "cwd": "/w", "permission_mode": "default",
        "hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_use_id": "toolu_x",
        "tool_input": {"command": "make"}, "duration_ms": 5,
        "tool_response": {"stdout": "ok", "stderr": "", "interrupted": false, "isImage": false}
    });
    let keys: Vec<String> = full.as_object().unwrap().keys().cloned().collect();
    for key in keys {
        let mut payload = full.clone();
        payload.as_object_mut().unwrap().remove(&key);
        let outcome = outcomes(&mut ClaudeHookAdapter::default(), &[payload], 0).remove(0);
        match key.as_str() {
            "hook_event_name" => {
                assert!(matches!(outcome, NormalizationOutcome::Unrecognized { .. }))
            }
            _ => assert!(
                outcome
                    .clone()
                    .messages()
                    .iter()
                    .any(|m| matches!(m, IngestMessage::Item(_))),
                "without `{key}` the event lost its fact: {outcome:?}"
            ),
        }
    }
}

#[test]
fn payload_timestamps_become_item_times() {
    let payload = json!({"session_id": "s", "hook_event_name": "Notification", "message": "hi",
                         "timestamp": "2026-04-17T15:46:51.505Z"});
    let msgs = run(&mut ClaudeHookAdapter::default(), &[payload]);
    assert_eq!(
        items(&msgs)[0].at.as_deref(),
        Some("2026-04-17T15:46:51.505Z")
    );
}

#[test]
fn documented_but_unmapped_events_are_ignored_and_unknown_ones_unrecognized() {
    let f = fixture("hooks", "v2_1_x_documented_unmapped_events");
    for o in outcomes(&mut ClaudeHookAdapter::default(), &f.native_events, 0) {
        assert!(matches!(o, NormalizationOutcome::Ignored { .. }), "{o:?}");
    }
    let o = outcomes(
        &mut ClaudeHookAdapter::default(),
        &[json!({"session_id": "s", "hook_event_name": "Telepathy"})],
        0,
    );
    assert_eq!(
        o[0],
        NormalizationOutcome::Unrecognized {
            discriminator: "Telepathy".into()
        }
    );
}

/// Each event through one adapter, as read from a hook log (a dump: records carry a member).
fn run_logged(events: &[Value]) -> Vec<IngestMessage> {
    let source = SourceId::new("dump");
    let mut adapter = ClaudeHookAdapter::default();
    events
        .iter()
        .enumerate()
        .flat_map(|(i, v)| {
            let record = RecordRef::new(source.clone(), i as u64);
            let mut native = NativeRecord::new(&record, v);
            native.member = Some("post_tool_use.json");
            adapter.normalize("", &native).messages()
        })
        .collect()
}

fn hook_event(event: &str, extra: Value) -> Value {
    let mut v = json!({"session_id": "s-pair", "cwd": "/w", "hook_event_name": event});
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

#[test]
fn a_result_without_its_call_still_records_the_call() {
    let post = hook_event(
        "PostToolUse",
        json!({"tool_name": "Bash", "tool_use_id": "toolu_9",
            "tool_input": {"command": "cargo test"},
            "tool_response": {"stdout": "test result: ok. 3 passed; 0 failed", "stderr": ""}}),
    );
    let msgs = run(
        &mut ClaudeHookAdapter::default(),
        std::slice::from_ref(&post),
    );
    let by = by_key(&msgs);
    let call = by
        .get("call:toolu_9")
        .expect("the call is recorded from its result");
    assert!(matches!(call.semantic.value, SemanticValue::ShellCall(_)));
    assert!(by.contains_key("out:toolu_9"));
    // With its PreToolUse seen, the result adds no second call.
    let pre = hook_event(
        "PreToolUse",
        json!({"tool_name": "Bash", "tool_use_id": "toolu_9", "tool_input": {"command": "cargo test"}}),
    );
    let msgs = run(&mut ClaudeHookAdapter::default(), &[pre, post]);
    let calls = items(&msgs)
        .into_iter()
        .filter(|i| i.key == "call:toolu_9")
        .count();
    assert_eq!(calls, 1);
}

#[test]
fn results_without_tool_use_id_pair_with_their_call_in_order() {
    let call = |cmd: &str| {
        hook_event(
            "PreToolUse",
            json!({"tool_name": "Bash", "tool_input": {"command": cmd}}),
        )
    };
    let result = |cmd: &str, out: &str| {
        hook_event(
            "PostToolUse",
            json!({"tool_name": "Bash", "tool_input": {"command": cmd},
                "tool_response": {"stdout": out, "stderr": ""}}),
        )
    };
    let msgs = run(
        &mut ClaudeHookAdapter::default(),
        &[
            call("ls"),
            call("make"),
            call("ls"),
            result("ls", "first"),
            result("make", "built"),
            result("ls", "second"),
        ],
    );
    let keys: Vec<&str> = items(&msgs).iter().map(|i| i.key.as_str()).collect();
    let suffix = |k: &str| k.split_once(':').unwrap().1.to_string();
    let calls: Vec<String> = keys
        .iter()
        .filter(|k| k.starts_with("call:"))
        .map(|k| suffix(k))
        .collect();
    let outs: Vec<String> = keys
        .iter()
        .filter(|k| k.starts_with("out:"))
        .map(|k| suffix(k))
        .collect();
    assert_eq!(calls.len(), 3, "no call invented: {keys:?}");
    // The first `ls` result answers the first `ls` call, `make` its own, the second `ls` the
    // second.
    assert_eq!(
        outs,
        vec![calls[0].clone(), calls[1].clone(), calls[2].clone()]
    );
}

#[test]
fn a_hook_log_declares_what_it_holds() {
    let failure = hook_event(
        "PostToolUseFailure",
        json!({"tool_name": "Bash", "tool_use_id": "t1", "tool_input": {"command": "git push"},
            "error": "Exit code 1\nerror: RPC failed"}),
    );
    let msgs = run_logged(std::slice::from_ref(&failure));
    let caps: Vec<&fornax_types::RuntimeCapabilities> = msgs
        .iter()
        .filter_map(|m| match m {
            IngestMessage::Capabilities(c) => Some(c),
            _ => None,
        })
        .collect();
    let last = caps.last().expect("declared");
    use fornax_types::{SignalAvailability, SignalClass};
    assert_eq!(
        last.availability(&SignalClass::ToolOutput),
        SignalAvailability::Unavailable,
        "only failures are in this capture"
    );
    assert_eq!(
        last.availability(&SignalClass::ToolInvocation),
        SignalAvailability::Available
    );
    assert_eq!(
        last.availability(&SignalClass::FileMutation),
        SignalAvailability::Unavailable
    );
    // Its order was rebuilt from the files: what it published is heuristic.
    assert!(items(&msgs)
        .iter()
        .all(|i| i.semantic.evidence_strength == EvidenceStrength::Heuristic));
    // A success later in the log: declared again, results now available.
    let success = hook_event(
        "PostToolUse",
        json!({"tool_name": "Bash", "tool_use_id": "t2", "tool_input": {"command": "ls"},
            "tool_response": {"stdout": "a", "stderr": ""}}),
    );
    let msgs = run_logged(&[failure, success]);
    let last = msgs
        .iter()
        .filter_map(|m| match m {
            IngestMessage::Capabilities(c) => Some(c),
            _ => None,
        })
        .next_back()
        .unwrap();
    assert_eq!(
        last.availability(&SignalClass::ToolOutput),
        SignalAvailability::Available
    );
    // Live hooks keep the fixed declaration (their configuration is Fornax's own).
    let live = run(
        &mut ClaudeHookAdapter::default(),
        &[hook_event("SessionStart", json!({"source": "startup"}))],
    );
    let caps = live
        .iter()
        .find_map(|m| match m {
            IngestMessage::Capabilities(c) => Some(c),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        caps.availability(&SignalClass::ToolOutput),
        SignalAvailability::Available
    );
}
