//! Claim extraction throughput.
//!
//! * `final_answers`: short closing summaries (about half of them carry claims).
//! * `realistic_mix`: about 4 MiB of assistant texts as agents write them — commentary between
//!   tool calls, Markdown summaries with headings, bullets, checklists and tables, inline code
//!   and fenced code blocks, pasted test logs, claims several to a sentence, hedges, plans and
//!   admitted failures, and claims in the nine languages the extractor reads.
//!
//! With `FORNAX_CLAIMS_DUMP=<file>` the bench measures nothing: it writes every assertion
//! (claims and non-claims) and every claim it extracts from both sets to that file, so that
//! two builds of the extractor can be compared line by line (`bench/claims-diff.sh`). With
//! `FORNAX_CLAIMS_CPU=<file>` it extracts each set five times and writes the median on-CPU
//! time and throughput, which other processes sharing the cores do not inflate.
use std::fmt::Write as _;
use std::hint::black_box;

use criterion::{criterion_group, Criterion, Throughput};
use fornax_bench::{agent_items, Rng};
use fornax_types::{
    EvidenceStrength, Item, Provider, RecordRef, Role, Semantic, SemanticValue, SessionRef,
    SourceId, TextValue,
};

/// Size of the realistic mix, in bytes of assistant text.
const MIX_BYTES: usize = 4 << 20;

const COMMENTARY: &[&str] = &[
    "Let me look at how the retry loop handles a closed connection.",
    "I'll read `src/queue/worker.rs` first to see where the backoff is computed.",
    "Running the tests to see where we stand.",
    "The failure comes from the timezone fixture, not from the parser.",
    "Now the lint, then I'll commit.",
    "Checking whether `parse_header` is called anywhere else.",
    "That edit didn't apply; the file has tabs. Reading it again.",
    "Looks like the build cache is stale; rebuilding.",
];

const CLAIMS: &[&str] = &[
    "All tests pass.",
    "`cargo test -p ledger` passes: 48 tests, 0 failed.",
    "The parser tests in `tests/test_parse.py` pass.",
    "`npm run build` succeeds and `npm run lint` is clean.",
    "Committed the fix as `4f2a9c1` and pushed it to `origin/fix-retry`.",
    "Updated `src/retry.ts:42` to cap the delay.",
    "Deleted `scripts/old_release.sh` and removed `setup.cfg`.",
    "Typecheck is clean.",
    "`go vet ./...` reports nothing and the `api` package builds.",
    "Created `docs/retry.md` with the new defaults.",
    "The `billing` tests pass (14 of 14).",
    "`ruff check .` reports no issues and `mypy src` is clean.",
];

const NON_CLAIMS: &[&str] = &[
    "Most of the tests pass; two still fail in the cron parser.",
    "I haven't run the integration suite yet.",
    "Next I would add a test for the leap-day case.",
    "Should I also bump the version?",
    "If the CI job passes, we can merge.",
    "The remaining failures are unrelated to this change.",
    "You could run `make e2e` to check the browser flows.",
];

const FOREIGN: &[&str] = &[
    "已更新 `src/i18n.ts`。所有测试都通过了。",
    "已新增 `docs/zh-TW.md`。建置成功。",
    "`src/format.py` を修正しました。テストはすべて通りました。",
    "빌드가 성공했습니다. 테스트가 모두 통과했습니다.",
    "Actualicé `store/cache.go`. Las pruebas del paquete `store` pasan.",
    "Atualizei `app/pedido.go`. O build passou.",
    "J'ai supprimé `alt.cfg`. Tous les tests passent.",
    "Ich habe `app/zeit.py` angepasst. Alle Tests bestehen.",
    "Создал файл `src/limits.ts`. Все тесты проходят.",
];

const FEATURES: &[&str] = &[
    "✅ `exportCsv()` – adds CSV export",
    "- [x] Retry with jitter",
    "- [ ] Document the new flag",
    "✅ All tests pass",
    "- Moved the config loader into `src/config/`",
];

const LOG: &str = "tests/invoicing/test_rounding.py ............                   [ 29%]\n\
tests/invoicing/test_totals.py .........                                 [ 51%]\n\
tests/shipping/test_zones.py .......F....                                [ 80%]\n\
FAILED tests/shipping/test_zones.py::test_remote - AssertionError\n\
========================= 1 failed, 40 passed in 1.84s =========================\n";

fn commentary(rng: &mut Rng) -> String {
    let mut t = rng.pick(COMMENTARY).to_string();
    if rng.chance(40) {
        t.push(' ');
        t.push_str(&rng.words_around(20, 120));
        t.push('.');
    }
    t
}

