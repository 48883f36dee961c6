//! Behavior of the transcript adapter beyond the snapshots: the projection rules that matter
//! to verification, stated as assertions.

mod common;

use common::{fixture, items, latest, loops, outcomes, run, with_role};
use fornax_adapter_claude::ClaudeTranscriptAdapter;
use fornax_types::{
    AgentAdapter, EvidenceKind, EvidenceStrength, IngestMessage, LoopOutcome, NormalizationOutcome,
    Role, SemanticValue,
};
use serde_json::{json, Value};

const S: &str = "0b0e0f00-1111-4222-8333-000000000001";

fn user(uuid: &str, parent: Option<&str>, content: Value) -> Value {
    json!({"type": "user", "sessionId": S, "uuid": uuid, "parentUuid": parent, "isSidechain": false,
           "cwd": "/w", "version": "2.1.119", "timestamp": "2026-04-01T00:00:00.000Z",
           "message": {"role": "user", "content": content}})
}

fn assistant(
    uuid: &str,
    parent: &str,
    id: &str,
    content: Value,
    stop: Value,
    usage: Value,
) -> Value {
    json!({"type": "assistant", "sessionId": S, "uuid": uuid, "parentUuid": parent, "isSidechain": false,
           "cwd": "/w", "version": "2.1.119", "timestamp": "2026-04-01T00:00:01.000Z",
           "message": {"id": id, "model": "claude-opus-4-7", "role": "assistant", "type": "message",
                       "content": content, "stop_reason": stop, "usage": usage}})
}

