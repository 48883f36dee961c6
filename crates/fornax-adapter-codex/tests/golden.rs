//! Golden fixtures: every fixture passes the conformance suite, replays to its snapshot, and
//! the `unrecognized_future_*` probes come back `Unrecognized`.

use std::path::Path;

use fornax_adapter_codex::{descriptors, CodexAdapter, CodexHistoryAdapter, HISTORY_ADAPTER};
use fornax_adapter_conformance::{
    check_adapter, check_checkpoint_resume, check_recognition, golden_fixtures, replay,
};
use fornax_types::AgentAdapter;

fn fixtures() -> Vec<(String, fornax_adapter_conformance::Fixture)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    golden_fixtures(&dir, 10).unwrap()
}

#[test]
fn every_fixture_passes_the_conformance_suite() {
    for (name, fixture) in fixtures() {
        assert_eq!(fixture.provider, "codex", "{name}");
        if is_history(&fixture) {
            let report = check_adapter(CodexHistoryAdapter::default, &fixture.native_events);
            assert!(report.is_ok(), "{name}: {:?}", report.violations);
            continue;
        }
        assert_eq!(fixture.adapter.as_deref(), Some("codex-rollout"), "{name}");
        let report = check_adapter(CodexAdapter::default, &fixture.native_events);
        if !report.is_ok() {
            panic!("{name}: {:?}", report.violations);
        }
    }
}

#[test]
fn golden_fixtures_replay_to_their_snapshots() {
    for (name, fixture) in fixtures() {
        let replayed = if is_history(&fixture) {
            replay(&mut CodexHistoryAdapter::default(), &fixture)
        } else {
            replay(&mut CodexAdapter::default(), &fixture)
        };
        check_recognition(&name, &replayed).unwrap();
        insta::assert_json_snapshot!(name, replayed.to_snapshot());
    }
}

#[test]
fn every_fixture_record_is_sniffed_as_codex() {
    let sniff = descriptors()[0].sniff;
    let sniff_history = descriptors()[1].sniff;
    for (name, fixture) in fixtures() {
        if is_history(&fixture) {
            assert!(fixture.native_events.iter().all(sniff_history), "{name}");
            assert!(!fixture.native_events.iter().any(sniff), "{name}");
            continue;
        }
        if name == "unrecognized_future_top_level" {
            // A future top-level type is not claimed from one line alone.
            continue;
        }
        let first = &fixture.native_events[0];
        assert!(sniff(first), "{name}: first record not recognized");
    }
}

#[test]
fn descriptor_registers_the_rollout_format() {
    let d = descriptors();
    assert_eq!(d.len(), 2);
    assert_eq!(d[0].name, "codex-rollout");
    assert_eq!(d[1].name, "codex-history");
    assert_eq!(d[1].default_roots, &[".codex"]);
    assert_eq!(
        d[1].file_suffixes,
        &["history.jsonl", "session_index.jsonl"]
    );
    assert_eq!(d[0].default_roots, &[".codex/sessions"]);
    assert_eq!(d[0].file_suffixes, &[".jsonl"]);
    assert_eq!(d[0].framing, fornax_types::Framing::JsonLines);
    let adapter = (d[0].create)();
    assert_eq!(adapter.provider(), fornax_types::Provider::Codex);
}

fn is_history(fixture: &fornax_adapter_conformance::Fixture) -> bool {
    fixture.adapter.as_deref() == Some(HISTORY_ADAPTER)
}

/// Normalizing in two halves with a checkpoint in between gives exactly the messages of one
/// uninterrupted pass.
#[test]
fn checkpoint_and_resume_continue_where_reading_stopped() {
    for (name, fixture) in fixtures() {
        if is_history(&fixture) {
            continue;
        }
        let n = fixture.native_events.len();
        let make = || -> Box<dyn AgentAdapter> { Box::new(CodexAdapter::default()) };
        check_checkpoint_resume(&make, &name, &fixture, &[n / 3, n / 2, n.saturating_sub(1)])
            .unwrap();
    }
}

#[test]
fn resume_refuses_what_it_does_not_understand() {
    let mut adapter = CodexAdapter::default();
    assert!(!adapter.resume(&serde_json::json!({"schema": 99, "state": {}})));
    assert!(!adapter.resume(&serde_json::json!({"schema": 1, "state": "nope"})));
    assert!(!adapter.resume(&serde_json::json!(null)));
}
