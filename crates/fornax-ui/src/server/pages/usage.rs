//! Usage: tokens and cost per day, month, session or 5-hour block, from the index's usage
//! facts priced with the offline table (the one `fornax usage` uses, override included).

use std::sync::Arc;

use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use fornax_store::{UsageGrain, UsageQuery};
use fornax_usage::{Grain, Report, ReportRow, Totals};
use maud::{html, Markup};
use serde::Deserialize;

use super::{html_response, render, PageError, Request};
use crate::present::filter::parse_provider;
use crate::server::html::{agent, enc, layout, Live, Section};
use crate::server::AppState;

/// Rows shown (the newest); the totals count every row.
const ROWS: usize = 200;

#[derive(Debug, Default, Deserialize)]
pub struct UsageParams {
    /// `daily` (default), `monthly`, `session` or `blocks`.
    pub report: Option<String>,
    pub provider: Option<String>,
}

pub async fn page(
    State(state): State<Arc<AppState>>,
    Query(q): Query<UsageParams>,
    headers: HeaderMap,
) -> Response {
    render(state, &headers, move |r| build(r, &q)).await
}

const REPORTS: [(&str, &str, Grain, UsageGrain); 4] = [
    ("daily", "Daily", Grain::Daily, UsageGrain::Day),
    ("monthly", "Monthly", Grain::Monthly, UsageGrain::Month),
    ("session", "Sessions", Grain::Session, UsageGrain::Session),
    ("blocks", "5-hour blocks", Grain::Blocks, UsageGrain::Hour),
];

