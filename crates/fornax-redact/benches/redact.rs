//! Throughput of the redaction boundary on generated transcript text.
//!
//! The text mimics what flows through the boundary: agent prose, source code (with the
//! words `token`, `key`, `password` used as code), cargo / pytest / go test output, git and
//! npm output with SHAs, UUIDs, integrity hashes and paths, and JSON tool arguments, with a
//! real-looking secret only every few hundred kilobytes. It is cut into records of a few
//! kilobytes each, the way items reach the boundary.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use fornax_redact::{RedactionCounts, Redactor};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }

    fn hex(&mut self, len: usize) -> String {
        (0..len)
            .map(|_| char::from(b"0123456789abcdef"[self.below(16)]))
            .collect()
    }

    fn base62(&mut self, len: usize) -> String {
        const A: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
        (0..len)
            .map(|_| char::from(A[self.below(A.len())]))
            .collect()
    }
}

const WORDS: &[&str] = &[
    "the",
    "test",
    "now",
    "passes",
    "after",
    "I",
    "updated",
    "handler",
    "so",
    "that",
    "it",
    "returns",
    "early",
    "when",
    "input",
    "is",
    "empty",
    "and",
    "config",
    "file",
    "loads",
    "from",
    "workspace",
    "root",
    "instead",
    "of",
    "current",
    "directory",
    "which",
    "fixes",
    "failing",
    "integration",
    "case",
    "we",
    "saw",
    "earlier",
    "let",
    "me",
    "check",
    "whether",
    "parser",
    "also",
    "needs",
    "change",
    "token",
    "key",
    "session",
    "request",
    "response",
];

const IDENTS: &[&str] = &[
    "parse_config",
    "handle_request",
    "test_handles_unicode_normalization_correctly",
    "SessionStore",
    "max_tokens",
    "api_key_header",
    "refreshAccessToken",
    "validate_password_strength",
    "TokenBucketRateLimiter",
    "useCallbackWithDependencies",
    "HTTP2ServerConnectionManager",
    "cache_key",
];

fn prose(rng: &mut Rng, out: &mut String) {
    for _ in 0..(20 + rng.below(40)) {
        out.push_str(rng.pick(WORDS));
        out.push(if rng.below(12) == 0 { '.' } else { ' ' });
    }
    out.push_str("\n\n");
}

fn code(rng: &mut Rng, out: &mut String) {
    let f = rng.pick(IDENTS);
    out.push_str(&format!(
        "    pub fn {f}(&self, key: &str, token: Option<&str>) -> Result<Session, Error> {{\n\
         \x20       let max_tokens = self.config.max_tokens.unwrap_or(4096);\n\
         \x20       let password = std::env::var(\"DB_PASSWORD\")?;\n\
         \x20       if token.is_none() {{ return Err(Error::MissingToken {{ key: key.to_string() }}); }}\n\
         \x20       let cache_key = format!(\"{{}}:{{}}\", self.prefix, key);\n\
         \x20       self.store.get(&cache_key).map(|s| s.with_limit(max_tokens))\n\
         \x20   }}\n\n"
    ));
    out.push_str(
        "export async function fetchUser(id: string, token: string): Promise<User> {\n  \
         const res = await fetch(`${API_URL}/users/${id}`, { headers: { Authorization: `Bearer ${token}` } });\n  \
         if (!res.ok) throw new Error(`request failed: ${res.status}`);\n  return res.json();\n}\n\n",
    );
}

fn cargo_output(rng: &mut Rng, out: &mut String) {
    out.push_str(&format!(
        "   Compiling fornax-store v0.1.0 (/home/dev/src/fornax/crates/fornax-store)\n\
         \x20   Finished `test` profile [unoptimized + debuginfo] target(s) in {}.{}s\n\
         \x20    Running unittests src/lib.rs (target/debug/deps/fornax_store-{})\n",
        rng.below(60),
        rng.below(100),
        rng.hex(16)
    ));
    let n = 5 + rng.below(20);
    out.push_str(&format!("\nrunning {n} tests\n"));
    for _ in 0..n {
        out.push_str(&format!("test tests::{} ... ok\n", rng.pick(IDENTS)));
    }
    out.push_str(&format!(
        "\ntest result: ok. {n} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.{}s\n\n",
        rng.below(100)
    ));
}

fn pytest_output(rng: &mut Rng, out: &mut String) {
    out.push_str(
        "============================= test session starts ==============================\n",
    );
    out.push_str(
        "platform linux -- Python 3.11.7, pytest-8.2.0, pluggy-1.5.0\nrootdir: /home/dev/src/app\n",
    );
    for _ in 0..(4 + rng.below(10)) {
        out.push_str(&format!(
            "tests/test_{}.py::test_{} PASSED                                   [ {}%]\n",
            rng.pick(WORDS),
            rng.pick(IDENTS),
            rng.below(100)
        ));
    }
    out.push_str(&format!(
        "======================== {} passed in 1.{}s ========================\n\n",
        rng.below(50),
        rng.below(100)
    ));
}

