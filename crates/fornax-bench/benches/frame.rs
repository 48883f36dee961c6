//! Record framing: `LineFramer` streaming complete lines out of generated native JSONL.
use std::hint::black_box;
use std::io::Cursor;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fornax_bench::{claude_session, codex_rollout, pi_session};
use fornax_ingest::frame::{Framed, LineFramer};

const MAX_RECORD: usize = 64 * 1024 * 1024;

fn corpus() -> Vec<u8> {
    let mut bytes = Vec::new();
    for seed in 0..8 {
        bytes.extend(claude_session(seed, 40));
        bytes.extend(codex_rollout(seed, 40));
        bytes.extend(pi_session(seed, 40));
    }
    bytes
}

fn frame_all(bytes: &[u8], max_record: usize) -> (usize, u64) {
    let mut framer = LineFramer::new(Cursor::new(bytes), 0, max_record);
    let mut lines = 0usize;
    let mut sum = 0u64;
    while let Ok(Some(framed)) = framer.next_line() {
        lines += 1;
        if let Framed::Line(line) = framed {
            sum = sum.wrapping_add(line.bytes.len() as u64);
        }
    }
    (lines, sum)
}

fn bench_frame(c: &mut Criterion) {
    let bytes = corpus();
    let mut group = c.benchmark_group("frame");
    group.throughput(Throughput::Bytes(bytes.len() as u64));
    group.bench_function("line_framer/mixed_jsonl", |b| {
        b.iter(|| black_box(frame_all(black_box(&bytes), MAX_RECORD)))
    });
    // Every line longer than the limit: the skip path that never buffers.
    group.bench_function("line_framer/all_oversized", |b| {
        b.iter(|| black_box(frame_all(black_box(&bytes), 64)))
    });
    group.finish();
}

criterion_group!(benches, bench_frame);
criterion_main!(benches);
