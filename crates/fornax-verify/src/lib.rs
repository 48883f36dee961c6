//! Claims, sensors and verifiers: five honest verdicts from canonical events.
//!
//! Verification is two stages over one session family's timeline (a session and its subagent
//! sessions, already merged in time order):
//!
//! 1. [`extract`] runs the sensors in [`sensors`] (exit status, test summaries, git outcomes,
//!    file changes) over every paired tool call and reads their evidence, with the evidence the
//!    adapters and the host supplied, into typed observations; and it extracts the agents'
//!    claims from their own text ([`extract_claims`]). The caller then makes the lookups only
//!    it can make (a claimed commit in the repository on this machine, see
//!    [`Extracted::commit_lookups`]).
//! 2. [`Extracted::judge`] adds that host-observed evidence and judges every claim against the
//!    evidence that existed when it was made, with one of five verdicts: VERIFIED,
//!    CONTRADICTED, UNVERIFIED, REVIEW, UNAVAILABLE, each with a typed
//!    [`Reason`](fornax_types::Reason).
//!
//! A subagent is a timeline of its own: its claims rest on its own evidence (and its own
//! subagents'), never on a sibling's or its parent's; a parent's claims see its subagents'
//! evidence, so a relay of a subagent's result is judged by what that subagent ran.
//!
//! # Invariants
//!
//! * Pure: no I/O of any kind (no files, processes, clocks, environment). The same input gives
//!   the same evidence, claims and findings, with the same deterministic ids. A caller that
//!   leaves tool-output texts out of the timeline supplies them through a callback whose errors
//!   are returned, never swallowed.
//! * Absence of evidence is never CONTRADICTED; only observed contrary evidence is.
//! * Every finding names the rule that decided it, cites its evidence ids and carries the
//!   typed facts its rationale is rendered from.
//! * A claim is judged with the evidence up to the moment it was made; a final answer (nothing
//!   it can see happened after it) sees everything.
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

use std::collections::{BTreeMap, BTreeSet};

use fornax_types::{Claim, ClaimSubject, Evidence, Finding, Item, RuntimeCapabilities, SessionRef};

/// One session of a family and the session it was delegated from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FamilyMember {
    pub session: SessionRef,
    pub parent: Option<SessionRef>,
}

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
    /// Which session was delegated from which. Empty: one timeline, every claim sees every
    /// session's evidence.
    pub family: Vec<FamilyMember>,
}

/// What verification found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Verification {
    /// Evidence derived by the sensors (to be stored alongside the input evidence).
    pub evidence: Vec<Evidence>,
    pub claims: Vec<Claim>,
    /// One finding per claim, in claim order (`Finding.claim_id == Claim.id`).
    pub findings: Vec<Finding>,
}

/// A commit a claim names, to be looked up in the repository on the host.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct CommitLookup {
    /// The session whose claim names it (the host evidence belongs to it).
    pub session: SessionRef,
    pub sha: String,
}

/// The first stage's result: derived evidence, observations and claims, ready to be judged.
#[derive(Debug)]
pub struct Extracted<'a> {
    timeline: timeline::Timeline<'a>,
    /// Evidence the sensors derived (stored beside the input evidence).
    pub evidence: Vec<Evidence>,
    observations: observe::Observations,
    /// Each claim with its timeline position.
    claims: Vec<(Claim, usize)>,
    /// Per session, the sessions whose evidence its claims may rest on.
    visible: BTreeMap<SessionRef, BTreeSet<SessionRef>>,
}

/// Stage one: derives sensor evidence and extracts claims.
pub fn extract<'a>(input: &TimelineInput<'a>) -> Extracted<'a> {
    match extract_with::<std::convert::Infallible>(input, &mut |_| Ok(None)) {
        Ok(e) => e,
        Err(never) => match never {},
    }
}

/// [`extract`] over a timeline whose tool-output texts were left out (to bound memory):
/// `full_output` returns the complete output item when a sensor reads it (`Ok(None)` keeps the
/// item as given), and its first error is returned. Nothing but the sensors reads tool-output
/// text, and reasoning text is read by nothing, so a caller may leave either out.
pub fn extract_with<'a, E>(
    input: &TimelineInput<'a>,
    full_output: &mut dyn FnMut(&Item) -> Result<Option<Item>, E>,
) -> Result<Extracted<'a>, E> {
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
    let (evidence, observations) =
        observe::observe_with(&timeline, &supplied, &input.capabilities, full_output)?;
    let mut claims = Vec::new();
    for (pos, item) in timeline.items.iter().enumerate() {
        claims.extend(extract_claims(item).into_iter().map(|c| (c, pos)));
    }
    claims.shrink_to_fit();
    let visible = visibility(&input.family);
    Ok(Extracted {
        timeline,
        evidence,
        observations,
        claims,
        visible,
    })
}

/// For every session of the family, itself and its descendants.
fn visibility(family: &[FamilyMember]) -> BTreeMap<SessionRef, BTreeSet<SessionRef>> {
    let mut out: BTreeMap<SessionRef, BTreeSet<SessionRef>> = BTreeMap::new();
    for m in family {
        out.entry(m.session.clone())
            .or_default()
            .insert(m.session.clone());
        // Walk up, adding this session to every ancestor (bounded: a cycle stops the walk).
        let mut seen = BTreeSet::new();
        let mut parent = m.parent.clone();
        while let Some(p) = parent {
            if !seen.insert(p.clone()) {
                break;
            }
            out.entry(p.clone()).or_default().insert(m.session.clone());
            parent = family
                .iter()
                .find(|f| f.session == p)
                .and_then(|f| f.parent.clone());
        }
    }
    out
}

