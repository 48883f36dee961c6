//! What the fixtures must mean once consumers upsert by key: final answers, exit codes, file
//! evidence, loops; plus checkpoint/resume, bounded state and the descriptors.

use std::collections::BTreeMap;
use std::path::Path;

use fornax_adapter_conformance::{load_fixtures, Fixture};
use fornax_adapter_opencode::{
    descriptors, OpencodePluginAdapter, OpencodeStorageAdapter, PLUGIN_SOURCE,
};
use fornax_types::evidence::{FileDiffPayload, FileOperation};
use fornax_types::{
    AgentAdapter, Evidence, IngestMessage, Item, Loop, LoopOutcome, NativeRecord, RecordRef, Role,
    SemanticValue, Session, SourceId,
};
use serde_json::{json, Value};

fn fixture(name: &str) -> Fixture {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let all = load_fixtures(&dir).unwrap_or_else(|e| panic!("{e}"));
    all.into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, f)| f)
        .unwrap_or_else(|| panic!("no fixture {name}"))
}

fn adapter_for(f: &Fixture) -> Box<dyn AgentAdapter> {
    match f.adapter.as_deref() {
        Some("opencode-plugin") => Box::new(OpencodePluginAdapter::default()),
        _ => Box::new(OpencodeStorageAdapter::default()),
    }
}

fn feed(
    adapter: &mut dyn AgentAdapter,
    events: &[Value],
    from: usize,
    hint: &str,
) -> Vec<IngestMessage> {
    let source = SourceId::new("test");
    let mut out = Vec::new();
    for (i, e) in events.iter().enumerate() {
        let record = RecordRef::new(source.clone(), (from + i) as u64);
        out.extend(
            adapter
                .normalize(hint, &NativeRecord::new(&record, e))
                .messages(),
        );
    }
    out
}

/// The store's view: last publication wins per key.
#[derive(Default)]
struct View {
    items: BTreeMap<(String, String), Item>,
    loops: BTreeMap<(String, u32), Loop>,
    evidence: BTreeMap<(String, String), Evidence>,
    sessions: BTreeMap<String, Session>,
    capabilities: usize,
}

impl View {
    fn of(msgs: &[IngestMessage]) -> View {
        let mut v = View::default();
        for m in msgs {
            match m {
                IngestMessage::Item(i) => {
                    v.items
                        .insert((i.session.native_id.clone(), i.key.clone()), i.clone());
                }
                IngestMessage::Loop(l) => {
                    v.loops
                        .insert((l.session.native_id.clone(), l.position), l.clone());
                }
                IngestMessage::Evidence(e) => {
                    v.evidence
                        .insert((e.session.native_id.clone(), e.id.clone()), e.clone());
                }
                IngestMessage::Session(s) => {
                    v.sessions.insert(s.id.native_id.clone(), s.clone());
                }
                IngestMessage::Capabilities(_) => v.capabilities += 1,
                _ => {}
            }
        }
        v
    }

    fn run(name: &str) -> View {
        let f = fixture(name);
        let mut a = adapter_for(&f);
        let mut msgs = feed(
            a.as_mut(),
            &f.native_events,
            0,
            f.session_hint.as_deref().unwrap_or("hint"),
        );
        msgs.extend(a.finish());
        View::of(&msgs)
    }

    fn item(&self, key_suffix: &str) -> &Item {
        self.items
            .values()
            .find(|i| i.key.ends_with(key_suffix))
            .unwrap_or_else(|| panic!("no item {key_suffix}"))
    }

    fn roles(&self, role: Role) -> Vec<&Item> {
        self.items
            .values()
            .filter(|i| i.semantic.role == role)
            .collect()
    }
}

fn text(item: &Item) -> &str {
    item.semantic.value.primary_text().unwrap_or_default()
}

fn file_diffs(v: &View) -> Vec<FileDiffPayload> {
    v.evidence
        .values()
        .filter_map(|e| e.payload.file_diff().cloned())
        .collect()
}

