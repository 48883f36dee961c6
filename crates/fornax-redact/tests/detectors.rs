//! Each detector on the shapes it must handle, with the exact output expected: the name and
//! operator stay, the value goes, and the placeholder names the kind.

mod common;

use common::{mixed62, Rng, BASE64, BASE64URL};
use fornax_redact::{RedactionCounts, Redactor, SecretKind};
use serde_json::json;

fn redact(text: &str) -> String {
    let mut counts = RedactionCounts::default();
    Redactor::new()
        .redact_text(text, &mut counts)
        .unwrap_or_else(|| text.to_string())
}

/// `(input, expected)` pairs, where `{S}` in both stands for a value substituted at run time.
fn check_all(cases: &[(&str, &str)], secret: &str) {
    for (input, expected) in cases {
        let input = input.replace("{S}", secret);
        let expected = expected.replace("{S}", secret);
        assert_eq!(redact(&input), expected, "input: {input}");
    }
}

#[test]
fn assignments_keep_name_and_operator() {
    check_all(
        &[
            ("API_KEY={S}", "API_KEY=[REDACTED:secret_assignment]"),
            (
                "export DB_PASSWORD={S}",
                "export DB_PASSWORD=[REDACTED:secret_assignment]",
            ),
            (
                "export DB_PASSWORD=\"{S}\"",
                "export DB_PASSWORD=\"[REDACTED:secret_assignment]\"",
            ),
            (
                "PGPASSWORD={S} psql -h db",
                "PGPASSWORD=[REDACTED:secret_assignment] psql -h db",
            ),
            (
                "MYSQL_PWD={S} mysql",
                "MYSQL_PWD=[REDACTED:secret_assignment] mysql",
            ),
            ("password: {S}", "password: [REDACTED:secret_assignment]"),
            (
                "  db_password: '{S}'",
                "  db_password: '[REDACTED:secret_assignment]'",
            ),
            (
                "- token: {S}  # rotated monthly",
                "- token: [REDACTED:secret_assignment]  # rotated monthly",
            ),
            (
                r#"{"password": "{S}", "user": "bob"}"#,
                r#"{"password": "[REDACTED:secret_assignment]", "user": "bob"}"#,
            ),
            (
                r#"{"pin": 1234}"#,
                r#"{"pin": "[REDACTED:secret_assignment]"}"#,
            ),
            (
                r#"{"passwd": 90125}"#,
                r#"{"passwd": "[REDACTED:secret_assignment]"}"#,
            ),
            (
                r#"{\"client_secret\":\"{S}\"}"#,
                r#"{\"client_secret\":\"[REDACTED:secret_assignment]\"}"#,
            ),
            (
                "{'api_key': '{S}'}",
                "{'api_key': '[REDACTED:secret_assignment]'}",
            ),
            (
                "api_key = \"{S}\"",
                "api_key = \"[REDACTED:secret_assignment]\"",
            ),
            ("password = {S}", "password = [REDACTED:secret_assignment]"),
            (
                "connect(password=\"{S}\")",
                "connect(password=\"[REDACTED:secret_assignment]\")",
            ),
            (
                "<password>{S}</password>",
                "<password>[REDACTED:secret_assignment]</password>",
            ),
            (
                "-H \"X-Api-Key: {S}\"",
                "-H \"X-Api-Key: [REDACTED:secret_assignment]\"",
            ),
            (
                "spring.datasource.password={S}",
                "spring.datasource.password=[REDACTED:secret_assignment]",
            ),
            (
                "https://api.example.com/v1?token={S}&page=2",
                "https://api.example.com/v1?token=[REDACTED:secret_assignment]&page=2",
            ),
            (
                "secret := \"{S}\"",
                "secret := \"[REDACTED:secret_assignment]\"",
            ),
            (
                "'password' => '{S}',",
                "'password' => '[REDACTED:secret_assignment]',",
            ),
            (
                "ENV DB_PASS={S}",
                "ENV DB_PASS=[REDACTED:secret_assignment]",
            ),
            (
                "$env:API_TOKEN = \"{S}\"",
                "$env:API_TOKEN = \"[REDACTED:secret_assignment]\"",
            ),
            // Triggers that overlap (`a3t` and `token`) are all seen.
            ("DATA3TOKEN={S}", "DATA3TOKEN=[REDACTED:secret_assignment]"),
            (
                "MONGO_PASSWORD={S}",
                "MONGO_PASSWORD=[REDACTED:secret_assignment]",
            ),
        ],
        "hunter2",
    );
}

