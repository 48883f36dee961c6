//! Listing reads on a real SQLite file: one filter for sessions, findings and search; the
//! severity order; pages of a timeline; the `latest` alias; evidence lookups.

use fornax_redact::{Redactable, Redacted, RedactionCounts, Redactor};
use fornax_store::{
    FindingOrder, ListFilter, SourceCursor, SourceSpec, Store, StoreError, VerificationWrite,
    LATEST,
};
use fornax_types::*;

/// What the pipeline hands the store: the value through the redactor.
fn sealed<T: Redactable>(value: T) -> Redacted<T> {
    Redactor::new().redact(value, &mut RedactionCounts::default())
}

struct Sess {
    provider: Provider,
    native: &'static str,
    cwd: &'static str,
    day: u32,
    texts: &'static [&'static str],
}

const SESSIONS: &[Sess] = &[
    Sess {
        provider: Provider::ClaudeCode,
        native: "c-ledger",
        cwd: "/home/dev/ledger",
        day: 10,
        texts: &["fix rounding", "All tests pass.", "I committed it."],
    },
    Sess {
        provider: Provider::Codex,
        native: "x-tariff",
        cwd: "/home/dev/tariff",
        day: 12,
        texts: &["add tariffs", "The build is green."],
    },
    Sess {
        provider: Provider::ClaudeCode,
        native: "c-kiln",
        cwd: "/home/dev/kiln",
        day: 14,
        texts: &["kiln timer", "Tests pass now.", "Pushed."],
    },
];

fn at(day: u32, i: usize) -> String {
    format!("2026-03-{day:02}T08:00:{i:02}.000Z")
}

fn write(store: &mut Store, s: &Sess) {
    let spec = SourceSpec {
        key: s.native.into(),
        provider: s.provider.as_str().into(),
        kind: "file".into(),
        locator: format!("/tmp/{}.jsonl", s.native),
        adapter: "test".into(),
        session_hint: None,
    };
    let sref = SessionRef::new(s.provider.clone(), s.native);
    let mut w = store.begin_source(&spec, false).unwrap();
    w.add_record(0, None, &Fingerprint::of(s.native.as_bytes()), None)
        .unwrap();
    w.apply(&sealed(IngestMessage::Session(Session {
        id: sref.clone(),
        identity_record: RecordRef::new(SourceId::new(s.native), 0),
        cwd: Some(s.cwd.into()),
        name: None,
        created_at: Some(at(s.day, 0)),
        forked_from: None,
        delegated_from: None,
        runtime_version: None,
    })))
    .unwrap();
    for (i, t) in s.texts.iter().enumerate() {
        let role = if i == 0 {
            Role::HumanRequest
        } else {
            Role::AgentFinalAnswer
        };
        w.apply(&sealed(IngestMessage::Item(Item {
            session: sref.clone(),
            key: format!("k{i}"),
            loop_position: Some(0),
            at: Some(at(s.day, i)),
            semantic: Semantic::new(
                role,
                SemanticValue::Text(TextValue::full(*t)),
                EvidenceStrength::Structural,
            ),
            records: vec![RecordRef::new(SourceId::new(s.native), 0)],
        })))
        .unwrap();
    }
    w.finish(&SourceCursor::default(), 1, None, 0, 0, 0, "now")
        .unwrap();
}

fn judge(store: &mut Store, native: &str, verdicts: &[Verdict]) {
    let id = store.resolve_session(native).unwrap();
    let row = store.session_row(id).unwrap();
    let sref = SessionRef::new(Provider::parse(&row.provider), native);
    let evidence = Evidence {
        id: format!("exit:{native}"),
        session: sref.clone(),
        payload: EvidencePayload::ExitCode(evidence::ExitCodePayload {
            command: "cargo test".into(),
            call_id: None,
            cwd: None,
            exit_code: Some(1),
            strength: EvidenceStrength::Structural,
            failed: None,
            interrupted: None,
            timed_out: None,
            duration_ms: None,
        }),
        source: EvidenceSource::pre_provenance(),
        provenance: String::new(),
        extension: None,
        item_key: Some("k0".into()),
        loop_position: Some(0),
        at: None,
        records: vec![RecordRef::new(SourceId::new(native), 0)],
    };
    let claims: Vec<Claim> = verdicts
        .iter()
        .enumerate()
        .map(|(i, _)| Claim {
            id: format!("k{}#0", i + 1),
            session: sref.clone(),
            item_key: format!("k{}", i + 1),
            loop_position: Some(0),
            subject: ClaimSubject::TestResult,
            text: format!("claim {}", i + 1),
            target: ClaimTarget::default(),
            scope: Default::default(),
            quantity: Default::default(),
            actor: Default::default(),
            at: Some(at(day_of(native), i + 1)),
        })
        .collect();
    let findings: Vec<Finding> = claims
        .iter()
        .zip(verdicts)
        .map(|(c, v)| Finding {
            claim_id: c.id.clone(),
            session: sref.clone(),
            verdict: *v,
            reason: Reason::NoCommitRun,
            evidence: vec![evidence.id.clone()],
            rule: "test".into(),
        })
        .collect();
    store
        .write_verification(
            &[id],
            &VerificationWrite {
                derived: &[sealed(evidence)],
                host: &[],
                claims: &claims.into_iter().map(sealed).collect::<Vec<_>>(),
                findings: &findings.into_iter().map(sealed).collect::<Vec<_>>(),
            },
            "t",
        )
        .unwrap();
}

