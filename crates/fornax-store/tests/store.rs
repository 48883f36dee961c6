//! The store on a real SQLite file.

use fornax_redact::{Redactable, Redacted, RedactionCounts, Redactor};
use fornax_store::{
    FindingFilter, QueryLimits, SourceCursor, SourceSpec, Store, StoreError, VerificationWrite,
};
use fornax_types::*;
use serde_json::json;

/// What the pipeline hands the store: the value through the redactor.
fn sealed<T: Redactable>(value: T) -> Redacted<T> {
    Redactor::new().redact(value, &mut RedactionCounts::default())
}

fn spec(key: &str) -> SourceSpec {
    SourceSpec {
        key: key.into(),
        provider: "codex".into(),
        kind: "file".into(),
        locator: format!("/tmp/{key}.jsonl"),
        adapter: "codex-rollout".into(),
        session_hint: None,
    }
}

fn sref() -> SessionRef {
    SessionRef::new(Provider::Codex, "sess-1")
}

fn text_item(key: &str, source: &str, pos: u64, role: Role, text: &str) -> IngestMessage {
    IngestMessage::Item(Item {
        session: sref(),
        key: key.into(),
        loop_position: Some(0),
        at: Some(format!("2026-01-01T00:00:0{pos}Z")),
        semantic: Semantic::new(
            role,
            SemanticValue::Text(TextValue::full(text)),
            EvidenceStrength::Structural,
        ),
        records: vec![RecordRef::new(SourceId::new(source), pos)],
    })
}

fn write_source(store: &mut Store, key: &str, rebuild: bool, texts: &[&str]) {
    let mut w = store.begin_source(&spec(key), rebuild).unwrap();
    for (i, t) in texts.iter().enumerate() {
        w.add_record(
            i as u64,
            Some(ByteRange {
                start: i as u64 * 10,
                end: i as u64 * 10 + 9,
            }),
            &Fingerprint::of(t.as_bytes()),
            None,
        )
        .unwrap();
        w.apply(&sealed(text_item(
            &format!("k{i}"),
            key,
            i as u64,
            Role::AgentFinalAnswer,
            t,
        )))
        .unwrap();
    }
    w.finish(
        &SourceCursor {
            offset: texts.len() as u64 * 10,
            ..Default::default()
        },
        texts.len() as u64,
        None,
        0,
        0,
        0,
        "now",
    )
    .unwrap();
}

#[test]
fn items_round_trip_with_their_witnesses() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    write_source(
        &mut store,
        "a",
        false,
        &["all tests pass", "committed the fix"],
    );
    let root = store.resolve_session("sess").unwrap();
    let family = store.family(root).unwrap();
    assert_eq!(family.items.len(), 1);
    let items = &family.items[0];
    assert_eq!(items.len(), 2);
    assert_eq!(
        items[0].semantic.value.primary_text(),
        Some("all tests pass")
    );
    assert_eq!(
        items[1].records,
        vec![RecordRef::new(SourceId::new("a"), 1)]
    );
}

#[test]
fn dropping_a_writer_publishes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    {
        let mut w = store.begin_source(&spec("a"), false).unwrap();
        w.add_record(0, None, &Fingerprint::of(b"x"), None).unwrap();
        w.apply(&sealed(text_item(
            "k0",
            "a",
            0,
            Role::HumanRequest,
            "hello",
        )))
        .unwrap();
        // No finish: simulated crash.
    }
    assert!(store.source_state("a").unwrap().is_none());
    let r = store
        .query("SELECT COUNT(*) FROM item", QueryLimits::default())
        .unwrap();
    assert_eq!(r.rows[0][0], json!(0));
}

#[test]
fn rebuild_replaces_a_sources_items() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    write_source(&mut store, "a", false, &["one", "two", "three"]);
    write_source(&mut store, "a", true, &["uno"]);
    let r = store
        .query("SELECT COUNT(*) FROM item", QueryLimits::default())
        .unwrap();
    assert_eq!(r.rows[0][0], json!(1));
    let r = store
        .query("SELECT COUNT(*) FROM record", QueryLimits::default())
        .unwrap();
    assert_eq!(r.rows[0][0], json!(1));
}

