//! Overview: verdict counts, what needs attention first, activity per agent and project,
//! and what `doctor` would warn about.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::Response;
use fornax_store::{FindingOrder, ListFilter, ProjectStat};
use jiff::ToSpan;
use maud::{html, Markup};

use super::{html_response, render, PageError, Request};
use crate::present::{clock::stored_form, labels, title, verdict};
use crate::server::html::{agent, layout, marks, time, Live, Section};
use crate::server::AppState;

/// Days of activity shown.
const DAYS: i64 = 30;

pub async fn page(State(state): State<Arc<AppState>>, headers: HeaderMap) -> Response {
    render(state, &headers, build).await
}

fn build(r: &Request<'_>) -> Result<Response, PageError> {
    let store = r.state.store()?;
    let counts = store.finding_counts_in(&ListFilter::default(), None)?;
    let attention = ListFilter {
        verdicts: vec!["CONTRADICTED".into(), "REVIEW".into()],
        ..ListFilter::default()
    };
    let urgent = store.findings_in(&attention, None, FindingOrder::Severity, 5)?;
    let urgent_total: i64 = store.finding_counts_in(&attention, None)?.values().sum();
    let stats = store.project_stats()?;
    let today = r.clock.today();
    let first_day = today.checked_sub((DAYS - 1).days()).unwrap_or(today);
    let since = r
        .clock
        .start_of(first_day)
        .map(stored_form)
        .unwrap_or_default();
    let activity = store.activity(&since)?;
    let doctor = store.doctor_stats()?;

    let mut per_day: BTreeMap<jiff::civil::Date, BTreeMap<String, i64>> = BTreeMap::new();
    for a in &activity {
        let Some(ts) = crate::present::clock::parse(&format!("{}:00:00Z", a.hour)) else {
            continue;
        };
        let day = ts.to_zoned(r.clock.tz().clone()).date();
        *per_day
            .entry(day)
            .or_default()
            .entry(a.provider.clone())
            .or_insert(0) += a.sessions;
    }
    let busiest = per_day
        .values()
        .map(|m| m.values().sum::<i64>())
        .max()
        .unwrap_or(0)
        .max(1);

    let main = html! {
        h1 { "Overview" }
        section.tiles {
            @for v in verdict::SEVERITY {
                @let n = counts.get(v.as_str()).copied().unwrap_or(0);
                a class={"tile v-" (verdict::slug(v))} href={"/findings?verdict=" (v.as_str())} title=(verdict::meaning(v)) {
                    span.count { (n) }
                    span.name { (verdict::symbol(v)) " " (v.as_str()) }
                }
            }
        }
        section.attention {
            h2 { "Needs attention" }
            @if urgent.is_empty() {
                p.quiet { "Nothing contradicted or waiting for review." }
            } @else {
                ul.findings-list {
                    @for f in &urgent {
                        li { (super::findings::card(f, &store, &r.clock)?) }
                    }
                }
                @if urgent_total > urgent.len() as i64 {
                    p { a href="/findings?verdict=CONTRADICTED,REVIEW" { "All " (urgent_total) " contradicted or review findings →" } }
                }
            }
        }
        div.columns {
            section { h2 { "Agents" } (agents_table(&stats, &r.clock)) }
            section { h2 { "Projects" } (projects_table(&stats, &r.clock)) }
        }
        section.activity {
            h2 { "Activity" span.quiet { " · sessions by day of last activity, last " (DAYS) " days" } }
            div.bars role="img" aria-label="sessions per day" {
                @for offset in 0..DAYS {
                    @let day = first_day.checked_add(offset.days()).unwrap_or(first_day);
                    @let by_agent = per_day.get(&day);
                    @let total: i64 = by_agent.map(|m| m.values().sum()).unwrap_or(0);
                    div.day title={(day) ": " (total) " sessions"} {
                        div.stack style={"height:" (total * 100 / busiest) "%"} {
                            @if let Some(m) = by_agent {
                                @for (p, n) in m {
                                    div class={"seg p-" (p)} style={"flex-grow:" (n)} {}
                                }
                            }
                        }
                        span.label { @if day.day() == 1 || offset == 0 || offset == DAYS - 1 { (day.strftime("%b %-d")) } }
                    }
                }
            }
        }
        section.health {
            h2 { "Health" }
            (health(&doctor))
        }
    };
    Ok(html_response(layout(
        r.frame("Overview", Section::Overview, Live::Refresh),
        main,
    )))
}

/// Sessions, last activity and verdicts of one agent.
type AgentTotals<'a> = (i64, Option<&'a str>, BTreeMap<String, i64>);

