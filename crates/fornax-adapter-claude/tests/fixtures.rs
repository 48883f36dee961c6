//! Golden fixtures: each one replays through its transport's adapter, passes the conformance
//! suite, meets its name's promise (`unrecognized_future_*` probes come back Unrecognized,
//! every other fixture never does) and matches its reviewed snapshot.

use std::path::PathBuf;

use fornax_adapter_claude::{
    ClaudeHookAdapter, ClaudeTranscriptAdapter, HOOK_ADAPTER, TRANSCRIPT_ADAPTER,
};
use fornax_adapter_conformance::{check_adapter, load_fixtures, replay, Fixture, Replay};

fn fixtures(sub: &str) -> Vec<(String, Fixture)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(sub);
    let fixtures = load_fixtures(&dir).unwrap_or_else(|e| panic!("{e}"));
    assert!(!fixtures.is_empty(), "no fixtures in {}", dir.display());
    fixtures
}

fn check_promise(name: &str, replay: &Replay) {
    let unrecognized = replay.unrecognized();
    if name.starts_with("unrecognized_future_") {
        assert!(
            !unrecognized.is_empty(),
            "{name} must come back Unrecognized"
        );
    } else {
        assert!(
            unrecognized.is_empty(),
            "{name}: real shapes came back Unrecognized: {unrecognized:?}"
        );
    }
}

#[test]
fn transcript_fixtures_replay_conform_and_snapshot() {
    for (name, fixture) in fixtures("transcript") {
        assert_eq!(
            fixture.adapter.as_deref(),
            Some(TRANSCRIPT_ADAPTER),
            "{name}"
        );
        assert_eq!(fixture.provider, "claude-code", "{name}");
        let replay = replay(&mut ClaudeTranscriptAdapter::default(), &fixture);
        check_promise(&name, &replay);
        check_adapter(ClaudeTranscriptAdapter::default, &fixture.native_events).assert_ok();
        insta::assert_json_snapshot!(format!("transcript__{name}"), replay.to_snapshot());
    }
}

#[test]
fn hook_fixtures_replay_conform_and_snapshot() {
    for (name, fixture) in fixtures("hooks") {
        assert_eq!(fixture.adapter.as_deref(), Some(HOOK_ADAPTER), "{name}");
        assert_eq!(fixture.provider, "claude-code", "{name}");
        let replay = replay(&mut ClaudeHookAdapter::default(), &fixture);
        check_promise(&name, &replay);
        check_adapter(ClaudeHookAdapter::default, &fixture.native_events).assert_ok();
        insta::assert_json_snapshot!(format!("hooks__{name}"), replay.to_snapshot());
    }
}