fn day_of(native: &str) -> u32 {
    SESSIONS.iter().find(|s| s.native == native).unwrap().day
}

fn store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    for s in SESSIONS {
        write(&mut store, s);
    }
    judge(
        &mut store,
        "c-ledger",
        &[Verdict::Verified, Verdict::Contradicted],
    );
    judge(&mut store, "x-tariff", &[Verdict::Review]);
    judge(
        &mut store,
        "c-kiln",
        &[Verdict::Unverified, Verdict::Verified],
    );
    (dir, store)
}

fn natives(rows: &[fornax_store::SessionRow]) -> Vec<&str> {
    rows.iter().map(|r| r.native_id.as_str()).collect()
}

#[test]
fn sessions_filter_by_provider_project_time_and_verdict() {
    let (_dir, store) = store();
    let all = store
        .list_sessions_in(&ListFilter::default(), 0, 0)
        .unwrap();
    assert_eq!(natives(&all), ["c-kiln", "x-tariff", "c-ledger"]);
    assert_eq!(all[0].first_prompt.as_deref(), Some("kiln timer"));

    let claude = ListFilter {
        provider: Some("claude-code".into()),
        ..Default::default()
    };
    assert_eq!(
        natives(&store.list_sessions_in(&claude, 0, 0).unwrap()),
        ["c-kiln", "c-ledger"]
    );
    let window = ListFilter {
        since: Some("2026-03-11T00:00:00.000Z".into()),
        until: Some("2026-03-14T00:00:00.000Z".into()),
        ..Default::default()
    };
    assert_eq!(
        natives(&store.list_sessions_in(&window, 0, 0).unwrap()),
        ["x-tariff"]
    );
    let project = ListFilter {
        project: Some("ledg".into()),
        ..Default::default()
    };
    assert_eq!(
        natives(&store.list_sessions_in(&project, 0, 0).unwrap()),
        ["c-ledger"]
    );
    let attention = ListFilter {
        verdicts: vec!["CONTRADICTED".into(), "review".into()],
        ..Default::default()
    };
    assert_eq!(
        natives(&store.list_sessions_in(&attention, 0, 0).unwrap()),
        ["x-tariff", "c-ledger"]
    );
    assert_eq!(store.count_sessions_in(&attention).unwrap(), 2);
    assert_eq!(
        natives(
            &store
                .list_sessions_in(&ListFilter::default(), 1, 1)
                .unwrap()
        ),
        ["x-tariff"],
        "limit and offset page through"
    );
}

#[test]
fn findings_rank_by_severity_then_newest_and_count_by_verdict() {
    let (_dir, store) = store();
    let all = store
        .findings_in(&ListFilter::default(), None, FindingOrder::Severity, 0)
        .unwrap();
    let order: Vec<(&str, &str)> = all
        .iter()
        .map(|f| (f.verdict.as_str(), f.session["native_id"].as_str().unwrap()))
        .collect();
    assert_eq!(
        order,
        [
            ("CONTRADICTED", "c-ledger"),
            ("REVIEW", "x-tariff"),
            ("UNVERIFIED", "c-kiln"),
            ("VERIFIED", "c-kiln"),
            ("VERIFIED", "c-ledger"),
        ]
    );
    assert_eq!(all[0].claim_key, "k2#0");

    let claude_recent = ListFilter {
        provider: Some("claude-code".into()),
        since: Some("2026-03-13T00:00:00.000Z".into()),
        ..Default::default()
    };
    let counts = store.finding_counts_in(&claude_recent, None).unwrap();
    assert_eq!(counts.get("UNVERIFIED"), Some(&1));
    assert_eq!(counts.get("VERIFIED"), Some(&1));
    assert_eq!(counts.len(), 2);

    let limited = store
        .findings_in(&ListFilter::default(), None, FindingOrder::Severity, 2)
        .unwrap();
    assert_eq!(limited.len(), 2);
    let verified = ListFilter {
        verdicts: vec!["VERIFIED".into()],
        ..Default::default()
    };
    let ledger = store.resolve_session("c-ledger").unwrap();
    let one = store
        .findings_in(&verified, Some(ledger), FindingOrder::Claim, 0)
        .unwrap();
    assert_eq!(one.len(), 1);
    assert_eq!(one[0].claim["text"], "claim 1");
}

