//! A finding and the evidence it rests on: each run with its exit status and parsed summary,
//! when it happened and how fresh it is, how far to trust it, and the native record it was
//! read from (with the check of that record's fingerprint).

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use fornax_store::{FindingOrder, FindingRow, ListFilter, Store, StoredEvidence};
use fornax_types::evidence::FileOperation;
use fornax_types::{
    ClockSource, CollectionMethod, EvidenceKind, EvidencePayload, EvidenceStrength, TrustClass,
    Verdict,
};
use maud::{html, Markup};

use super::{html_response, render, PageError, Request};
use crate::present::{labels, title, verdict, Clock};
use crate::server::html::{agent, badge, item_href, layout, time, Live, Section};
use crate::server::timeline::reason;
use crate::server::AppState;

#[derive(Debug, Default, serde::Deserialize)]
pub struct Mode {
    /// Only the panel (the page's script shows it beside the page it was opened from).
    pub fragment: Option<u8>,
}

pub async fn page(
    State(state): State<Arc<AppState>>,
    Path((id, claim)): Path<(i64, String)>,
    Query(mode): Query<Mode>,
    headers: HeaderMap,
) -> Response {
    render(state, &headers, move |r| {
        build(r, id, &claim, mode.fragment.is_some())
    })
    .await
}

fn build(r: &Request<'_>, id: i64, claim: &str, panel: bool) -> Result<Response, PageError> {
    let store = r.state.store()?;
    let session = store.session_row(id)?;
    let finding = store
        .findings_in(&ListFilter::default(), Some(id), FindingOrder::Claim, 0)?
        .into_iter()
        .find(|f| f.session_id == id && f.claim_key == claim)
        .ok_or_else(|| {
            PageError::NotFound(format!("No finding for claim {claim:?} in this session."))
        })?;
    let name = title::session_title(session.name.as_deref(), session.first_prompt.as_deref(), 80)
        .unwrap_or_else(|| title::short_id(&session.native_id));
    let mut evidence = Vec::new();
    for e in &finding.evidence {
        evidence.push((e, store.evidence_for_finding(id, &e.id)?));
    }
    let body = html! {
        article.evidence-panel data-verdict=(finding.verdict) {
            header {
                (badge(&finding.verdict))
                @if let Some(v) = Verdict::parse(&finding.verdict) { span.meaning { (verdict::meaning(v)) } }
            }
            blockquote.claim-quote { "“" (finding.claim["text"].as_str().unwrap_or("")) "”" }
            p.where {
                (labels::subject(finding.claim["subject"].as_str().unwrap_or(""))) " · "
                (agent(&session.provider)) " · "
                (time(&r.clock, finding.at.as_deref())) " · "
                a href={"/s/" (id)} { (name) } " · "
                a href=(item_href(id, &finding.item_key)) { "in the timeline" }
            }
            h3 { "Why" }
            p.reason { (reason(&finding)) }
            h3 { "Evidence it rests on" }
            @if evidence.is_empty() {
                p.quiet { (none_reason(&finding)) }
            }
            @for (brief, stored) in &evidence {
                @match stored {
                    Some(e) => (evidence_card(e, &store, r)?),
                    None => div.evidence-card { p { (brief.description) } p.quiet { "This evidence is no longer stored." } },
                }
            }
            details.for-tools {
                summary { "For tools" }
                dl {
                    dt { "rule" } dd { code { (finding.rule) } }
                    dt { "claim" } dd { code { (finding.claim_key) } }
                    dt { "evidence ids" } dd { @for e in &finding.evidence { code { (e.id) } " " } }
                    dt { "computed" } dd { (time(&r.clock, Some(&finding.computed_at))) }
                }
            }
        }
    };
    if panel {
        return Ok(html_response(
            html! { button.close type="button" aria-label="Close" { "×" } (body) },
        ));
    }
    Ok(html_response(layout(
        r.frame("Evidence", Section::Findings, Live::Notice),
        body,
    )))
}

fn none_reason(f: &FindingRow) -> &'static str {
    match Verdict::parse(&f.verdict) {
        Some(Verdict::Unverified) => "Nothing recorded in the session speaks to this claim.",
        Some(Verdict::Unavailable) => "This capture cannot carry the evidence the claim needs.",
        _ => "The verdict cites no stored evidence.",
    }
}

