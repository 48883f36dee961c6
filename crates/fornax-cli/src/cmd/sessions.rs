//! `fornax sessions`: the most recent first, each with its title, agent, project and verdicts,
//! laid out to the terminal's width.

use clap::Args;
use fornax_store::SessionRow;
use fornax_ui::present::{text, title, Clock};

use super::filters::{FilterArgs, TimeArgs};
use super::findings::plural;
use crate::error::CliError;
use crate::home::Context;
use crate::output;

/// Sessions a terminal shows without `--limit`.
const PAGE: usize = 20;

#[derive(Debug, Args)]
pub struct SessionsArgs {
    #[command(flatten)]
    pub filters: FilterArgs,
    #[command(flatten)]
    pub time: TimeArgs,
}

pub fn verdict_cell(verdicts: &std::collections::BTreeMap<String, i64>) -> String {
    output::verdict_marks(verdicts)
}

pub fn run(ctx: &Context, args: SessionsArgs) -> Result<(), CliError> {
    let clock = fornax_ui::env::clock(args.time.utc);
    let selection = args.filters.parse(&clock)?;
    let store = ctx.open_store_read_only()?;
    let filter = selection.filters.list_filter();
    let total = store.count_sessions_in(&filter)?;
    let rows = store.list_sessions_in(&filter, selection.rows(ctx.json, PAGE).rows(), 0)?;
    if ctx.json {
        output::json(&serde_json::json!({ "total": total, "sessions": rows }));
        return Ok(());
    }
    if rows.is_empty() {
        output::line(if selection.filters.is_empty() {
            "no sessions indexed yet (run `fornax scan`)"
        } else {
            "no sessions match these filters"
        });
        return Ok(());
    }
    output::line(&format!(
        "{} · most recent first",
        output::bold(&plural(total as i64, "session"))
    ));
    print_table(&rows, &clock, output::width());
    let more = total.saturating_sub(rows.len());
    if more > 0 {
        output::line(&output::dim(&format!(
            "{more} more — use --limit {total} (or --limit all), or narrow with --since, --provider, --project"
        )));
    }
    Ok(())
}

/// The table, its flexible columns (title, project) sized to what `width` leaves.
pub fn print_table(rows: &[SessionRow], clock: &Clock, width: usize) {
    let when: Vec<String> = rows
        .iter()
        .map(|r| {
            r.last_activity
                .as_deref()
                .or(r.created_at.as_deref())
                .map_or_else(|| "-".to_string(), |t| clock.when(t))
        })
        .collect();
    let fixed = |cells: &[String], header: &str| {
        cells
            .iter()
            .map(|c| text::width(c))
            .chain([header.len()])
            .max()
            .unwrap_or(0)
    };
    let ids: Vec<String> = rows.iter().map(|r| title::short_id(&r.native_id)).collect();
    let agents: Vec<String> = rows.iter().map(|r| r.provider.clone()).collect();
    let items: Vec<String> = rows.iter().map(|r| r.items.to_string()).collect();
    let verdicts: Vec<String> = rows.iter().map(|r| verdict_cell(&r.verdicts)).collect();
    let plain_verdicts: Vec<String> = rows
        .iter()
        .map(|r| {
            fornax_ui::present::verdict::ordered_counts(&r.verdicts)
                .iter()
                .map(|(v, n)| format!("{}{n}", fornax_ui::present::verdict::symbol(*v)))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect();
    let used = fixed(&when, "WHEN")
        + fixed(&agents, "AGENT")
        + fixed(&ids, "SESSION")
        + fixed(&items, "ITEMS")
        + fixed(&plain_verdicts, "VERDICTS")
        + 2 * 6;
    let room = width.saturating_sub(used);
    let longest_project = rows
        .iter()
        .map(|r| text::width(&title::project_label(r.cwd.as_deref(), usize::MAX)))
        .max()
        .unwrap_or(1);
    // The title takes the larger share; the project shows only when there is room for it.
    let project_width = if room >= 36 {
        (room * 2 / 5).min(longest_project).max(7)
    } else {
        0
    };
    let title_width = room.saturating_sub(if project_width > 0 {
        project_width + 2
    } else {
        0
    });
    let title_width = title_width.max(12);
    let table: Vec<Vec<String>> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let t = title::session_title(r.name.as_deref(), r.first_prompt.as_deref(), title_width)
                .unwrap_or_else(|| output::dim("(no prompt)"));
            let mut row = vec![when[i].clone(), agents[i].clone(), output::dim(&ids[i]), t];
            if project_width > 0 {
                row.push(title::project_label(r.cwd.as_deref(), project_width));
            }
            row.push(items[i].clone());
            row.push(verdicts[i].clone());
            row
        })
        .collect();
    let mut headers = vec!["WHEN", "AGENT", "SESSION", "TITLE"];
    if project_width > 0 {
        headers.push("PROJECT");
    }
    headers.extend(["ITEMS", "VERDICTS"]);
    output::table(&headers, &table);
}