#[test]
fn plugin_loop_has_one_final_answer_and_structural_exit_codes() {
    let v = View::run("plugin_bash_edit_final_answer");
    let finals = v.roles(Role::AgentFinalAnswer);
    assert_eq!(finals.len(), 1);
    assert!(text(finals[0]).contains("31 passed"));
    assert_eq!(v.roles(Role::AgentCommentary).len(), 1);
    assert_eq!(v.roles(Role::HumanRequest).len(), 1);
    let SemanticValue::ToolOutput(out) =
        &v.item("out:toolu_01Tern0000000000000000C3").semantic.value
    else {
        panic!("not a tool output")
    };
    assert_eq!(out.exit_code.map(|e| e.code), Some(0));
    let SemanticValue::ShellCall(call) =
        &v.item("call:toolu_01Tern0000000000000000A1").semantic.value
    else {
        panic!("not a shell call")
    };
    assert_eq!(
        call.invocations
            .iter()
            .map(|i| i.program.as_str())
            .collect::<Vec<_>>(),
        vec!["cargo", "tail"]
    );
    let lp = &v.loops.values().next().expect("a loop");
    let end = lp.end.as_ref().expect("loop ended");
    assert_eq!(end.outcome, LoopOutcome::Completed);
    let usage = lp.usage.expect("usage");
    assert_eq!(usage.input_tokens, Some(56_810));
    assert_eq!(usage.cached_input_tokens, Some(52_500));
    assert!(usage.validate().is_ok());
    let session = v.sessions.values().next().expect("session");
    assert_eq!(session.cwd.as_deref(), Some("/home/ada/src/tern"));
    assert_eq!(
        session.name.as_deref(),
        Some("Accept ISO week dates in parse_week")
    );
    assert_eq!(session.runtime_version.as_deref(), Some("1.1.53"));
    assert_eq!(v.capabilities, 1);
}

#[test]
fn plugin_failures_and_file_mutations() {
    let v = View::run("plugin_file_tools_failures_abort");
    let SemanticValue::ToolOutput(rg) = &v.item("out:call_Quay0000000000000000D4").semantic.value
    else {
        panic!("not a tool output")
    };
    assert_eq!(rg.exit_code.map(|e| e.code), Some(1));
    assert_eq!(rg.failed, Some(true));
    let diffs = file_diffs(&v);
    let by_path = |tool: &str, p: &str| {
        diffs
            .iter()
            .find(|d| d.tool == tool && d.path.ends_with(p))
            .unwrap_or_else(|| panic!("no {tool} diff for {p}"))
    };
    assert!(by_path("apply_patch", "src/upload.ts").succeeded);
    assert!(!by_path("edit", "src/upload.ts").succeeded);
    let failed_edit = diffs.iter().find(|d| d.tool == "edit").expect("edit diff");
    assert!(!failed_edit.succeeded);
    assert!(failed_edit
        .error
        .as_deref()
        .unwrap_or_default()
        .contains("oldString"));
    assert_eq!(
        by_path("apply_patch", "docs/limits.md").operation,
        FileOperation::Create
    );
    assert_eq!(
        by_path("write", "CHANGELOG.md").operation,
        FileOperation::Update
    );
    for e in v.evidence.values() {
        assert!(e.id.starts_with("file:"), "{}", e.id);
        assert_eq!(
            e.item_key.as_deref(),
            Some(
                format!(
                    "out:{}",
                    e.payload
                        .file_diff()
                        .and_then(|p| p.call_id.as_deref())
                        .unwrap_or_default()
                )
                .as_str()
            )
        );
        assert_eq!(e.source.sensor_name, "opencode.file_mutation");
    }
    let lp = v.loops.values().next().expect("a loop");
    assert_eq!(
        lp.end.as_ref().map(|e| e.outcome),
        Some(LoopOutcome::Interrupted)
    );
    let reasoning = v.roles(Role::AgentReasoning);
    assert!(
        matches!(&reasoning[0].semantic.value, SemanticValue::Reasoning(r) if r.mode == fornax_types::ReasoningMode::Summary)
    );
}

