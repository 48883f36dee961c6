//! Verification of session families, one way: each family is read from the store once, its
//! claims are extracted (`fornax_verify::extract_with`), the commits they name are looked up
//! in the session's repository on this machine, every claim is judged, and the family's
//! evidence, claims and findings are written in one transaction that also clears the family's
//! pending mark. Nothing is read back between the stages, and a store error at any point is
//! returned.
//!
//! Which families are verified is derived from stored state: the sessions a pass touched and
//! every session still marked pending (a pass that died, a verifier that changed), so a killed
//! scan or daemon leaves nothing unjudged.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use fornax_redact::RedactionCounts;
use fornax_store::{Store, VerificationWrite};
use fornax_types::evidence::GitCommitCheckPayload;
use fornax_types::{
    ClockSource, CollectionMethod, Evidence, EvidencePayload, EvidenceSource, Freshness, Item,
    Provider, SemanticValue, SessionRef, SourceIds, TrustClass,
};
use fornax_verify::{CommitLookup, FamilyMember};

use crate::clock::now_rfc3339;
use crate::order::merge_timelines;
use crate::pipeline::{shared_redactor, IngestError};

/// What verifying some sessions produced.
#[derive(Debug, Default)]
pub struct VerifyOutcome {
    pub claims: u64,
    /// Current findings per verdict over the families verified.
    pub verdicts: BTreeMap<String, i64>,
    /// Row ids of every session in the families verified.
    pub sessions: Vec<i64>,
    /// Stored evidence rows that could not be read, named (they were left out).
    pub unreadable_evidence: Vec<String>,
}

/// Verifies the families of the given sessions and of every session still pending (each
/// family once) and stores the result.
pub fn verify_sessions(store: &mut Store, sessions: &[i64]) -> Result<VerifyOutcome, IngestError> {
    // Reading sessions back gains little from a large page cache; the memory goes to the
    // family being verified instead.
    store.set_cache_kib(VERIFY_CACHE_KIB)?;
    let outcome = verify_roots(store, sessions);
    store.set_cache_kib(Store::CACHE_KIB)?;
    outcome
}

/// The page cache's bound while verifying, in KiB.
const VERIFY_CACHE_KIB: u32 = 4 * 1024;

fn verify_roots(store: &mut Store, sessions: &[i64]) -> Result<VerifyOutcome, IngestError> {
    let mut owed: BTreeSet<i64> = sessions.iter().copied().collect();
    owed.extend(store.pending_verification()?);
    let mut roots = BTreeSet::new();
    for id in owed {
        roots.insert(store.family_root(id)?);
    }
    let now = now_rfc3339();
    let mut outcome = VerifyOutcome::default();
    for root in roots {
        let family = verify_family(store, root, &now)?;
        outcome.claims += family.claims;
        outcome
            .unreadable_evidence
            .extend(family.unreadable_evidence);
        outcome.sessions.extend(family.sessions);
    }
    outcome.verdicts = store.verdict_counts(Some(&outcome.sessions))?;
    Ok(outcome)
}

struct FamilyOutcome {
    claims: u64,
    sessions: Vec<i64>,
    unreadable_evidence: Vec<String>,
}

