//! A native record: where it is, its fingerprint check, and its bytes as read back from the
//! source now, with secrets redacted (the bytes never were in the store).

use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use fornax_redact::{RedactionCounts, Redactor};
use maud::html;

use super::evidence::check_words;
use super::{html_response, render, PageError, Request};
use crate::server::html::{cut, layout, size, Live, Section};
use crate::server::AppState;

/// Bytes of a record shown.
const MOST: usize = 256 * 1024;

#[derive(Debug, Default, serde::Deserialize)]
pub struct Ref {
    pub source: Option<String>,
    pub position: Option<u64>,
}

pub async fn page(
    State(state): State<Arc<AppState>>,
    Path(id): Path<i64>,
    headers: HeaderMap,
) -> Response {
    render(state, &headers, move |r| build(r, Some(id), None)).await
}

/// `/raw?source=KEY&position=N`: the record an item cites.
pub async fn by_ref(
    State(state): State<Arc<AppState>>,
    Query(at): Query<Ref>,
    headers: HeaderMap,
) -> Response {
    render(state, &headers, move |r| build(r, None, Some(&at))).await
}

fn build(r: &Request<'_>, id: Option<i64>, at: Option<&Ref>) -> Result<Response, PageError> {
    let store = r.state.store()?;
    let loc = match (id, at) {
        (Some(id), _) => store.record_location(id)?,
        (
            None,
            Some(Ref {
                source: Some(s),
                position: Some(p),
            }),
        ) => store
            .record_at(s, *p)?
            .ok_or_else(|| PageError::NotFound(format!("No record at position {p} of {s:?}.")))?,
        _ => return Err(PageError::NotFound("Name a record.".into())),
    };
    let check = r.state.records.read(&loc);
    let shown = check.bytes.as_ref().map(|bytes| {
        let text = String::from_utf8_lossy(bytes);
        let pretty = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| serde_json::to_string_pretty(&v).ok())
            .unwrap_or_else(|| text.into_owned());
        let mut counts = RedactionCounts::default();
        let redacted = Redactor::new()
            .redact_text(&pretty, &mut counts)
            .unwrap_or(pretty);
        (redacted, counts.total())
    });
    let main = html! {
        h1 { "Native record " (loc.id) }
        dl.record-facts {
            dt { "source" } dd { code { (loc.locator) } }
            @if let Some(m) = &loc.member { dt { "member" } dd { code { (m) } } }
            dt { "adapter" } dd { (loc.adapter) " · position " (loc.position) }
            @if let (Some(a), Some(b)) = (loc.byte_start, loc.byte_end) {
                dt { "bytes" } dd { (a) "–" (b) " (" (size(u64::try_from(b - a).unwrap_or(0))) ")" }
            }
            dt { "fingerprint" } dd { code { (loc.fingerprint) } " (BLAKE3)" }
            dt { "check" } dd { span class={"check c-" (check.status)} { (check_words(&check.status)) } }
        }
        @match &shown {
            Some((text, secrets)) => {
                @let (visible, hidden) = cut(text, MOST);
                p.quiet {
                    "Read back from the source just now"
                    @if *secrets > 0 { "; " (secrets) " secrets redacted" } "."
                }
                pre.native { (visible) }
                @if hidden > 0 { p.quiet { (size(hidden as u64)) " more not shown (" code { "fornax record inspect " (loc.id) } " prints it)." } }
            }
            None => p { "The bytes cannot be shown: " (check_words(&check.status)) "." },
        }
    };
    Ok(html_response(layout(
        r.frame("Record", Section::None, Live::Notice),
        main,
    )))
}
