//! The generated inputs are what the benchmarks claim to measure: valid native records that
//! the matching adapter recognizes and turns into canonical messages, the same every time.
use fornax_bench::{agent_texts, claude_session, codex_rollout, pi_session, split_lines};
use fornax_types::{AdapterDescriptor, NativeRecord, RecordRef, SourceId};
use serde_json::Value;

fn parsed(jsonl: &[u8]) -> Vec<Value> {
    split_lines(jsonl)
        .into_iter()
        .map(|line| serde_json::from_slice(line).expect("every generated line is one JSON value"))
        .collect()
}

fn messages(descriptors: Vec<AdapterDescriptor>, values: &[Value]) -> (String, usize) {
    let descriptor = descriptors
        .into_iter()
        .find(|d| (d.sniff)(&values[0]))
        .expect("the first record is recognized by one of the provider's descriptors");
    let mut adapter = (descriptor.create)();
    let source = SourceId::new("test:source");
    let mut count = 0;
    for (i, value) in values.iter().enumerate() {
        let record = RecordRef::new(source.clone(), i as u64);
        count += adapter
            .normalize("s", &NativeRecord::new(&record, value))
            .messages()
            .len();
    }
    count += adapter.finish().len();
    (descriptor.name.to_string(), count)
}

#[test]
fn claude_records_normalize() {
    let values = parsed(&claude_session(1, 5));
    assert_eq!(values.len(), 5 * 9);
    let (name, count) = messages(fornax_adapter_claude::descriptors(), &values);
    assert_eq!(name, "claude-transcript");
    assert!(
        count >= values.len(),
        "{count} messages from {} records",
        values.len()
    );
}

#[test]
fn codex_records_normalize() {
    let values = parsed(&codex_rollout(1, 5));
    assert_eq!(values.len(), 1 + 5 * 15);
    let (name, count) = messages(fornax_adapter_codex::descriptors(), &values);
    assert_eq!(name, "codex-rollout");
    assert!(count >= 5 * 4, "{count} messages");
}

#[test]
fn pi_records_normalize() {
    let values = parsed(&pi_session(1, 5));
    assert_eq!(values.len(), 2 + 5 * 8);
    let (_, count) = messages(fornax_adapter_pi::descriptors(), &values);
    assert!(count >= 5 * 4, "{count} messages");
}

#[test]
fn generation_is_deterministic_and_seeded() {
    assert_eq!(claude_session(3, 4), claude_session(3, 4));
    assert_eq!(codex_rollout(3, 4), codex_rollout(3, 4));
    assert_eq!(pi_session(3, 4), pi_session(3, 4));
    assert_ne!(claude_session(3, 4), claude_session(4, 4));
    assert_eq!(agent_texts(9, 50), agent_texts(9, 50));
}

#[test]
fn agent_texts_mix_claims_and_plain_prose() {
    let texts = agent_texts(2, 200);
    let with_claims = texts
        .iter()
        .filter(|t| t.contains("pass") || t.contains("committed") || t.contains("clean"))
        .count();
    assert!(
        with_claims > 40 && with_claims < 190,
        "{with_claims} of 200 carry a claim"
    );
}
