//! Golden fixtures: every fixture passes the conformance suite, replays to its snapshot, and
//! the `unrecognized_future_*` probes come back `Unrecognized`.

use std::path::Path;

use fornax_adapter_codex::{descriptors, CodexAdapter, CodexHistoryAdapter, HISTORY_ADAPTER};
use fornax_adapter_conformance::{check_adapter, load_fixtures, replay};
use fornax_types::{AgentAdapter, IngestMessage, NativeRecord, RecordRef, SourceId};

fn fixtures() -> Vec<(String, fornax_adapter_conformance::Fixture)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let fixtures = load_fixtures(&dir).expect("fixtures load");
    assert!(fixtures.len() >= 10, "expected the golden fixture set");
    fixtures
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
        if name.starts_with("unrecognized_future_") {
            assert!(
                !replayed.unrecognized().is_empty(),
                "{name} must come back Unrecognized"
            );
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
        let hint = fixture.session_hint.clone().unwrap_or_default();
        let source = SourceId::new("resume");
        let run =
            |adapter: &mut CodexAdapter, range: std::ops::Range<usize>| -> Vec<IngestMessage> {
                let mut out = Vec::new();
                for i in range {
                    let record = RecordRef::new(source.clone(), i as u64);
                    let native = NativeRecord::new(&record, &fixture.native_events[i]);
                    out.extend(adapter.normalize(&hint, &native).messages());
                }
                out
            };
        let n = fixture.native_events.len();
        let mut whole = CodexAdapter::default();
        let expected = run(&mut whole, 0..n);
        for split in [n / 3, n / 2, n.saturating_sub(1)] {
            let mut first = CodexAdapter::default();
            let mut got = run(&mut first, 0..split);
            let snapshot = first.checkpoint().expect("checkpoint");
            let text = serde_json::to_string(&snapshot).expect("checkpoint serializes");
            let mut second = CodexAdapter::default();
            assert!(
                second.resume(&serde_json::from_str(&text).unwrap()),
                "{name}: resume refused"
            );
            got.extend(run(&mut second, split..n));
            assert_eq!(got, expected, "{name}: resumed at {split} differs");
        }
    }
}

#[test]
fn resume_refuses_what_it_does_not_understand() {
    let mut adapter = CodexAdapter::default();
    assert!(!adapter.resume(&serde_json::json!({"schema": 99, "state": {}})));
    assert!(!adapter.resume(&serde_json::json!({"schema": 1, "state": "nope"})));
    assert!(!adapter.resume(&serde_json::json!(null)));
}
