//! Claims, sensors and verifiers: five honest verdicts from canonical events.
//!
//! [`verify`] takes one session family's timeline (a session and its subagent sessions, already
//! merged in time order), derives evidence from it with the sensors in [`sensors`] (exit status,
//! test summaries, git outcomes, file changes), extracts the agents' claims from their own text
//! ([`extract_claims`]), and judges every claim against the evidence that existed when it was
//! made, with one of five verdicts: VERIFIED, CONTRADICTED, UNVERIFIED, REVIEW, UNAVAILABLE.
//!
//! # Invariants
//!
//! * Pure: no I/O of any kind (no files, processes, clocks, environment). The same input gives
//!   the same evidence, claims and findings, with the same deterministic ids.
//! * Absence of evidence is never CONTRADICTED; only observed contrary evidence is.
//! * Every finding names the rule that decided it and cites its evidence (command, exit
//!   status and its strength, summary, time, freshness) and evidence ids.
//! * A claim is judged with the evidence up to the moment it was made; a final answer (nothing
//!   happened after it) sees everything.
//! * Never panics on any input; malformed or unexpected items are skipped.

pub mod claims;
pub mod commands;
pub mod diagnostics;
pub mod fschange;
pub mod gitout;
pub mod judge;
pub mod observe;
pub mod paths;
pub mod sensors;
pub mod testsummary;
pub mod text;
pub mod timeline;
pub mod tools;

#[cfg(test)]
mod testkit;

pub use claims::{assertions, extract_claims, extract_from_text, Assertion, Modality, Polarity};
pub use commands::{classify, classify_command, CommandClass, CommandKind};
pub use sensors::{ExitStatusSensor, FileChangeSensor, GitOutcomeSensor, TestSummarySensor};

use fornax_types::{Claim, Evidence, Finding, Item, RuntimeCapabilities};

/// One session family's timeline, already ordered (the caller merges a session's sources and
/// its subagent sessions' items by time).
#[derive(Debug, Clone, Default)]
pub struct TimelineInput<'a> {
    /// Items in timeline order.
    pub items: Vec<&'a Item>,
    /// Adapter-emitted (FileDiff, ...) and host-observed (ProcessObservation, GitCommitCheck)
    /// evidence, positioned via `Evidence.item_key`; evidence with no item key is ordered last.
    pub evidence: Vec<&'a Evidence>,
    pub capabilities: Vec<&'a RuntimeCapabilities>,
}

/// What [`verify`] found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Verification {
    /// Evidence derived by the sensors (to be stored alongside the input evidence).
    pub evidence: Vec<Evidence>,
    pub claims: Vec<Claim>,
    /// One finding per claim, in claim order (`Finding.claim_id == Claim.id`).
    pub findings: Vec<Finding>,
}

/// Derives sensor evidence, extracts claims and judges each of them.
pub fn verify(input: &TimelineInput<'_>) -> Verification {
    verify_with(input, &|_| None)
}

/// [`verify`] over a timeline whose tool-output texts may have been left out (to bound
/// memory): `full_output` returns the complete output item when the sensors read it (`None`
/// keeps the item as given). Nothing but the sensors reads tool-output text, and reasoning
/// text is read by nothing, so a caller may leave either out.
pub fn verify_with(
    input: &TimelineInput<'_>,
    full_output: &dyn Fn(&Item) -> Option<Item>,
) -> Verification {
    let timeline = timeline::Timeline::build(&input.items);
    // Evidence these sensors derived on an earlier pass is derived again, never read back.
    let supplied: Vec<&Evidence> = input
        .evidence
        .iter()
        .copied()
        .filter(|e| {
            !(e.source.collection_method == fornax_types::CollectionMethod::CanonicalDerivation
                && e.provenance.starts_with("fornax-verify:"))
        })
        // Runs of workspace capabilities nobody trusted are kept, but no verdict rests on them.
        .filter(|e| e.source.trust_class.may_decide_verdicts())
        .collect();
    let (evidence, obs) =
        observe::observe_with(&timeline, &supplied, &input.capabilities, full_output);
    let mut claims = Vec::new();
    let mut findings = Vec::new();
    for (pos, item) in timeline.items.iter().enumerate() {
        let found = extract_claims(item);
        if found.is_empty() {
            continue;
        }
        let moment = judge::Moment {
            pos,
            is_final: timeline.last_activity.is_none_or(|last| pos > last),
        };
        for claim in found {
            findings.push(judge::judge(&claim, &obs, moment));
            claims.push(claim);
        }
    }
    Verification {
        evidence,
        claims,
        findings,
    }
}
