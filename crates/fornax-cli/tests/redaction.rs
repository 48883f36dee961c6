//! Secrets planted in every kind of field never reach the SQLite file or its WAL, and
//! look-alikes survive.

use std::path::Path;
use std::process::Command;

/// One canary per detector kind. Built from pieces so that no literal secret sits in the repo.
fn canaries() -> Vec<(&'static str, String)> {
    let x = |n: usize, c: char| c.to_string().repeat(n);
    vec![
        ("aws_access_key_id", format!("AKIA{}", "Q7R2V5X8Z3B6D9F1")),
        (
            "aws_secret_key",
            format!(
                "aws_secret_access_key={}",
                "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzq8Xk2Lw9T"
            ),
        ),
        (
            "github_token",
            format!("ghp_{}", "Zk4Lm9Qr2Tv6Xy8Ab3Cd5Ef7Gh1Ij0KlMnOp"),
        ),
        (
            "github_pat",
            format!(
                "github_pat_{}_{}",
                "11ABCDEFG0123456789abc",
                "defghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVW"
            ),
        ),
        ("gitlab_token", format!("glpat-{}", "xY3kP9mQ2wR7tV5zB8nC")),
        (
            "slack_token",
            format!(
                "xoxb-{}-{}-{}",
                "123456789012", "1234567890123", "AbCdEfGhIjKlMnOpQrStUvWx"
            ),
        ),
        (
            "stripe_key",
            format!("sk_live_{}", "51HqZ8kLm3Np7Qr9St2Uv4Wx6Yz0Ab"),
        ),
        (
            "openai_key",
            format!("sk-proj-{}", "Tq8Zr4Mv7Kp2Ln5Xw9Jb3Hc6Fd1Gs0Ay_bCdEfGhIjK"),
        ),
        (
            "anthropic_key",
            format!(
                "sk-ant-api03-{}",
                "Pq7Rs9Tu2Vw4Xy6Za8Bc0De1Fg3Hi5Jk7Lm9No-AbCdEf"
            ),
        ),
        (
            "google_api_key",
            format!("AIza{}", "SyB3xK9mQ2wR7tV5zB8nC4dF6gH1jL0pN3q"),
        ),
        (
            "npm_token",
            format!("npm_{}", "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"),
        ),
        (
            "pypi_token",
            format!("pypi-{}{}", "AgEIcHlwaS5vcmcCJ", x(40, 'q')),
        ),
        (
            "jwt",
            format!(
                "eyJhbGciOiJIUzI1NiJ9.{}.{}",
                "eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkFkYSJ9",
                "dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk"
            ),
        ),
        (
            "bearer",
            format!("Authorization: Bearer {}", "tok3n-Vq9Xr2Mz7Kp4Ln8Ws"),
        ),
        (
            "url_credentials",
            format!("postgres://app:{}@db.internal:5432/main", "S3cr3tPassw0rd!"),
        ),
        ("secret_assignment", format!("DB_PASSWORD={}", "hunter2xyz")),
        (
            "cli_password",
            format!("mysql -u root --password {}", "Tr0ub4dor3"),
        ),
        (
            "private_key",
            format!(
                "-----BEGIN RSA PRIVATE KEY-----\n{}\n-----END RSA PRIVATE KEY-----",
                "MIIEowIBAAKCAQEAy8Dbv8prpJ/0kKhlGeJYozo2t60EG8L0561g13R29LvMR5hy"
            ),
        ),
    ]
}

/// The part of each canary that must never be stored.
fn secret_part(kind: &str, canary: &str) -> String {
    match kind {
        "aws_secret_key" | "secret_assignment" => canary.split('=').nth(1).unwrap().to_string(),
        "bearer" => canary.rsplit(' ').next().unwrap().to_string(),
        "url_credentials" => canary
            .split(':')
            .nth(2)
            .unwrap()
            .split('@')
            .next()
            .unwrap()
            .to_string(),
        "cli_password" => canary.rsplit(' ').next().unwrap().to_string(),
        "private_key" => canary.lines().nth(1).unwrap().to_string(),
        _ => canary.to_string(),
    }
}

const LOOKALIKES: &[&str] = &[
    "9e1d2c3b4a5f60718293a4b5c6d7e8f901234567",
    "[main 4f2a9c1] route: skip closed depots",
    "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b",
    "/home/dev/project/src/very/long/path/to/module_with_a_long_name.rs",
    "sha256:3f4e5d6c7b8a9f0e1d2c3b4a5f6e7d8c9b0a1f2e3d4c5b6a7f8e9d0c1b2a3f4e",
    "version 2.1.119 (build 20260314)",
    "test_handles_unicode_normalization_correctly ... ok",
];