fn agents_table(stats: &[ProjectStat], clock: &crate::present::Clock) -> Markup {
    let mut by: BTreeMap<&str, AgentTotals<'_>> = BTreeMap::new();
    for s in stats {
        let e = by.entry(s.provider.as_str()).or_default();
        e.0 += s.sessions;
        if s.last_activity.as_deref() > e.1 {
            e.1 = s.last_activity.as_deref();
        }
        for (v, n) in &s.verdicts {
            *e.2.entry(v.clone()).or_insert(0) += n;
        }
    }
    html! {
        table.grid {
            thead { tr { th { "Agent" } th.num { "Sessions" } th { "Last activity" } th { "Verdicts" } } }
            tbody {
                @for (p, (n, last, v)) in &by {
                    tr {
                        td { a href={"/sessions?provider=" (p)} { (agent(p)) } }
                        td.num { (n) }
                        td { (time(clock, *last)) }
                        td { a href={"/findings?provider=" (p)} { (marks(v)) } }
                    }
                }
            }
        }
    }
}

fn projects_table(stats: &[ProjectStat], clock: &crate::present::Clock) -> Markup {
    let mut rows: Vec<&ProjectStat> = stats.iter().filter(|s| s.cwd.is_some()).collect();
    rows.sort_by(|a, b| b.last_activity.cmp(&a.last_activity));
    let hidden = rows.len().saturating_sub(12);
    html! {
        table.grid {
            thead { tr { th { "Project" } th { "Agent" } th.num { "Sessions" } th { "Last activity" } th { "Verdicts" } } }
            tbody {
                @for s in rows.iter().take(12) {
                    @let cwd = s.cwd.as_deref().unwrap_or("");
                    tr {
                        td { a href={"/sessions?project=" (crate::server::html::enc(cwd))} title=(cwd) { (title::project_label(Some(cwd), 40)) } }
                        td { (labels::agent(&s.provider)) }
                        td.num { (s.sessions) }
                        td { (time(clock, s.last_activity.as_deref())) }
                        td { (marks(&s.verdicts)) }
                    }
                }
            }
        }
        @if hidden > 0 { p.quiet { "and " (hidden) " more projects" } }
    }
}

fn health(d: &fornax_store::DoctorStats) -> Markup {
    let failing: i64 = d
        .sources_by_status
        .iter()
        .filter(|(s, _)| s.as_str() != "active")
        .map(|(_, n)| n)
        .sum();
    let scan_errors: Vec<String> = d
        .last_scan
        .as_ref()
        .and_then(|s| s.get("errors"))
        .and_then(|e| e.as_array())
        .map(|a| {
            a.iter()
                .map(|e| {
                    e.get("path")
                        .and_then(|p| p.as_str())
                        .unwrap_or("?")
                        .to_string()
                })
                .collect()
        })
        .unwrap_or_default();
    let warnings: Vec<Markup> = [
        (!scan_errors.is_empty()).then(|| html! {
            "The last scan could not index " (scan_errors.len()) " files: "
            @for (i, p) in scan_errors.iter().take(3).enumerate() { @if i > 0 { ", " } code { (p) } }
            @if scan_errors.len() > 3 { ", …" }
        }),
        (failing > 0).then(|| html! { (failing) " sources are not readable now (" (status_list(&d.sources_by_status)) ")." }),
        (d.malformed > 0).then(|| html! { (d.malformed) " malformed records were skipped (the records around them are kept)." }),
        (d.oversized > 0).then(|| html! { (d.oversized) " records were larger than the limit and skipped." }),
        (!d.drift.is_empty()).then(|| html! {
            (d.drift.iter().map(|x| x.count).sum::<i64>()) " records of shapes the adapters do not recognize yet: "
            @for (i, x) in d.drift.iter().take(4).enumerate() {
                @if i > 0 { ", " }
                code { (x.provider) " " (x.discriminator) } " ×" (x.count)
            }
            @if d.drift.len() > 4 { ", …" }
            " (`fornax doctor` lists them)."
        }),
    ]
    .into_iter()
    .flatten()
    .collect();
    html! {
        p {
            (d.sessions) " sessions · " (d.items) " items · " (d.records) " records · "
            (crate::server::html::size(d.size_bytes)) " index (schema v" (d.schema_version) ")"
        }
        @if warnings.is_empty() {
            p.ok { "✔ No problems: every source reads cleanly and every shape is recognized." }
        } @else {
            ul.warnings { @for w in warnings { li { (w) } } }
        }
    }
}

fn status_list(by: &BTreeMap<String, i64>) -> String {
    by.iter()
        .filter(|(s, _)| s.as_str() != "active")
        .map(|(s, n)| format!("{s} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}