#[test]
fn text_is_deduplicated_and_searchable_by_substring() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    write_source(
        &mut store,
        "a",
        false,
        &[
            "the ledger rounding is fixed",
            "the ledger rounding is fixed",
        ],
    );
    let r = store
        .query("SELECT COUNT(*) FROM text", QueryLimits::default())
        .unwrap();
    assert_eq!(r.rows[0][0], json!(1));
    let hits = store.search("dger roun", 10, false).unwrap();
    assert_eq!(hits.len(), 2);
    assert!(hits[0].snippet.contains("ledger rounding"));
}

fn pending_texts(store: &Store) -> serde_json::Value {
    store
        .query("SELECT COUNT(*) FROM fts_pending", QueryLimits::default())
        .unwrap()
        .rows[0][0]
        .clone()
}

#[test]
fn search_sees_texts_before_and_after_the_index_is_flushed() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.db");
    let mut store = Store::open(&path).unwrap();
    write_source(&mut store, "a", false, &["the ledger rounding is fixed"]);
    // Written, not yet in the FTS index: search scans pending texts.
    assert_eq!(pending_texts(&store), json!(1));
    assert_eq!(store.search("dger roun", 10, false).unwrap().len(), 1);
    assert_eq!(store.flush_search_index().unwrap(), 1);
    assert_eq!(pending_texts(&store), json!(0));
    assert_eq!(store.search("dger roun", 10, false).unwrap().len(), 1);
    assert_eq!(store.flush_search_index().unwrap(), 0);

    // A scan that dies before flushing: the next open indexes what it left pending.
    write_source(&mut store, "b", false, &["a second ledger entry"]);
    assert_eq!(pending_texts(&store), json!(1));
    drop(store);
    let store = Store::open(&path).unwrap();
    assert_eq!(pending_texts(&store), json!(0));
    let hits = store.search("second ledg", 10, false).unwrap();
    assert_eq!(hits.len(), 1);
    assert!(hits[0].snippet.contains("second ledger"));
    let r = store
        .query(
            "SELECT COUNT(*) FROM text WHERE indexed = 1",
            QueryLimits::default(),
        )
        .unwrap();
    assert_eq!(r.rows[0][0], json!(2));
}

#[test]
fn verification_reads_tool_outputs_one_at_a_time() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    let mut w = store.begin_source(&spec("a"), false).unwrap();
    w.add_record(0, None, &Fingerprint::of(b"x"), None).unwrap();
    w.apply(&sealed(text_item(
        "k0",
        "a",
        0,
        Role::AgentFinalAnswer,
        "done",
    )))
    .unwrap();
    let output = ToolOutputValue {
        call_id: Some("c1".into()),
        tool_name: Some("Bash".into()),
        text: Some(TextValue::full("test result: ok. 3 passed")),
        stderr: None,
        exit_code: None,
        failed: Some(false),
        interrupted: None,
        duration_ms: None,
        runtime_truncated: None,
    };
    w.apply(&sealed(IngestMessage::Item(Item {
        session: sref(),
        key: "k1".into(),
        loop_position: Some(0),
        at: None,
        semantic: Semantic::new(
            Role::ToolOutput,
            SemanticValue::ToolOutput(output),
            EvidenceStrength::Structural,
        ),
        records: vec![RecordRef::new(SourceId::new("a"), 0)],
    })))
    .unwrap();
    w.finish(&SourceCursor::default(), 1, None, 0, 0, 0, "now")
        .unwrap();
    let root = store.resolve_session("sess").unwrap();
    let full = store.family(root).unwrap();
    let lean = store.family_for_verification(root).unwrap();
    assert_eq!(lean.items[0].len(), 2);
    assert_eq!(lean.items[0][0].semantic.value.primary_text(), Some("done"));
    assert_eq!(lean.items[0][1].semantic.value.primary_text(), Some(""));
    assert_eq!(lean.deferred_texts[0][0], None);
    let id = lean.deferred_texts[0][1].expect("the output's text is deferred");
    assert_eq!(
        store.text_body(id).unwrap().as_deref(),
        Some("test result: ok. 3 passed")
    );
    assert_eq!(
        full.items[0][1].semantic.value.primary_text(),
        Some("test result: ok. 3 passed")
    );
}

