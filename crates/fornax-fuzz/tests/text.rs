//! Redaction and claim extraction on any text, and on text built to look like secrets and
//! claims.

use fornax_redact::{RedactionCounts, Redactor};
use proptest::prelude::*;

fn text() -> impl Strategy<Value = String> {
    let words = prop::sample::select(vec![
        "All tests pass",
        "committed",
        "pushed to origin/main",
        "Fixed src/lib.rs:42",
        "sk-ant-api03-",
        "ghp_",
        "AKIA",
        "eyJhbGciOiJIUzI1NiJ9.",
        "password=",
        "-----BEGIN ",
        "PRIVATE KEY-----",
        "token: '%s'",
        "Bearer ",
        "postgres://u:p@h/db",
        "✅",
        "- [x]",
        "所有测试通过",
        "テストは成功",
        "\n",
        "`cargo test`",
        "0123456789abcdef",
        "=",
        ":",
        " ",
    ]);
    prop_oneof![
        "\\PC{0,200}",
        prop::collection::vec(words, 0..40).prop_map(|w| w.concat()),
        prop::collection::vec(
            (
                prop::sample::select(vec!["a", "Z", "9", "+", "/", "_", "-"]),
                0..60usize
            ),
            0..8
        )
        .prop_map(|parts| parts.iter().map(|(s, n)| s.repeat(*n)).collect()),
    ]
}

#[test]
fn redaction_is_total_and_idempotent() {
    let redactor = Redactor::new();
    fornax_fuzz::run(
        "redaction",
        concat!(env!("CARGO_MANIFEST_DIR"), "/regressions/redaction.txt"),
        text(),
        |s| {
            let mut counts = RedactionCounts::default();
            let once = redactor
                .redact_text(&s, &mut counts)
                .unwrap_or_else(|| s.clone());
            let mut again_counts = RedactionCounts::default();
            let twice = redactor
                .redact_text(&once, &mut again_counts)
                .unwrap_or_else(|| once.clone());
            prop_assert_eq!(&twice, &once, "redacting redacted text changed it");
            Ok(())
        },
    );
}

#[test]
fn claim_extraction_is_total_and_quotes_the_text() {
    fornax_fuzz::run(
        "claim_extraction",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/regressions/claim_extraction.txt"
        ),
        text(),
        |s| {
            for claim in fornax_verify::extract_from_text(&s) {
                let quote = format!("{claim:?}");
                prop_assert!(!quote.is_empty());
            }
            Ok(())
        },
    );
}
