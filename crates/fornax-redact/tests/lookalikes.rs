//! What is not a secret survives byte for byte: git SHAs, UUIDs, paths, versions, digests,
//! base64 image data, npm integrity hashes, test runner output, long identifiers, and the
//! code and prose around words like `token`, `key` and `password`.

use fornax_redact::{RedactionCounts, Redactor};

/// Each entry must come out of the redactor untouched.
const LOOKALIKES: &[&str] = &[
    // Git.
    "commit 3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a",
    "[main 1a2b3c4] fix: handle empty input in parser",
    "[feature/redact-boundary 9f8e7d6] feat(redact): add detectors\n 3 files changed, 120 insertions(+), 4 deletions(-)",
    "index 83db48f..bf269f4 100644\n--- a/src/lib.rs\n+++ b/src/lib.rs",
    "Merge: 1a2b3c4d 5e6f7a8b\nAuthor: Jane Doe <jane.doe@example.com>",
    "To github.com:acme/platform.git\n   3f2a1b9..8c7d6e5  main -> main",
    "HEAD is now at 0123abc Revert \"feat: add token cache\"",
    // UUIDs and ids.
    "session 550e8400-e29b-41d4-a716-446655440000 resumed",
    "0199a3b2-7c4d-7e8f-9a0b-1c2d3e4f5a6b",
    "{\"uuid\":\"d3b07384-d113-4ec6-a6b0-c8f1e2a3b4c5\",\"parentUuid\":null}",
    "request_id=req_011CRz8f4m2qWvXyZaBcDeFg call toolu_01A2B3C4D5E6F7G8H9J0K1L2",
    // Paths, long and short.
    "/home/dev/src/fornax/crates/fornax-redact/src/detect/assignment.rs",
    "/Users/JaneDoe/Library/Application Support/Code/User/workspaceStorage/8f3c2a1b9d7e6f5a4b3c2d1e0f9a8b7c/state.vscdb",
    "C:\\Users\\dev\\AppData\\Local\\Programs\\Microsoft VS Code\\resources\\app\\out\\vs\\workbench",
    "src/components/UserProfileSettings/AccountSecurityPanel/PasswordStrengthMeter.tsx",
    "node_modules/@typescript-eslint/eslint-plugin/dist/rules/no-unnecessary-type-assertion.js",
    "~/.cargo/registry/src/index.crates.io-6f17d22bba15001f/aho-corasick-1.1.3/src/lib.rs",
    "target/debug/deps/fornax_redact-3f2a1b9c8d7e6f5a",
    "tests/fixtures/secrets/password_reset_token_expired.json",
    // Versions.
    "1.2.3 2.0.0-rc.1 v0.98.0 1.0.0-beta.2+exp.sha.5114f85 20.20.2 3.11.7",
    "rustc 1.95.0 (59807616e 2026-04-14)\ncargo 1.95.0 (f2d3ce0bd 2026-03-21)",
    "Python 3.11.7, pytest-8.2.0, pluggy-1.5.0",
    "x86_64-unknown-linux-gnu aarch64-apple-darwin",
    // Digests and hashes in output.
    "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "Digest: sha256:4d2b7f1b9e0c3a5d6f8e7a9b0c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d",
    "checksum = \"a1d6a5b3c2e4f6a8b0c2d4e6f8a0b2c4d6e8f0a2b4c6d8e0f2a4b6c8d0e2f4a6\"",
    "--hash=sha256:5e3c2a1b9d7f6e5d4c3b2a1f0e9d8c7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d",
    "md5 d41d8cd98f00b204e9800998ecf8427e  empty.txt",
    "github.com/stretchr/testify v1.9.0 h1:HtqpIVDClZ4nwg75+xgsOTOTpanJ4ykgSYG9oVd3GhY=",
    // npm integrity.
    "\"integrity\": \"sha512-DDHiBQ0c7N9FZy7RjbvJg5XgQd5WABc0Jq5tU3Lhy/JpZLnTzMCbNi+eVaB2ZuAh3ThLB3ka9+FvLp8rqA4bKw==\"",
    "\"resolved\": \"https://registry.npmjs.org/react/-/react-18.3.1.tgz\"",
    // Base64 image data.
    "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    "{\"type\":\"image\",\"source\":{\"type\":\"base64\",\"media_type\":\"image/jpeg\",\"data\":\"/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/2wBD\"}}",
    "background: url(data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciIHZpZXdCb3g9IjAgMCAyNCAyNCI+PC9zdmc+)",
    // cargo test output.
    "running 3 tests\ntest names::tests::secret_names ... ok\ntest tests::redacts_api_key_assignments ... ok\ntest detect::entropy::tests::random_tokens_are_flagged ... ok\n\ntest result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.57s",
    "     Running unittests src/lib.rs (target/debug/deps/fornax_redact-de70330fdf6b05a7)",
    "error[E0308]: mismatched types\n  --> src/auth/token.rs:42:17\n   |\n42 |     let token: String = get_token(&config)?;\n   |                 ------   ^^^^^^^^^^^^^^^^^^ expected `String`, found `Token`",
    // pytest output.
    "tests/test_auth.py::test_password_reset_token_expires PASSED                [ 50%]\ntests/test_auth.py::test_rejects_wrong_password FAILED                     [100%]",
    "FAILED tests/test_api.py::TestTokenRefresh::test_refresh_token_rotation - AssertionError: assert 401 == 200",
    "========================= 41 passed, 1 failed, 2 skipped in 3.21s =========================",
    // Go test output.
    "ok  \tgithub.com/acme/platform/internal/auth\t0.012s\tcoverage: 81.2% of statements",
    "--- FAIL: TestValidateAPIKeyFormat (0.00s)\n    auth_test.go:57: expected error for key \"short\"",
    "=== RUN   TestTokenBucket/refills_after_interval\n--- PASS: TestTokenBucket/refills_after_interval (0.10s)",
    // Jest.
    "PASS src/auth/__tests__/session.test.ts (5.123 s)\n  ✓ refreshes an expired access token (12 ms)",
    // Long identifiers.
    "test_handles_unicode_normalization_correctly",
    "fn test_secret_assignment_keeps_the_name_and_operator_intact() {}",
    "AbstractSingletonProxyFactoryBean HTTP2ServerConnectionManager useCallbackWithDependencies",
    "TestCheckoutFlowRejectsExpiredCardsWithHelpfulMessage",
    // Code that names secrets without holding one.
    "let password = std::env::var(\"DB_PASSWORD\")?;",
    "const token = await getAccessToken(request);",
    "    password: string;\n    apiKey?: string;",
    "def login(username: str, password: str) -> Session:",
    "if token is None or not token.startswith(\"Bearer \"):",
    "connect(host=host, user=user, password=password, token=access_token)",
    "api_key = os.environ[\"OPENAI_API_KEY\"]",
    "export OPENAI_API_KEY=$(op read op://dev/openai/credential)",
    "curl -H \"Authorization: Bearer $TOKEN\" https://api.example.com/v1/me",
    "env:\n  GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }}\n  NPM_TOKEN: ${{ secrets.NPM_TOKEN }}",
    "password: <your-password-here>",
    "export ANTHROPIC_API_KEY=sk-ant-...",
    "\"apiKey\": \"OLLAMA_API_KEY\"",
    "max_tokens=4096, input_tokens: 1234, output_tokens: 567",
    "the tokenizer splits the key into tokens; the keyboard shortcut opens the keychain",
    "All 41 tests passed; see the passkey docs for the bypass flag.",
    "Use the --password flag to set it interactively.",
    "mysql -u root -p app_production",
    "if (password.length < 12) { return { valid: false, reason: 'too short' }; }",
    "printf(\"token: %d\\n\", token->val); log.info(\"password: %s\", masked)",
    "#[serde(rename = \"api_key\")]\n    pub api_key: Option<SecretString>,",
    "-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\nRTESMBAGA1UEChMJQmFsdGltb3JlMRMwEQYDVQQLEwpDeWJlclRydXN0MSIwIAYD\n-----END CERTIFICATE-----",
    "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo\n-----END PUBLIC KEY-----",
    "git@github.com:acme/platform.git https://github.com/acme/platform/pull/1234",
    "https://user@example.com/path and mailto:someone@example.com",
    // Whitespace and line structure.
    "\tindented with a tab\r\n  and CRLF line ends\r\n\n\n   trailing spaces   \n",
    "",
    " ",
    "\n",
];

#[test]
fn every_lookalike_survives_byte_for_byte() {
    let redactor = Redactor::new();
    for text in LOOKALIKES {
        let mut counts = RedactionCounts::default();
        let out = redactor.redact_text(text, &mut counts);
        assert_eq!(out.as_deref(), None, "changed:\n{text}");
        assert!(counts.is_empty());
    }
}

#[test]
fn the_whole_corpus_survives_as_one_text() {
    let redactor = Redactor::new();
    let all = LOOKALIKES.join("\n");
    let mut counts = RedactionCounts::default();
    assert_eq!(redactor.redact_text(&all, &mut counts), None);
}

#[test]
fn lookalikes_survive_inside_json() {
    let redactor = Redactor::new();
    let mut value = serde_json::json!({
        "command": LOOKALIKES[0],
        "lines": LOOKALIKES,
        "nested": {"sha": "3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a", "max_tokens": 4096},
    });
    let before = value.clone();
    let mut counts = RedactionCounts::default();
    redactor.redact_json(&mut value, &mut counts);
    assert_eq!(value, before);
    assert!(counts.is_empty());
}

#[test]
fn text_around_a_secret_keeps_its_bytes() {
    let redactor = Redactor::new();
    let secret = format!("ghp_{}", "Zq9".repeat(12));
    let text = format!(
        "\tline one\r\n  {}\n\nexport GITHUB_TOKEN={secret}  # ci\r\n\t\ttrailing \n",
        LOOKALIKES[0]
    );
    let mut counts = RedactionCounts::default();
    let out = redactor
        .redact_text(&text, &mut counts)
        .expect("secret found");
    assert_eq!(out, text.replace(&secret, "[REDACTED:github_token]"));
    assert_eq!(counts.total(), 1);
}
