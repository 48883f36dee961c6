//! Golden fixtures (written by us, pinned to the Gemini CLI version whose shape they mirror):
//! each is replayed through a fresh adapter and snapshotted, and each runs through the
//! conformance suite.

use std::path::PathBuf;

use fornax_adapter_conformance::{
    check_adapter, check_recognition, golden_fixtures, replay, Fixture,
};
use fornax_adapter_gemini::{
    is_gemini_chat_document, is_gemini_jsonl_record, GeminiAdapter, GEMINI_CHAT_JSON,
    GEMINI_CHAT_JSONL,
};

fn fixtures() -> Vec<(String, Fixture)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    golden_fixtures(&dir, 1).unwrap()
}

#[test]
fn fixtures_replay_to_their_snapshots() {
    for (name, fixture) in fixtures() {
        assert_eq!(fixture.provider, "gemini", "{name}");
        let replay = replay(&mut GeminiAdapter::default(), &fixture);
        check_recognition(&name, &replay).unwrap();
        insta::assert_json_snapshot!(name, replay.to_snapshot());
    }
}

#[test]
fn fixtures_pass_the_conformance_suite() {
    for (name, fixture) in fixtures() {
        let report = check_adapter(GeminiAdapter::default, &fixture.native_events);
        assert!(report.is_ok(), "{name}: {:#?}", report.violations);
    }
}

#[test]
fn every_fixture_is_sniffed_by_its_own_descriptor_only() {
    for (name, fixture) in fixtures() {
        let first = &fixture.native_events[0];
        match fixture.adapter.as_deref() {
            Some(GEMINI_CHAT_JSON) => {
                assert!(is_gemini_chat_document(first), "{name}");
                assert!(!is_gemini_jsonl_record(first), "{name}");
            }
            Some(GEMINI_CHAT_JSONL) => {
                assert!(is_gemini_jsonl_record(first), "{name}");
                assert!(!is_gemini_chat_document(first), "{name}");
            }
            other => panic!("{name}: unknown adapter {other:?}"),
        }
    }
}