#[test]
fn the_query_surface_refuses_writes_attach_and_pragmas() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    write_source(&mut store, "a", false, &["x"]);
    for sql in [
        "DELETE FROM item",
        "INSERT INTO session (provider, native_id) VALUES ('a', 'b')",
        "ATTACH DATABASE '/tmp/evil.db' AS evil",
        "PRAGMA user_version = 9",
        "DROP TABLE item",
        "SELECT 1; DELETE FROM item",
    ] {
        let err = store.query(sql, QueryLimits::default()).unwrap_err();
        assert!(
            matches!(err, StoreError::QueryRefused(_) | StoreError::Query(_)),
            "{sql}: {err}"
        );
    }
    let r = store
        .query("SELECT COUNT(*) FROM item", QueryLimits::default())
        .unwrap();
    assert_eq!(r.rows[0][0], json!(1));
}

#[test]
fn query_limits_rows_and_time() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("f.db")).unwrap();
    let r = store
        .query("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n LIMIT 5000) SELECT i FROM n", QueryLimits { max_rows: 10, ..QueryLimits::default() })
        .unwrap();
    assert_eq!(r.rows.len(), 10);
    assert!(r.truncated);
    let err = store
        .query(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT COUNT(*) FROM n",
            QueryLimits { timeout: std::time::Duration::from_millis(100), ..QueryLimits::default() },
        )
        .unwrap_err();
    assert!(err.to_string().contains("time limit"), "{err}");
}

#[test]
fn findings_are_append_only_and_latest_is_current() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    write_source(&mut store, "a", false, &["All tests pass."]);
    let id = store.resolve_session("sess-1").unwrap();
    let claim = Claim {
        id: "k0#0:test_result".into(),
        session: sref(),
        item_key: "k0".into(),
        loop_position: Some(0),
        subject: ClaimSubject::TestResult,
        text: "All tests pass.".into(),
        target: ClaimTarget::default(),
        scope: Default::default(),
        quantity: Default::default(),
        actor: Default::default(),
        at: None,
    };
    let finding = |v: Verdict| Finding {
        claim_id: claim.id.clone(),
        session: sref(),
        verdict: v,
        reason: Reason::NoCommitRun,
        evidence: vec![],
        rule: "test".into(),
    };
    let write = |store: &mut Store, f: Finding, at: &str| {
        store
            .write_verification(
                &[id],
                &VerificationWrite {
                    derived: &[],
                    host: &[],
                    claims: &[sealed(claim.clone())],
                    findings: &[sealed(f)],
                },
                at,
            )
            .unwrap()
    };
    assert_eq!(write(&mut store, finding(Verdict::Unverified), "t1"), 1);
    assert_eq!(write(&mut store, finding(Verdict::Unverified), "t2"), 0);
    assert_eq!(write(&mut store, finding(Verdict::Contradicted), "t3"), 1);
    let current = store.findings(&FindingFilter::default()).unwrap();
    assert_eq!(current.len(), 1);
    assert_eq!(current[0].verdict, "CONTRADICTED");
    assert_eq!(current[0].rationale(), Reason::NoCommitRun.render());
    let r = store
        .query("SELECT COUNT(*) FROM finding", QueryLimits::default())
        .unwrap();
    assert_eq!(r.rows[0][0], json!(2));
}

#[test]
fn database_files_are_private() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("f.db");
    let mut store = Store::open(&path).unwrap();
    write_source(&mut store, "a", false, &["x"]);
    store.make_private();
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

#[test]
fn resolve_session_by_prefix_and_ambiguity() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    write_source(&mut store, "a", false, &["x"]);
    assert!(store.resolve_session("sess-").is_ok());
    assert!(matches!(
        store.resolve_session("zzz"),
        Err(StoreError::NoSuchSession(_))
    ));
}