#[test]
fn end_turn_promotes_the_last_text_to_final_answer() {
    let events = vec![
        user("u1", None, json!("fix it")),
        assistant(
            "a1",
            "u1",
            "m1",
            json!([{"type": "text", "text": "Looking."},
            {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": "ls"}}]),
            json!("tool_use"),
            json!({}),
        ),
        user(
            "u2",
            Some("a1"),
            json!([{"type": "tool_result", "tool_use_id": "t1", "content": "a"}]),
        ),
        assistant(
            "a2",
            "u2",
            "m2",
            json!([{"type": "text", "text": "Fixed; tests pass."}]),
            json!("end_turn"),
            json!({}),
        ),
    ];
    let msgs = run(&mut ClaudeTranscriptAdapter::default(), &events);
    let finals = with_role(&msgs, Role::AgentFinalAnswer);
    assert_eq!(finals.len(), 1);
    assert_eq!(
        finals[0].semantic.evidence_strength,
        EvidenceStrength::Structural
    );
    assert_eq!(
        finals[0].semantic.value.primary_text(),
        Some("Fixed; tests pass.")
    );
    // Text before a tool call stays commentary.
    assert_eq!(
        latest(&msgs, "msg:a1:0").semantic.role,
        Role::AgentCommentary
    );
    let ended = loops(&msgs)
        .into_iter()
        .find(|l| l.end.is_some())
        .expect("loop ended");
    assert_eq!(
        ended.end.as_ref().map(|e| e.outcome),
        Some(LoopOutcome::Completed)
    );
    assert_eq!(ended.position, 0);
}

#[test]
fn null_stop_reason_final_answer_is_heuristic_and_replaces_commentary() {
    let f = fixture("transcript", "v2_0_28_split_messages_null_stop_reason");
    let msgs = run(&mut ClaudeTranscriptAdapter::default(), &f.native_events);
    let key = "msg:11111111-aaaa-4bbb-8ccc-00000000000a:0";
    let versions: Vec<_> = items(&msgs).into_iter().filter(|i| i.key == key).collect();
    assert_eq!(versions.len(), 2, "published as commentary, then upgraded");
    assert_eq!(versions[0].semantic.role, Role::AgentCommentary);
    assert_eq!(versions[1].semantic.role, Role::AgentFinalAnswer);
    assert_eq!(
        versions[1].semantic.evidence_strength,
        EvidenceStrength::Heuristic
    );
    assert!(
        versions[1].records.len() >= 2,
        "the final answer cites the record that ended the loop"
    );
}

#[test]
fn usage_counts_each_api_message_once_and_includes_cache_reads() {
    let u = |out| json!({"input_tokens": 10, "cache_read_input_tokens": 1000, "cache_creation_input_tokens": 50, "output_tokens": out});
    let events = vec![
        user("u1", None, json!("go")),
        assistant(
            "a1",
            "u1",
            "m1",
            json!([{"type": "thinking", "thinking": "hm"}]),
            Value::Null,
            u(8),
        ),
        assistant(
            "a2",
            "a1",
            "m1",
            json!([{"type": "text", "text": "ok"}]),
            Value::Null,
            u(8),
        ),
        assistant(
            "a3",
            "a2",
            "m1",
            json!([{"type": "tool_use", "id": "t", "name": "Read", "input": {}}]),
            Value::Null,
            u(436),
        ),
        user(
            "u2",
            Some("a3"),
            json!([{"type": "tool_result", "tool_use_id": "t", "content": "x"}]),
        ),
        assistant(
            "a4",
            "u2",
            "m2",
            json!([{"type": "text", "text": "done"}]),
            json!("end_turn"),
            u(20),
        ),
    ];
    let msgs = run(&mut ClaudeTranscriptAdapter::default(), &events);
    let ended = loops(&msgs).into_iter().find(|l| l.end.is_some()).unwrap();
    let usage = ended.usage.unwrap();
    assert_eq!(usage.output_tokens, Some(456));
    assert_eq!(usage.input_tokens, Some(2 * 1060));
    assert_eq!(usage.cached_input_tokens, Some(2000));
    assert!(usage.validate().is_ok());
}

#[test]
fn bash_outputs_state_exit_codes_only_when_the_runtime_does() {
    let f = fixture("transcript", "v2_0_28_split_messages_null_stop_reason");
    let msgs = run(&mut ClaudeTranscriptAdapter::default(), &f.native_events);
    let SemanticValue::ToolOutput(failed) = &latest(&msgs, "out:toolu_01RunTests0000000000000001")
        .semantic
        .value
    else {
        panic!()
    };
    assert_eq!(failed.failed, Some(true));
    let code = failed.exit_code.unwrap();
    assert_eq!(
        (code.code, code.strength),
        (1, EvidenceStrength::Structural)
    );
    let SemanticValue::ToolOutput(ok) = &latest(&msgs, "out:toolu_01RunTests0000000000000002")
        .semantic
        .value
    else {
        panic!()
    };
    assert_eq!(ok.failed, Some(false));
    assert_eq!(ok.exit_code, None, "a success carries no exit code");
    assert_eq!(
        ok.text.as_ref().map(|t| t.text.as_str()),
        Some("Tests: 42 passed, 42 total")
    );
    let SemanticValue::ShellCall(call) = &latest(&msgs, "call:toolu_01RunTests0000000000000001")
        .semantic
        .value
    else {
        panic!()
    };
    assert_eq!(call.invocations.len(), 2);
    assert_eq!(call.invocations[1].program, "npm");
    assert_eq!(call.invocations[1].cwd.as_deref(), Some("/home/dev/shop"));
    assert_eq!(call.timeout_ms, Some(120000));
}

#[test]
fn only_file_diff_evidence_is_emitted_and_failed_edits_count() {
    let f = fixture("transcript", "v2_1_34_file_tools_and_failed_edit");
    let msgs = run(&mut ClaudeTranscriptAdapter::default(), &f.native_events);
    let evidence: Vec<_> = msgs
        .iter()
        .filter_map(|m| match m {
            IngestMessage::Evidence(e) => Some(e),
            _ => None,
        })
        .collect();
    assert_eq!(evidence.len(), 3);
    assert!(evidence.iter().all(|e| e.kind() == EvidenceKind::FileDiff));
    let failed = evidence
        .iter()
        .find(|e| e.payload.file_diff().is_some_and(|p| !p.succeeded))
        .unwrap();
    assert_eq!(
        failed.id,
        "file:toolu_03EditMissing000000000001:/repo/web/src/Button.tsx"
    );
    assert_eq!(
        failed.item_key.as_deref(),
        Some("out:toolu_03EditMissing000000000001")
    );
    assert!(failed
        .payload
        .file_diff()
        .and_then(|p| p.error.as_deref())
        .unwrap()
        .starts_with("String to replace not found"));
    assert_eq!(failed.source.sensor_name, "claude.file_mutation");
}

#[test]
fn a_prompt_while_the_agent_works_is_steering() {
    let f = fixture("transcript", "v2_1_119_end_turn_steering_usage");
    let msgs = run(&mut ClaudeTranscriptAdapter::default(), &f.native_events);
    let steering = with_role(&msgs, Role::HumanSteering);
    assert_eq!(
        steering.len(),
        2,
        "a typed prompt and a queued_command attachment"
    );
    assert!(steering.iter().all(|i| i.loop_position == Some(0)));
    let requests = with_role(&msgs, Role::HumanRequest);
    assert_eq!(
        requests.iter().map(|i| i.loop_position).collect::<Vec<_>>(),
        vec![Some(0), Some(1)]
    );
}

#[test]
fn runtime_injected_text_is_never_a_human_request() {
    let events = vec![
        user("u1", None, json!("<command-name>/model</command-name>")),
        user(
            "u2",
            Some("u1"),
            json!("<local-command-stdout>Set model</local-command-stdout>"),
        ),
        user(
            "u3",
            Some("u2"),
            json!([{"type": "text", "text": "<system-reminder>todo list is empty</system-reminder>"}]),
        ),
        json!({"type": "user", "sessionId": S, "uuid": "u4", "parentUuid": "u3", "isMeta": true,
               "message": {"role": "user", "content": "Caveat: The messages below were generated by the user while running local commands."}}),
        user("u5", Some("u4"), json!("[Request interrupted by user]")),
    ];
    let msgs = run(&mut ClaudeTranscriptAdapter::default(), &events);
    assert!(with_role(&msgs, Role::HumanRequest).is_empty());
    assert!(with_role(&msgs, Role::HumanSteering).is_empty());
    for item in items(&msgs) {
        assert!(
            item.semantic.role.as_str().starts_with("runtime."),
            "{:?}",
            item.semantic.role
        );
    }
}

#[test]
fn a_file_starting_with_a_snapshot_is_still_a_session() {
    let f = fixture("transcript", "v2_0_28_split_messages_null_stop_reason");
    let outcomes = outcomes(&mut ClaudeTranscriptAdapter::default(), &f.native_events, 0);
    assert!(matches!(outcomes[0], NormalizationOutcome::Ignored { .. }));
    assert!(outcomes
        .iter()
        .flat_map(|o| o.clone().messages())
        .any(|m| matches!(m, IngestMessage::Session(_))));
}

#[test]
fn sidechain_files_are_subagent_sessions_linked_to_their_parent() {
    let f = fixture("transcript", "v2_1_119_subagents_dir_file");
    let msgs = run(&mut ClaudeTranscriptAdapter::default(), &f.native_events);
    let sessions: Vec<_> = msgs
        .iter()
        .filter_map(|m| match m {
            IngestMessage::Session(s) => Some(s),
            _ => None,
        })
        .collect();
    let last = sessions.last().unwrap();
    assert_eq!(last.id.native_id, "agent-a7f3c91e2b4d6f801");
    let d = last.delegated_from.as_ref().unwrap();
    assert_eq!(d.parent_native_id, "0d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a");
    assert_eq!(d.agent_id.as_deref(), Some("a7f3c91e2b4d6f801"));
    assert_eq!(d.agent_type.as_deref(), Some("Explore"));
    assert!(
        with_role(&msgs, Role::HumanRequest).is_empty(),
        "the delegated task is not a human request"
    );
}

#[test]
fn a_delegation_result_links_the_child_session() {
    let f = fixture("transcript", "v2_1_119_task_delegation_parent");
    let msgs = run(&mut ClaudeTranscriptAdapter::default(), &f.native_events);
    let call = latest(&msgs, "call:toolu_07Agent000000000000000001");
    assert_eq!(call.semantic.role, Role::AgentDelegation);
    let link = latest(&msgs, "subagent:toolu_07Agent000000000000000001");
    let SemanticValue::Subagent(v) = &link.semantic.value else {
        panic!()
    };
    assert_eq!(v.child_session.as_deref(), Some("agent-a7f3c91e2b4d6f801"));
    assert_eq!(v.agent_type.as_deref(), Some("Explore"));
}

#[test]
fn rewinds_interrupts_and_api_errors_end_loops() {
    let f = fixture(
        "transcript",
        "v2_1_80_interrupt_rewind_compaction_api_error",
    );
    let msgs = run(&mut ClaudeTranscriptAdapter::default(), &f.native_events);
    let ends: Vec<_> = loops(&msgs)
        .into_iter()
        .filter_map(|l| l.end.as_ref().map(|e| (l.position, e.outcome)))
        .collect();
    assert_eq!(
        ends,
        vec![
            (0, LoopOutcome::Interrupted),
            (1, LoopOutcome::Interrupted),
            (2, LoopOutcome::Completed),
            (3, LoopOutcome::Failed),
            (4, LoopOutcome::Interrupted),
        ]
    );
    assert_eq!(with_role(&msgs, Role::RuntimeCompactionSummary).len(), 1);
    // The synthetic API error is the runtime speaking, never the agent.
    let api_error = latest(&msgs, "msg:c-012:0");
    assert_eq!(api_error.semantic.role, Role::RuntimeNotice);
}

#[test]
fn every_line_type_in_the_fixtures_is_known() {
    for (sub, name) in [
        ("transcript", "v2_1_152_bookkeeping_lines"),
        ("transcript", "v2_0_47_slash_command_implicit_loop"),
    ] {
        let f = fixture(sub, name);
        for o in outcomes(&mut ClaudeTranscriptAdapter::default(), &f.native_events, 0) {
            assert!(
                !matches!(o, NormalizationOutcome::Unrecognized { .. }),
                "{name}: {o:?}"
            );
        }
    }
}

#[test]
fn malformed_lines_never_lose_their_neighbours() {
    let events = vec![
        user("u1", None, json!("first")),
        json!({"type": "user", "sessionId": S, "message": 7}),
        json!({"type": "assistant", "sessionId": S, "message": {"content": {"not": "a list"}}}),
        json!({"type": "user", "sessionId": 42, "uuid": ["x"], "message": {"content": [{"type": "tool_result"}, 3, null]}}),
        json!({"type": "system", "subtype": {"odd": true}, "sessionId": S}),
        json!({"type": "attachment", "attachment": "text", "sessionId": S}),
        assistant(
            "a1",
            "u1",
            "m1",
            json!([{"type": "text", "text": "still here"}]),
            json!("end_turn"),
            json!({"input_tokens": "many"}),
        ),
    ];
    let msgs = run(&mut ClaudeTranscriptAdapter::default(), &events);
    assert_eq!(with_role(&msgs, Role::AgentFinalAnswer).len(), 1);
    assert_eq!(with_role(&msgs, Role::HumanRequest).len(), 1);
}

#[test]
fn pairing_tables_stay_bounded() {
    let mut adapter = ClaudeTranscriptAdapter::default();
    let mut events = vec![user("u0", None, json!("go"))];
    for i in 0..6000 {
        events.push(assistant(
            &format!("a{i}"),
            "u0",
            &format!("m{i}"),
            json!([{"type": "tool_use", "id": format!("t{i}"), "name": "Read", "input": {}}]),
            json!("tool_use"),
            json!({}),
        ));
    }
    let _ = run(&mut adapter, &events);
    let cp = adapter.checkpoint().unwrap();
    let st = &cp["sessions"]["entries"][S];
    assert!(st["calls"]["entries"].as_object().unwrap().len() <= 4096);
    assert!(st["uuids"]["entries"].as_object().unwrap().len() <= 4096);
    // The newest calls survive, so their outputs still pair.
    let out = run(
        &mut adapter,
        &[user(
            "r",
            Some("a5999"),
            json!([{"type": "tool_result", "tool_use_id": "t5999", "content": "x"}]),
        )],
    );
    let SemanticValue::ToolOutput(o) = &latest(&out, "out:t5999").semantic.value else {
        panic!()
    };
    assert_eq!(o.tool_name.as_deref(), Some("Read"));
}

#[test]
fn resuming_from_a_checkpoint_equals_an_uninterrupted_run() {
    for (name, f) in common::all_fixtures("transcript") {
        let whole = run(&mut ClaudeTranscriptAdapter::default(), &f.native_events);
        for cut in 0..=f.native_events.len() {
            let mut first = ClaudeTranscriptAdapter::default();
            let mut msgs: Vec<IngestMessage> = outcomes(&mut first, &f.native_events[..cut], 0)
                .into_iter()
                .flat_map(NormalizationOutcome::messages)
                .collect();
            // The checkpoint survives a trip through its serialized form.
            let text = serde_json::to_string(&first.checkpoint().unwrap()).unwrap();
            let mut second = ClaudeTranscriptAdapter::default();
            assert!(
                second.resume(&serde_json::from_str(&text).unwrap()),
                "{name}"
            );
            msgs.extend(
                outcomes(&mut second, &f.native_events[cut..], cut as u64)
                    .into_iter()
                    .flat_map(NormalizationOutcome::messages),
            );
            msgs.extend(second.finish());
            assert_eq!(msgs, whole, "{name}: resumed at {cut}");
        }
    }
}

#[test]
fn foreign_checkpoints_are_refused() {
    let mut adapter = ClaudeTranscriptAdapter::default();
    assert!(!adapter.resume(&json!({"format": 99, "sessions": {}})));
    assert!(!adapter.resume(&json!("not a checkpoint")));
    assert!(!adapter.resume(&Value::Null));
}

#[test]
fn a_split_message_repeating_end_turn_stays_in_one_loop() {
    let f = fixture("transcript", "v2_1_119_split_message_repeats_end_turn");
    let msgs = run(&mut ClaudeTranscriptAdapter::default(), &f.native_events);
    assert!(
        loops(&msgs).iter().all(|l| l.position == 0),
        "no implicit second loop"
    );
    let finals = with_role(&msgs, Role::AgentFinalAnswer);
    assert_eq!(finals.len(), 1);
    assert_eq!(finals[0].loop_position, Some(0));
    let last = loops(&msgs).into_iter().last().unwrap();
    assert_eq!(
        last.end.as_ref().map(|e| e.record.position),
        Some(2),
        "the loop ends at the message's last line"
    );
}

/// What a consumer holds after upserting by `(session, key)`.
fn upserted(msgs: &[IngestMessage]) -> Vec<fornax_types::Item> {
    let mut by_key: std::collections::BTreeMap<(String, String), fornax_types::Item> =
        std::collections::BTreeMap::new();
    for item in items(msgs) {
        by_key.insert(
            (item.session.native_id.clone(), item.key.clone()),
            item.clone(),
        );
    }
    by_key.into_values().collect()
}

#[test]
fn every_loop_keeps_at_most_one_final_answer() {
    for (name, f) in common::all_fixtures("transcript") {
        let msgs = run(&mut ClaudeTranscriptAdapter::default(), &f.native_events);
        let mut finals = std::collections::BTreeMap::new();
        for item in upserted(&msgs) {
            if item.semantic.role == Role::AgentFinalAnswer {
                *finals
                    .entry((item.session.native_id.clone(), item.loop_position))
                    .or_insert(0) += 1;
            }
        }
        assert!(finals.values().all(|n| *n == 1), "{name}: {finals:?}");
    }
}

#[test]
fn a_blocking_stop_hook_continues_the_same_loop() {
    let f = fixture("transcript", "v2_1_119_stop_hook_feedback_continues_loop");
    let msgs = run(&mut ClaudeTranscriptAdapter::default(), &f.native_events);
    assert!(loops(&msgs).iter().all(|l| l.position == 0));
    let held = upserted(&msgs);
    let finals: Vec<_> = held
        .iter()
        .filter(|i| i.semantic.role == Role::AgentFinalAnswer)
        .collect();
    assert_eq!(finals.len(), 1);
    assert_eq!(
        finals[0].semantic.value.primary_text(),
        Some("Bumped to 1.4.0 and added the changelog entry.")
    );
    let first = held.iter().find(|i| i.key == "msg:q-004:0").unwrap();
    assert_eq!(first.semantic.role, Role::AgentCommentary);
}

/// A Claude Code 1.0.x line: no entrypoint, sidechain lines in the parent's file.
fn v1(kind: &str, uuid: &str, parent: Option<&str>, sidechain: bool, message: Value) -> Value {
    json!({"type": kind, "sessionId": S, "uuid": uuid, "parentUuid": parent,
           "isSidechain": sidechain, "cwd": "/w", "version": "1.0.61",
           "timestamp": "2025-07-02T10:00:00.000Z", "message": message})
}

#[test]
fn inline_sidechains_of_parallel_tasks_are_sessions_of_their_own() {
    let task = |id: &str, prompt: &str| {
        json!({"type": "tool_use", "id": id, "name": "Task",
               "input": {"description": "d", "prompt": prompt, "subagent_type": "general-purpose"}})
    };
    let text = |t: &str| json!({"role": "assistant", "content": [{"type": "text", "text": t}]});
    let events = vec![
        v1(
            "user",
            "p1",
            None,
            false,
            json!({"role": "user", "content": "check it"}),
        ),
        v1(
            "assistant",
            "p2",
            Some("p1"),
            false,
            json!({"role": "assistant", "content": [task("toolu_A", "Run the tests."), task("toolu_B", "Review lib/cart.js.")]}),
        ),
        v1(
            "user",
            "a1",
            None,
            true,
            json!({"role": "user", "content": "Run the tests."}),
        ),
        v1(
            "user",
            "b1",
            None,
            true,
            json!({"role": "user", "content": "Review lib/cart.js."}),
        ),
        v1(
            "assistant",
            "b2",
            Some("b1"),
            true,
            text("Reviewed; looks fine."),
        ),
        v1("assistant", "a2", Some("a1"), true, text("All tests pass.")),
        v1(
            "user",
            "p3",
            Some("p2"),
            false,
            json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_A", "content": [{"type": "text", "text": "All tests pass."}]}]}),
        ),
    ];
    let msgs = run(&mut ClaudeTranscriptAdapter::default(), &events);
    let session_of = |needle: &str| {
        items(&msgs)
            .into_iter()
            .find(|i| match &i.semantic.value {
                SemanticValue::Text(t) => t.text.contains(needle),
                _ => false,
            })
            .map(|i| i.session.native_id.clone())
            .unwrap_or_else(|| panic!("no item with {needle:?}"))
    };
    assert_eq!(session_of("All tests pass."), "sidechain-a1");
    assert_eq!(session_of("Reviewed; looks fine."), "sidechain-b1");
    assert_eq!(session_of("check it"), S);
    let delegated: Vec<_> = msgs
        .iter()
        .filter_map(|m| match m {
            IngestMessage::Session(s) => s
                .delegated_from
                .clone()
                .map(|d| (s.id.native_id.clone(), d)),
            _ => None,
        })
        .collect();
    let a = delegated
        .iter()
        .find(|(id, _)| id == "sidechain-a1")
        .unwrap();
    assert_eq!(a.1.parent_native_id, S);
    assert_eq!(a.1.call_id.as_deref(), Some("toolu_A"));
    let b = delegated
        .iter()
        .find(|(id, _)| id == "sidechain-b1")
        .unwrap();
    assert_eq!(b.1.call_id.as_deref(), Some("toolu_B"));
    assert!(
        with_role(&msgs, Role::HumanRequest)
            .iter()
            .all(|i| i.session.native_id == S),
        "a delegated task is not a human request"
    );
}