fn summary(rng: &mut Rng) -> String {
    let mut t = String::from("## Summary\n\n");
    for _ in 0..=rng.below(4) {
        t.push_str("- ");
        t.push_str(rng.pick(CLAIMS));
        t.push('\n');
    }
    for _ in 0..rng.below(3) {
        t.push_str(rng.pick(FEATURES));
        t.push('\n');
    }
    if rng.chance(30) {
        t.push_str("\n| file | change |\n| --- | --- |\n| `src/retry.ts` | cap the delay |\n");
    }
    t.push('\n');
    t.push_str(&rng.words_around(30, 200));
    t.push_str(". ");
    if rng.chance(60) {
        t.push_str(rng.pick(NON_CLAIMS));
        t.push(' ');
    }
    if rng.chance(35) {
        t.push_str(rng.pick(FOREIGN));
        t.push(' ');
    }
    if rng.chance(25) {
        t.push_str("\n\nThe run ended with:\n\n```\n");
        t.push_str(LOG);
        t.push_str("```\n");
    }
    if rng.chance(20) {
        t.push_str(&format!("\n\n```rust\n{}```\n", rng.code_around(200, 800)));
    }
    t
}

fn realistic_mix(seed: u64) -> Vec<Item> {
    let mut rng = Rng::new(seed);
    let session = SessionRef::new(Provider::ClaudeCode, "bench-mix");
    let source = SourceId::new("bench:mix");
    let mut items = Vec::new();
    let mut bytes = 0;
    while bytes < MIX_BYTES {
        let i = items.len();
        let (role, text) = if rng.chance(70) {
            (Role::AgentCommentary, commentary(&mut rng))
        } else {
            (Role::AgentFinalAnswer, summary(&mut rng))
        };
        bytes += text.len();
        items.push(Item {
            session: session.clone(),
            key: format!("mix-{i}"),
            loop_position: Some(i as u32),
            at: None,
            semantic: Semantic::new(
                role,
                SemanticValue::Text(TextValue::full(text)),
                EvidenceStrength::Structural,
            ),
            records: vec![RecordRef::new(source.clone(), i as u64)],
        });
    }
    items
}

fn text_bytes(items: &[Item]) -> usize {
    items
        .iter()
        .map(|item| match &item.semantic.value {
            SemanticValue::Text(t) => t.text.len(),
            _ => 0,
        })
        .sum()
}

fn extract_all(items: &[Item]) -> usize {
    items
        .iter()
        .map(|item| fornax_verify::extract_claims(black_box(item)).len())
        .sum()
}

fn bench_claims(c: &mut Criterion) {
    let mut group = c.benchmark_group("claims");
    let answers = agent_items(11, 500);
    group.throughput(Throughput::Bytes(text_bytes(&answers) as u64));
    group.bench_function("extract_claims/final_answers", |b| {
        b.iter(|| extract_all(&answers))
    });
    let mix = realistic_mix(12);
    group.throughput(Throughput::Bytes(text_bytes(&mix) as u64));
    group.sample_size(10);
    group.bench_function("extract_claims/realistic_mix", |b| {
        b.iter(|| extract_all(&mix))
    });
    group.finish();
}

/// Every assertion and claim of both sets, one text after another, as debug lines.
fn dump(path: &str) -> std::io::Result<()> {
    let mut out = String::new();
    for (set, items) in [
        ("final_answers", agent_items(11, 500)),
        ("realistic_mix", realistic_mix(12)),
    ] {
        for item in &items {
            let _ = writeln!(out, "## {set} {}", item.key);
            if let SemanticValue::Text(t) = &item.semantic.value {
                for a in fornax_verify::assertions(&t.text) {
                    let _ = writeln!(out, "assertion {a:?}");
                }
            }
            for c in fornax_verify::extract_claims(item) {
                let _ = writeln!(out, "claim {c:?}");
            }
        }
    }
    std::fs::write(path, out)
}

/// On-CPU time of this thread, in nanoseconds (`/proc/thread-self/schedstat`): unlike wall
/// time, it does not grow when other processes share the cores.
fn cpu_ns() -> std::io::Result<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat")?;
    stat.split_whitespace()
        .next()
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("unreadable schedstat: {stat:?}")))
}

/// Each set extracted `runs` times; per set, the median on-CPU time of one pass and the
/// throughput it gives, as lines of text.
fn cpu_report(runs: usize) -> std::io::Result<String> {
    let mut out = String::new();
    for (set, items) in [
        ("final_answers", agent_items(11, 500)),
        ("realistic_mix", realistic_mix(12)),
    ] {
        let bytes = text_bytes(&items);
        let mut times = Vec::with_capacity(runs);
        extract_all(&items);
        for _ in 0..runs {
            let start = cpu_ns()?;
            black_box(extract_all(&items));
            times.push(cpu_ns()? - start);
        }
        times.sort_unstable();
        let median = times[times.len() / 2] as f64 / 1e9;
        let _ = writeln!(
            out,
            "{set}: {bytes} B, {runs} runs, median on-CPU {median:.4} s, {:.2} MiB/s",
            bytes as f64 / median / (1024.0 * 1024.0)
        );
    }
    Ok(out)
}

criterion_group!(benches, bench_claims);

fn main() -> std::io::Result<()> {
    if let Ok(path) = std::env::var("FORNAX_CLAIMS_DUMP") {
        return dump(&path)
            .map_err(|e| std::io::Error::new(e.kind(), format!("cannot write {path}: {e}")));
    }
    if let Ok(path) = std::env::var("FORNAX_CLAIMS_CPU") {
        return cpu_report(5).and_then(|report| std::fs::write(&path, report));
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
    Ok(())
}
