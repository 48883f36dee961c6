//! The streaming mode (stdout is not a terminal, or `--plain`): a short picture of now, then
//! one line per new item and per new verdict, as they reach the index. It ends when stdout
//! is closed (a pipe's reader went away) or on Ctrl-C.

use std::collections::{HashMap, HashSet};
use std::io::Write;

use fornax_store::ListFilter;
use fornax_ui::present::{labels, Clock};

use super::feed::{Event, Feed, Judged, SessionView};
use super::WatchArgs;
use crate::error::CliError;
use crate::home::Context;
use crate::output;

/// Items shown of a session that appears after the watch started (its start, not its past).
const NEW_SESSION_ITEMS: usize = 5;

/// Text width of a streamed item (a pipe has no width).
const ROOM: usize = 100;

pub fn run(ctx: &Context, args: &WatchArgs, filter: &ListFilter) -> Result<(), CliError> {
    let clock = fornax_ui::env::clock(args.time.utc);
    let mut out = anstream::stdout();
    let mut feed = Feed::new(ctx);
    let mut seen_items: HashMap<i64, i64> = HashMap::new();
    let mut seen_judged: HashSet<(i64, String, String)> = HashSet::new();
    let mut last_live = String::new();
    let mut first = true;
    let mut told_no_index = false;
    loop {
        let mut lines: Vec<String> = Vec::new();
        let live = feed.live().describe();
        if live != last_live {
            lines.push(output::dim(&format!("— {live}")));
            last_live = live;
        }
        if !feed.has_index() && !told_no_index {
            lines.push(output::dim(
                "— no index yet: waiting for `fornax scan` or the daemon to create it",
            ));
            told_no_index = true;
        }
        if let Some(snap) = feed.poll(filter, args.sessions, 20)? {
            // Oldest activity first, so the stream reads in time order.
            for s in snap.sessions.iter().rev() {
                let seen = seen_items.get(&s.id).copied();
                seen_items.insert(s.id, s.items);
                match seen {
                    None if first => lines.push(session_line(&clock, s)),
                    None => {
                        lines.push(format!("+ {}", session_line(&clock, s)));
                        let from = usize::try_from(s.items).unwrap_or(0);
                        let from = from.saturating_sub(NEW_SESSION_ITEMS);
                        for e in feed.events(s.id, from, NEW_SESSION_ITEMS, ROOM)? {
                            lines.push(event_line(&clock, s, &e));
                        }
                    }
                    Some(n) if s.items > n => {
                        let from = usize::try_from(n).unwrap_or(0);
                        let count = usize::try_from(s.items - n).unwrap_or(0);
                        for e in feed.events(s.id, from, count, ROOM)? {
                            lines.push(event_line(&clock, s, &e));
                        }
                    }
                    Some(_) => {}
                }
            }
            // At the start, the five latest verdicts; then each new one (oldest first).
            let mut new: Vec<&Judged> = Vec::new();
            for (i, j) in snap.judged.iter().enumerate() {
                if seen_judged.insert(j.key.clone()) && (!first || i < 5) {
                    new.push(j);
                }
            }
            for j in new.into_iter().rev() {
                lines.push(judged_line(&clock, j));
            }
            first = false;
        }
        for l in &lines {
            if writeln!(out, "{l}").is_err() {
                return Ok(());
            }
        }
        if out.flush().is_err() {
            return Ok(());
        }
        std::thread::sleep(args.interval());
    }
}

fn clock_time(clock: &Clock, at: Option<&str>) -> String {
    super::hms(clock, at)
}

fn session_line(clock: &Clock, s: &SessionView) -> String {
    format!(
        "{} {} {} {} · {} · {} · {}",
        clock_time(clock, s.last_activity.as_deref()),
        labels::agent(&s.provider),
        s.short_id(),
        s.project,
        s.title,
        crate::cmd::findings::plural(s.items, "item"),
        output::verdict_marks(&s.verdicts)
    )
}

fn event_line(clock: &Clock, s: &SessionView, e: &Event) -> String {
    format!(
        "{} {} {} {:<10} {}",
        clock_time(clock, e.at.as_deref()),
        labels::agent(&s.provider),
        s.short_id(),
        e.role,
        e.body
    )
}

fn judged_line(clock: &Clock, j: &Judged) -> String {
    format!(
        "{} {} {} {} “{}” — {}",
        clock_time(clock, j.at.as_deref()),
        labels::agent(&j.provider),
        j.session,
        output::verdict(&j.verdict),
        j.claim,
        j.reason
    )
}
