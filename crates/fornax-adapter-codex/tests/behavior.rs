//! What the fixtures must project to, asserted fact by fact (the snapshots pin the rest).

use std::path::Path;

use fornax_adapter_codex::CodexAdapter;
use fornax_adapter_conformance::{load_fixtures, replay};
use fornax_types::evidence::{FileDiffPayload, FileOperation};
use fornax_types::{
    EvidenceKind, EvidenceStrength, IngestMessage, Item, Loop, LoopOutcome, ReasoningMode, Role,
    SemanticValue, Session, ToolOutputValue, UsageFact,
};

/// The final state of every item, loop and evidence after replaying a fixture (later
/// publications replace earlier ones, as consumers upsert them).
struct Projection {
    sessions: Vec<Session>,
    items: Vec<Item>,
    loops: Vec<Loop>,
    files: Vec<(String, FileDiffPayload, Option<String>)>,
    usage: Vec<UsageFact>,
    caps: usize,
}

impl Projection {
    fn item(&self, key: &str) -> &Item {
        self.items
            .iter()
            .find(|i| i.key == key)
            .unwrap_or_else(|| panic!("no item {key}"))
    }

    fn output(&self, call_id: &str) -> ToolOutputValue {
        match &self.item(&format!("out:{call_id}")).semantic.value {
            SemanticValue::ToolOutput(o) => o.clone(),
            other => panic!("not an output: {other:?}"),
        }
    }

    fn roles(&self, role: Role) -> Vec<&Item> {
        self.items
            .iter()
            .filter(|i| i.semantic.role == role)
            .collect()
    }

    fn text(item: &Item) -> &str {
        item.semantic.value.primary_text().unwrap_or("")
    }

    fn file(&self, id: &str) -> &FileDiffPayload {
        &self
            .files
            .iter()
            .find(|(i, _, _)| i == id)
            .unwrap_or_else(|| panic!("no evidence {id}"))
            .1
    }

    fn lp(&self, position: u32) -> &Loop {
        self.loops
            .iter()
            .find(|l| l.position == position)
            .unwrap_or_else(|| panic!("no loop {position}"))
    }
}

fn project(name: &str) -> Projection {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let (_, fixture) = load_fixtures(&dir)
        .unwrap()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("no fixture {name}"));
    let mut adapter = CodexAdapter::default();
    let replayed = replay(&mut adapter, &fixture);
    let mut p = Projection {
        sessions: vec![],
        items: vec![],
        loops: vec![],
        files: vec![],
        usage: vec![],
        caps: 0,
    };
    for msg in replayed.messages() {
        match msg {
            IngestMessage::Session(s) => {
                p.sessions.retain(|x| x.id != s.id);
                p.sessions.push(s.clone());
            }
            IngestMessage::Capabilities(_) => p.caps += 1,
            IngestMessage::Item(i) => {
                assert!(!i.records.is_empty());
                p.items.retain(|x| x.key != i.key);
                p.items.push(i.clone());
            }
            IngestMessage::Loop(l) => {
                p.loops.retain(|x| x.position != l.position);
                p.loops.push(l.clone());
            }
            IngestMessage::Evidence(e) => {
                assert_eq!(
                    e.kind(),
                    EvidenceKind::FileDiff,
                    "only file evidence is emitted here"
                );
                assert_eq!(e.source.sensor_name, "codex.file_mutation");
                p.files.retain(|(id, _, _)| id != &e.id);
                p.files.push((
                    e.id.clone(),
                    e.payload.file_diff().cloned().unwrap(),
                    e.item_key.clone(),
                ));
            }
            IngestMessage::Usage(u) => {
                p.usage.retain(|x| x.key != u.key);
                p.usage.push(u.clone());
            }
            other => panic!("unexpected message {}", other.type_name()),
        }
    }
    p
}

/// `token_count` totals are cumulative: each report's fact is its step, so the facts add up to
/// the session's last total (input without the cached part), each with its own key.
#[test]
fn token_counts_become_one_fact_per_step() {
    let p = project("gen_0_14x_turns");
    assert_eq!(p.usage.len(), 3);
    let sum = |f: fn(&UsageFact) -> u64| p.usage.iter().map(f).sum::<u64>();
    assert_eq!(sum(|u| u.tokens.input), 50_000 - 10_000);
    assert_eq!(sum(|u| u.tokens.cache_read), 10_000);
    assert_eq!(sum(|u| u.tokens.output), 200);
    assert_eq!(sum(|u| u.tokens.reasoning.unwrap_or(0)), 60);
    assert_eq!(p.usage[1].tokens.input, 16_300 - 3_500);
    assert!(p.usage.iter().all(|u| u.at.is_some() && u.model.is_some()));
}

