//! `fornax search TEXT`: matches in human and agent text, each with where it was said.

use clap::Args;
use fornax_ui::present::{labels, text, title};

use super::filters::{FilterArgs, TimeArgs};
use super::findings::SessionCache;
use crate::error::CliError;
use crate::home::Context;
use crate::output;

/// Matches a terminal shows without `--limit`.
const PAGE: usize = 20;

/// The most matches one search returns.
const MOST: usize = 1000;

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The text to find (any substring, case-insensitive).
    pub text: String,
    #[command(flatten)]
    pub filters: FilterArgs,
    /// Also search tool outputs (slower: they are not in the full-text index).
    #[arg(long)]
    pub include_output: bool,
    #[command(flatten)]
    pub time: TimeArgs,
}

pub fn run(ctx: &Context, args: SearchArgs) -> Result<(), CliError> {
    if args.text.trim().is_empty() {
        return Err(CliError::usage("search text is empty"));
    }
    let clock = fornax_ui::env::clock(args.time.utc);
    let selection = args.filters.parse(&clock)?;
    let store = ctx.open_store_read_only()?;
    let wanted = match selection.rows(ctx.json, PAGE).rows() {
        0 => MOST,
        n => n.min(MOST),
    };
    // One more than shown tells whether there are more.
    let mut hits = store.search_in(
        &args.text,
        &selection.filters.list_filter(),
        (wanted + 1).min(MOST),
        args.include_output,
    )?;
    let more = hits.len() > wanted;
    hits.truncate(wanted);
    if ctx.json {
        output::json(&serde_json::json!({ "hits": hits, "truncated": more }));
        return Ok(());
    }
    if hits.is_empty() {
        output::line("no matches");
        return Ok(());
    }
    output::line(&format!(
        "{} for “{}”",
        output::bold(&match hits.len() {
            1 => "1 match".to_string(),
            n => format!("{n} matches"),
        }),
        args.text
    ));
    let width = output::width();
    let mut sessions = SessionCache::default();
    for h in &hits {
        output::line("");
        let row = sessions.get(&store, h.session_id)?;
        let mut place = vec![
            labels::agent(&h.provider).to_string(),
            labels::role(&h.role).to_string(),
        ];
        if let Some(l) = h.loop_position {
            place.push(format!("loop {}", l + 1));
        }
        if let Some(t) =
            h.at.as_deref()
                .or(row.and_then(|r| r.last_activity.as_deref()))
        {
            place.push(clock.when(t));
        }
        let place = place.join(" · ");
        let id = title::short_id(&h.session);
        let room = width.saturating_sub(text::width(&place) + id.len() + 6);
        let session = row
            .and_then(|r| title::session_title(r.name.as_deref(), r.first_prompt.as_deref(), room))
            .filter(|_| room >= 12)
            .map_or(id.clone(), |t| format!("{t} ({id})"));
        output::line(&format!("{place} · {}", output::dim(&session)));
        for line in text::wrap(&h.snippet, width, "  ", "  ") {
            output::line(&output::highlight(&line, &args.text));
        }
    }
    if more {
        output::line("");
        output::line(&output::dim(&format!(
            "more match — use --limit {} (or --limit all), or narrow with --since, --provider, --project",
            wanted * 5
        )));
    }
    Ok(())
}
