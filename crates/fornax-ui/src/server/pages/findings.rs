//! Findings: most urgent first, filterable, each with its reason in full sentences.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use fornax_store::{FindingOrder, FindingRow, Store};
use maud::{html, Markup};

use super::{html_response, render, PageError, Request};
use crate::present::{labels, title, Clock};
use crate::server::html::{
    agent, badge, filter_form, finding_href, item_href, layout, pager, query, time, FilterQuery,
    Live, Section,
};
use crate::server::timeline::reason;
use crate::server::AppState;

const PER_PAGE: usize = 50;

pub async fn page(
    State(state): State<Arc<AppState>>,
    Query(q): Query<FilterQuery>,
    headers: HeaderMap,
) -> Response {
    render(state, &headers, move |r| build(r, &q)).await
}

fn build(r: &Request<'_>, q: &FilterQuery) -> Result<Response, PageError> {
    let store = r.state.store()?;
    let parsed = q.input().parse(&r.clock, &r.state.providers);
    let filters = parsed.as_ref().ok().cloned().unwrap_or_default();
    let filter = filters.list_filter();
    let counts = store.finding_counts_in(&filter, None)?;
    let total: i64 = counts.values().sum();
    let page_no = q.page();
    let rows = if parsed.is_ok() {
        store.findings_page(
            &filter,
            None,
            FindingOrder::Severity,
            PER_PAGE,
            (page_no - 1) * PER_PAGE,
        )?
    } else {
        Vec::new()
    };
    let kept = query(&q.pairs());
    let main = html! {
        h1 { "Findings" }
        (filter_form("/findings", q, &r.state.providers, false, parsed.as_ref().err()))
        p.summary {
            strong { (total) @if total == 1 { " finding" } @else { " findings" } }
            @for (v, n) in crate::present::verdict::ordered_counts(&counts) {
                " · " span class={"v-" (crate::present::verdict::slug(v))} { (crate::present::verdict::symbol(v)) " " (n) " " (v.as_str().to_lowercase()) }
            }
        }
        @if rows.is_empty() && parsed.is_ok() {
            p.quiet { @if filters.is_empty() { "No findings yet." } @else { "No findings match these filters." } }
        }
        ul.findings-list {
            @for f in &rows { li { (card(f, &store, &r.clock)?) } }
        }
        (pager("/findings", &kept, page_no, PER_PAGE, usize::try_from(total).unwrap_or(0)))
    };
    Ok(html_response(layout(
        r.frame("Findings", Section::Findings, Live::Refresh),
        main,
    )))
}

/// One finding: verdict, what and where, the claim, the reason, and the ways in.
pub fn card(f: &FindingRow, store: &Store, clock: &Clock) -> Result<Markup, PageError> {
    let session = store.session_row(f.session_id)?;
    let provider = f.session["provider"].as_str().unwrap_or("");
    let slug =
        fornax_types::Verdict::parse(&f.verdict).map_or("unknown", crate::present::verdict::slug);
    let name = title::session_title(session.name.as_deref(), session.first_prompt.as_deref(), 70)
        .unwrap_or_else(|| title::short_id(&session.native_id));
    let claim = f.claim["text"].as_str().unwrap_or("");
    Ok(html! {
        article class={"finding v-" (slug)} {
            header {
                (badge(&f.verdict))
                span.subject { (labels::subject(f.claim["subject"].as_str().unwrap_or(""))) }
                (agent(provider))
                (time(clock, f.at.as_deref().or(session.last_activity.as_deref())))
                a.session href={"/s/" (f.session_id)} title=(session.native_id) { (name) }
            }
            blockquote { "“" (claim) "”" }
            p.reason { (reason(f)) }
            footer {
                a.evidence-link href=(finding_href(f.session_id, &f.claim_key)) data-panel { "Evidence" }
                a href=(item_href(f.session_id, &f.item_key)) { "In the timeline" }
            }
        }
    })
}
