//! Golden fixtures (written by us, in the shapes of the Copilot CLI version each names):
//! every one replays to its snapshot, passes the conformance suite, is sniffed by its own
//! transport only, and resumes from a checkpoint to the same messages; the
//! `unrecognized_future_*` ones come back `Unrecognized`.

use std::path::PathBuf;

use fornax_adapter_conformance::{
    check_adapter, check_checkpoint_resume, check_recognition, golden_fixtures, replay, Fixture,
};
use fornax_adapter_copilot::{
    descriptors, is_copilot_event, is_copilot_hook, CopilotEventsAdapter, CopilotHookAdapter,
    EVENTS_ADAPTER, HOOK_ADAPTER,
};
use fornax_types::AgentAdapter;

fn fixtures() -> Vec<(String, Fixture)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    golden_fixtures(&dir, 6).unwrap()
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
        check_recognition(&name, &replayed).unwrap();
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

/// Reading in two parts with a checkpoint between gives the messages of one pass.
#[test]
fn checkpoint_and_resume_continue_where_reading_stopped() {
    for (name, fixture) in fixtures() {
        let n = fixture.native_events.len();
        let make = || adapter_for(&fixture);
        check_checkpoint_resume(&make, &name, &fixture, &[1, n / 2, n - 1]).unwrap();
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