#[test]
fn short_values_are_secrets_too() {
    check_all(
        &[
            ("PASSWORD=pw", "PASSWORD=[REDACTED:secret_assignment]"),
            ("password: x1", "password: [REDACTED:secret_assignment]"),
            ("--password ab", "--password [REDACTED:cli_password]"),
        ],
        "",
    );
}

#[test]
fn yaml_block_scalar_values() {
    let text = "db:\n  password: |\n    first line\n    second line\n  user: app\n";
    assert_eq!(
        redact(text),
        "db:\n  password: |\n    [REDACTED:secret_assignment]\n  user: app\n"
    );
}

#[test]
fn aws_secret_assignment_is_named_aws() {
    let mut rng = Rng::new(11);
    let key = rng.string(BASE64, 40);
    check_all(
        &[
            (
                "aws_secret_access_key = {S}",
                "aws_secret_access_key = [REDACTED:aws_secret_key]",
            ),
            (
                "AWS_SECRET_ACCESS_KEY={S}",
                "AWS_SECRET_ACCESS_KEY=[REDACTED:aws_secret_key]",
            ),
            // Without `aws` in the name the kind is the generic one.
            (
                r#""SecretAccessKey": "{S}""#,
                r#""SecretAccessKey": "[REDACTED:secret_assignment]""#,
            ),
        ],
        &key,
    );
}

#[test]
fn cli_passwords() {
    check_all(
        &[
            (
                "--password {S} --user bob",
                "--password [REDACTED:cli_password] --user bob",
            ),
            ("--password={S}", "--password=[REDACTED:cli_password]"),
            ("tool --token {S}", "tool --token [REDACTED:cli_password]"),
            (
                "tool --api-key '{S}'",
                "tool --api-key '[REDACTED:cli_password]'",
            ),
            (
                "mysql -u root -p{S} app",
                "mysql -u root -p[REDACTED:cli_password] app",
            ),
            (
                "mysqldump -uroot -p{S} app > dump.sql",
                "mysqldump -uroot -p[REDACTED:cli_password] app > dump.sql",
            ),
            (
                "sshpass -p {S} ssh deploy@host",
                "sshpass -p [REDACTED:cli_password] ssh deploy@host",
            ),
            (
                "redis-cli -h cache -a {S} ping",
                "redis-cli -h cache -a [REDACTED:cli_password] ping",
            ),
            (
                "curl -u admin:{S} https://x",
                "curl -u admin:[REDACTED:cli_password] https://x",
            ),
            (
                "curl --user admin:{S} https://x",
                "curl --user admin:[REDACTED:cli_password] https://x",
            ),
            (
                "docker login -u bot -p {S} registry.example.com",
                "docker login -u bot -p [REDACTED:cli_password] registry.example.com",
            ),
            (
                "ldapsearch -x -D cn=admin -w {S} -b dc=x",
                "ldapsearch -x -D cn=admin -w [REDACTED:cli_password] -b dc=x",
            ),
            (
                "mongosh --host db -u admin -p {S}",
                "mongosh --host db -u admin -p [REDACTED:cli_password]",
            ),
            (
                "zip -P {S} out.zip file",
                "zip -P [REDACTED:cli_password] out.zip file",
            ),
            (
                "openssl enc -aes-256-cbc -pass pass:{S} -in f",
                "openssl enc -aes-256-cbc -pass pass:[REDACTED:cli_password] -in f",
            ),
            (
                "smbclient //srv/share -U admin%{S}",
                "smbclient //srv/share -U admin%[REDACTED:cli_password]",
            ),
        ],
        "hunter2",
    );
}

#[test]
fn short_flags_mean_passwords_only_for_known_tools() {
    for text in [
        "mysql -u root -p app",
        "psql -h db -p 5432 app",
        "ssh -p 2222 deploy@host",
        "docker run -p 8080:80 nginx",
        "python -m http.server -b 0.0.0.0",
        "git commit -a -m 'fix'",
        "cargo test -p fornax-redact",
        "--password-stdin",
        "--no-password prompt",
        "--token-file ~/.config/token",
    ] {
        assert_eq!(redact(text), text);
    }
}

