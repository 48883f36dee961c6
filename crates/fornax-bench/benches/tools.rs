//! Command classification and tool-output parsing over real tool outputs: the fixtures under
//! `crates/fornax-verify/tests/fixtures/tools/` (captured from the real tools, see each
//! folder's PROVENANCE.md), read as the sensors read a run's output, and command lines as
//! agents write them (launchers, `cd x &&`, pipes, redirections, scripts).
//!
//! `FORNAX_TOOL_FIXTURES` points at another fixtures folder (to run this bench against an
//! older checkout with the same outputs).
use std::hint::black_box;
use std::path::PathBuf;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use fornax_verify::{classify_command, diagnostics, testsummary, CommandKind};

const COMMANDS: &[&str] = &[
    "cargo test",
    "cargo test -p geo -- --nocapture",
    "cargo nextest run --workspace",
    "cargo clippy --all-targets -- -D warnings",
    "cargo build --release 2>&1 | tail -n 20",
    "python -m pytest -q tests/test_api.py",
    "uv run pytest -k refund",
    "cd web && npm test -- --run",
    "npm run lint",
    "pnpm vitest run src/parser.test.ts",
    "yarn jest --ci",
    "npx tsc --noEmit",
    "go test ./...",
    "go test -run TestCheckout ./internal/shop/",
    "go vet ./... && golangci-lint run",
    "timeout 300 bundle exec rspec spec/models",
    "bin/rails test",
    "vendor/bin/phpunit --filter CartTest",
    "./mvnw -q test",
    "./gradlew test --tests 'shop.CartTest'",
    "dotnet test --filter Category=Unit",
    "dotnet build -c Release",
    "ctest --output-on-failure",
    "swift test --filter CartTests",
    "mix test test/cart_test.exs",
    "ruff check . && mypy src",
    "pyright",
    "eslint src --max-warnings=0",
    "make test",
    "deno test -A",
    "bun test",
    "git commit -am 'shop: round half up' && git push origin main",
    "ls -la && cat README.md",
];

fn fixtures_dir() -> PathBuf {
    std::env::var_os("FORNAX_TOOL_FIXTURES")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../fornax-verify/tests/fixtures/tools")
        })
}

/// Every fixture output, in a stable order.
fn outputs() -> Vec<String> {
    let mut paths: Vec<PathBuf> = std::fs::read_dir(fixtures_dir())
        .expect("tool fixtures folder")
        .flatten()
        .flat_map(|tool| {
            std::fs::read_dir(tool.path())
                .into_iter()
                .flatten()
                .flatten()
        })
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    paths.sort();
    paths
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect()
}

fn bench_tools(c: &mut Criterion) {
    let outputs = outputs();
    let bytes: usize = outputs.iter().map(String::len).sum();
    let mut group = c.benchmark_group("tools");
    group.throughput(Throughput::Elements(COMMANDS.len() as u64));
    group.bench_function("classify_command/agent_command_lines", |b| {
        b.iter(|| {
            COMMANDS
                .iter()
                .filter(|c| classify_command(black_box(c)).kind != CommandKind::Other)
                .count()
        })
    });
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("parse_test_summary/real_outputs", |b| {
        b.iter(|| {
            outputs
                .iter()
                .filter(|o| testsummary::parse(black_box(o)).is_some())
                .count()
        })
    });
    group.bench_function("read_build_and_lint/real_outputs", |b| {
        b.iter(|| {
            outputs
                .iter()
                .filter(|o| {
                    diagnostics::read(CommandKind::Build, black_box(o)).is_some()
                        || diagnostics::read(CommandKind::Lint, black_box(o)).is_some()
                })
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, bench_tools);
criterion_main!(benches);
