//! Golden fixtures (written by us, in the shapes of the Cursor generation each names): every
//! one replays to its snapshot, passes the conformance suite, is sniffed by its own transport
//! and resumes from a checkpoint to the same messages; the `unrecognized_future_*` ones come
//! back `Unrecognized`.

use std::path::PathBuf;

use fornax_adapter_conformance::{
    check_adapter, check_checkpoint_resume, check_recognition, golden_fixtures, replay, Fixture,
};
use fornax_adapter_cursor::{
    descriptors, is_cursor_hook, is_text_transcript_line, is_transcript_line, CursorHookAdapter,
    CursorTextAdapter, CursorTranscriptAdapter, HOOK_ADAPTER, TEXT_ADAPTER, TRANSCRIPT_ADAPTER,
};
use fornax_types::AgentAdapter;

fn fixtures() -> Vec<(String, Fixture)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    golden_fixtures(&dir, 6).unwrap()
}

fn adapter_for(fixture: &Fixture) -> Box<dyn AgentAdapter> {
    match fixture.adapter.as_deref() {
        Some(TRANSCRIPT_ADAPTER) => Box::new(CursorTranscriptAdapter::default()),
        Some(TEXT_ADAPTER) => Box::new(CursorTextAdapter::default()),
        Some(HOOK_ADAPTER) => Box::new(CursorHookAdapter::default()),
        other => panic!("fixture names no Cursor adapter: {other:?}"),
    }
}

#[test]
fn fixtures_replay_to_their_snapshots() {
    for (name, fixture) in fixtures() {
        assert_eq!(fixture.provider, "cursor", "{name}");
        let replayed = replay(adapter_for(&fixture).as_mut(), &fixture);
        check_recognition(&name, &replayed).unwrap();
        insta::assert_json_snapshot!(name, replayed.to_snapshot());
    }
}

#[test]
fn fixtures_pass_the_conformance_suite() {
    for (name, fixture) in fixtures() {
        let events = &fixture.native_events;
        let report = match fixture.adapter.as_deref() {
            Some(TRANSCRIPT_ADAPTER) => check_adapter(CursorTranscriptAdapter::default, events),
            Some(TEXT_ADAPTER) => check_adapter(CursorTextAdapter::default, events),
            _ => check_adapter(CursorHookAdapter::default, events),
        };
        assert!(report.is_ok(), "{name}: {:#?}", report.violations);
    }
}

#[test]
fn each_transport_sniffs_its_own_records_only() {
    for (name, fixture) in fixtures() {
        let first = &fixture.native_events[0];
        let which = fixture.adapter.as_deref();
        assert_eq!(
            is_transcript_line(first),
            which == Some(TRANSCRIPT_ADAPTER),
            "{name}"
        );
        assert_eq!(
            is_text_transcript_line(first),
            which == Some(TEXT_ADAPTER),
            "{name}"
        );
        assert_eq!(is_cursor_hook(first), which == Some(HOOK_ADAPTER), "{name}");
    }
}

/// Reading in two parts with a checkpoint between gives the messages of one pass.
#[test]
fn checkpoint_and_resume_continue_where_reading_stopped() {
    for (name, fixture) in fixtures() {
        let n = fixture.native_events.len();
        let make = || adapter_for(&fixture);
        check_checkpoint_resume(&make, &name, &fixture, &[1, n / 2, n - 1]).unwrap();
        assert!(!adapter_for(&fixture).resume(&serde_json::json!({"format": 99})));
    }
}

#[test]
fn descriptors_register_four_transports() {
    let d = descriptors();
    let names: Vec<&str> = d.iter().map(|d| d.name).collect();
    assert_eq!(
        names,
        [
            "cursor-transcript",
            "cursor-text",
            "cursor-store",
            "cursor-hook"
        ]
    );
    assert!(d[1]
        .framing
        .admits("/h/.cursor/projects/p/agent-transcripts/x.txt"));
    assert!(!d[1].framing.admits("/h/notes/x.txt"));
    let db = d[2].tree.and_then(|t| t.database).unwrap();
    assert_eq!(db.file_names, &["store.db"]);
    for desc in &d {
        assert_eq!((desc.create)().provider(), fornax_types::Provider::Cursor);
    }
}
