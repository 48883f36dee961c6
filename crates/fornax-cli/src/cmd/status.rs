//! `fornax status [--session S] [--statusline]`

use std::collections::BTreeMap;
use std::io::Read;

use clap::Args;

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

pub fn run(ctx: &Context, args: StatusArgs) -> Result<(), CliError> {
    if args.statusline {
        let mut input = String::new();
        std::io::stdin().take(1 << 20).read_to_string(&mut input)?;
        let payload: serde_json::Value = serde_json::from_str(&input).unwrap_or_default();
        let Some(session) = payload.get("session_id").and_then(|v| v.as_str()) else {
            output::line("fornax: no session");
            return Ok(());
        };
        let line = match ctx.open_store_read_only() {
            Ok(store) => match store.resolve_session(session) {
                Ok(id) => {
                    // The session and its subagents' sessions, counted in the index.
                    let family = store.family_ids(id)?;
                    let counts = store.verdict_counts(Some(&family))?;
                    let mut line = format!("fornax {}", compact(&counts));
                    if args.cost {
                        line.push_str(&session_cost(ctx, &store, id));
                    }
                    line
                }
                Err(_) => "fornax: watching".to_string(),
            },
            Err(_) => "fornax: no index".to_string(),
        };
        output::line(&line);
        return Ok(());
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
