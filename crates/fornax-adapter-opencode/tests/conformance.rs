//! Every golden fixture through the conformance suite and an insta snapshot.

use std::path::Path;

use fornax_adapter_conformance::{check_adapter, load_fixtures, replay, Fixture, Replay};
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