#[test]
fn authorization_values_keep_their_scheme() {
    let mut rng = Rng::new(12);
    let token = mixed62(&mut rng, 30);
    check_all(
        &[
            (
                "Authorization: Bearer {S}",
                "Authorization: Bearer [REDACTED:authorization]",
            ),
            (
                "authorization: token {S}",
                "authorization: token [REDACTED:authorization]",
            ),
            (
                "curl -H 'Authorization: Bearer {S}' https://x",
                "curl -H 'Authorization: Bearer [REDACTED:authorization]' https://x",
            ),
            (
                r#"{"Authorization": "Bearer {S}"}"#,
                r#"{"Authorization": "Bearer [REDACTED:authorization]"}"#,
            ),
            (
                "> Proxy-Authorization: Basic {S}",
                "> Proxy-Authorization: Basic [REDACTED:authorization]",
            ),
            (
                "headers = {'Authorization': '{S}'}",
                "headers = {'Authorization': '[REDACTED:authorization]'}",
            ),
            (
                "sent Bearer {S} to the API",
                "sent Bearer [REDACTED:authorization] to the API",
            ),
        ],
        &token,
    );
    // Basic credentials are recognized by decoding: "aladdin:opensesame".
    assert_eq!(
        redact("Basic YWxhZGRpbjpvcGVuc2VzYW1l"),
        "Basic [REDACTED:authorization]"
    );
    assert_eq!(
        redact("Basic authentication is enabled"),
        "Basic authentication is enabled"
    );
}

#[test]
fn url_credentials_keep_user_and_host() {
    check_all(
        &[
            (
                "postgres://user:{S}@host/db",
                "postgres://user:[REDACTED:url_credentials]@host/db",
            ),
            (
                "mongodb+srv://admin:{S}@cluster0.example.net/",
                "mongodb+srv://admin:[REDACTED:url_credentials]@cluster0.example.net/",
            ),
            (
                "redis://:{S}@cache:6379/0",
                "redis://:[REDACTED:url_credentials]@cache:6379/0",
            ),
            (
                "DATABASE_URL=mysql://app:{S}@db:3306/app",
                "DATABASE_URL=mysql://app:[REDACTED:url_credentials]@db:3306/app",
            ),
        ],
        "pa55word",
    );
    for text in [
        "https://user@example.com/repo",
        "ssh://git@github.com:22/acme/app.git",
        "postgres://user:${DB_PASSWORD}@host/db",
        "http://[::1]:8080/health",
    ] {
        assert_eq!(redact(text), text);
    }
}

