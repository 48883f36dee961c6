//! The filters `findings`, `sessions` and `search` share: each value is validated by the one
//! parser in `fornax_ui::present::filter`, and a bad one is a usage error (exit 2) that names
//! the accepted forms.

use clap::Args;
use fornax_types::Provider;
use fornax_ui::present::filter::{parse_limit, FilterError, FilterInput, Limit};
use fornax_ui::present::{Clock, Filters};

use crate::error::CliError;

#[derive(Debug, Clone, Default, Args)]
pub struct FilterArgs {
    /// Only from this time on: 30m, 12h, 2d, 1w, today, yesterday, 2026-03-14, 2026-03-14T09:30.
    #[arg(long, value_name = "WHEN")]
    pub since: Option<String>,
    /// Only before this time (a day given as a date or `yesterday` is included).
    #[arg(long, value_name = "WHEN")]
    pub until: Option<String>,
    /// Only this agent: claude-code (or claude), codex, pi, opencode, gemini.
    #[arg(long, value_name = "AGENT")]
    pub provider: Option<String>,
    /// Only sessions whose working directory contains this text.
    #[arg(long, value_name = "TEXT")]
    pub project: Option<String>,
    /// Only these verdicts (comma-separated): CONTRADICTED, REVIEW, UNVERIFIED, UNAVAILABLE,
    /// VERIFIED. For sessions and search: sessions with a finding of one of them.
    #[arg(long, value_name = "VERDICTS", visible_alias = "has-verdict")]
    pub verdict: Option<String>,
    /// How many to list: a number or `all` (the terminal shows a page; --json shows all).
    #[arg(long, value_name = "N|all")]
    pub limit: Option<String>,
}

/// How times are shown.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct TimeArgs {
    /// Show times as absolute UTC instead of relative local times.
    #[arg(long)]
    pub utc: bool,
}

/// Validated filters and the number of rows to show.
#[derive(Debug, Clone)]
pub struct Selection {
    pub filters: Filters,
    /// What `--limit` said, if given.
    pub limit: Option<Limit>,
}

impl Selection {
    /// Rows to read: the given limit, else everything for JSON and `page` for a terminal.
    pub fn rows(&self, json: bool, page: usize) -> Limit {
        match self.limit {
            Some(l) => l,
            None if json => Limit::All,
            None => Limit::First(page),
        }
    }
}

/// The providers this binary reads, for validating `--provider`.
pub fn providers() -> Vec<Provider> {
    let mut out: Vec<Provider> = Vec::new();
    for d in crate::registry::registry().descriptors() {
        if !out.contains(&d.provider) {
            out.push(d.provider.clone());
        }
    }
    out
}

pub fn usage(e: FilterError) -> CliError {
    CliError::usage(e.to_string()).with_hint(e.accepted())
}

impl FilterArgs {
    pub fn parse(&self, clock: &Clock) -> Result<Selection, CliError> {
        let input = FilterInput {
            since: self.since.clone(),
            until: self.until.clone(),
            provider: self.provider.clone(),
            project: self.project.clone(),
            verdict: self.verdict.clone(),
        };
        let filters = input.parse(clock, &providers()).map_err(usage)?;
        let limit = self
            .limit
            .as_deref()
            .map(parse_limit)
            .transpose()
            .map_err(usage)?;
        Ok(Selection { filters, limit })
    }
}