#[test]
fn legacy_flat_rollout() {
    let p = project("legacy_2025_09_flat");
    assert_eq!(p.sessions.len(), 1);
    assert_eq!(
        p.sessions[0].id.native_id,
        "3f1c9a52-7d4e-4b1a-9c3e-5a2b8d6f0e11"
    );
    assert_eq!(p.caps, 1);
    assert_eq!(p.loops.len(), 2, "two human requests, two loops");
    assert!(
        p.loops.iter().all(|l| l.end.is_none()),
        "legacy rollouts write no turn end"
    );
    let humans: Vec<&str> = p
        .roles(Role::HumanRequest)
        .into_iter()
        .map(Projection::text)
        .collect();
    assert_eq!(
        humans,
        vec![
            "parse_amount rejects \"1_000\"; make it accept underscores",
            "thanks, leave the README"
        ]
    );
    assert_eq!(p.roles(Role::RuntimeContext).len(), 1);
    assert_eq!(
        p.roles(Role::RuntimeInstructions).len(),
        2,
        "header instructions and user_instructions"
    );
    assert_eq!(
        p.roles(Role::AgentReasoning).len(),
        2,
        "one item per summary part"
    );
    // Shell argv unwrapped, invocations parsed.
    match &p.item("call:call_leg_test1").semantic.value {
        SemanticValue::ShellCall(s) => {
            assert_eq!(s.command, "cargo test -q parse_amount");
            assert_eq!(s.invocations[0].program, "cargo");
            assert_eq!(s.timeout_ms, Some(120000));
        }
        other => panic!("{other:?}"),
    }
    let out = p.output("call_leg_test1");
    assert_eq!(
        out.exit_code.map(|e| (e.code, e.strength)),
        Some((101, EvidenceStrength::Structural))
    );
    assert_eq!(out.failed, Some(true));
    assert_eq!(out.duration_ms, Some(2400));
    assert!(out.text.unwrap().text.starts_with("running 2 tests"));
    // Sandbox failure text.
    assert_eq!(
        p.output("call_leg_test2").exit_code.map(|e| e.code),
        Some(101)
    );
    // MCP output given as a JSON array string.
    assert_eq!(
        p.output("call_leg_mcp").text.unwrap().text,
        "{\"next\": \"document the amount syntax\"}"
    );
    // apply_patch through the shell: one applied, one failed verification.
    let ok = p.file("file:call_leg_patch1:src/parse.rs");
    assert!(ok.succeeded);
    assert_eq!(ok.operation, FileOperation::Update);
    assert_eq!((ok.lines_added, ok.lines_removed), (Some(1), Some(1)));
    let failed = p.file("file:call_leg_patch2:README.md");
    assert!(!failed.succeeded);
    assert!(failed
        .error
        .as_deref()
        .unwrap()
        .contains("Failed to find expected lines"));
    // No per-line timestamps: items carry none.
    assert!(p.item("call:call_leg_test1").at.is_none());
}

#[test]
fn envelope_0_66_pairs_witnesses_and_sums_usage() {
    let p = project("gen_0_66_envelope");
    assert_eq!(p.sessions[0].runtime_version.as_deref(), Some("0.66.0"));
    let human = p.roles(Role::HumanRequest);
    assert_eq!(
        human.len(),
        2,
        "each human message once, not once per witness"
    );
    assert!(human.iter().all(|i| i.records.len() == 2));
    let agent = p.roles(Role::AgentCommentary);
    assert_eq!(agent.len(), 2);
    assert!(agent.iter().all(|i| i.records.len() == 2));
    assert!(
        p.roles(Role::AgentFinalAnswer).is_empty(),
        "0.66 marks no final answer"
    );
    let reasoning = p.roles(Role::AgentReasoning);
    assert_eq!(reasoning.len(), 1);
    assert_eq!(reasoning[0].records.len(), 2);
    assert_eq!(p.output("call_66_rg").exit_code.map(|e| e.code), Some(0));
    assert_eq!(
        p.output("call_66_test").exit_code.map(|e| e.code),
        Some(101)
    );
    assert_eq!(p.output("call_66_test").duration_ms, Some(9300));
    assert!(p.file("file:call_66_patch:src/cli.rs").succeeded);
    assert_eq!(
        p.file("file:call_66_patch:tests/report_json.rs").operation,
        FileOperation::Create
    );
    // Repeated token_count lines are not summed twice: the loop's sum equals the session
    // totals reported at its last request.
    let usage = p.lp(0).usage.unwrap();
    assert_eq!(usage.input_tokens, Some(17500));
    assert_eq!(usage.cached_input_tokens, Some(12288));
    assert_eq!(usage.output_tokens, Some(420));
    assert_eq!(usage.reasoning_output_tokens, Some(64));
    assert_eq!(p.lp(1).usage.unwrap().input_tokens, Some(4800));
    assert_eq!(p.lp(0).model.as_deref(), Some("gpt-5.1-codex-max"));
    assert_eq!(
        p.item("msg:0:0").at.as_deref(),
        Some("2025-12-11T09:14:09.400Z")
    );
}

