//! A home written by the release before typed evidence payloads, typed finding reasons and
//! resumable verification keeps working: its stored evidence is read as typed payloads, its
//! findings keep their sentences until they are judged again, every session is owed a
//! judgement after the upgrade, and the next pass judges them all with typed reasons while the
//! old rows stay in the append-only history.
//!
//! `fixtures/upgrade/fornax-v3.db` is a database that release wrote (schema 3, checkpointed):
//! `fornax scan` of five of the labeled verdict sessions (e03, e07, e13, e16, e20), with their
//! evidence (adapter file diffs and sensor-derived exit codes, summaries and git outcomes),
//! claims and findings.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn fornax(home: &Path, args: &[&str]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_fornax"))
        .env("FORNAX_HOME", home)
        .env("NO_COLOR", "1")
        .env_remove("FORNAX_WORKSPACE")
        .args(args)
        .output()
        .expect("run fornax");
    assert!(
        out.status.success(),
        "fornax {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("json output")
}

fn count(home: &Path, table: &str) -> i64 {
    let v = fornax(
        home,
        &["query", &format!("SELECT COUNT(*) FROM {table}"), "--json"],
    );
    v["rows"][0][0].as_i64().expect("a count")
}

#[test]
fn a_home_from_the_previous_release_is_read_typed_and_judged_again() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).expect("home");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/upgrade/fornax-v3.db"),
        home.join("fornax.db"),
    )
    .expect("the previous release's database");

    // Before any pass: the old findings read as they were, sentences and all.
    let before = fornax(&home, &["findings", "--json"]);
    let before = before["findings"].as_array().expect("findings").clone();
    assert_eq!(before.len(), 13);
    for f in &before {
        assert_eq!(f["reason"]["form"], "legacy", "{f:#}");
        assert!(!f["rationale"].as_str().unwrap_or("").is_empty(), "{f:#}");
        for e in f["evidence"].as_array().expect("evidence") {
            let d = e["description"].as_str().unwrap_or("");
            assert!(
                !d.starts_with("unreadable") && d != "evidence no longer stored",
                "stored evidence reads as a typed payload: {e:#}"
            );
        }
    }
    // The upgrade owes every session a judgement.
    assert_eq!(count(&home, "verify_pending"), 5);
    let rows_before = count(&home, "finding");

    // The next pass (nothing new to read) judges them all.
    let empty = tmp.path().join("nothing-new");
    std::fs::create_dir_all(&empty).expect("dir");
    let summary = fornax(&home, &["scan", "--json", empty.to_str().expect("utf-8")]);
    assert!(
        summary.get("unreadable_evidence").is_none(),
        "every stored evidence row is readable: {summary:#}"
    );
    assert_eq!(count(&home, "verify_pending"), 0);
    let after = fornax(&home, &["findings", "--json"]);
    let after = after["findings"].as_array().expect("findings").clone();
    assert!(after.len() >= before.len(), "{after:#?}");
    for f in &after {
        assert_eq!(f["reason"]["form"], "typed", "{f:#}");
        let rationale = f["rationale"].as_str().unwrap_or("");
        assert!(!rationale.is_empty());
        for e in f["evidence"].as_array().expect("evidence") {
            let id = e["id"].as_str().unwrap_or("");
            assert!(
                !rationale.contains(id),
                "a rationale names no evidence id: {rationale}"
            );
        }
    }
    // Every claim judged before is judged again, and the old rows stay in the history.
    for f in &before {
        let text = f["claim"]["text"].as_str().unwrap_or("");
        assert!(
            after.iter().any(|g| g["claim"]["text"] == text),
            "{text:?} lost its finding"
        );
    }
    assert!(count(&home, "finding") > rows_before);
    // Judging again changes nothing more.
    fornax(&home, &["scan", "--json", empty.to_str().expect("utf-8")]);
    let again = fornax(&home, &["findings", "--json"]);
    assert_eq!(again["findings"], Value::Array(after));

    // Its records were stored before the archive: they have no copy, doctor counts them, and
    // a rebuild from the archive is refused rather than losing them.
    let doctor = fornax(&home, &["doctor", "--json"]);
    let archive = &doctor["history"]["archive"];
    assert_eq!(archive["copies"], 0, "{archive}");
    assert!(
        archive["records_not_archived"].as_u64().unwrap_or(0) > 0,
        "{archive}"
    );
    let refused = Command::new(env!("CARGO_BIN_EXE_fornax"))
        .env("FORNAX_HOME", &home)
        .env("FORNAX_DAEMON_AUTOSTART", "0")
        .arg("reindex")
        .output()
        .expect("fornax reindex");
    assert!(!refused.status.success());
    assert!(count(&home, "item") > 0, "the index is kept as it was");
}