fn evidence_card(e: &StoredEvidence, store: &Store, r: &Request<'_>) -> Result<Markup, PageError> {
    let ev = &e.evidence;
    let src = &ev.source;
    let mut records = Vec::new();
    for rec in &ev.records {
        if let Some(loc) = store.record_at(rec.source.as_str(), rec.position)? {
            let check = r.state.records.read(&loc);
            records.push((loc, check.status));
        }
    }
    Ok(html! {
        div class={"evidence-card k-" (ev.kind().as_str())} {
            h4 { (kind_label(ev.kind())) }
            (payload(&ev.payload))
            dl.provenance {
                dt { "when" }
                dd { (time(&r.clock, ev.at.as_deref())) " · " (clock_words(src.freshness.clock))
                    @if let Some(c) = &src.freshness.caveat { " · " (c) } }
                dt { "trust" }
                dd { span class={"trust t-" (trust_slug(src.trust_class))} { (trust_words(src.trust_class)) } }
                dt { "collected" }
                dd { (method_words(src.collection_method)) " by " code { (src.sensor_name) } @if e.derived { " (derived by verification)" } }
                @if let Some(key) = &ev.item_key {
                    dt { "item" } dd { a href=(item_href(e.session_id, key)) { "in the timeline" } }
                }
            }
            @if !records.is_empty() {
                ul.records {
                    @for (loc, status) in &records { li { (record_line(loc, status, &r.clock)) } }
                }
            }
        }
    })
}

/// A record's place and its fingerprint check, linking to its (redacted) bytes.
pub fn record_line(loc: &fornax_store::RecordLocation, status: &str, _clock: &Clock) -> Markup {
    html! {
        a.record href={"/r/" (loc.id)} { "native record" }
        " · " code { (loc.locator) @if let Some(m) = &loc.member { "/" (m) } }
        @if let (Some(a), Some(b)) = (loc.byte_start, loc.byte_end) { " · bytes " (a) "–" (b) }
        " · fingerprint " code title=(loc.fingerprint) { (&loc.fingerprint[..loc.fingerprint.len().min(12)]) "…" }
        " · " span class={"check c-" (status)} { (check_words(status)) }
    }
}

pub fn check_words(status: &str) -> &str {
    match status {
        "verified" => "✔ the source still holds these exact bytes",
        "hash_mismatch" => "✘ the source's bytes changed since they were read",
        "source_missing" => "the source file is gone",
        "source_short" => "the source is shorter than it was",
        "no_byte_range" => "no byte range recorded",
        other => other,
    }
}

fn kind_label(kind: EvidenceKind) -> &'static str {
    match kind {
        EvidenceKind::ExitCode => "A run and its exit status",
        EvidenceKind::TestSummary => "A test runner's summary",
        EvidenceKind::FileDiff => "A file change",
        EvidenceKind::GitOutcome => "A git outcome",
        EvidenceKind::ToolResult => "A tool's result",
        EvidenceKind::ProcessObservation => "A run Fornax watched itself",
        EvidenceKind::GitCommitCheck => "A look into the repository",
        EvidenceKind::TranscriptExcerpt => "An excerpt of the transcript",
    }
}

fn payload(p: &EvidencePayload) -> Markup {
    match p {
        EvidencePayload::ExitCode(p) => html! {
            p { code.command { "$ " (p.command) } }
            p {
                (exit_chip(p.exit_code, "no exit status recorded"))
                " " (strength_words(p.strength))
                @if p.failed == Some(true) { " · " span.chip.bad { "marked failed" } }
                @if p.interrupted == Some(true) { " · " span.chip.warn { "interrupted" } }
                @if p.timed_out == Some(true) { " · " span.chip.warn { "timed out" } }
            }
        },
        EvidencePayload::TestSummary(p) => html! {
            @if let Some(c) = &p.command { p { code.command { "$ " (c) } } }
            p.summary-counts {
                (p.runner) " summary: "
                span.ok { (count(p.passed)) " passed" } ", "
                span.bad { (count(p.failed)) " failed" }
                @if let Some(k) = p.skipped { ", " (k) " skipped" }
                @if let Some(k) = p.filtered_out { ", " (k) " filtered out" }
                @if p.filtered == Some(true) { " · " span.chip.warn { "a filtered run (part of the suite)" } }
            }
        },
        EvidencePayload::FileDiff(p) => html! {
            p {
                (p.tool) " " (operation_words(p.operation)) " "
                code { (p.path) }
                @if !p.succeeded { " · " span.chip.bad { "failed" } }
                @if let (Some(a), Some(r)) = (p.lines_added, p.lines_removed) { " · +" (a) " −" (r) }
            }
            @if let Some(e) = &p.error { p.quiet { (e) } }
        },
        EvidencePayload::GitOutcome(p) => html! {
            p {
                "git " (p.outcome.words())
                @if let Some(sha) = &p.sha { " " code { (sha) } }
                @if let Some(br) = &p.branch { " on " code { (br) } }
                @if let Some(re) = &p.remote { " to " code { (re) } }
            }
            @if let Some(c) = &p.command { p { code.command { "$ " (c) } } }
        },
        EvidencePayload::ToolResult(p) => html! {
            p { (p.tool) " " @if p.failed { span.chip.bad { "failed" } } @else { span.chip.ok { "succeeded" } } }
            @if let Some(e) = &p.error { p.quiet { (e) } }
        },
        EvidencePayload::ProcessObservation(p) => html! {
            p { code.command { "$ " (p.argv.join(" ")) } }
            p { (exit_chip(p.exit_code, "no exit status"))
                @if let Some(c) = &p.capability_id { " · capability " code { (c) } } }
        },
        EvidencePayload::GitCommitCheck(p) => html! {
            p { "commit " code { (p.sha) } " "
                @if p.exists { span.chip.ok { "exists" } } @else { span.chip.bad { "not found" } }
                " in " code { (p.repository) } }
            @if let Some(sum) = &p.summary { p.quiet { (sum) } }
        },
        EvidencePayload::TranscriptExcerpt(p) => html! { blockquote { (p.text) } },
    }
}