fn fornax(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
    c.env("FORNAX_HOME", home).env("NO_COLOR", "1");
    c
}

#[test]
fn canaries_never_reach_the_database() {
    let work = tempfile::tempdir().unwrap();
    let home = work.path().join("home");
    let data = work.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let session = "7f3e2d1c-0b9a-4876-a5b4-c3d2e1f0a9b8";
    let base = |t: &str, uuid: &str, parent: Option<&str>, ts: &str| {
        serde_json::json!({"parentUuid": parent, "isSidechain": false, "userType": "external", "cwd": "/home/dev/vault",
            "sessionId": session, "version": "2.1.119", "type": t, "uuid": uuid, "timestamp": ts})
    };
    let mut lines = Vec::new();
    let all: Vec<String> = canaries().into_iter().map(|(_, c)| c).collect();
    let joined = all.join("\n");
    let mut u = base("user", "u1", None, "2026-01-01T00:00:00Z");
    u["message"] = serde_json::json!({"role": "user", "content": format!("Here are my credentials:\n{joined}\nand some ids: {}", LOOKALIKES.join(" | "))});
    lines.push(u);
    for (i, c) in all.iter().enumerate() {
        let id = format!("toolu_{i:02}");
        let mut a = base(
            "assistant",
            &format!("a{i}"),
            Some("u1"),
            "2026-01-01T00:00:01Z",
        );
        a["message"] = serde_json::json!({"id": format!("msg_{i}"), "type": "message", "role": "assistant", "model": "m",
            "content": [
                {"type": "text", "text": format!("I exported {c} and all tests pass.")},
                {"type": "tool_use", "id": id, "name": "Bash", "input": {"command": format!("export TOKEN='{c}' && ./deploy.sh --token {c}"), "env": {"API_KEY": c}}}
            ], "stop_reason": "tool_use", "stop_sequence": null, "usage": {"input_tokens": 1, "output_tokens": 1}});
        lines.push(a);
        let mut r = base(
            "user",
            &format!("r{i}"),
            Some(&format!("a{i}")),
            "2026-01-01T00:00:02Z",
        );
        r["message"] = serde_json::json!({"role": "user", "content": [{"tool_use_id": id, "type": "tool_result", "content": format!("deployed with {c}\n{}", LOOKALIKES.join("\n")), "is_error": false}]});
        r["toolUseResult"] = serde_json::json!({"stdout": format!("deployed with {c}"), "stderr": format!("warning: {c}"), "interrupted": false, "isImage": false});
        lines.push(r);
    }
    let body: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::write(data.join(format!("{session}.jsonl")), body).unwrap();

    let out = fornax(&home)
        .args(["scan", "--json"])
        .arg(&data)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(summary["items"].as_u64().unwrap() > 30, "{summary}");
    assert!(
        summary["redactions"]
            .as_object()
            .is_some_and(|r| !r.is_empty()),
        "{summary}"
    );

    let mut bytes = Vec::new();
    for name in ["fornax.db", "fornax.db-wal"] {
        if let Ok(b) = std::fs::read(home.join(name)) {
            bytes.extend(b);
        }
    }
    assert!(!bytes.is_empty());
    // Long texts and checkpoints are zstd-packed in the file: read them decoded too.
    let store = fornax_store::Store::open_read_only(&home.join("fornax.db")).unwrap();
    let limits = fornax_store::QueryLimits {
        max_rows: usize::MAX,
        max_output_bytes: 1 << 30,
        timeout: std::time::Duration::from_secs(120),
    };
    for sql in [
        "SELECT body FROM text",
        "SELECT unpacked(adapter_state) FROM source",
    ] {
        for row in store.query(sql, limits).unwrap().rows {
            for v in row {
                if let serde_json::Value::String(s) = v {
                    bytes.extend(s.as_bytes());
                    bytes.push(0);
                }
            }
        }
    }
    drop(store);
    let contains = |needle: &str| bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
    for (kind, canary) in canaries() {
        let secret = secret_part(kind, &canary);
        assert!(
            !contains(&secret),
            "{kind} canary {secret:?} reached the database"
        );
    }
    for l in LOOKALIKES {
        assert!(contains(l), "look-alike {l:?} was damaged or lost");
    }
    // Counts only, never the secret.
    let q = fornax(&home)
        .args(["query", "--json", "SELECT SUM(count) FROM redaction"])
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&q.stdout).unwrap();
    assert!(v["rows"][0][0].as_i64().unwrap() >= canaries().len() as i64);
}
