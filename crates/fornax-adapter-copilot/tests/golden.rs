//! Golden fixtures (written by us, in the shapes of the Copilot CLI version each names):
//! every one replays to its snapshot, passes the conformance suite, is sniffed by its own
//! transport only, and resumes from a checkpoint to the same messages; the
//! `unrecognized_future_*` ones come back `Unrecognized`.

use std::path::PathBuf;

use fornax_adapter_conformance::{check_adapter, load_fixtures, replay, Fixture};
use fornax_adapter_copilot::{
    descriptors, is_copilot_event, is_copilot_hook, CopilotEventsAdapter, CopilotHookAdapter,
    EVENTS_ADAPTER, HOOK_ADAPTER,
};
use fornax_types::{AgentAdapter, IngestMessage, NativeRecord, RecordRef, SourceId};

fn fixtures() -> Vec<(String, Fixture)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let fixtures = load_fixtures(&dir).expect("fixtures load");
    assert!(fixtures.len() >= 6, "expected the golden fixture set");
    fixtures
}

fn adapter_for(fixture: &Fixture) -> Box<dyn AgentAdapter> {
    match fixture.adapter.as_deref() {
        Some(EVENTS_ADAPTER) => Box::new(CopilotEventsAdapter::default()),
        Some(HOOK_ADAPTER) => Box::new(CopilotHookAdapter::default()),
        other => panic!("fixture names no Copilot adapter: {other:?}"),
    }
}

#[test]
fn fixtures_replay_to_their_snapshots() {
    for (name, fixture) in fixtures() {
        assert_eq!(fixture.provider, "copilot", "{name}");
        let replayed = replay(adapter_for(&fixture).as_mut(), &fixture);
        if name.starts_with("unrecognized_future_") {
            assert!(!replayed.unrecognized().is_empty(), "{name}");
        } else {
            assert!(
                replayed.unrecognized().is_empty(),
                "{name}: {:?}",
                replayed.unrecognized()
            );
        }
        insta::assert_json_snapshot!(name, replayed.to_snapshot());
    }
}

#[test]
fn fixtures_pass_the_conformance_suite() {
    for (name, fixture) in fixtures() {
        let report = match fixture.adapter.as_deref() {
            Some(HOOK_ADAPTER) => {
                check_adapter(CopilotHookAdapter::default, &fixture.native_events)
            }
            _ => check_adapter(CopilotEventsAdapter::default, &fixture.native_events),
        };
        assert!(report.is_ok(), "{name}: {:#?}", report.violations);
    }
}

#[test]
fn each_transport_sniffs_only_its_own_records() {
    for (name, fixture) in fixtures() {
        let first = &fixture.native_events[0];
        let hook = fixture.adapter.as_deref() == Some(HOOK_ADAPTER);
        assert_eq!(is_copilot_hook(first), hook, "{name}");
        assert_eq!(is_copilot_event(first), !hook, "{name}");
    }
}

fn run(
    adapter: &mut dyn AgentAdapter,
    fixture: &Fixture,
    range: std::ops::Range<usize>,
) -> Vec<IngestMessage> {
    let hint = fixture.session_hint.clone().unwrap_or_default();
    let source = SourceId::new("resume");
    let mut out = Vec::new();
    for i in range {
        let record = RecordRef::new(source.clone(), i as u64);
        let native = NativeRecord::new(&record, &fixture.native_events[i]);
        out.extend(adapter.normalize(&hint, &native).messages());
    }
    out
}

/// Reading in two halves with a checkpoint between gives the messages of one pass (the
/// end-of-input messages aside, which depend on where reading stopped).
#[test]
fn checkpoint_and_resume_continue_where_reading_stopped() {
    for (name, fixture) in fixtures() {
        let n = fixture.native_events.len();
        let expected = run(adapter_for(&fixture).as_mut(), &fixture, 0..n);
        for split in [1, n / 2, n - 1] {
            let mut first = adapter_for(&fixture);
            let mut got = run(first.as_mut(), &fixture, 0..split);
            let snapshot: serde_json::Value =
                serde_json::from_str(&first.checkpoint().expect("checkpoint").to_string()).unwrap();
            let mut second = adapter_for(&fixture);
            assert!(second.resume(&snapshot), "{name}: resume refused");
            got.extend(run(second.as_mut(), &fixture, split..n));
            assert_eq!(got, expected, "{name}: resumed at {split} differs");
        }
        let mut a = adapter_for(&fixture);
        assert!(!a.resume(&serde_json::json!({"format": 99, "state": {}})));
        assert!(!a.resume(&serde_json::Value::Null));
    }
}

#[test]
fn descriptors_register_both_transports() {
    let d = descriptors();
    assert_eq!(d.len(), 2);
    assert_eq!(d[0].name, EVENTS_ADAPTER);
    assert_eq!(d[0].default_roots, &[".copilot/session-state"]);
    assert_eq!(d[0].file_suffixes, &[".jsonl"]);
    assert_eq!(d[1].name, HOOK_ADAPTER);
    assert_eq!(d[1].transport, fornax_types::SourceKind::HookStream);
    for desc in &d {
        assert_eq!((desc.create)().provider(), fornax_types::Provider::Copilot);
    }
}
