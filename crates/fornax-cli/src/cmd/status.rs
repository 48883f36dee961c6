//! `fornax status [--session S] [--statusline]`
//!
//! The status line states the truth about live capture, never a hopeful word: capturing (a
//! daemon answers and stores), spooling (no daemon: hooks keep events in the spool, N waiting
//! since when), not storing (a daemon answers but cannot write the store), or not installed.

use std::collections::BTreeMap;
use std::io::Read;

use clap::Args;
use fornax_ingest::spool::Waiting;
use fornax_live::protocol::{DaemonStatus, StoreState};

use crate::error::CliError;
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct StatusArgs {
    /// Only this session (and its subagents).
    #[arg(long)]
    pub session: Option<String>,
    /// Read Claude Code's statusLine JSON on stdin and print one short line for that session.
    #[arg(long)]
    pub statusline: bool,
    /// With `--statusline`: add the session's cost so far (from the index, priced offline).
    #[arg(long, requires = "statusline")]
    pub cost: bool,
}

fn compact(counts: &BTreeMap<String, i64>) -> String {
    let get = |k: &str| counts.get(k).copied().unwrap_or(0);
    let mut parts = vec![format!("✔{}", get("VERIFIED"))];
    if get("CONTRADICTED") > 0 {
        parts.push(format!("✘{}", get("CONTRADICTED")));
    }
    if get("REVIEW") > 0 {
        parts.push(format!("?{}", get("REVIEW")));
    }
    if get("UNVERIFIED") > 0 {
        parts.push(format!("·{}", get("UNVERIFIED")));
    }
    parts.join(" ")
}

/// Whether live capture works right now.
#[derive(Debug)]
pub enum Live {
    /// A daemon answers and stores what it receives.
    Capturing,
    /// A daemon answers but cannot write the store (another writer, a broken file).
    NotStoring(DaemonStatus, Waiting),
    /// No daemon: hooks keep events in the spool until one runs or `fornax scan`.
    Spooling(Waiting),
    /// No daemon and no agent connected: nothing is captured live.
    NotInstalled,
}

/// The truth about live capture for this home. `installed`: whether an agent whose hooks or
/// plugin spool events is connected (asked only when no daemon answers).
pub fn live(ctx: &Context, installed: impl FnOnce() -> bool) -> Live {
    let waiting = || {
        let store = ctx.open_store_read_only().ok();
        fornax_ingest::spool::waiting(store.as_ref(), &ctx.spool_dir()).unwrap_or_default()
    };
    match super::daemon::status(&ctx.home) {
        Some(s) if s.ingesting() => Live::Capturing,
        Some(s) => Live::NotStoring(s, waiting()),
        None => {
            let w = waiting();
            if w.events == 0 && !installed() {
                Live::NotInstalled
            } else {
                Live::Spooling(w)
            }
        }
    }
}

/// `N events waiting since HH:MM` (UTC when the local zone is unknown).
pub fn describe_waiting(w: &Waiting) -> String {
    if w.events == 0 {
        return "nothing waiting".to_string();
    }
    let n = format!(
        "{}{} event{}",
        w.events,
        if w.exact { "" } else { "+" },
        if w.events == 1 { "" } else { "s" }
    );
    match w.oldest.as_deref().and_then(clock_time) {
        Some(t) => format!("{n} waiting since {t}"),
        None => format!("{n} waiting"),
    }
}

/// An RFC 3339 instant as the local wall-clock time of day (`10:41`), or the date too when
/// it is not today.
fn clock_time(at: &str) -> Option<String> {
    let ts: jiff::Timestamp = at.parse().ok()?;
    let zone = jiff::tz::TimeZone::system();
    let local = ts.to_zoned(zone.clone());
    let today = jiff::Timestamp::now().to_zoned(zone).date();
    Some(if local.date() == today {
        local.strftime("%H:%M").to_string()
    } else {
        local.strftime("%Y-%m-%d %H:%M").to_string()
    })
}

/// The status line's first words: the state of capture.
pub fn live_words(live: &Live) -> String {
    match live {
        Live::Capturing => "fornax capturing".to_string(),
        Live::NotStoring(s, w) => format!(
            "fornax NOT storing ({}) · {}",
            match s.store.state {
                StoreState::Waiting => "the store is busy",
                _ => "the store cannot be written",
            },
            describe_waiting(w)
        ),
        Live::Spooling(w) => format!(
            "fornax spooling: daemon down, {} (fornax daemon start)",
            describe_waiting(w)
        ),
        Live::NotInstalled => "fornax: not installed (fornax install claude)".to_string(),
    }
}

/// ` · $0.42` for a session with usage, nothing for one without (the line stays short).
fn session_cost(ctx: &Context, store: &fornax_store::Store, id: i64) -> String {
    let Ok(row) = store.session_row(id) else {
        return String::new();
    };
    match super::usage::session_usage(ctx, store, &row.provider, &row.native_id) {
        Ok(Some((totals, _))) => format!(" · {}", super::usage::cost_cell(&totals)),
        _ => String::new(),
    }
}

fn statusline(ctx: &Context, cost: bool) -> Result<(), CliError> {
    let mut input = String::new();
    std::io::stdin().take(1 << 20).read_to_string(&mut input)?;
    let payload: serde_json::Value = serde_json::from_str(&input).unwrap_or_default();
    let live = live(ctx, super::install::claude_installed);
    let mut line = live_words(&live);
    if let Some(session) = payload.get("session_id").and_then(|v| v.as_str()) {
        if let Ok(store) = ctx.open_store_read_only() {
            if let Ok(id) = store.resolve_session(session) {
                // The session and its subagents' sessions, counted in the index.
                let family = store.family_ids(id)?;
                let counts = store.verdict_counts(Some(&family))?;
                line.push_str(" · ");
                line.push_str(&compact(&counts));
                if cost {
                    line.push_str(&session_cost(ctx, &store, id));
                }
            }
        }
    }
    output::line(&line);
    Ok(())
}

pub fn run(ctx: &Context, args: StatusArgs) -> Result<(), CliError> {
    if args.statusline {
        return statusline(ctx, args.cost);
    }
    let store = ctx.open_store_read_only()?;
    let sessions = match &args.session {
        Some(s) => Some(store.family_ids(store.resolve_session(s)?)?),
        None => None,
    };
    let counts = store.verdict_counts(sessions.as_deref())?;
    if ctx.json {
        output::json(&serde_json::json!({ "verdicts": counts }));
        return Ok(());
    }
    if counts.is_empty() {
        output::line("no findings yet");
        return Ok(());
    }
    for v in fornax_types::Verdict::ALL {
        output::line(&format!(
            "{:>5}  {}",
            counts.get(v.as_str()).copied().unwrap_or(0),
            output::verdict(v.as_str())
        ));
    }
    Ok(())
}
