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
    let out = fornax(&home, &["record", "inspect", "2"]);
    assert!(
        !out.status.success(),
        "bytes that fail their fingerprint are not shown"
    );

    std::fs::write(&file, &sample[..10]).unwrap();
    assert_eq!(status(&home, "2"), "source_short");
    std::fs::remove_file(&file).unwrap();
    assert_eq!(status(&home, "2"), "source_missing");
}