/// Extract → host lookups → judge → one write, for the family rooted at `root`.
fn verify_family(store: &mut Store, root: i64, now: &str) -> Result<FamilyOutcome, IngestError> {
    // Tool-output texts are left out of the family and read one at a time when a sensor
    // reads that output, so memory does not grow with the session.
    let mut family = store.family_for_verification(root)?;
    lighten(&mut family.items);
    let mut deferred: HashMap<(&SessionRef, &str), i64> = HashMap::new();
    for (items, ids) in family.items.iter().zip(&family.deferred_texts) {
        for (item, id) in items.iter().zip(ids) {
            if let Some(id) = id {
                deferred.insert((&item.session, item.key.as_str()), *id);
            }
        }
    }
    let input = fornax_verify::TimelineInput {
        items: merge_timelines(&family.items, &family.item_seqs),
        evidence: family.evidence.iter().collect(),
        capabilities: family.capabilities.iter().collect(),
        family: family
            .members
            .iter()
            .map(|(session, parent)| FamilyMember {
                session: session.clone(),
                parent: parent.clone(),
            })
            .collect(),
    };
    let reader: &Store = store;
    let mut full_output = |item: &Item| -> Result<Option<Item>, fornax_store::StoreError> {
        let Some(id) = deferred.get(&(&item.session, item.key.as_str())) else {
            return Ok(None);
        };
        let Some(body) = reader.text_body(*id)? else {
            return Ok(None);
        };
        let mut full = item.clone();
        if let SemanticValue::ToolOutput(o) = &mut full.semantic.value {
            if let Some(t) = &mut o.text {
                t.text = body;
            }
        }
        Ok(Some(full))
    };
    let extracted = fornax_verify::extract_with(&input, &mut full_output)?;
    // Claimed commits are looked up in the session's repository when it is on this machine;
    // what Fornax observes itself is judged with the rest.
    let host = host_commit_checks(family.root_cwd.as_deref(), &extracted.commit_lookups(), now);
    let result = extracted.judge(&host);
    let claims = result.claims.len() as u64;
    // Judgements are made of redacted text, but what they quote and derive (a command line
    // joined from its words, a commit's summary read from the repository) passes the boundary
    // again before it is stored. What is found here was counted when its text was stored.
    let redactor = shared_redactor();
    let mut counts = RedactionCounts::default();
    store.write_verification(
        &family.session_ids,
        &VerificationWrite {
            derived: &redactor.redact_all(result.evidence, &mut counts),
            host: &redactor.redact_all(host, &mut counts),
            claims: &redactor.redact_all(result.claims, &mut counts),
            findings: &redactor.redact_all(result.findings, &mut counts),
        },
        now,
    )?;
    Ok(FamilyOutcome {
        claims,
        sessions: family.session_ids,
        unreadable_evidence: family.unreadable_evidence,
    })
}

/// Lightens the family's items for as long as they are verified: every record reference cites
/// one shared id per source (read back row by row, each held its own copy of its source's
/// path), and tool-call arguments no verifier reads (the file bodies a write carries) go.
fn lighten(items: &mut [Vec<Item>]) {
    let mut ids = SourceIds::default();
    for item in items.iter_mut().flatten() {
        fornax_verify::drop_unread_arguments(item);
        for record in &mut item.records {
            record.source = ids.intern(&record.source);
        }
    }
}

/// Host-observed lookups of the commits a family's claims name, in the root session's working
/// directory (only when that directory is a git repository on this machine).
fn host_commit_checks(cwd: Option<&str>, lookups: &[CommitLookup], now: &str) -> Vec<Evidence> {
    let Some(cwd) = cwd.filter(|c| Path::new(c).is_dir()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for lookup in lookups {
        let Ok(check) = fornax_vcs::check_commit(Path::new(cwd), &lookup.sha) else {
            continue;
        };
        if check.ambiguous {
            continue;
        }
        out.push(commit_check_evidence(lookup, check, now));
    }
    out
}

fn commit_check_evidence(
    lookup: &CommitLookup,
    check: fornax_vcs::CommitCheck,
    now: &str,
) -> Evidence {
    Evidence {
        id: format!("host-commit:{}", lookup.sha),
        session: lookup.session.clone(),
        payload: EvidencePayload::GitCommitCheck(GitCommitCheckPayload {
            sha: check.sha,
            exists: check.exists,
            repository: check.repository,
            full_sha: check.full_sha,
            summary: check.summary,
        }),
        source: EvidenceSource {
            sensor_name: "fornax.vcs.commit_lookup".into(),
            trust_class: TrustClass::HostObserved,
            collection_method: CollectionMethod::RepositoryRead,
            collector_version: env!("CARGO_PKG_VERSION").into(),
            freshness: Freshness {
                clock: ClockSource::HostClock,
                caveat: Some(
                    "the repository as it is now, not as it was when the claim was made".into(),
                ),
            },
            tamper_boundary: "read from the repository's object database on this machine; the agent could have rewritten it since".into(),
            collected_at: Some(now.to_string()),
            provider: Provider::Fornax,
        },
        provenance: format!("fornax:{}:git_commit_check", env!("CARGO_PKG_VERSION")),
        extension: None,
        item_key: None,
        loop_position: None,
        at: None,
        records: Vec::new(),
    }
}
