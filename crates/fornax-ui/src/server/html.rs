//! The page frame and the small pieces every page uses: verdict badges, times, links, the
//! filter form, paging.

use std::collections::BTreeMap;

use fornax_store::ChangeMarker;
use fornax_types::Verdict;
use maud::{html, Markup, DOCTYPE};

use crate::present::{labels, verdict, Clock, FilterError};

/// Which part of the site a page belongs to (for the navigation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    Overview,
    Sessions,
    Findings,
    Search,
    Usage,
    None,
}

/// How a page follows the index while it is open.
#[derive(Debug, Clone, Copy)]
pub enum Live {
    /// Re-render the page's main part when something is added.
    Refresh,
    /// Add a session's new items at the end (the session page at its last page).
    Append { session: i64, next: usize },
    /// Only say that something changed.
    Notice,
}

pub struct Frame<'a> {
    pub title: &'a str,
    pub section: Section,
    pub live: Live,
    pub marker: ChangeMarker,
    /// Only the main part (a live refresh asks for it).
    pub fragment: bool,
}

pub fn layout(frame: Frame<'_>, main: Markup) -> Markup {
    if frame.fragment {
        return main;
    }
    let (mode, session, next) = match frame.live {
        Live::Refresh => ("refresh", None, None),
        Live::Append { session, next } => ("append", Some(session), Some(next)),
        Live::Notice => ("notice", None, None),
    };
    let nav = |s: Section, href: &str, label: &str| {
        html! { a href=(href) class=[(frame.section == s).then_some("current")] { (label) } }
    };
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                meta name="referrer" content="no-referrer";
                title { (frame.title) " · Fornax" }
                link rel="stylesheet" href="/assets/app.css";
                script src="/assets/app.js" defer {}
            }
            body data-live=(mode) data-session=[session] data-next=[next]
                data-last-item=(frame.marker.last_item) data-last-finding=(frame.marker.last_finding)
                data-sessions=(frame.marker.sessions) {
                header.top {
                    a.brand href="/" { "Fornax" }
                    nav {
                        (nav(Section::Overview, "/", "Overview"))
                        (nav(Section::Sessions, "/sessions", "Sessions"))
                        (nav(Section::Findings, "/findings", "Findings"))
                        (nav(Section::Usage, "/usage", "Usage"))
                    }
                    form.search action="/search" method="get" role="search" {
                        input type="search" name="q" placeholder="Search prompts and agent text" aria-label="Search";
                    }
                    span #live.live title="Live: new sessions and findings appear as they are indexed" { "live" }
                }
                div #notice.notice hidden {}
                main #main { (main) }
                aside #panel.panel hidden aria-live="polite" {}
            }
        }
    }
}

/// A verdict badge: mark and name, colored by meaning.
pub fn badge(v: &str) -> Markup {
    match Verdict::parse(v) {
        Some(parsed) => html! {
            span class={"badge v-" (verdict::slug(parsed))} title=(verdict::meaning(parsed)) {
                (verdict::symbol(parsed)) " " (parsed.as_str())
            }
        },
        None => html! { span.badge { (v) } },
    }
}

/// Verdict counts as small marks (`✘1 ?2 ✔5`).
pub fn marks(counts: &BTreeMap<String, i64>) -> Markup {
    let ordered = verdict::ordered_counts(counts);
    html! {
        span.marks {
            @if ordered.is_empty() { span.none { "–" } }
            @for (v, n) in ordered {
                span class={"mark v-" (verdict::slug(v))} title={(n) " " (v.as_str())} {
                    (verdict::symbol(v)) (n)
                }
            }
        }
    }
}

/// A time, relative and local, with the absolute time on hover.
pub fn time(clock: &Clock, stored: Option<&str>) -> Markup {
    match stored {
        Some(t) if crate::present::clock::parse(t).is_some() => {
            html! { time datetime=(t) title=(clock.absolute(t)) { (clock.when(t)) } }
        }
        Some(t) => html! { span.none title={"not a time: " (t)} { "–" } },
        None => html! { span.none title="the agent recorded no time" { "–" } },
    }
}

pub fn agent(provider: &str) -> Markup {
    html! { span class={"agent p-" (provider)} { (labels::agent(provider)) } }
}

/// Percent-encodes one path segment or query value.
pub fn enc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// The element id of an item on its session page.
pub fn item_anchor(key: &str) -> String {
    format!("item-{}", enc(key))
}

/// The session page, scrolled to an item.
pub fn item_href(session_id: i64, key: &str) -> String {
    format!("/s/{session_id}?item={}#{}", enc(key), item_anchor(key))
}

pub fn finding_href(session_id: i64, claim_key: &str) -> String {
    format!("/f/{session_id}/{}", enc(claim_key))
}

/// The query string of the filters as given (for paging links).
pub fn query(pairs: &[(&str, Option<&str>)]) -> String {
    let parts: Vec<String> = pairs
        .iter()
        .filter_map(|(k, v)| {
            v.filter(|v| !v.is_empty())
                .map(|v| format!("{k}={}", enc(v)))
        })
        .collect();
    parts.join("&")
}

/// The filters as typed in the page's address.
#[derive(Debug, Clone, Default, serde::Deserialize)]
pub struct FilterQuery {
    pub since: Option<String>,
    pub until: Option<String>,
    pub provider: Option<String>,
    pub project: Option<String>,
    pub verdict: Option<String>,
    pub q: Option<String>,
    pub page: Option<usize>,
}