fn exit_chip(code: Option<i64>, missing: &str) -> Markup {
    html! {
        @match code {
            Some(c) => span class={"chip " (if c == 0 { "ok" } else { "bad" })} { "exit " (c) },
            None => span.chip { (missing) },
        }
    }
}

fn operation_words(op: FileOperation) -> &'static str {
    match op {
        FileOperation::Create => "created",
        FileOperation::Update => "updated",
        FileOperation::Delete => "deleted",
        FileOperation::Rename => "renamed",
    }
}

fn count(v: Option<u64>) -> String {
    v.map_or_else(|| "?".to_string(), |v| v.to_string())
}

fn strength_words(strength: EvidenceStrength) -> &'static str {
    match strength {
        EvidenceStrength::Structural => "(the runtime recorded the number)",
        EvidenceStrength::Heuristic => "(derived: the runtime recorded no number)",
    }
}

fn trust_slug(t: TrustClass) -> &'static str {
    match t {
        TrustClass::AgentAdjacent => "agent",
        TrustClass::HostObserved => "host",
        TrustClass::IndependentExternal => "external",
        TrustClass::HumanReviewed => "human",
        TrustClass::ModelInternal => "model",
        TrustClass::PreProvenance => "unknown",
        TrustClass::WorkspaceTrusted => "trusted-workspace",
        TrustClass::WorkspaceUntrusted => "untrusted-workspace",
    }
}

fn trust_words(t: TrustClass) -> &'static str {
    match t {
        TrustClass::AgentAdjacent => {
            "agent-adjacent: the agent's runtime recorded it (the agent could have shaped it)"
        }
        TrustClass::HostObserved => "host-observed: Fornax observed it itself",
        TrustClass::IndependentExternal => {
            "independent: a system outside the agent and this machine"
        }
        TrustClass::HumanReviewed => "human-reviewed: confirmed by a person",
        TrustClass::ModelInternal => "model-internal: the model's own account",
        TrustClass::PreProvenance => "unknown: recorded before provenance was kept",
        TrustClass::WorkspaceTrusted => {
            "trusted workspace: Fornax ran a capability from workspace files you trusted by content"
        }
        TrustClass::WorkspaceUntrusted => {
            "untrusted workspace: Fornax ran it once from files nobody trusted; it decides nothing"
        }
    }
}

fn method_words(m: CollectionMethod) -> &'static str {
    match m {
        CollectionMethod::HookCallback => "from a hook",
        CollectionMethod::PluginCallback => "from a plugin",
        CollectionMethod::FilePoll => "read from the agent's files",
        CollectionMethod::CanonicalDerivation => "derived from the timeline",
        CollectionMethod::ProcessObservation => "from a process Fornax ran",
        CollectionMethod::RepositoryRead => "read from the repository",
        CollectionMethod::PreProvenance => "collected before provenance was kept",
    }
}

fn clock_words(c: ClockSource) -> &'static str {
    match c {
        ClockSource::RuntimeRecord => "time written by the runtime",
        ClockSource::HostClock => "time from this machine's clock",
        ClockSource::RecordOrderOnly => "no time: ordered by record position",
        ClockSource::PreProvenance => "clock unknown",
    }
}
