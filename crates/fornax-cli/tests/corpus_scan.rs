#![allow(clippy::print_stdout)] // a corpus test reports what it saw
//! `fornax scan` over the shared corpus of real agent data (skipped when it is absent): no
//! panic, a session for every JSONL session file, no unrecognized shape, a second scan that
//! changes nothing, and an appended line that adds exactly its items.

use std::path::{Path, PathBuf};
use std::process::Command;

fn shared() -> Option<PathBuf> {
    if let Ok(d) = std::env::var("FORNAX_SHARED_DIR") {
        return Some(PathBuf::from(d)).filter(|p| p.join("corpus").is_dir());
    }
    // The nearest `shared/corpus` above the workspace (its sibling in CI).
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(2)
        .map(|dir| dir.join("shared"))
        .find(|p| p.join("corpus").is_dir())
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir(from) {
        let rel = entry.strip_prefix(from).unwrap();
        let dest = to.join(rel);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&entry, &dest).unwrap();
    }
}

fn walkdir(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walkdir(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// Corpus files that are not a session's own file: one record cut out of a transcript (the
/// `__observed__` samples, which may name no session), and a workflow run's journal (its
/// agents' transcripts hold their sessions).
fn holds_no_session(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    name.contains("__observed__") || name.ends_with("__journal.jsonl")
}

fn fornax(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
    c.env("FORNAX_HOME", home).env("NO_COLOR", "1");
    c
}

fn scan(home: &Path, data: &Path) -> serde_json::Value {
    let out = fornax(home)
        .args(["scan", "--json"])
        .arg(data)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "scan failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn query(home: &Path, sql: &str) -> Vec<Vec<serde_json::Value>> {
    let out = fornax(home)
        .args(["query", "--json", sql])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    serde_json::from_value(v["rows"].clone()).unwrap()
}

#[test]
fn scanning_the_corpus() {
    let Some(shared) = shared() else {
        println!("skipped: ../shared/corpus is absent");
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("corpus");
    for dir in ["claude-transcript", "codex-rollout", "pi-session", "gemini"] {
        copy_tree(&shared.join("corpus").join(dir), &data.join(dir));
    }
    let home = work.path().join("home");

    let first = scan(&home, &data);
    println!("first scan: {}", serde_json::to_string(&first).unwrap());
    assert_eq!(first["errors"], serde_json::json!([]));
    assert_eq!(
        first["unrecognized"],
        serde_json::json!({}),
        "every shape the adapters claim is recognized"
    );

    // Every JSONL session file is a source that supports at least one session.
    let supported: std::collections::BTreeSet<String> = query(
        &home,
        "SELECT s.locator FROM source s WHERE EXISTS (SELECT 1 FROM session_source ss WHERE ss.source_id = s.id)",
    )
    .into_iter()
    .map(|r| r[0].as_str().unwrap().to_string())
    .collect();
    for file in walkdir(&data)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .filter(|p| !holds_no_session(p))
    {
        let canonical = std::fs::canonicalize(&file).unwrap().display().to_string();
        assert!(
            supported.contains(&canonical),
            "{} produced no session",
            file.display()
        );
    }

    let second = scan(&home, &data);
    let sources = &second["sources"];
    assert_eq!(sources["new"], 0);
    assert_eq!(sources["appended"], 0);
    assert_eq!(sources["rebuilt"], 0);
    assert_eq!(second["records"], 0);
    assert_eq!(second["items"], 0);
    assert_eq!(second["bytes_read"], 0, "an unchanged file is not read");

    // One appended Codex line adds exactly its item.
    let rollout = data.join("codex-rollout/agtrace__codex_session.jsonl");
    let before = query(&home, "SELECT COUNT(*) FROM item")[0][0]
        .as_i64()
        .unwrap();
    let line = serde_json::json!({
        "timestamp": "2030-01-01T00:00:00.000Z",
        "type": "event_msg",
        "payload": {"type": "user_message", "message": "one more thing: rename the flag", "images": []}
    });
    let mut text = std::fs::read_to_string(&rollout).unwrap();
    text.push_str(&format!("{line}\n"));
    std::fs::write(&rollout, text).unwrap();
    let third = scan(&home, &data);
    assert_eq!(third["sources"]["appended"], 1, "{third}");
    assert_eq!(third["records"], 1);
    let after = query(&home, "SELECT COUNT(*) FROM item")[0][0]
        .as_i64()
        .unwrap();
    assert_eq!(after, before + 1);
}