#[test]
fn provider_tokens_by_format() {
    let mut rng = Rng::new(13);
    let cases = [
        (
            format!("ghp_{}", mixed62(&mut rng, 36)),
            SecretKind::GithubToken,
        ),
        (
            format!("ghs_{}", mixed62(&mut rng, 36)),
            SecretKind::GithubToken,
        ),
        (
            format!("ghr_{}", mixed62(&mut rng, 36)),
            SecretKind::GithubToken,
        ),
        (
            format!("ghu_{}", mixed62(&mut rng, 36)),
            SecretKind::GithubToken,
        ),
        (
            format!("github_pat_{}", mixed62(&mut rng, 82)),
            SecretKind::GithubToken,
        ),
        (
            format!("glpat-{}", rng.string(BASE64URL, 20)),
            SecretKind::GitlabToken,
        ),
        (
            format!("glrt-{}", rng.string(BASE64URL, 24)),
            SecretKind::GitlabToken,
        ),
        (
            format!(
                "xoxp-{}-{}",
                rng.string("0123456789", 11),
                mixed62(&mut rng, 30)
            ),
            SecretKind::SlackToken,
        ),
        (
            format!("xapp-1-{}", mixed62(&mut rng, 40)),
            SecretKind::SlackToken,
        ),
        (
            format!("rk_test_{}", mixed62(&mut rng, 24)),
            SecretKind::StripeKey,
        ),
        (
            format!("whsec_{}", mixed62(&mut rng, 32)),
            SecretKind::StripeKey,
        ),
        (
            format!("sk-{}", mixed62(&mut rng, 48)),
            SecretKind::OpenaiKey,
        ),
        (
            format!("sk-svcacct-{}", rng.string(BASE64URL, 60)),
            SecretKind::OpenaiKey,
        ),
        (
            format!("sk-ant-admin01-{}", rng.string(BASE64URL, 80)),
            SecretKind::AnthropicKey,
        ),
        (
            format!("AIza{}", rng.string(BASE64URL, 35)),
            SecretKind::GoogleApiKey,
        ),
        (
            format!("npm_{}", mixed62(&mut rng, 36)),
            SecretKind::NpmToken,
        ),
        (
            format!("pypi-AgENdGVzdC5weXBpLm9yZw{}", rng.string(BASE64URL, 60)),
            SecretKind::PypiToken,
        ),
        (
            format!(
                "ASIA{}",
                rng.string("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 16)
            ),
            SecretKind::AwsAccessKeyId,
        ),
    ];
    for (token, kind) in cases {
        for text in [
            token.clone(),
            format!("token={token}"),
            format!("\"{token}\""),
            format!("see {token}."),
            format!("git push https://x:{token}@github.com/acme/app"),
        ] {
            let out = redact(&text);
            assert!(
                !out.contains(&token),
                "{kind:?} survived in {text:?}: {out}"
            );
            assert!(
                out.contains(kind.placeholder()),
                "{kind:?} in {text:?}: {out}"
            );
        }
    }
}

#[test]
fn provider_prefixes_inside_words_are_not_tokens() {
    for text in [
        "the task-management-dashboard-component-v2 is done",
        "risk-assessment-framework-2024-edition",
        "Asian market AKIAx",
        "a slack message mentions xoxb- without a token",
        "sk-learn and sk-image are libraries",
    ] {
        assert_eq!(redact(text), text);
    }
}

#[test]
fn jwts() {
    let mut rng = Rng::new(14);
    let jwt = format!(
        "eyJhbGciOiJSUzI1NiJ9.eyJ{}.{}",
        rng.string(BASE64URL, 60),
        rng.string(BASE64URL, 86)
    );
    assert_eq!(
        redact(&format!("id_token: {jwt}")),
        "id_token: [REDACTED:jwt]"
    );
    assert_eq!(redact(&format!("jwt={jwt}")), "jwt=[REDACTED:jwt]");
    let unsigned = format!("eyJhbGciOiJub25lIn0.eyJ{}.", rng.string(BASE64URL, 30));
    assert_eq!(redact(&format!("t {unsigned} x")), "t [REDACTED:jwt] x");
}

#[test]
fn private_keys_whole_and_truncated() {
    let mut rng = Rng::new(15);
    let body: Vec<String> = (0..3).map(|_| rng.string(BASE64, 64)).collect();
    let key = format!(
        "-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----",
        body.join("\n")
    );
    assert_eq!(
        redact(&format!("before\n{key}\nafter")),
        "before\n[REDACTED:private_key]\nafter"
    );
    // Inside a JSON string, with escaped line breaks.
    let escaped = key.replace('\n', "\\n");
    assert_eq!(
        redact(&format!("{{\"key\": \"{escaped}\\n\"}}")),
        "{\"key\": \"[REDACTED:private_key]\\n\"}"
    );
    // Named `private_key`, the whole value goes.
    assert_eq!(
        redact(&format!("{{\"private_key\": \"{escaped}\\n\"}}")),
        "{\"private_key\": \"[REDACTED:private_key]\"}"
    );
    // Cut off before its end marker (a truncated tool output).
    let truncated = format!("-----BEGIN PRIVATE KEY-----\n{}\n{}", body[0], body[1]);
    let out = redact(&format!("{truncated}\n\n[… 4096 bytes elided …]"));
    assert_eq!(out, "[REDACTED:private_key]\n\n[… 4096 bytes elided …]");
    // Encrypted PGP key blocks too.
    let pgp = format!(
        "-----BEGIN PGP PRIVATE KEY BLOCK-----\n\n{}\n-----END PGP PRIVATE KEY BLOCK-----",
        body[2]
    );
    assert_eq!(redact(&pgp), "[REDACTED:private_key]");
}

#[test]
fn high_entropy_tokens_by_measured_entropy() {
    let mut rng = Rng::new(16);
    let token = mixed62(&mut rng, 40);
    let out = redact(&format!("session cookie {token} expires"));
    assert!(out.starts_with("session cookie [REDACTED:"), "{out}");
    assert!(out.ends_with("] expires"), "{out}");
    assert!(!out.contains(&token));
    let base64_secret = rng.string(BASE64, 44);
    let out = redact(&format!("value: {base64_secret}"));
    assert!(!out.contains(&base64_secret), "{out}");
}

#[test]
fn slack_webhooks_lose_their_path() {
    let mut rng = Rng::new(17);
    let path = format!(
        "T{}/B{}/{}",
        rng.string("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 8),
        rng.string("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", 10),
        mixed62(&mut rng, 24)
    );
    assert_eq!(
        redact(&format!("https://hooks.slack.com/services/{path}")),
        "https://hooks.slack.com/services/[REDACTED:slack_token]"
    );
}

#[test]
fn json_is_redacted_by_key() {
    let redactor = Redactor::new();
    let mut rng = Rng::new(18);
    let gh = format!("ghp_{}", mixed62(&mut rng, 36));
    let mut value = json!({
        "password": "hunter2",
        "api_key": "short",
        "token": gh,
        "Authorization": "Bearer abcdef",
        "max_tokens": 4096,
        "key": "r12",
        "env": [{"name": "DB_PASSWORD", "value": "hunter2"}, {"name": "LOG_LEVEL", "value": "debug"}],
        "nested": {"client_secret": "x", "note": "export TOKEN=abc123"},
        "secret": "${{ secrets.X }}",
        "credentials": {"user": "bob"},
    });
    let mut counts = RedactionCounts::default();
    redactor.redact_json(&mut value, &mut counts);
    assert_eq!(
        value,
        json!({
            "password": "[REDACTED:secret_assignment]",
            "api_key": "[REDACTED:secret_assignment]",
            "token": "[REDACTED:github_token]",
            "Authorization": "Bearer [REDACTED:authorization]",
            "max_tokens": 4096,
            "key": "r12",
            "env": [
                {"name": "DB_PASSWORD", "value": "[REDACTED:secret_assignment]"},
                {"name": "LOG_LEVEL", "value": "debug"}
            ],
            "nested": {"client_secret": "[REDACTED:secret_assignment]", "note": "export TOKEN=[REDACTED:secret_assignment]"},
            "secret": "${{ secrets.X }}",
            "credentials": {"user": "bob"},
        })
    );
    assert_eq!(counts.get(SecretKind::SecretAssignment), 5);
    assert_eq!(counts.get(SecretKind::GithubToken), 1);
    assert_eq!(counts.get(SecretKind::Authorization), 1);
}

#[test]
fn json_keys_holding_secrets_are_redacted_without_losing_entries() {
    let redactor = Redactor::new();
    let mut rng = Rng::new(19);
    let a = format!("ghp_{}", mixed62(&mut rng, 36));
    let b = format!("ghp_{}", mixed62(&mut rng, 36));
    let mut value = json!({ "first": 1, a.clone(): 2, b.clone(): 3, "last": 4 });
    let mut counts = RedactionCounts::default();
    redactor.redact_json(&mut value, &mut counts);
    let keys: Vec<_> = value.as_object().unwrap().keys().cloned().collect();
    assert_eq!(
        keys,
        [
            "first",
            "[REDACTED:github_token]",
            "[REDACTED:github_token] (2)",
            "last"
        ]
    );
    assert_eq!(counts.get(SecretKind::GithubToken), 2);
}

#[test]
fn deep_json_does_not_overflow_the_stack() {
    // Run on a thread with a known stack: the redactor must not need more than a little of it.
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(deep_json)
        .unwrap()
        .join()
        .unwrap();
}

fn deep_json() {
    let redactor = Redactor::new();
    let mut value = json!("PASSWORD=hunter2");
    for _ in 0..2000 {
        value = serde_json::Value::Array(vec![value]);
    }
    let mut counts = RedactionCounts::default();
    redactor.redact_json(&mut value, &mut counts);
    assert_eq!(counts.total(), 1);
    // Drop iteratively as well: serde_json's recursive drop is not what is under test.
    let mut v = value;
    while let serde_json::Value::Array(mut items) = v {
        v = items.pop().unwrap_or(serde_json::Value::Null);
    }
    assert_eq!(v, json!("PASSWORD=[REDACTED:secret_assignment]"));
}

#[test]
fn redacting_twice_changes_nothing() {
    let mut rng = Rng::new(20);
    let inputs = [
        format!("export GITHUB_TOKEN=ghp_{}", mixed62(&mut rng, 36)),
        "postgres://user:pw123456@host/db".to_string(),
        "https://x-access-token:abc@github.com".to_string(),
        "Authorization: Bearer abcdefghijklmnop1234".to_string(),
        "mysql -uroot -phunter2".to_string(),
        "password: |\n  a\n  b\n".to_string(),
        format!(
            "-----BEGIN PRIVATE KEY-----\n{}\n-----END PRIVATE KEY-----",
            rng.string(BASE64, 64)
        ),
        r#"{"pin": 1234, "token": "x"}"#.to_string(),
    ];
    let redactor = Redactor::new();
    for input in inputs {
        let mut counts = RedactionCounts::default();
        let once = redactor.redact_text(&input, &mut counts).expect("redacted");
        assert_eq!(redactor.redact_text(&once, &mut counts), None, "{once}");
    }
}
