//! The archive through the real binary: a session whose transcript the agent deleted stays
//! complete (`show`, findings, search, `record inspect` read what the store and its archive
//! hold), `record verify` says the source is gone and the copy intact, and `fornax reindex`
//! rebuilds from the archive alone an index identical to the scan that read the files.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

fn fornax(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fornax"))
        .env("FORNAX_HOME", home)
        .env("FORNAX_DAEMON_AUTOSTART", "0")
        .env("NO_COLOR", "1")
        .env_remove("FORNAX_WORKSPACE")
        .args(args)
        .output()
        .unwrap()
}

fn ok(home: &Path, args: &[&str]) -> String {
    let out = fornax(home, args);
    assert!(
        out.status.success(),
        "fornax {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn json(home: &Path, args: &[&str]) -> Value {
    serde_json::from_str(&ok(home, args)).unwrap()
}

/// The one number a `SELECT COUNT(*) …` answers, through `fornax query`.
fn count(home: &Path, sql: &str) -> i64 {
    json(home, &["query", sql, "--json"])["rows"][0][0]
        .as_i64()
        .unwrap()
}

/// The projections, without row ids or the times a row was written: sessions, items (with
/// their texts and the records they cite, by source and position), loops, usage, claims and
/// current findings.
fn projections(home: &Path) -> Value {
    let queries = [
        "SELECT provider, native_id, cwd, name, created_at, parent_native_id, last_activity
         FROM session ORDER BY provider, native_id",
        "SELECT s.native_id, i.key, i.loop_position, i.at, i.role, i.strength, i.kind, i.value,
                i.tool_name, i.call_id, i.exit_code, i.failed, t.body
         FROM item i JOIN session s ON s.id = i.session_id LEFT JOIN text t ON t.id = i.text_id
         ORDER BY s.native_id, i.key",
        "SELECT s.native_id, i.key, src.source_key, r.position, r.byte_start, r.byte_end,
                hex(r.fingerprint), hex(r.archived)
         FROM item_record ir JOIN item i ON i.id = ir.item_id JOIN session s ON s.id = i.session_id
         JOIN record r ON r.id = ir.record_id JOIN source src ON src.id = r.source_id
         ORDER BY 1, 2, 3, 4",
        "SELECT s.native_id, l.position, l.native_id, l.started_at, l.outcome, l.ended_at, l.model,
                l.input_tokens, l.output_tokens
         FROM loop l JOIN session s ON s.id = l.session_id ORDER BY 1, 2",
        "SELECT provider, key, at, model, input_tokens, output_tokens FROM usage ORDER BY 1, 2",
        "SELECT s.native_id, c.claim_key, c.subject, c.text, c.target
         FROM claim c JOIN session s ON s.id = c.session_id ORDER BY 1, 2",
        "SELECT s.native_id, f.claim_key, f.verdict, f.rationale, f.rule
         FROM finding f JOIN session s ON s.id = f.session_id
         WHERE f.id = (SELECT MAX(id) FROM finding g
                       WHERE g.session_id = f.session_id AND g.claim_key = f.claim_key)
         ORDER BY 1, 2",
        "SELECT source_key, kind, adapter, status, cursor, next_position FROM source ORDER BY 1",
    ];
    Value::Array(
        queries
            .iter()
            .map(|q| json(home, &["query", q, "--json"])["rows"].clone())
            .collect(),
    )
}

/// Equal projections, or the first row that differs (the whole of them is too long to read).
fn assert_same(actual: &Value, expected: &Value, what: &str) {
    for (q, (a, e)) in actual
        .as_array()
        .unwrap()
        .iter()
        .zip(expected.as_array().unwrap())
        .enumerate()
    {
        let (a, e) = (a.as_array().unwrap(), e.as_array().unwrap());
        for (row, (x, y)) in a.iter().zip(e).enumerate() {
            assert_eq!(x, y, "{what}: projection {q}, row {row}");
        }
        assert_eq!(a.len(), e.len(), "{what}: projection {q} row count");
    }
}

const CLAUDE_SESSION: &str = "5b7c1f0e";

#[test]
fn a_deleted_source_stays_readable_and_reindex_rebuilds_it_from_the_archive() {
    let work = tempfile::tempdir().unwrap();
    let (home, data) = (work.path().join("home"), work.path().join("data"));
    std::fs::create_dir_all(&data).unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/e2e");
    for entry in std::fs::read_dir(&fixtures).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), data.join(entry.file_name())).unwrap();
    }
    let transcript = data.join("claude-transcript.jsonl");
    ok(&home, &["scan", data.to_str().unwrap()]);
    let scanned = projections(&home);
    let shown_before = ok(&home, &["show", CLAUDE_SESSION]);
    let record: i64 = json(
        &home,
        &[
            "query",
            "SELECT r.id FROM record r JOIN source s ON s.id = r.source_id
             WHERE s.locator LIKE '%claude-transcript.jsonl' ORDER BY r.position DESC LIMIT 1",
            "--json",
        ],
    )["rows"][0][0]
        .as_i64()
        .unwrap();
    let id = record.to_string();
    let inspected_live = ok(&home, &["record", "inspect", &id]);

    // The agent deletes its transcript; the next scan notices.
    std::fs::remove_file(&transcript).unwrap();
    ok(&home, &["scan", data.to_str().unwrap()]);

    assert_eq!(ok(&home, &["show", CLAUDE_SESSION]), shown_before);
    let findings = json(
        &home,
        &["findings", CLAUDE_SESSION, "--json", "--limit", "all"],
    );
    assert!(
        findings.to_string().contains("CONTRADICTED")
            || findings.to_string().contains("contradicted"),
        "the deleted session's findings are kept: {findings}"
    );
    let hits = ok(&home, &["search", "monthly totals"]);
    assert!(
        hits.contains(CLAUDE_SESSION),
        "search still finds the session: {hits}"
    );

    let verify = fornax(&home, &["record", "verify", &id, "--json"]);
    assert_eq!(
        verify.status.code(),
        Some(1),
        "a missing source is not verified"
    );
    let verify: Value = serde_json::from_slice(&verify.stdout).unwrap();
    assert_eq!(verify["status"], "source_missing");
    assert_eq!(verify["archive"], "intact");

    let inspect = fornax(&home, &["record", "inspect", &id]);
    assert!(
        inspect.status.success(),
        "{}",
        String::from_utf8_lossy(&inspect.stderr)
    );
    assert!(String::from_utf8_lossy(&inspect.stderr).contains("from the archive"));
    assert_eq!(String::from_utf8(inspect.stdout).unwrap(), inspected_live);

    // Rebuilt from the archive alone, the index is the one the scan of the files built.
    let before_reindex = projections(&home);
    ok(&home, &["reindex"]);
    assert_same(&projections(&home), &before_reindex, "reindexed vs before");
    assert_same(&projections(&home), &scanned, "reindexed vs scanned");
    assert_eq!(ok(&home, &["show", CLAUDE_SESSION]), shown_before);
    let verify: Value =
        serde_json::from_slice(&fornax(&home, &["record", "verify", &id, "--json"]).stdout)
            .unwrap();
    assert_eq!(verify["archive"], "intact");

    // A rescan after the rebuild reads nothing again.
    let rescan = json(&home, &["scan", data.to_str().unwrap(), "--json"]);
    assert_eq!(rescan["records"], 0, "{rescan}");

    // Identical records are kept once: a copy of a transcript adds no archived bytes.
    let before = count(&home, "SELECT COUNT(*) FROM archive_blob");
    std::fs::copy(
        data.join("pi-session.jsonl"),
        data.join("pi-session-copy.jsonl"),
    )
    .unwrap();
    ok(&home, &["scan", data.to_str().unwrap()]);
    assert_eq!(count(&home, "SELECT COUNT(*) FROM archive_blob"), before);
}