#[test]
fn unified_exec_0_98_follows_running_processes() {
    let p = project("gen_0_98_unified_exec");
    assert_eq!(p.roles(Role::HumanRequest).len(), 1);
    assert_eq!(
        p.roles(Role::RuntimeInstructions).len(),
        3,
        "base, permissions, AGENTS.md"
    );
    assert_eq!(p.roles(Role::RuntimeContext).len(), 1);
    let make = p.output("call_98_make");
    assert_eq!(
        make.exit_code.map(|e| (e.code, e.strength)),
        Some((2, EvidenceStrength::Structural))
    );
    assert!(make
        .text
        .unwrap()
        .text
        .contains("make: *** [check] Error 2"));
    assert_eq!(p.item("out:call_98_make").records.len(), 2);
    assert_eq!(p.output("call_98_grep").exit_code.map(|e| e.code), Some(0));
    let reasoning = p.roles(Role::AgentReasoning);
    let unavailable = reasoning
        .iter()
        .filter(|i| matches!(&i.semantic.value, SemanticValue::Reasoning(r) if r.mode == ReasoningMode::Unavailable))
        .count();
    assert_eq!(unavailable, 1);
    assert_eq!(p.lp(0).usage.unwrap().input_tokens, Some(42000));
    assert!(p
        .items
        .iter()
        .any(|i| i.key.starts_with("call:@") && Projection::text(i) == "web_search"));
}

#[test]
fn explicit_turns_0_14x() {
    let p = project("gen_0_14x_turns");
    assert_eq!(p.loops.len(), 4);
    let outcomes: Vec<Option<LoopOutcome>> = (0..4)
        .map(|i| p.lp(i).end.as_ref().map(|e| e.outcome))
        .collect();
    assert_eq!(
        outcomes,
        vec![
            Some(LoopOutcome::Completed),
            Some(LoopOutcome::Completed),
            Some(LoopOutcome::Failed),
            Some(LoopOutcome::Interrupted)
        ]
    );
    assert_eq!(
        p.lp(0).native_id.as_deref(),
        Some("019fd3a0-0000-7000-8000-000000000001")
    );
    assert_eq!(p.lp(0).runtime_version.as_deref(), Some("0.146.0"));
    assert_eq!(
        p.lp(1).runtime_version.as_deref(),
        Some("0.147.0"),
        "version changed on resume"
    );
    assert_eq!(p.lp(3).model.as_deref(), Some("gpt-5.6-sol"));
    // Three witnesses, one item.
    let first = p.item("msg:0:0");
    assert_eq!(first.semantic.role, Role::HumanRequest);
    assert_eq!(first.records.len(), 3);
    let finals = p.roles(Role::AgentFinalAnswer);
    assert_eq!(finals.len(), 2);
    let structural = finals.iter().find(|i| i.loop_position == Some(0)).unwrap();
    assert_eq!(
        structural.semantic.evidence_strength,
        EvidenceStrength::Structural
    );
    assert_eq!(
        structural.records.len(),
        4,
        "response, event, item_completed, task_complete"
    );
    let heuristic = finals.iter().find(|i| i.loop_position == Some(1)).unwrap();
    assert_eq!(
        heuristic.semantic.evidence_strength,
        EvidenceStrength::Heuristic
    );
    let steering = p.roles(Role::HumanSteering);
    assert_eq!(steering.len(), 1);
    assert_eq!(
        Projection::text(steering[0]),
        "and mention the new --json flag"
    );
    assert_eq!(steering[0].records.len(), 2);
    assert_eq!(
        p.roles(Role::RuntimeNotice).len(),
        3,
        "error, turn_aborted notice, compaction notice"
    );
    assert_eq!(p.roles(Role::RuntimeCompactionSummary).len(), 1);
    assert_eq!(p.sessions[0].name.as_deref(), Some("Release 0.4.0"));
    let sed = p.output("call_14_sed");
    assert_eq!(sed.exit_code.map(|e| e.code), Some(0));
    assert!(sed.text.unwrap().text.contains("1 file changed"));
    assert!(p.file("file:call_14_patch:CHANGELOG.md").succeeded);
    assert_eq!(p.lp(0).usage.unwrap().input_tokens, Some(32300));
}

