//! `fornax findings [SESSION]`: the most urgent verdicts first, each with its reason in full.

use std::collections::HashMap;

use clap::Args;
use fornax_store::{FindingOrder, FindingRow, SessionRow, Store};
use fornax_ui::present::{labels, rationale, text, title, Clock};

use super::filters::{FilterArgs, TimeArgs};
use crate::error::CliError;
use crate::home::Context;
use crate::output;

/// Findings a terminal shows without `--limit`.
const PAGE: usize = 20;

#[derive(Debug, Args)]
pub struct FindingsArgs {
    /// Only this session and its subagents: the agent's session id, a unique prefix,
    /// `latest`, or `#<row id>`.
    #[arg(value_name = "SESSION")]
    pub target: Option<String>,
    /// The same as the SESSION argument.
    #[arg(long, value_name = "SESSION", conflicts_with = "target")]
    pub session: Option<String>,
    #[command(flatten)]
    pub filters: FilterArgs,
    #[command(flatten)]
    pub time: TimeArgs,
    /// Also show evidence ids, the rule that decided and each piece of evidence.
    #[arg(long, short)]
    pub verbose: bool,
}

pub fn run(ctx: &Context, args: FindingsArgs) -> Result<(), CliError> {
    let clock = fornax_ui::env::clock(args.time.utc);
    let selection = args.filters.parse(&clock)?;
    let store = ctx.open_store_read_only()?;
    let session = match args.target.as_ref().or(args.session.as_ref()) {
        Some(s) => Some(store.resolve_session(s)?),
        None => None,
    };
    let filter = selection.filters.list_filter();
    let counts = store.finding_counts_in(&filter, session)?;
    let total: i64 = counts.values().sum();
    let rows = selection.rows(ctx.json, PAGE).rows();
    let findings = store.findings_in(&filter, session, FindingOrder::Severity, rows)?;
    if ctx.json {
        output::json(&serde_json::json!({
            "total": total,
            "counts": counts,
            "findings": findings,
        }));
        return Ok(());
    }
    if findings.is_empty() {
        output::line(if selection.filters.is_empty() {
            "no findings"
        } else {
            "no findings match these filters"
        });
        return Ok(());
    }
    output::line(&format!(
        "{} · {}",
        output::bold(&plural(total, "finding")),
        output::verdict_summary(&counts)
    ));
    let mut sessions = SessionCache::default();
    for f in &findings {
        output::line("");
        let row = sessions.get(&store, f.session_id)?;
        print_finding(f, row, &clock, args.verbose);
    }
    let more = total - findings.len() as i64;
    if more > 0 {
        output::line("");
        output::line(&output::dim(&format!(
            "{more} more — use --limit {total} (or --limit all), or narrow with --verdict, --since, --provider"
        )));
    }
    Ok(())
}

/// `1 finding`, `3 findings`.
pub fn plural(n: i64, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// Session rows by id, read once each.
#[derive(Default)]
pub struct SessionCache(HashMap<i64, SessionRow>);

impl SessionCache {
    pub fn get(&mut self, store: &Store, id: i64) -> Result<Option<&SessionRow>, CliError> {
        let row = match self.0.entry(id) {
            std::collections::hash_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::hash_map::Entry::Vacant(e) => e.insert(store.session_row(id)?),
        };
        Ok(Some(row))
    }
}

/// One finding: a header line (verdict, subject, agent, when, session), the claim and the
/// reason, each wrapped to the terminal's width.
pub fn print_finding(f: &FindingRow, session: Option<&SessionRow>, clock: &Clock, verbose: bool) {
    let width = output::width();
    let provider = f.session["provider"].as_str().unwrap_or("");
    let native = f.session["native_id"].as_str().unwrap_or("");
    let when =
        f.at.as_deref()
            .or(session.and_then(|s| s.last_activity.as_deref()))
            .map(|t| clock.when(t));
    let mut head = vec![
        labels::subject(f.claim["subject"].as_str().unwrap_or("")).to_string(),
        labels::agent(provider).to_string(),
    ];
    head.extend(when);
    let head = head.join(" · ");
    let badge_width = f.verdict.chars().count() + 2;
    let id = title::short_id(native);
    // What is left of the line names the session: its title, shortened to fit.
    let room = width.saturating_sub(badge_width + 2 + text::width(&head) + 3 + id.len() + 3);
    let session_title = session
        .and_then(|s| title::session_title(s.name.as_deref(), s.first_prompt.as_deref(), room))
        .filter(|_| room >= 12);
    let place = match session_title {
        Some(t) => format!("{t} ({id})"),
        None => id,
    };
    output::line(&format!(
        "{}  {head} · {}",
        output::badge(&f.verdict),
        output::dim(&place)
    ));
    let claim = f.claim["text"].as_str().unwrap_or("");
    output::wrapped(
        &format!("“{}”", text::one_line(claim)),
        "  ",
        "   ",
        output::plain,
    );
    let ids: Vec<&str> = f.evidence.iter().map(|e| e.id.as_str()).collect();
    let reason = if verbose {
        f.rationale()
    } else {
        rationale::readable(&f.rationale(), &ids)
    };
    output::wrapped(&reason, "  ", "  ", output::plain);
    // Later runs that speak to the claim, dated, beside the verdict they never change.
    for r in &f.rechecks {
        output::wrapped(&output::recheck_line(r), "  ", "    ", output::plain);
    }
    if verbose {
        output::wrapped(
            &format!(
                "rule {} · claim {} · session {provider}:{native}",
                f.rule, f.claim_key
            ),
            "  ",
            "  ",
            output::dim,
        );
        for e in &f.evidence {
            output::wrapped(
                &format!("{} — {}", e.id, e.description),
                "    ",
                "      ",
                output::dim,
            );
        }
    }
}