impl Extracted<'_> {
    /// The claims found, in timeline order.
    pub fn claims(&self) -> impl Iterator<Item = &Claim> {
        self.claims.iter().map(|(c, _)| c)
    }

    /// The commits the claims name (each once), for the caller to look up on the host.
    pub fn commit_lookups(&self) -> Vec<CommitLookup> {
        let mut out: BTreeSet<CommitLookup> = BTreeSet::new();
        for claim in self.claims() {
            if claim.subject != ClaimSubject::GitCommit {
                continue;
            }
            if let Some(sha) = &claim.target.sha {
                if !out.iter().any(|l| &l.sha == sha) {
                    out.insert(CommitLookup {
                        session: claim.session.clone(),
                        sha: sha.clone(),
                    });
                }
            }
        }
        out.into_iter().collect()
    }

    /// Stage two: adds host-observed evidence and judges every claim.
    pub fn judge(mut self, host: &[Evidence]) -> Verification {
        let host: Vec<&Evidence> = host.iter().collect();
        observe::add_evidence(&mut self.observations, &self.timeline, &host);
        let mut findings = Vec::with_capacity(self.claims.len());
        let mut claims = Vec::with_capacity(self.claims.len());
        for (claim, pos) in self.claims {
            let sessions = self.visible.get(&claim.session);
            let last = match sessions {
                Some(set) => set
                    .iter()
                    .filter_map(|s| self.timeline.last_activity_of.get(s))
                    .max()
                    .copied(),
                None => self.timeline.last_activity,
            };
            let moment = judge::Moment {
                pos,
                is_final: last.is_none_or(|last| pos > last),
                sessions,
            };
            findings.push(judge::judge(&claim, &self.observations, moment));
            claims.push(claim);
        }
        Verification {
            evidence: self.evidence,
            claims,
            findings,
        }
    }
}

/// Drops what no verifier reads of a tool call's arguments, so a caller holding a long
/// session's calls for verification does not hold every file body they wrote: a call keeps its
/// command (`command`, `cmd`) and the paths it names; a patch tool, whose targets are read from
/// any of its strings, keeps everything. The findings are the same with or without it.
pub fn drop_unread_arguments(item: &mut Item) {
    let fornax_types::SemanticValue::ToolCall(call) = &mut item.semantic.value else {
        return;
    };
    if fschange::edit_tool_kind(&call.name) == Some("patch") {
        return;
    }
    if let serde_json::Value::Object(arguments) = &mut call.arguments {
        arguments.retain(|key, _| {
            let key = key.as_str();
            timeline::COMMAND_KEYS.contains(&key) || fschange::PATH_KEYS.contains(&key)
        });
    }
}

/// Both stages with no host lookups: derives sensor evidence, extracts claims and judges each
/// of them.
pub fn verify(input: &TimelineInput<'_>) -> Verification {
    extract(input).judge(&[])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testkit::*;
    use fornax_types::Role;
    use serde_json::json;

    #[test]
    fn unread_arguments_dropped_change_no_finding() {
        let items = vec![
            tool_call(
                "c1",
                Some("w1"),
                "Write",
                json!({"file_path": "src/a.rs", "content": "fn main() {}\n".repeat(500)}),
            ),
            output(
                "o1",
                Some("w1"),
                "File created successfully",
                None,
                Some(false),
            ),
            tool_call(
                "c2",
                Some("b1"),
                "Bash",
                json!({"command": "cargo test", "description": "run the tests"}),
            ),
            output(
                "o2",
                Some("b1"),
                "test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out",
                Some(0),
                None,
            ),
            tool_call(
                "c3",
                Some("p1"),
                "apply_patch",
                json!({"input": "*** Begin Patch\n*** Update File: src/b.rs\n@@\n-x\n+y\n*** End Patch"}),
            ),
            output("o3", Some("p1"), "Done!", Some(0), None),
            say(
                "f",
                Role::AgentFinalAnswer,
                "I created src/a.rs, updated src/b.rs and all tests pass.",
            ),
        ];
        let mut lean = items.clone();
        lean.iter_mut().for_each(drop_unread_arguments);
        let arguments = |item: &Item| match &item.semantic.value {
            fornax_types::SemanticValue::ToolCall(c) => c.arguments.clone(),
            _ => serde_json::Value::Null,
        };
        assert_eq!(arguments(&lean[0]), json!({"file_path": "src/a.rs"}));
        assert_eq!(arguments(&lean[2]), json!({"command": "cargo test"}));
        assert_eq!(arguments(&lean[4]), arguments(&items[4]));
        let judged = |items: &[Item]| {
            verify(&TimelineInput {
                items: items.iter().collect(),
                ..TimelineInput::default()
            })
        };
        let (full, lean) = (judged(&items), judged(&lean));
        assert!(!full.findings.is_empty());
        assert_eq!(full, lean);
    }
}