#[test]
fn search_within_a_filter() {
    let (_dir, store) = store();
    assert_eq!(store.search("pass", 10, false).unwrap().len(), 2);
    let codex = ListFilter {
        provider: Some("codex".into()),
        ..Default::default()
    };
    assert!(store
        .search_in("pass", &codex, 10, false)
        .unwrap()
        .is_empty());
    let kiln = ListFilter {
        since: Some("2026-03-14T00:00:00.000Z".into()),
        ..Default::default()
    };
    let hits = store.search_in("pass", &kiln, 10, false).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].session, "c-kiln");
    assert_eq!(hits[0].session_id, store.resolve_session("c-kiln").unwrap());
}

#[test]
fn latest_is_the_most_recent_session_unless_a_session_has_that_name() {
    let (_dir, mut store) = store();
    let kiln = store.resolve_session("c-kiln").unwrap();
    assert_eq!(store.resolve_session(LATEST).unwrap(), kiln);
    write(
        &mut store,
        &Sess {
            provider: Provider::Pi,
            native: "latest",
            cwd: "/x",
            day: 1,
            texts: &["named latest"],
        },
    );
    assert_ne!(store.resolve_session(LATEST).unwrap(), kiln);

    let dir = tempfile::tempdir().unwrap();
    let empty = Store::open(&dir.path().join("e.db")).unwrap();
    assert!(matches!(
        empty.resolve_session(LATEST),
        Err(StoreError::NoSuchSession(_))
    ));
}

#[test]
fn timelines_page_and_items_are_found_by_key() {
    let (_dir, store) = store();
    let ledger = store.resolve_session("c-ledger").unwrap();
    let page = store.session_items(ledger, 1, 5).unwrap();
    assert_eq!(page.len(), 2);
    assert_eq!(page[0].key, "k1");
    assert_eq!(
        page[0].semantic.value.primary_text(),
        Some("All tests pass.")
    );
    assert_eq!(store.item_index(ledger, "k2").unwrap(), Some(2));
    assert_eq!(store.item_index(ledger, "nope").unwrap(), None);
    assert!(store.session_items(ledger, 10, 5).unwrap().is_empty());
}

#[test]
fn a_findings_evidence_and_record_are_found_and_changes_move_the_marker() {
    let (_dir, mut store) = store();
    let ledger = store.resolve_session("c-ledger").unwrap();
    let e = store
        .evidence_for_finding(ledger, "exit:c-ledger")
        .unwrap()
        .unwrap();
    assert_eq!(e.session_id, ledger);
    assert!(e.derived);
    assert_eq!(e.evidence.kind(), EvidenceKind::ExitCode);
    assert!(matches!(
        &e.evidence.payload,
        EvidencePayload::ExitCode(p) if p.exit_code == Some(1)
    ));
    assert!(store
        .evidence_for_finding(ledger, "nope")
        .unwrap()
        .is_none());

    let rec = store.record_at("c-ledger", 0).unwrap().unwrap();
    assert_eq!(rec.locator, "/tmp/c-ledger.jsonl");
    assert!(store.record_at("c-ledger", 9).unwrap().is_none());

    let before = store.change_marker().unwrap();
    judge(&mut store, "x-tariff", &[Verdict::Verified]);
    let after = store.change_marker().unwrap();
    assert!(after.last_finding > before.last_finding);
    assert_eq!(after.sessions, before.sessions);
}

#[test]
fn project_stats_and_activity_group_sessions() {
    let (_dir, store) = store();
    let stats = store.project_stats().unwrap();
    let ledger = stats
        .iter()
        .find(|s| s.cwd.as_deref() == Some("/home/dev/ledger"))
        .unwrap();
    assert_eq!(ledger.sessions, 1);
    assert_eq!(ledger.verdicts.get("CONTRADICTED"), Some(&1));
    let activity = store.activity("2026-03-11T00:00:00.000Z").unwrap();
    let hours: Vec<&str> = activity.iter().map(|a| a.hour.as_str()).collect();
    assert_eq!(hours, ["2026-03-12T08", "2026-03-14T08"]);
}
