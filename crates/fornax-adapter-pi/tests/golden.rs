//! Golden fixtures (written by us, pinned to the Pi version whose shape they mirror): each is
//! replayed through a fresh adapter and snapshotted, and the whole set runs through the
//! conformance suite.

use std::path::PathBuf;

use fornax_adapter_conformance::{
    check_adapter, check_recognition, golden_fixtures, replay, Fixture,
};
use fornax_adapter_pi::{is_pi_record, PiAdapter, PI_SESSION};

fn fixtures() -> Vec<(String, Fixture)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    golden_fixtures(&dir, 1).unwrap()
}

#[test]
fn fixtures_replay_to_their_snapshots() {
    for (name, fixture) in fixtures() {
        assert_eq!(fixture.provider, "pi", "{name}");
        assert_eq!(fixture.adapter.as_deref(), Some(PI_SESSION), "{name}");
        let replay = replay(&mut PiAdapter::default(), &fixture);
        check_recognition(&name, &replay).unwrap();
        insta::assert_json_snapshot!(name, replay.to_snapshot());
    }
}

#[test]
fn fixtures_pass_the_conformance_suite() {
    for (name, fixture) in fixtures() {
        let report = check_adapter(PiAdapter::default, &fixture.native_events);
        assert!(report.is_ok(), "{name}: {:#?}", report.violations);
    }
}

#[test]
fn every_fixture_header_is_sniffed() {
    for (name, fixture) in fixtures() {
        assert!(
            is_pi_record(&fixture.native_events[0]),
            "{name}: header not recognized"
        );
    }
}