#[test]
fn plugin_streaming_and_steering() {
    let v = View::run("plugin_streaming_steering_noise");
    assert_eq!(v.loops.len(), 2);
    let steering = v.roles(Role::HumanSteering);
    assert_eq!(steering.len(), 1);
    assert_eq!(steering[0].loop_position, Some(1));
    let finals = v.roles(Role::AgentFinalAnswer);
    assert_eq!(finals.len(), 2);
    assert!(finals
        .iter()
        .any(|f| text(f).ends_with("never advertises.")));
    assert_eq!(v.roles(Role::RuntimeContext).len(), 1);
    // No session document reached the plugin: the assistant's working directory stands in.
    let session = v.sessions.values().next().expect("session");
    assert_eq!(session.cwd.as_deref(), Some("/srv/work/kestrel"));
}

#[test]
fn storage_parts_after_messages_still_find_the_final_answer() {
    let v = View::run("storage_session_tree");
    let finals = v.roles(Role::AgentFinalAnswer);
    assert_eq!(finals.len(), 1);
    assert!(text(finals[0]).starts_with("Bounded the decode loop"));
    assert_eq!(
        finals[0].semantic.evidence_strength,
        fornax_types::EvidenceStrength::Structural
    );
    assert_eq!(v.roles(Role::AgentCommentary).len(), 1);
    let SemanticValue::ShellCall(call) = &v.item("call:call_Varint00000000000000J0").semantic.value
    else {
        panic!("not a shell call")
    };
    assert_eq!(call.timeout_ms, Some(600_000));
    let diffs = file_diffs(&v);
    assert_eq!(diffs.len(), 1);
    assert!(diffs[0].succeeded);
    assert!(v
        .evidence
        .values()
        .all(|e| e.source.collection_method == fornax_types::CollectionMethod::FilePoll));
}

#[test]
fn storage_outcomes_compaction_and_children() {
    let v = View::run("storage_abort_compaction_children");
    let outcomes: Vec<_> = v
        .loops
        .values()
        .map(|l| l.end.as_ref().map(|e| e.outcome))
        .collect();
    assert_eq!(
        outcomes,
        vec![
            Some(LoopOutcome::Interrupted),
            Some(LoopOutcome::Completed),
            Some(LoopOutcome::Failed)
        ]
    );
    assert_eq!(v.roles(Role::RuntimeCompactionSummary).len(), 1);
    assert_eq!(v.roles(Role::RuntimeContext).len(), 1);
    assert_eq!(v.roles(Role::AgentFinalAnswer).len(), 1);
    let child = v
        .sessions
        .values()
        .find(|s| s.delegated_from.is_some())
        .expect("child session");
    assert_eq!(
        child
            .delegated_from
            .as_ref()
            .map(|d| d.parent_native_id.as_str()),
        Some("ses_2b22e0b4cffeWq1eR2tY3uI4oP")
    );
}

#[test]
fn checkpoint_resume_reproduces_an_uninterrupted_run() {
    for name in [
        "plugin_bash_edit_final_answer",
        "plugin_file_tools_failures_abort",
        "plugin_streaming_steering_noise",
        "storage_session_tree",
        "storage_abort_compaction_children",
    ] {
        let f = fixture(name);
        let events = &f.native_events;
        let mut whole = adapter_for(&f);
        let mut expected = feed(whole.as_mut(), events, 0, "hint");
        expected.extend(whole.finish());
        for cut in 0..=events.len() {
            let mut first = adapter_for(&f);
            let mut got = feed(first.as_mut(), &events[..cut], 0, "hint");
            let snapshot = first.checkpoint().expect("checkpoint");
            let text = serde_json::to_string(&snapshot).expect("serializable");
            let mut second = adapter_for(&f);
            assert!(
                second.resume(&serde_json::from_str(&text).expect("parses")),
                "{name}: resume refused"
            );
            got.extend(feed(second.as_mut(), &events[cut..], cut, "hint"));
            got.extend(second.finish());
            assert_eq!(got, expected, "{name}: cut at {cut}");
        }
    }
}

#[test]
fn resume_refuses_foreign_snapshots() {
    let mut plugin = OpencodePluginAdapter::default();
    let storage = OpencodeStorageAdapter::default();
    assert!(!plugin.resume(&storage.checkpoint().expect("checkpoint")));
    assert!(!plugin.resume(&json!({"v": 99})));
    assert!(!plugin.resume(&json!("garbage")));
    assert!(!plugin.resume(&json!({"v": 1, "transport": "plugin", "tracker": {"sessions": 3}})));
    let own = plugin.checkpoint().expect("checkpoint");
    assert!(plugin.resume(&own));
}

