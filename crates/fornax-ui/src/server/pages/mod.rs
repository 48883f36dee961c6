//! One module per page. Each handler reads the store in a blocking task, on its own
//! read-only connection, and renders HTML.

pub mod evidence;
pub mod findings;
pub mod overview;
pub mod record;
pub mod search;
pub mod session;
pub mod sessions;
pub mod usage;

use std::sync::Arc;

use axum::http::{HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Response};
use fornax_store::{ChangeMarker, StoreError};
use maud::{html, Markup};

use super::html::{layout, Frame, Live, Section};
use super::AppState;
use crate::present::Clock;

/// Why a page could not be shown.
#[derive(Debug)]
pub enum PageError {
    NotFound(String),
    /// No database yet.
    NoIndex,
    Store(StoreError),
}

impl From<StoreError> for PageError {
    fn from(e: StoreError) -> Self {
        match e {
            StoreError::Missing(_) => PageError::NoIndex,
            StoreError::NoSuchSession(s) => {
                PageError::NotFound(format!("No session matches {s:?}."))
            }
            StoreError::NoSuchRecord(id) => PageError::NotFound(format!("No record {id}.")),
            other => PageError::Store(other),
        }
    }
}

/// What every page handler gets: the state, the clock, whether only the main part is wanted.
pub struct Request<'a> {
    pub state: &'a AppState,
    pub clock: Clock,
    pub fragment: bool,
    pub marker: ChangeMarker,
}

impl Request<'_> {
    pub fn frame<'t>(&self, title: &'t str, section: Section, live: Live) -> Frame<'t> {
        Frame {
            title,
            section,
            live,
            marker: self.marker,
            fragment: self.fragment,
        }
    }
}

/// Runs `render` in a blocking task and turns its result into a response.
pub async fn render<F>(state: Arc<AppState>, headers: &HeaderMap, render: F) -> Response
where
    F: FnOnce(&Request<'_>) -> Result<Response, PageError> + Send + 'static,
{
    let fragment = headers.get("x-fornax-fragment").is_some();
    let marker = *state.live.borrow();
    let task = tokio::task::spawn_blocking(move || {
        let request = Request {
            state: &state,
            clock: crate::env::clock(false),
            fragment,
            marker,
        };
        render(&request).unwrap_or_else(|e| error_page(&request, e))
    });
    match task.await {
        Ok(response) => response,
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "the page failed").into_response(),
    }
}

pub fn html_response(markup: Markup) -> Response {
    Html(markup.into_string()).into_response()
}

fn error_page(r: &Request<'_>, e: PageError) -> Response {
    let (status, title, body) = match e {
        PageError::NotFound(what) => (StatusCode::NOT_FOUND, "Not found", html! { p { (what) } }),
        PageError::NoIndex => (
            StatusCode::OK,
            "No index yet",
            html! {
                p { "This home has no index yet. Run " code { "fornax scan" } " to index your agents' sessions (or " code { "fornax daemon start" } " to follow them live); this page updates when it is there." }
            },
        ),
        PageError::Store(e) => (
            StatusCode::INTERNAL_SERVER_ERROR,
            "The index could not be read",
            html! { p { (e.to_string()) } },
        ),
    };
    let main = html! { h1 { (title) } (body) };
    (
        status,
        html_response(layout(r.frame(title, Section::None, Live::Refresh), main)),
    )
        .into_response()
}

pub async fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        refusal_page("There is no such page."),
    )
        .into_response()
}

/// A bare page for refusals and unknown addresses (no data, no script).
pub fn refusal_page(why: &str) -> Html<String> {
    Html(
        html! {
            (maud::DOCTYPE)
            html lang="en" {
                head { meta charset="utf-8"; title { "Fornax" } }
                body { main #main { h1 { "Fornax" } p { (why) } } }
            }
        }
        .into_string(),
    )
}