impl FilterQuery {
    pub fn input(&self) -> crate::present::FilterInput {
        crate::present::FilterInput {
            since: self.since.clone(),
            until: self.until.clone(),
            provider: self.provider.clone(),
            project: self.project.clone(),
            verdict: self.verdict.clone(),
        }
    }

    pub fn pairs(&self) -> Vec<(&'static str, Option<&str>)> {
        vec![
            ("q", self.q.as_deref()),
            ("provider", self.provider.as_deref()),
            ("project", self.project.as_deref()),
            ("verdict", self.verdict.as_deref()),
            ("since", self.since.as_deref()),
            ("until", self.until.as_deref()),
        ]
    }

    pub fn page(&self) -> usize {
        self.page.unwrap_or(1).max(1)
    }
}

/// The filter form; `verdict_label` names what the verdict filter selects.
pub fn filter_form(
    action: &str,
    q: &FilterQuery,
    providers: &[fornax_types::Provider],
    with_text: bool,
    error: Option<&FilterError>,
) -> Markup {
    let selected = |v: &str| {
        q.verdict
            .as_deref()
            .is_some_and(|s| s.eq_ignore_ascii_case(v))
    };
    html! {
        form.filters action=(action) method="get" {
            @if with_text {
                label { "Text " input type="search" name="q" value=[q.q.as_deref()] placeholder="words in prompts or agent text"; }
            }
            label { "Agent "
                select name="provider" {
                    option value="" { "any" }
                    @for p in providers {
                        option value=(p.as_str()) selected[q.provider.as_deref() == Some(p.as_str())] { (labels::agent(p.as_str())) }
                    }
                }
            }
            label { "Project " input type="text" name="project" value=[q.project.as_deref()] placeholder="part of the path"; }
            label { "Verdict "
                select name="verdict" {
                    option value="" { "any" }
                    @for v in verdict::SEVERITY {
                        option value=(v.as_str()) selected[selected(v.as_str())] { (v.as_str()) }
                    }
                    option value="CONTRADICTED,REVIEW" selected[selected("CONTRADICTED,REVIEW")] { "CONTRADICTED or REVIEW" }
                }
            }
            label { "Since " input type="text" name="since" value=[q.since.as_deref()] placeholder="2d, yesterday, 2026-03-14" size="12"; }
            label { "Until " input type="text" name="until" value=[q.until.as_deref()] placeholder="today" size="12"; }
            button type="submit" { "Apply" }
            @if q.pairs().iter().any(|(_, v)| v.is_some_and(|v| !v.is_empty())) {
                a.clear href=(action) { "clear" }
            }
        }
        @if let Some(e) = error {
            p.error role="alert" { (e.to_string()) ". " (e.accepted()) "." }
        }
    }
}

/// Page links: `page` of `pages`, keeping the filters.
pub fn pager(base: &str, filters: &str, page: usize, per: usize, total: usize) -> Markup {
    let pages = total.div_ceil(per).max(1);
    let href = |p: usize| {
        if filters.is_empty() {
            format!("{base}?page={p}")
        } else {
            format!("{base}?{filters}&page={p}")
        }
    };
    html! {
        @if pages > 1 {
            nav.pager {
                @if page > 1 { a rel="prev" href=(href(page - 1)) { "← newer" } }
                span { "page " (page) " of " (pages) }
                @if page < pages { a rel="next" href=(href(page + 1)) { "older →" } }
            }
        }
    }
}

/// Long text cut for a page, with how much was left out.
pub fn cut(text: &str, limit: usize) -> (&str, usize) {
    if text.len() <= limit {
        return (text, 0);
    }
    let mut end = limit;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (&text[..end], text.len() - end)
}

/// Text with every case-insensitive occurrence of `needle` marked.
pub fn highlighted(text: &str, needle: &str) -> Markup {
    let lower = text.to_lowercase();
    let needle = needle.to_lowercase();
    if needle.is_empty() || lower.len() != text.len() {
        return html! { (text) };
    }
    let mut parts: Vec<(bool, &str)> = Vec::new();
    let mut at = 0;
    while let Some(found) = lower[at..].find(&needle) {
        let start = at + found;
        parts.push((false, &text[at..start]));
        parts.push((true, &text[start..start + needle.len()]));
        at = start + needle.len();
    }
    parts.push((false, &text[at..]));
    html! {
        @for (hit, part) in parts {
            @if hit { mark { (part) } } @else { (part) }
        }
    }
}

/// Bytes as `12.3 KB`.
pub fn size(bytes: u64) -> String {
    match bytes {
        0..1024 => format!("{bytes} B"),
        1024..1_048_576 => format!("{:.1} KB", bytes as f64 / 1024.0),
        _ => format!("{:.1} MB", bytes as f64 / 1_048_576.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_encoded_for_addresses() {
        assert_eq!(enc("k2#0:test_result"), "k2%230%3Atest_result");
        assert_eq!(enc("a b/é"), "a%20b%2F%C3%A9");
        assert_eq!(
            item_href(3, "out:toolu_1"),
            "/s/3?item=out%3Atoolu_1#item-out%3Atoolu_1"
        );
    }

    #[test]
    fn text_is_escaped_and_marked() {
        let m = highlighted("<b>All tests pass</b>", "tests");
        assert_eq!(
            m.into_string(),
            "&lt;b&gt;All <mark>tests</mark> pass&lt;/b&gt;"
        );
    }

    #[test]
    fn cuts_fall_on_characters() {
        assert_eq!(cut("héllo", 2), ("h", 5));
        assert_eq!(cut("abc", 10), ("abc", 0));
    }
}
