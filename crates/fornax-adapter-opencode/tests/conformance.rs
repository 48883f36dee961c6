//! Every golden fixture through the conformance suite and an insta snapshot.

use std::path::Path;

use fornax_adapter_conformance::{
    check_adapter, check_document_tree, load_fixtures, replay, Fixture, Replay,
};
use fornax_adapter_opencode::{OpencodePluginAdapter, OpencodeStorageAdapter};

fn fixtures() -> Vec<(String, Fixture)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let fixtures = load_fixtures(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(fixtures.len() >= 8, "fixtures went missing");
    fixtures
}

fn run(fixture: &Fixture) -> Replay {
    match fixture.adapter.as_deref() {
        Some("opencode-plugin") => replay(&mut OpencodePluginAdapter::default(), fixture),
        Some("opencode-storage") => replay(&mut OpencodeStorageAdapter::default(), fixture),
        other => panic!("fixture names no opencode adapter: {other:?}"),
    }
}

#[test]
fn fixtures_satisfy_the_conformance_contract() {
    for (name, fixture) in fixtures() {
        let report = match fixture.adapter.as_deref() {
            Some("opencode-plugin") => {
                check_adapter(OpencodePluginAdapter::default, &fixture.native_events)
            }
            _ => check_adapter(OpencodeStorageAdapter::default, &fixture.native_events),
        };
        assert!(report.is_ok(), "{name}: {:?}", report.violations);
        assert!(
            report.messages > 0 || name.starts_with("unrecognized_"),
            "{name}: produced nothing"
        );
    }
}

#[test]
fn fixtures_replay_and_snapshot() {
    for (name, fixture) in fixtures() {
        let replay = run(&fixture);
        if name.starts_with("unrecognized_future_") {
            assert!(
                !replay.unrecognized().is_empty(),
                "{name} must come back Unrecognized"
            );
        } else {
            assert!(
                replay.unrecognized().is_empty(),
                "{name}: {:?}",
                replay.unrecognized()
            );
        }
        insta::assert_json_snapshot!(name, replay.to_snapshot());
    }
}

#[test]
fn the_storage_tree_plan_is_total_and_a_partition() {
    let storage = fornax_adapter_opencode::descriptors()
        .into_iter()
        .find(|d| d.name == "opencode-storage")
        .unwrap();
    let tree = storage.tree.expect("storage declares its tree");
    let natives: Vec<_> = fixtures()
        .into_iter()
        .filter(|(_, f)| f.adapter.as_deref() == Some("opencode-storage"))
        .flat_map(|(_, f)| f.native_events)
        .collect();
    let members = [
        "session/proj/ses_1.json",
        "message/ses_1/msg_1.json",
        "part/msg_1/prt_1.json",
        "part/prt_1.json",
        "todo/ses_1.json",
        "session_share/ses_1.json",
        "project/proj.json",
        "part/prt_1",
        "message/msg_1",
        "session/ses_1",
        "migration",
    ];
    let report = check_document_tree(&tree, &natives, &members);
    report.assert_ok();
    assert!(report.messages > 0, "some documents were grouped");
}