#[test]
fn extended_history_0_14x() {
    let p = project("gen_0_14x_extended_history");
    let lint = p.output("call_x_lint");
    assert_eq!(lint.exit_code.map(|e| e.code), Some(101));
    assert_eq!(lint.duration_ms, Some(7912));
    assert_eq!(p.item("out:call_x_lint").records.len(), 2);
    let report = p.file("file:call_x_patch:src/report.rs");
    assert!(report.succeeded);
    assert_eq!(report.operation, FileOperation::Update);
    let moved = p.file("file:call_x_patch:src/old_report.rs");
    assert_eq!(moved.operation, FileOperation::Rename);
    assert_eq!(moved.path, "src/report_v1.rs");
    assert_eq!(
        p.file("file:call_x_patch:src/unused.rs").operation,
        FileOperation::Delete
    );
    assert_eq!(
        p.files
            .iter()
            .filter(|(id, _, _)| id.starts_with("file:call_x_patch:"))
            .count(),
        3
    );
    let lib = p.file("file:call_x_patch2:src/lib.rs");
    assert!(!lib.succeeded);
    assert!(lib
        .error
        .as_deref()
        .unwrap()
        .contains("verification failed"));
    assert_eq!(p.output("call_x_mcp").failed, Some(false));
    assert_eq!(
        p.output("call_x_mcp").tool_name.as_deref(),
        Some("issues__create_issue")
    );
    assert_eq!(p.output("call_x_mcp2").failed, Some(true));
    assert!(matches!(
        p.item("call:call_x_mcp2").semantic.value,
        SemanticValue::ToolCall(_)
    ));
    let test = p.output("call_x_test");
    assert_eq!(test.exit_code.map(|e| e.code), Some(0));
    assert!(matches!(
        p.item("call:call_x_test").semantic.value,
        SemanticValue::ShellCall(_)
    ));
    assert!(
        p.items.iter().all(|i| i.key != "call:call_user_1"),
        "user shell commands are not the agent's"
    );
    let script = p.output("call_x_exec");
    assert_eq!(
        script.exit_code.map(|e| (e.code, e.strength)),
        Some((0, EvidenceStrength::Heuristic))
    );
    assert_eq!(p.output("call_x_dyn").failed, Some(false));
    assert_eq!(p.roles(Role::AgentDelegation).len(), 1);
    assert_eq!(p.roles(Role::SubagentActivity).len(), 2);
    assert_eq!(p.roles(Role::AgentFinalAnswer).len(), 1);
    assert_eq!(
        p.lp(0).usage.unwrap().input_tokens,
        Some(9000),
        "usage after the end joins the ended loop"
    );
}

#[test]
fn subagent_thread_names_its_parent() {
    let p = project("gen_0_14x_subagent_thread");
    assert_eq!(
        p.sessions.len(),
        1,
        "the inherited parent session_meta is not a second session"
    );
    let s = &p.sessions[0];
    assert_eq!(s.id.native_id, "019fda01-3c4d-7e5f-8a9b-0c1d2e3f4a5b");
    assert_eq!(
        s.forked_from.as_deref(),
        Some("019fd9c4-7e6f-7a5b-9c4d-3e2f1a0b9c8d")
    );
    let d = s.delegated_from.as_ref().unwrap();
    assert_eq!(d.parent_native_id, "019fd9c4-7e6f-7a5b-9c4d-3e2f1a0b9c8d");
    assert_eq!(d.agent_type.as_deref(), Some("explorer"));
    assert_eq!(p.roles(Role::SubagentActivity).len(), 2);
    let finals = p.roles(Role::AgentFinalAnswer);
    assert_eq!(finals.len(), 1);
    assert_eq!(Projection::text(finals[0]), "no other unused variables");
}

#[test]
fn review_mode_0_77() {
    let p = project("gen_0_77_review_mode");
    assert_eq!(p.roles(Role::HumanRequest).len(), 1);
    assert_eq!(
        p.roles(Role::RuntimeContext).len(),
        1,
        "user_message kind environment_context"
    );
    let report = p.roles(Role::SubagentReport);
    assert_eq!(report.len(), 1);
    assert!(Projection::text(report[0]).contains("Negative totals round toward zero"));
    assert_eq!(p.lp(0).model.as_deref(), Some("gpt-5.2-codex"));
}