fn go_output(rng: &mut Rng, out: &mut String) {
    for _ in 0..(3 + rng.below(6)) {
        out.push_str(&format!(
            "ok  \tgithub.com/acme/platform/internal/{}\t0.{:03}s\tcoverage: {}.{}% of statements\n",
            rng.pick(WORDS),
            rng.below(1000),
            rng.below(100),
            rng.below(10)
        ));
    }
    out.push('\n');
}

fn git_output(rng: &mut Rng, out: &mut String) {
    out.push_str(&format!(
        "[main {}] fix: handle empty input in parser\n 3 files changed, 42 insertions(+), 7 deletions(-)\n",
        rng.hex(7)
    ));
    for _ in 0..4 {
        out.push_str(&format!(
            "commit {}\nAuthor: Dev <dev@example.com>\nDate:   Mon Jan 6 10:{:02}:00 2025 +0000\n\n    chore: update {}\n\n",
            rng.hex(40),
            rng.below(60),
            rng.pick(IDENTS)
        ));
    }
    out.push_str(&format!(
        "diff --git a/src/lib.rs b/src/lib.rs\nindex {}..{} 100644\n--- a/src/lib.rs\n+++ b/src/lib.rs\n@@ -10,6 +10,8 @@\n-    let key = input.trim();\n+    let key = input.trim_end();\n+    debug_assert!(!key.is_empty());\n\n",
        rng.hex(7),
        rng.hex(7)
    ));
}

fn npm_output(rng: &mut Rng, out: &mut String) {
    out.push_str(&format!(
        "added {} packages, and audited {} packages in 4s\n\"node_modules/react\": {{\n  \"version\": \"18.3.1\",\n  \"resolved\": \"https://registry.npmjs.org/react/-/react-18.3.1.tgz\",\n  \"integrity\": \"sha512-{}==\"\n}}\n",
        rng.below(900),
        rng.below(900),
        rng.base62(86)
    ));
    out.push_str(&format!(
        "request id {}-{}-4{}-a{}-{} completed; image sha256:{}\n\n",
        rng.hex(8),
        rng.hex(4),
        rng.hex(3),
        rng.hex(3),
        rng.hex(12),
        rng.hex(64)
    ));
}

fn tool_json(rng: &mut Rng, out: &mut String) {
    out.push_str(&format!(
        "{{\"command\":\"cd /home/dev/src/app && cargo test -p {} -- --nocapture\",\"description\":\"Run the {} tests\",\"timeout\":120000}}\n",
        rng.pick(IDENTS),
        rng.pick(WORDS)
    ));
    out.push_str(&format!(
        "{{\"file_path\":\"/home/dev/src/app/src/{}/{}.rs\",\"old_string\":\"let key = a;\",\"new_string\":\"let key = b;\"}}\n\n",
        rng.pick(WORDS),
        rng.pick(IDENTS)
    ));
}

fn secret(rng: &mut Rng, out: &mut String) {
    match rng.below(4) {
        0 => out.push_str(&format!("export GITHUB_TOKEN=ghp_{}\n", rng.base62(36))),
        1 => out.push_str(&format!(
            "DATABASE_URL=postgres://app:{}@db:5432/app\n",
            rng.base62(12)
        )),
        2 => out.push_str(&format!("  api_key: \"{}\"\n", rng.base62(32))),
        _ => out.push_str(&format!("Authorization: Bearer {}\n", rng.base62(40))),
    }
}

/// About `size` bytes of transcript-like text, cut into records of 512 B to 8 KiB.
fn transcript(size: usize) -> Vec<String> {
    let mut rng = Rng(0xf0_4a_c5);
    let mut records = Vec::new();
    let mut total = 0;
    let mut since_secret = 0;
    while total < size {
        let target = 512 + rng.below(8 * 1024);
        let mut rec = String::with_capacity(target + 1024);
        while rec.len() < target {
            match rng.below(8) {
                0 | 1 => prose(&mut rng, &mut rec),
                2 => code(&mut rng, &mut rec),
                3 => cargo_output(&mut rng, &mut rec),
                4 => pytest_output(&mut rng, &mut rec),
                5 => go_output(&mut rng, &mut rec),
                6 => git_output(&mut rng, &mut rec),
                _ => {
                    npm_output(&mut rng, &mut rec);
                    tool_json(&mut rng, &mut rec);
                }
            }
        }
        since_secret += rec.len();
        if since_secret > 256 * 1024 {
            secret(&mut rng, &mut rec);
            since_secret = 0;
        }
        total += rec.len();
        records.push(rec);
    }
    records
}

fn bench(c: &mut Criterion) {
    let redactor = Redactor::new();
    let records = transcript(4 * 1024 * 1024);
    let bytes: usize = records.iter().map(String::len).sum();

    let mut group = c.benchmark_group("redact");
    group.sample_size(20);
    group.throughput(Throughput::Bytes(bytes as u64));
    group.bench_function("transcript_records", |b| {
        b.iter(|| {
            let mut counts = RedactionCounts::default();
            for rec in &records {
                black_box(redactor.redact_text(black_box(rec), &mut counts));
            }
            counts
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
