//! Helpers shared by the behavior tests.

#![allow(dead_code)]

use std::path::PathBuf;

use fornax_adapter_conformance::{load_fixtures, Fixture};
use fornax_types::{
    AgentAdapter, IngestMessage, Item, Loop, NativeRecord, NormalizationOutcome, RecordRef, Role,
    SourceId,
};
use serde_json::Value;

/// Normalizes `events` in order (positions from `first`), returning every outcome.
pub fn outcomes(
    adapter: &mut dyn AgentAdapter,
    events: &[Value],
    first: u64,
) -> Vec<NormalizationOutcome> {
    let source = SourceId::new("test");
    events
        .iter()
        .enumerate()
        .map(|(i, v)| {
            let record = RecordRef::new(source.clone(), first + i as u64);
            adapter.normalize("hint-session", &NativeRecord::new(&record, v))
        })
        .collect()
}

/// Every message from normalizing `events` in order, then `finish`.
pub fn run(adapter: &mut dyn AgentAdapter, events: &[Value]) -> Vec<IngestMessage> {
    let mut out: Vec<IngestMessage> = outcomes(adapter, events, 0)
        .into_iter()
        .flat_map(NormalizationOutcome::messages)
        .collect();
    out.extend(adapter.finish());
    out
}

pub fn items(msgs: &[IngestMessage]) -> Vec<&Item> {
    msgs.iter()
        .filter_map(|m| match m {
            IngestMessage::Item(i) => Some(i),
            _ => None,
        })
        .collect()
}

pub fn loops(msgs: &[IngestMessage]) -> Vec<&Loop> {
    msgs.iter()
        .filter_map(|m| match m {
            IngestMessage::Loop(l) => Some(l),
            _ => None,
        })
        .collect()
}

/// The last published version of the item with `key` (consumers upsert by key).
pub fn latest<'a>(msgs: &'a [IngestMessage], key: &str) -> &'a Item {
    items(msgs)
        .into_iter()
        .rev()
        .find(|i| i.key == key)
        .unwrap_or_else(|| panic!("no item {key}"))
}

pub fn with_role(msgs: &[IngestMessage], role: Role) -> Vec<&Item> {
    items(msgs)
        .into_iter()
        .filter(|i| i.semantic.role == role)
        .collect()
}

pub fn fixture(sub: &str, name: &str) -> Fixture {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(sub);
    load_fixtures(&dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .into_iter()
        .find(|(n, _)| n == name)
        .map(|(_, f)| f)
        .unwrap_or_else(|| panic!("no fixture {sub}/{name}"))
}

pub fn all_fixtures(sub: &str) -> Vec<(String, Fixture)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(sub);
    load_fixtures(&dir).unwrap_or_else(|e| panic!("{e}"))
}
