//! What every adapter's golden-fixture test checks the same way: the fixture set is there, a
//! fixture meets its name's promise, and a checkpoint taken part-way resumes to the messages of
//! one uninterrupted pass.

use std::ops::Range;
use std::path::Path;

use fornax_types::{AgentAdapter, IngestMessage, NativeRecord, RecordRef, SourceId};

use crate::fixtures::{load_fixtures, Fixture, FixtureError, Replay};

/// The fixtures under `dir`; fewer than `at_least` (a set lost or half-copied) is an error.
pub fn golden_fixtures(dir: &Path, at_least: usize) -> Result<Vec<(String, Fixture)>, String> {
    let fixtures = load_fixtures(dir).map_err(|e: FixtureError| e.to_string())?;
    if fixtures.len() < at_least {
        return Err(format!(
            "{}: {} golden fixture(s), expected at least {at_least}",
            dir.display(),
            fixtures.len()
        ));
    }
    Ok(fixtures)
}

/// A fixture named `unrecognized_future_*` must come back `Unrecognized`; any other must not.
pub fn check_recognition(name: &str, replay: &Replay) -> Result<(), String> {
    let unrecognized = replay.unrecognized();
    match (
        name.starts_with("unrecognized_future_"),
        unrecognized.is_empty(),
    ) {
        (true, true) => Err(format!("{name}: must come back Unrecognized")),
        (false, false) => Err(format!("{name}: unrecognized {unrecognized:?}")),
        _ => Ok(()),
    }
}

/// Normalizes `range` of the fixture's events through `adapter`.
fn normalize(
    adapter: &mut dyn AgentAdapter,
    fixture: &Fixture,
    range: Range<usize>,
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

/// Reading the fixture in two parts, with a checkpoint (through its JSON text) between them,
/// gives the messages of one pass, at each split in `splits` (clamped to the fixture). The
/// end-of-input messages are left out: they depend on where reading stopped.
pub fn check_checkpoint_resume(
    make: &dyn Fn() -> Box<dyn AgentAdapter>,
    name: &str,
    fixture: &Fixture,
    splits: &[usize],
) -> Result<(), String> {
    let n = fixture.native_events.len();
    let expected = normalize(make().as_mut(), fixture, 0..n);
    for &split in splits {
        let split = split.min(n);
        let mut first = make();
        let mut got = normalize(first.as_mut(), fixture, 0..split);
        let checkpoint = first
            .checkpoint()
            .ok_or_else(|| format!("{name}: no checkpoint at {split}"))?;
        let text = serde_json::to_string(&checkpoint)
            .map_err(|e| format!("{name}: checkpoint does not serialize: {e}"))?;
        let state = serde_json::from_str(&text)
            .map_err(|e| format!("{name}: checkpoint does not read back: {e}"))?;
        let mut second = make();
        if !second.resume(&state) {
            return Err(format!(
                "{name}: resume refused its own checkpoint at {split}"
            ));
        }
        got.extend(normalize(second.as_mut(), fixture, split..n));
        if got != expected {
            return Err(format!("{name}: resumed at {split}, the messages differ"));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_future_probe_that_is_understood_breaks_its_promise() {
        let understood = Replay::default();
        assert!(check_recognition("unrecognized_future_kind", &understood).is_err());
        assert!(check_recognition("session_basic", &understood).is_ok());
    }

    #[test]
    fn a_missing_fixture_set_is_named() {
        let empty = std::env::temp_dir().join("fornax-conformance-no-fixtures");
        let _ = std::fs::create_dir_all(&empty);
        let err = golden_fixtures(&empty, 1).unwrap_err();
        assert!(err.contains("expected at least 1"), "{err}");
    }
}
