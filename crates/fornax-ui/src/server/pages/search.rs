//! Search: matches in prompts and agent text, with the match marked, each linking to its
//! place in the session.

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use fornax_store::SessionRow;
use maud::html;

use super::{html_response, render, PageError, Request};
use crate::present::{labels, title};
use crate::server::html::{
    agent, filter_form, highlighted, item_href, layout, time, FilterQuery, Live, Section,
};
use crate::server::AppState;

const MOST: usize = 200;

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
    let text = q.q.as_deref().map(str::trim).filter(|t| !t.is_empty());
    let hits = match (&parsed, text) {
        (Ok(f), Some(t)) => store.search_in(t, &f.list_filter(), MOST + 1, false)?,
        _ => Vec::new(),
    };
    let more = hits.len() > MOST;
    let mut sessions: HashMap<i64, SessionRow> = HashMap::new();
    for h in &hits {
        if let std::collections::hash_map::Entry::Vacant(e) = sessions.entry(h.session_id) {
            e.insert(store.session_row(h.session_id)?);
        }
    }
    let main = html! {
        h1 { "Search" }
        (filter_form("/search", q, &r.state.providers, true, parsed.as_ref().err()))
        @if let Some(t) = text {
            p.summary { strong { (hits.len().min(MOST)) @if more { "+" } " matches" } " for “" (t) "”" }
            @if hits.is_empty() && parsed.is_ok() { p.quiet { "No matches. Tool outputs are not searched here (" code { "fornax search --include-output" } " does)." } }
            ol.hits {
                @for h in hits.iter().take(MOST) {
                    @let s = sessions.get(&h.session_id);
                    li {
                        a.hit href=(item_href(h.session_id, &h.item_key)) {
                            p.where {
                                (agent(&h.provider)) " · " (labels::role(&h.role))
                                @if let Some(l) = h.loop_position { " · loop " (l + 1) }
                                " · " (time(&r.clock, h.at.as_deref().or(s.and_then(|s| s.last_activity.as_deref()))))
                                " · " span.session { (s.and_then(|s| title::session_title(s.name.as_deref(), s.first_prompt.as_deref(), 70)).unwrap_or_else(|| title::short_id(&h.session))) }
                            }
                            p.snippet { (highlighted(&h.snippet, t)) }
                        }
                    }
                }
            }
        } @else {
            p.quiet { "Type words from a prompt or from what an agent said; any part of a word matches." }
        }
    };
    Ok(html_response(layout(
        r.frame("Search", Section::Search, Live::Notice),
        main,
    )))
}