#[test]
fn every_exit_code_encoding_is_structural() {
    for (name, code) in [
        ("exit_code_json_metadata", 1),
        ("exit_code_text_exit_code", 0),
        ("exit_code_text_process_exited", 1),
        ("exit_code_content_array", 0),
        ("exit_code_exec_command_end", 101),
        ("exit_code_local_shell_call", 2),
    ] {
        let p = project(name);
        let out = p.output("call_exit_1");
        let exit = out
            .exit_code
            .unwrap_or_else(|| panic!("{name}: no exit code"));
        assert_eq!(
            (exit.code, exit.strength),
            (code, EvidenceStrength::Structural),
            "{name}"
        );
        assert_eq!(out.failed, Some(code != 0), "{name}");
        let text = out.text.unwrap().text;
        assert!(
            !text.contains("Exit code:") && !text.contains("Process exited"),
            "{name}: wrapper kept"
        );
        assert_eq!(p.roles(Role::HumanRequest).len(), 1, "{name}");
        assert!(
            matches!(
                p.item("call:call_exit_1").semantic.value,
                SemanticValue::ShellCall(_)
            ),
            "{name}"
        );
    }
}

/// Pairing tables keep the newest entries only, and a checkpoint stays small however long the
/// rollout runs.
#[test]
fn pairing_state_stays_bounded() {
    use fornax_types::{AgentAdapter, NativeRecord, RecordRef, SourceId};
    use serde_json::json;
    let mut adapter = CodexAdapter::default();
    let source = SourceId::new("bounded");
    let mut feed = |i: u64, v: serde_json::Value| {
        let record = RecordRef::new(source.clone(), i);
        adapter
            .normalize("rollout-x", &NativeRecord::new(&record, &v))
            .messages()
    };
    feed(
        0,
        json!({"timestamp": "2026-01-01T00:00:00Z", "type": "session_meta", "payload": {"id": "s-bounded", "cli_version": "0.98.0"}}),
    );
    for i in 1..=5000u64 {
        let args = json!({"cmd": format!("echo {i}")}).to_string();
        feed(
            i,
            json!({"timestamp": "2026-01-01T00:00:01Z", "type": "response_item", "payload": {"type": "function_call", "name": "exec_command", "arguments": args, "call_id": format!("c{i}")}}),
        );
    }
    // The oldest call fell out of the table: its late output still publishes, unnamed.
    let out = feed(
        5001,
        json!({"timestamp": "2026-01-01T00:00:02Z", "type": "response_item", "payload": {"type": "function_call_output", "call_id": "c1", "output": "Process exited with code 0\nOutput:\nok"}}),
    );
    let IngestMessage::Item(item) = &out[0] else {
        panic!("{out:?}")
    };
    let SemanticValue::ToolOutput(value) = &item.semantic.value else {
        panic!()
    };
    assert_eq!(value.tool_name, None);
    assert_eq!(value.exit_code.map(|e| e.code), Some(0));
    // A recent call is still paired.
    let out = feed(
        5002,
        json!({"timestamp": "2026-01-01T00:00:02Z", "type": "response_item", "payload": {"type": "function_call_output", "call_id": "c5000", "output": "ok"}}),
    );
    let IngestMessage::Item(item) = &out[0] else {
        panic!()
    };
    let SemanticValue::ToolOutput(value) = &item.semantic.value else {
        panic!()
    };
    assert_eq!(value.tool_name.as_deref(), Some("exec_command"));
    assert_eq!(item.loop_position, None);
    let checkpoint = serde_json::to_string(&adapter.checkpoint().unwrap()).unwrap();
    assert!(
        checkpoint.len() < 2_000_000,
        "checkpoint is {} bytes",
        checkpoint.len()
    );
}

#[test]
fn huge_texts_are_capped_with_their_length_kept() {
    use fornax_types::{AgentAdapter, NativeRecord, RecordRef, SourceId};
    use serde_json::json;
    let mut adapter = CodexAdapter::default();
    let record = RecordRef::new(SourceId::new("huge"), 0);
    let text = format!("{}\ntest result: ok. 1 passed", "x".repeat(3_000_000));
    let v = json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]});
    let msgs = adapter
        .normalize("h", &NativeRecord::new(&record, &v))
        .messages();
    let item = msgs
        .iter()
        .find_map(|m| match m {
            IngestMessage::Item(i) => Some(i),
            _ => None,
        })
        .unwrap();
    let SemanticValue::Text(t) = &item.semantic.value else {
        panic!()
    };
    assert!(t.truncated);
    assert_eq!(t.byte_len, text.len() as u64);
    assert!(t.text.len() < 200_000);
    assert!(t.text.ends_with("1 passed"));
}
