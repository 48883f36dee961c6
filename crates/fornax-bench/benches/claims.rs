//! Claim extraction over agent final answers (about half of them carry claims).
use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fornax_bench::agent_items;
use fornax_types::SemanticValue;

fn bench_claims(c: &mut Criterion) {
    let items = agent_items(11, 500);
    let bytes: usize = items
        .iter()
        .map(|item| match &item.semantic.value {
            SemanticValue::Text(t) => t.text.len(),
            _ => 0,
        })
        .sum();
    let mut group = c.benchmark_group("claims");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("extract_claims/final_answers", |b| {
        b.iter(|| {
            items
                .iter()
                .map(|item| fornax_verify::extract_claims(black_box(item)).len())
                .sum::<usize>()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_claims);
criterion_main!(benches);
