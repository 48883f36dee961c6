//! One session: its facts, its claims, and its timeline a page at a time (a long session
//! loads further pages as it is read, never holding more than [`timeline::MAX_ROWS`] rows).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use fornax_store::{FindingOrder, FindingRow, ListFilter, Store};
use fornax_types::SemanticValue;
use maud::html;

use super::{html_response, render, PageError, Request};
use crate::present::{labels, title};
use crate::server::html::{
    agent, badge, finding_href, item_href, layout, marks, time, Live, Section,
};
use crate::server::timeline::{self, child_block, Context, PAGE};
use crate::server::AppState;

#[derive(Debug, Default, serde::Deserialize)]
pub struct At {
    pub offset: Option<usize>,
    /// Open the page holding this item.
    pub item: Option<String>,
    pub limit: Option<usize>,
    pub nested: Option<u8>,
    pub part: Option<String>,
}

pub async fn page(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(at): Query<At>,
    headers: HeaderMap,
) -> Response {
    render(state, &headers, move |r| build(r, &id, &at)).await
}

/// The session a path names: a row id, or anything `fornax show` accepts (`latest`, an id
/// or its prefix).
fn resolve(store: &Store, id: &str) -> Result<i64, PageError> {
    match id.parse::<i64>() {
        Ok(n) => store.resolve_session(&format!("#{n}")).map_err(Into::into),
        Err(_) => store.resolve_session(id).map_err(Into::into),
    }
}

fn build(r: &Request<'_>, id: &str, at: &At) -> Result<Response, PageError> {
    let store = r.state.store()?;
    let id = resolve(&store, id)?;
    let s = store.session_row(id)?;
    let total = usize::try_from(s.items).unwrap_or(0);
    let offset = match (&at.item, at.offset) {
        (Some(key), _) => store.item_index(id, key)?.map_or(0, |i| i / PAGE * PAGE),
        (None, Some(o)) => o.min(total.saturating_sub(1)) / PAGE * PAGE,
        (None, None) => 0,
    };
    let items = store.session_items(id, offset, PAGE)?;
    let loop_before = if offset > 0 {
        store
            .session_items(id, offset - 1, 1)?
            .first()
            .and_then(|i| i.loop_position)
    } else {
        None
    };
    let loops = store.loops(id)?;
    let family_findings =
        store.findings_in(&ListFilter::default(), Some(id), FindingOrder::Claim, 0)?;
    let children = store.children(id)?;
    let parent = store.parent_of(id)?;
    let end = offset + items.len();
    let ctx = Context {
        session_id: id,
        clock: &r.clock,
        findings: by_item(&family_findings, id),
        children: &children,
        loops: &loops,
        loop_before,
        nested: false,
    };
    let matched: Vec<i64> = matched_children(&store, id, &children)?;
    let name = title::session_title(s.name.as_deref(), s.first_prompt.as_deref(), 120)
        .unwrap_or_else(|| format!("{} session", labels::agent(&s.provider)));
    let mut ordered: Vec<&FindingRow> = family_findings.iter().collect();
    ordered.sort_by_key(|f| crate::present::verdict::rank_name(&f.verdict));
    let main = html! {
        header.session-head {
            h1 { (name) }
            p.meta {
                (agent(&s.provider))
                @if let Some(cwd) = &s.cwd { " · " span.project title=(cwd) { (cwd) } }
                " · started " (time(&r.clock, s.created_at.as_deref()))
                " · last activity " (time(&r.clock, s.last_activity.as_deref()))
                @if let Some(v) = &s.runtime_version { " · version " (v) }
                " · " (s.loops) " loops · " (s.items) " items · " (marks(&s.verdicts))
            }
            p.ids {
                "session " code { (s.native_id) }
                @if let Some(p) = parent { " · subagent of " a href={"/s/" (p)} { (s.parent_native_id.as_deref().unwrap_or("its parent")) } }
                @else if let Some(p) = &s.parent_native_id { " · subagent of " code { (p) } }
            }
            @if !s.sources.is_empty() {
                details.sources { summary { (s.sources.len()) " source" @if s.sources.len() != 1 { "s" } }
                    ul { @for src in &s.sources { li { code { (src) } } } } }
            }
        }
        @if !ordered.is_empty() {
            section.claims-summary {
                h2 { "Claims" }
                ul {
                    @for f in &ordered {
                        li {
                            (badge(&f.verdict)) " "
                            a href=(item_href(f.session_id, &f.item_key)) { "“" (f.claim["text"].as_str().unwrap_or("")) "”" }
                            " · " a.evidence-link href=(finding_href(f.session_id, &f.claim_key)) data-panel { "evidence" }
                            @if f.session_id != id { " " span.tag { "subagent" } }
                        }
                    }
                }
            }
        }
        section.timeline-section {
            h2 { "Timeline" }
            (window_nav(id, offset, end, total))
            div #timeline.timeline data-session=(id) data-start=(offset) data-end=(end) data-total=(total) data-max-rows=(timeline::MAX_ROWS) {
                (timeline::rows(&items, offset, &ctx))
            }
            @if end < total {
                a #more.more href={"/s/" (id) "?offset=" (end)} data-next=(end) { "Load more (" (total - end) " items)" }
            }
            @if end >= total {
                @let unmatched: Vec<_> = children.iter().filter(|c| !matched.contains(&c.id)).collect();
                @if !unmatched.is_empty() {
                    h3 { "Subagents" }
                    @for c in unmatched { (child_block(c)) }
                }
            }
        }
    };
    let live = if end >= total {
        Live::Append {
            session: id,
            next: end,
        }
    } else {
        Live::Notice
    };
    Ok(html_response(layout(
        r.frame(&name, Section::Sessions, live),
        main,
    )))
}

