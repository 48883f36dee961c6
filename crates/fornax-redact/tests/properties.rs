//! Properties: redaction never panics, is idempotent, only ever changes text by writing
//! placeholders, and leaves text without any trigger untouched (and unallocated).

use fornax_redact::{RedactionCounts, Redactor};
use proptest::prelude::*;
use serde_json::Value;

fn redactor() -> &'static Redactor {
    static REDACTOR: std::sync::OnceLock<Redactor> = std::sync::OnceLock::new();
    REDACTOR.get_or_init(Redactor::new)
}

fn assert_idempotent(text: &str) -> Result<(), TestCaseError> {
    let mut counts = RedactionCounts::default();
    let once = redactor().redact_text(text, &mut counts);
    if let Some(out) = &once {
        prop_assert!(
            out.contains("[REDACTED:"),
            "changed without a placeholder: {text:?} -> {out:?}"
        );
        prop_assert!(counts.total() > 0);
        let again = redactor().redact_text(out, &mut counts);
        prop_assert_eq!(again, None, "second pass changed {:?}", out);
    } else {
        prop_assert_eq!(counts.total(), 0);
    }
    Ok(())
}

/// Pieces that detectors react to, to be shuffled into texts far denser in near-misses than
/// any transcript.
const FRAGMENTS: &[&str] = &[
    "password",
    "PASSWORD",
    "DB_PASS",
    "token",
    "api_key",
    "apiKey",
    "secret",
    "auth",
    "Authorization",
    "Bearer",
    "Basic",
    "key",
    "sig",
    "credentials",
    "pwd",
    "--password",
    "--token",
    "-p",
    "-a",
    "-u",
    "mysql",
    "sshpass",
    "curl",
    "redis-cli",
    "docker login",
    "=",
    ":",
    ": ",
    " = ",
    ":=",
    "=>",
    "\"",
    "'",
    "`",
    "\\\"",
    "\\n",
    "\n",
    "\r\n",
    " ",
    "\t",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    "</password>",
    "<password>",
    "$",
    "${",
    "%",
    "#",
    "|",
    "&",
    ";",
    ",",
    ".",
    "...",
    "***",
    "://",
    "postgres://",
    "user:",
    "@",
    "@host",
    "/",
    "+",
    "-",
    "_",
    "-----BEGIN RSA PRIVATE KEY-----",
    "-----END RSA PRIVATE KEY-----",
    "-----BEGIN CERTIFICATE-----",
    "ghp_",
    "github_pat_",
    "glpat-",
    "xoxb-",
    "sk-",
    "sk-ant-",
    "sk_live_",
    "AIza",
    "npm_",
    "pypi-Ag",
    "eyJ",
    "AKIA",
    "hooks.slack.com/services/",
    "base64,",
    "sha512-",
    "[REDACTED:jwt]",
    "[REDACTED:",
    "hunter2",
    "s3cr3t",
    "q8Zr2LmX9vT4nB7kW1pY6sD3",
    "aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5",
    "3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a",
    "550e8400-e29b-41d4-a716-446655440000",
    "YWxhZGRpbjpvcGVuc2VzYW1l",
    "é",
    "日本語",
    "🔑",
    "\u{0}",
];

fn fragment_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        prop_oneof![
            4 => prop::sample::select(FRAGMENTS).prop_map(str::to_string),
            1 => "[A-Za-z0-9+/=_-]{1,40}",
            1 => any::<String>().prop_map(|s| s.chars().take(8).collect()),
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

/// Words that cannot spell any trigger (no `a e i k p s t g z`, no `: / - _ @`) and are too
/// short to be judged for entropy.
fn trigger_free_text() -> impl Strategy<Value = String> {
    prop::collection::vec(
        (
            "[bcdfhjlmnoqruvwxyBCDFHJLMNOQRUVWXY0-9éü日本]{1,12}",
            prop::sample::select(&[" ", "\n", ", ", ". ", "\t", "(", ")", ";", "\r\n", "  "][..]),
        ),
        0..60,
    )
    .prop_map(|words| {
        words
            .into_iter()
            .map(|(w, sep)| format!("{w}{sep}"))
            .collect()
    })
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::from),
        fragment_text().prop_map(Value::String),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
            prop::collection::vec(
                (
                    prop_oneof![
                        prop::sample::select(
                            &[
                                "password",
                                "token",
                                "name",
                                "value",
                                "Authorization",
                                "key",
                                "data"
                            ][..]
                        )
                        .prop_map(str::to_string),
                        fragment_text(),
                    ],
                    inner
                ),
                0..6
            )
            .prop_map(|entries| Value::Object(entries.into_iter().collect())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_strings_never_panic_and_are_idempotent(text in any::<String>()) {
        assert_idempotent(&text)?;
    }

    #[test]
    fn dense_near_misses_never_panic_and_are_idempotent(text in fragment_text()) {
        assert_idempotent(&text)?;
    }

    #[test]
    fn text_without_triggers_is_returned_unchanged(text in trigger_free_text()) {
        let mut counts = RedactionCounts::default();
        prop_assert_eq!(redactor().redact_text(&text, &mut counts), None);
        prop_assert!(counts.is_empty());
    }

    #[test]
    fn json_redaction_is_idempotent(mut value in json_value()) {
        let mut counts = RedactionCounts::default();
        redactor().redact_json(&mut value, &mut counts);
        let once = value.clone();
        let before = counts.total();
        redactor().redact_json(&mut value, &mut counts);
        prop_assert_eq!(&value, &once);
        prop_assert_eq!(counts.total(), before);
    }

    #[test]
    fn in_place_matches_redact_text(text in fragment_text()) {
        let mut counts = RedactionCounts::default();
        let expected = redactor().redact_text(&text, &mut counts).unwrap_or_else(|| text.clone());
        let mut in_place = text.clone();
        redactor().redact_in_place(&mut in_place, &mut counts);
        prop_assert_eq!(in_place, expected);
    }
}
