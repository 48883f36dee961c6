//! `fornax record inspect|verify`: stored records point at their exact bytes, and tampering
//! with the source is reported for what it is.

use std::path::Path;
use std::process::Command;

fn fornax(home: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_fornax"))
        .env("FORNAX_HOME", home)
        .args(args)
        .output()
        .unwrap()
}

fn status(home: &Path, id: &str) -> String {
    let out = fornax(home, &["record", "verify", id, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    v["status"].as_str().unwrap().to_string()
}

#[test]
fn inspect_and_verify_against_the_source() {
    let work = tempfile::tempdir().unwrap();
    let home = work.path().join("home");
    let file = work.path().join("pi.jsonl");
    let sample = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("demo/pi-session.jsonl"),
    )
    .unwrap();
    std::fs::write(&file, &sample).unwrap();
    assert!(fornax(&home, &["scan", file.to_str().unwrap()])
        .status
        .success());

    let out = fornax(&home, &["record", "inspect", "2"]);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim_end(),
        sample.lines().nth(1).unwrap()
    );
    assert_eq!(status(&home, "2"), "verified");

    // Same length, different bytes.
    std::fs::write(&file, sample.replacen("anthropic", "ANTHROPIC", 1)).unwrap();
    assert_eq!(status(&home, "2"), "hash_mismatch");
    let out = fornax(&home, &["record", "verify", "2"]);
    assert_eq!(out.status.code(), Some(1));
    // Bytes that fail their fingerprint are not shown: the archived copy is, and said to be.
    let out = fornax(&home, &["record", "inspect", "2"]);
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("shown from the archive"));
    assert!(!String::from_utf8_lossy(&out.stdout).contains("ANTHROPIC"));

    std::fs::write(&file, &sample[..10]).unwrap();
    assert_eq!(status(&home, "2"), "source_short");
    std::fs::remove_file(&file).unwrap();
    assert_eq!(status(&home, "2"), "source_missing");
}

/// A Claude Code transcript line whose prompt carries a password and a token.
fn line_with_secrets(password: &str, token: &str, filler: usize) -> String {
    serde_json::json!({"parentUuid": null, "isSidechain": false, "userType": "external",
        "cwd": "/home/dev/vault", "sessionId": "6d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6",
        "version": "2.1.119", "type": "user", "uuid": "u1",
        "timestamp": "2026-03-14T08:00:00.000Z",
        "message": {"role": "user", "content": format!(
            "Deploy with DB_PASSWORD={password} and GITHUB_TOKEN={token}\n{}",
            "log line of an earlier run\n".repeat(filler))}})
    .to_string()
}

#[test]
fn inspect_redacts_by_default_bounds_its_output_and_shows_raw_bytes_only_when_asked() {
    let work = tempfile::tempdir().unwrap();
    let home = work.path().join("home");
    let file = work
        .path()
        .join("6d1e2f3a-4b5c-4d6e-8f70-8192a3b4c5d6.jsonl");
    // Built from pieces: no literal credential in the source.
    let password = format!("{}{}", "Tr0ub4dor", "&3xyz");
    let token = format!("gh{}_{}", "p", "Zk4Lm9Qr2Tv6Xy8Ab3Cd5Ef7Gh1Ij0KlMnOpQr");
    let line = line_with_secrets(&password, &token, 6000);
    std::fs::write(&file, format!("{line}\n")).unwrap();
    assert!(fornax(&home, &["scan", file.to_str().unwrap()])
        .status
        .success());

    // Redacted, and cut at the default bound (the record is about 160 KB).
    let out = fornax(&home, &["record", "inspect", "1"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        !text.contains(&password) && !text.contains(&token),
        "{text:.300}"
    );
    assert!(text.contains("DB_PASSWORD=[REDACTED:secret_assignment]"));
    assert!(text.contains("[REDACTED:github_token]"));
    assert!(text.len() <= 64 * 1024 + 1, "{} bytes printed", text.len());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cut at"), "{stderr}");

    // --max-bytes bounds it further; 0 shows it all, still redacted.
    let out = fornax(&home, &["record", "inspect", "1", "--max-bytes", "100"]);
    assert!(String::from_utf8(out.stdout).unwrap().trim_end().len() <= 100);
    let out = fornax(
        &home,
        &["record", "inspect", "1", "--max-bytes", "0", "--json"],
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["truncated"], false);
    assert_eq!(v["redactions"], 2);
    let shown = v["text"].as_str().unwrap();
    assert!(!shown.contains(&password) && !shown.contains(&token));
    assert!(shown.ends_with('}'), "the whole record, as JSON");

    // --raw prints the source's bytes, with a warning.
    let out = fornax(
        &home,
        &["record", "inspect", "1", "--raw", "--max-bytes", "0"],
    );
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim_end(), line);
    assert!(String::from_utf8_lossy(&out.stderr).contains("unredacted"));
}