/// The children whose timeline nests under a call of this session.
fn matched_children(
    store: &Store,
    id: i64,
    children: &[fornax_store::ChildSession],
) -> Result<Vec<i64>, PageError> {
    let mut out = Vec::new();
    for c in children {
        if let Some(call) = &c.parent_call_id {
            if store.has_call(id, call)? {
                out.push(c.id);
            }
        }
    }
    Ok(out)
}

fn by_item(findings: &[FindingRow], session: i64) -> HashMap<&str, Vec<&FindingRow>> {
    let mut map: HashMap<&str, Vec<&FindingRow>> = HashMap::new();
    for f in findings.iter().filter(|f| f.session_id == session) {
        map.entry(f.item_key.as_str()).or_default().push(f);
    }
    map
}

fn window_nav(id: i64, start: usize, end: usize, total: usize) -> maud::Markup {
    html! {
        nav.window {
            @if start > 0 {
                a.earlier href={"/s/" (id) "?offset=" (start.saturating_sub(PAGE))} { "← earlier items" }
                " · "
            }
            span.range { "items " (if total == 0 { 0 } else { start + 1 }) "–" span.range-end { (end) } " of " (total) }
            @if start > 0 { " · " a href={"/s/" (id)} { "start" } }
        }
    }
}

/// A page of rows alone (for "load more", live additions and nested subagents).
pub async fn items(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    Query(at): Query<At>,
    headers: HeaderMap,
) -> Response {
    render(state, &headers, move |r| {
        let store = r.state.store()?;
        let id = resolve(&store, &id)?;
        let offset = at.offset.unwrap_or(0);
        let limit = at.limit.unwrap_or(PAGE).clamp(1, PAGE);
        let items = store.session_items(id, offset, limit)?;
        let total = usize::try_from(store.session_row(id)?.items).unwrap_or(0);
        let loop_before = if offset > 0 {
            store.session_items(id, offset - 1, 1)?.first().and_then(|i| i.loop_position)
        } else {
            None
        };
        let loops = store.loops(id)?;
        let findings = store.findings_in(&ListFilter::default(), Some(id), FindingOrder::Claim, 0)?;
        let children = store.children(id)?;
        let nested = at.nested.is_some();
        let ctx = Context {
            session_id: id,
            clock: &r.clock,
            findings: by_item(&findings, id),
            children: &children,
            loops: &loops,
            loop_before,
            nested,
        };
        let end = offset + items.len();
        let body = html! {
            (timeline::rows(&items, offset, &ctx))
            @if nested && end < total {
                p.more-nested { a href={"/s/" (id) "?offset=" (end)} { (total - end) " more items — open the subagent's timeline" } }
            }
        };
        let mut response = html_response(body);
        if let Ok(v) = end.to_string().parse() {
            response.headers_mut().insert("x-next-offset", v);
        }
        if let Ok(v) = total.to_string().parse() {
            response.headers_mut().insert("x-total", v);
        }
        Ok(response)
    })
    .await
}

/// An item's whole text (or a tool output's standard error with `?part=stderr`).
pub async fn full_text(
    State(state): State<Arc<AppState>>,
    Path((id, key)): Path<(String, String)>,
    Query(at): Query<At>,
    headers: HeaderMap,
) -> Response {
    render(state, &headers, move |r| {
        let store = r.state.store()?;
        let id = resolve(&store, &id)?;
        let index = store
            .item_index(id, &key)?
            .ok_or_else(|| PageError::NotFound(format!("No item {key:?} in this session.")))?;
        let item = store
            .session_items(id, index, 1)?
            .into_iter()
            .next()
            .ok_or_else(|| PageError::NotFound(format!("No item {key:?} in this session.")))?;
        let text = match (&item.semantic.value, at.part.as_deref()) {
            (SemanticValue::ToolOutput(o), Some("stderr")) => {
                o.stderr.as_ref().map(|t| t.text.clone())
            }
            (v, _) => v.primary_text().map(str::to_string),
        }
        .unwrap_or_default();
        Ok((
            StatusCode::OK,
            [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
            text,
        )
            .into_response())
    })
    .await
}
