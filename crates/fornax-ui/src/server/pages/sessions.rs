//! Sessions: most recent first, with title, agent, project, time, size and verdicts;
//! filters, full-text search and pages.

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use fornax_store::SessionRow;
use maud::html;

use super::{html_response, render, PageError, Request};
use crate::present::title;
use crate::server::html::{
    agent, filter_form, layout, marks, pager, query, time, FilterQuery, Live, Section,
};
use crate::server::AppState;

const PER_PAGE: usize = 50;

/// Matches read to find the sessions a text search selects.
const SEARCH_HITS: usize = 1000;

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
    let filter = parsed.as_ref().map(|f| f.list_filter()).unwrap_or_default();
    let page_no = q.page();
    let text = q.q.as_deref().map(str::trim).filter(|t| !t.is_empty());
    let (rows, total): (Vec<SessionRow>, usize) = match (&parsed, text) {
        (Err(_), _) => (Vec::new(), 0),
        (Ok(_), Some(t)) => {
            // The sessions holding the text, in the order of their best match.
            let mut ids: Vec<i64> = Vec::new();
            for hit in store.search_in(t, &filter, SEARCH_HITS, false)? {
                if !ids.contains(&hit.session_id) {
                    ids.push(hit.session_id);
                }
            }
            let total = ids.len();
            let rows = ids
                .into_iter()
                .skip((page_no - 1) * PER_PAGE)
                .take(PER_PAGE)
                .map(|id| store.session_row(id))
                .collect::<Result<_, _>>()?;
            (rows, total)
        }
        (Ok(_), None) => (
            store.list_sessions_in(&filter, PER_PAGE, (page_no - 1) * PER_PAGE)?,
            store.count_sessions_in(&filter)?,
        ),
    };
    let kept = query(&q.pairs());
    let main = html! {
        h1 { "Sessions" }
        (filter_form("/sessions", q, &r.state.providers, true, parsed.as_ref().err()))
        p.summary { strong { (total) @if total == 1 { " session" } @else { " sessions" } } @if text.is_some() { " holding “" (text.unwrap_or("")) "”" } " · most recent first" }
        @if rows.is_empty() && parsed.is_ok() {
            p.quiet { "No sessions match." }
        } @else {
            table.grid.sessions {
                thead { tr {
                    th { "When" } th { "Title" } th { "Agent" } th { "Project" } th.num { "Items" } th { "Verdicts" }
                } }
                tbody {
                    @for s in &rows {
                        @let name = title::session_title(s.name.as_deref(), s.first_prompt.as_deref(), 90);
                        tr {
                            td.when { (time(&r.clock, s.last_activity.as_deref().or(s.created_at.as_deref()))) }
                            td.title {
                                a href={"/s/" (s.id)} title=(s.native_id) {
                                    @match &name { Some(n) => (n), None => span.quiet { "(no prompt) " (title::short_id(&s.native_id)) } }
                                }
                                @if s.parent_native_id.is_some() { " " span.tag { "subagent" } }
                            }
                            td { (agent(&s.provider)) }
                            td.project title=[s.cwd.as_deref()] { (title::project_label(s.cwd.as_deref(), 36)) }
                            td.num { (s.items) }
                            td { (marks(&s.verdicts)) }
                        }
                    }
                }
            }
        }
        (pager("/sessions", &kept, page_no, PER_PAGE, total))
    };
    Ok(html_response(layout(
        r.frame("Sessions", Section::Sessions, Live::Refresh),
        main,
    )))
}
