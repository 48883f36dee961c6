//! `fornax watch`: a live view of what the agents do and how their claims are judged.
//!
//! On a terminal it draws a full-screen view (active sessions across agents, the selected
//! session's latest items, claims with their verdicts as they are judged, the daemon's and
//! the spool's state); otherwise, or with `--plain`, it streams one line per new item and
//! per new verdict.
//!
//! # Invariants
//!
//! * It only reads: the index through a read-only store handle, re-read only when the
//!   store's change marker moves; the daemon through its status request; the spool by its
//!   segments. Whatever it shows, the daemon or `fornax scan` stored first.
//! * A stuck daemon never freezes it (its status request has a short deadline), and a store
//!   that is not there yet is waited for, not an error.

mod feed;
mod plain;
mod tui;

use std::io::IsTerminal;
use std::time::Duration;

use clap::Args;
use fornax_store::ListFilter;
use fornax_types::Provider;
use fornax_ui::present::filter::parse_provider;
use fornax_ui::present::Clock;

use super::filters::TimeArgs;
use crate::error::CliError;
use crate::home::Context;

#[derive(Debug, Args)]
pub struct WatchArgs {
    /// Only this agent: claude-code (or claude), codex, pi, opencode, gemini, copilot, cursor.
    #[arg(long, value_name = "AGENT")]
    pub provider: Option<String>,
    /// Only sessions whose working directory contains this text.
    #[arg(long, value_name = "TEXT")]
    pub project: Option<String>,
    /// Stream plain lines even on a terminal (the default when stdout is not one).
    #[arg(long)]
    pub plain: bool,
    /// How often to look for changes, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 500)]
    pub interval: u64,
    /// How many sessions to follow (the most recently active).
    #[arg(long, value_name = "N", default_value_t = 12)]
    pub sessions: usize,
    #[command(flatten)]
    pub time: TimeArgs,
}

impl WatchArgs {
    fn interval(&self) -> Duration {
        Duration::from_millis(self.interval.clamp(50, 60_000))
    }
}

pub fn run(ctx: &Context, args: WatchArgs) -> Result<(), CliError> {
    let known: Vec<Provider> = Provider::KNOWN
        .into_iter()
        .filter(|p| *p != Provider::Fornax)
        .collect();
    let provider = args
        .provider
        .as_deref()
        .map(|p| parse_provider(p, &known))
        .transpose()
        .map_err(|e| CliError::usage(format!("--provider: {e}")))?;
    let filter = ListFilter {
        provider,
        project: args.project.clone(),
        ..ListFilter::default()
    };
    if args.sessions == 0 {
        return Err(CliError::usage("--sessions: must be at least 1"));
    }
    if args.plain || !std::io::stdout().is_terminal() || ctx.json {
        plain::run(ctx, &args, &filter)
    } else {
        tui::run(ctx, &args, filter)
    }
}

/// `HH:MM:SS` of a stored time in the clock's zone (UTC with `--utc`); `--:--:--` without one.
fn hms(clock: &Clock, at: Option<&str>) -> String {
    let Some(ts) = at.and_then(fornax_ui::present::clock::parse) else {
        return "--:--:--".to_string();
    };
    let tz = if clock.is_utc() {
        jiff::tz::TimeZone::UTC
    } else {
        clock.tz().clone()
    };
    ts.to_zoned(tz).strftime("%H:%M:%S").to_string()
}