#[test]
fn state_stays_bounded_on_a_long_stream() {
    let mut a = OpencodePluginAdapter::default();
    let source = SourceId::new("long");
    let mut n = 0u64;
    let mut push = |a: &mut OpencodePluginAdapter, v: Value| {
        let record = RecordRef::new(source.clone(), n);
        n += 1;
        let _ = a.normalize("hint", &NativeRecord::new(&record, &v));
    };
    for s in 0..40 {
        let sid = format!("ses_{s:04}");
        for turn in 0..30 {
            let user = format!("msg_{s:04}_{turn:04}_u");
            push(
                &mut a,
                json!({"hook": "chat.message", "at": "t", "payload": {"input": {"sessionID": sid}, "output": {"message": {"id": user, "sessionID": sid, "role": "user"}, "parts": [{"id": format!("prt_{user}"), "messageID": user, "type": "text", "text": "go"}]}}}),
            );
            let asst = format!("msg_{s:04}_{turn:04}_a");
            push(
                &mut a,
                json!({"hook": "event", "at": "t", "payload": {"event": {"type": "message.updated", "properties": {"info": {"id": asst, "sessionID": sid, "role": "assistant", "parentID": user}}}}}),
            );
            for c in 0..20 {
                let call = format!("call_{s}_{turn}_{c}");
                push(
                    &mut a,
                    json!({"hook": "tool.execute.before", "at": "t", "payload": {"input": {"tool": "bash", "sessionID": sid, "callID": call}, "output": {"args": {"command": "ls"}}}}),
                );
                push(
                    &mut a,
                    json!({"hook": "tool.execute.after", "at": "t", "payload": {"input": {"tool": "bash", "sessionID": sid, "callID": call}, "output": {"output": "x", "metadata": {"exit": 0}}}}),
                );
            }
            push(
                &mut a,
                json!({"hook": "event", "at": "t", "payload": {"event": {"type": "message.part.updated", "properties": {"part": {"id": format!("prt_{asst}"), "sessionID": sid, "messageID": asst, "type": "text", "text": "done"}}}}}),
            );
            push(
                &mut a,
                json!({"hook": "event", "at": "t", "payload": {"event": {"type": "session.idle", "properties": {"sessionID": sid}}}}),
            );
        }
    }
    let size = serde_json::to_string(&a.checkpoint().expect("checkpoint"))
        .map(|s| s.len())
        .unwrap_or(usize::MAX);
    assert!(size < 16 * 1024 * 1024, "checkpoint grew to {size} bytes");
}

#[test]
fn descriptors_sniff_their_own_records() {
    let ds = descriptors();
    let names: Vec<_> = ds.iter().map(|d| d.name).collect();
    assert_eq!(names, vec!["opencode-plugin", "opencode-storage"]);
    let plugin = &ds[0];
    let storage = &ds[1];
    assert_eq!(
        storage.default_roots,
        &[
            ".local/share/opencode/storage",
            ".local/share/opencode/opencode.db"
        ]
    );
    assert_eq!(storage.file_suffixes, &[".json"]);
    let tree = storage.tree.expect("storage reads a document tree");
    assert_eq!(tree.root_marker, &["session", "message", "part"]);
    let db = tree.database.expect("and opencode.db");
    assert_eq!(db.file_names, &["opencode.db"]);
    assert!(plugin.tree.is_none());
    for (name, f) in [
        ("plugin_bash_edit_final_answer", true),
        ("storage_session_tree", false),
    ] {
        for e in &fixture(name).native_events {
            assert_eq!((plugin.sniff)(e), f, "{name}: {e}");
            assert_eq!((storage.sniff)(e), !f, "{name}: {e}");
        }
    }
    let created = (plugin.create)();
    assert_eq!(created.provider(), fornax_types::Provider::Opencode);
}

#[test]
fn plugin_source_is_shipped() {
    for needle in [
        "FORNAX_BIN",
        "tool.execute.before",
        "tool.execute.after",
        "chat.message",
        "export const FornaxPlugin",
    ] {
        assert!(PLUGIN_SOURCE.contains(needle), "plugin lacks {needle}");
    }
}
