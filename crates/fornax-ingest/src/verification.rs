//! Verification of touched sessions: each touched family is read back from the store, judged
//! by `fornax_verify`, and its evidence, claims and findings are written back.

use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::Path;

use fornax_redact::RedactionCounts;
use fornax_store::Store;
use fornax_types::{Item, SemanticValue, SessionRef};

use crate::clock::now_rfc3339;
use crate::order::merge_timelines;
use crate::pipeline::{shared_redactor, IngestError};

/// What re-verifying some sessions produced.
#[derive(Debug, Default)]
pub struct VerifyOutcome {
    pub claims: u64,
    /// Current findings per verdict over the families verified.
    pub verdicts: BTreeMap<String, i64>,
    /// Row ids of every session in the families verified.
    pub sessions: Vec<i64>,
}

/// Re-verifies the families of the given sessions (each family once) and stores the result.
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
    let mut roots = BTreeSet::new();
    for id in sessions {
        roots.insert(store.family_root(*id)?);
    }
    let now = now_rfc3339();
    let redactor = shared_redactor();
    let mut outcome = VerifyOutcome::default();
    for root in roots {
        let mut family = store.family_for_verification(root)?;
        let mut result = verify_family(store, &family)?;
        // Claimed commits are looked up in the session's repository when it is on this
        // machine; what Fornax observes itself is then judged with the rest.
        let checks = host_commit_checks(store, &family, &result.claims, &now)?;
        if !checks.is_empty() {
            // A commit's summary is read from the repository: native text like any other.
            for check in redactor.redact_all(checks, &mut RedactionCounts::default()) {
                store.add_evidence(&check)?;
            }
            family = store.family_for_verification(root)?;
            result = verify_family(store, &family)?;
        }
        outcome.claims += result.claims.len() as u64;
        // Judgements are made of redacted text, but what they quote and derive (a command line
        // joined from its words, a rationale) passes the boundary again before it is stored.
        // What is found here was counted when the text it came from was stored.
        let mut counts = RedactionCounts::default();
        store.write_verification(
            &family.session_ids,
            &redactor.redact_all(result.evidence, &mut counts),
            &redactor.redact_all(result.claims, &mut counts),
            &redactor.redact_all(result.findings, &mut counts),
            &now,
        )?;
        outcome.sessions.extend(family.session_ids);
    }
    outcome.verdicts = store.verdict_counts(Some(&outcome.sessions))?;
    Ok(outcome)
}

/// Judges a family loaded by [`Store::family_for_verification`]: tool-output texts were left
/// out, and each is read back from the store when a sensor reads that output, so only one
/// output text is in memory at a time.
fn verify_family(
    store: &Store,
    family: &fornax_store::FamilyData,
) -> Result<fornax_verify::Verification, IngestError> {
    let mut deferred: HashMap<(&SessionRef, &str), i64> = HashMap::new();
    for (items, ids) in family.items.iter().zip(&family.deferred_texts) {
        for (item, id) in items.iter().zip(ids) {
            if let Some(id) = id {
                deferred.insert((&item.session, item.key.as_str()), *id);
            }
        }
    }
    let failure: RefCell<Option<fornax_store::StoreError>> = RefCell::new(None);
    let full_output = |item: &Item| -> Option<Item> {
        let id = deferred.get(&(&item.session, item.key.as_str()))?;
        let body = match store.text_body(*id) {
            Ok(body) => body?,
            Err(e) => {
                failure.borrow_mut().get_or_insert(e);
                return None;
            }
        };
        let mut full = item.clone();
        if let SemanticValue::ToolOutput(o) = &mut full.semantic.value {
            if let Some(t) = &mut o.text {
                t.text = body;
            }
        }
        Some(full)
    };
    let input = fornax_verify::TimelineInput {
        items: merge_timelines(&family.items),
        evidence: family.evidence.iter().collect(),
        capabilities: family.capabilities.iter().collect(),
    };
    let result = fornax_verify::verify_with(&input, &full_output);
    match failure.into_inner() {
        Some(e) => Err(e.into()),
        None => Ok(result),
    }
}

/// Host-observed lookups of the commits a family's claims name, in the root session's working
/// directory (only when that directory is a git repository on this machine).
fn host_commit_checks(
    store: &Store,
    family: &fornax_store::FamilyData,
    claims: &[fornax_types::Claim],
    now: &str,
) -> Result<Vec<fornax_types::Evidence>, IngestError> {
    let Some(&root) = family.session_ids.first() else {
        return Ok(Vec::new());
    };
    let row = store.session_row(root)?;
    let Some(cwd) = row.cwd.filter(|c| Path::new(c).is_dir()) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    let mut seen = BTreeSet::new();
    for claim in claims
        .iter()
        .filter(|c| c.subject == fornax_types::ClaimSubject::GitCommit)
    {
        let Some(sha) = &claim.target.sha else {
            continue;
        };
        if !seen.insert(sha.clone()) {
            continue;
        }
        let Ok(check) = fornax_vcs::check_commit(Path::new(&cwd), sha) else {
            continue;
        };
        if check.ambiguous {
            continue;
        }
        let payload = fornax_types::evidence::GitCommitCheckPayload {
            sha: check.sha,
            exists: check.exists,
            repository: check.repository,
            full_sha: check.full_sha,
            summary: check.summary,
        };
        out.push(fornax_types::Evidence {
            id: format!("host-commit:{sha}"),
            session: claim.session.clone(),
            kind: fornax_types::EvidenceKind::GitCommitCheck,
            payload: serde_json::to_value(payload).unwrap_or_default(),
            source: fornax_types::EvidenceSource {
                sensor_name: "fornax.vcs.commit_lookup".into(),
                trust_class: fornax_types::TrustClass::HostObserved,
                collection_method: fornax_types::CollectionMethod::RepositoryRead,
                collector_version: env!("CARGO_PKG_VERSION").into(),
                freshness: fornax_types::Freshness {
                    clock: fornax_types::ClockSource::HostClock,
                    caveat: Some("the repository as it is now, not as it was when the claim was made".into()),
                },
                tamper_boundary: "read from the repository's object database on this machine; the agent could have rewritten it since".into(),
                collected_at: Some(now.to_string()),
                provider: fornax_types::Provider::Fornax,
            },
            provenance: format!("fornax:{}:git_commit_check", env!("CARGO_PKG_VERSION")),
            extension: None,
            item_key: None,
            loop_position: None,
            at: None,
            records: Vec::new(),
        });
    }
    Ok(out)
}