#[test]
fn with_the_archive_off_no_copy_is_kept_and_reindex_refuses() {
    let work = tempfile::tempdir().unwrap();
    let (home, data) = (work.path().join("home"), work.path().join("data"));
    std::fs::create_dir_all(&home).unwrap();
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(home.join("config.toml"), "[archive]\nenabled = false\n").unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/e2e");
    std::fs::copy(
        fixtures.join("claude-transcript.jsonl"),
        data.join("claude-transcript.jsonl"),
    )
    .unwrap();
    ok(&home, &["scan", data.to_str().unwrap()]);
    let n = json(
        &home,
        &["query", "SELECT COUNT(*) FROM archive_blob", "--json"],
    );
    assert_eq!(n["rows"][0][0], 0);
    let verify: Value =
        serde_json::from_slice(&fornax(&home, &["record", "verify", "1", "--json"]).stdout)
            .unwrap();
    assert_eq!(verify["status"], "verified");
    assert_eq!(verify["archive"], "not_archived");
    let out = fornax(&home, &["reindex"]);
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("no archived copy"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doctor = json(&home, &["doctor", "--json"]);
    assert_eq!(doctor["history"]["archive_enabled"], false);
}

#[test]
fn doctor_warns_when_claude_code_will_delete_transcripts() {
    let work = tempfile::tempdir().unwrap();
    let (home, claude) = (work.path().join("home"), work.path().join("claude"));
    std::fs::create_dir_all(&claude).unwrap();
    std::fs::write(claude.join("settings.json"), r#"{"cleanupPeriodDays": 7}"#).unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/e2e");
    ok(&home, &["scan", fixtures.to_str().unwrap()]);
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_fornax"))
            .env("FORNAX_HOME", &home)
            .env("FORNAX_DAEMON_AUTOSTART", "0")
            .env("CLAUDE_CONFIG_DIR", &claude)
            .env("NO_COLOR", "1")
            .args(args)
            .output()
            .unwrap()
    };
    let report: Value = serde_json::from_slice(&run(&["doctor", "--json"]).stdout).unwrap();
    let c = &report["history"]["claude_code"];
    assert_eq!(c["cleanup_period_days"], 7);
    assert_eq!(c["cleanup_period_set"], true);
    assert_eq!(report["history"]["archive"]["sessions_archived"], 4);
    let text = String::from_utf8_lossy(&run(&["doctor"]).stderr).into_owned();
    assert!(text.contains("older than 7 days"), "{text}");
    assert!(text.contains("4 of 4 sessions are archived"), "{text}");

    std::fs::remove_file(claude.join("settings.json")).unwrap();
    let report: Value = serde_json::from_slice(&run(&["doctor", "--json"]).stdout).unwrap();
    assert_eq!(report["history"]["claude_code"]["cleanup_period_days"], 30);
    assert_eq!(
        report["history"]["claude_code"]["cleanup_period_set"],
        false
    );
}

/// A copy lives as long as a record names it: forgetting a session deletes its copies, and a
/// rewritten file's old copies go with its old records.
#[test]
fn forgetting_a_session_or_rewriting_its_file_leaves_no_orphaned_copy() {
    let work = tempfile::tempdir().unwrap();
    let (home, data) = (work.path().join("home"), work.path().join("data"));
    std::fs::create_dir_all(&data).unwrap();
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/e2e");
    for name in ["claude-transcript.jsonl", "pi-session.jsonl"] {
        std::fs::copy(fixtures.join(name), data.join(name)).unwrap();
    }
    ok(&home, &["scan", data.to_str().unwrap()]);
    let orphans = |home: &Path| {
        count(
            home,
            "SELECT COUNT(*) FROM archive_blob
             WHERE hash NOT IN (SELECT archived FROM record WHERE archived IS NOT NULL)",
        )
    };
    let all = count(&home, "SELECT COUNT(*) FROM archive_blob");
    assert!(all > 0);

    // The pi session's file is rewritten (its last line changed): a rebuild.
    let pi = data.join("pi-session.jsonl");
    let text = std::fs::read_to_string(&pi).unwrap();
    std::fs::write(
        &pi,
        text.replacen("All tests pass.", "All tests passed.", 1),
    )
    .unwrap();
    ok(&home, &["scan", data.to_str().unwrap()]);
    assert_eq!(orphans(&home), 0);

    ok(&home, &["forget", CLAUDE_SESSION]);
    assert_eq!(orphans(&home), 0);
    assert!(
        count(&home, "SELECT COUNT(*) FROM archive_blob") < all,
        "the forgotten session's copies are gone"
    );
}
