//! Each adapter's `normalize` over generated native records (parsing excluded: records are
//! parsed once up front, as the pipeline hands adapters a parsed value).
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fornax_bench::{claude_session, codex_rollout, pi_session, split_lines};
use fornax_types::{AdapterDescriptor, NativeRecord, RecordRef, SourceId};
use serde_json::Value;

struct Input {
    records: Vec<(RecordRef, Value, u64)>,
    bytes: u64,
}

fn input(jsonl: &[u8]) -> Input {
    let source = SourceId::new("bench:source");
    let mut records = Vec::new();
    let mut bytes = 0u64;
    for (i, line) in split_lines(jsonl).into_iter().enumerate() {
        if let Ok(value) = serde_json::from_slice::<Value>(line) {
            bytes += line.len() as u64;
            records.push((
                RecordRef::new(source.clone(), i as u64),
                value,
                line.len() as u64,
            ));
        }
    }
    Input { records, bytes }
}

/// The descriptor that claims these records, as the pipeline would choose it.
fn descriptor_for(descriptors: Vec<AdapterDescriptor>, input: &Input) -> Option<AdapterDescriptor> {
    descriptors.into_iter().find(|d| {
        input
            .records
            .iter()
            .take(4)
            .any(|(_, value, _)| (d.sniff)(value))
    })
}

fn normalize_all(descriptor: &AdapterDescriptor, input: &Input) -> usize {
    let mut adapter = (descriptor.create)();
    let mut messages = 0usize;
    for (record, value, byte_len) in &input.records {
        let native = NativeRecord {
            record,
            value,
            byte_len: *byte_len,
            member: None,
            location: None,
        };
        messages += adapter.normalize("bench-session", &native).messages().len();
    }
    messages + adapter.finish().len()
}

fn bench_normalize(c: &mut Criterion) {
    let cases = [
        (
            "claude",
            fornax_adapter_claude::descriptors(),
            claude_session(7, 200),
        ),
        (
            "codex",
            fornax_adapter_codex::descriptors(),
            codex_rollout(7, 200),
        ),
        ("pi", fornax_adapter_pi::descriptors(), pi_session(7, 200)),
    ];
    let mut group = c.benchmark_group("normalize");
    for (name, descriptors, jsonl) in cases {
        let input = input(&jsonl);
        let Some(descriptor) = descriptor_for(descriptors, &input) else {
            continue;
        };
        group.throughput(Throughput::Bytes(input.bytes));
        group.bench_function(format!("{name}/{}", descriptor.name), |b| {
            b.iter(|| black_box(normalize_all(&descriptor, &input)))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_normalize);
criterion_main!(benches);