fn build(r: &Request<'_>, q: &UsageParams) -> Result<Response, PageError> {
    let which = q.report.as_deref().unwrap_or("daily");
    let Some(&(name, _, grain, store_grain)) = REPORTS.iter().find(|(n, ..)| *n == which) else {
        return Err(PageError::NotFound(format!(
            "No usage report {which:?}: daily, monthly, session or blocks."
        )));
    };
    let provider = match q.provider.as_deref().filter(|p| !p.is_empty()) {
        Some(p) => Some(
            parse_provider(p, &r.state.providers)
                .map_err(|e| PageError::NotFound(e.to_string()))?,
        ),
        None => None,
    };
    let store = r.state.store()?;
    let query = UsageQuery {
        provider: provider.clone(),
        ..UsageQuery::default()
    };
    let groups = store.usage_groups(store_grain, &query)?;
    let now = r.clock.now().to_string();
    let report = fornax_usage::build(grain, &groups, &r.state.prices, Some(&now));
    let link = |report: &str| {
        let mut href = format!("/usage?report={report}");
        if let Some(p) = &provider {
            href.push_str(&format!("&provider={}", enc(p)));
        }
        href
    };
    let main = html! {
        h1 { "Usage" }
        nav.tabs aria-label="report" {
            @for (n, label, ..) in REPORTS {
                a href=(link(n)) class=[(n == name).then_some("current")] { (label) }
            }
            span.quiet { " · " @if let Some(p) = &provider { (agent(p)) " · " a href={"/usage?report=" (name)} { "all agents" } } @else { "all agents" } }
        }
        section.tiles.usage-tiles {
            div.tile { span.count #usage-total-tokens { (count(report.totals.total_tokens)) } span.name { "tokens" } }
            div.tile { span.count #usage-cost { (cost(&report.totals)) } span.name { "cost (USD)" } }
            div.tile { span.count { (count(report.totals.calls)) } span.name { "model calls" } }
        }
        @if report.rows.is_empty() {
            p.quiet { "No usage recorded yet. Agents that report tokens: Claude Code, Codex, Pi, opencode, Gemini CLI." }
        } @else {
            (table(&report, grain))
        }
        (footer(&report))
    };
    Ok(html_response(layout(
        r.frame("Usage", Section::Usage, Live::Refresh),
        main,
    )))
}

fn table(report: &Report, grain: Grain) -> Markup {
    let first = match grain {
        Grain::Daily => "Day (UTC)",
        Grain::Monthly => "Month (UTC)",
        Grain::Session => "Session",
        Grain::Blocks => "Block (UTC)",
    };
    let hidden = report.rows.len().saturating_sub(ROWS);
    html! {
        table.grid.usage #usage-table {
            thead { tr {
                th { (first) } th { "Models" } th.num { "Input" } th.num { "Output" }
                th.num { "Cache write" } th.num { "Cache read" } th.num { "Reasoning" }
                th.num { "Total" } th.num { "Cost" }
            } }
            tbody {
                @for row in report.rows.iter().rev().take(ROWS) {
                    (row_cells(row, grain, false))
                    @for sub in &row.subagents { (row_cells(sub, grain, true)) }
                }
            }
            tfoot { tr.total {
                td { "Total" } td {}
                (cells(&report.totals))
            } }
        }
        @if hidden > 0 { p.quiet { "and " (hidden) " older rows (in the totals)" } }
    }
}

fn row_cells(row: &ReportRow, grain: Grain, subagent: bool) -> Markup {
    html! {
        tr class=[subagent.then_some("subagent")] {
            td {
                @match grain {
                    Grain::Session => {
                        @if subagent { "↳ " }
                        a href={"/s/" (enc(&row.key))} title=(row.key) { (crate::present::title::short_id(&row.key)) }
                        @if let Some(p) = &row.project {
                            " " span.quiet { (crate::present::title::project_label(Some(p), 30)) }
                        }
                    }
                    Grain::Blocks => {
                        (row.key.chars().take(16).collect::<String>().replace('T', " "))
                        @if row.block.as_ref().is_some_and(|b| b.active) { " " span.active { "active" } }
                    }
                    _ => { @if row.key.is_empty() { span.quiet { "(no time)" } } @else { (row.key) } }
                }
            }
            td { (row.models.join(", ")) }
            (cells(&row.totals))
        }
    }
}

fn cells(t: &Totals) -> Markup {
    html! {
        td.num { (count(t.input_tokens)) }
        td.num { (count(t.output_tokens)) }
        td.num { (count(t.cache_creation_tokens)) }
        td.num { (count(t.cache_read_tokens)) }
        td.num {
            @match t.reasoning_tokens {
                Some(n) => { (count(n)) }
                None => { span.quiet { "-" } }
            }
        }
        td.num { (count(t.total_tokens)) }
        td.num { (cost(t)) }
    }
}

fn footer(report: &Report) -> Markup {
    html! {
        p.quiet {
            "Prices: built-in table of " (report.prices.version)
            @if let Some(v) = &report.prices.override_version { ", overridden by prices.json (" (v) ")" }
            ". Tokens counted once across files (streamed repeats and cumulative counters de-duplicated)."
        }
        @if !report.unpriced_models.is_empty() {
            p.warning #usage-unpriced {
                "Not priced (unknown to the price table; their tokens are counted, their cost is not): "
                (report.unpriced_models.join(", "))
            }
        }
        @if let Some(reported) = report.totals.reported_cost_usd {
            p {
                "Cost the agents reported themselves: $" (format!("{reported:.2}"))
                @if let Some(ours) = report.totals.cost_where_reported_usd {
                    "; ours for the same calls: $" (format!("{ours:.2}")) " (difference $" (format!("{:+.2}", ours - reported)) ")"
                }
            }
        }
    }
}

/// The cost, marked when some tokens could not be priced.
fn cost(t: &Totals) -> String {
    if t.fully_priced() {
        format!("${:.2}", t.cost_usd)
    } else if t.cost_usd > 0.0 {
        format!("${:.2} + unpriced", t.cost_usd)
    } else {
        "unpriced".to_string()
    }
}

/// A count with thousands separators.
fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_group_thousands_and_costs_say_when_unpriced() {
        assert_eq!(count(0), "0");
        assert_eq!(count(1234567), "1,234,567");
        let mut t = Totals {
            cost_usd: 1.5,
            ..Totals::default()
        };
        assert_eq!(cost(&t), "$1.50");
        t.unpriced_tokens = 10;
        assert_eq!(cost(&t), "$1.50 + unpriced");
        t.cost_usd = 0.0;
        assert_eq!(cost(&t), "unpriced");
    }
}
