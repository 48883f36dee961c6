//! `fornax usage`: tokens and cost per day, month, session or 5-hour block, from the index.

use clap::{Args, ValueEnum};
use fornax_store::{UsageGrain, UsageQuery};
use fornax_usage::{Grain, PriceTable, Report, ReportRow, Totals};

use crate::error::CliError;
use crate::home::Context;
use crate::output;

/// The price override file's name inside `FORNAX_HOME`.
pub const PRICES_FILE: &str = "prices.json";

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Which {
    /// One row per UTC day.
    Daily,
    /// One row per UTC month.
    Monthly,
    /// One row per session, its subagents included.
    Session,
    /// One row per 5-hour billing block.
    Blocks,
}

#[derive(Debug, Args)]
pub struct UsageArgs {
    /// Which report (default: daily).
    #[arg(value_enum)]
    pub report: Option<Which>,
    /// From this UTC day on (YYYY-MM-DD or YYYYMMDD).
    #[arg(long)]
    pub since: Option<String>,
    /// Up to this UTC day, inclusive.
    #[arg(long)]
    pub until: Option<String>,
    /// Only this provider (claude-code, codex, pi, opencode, gemini).
    #[arg(long)]
    pub provider: Option<String>,
    /// Only sessions whose working directory contains this text.
    #[arg(long)]
    pub project: Option<String>,
    /// Only models whose name contains this text.
    #[arg(long)]
    pub model: Option<String>,
    /// One line per model under each row.
    #[arg(long)]
    pub breakdown: bool,
}

/// The price table: built in, with `FORNAX_HOME/prices.json` in front of it when present.
pub fn price_table(ctx: &Context) -> Result<PriceTable, CliError> {
    let path = ctx.home.join(PRICES_FILE);
    let table = PriceTable::builtin();
    match std::fs::read_to_string(&path) {
        Ok(text) => Ok(table.with_override(&text, &path.display().to_string())?),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(table),
        Err(e) => Err(anyhow::Error::new(e)
            .context(format!("reading {}", path.display()))
            .into()),
    }
}

pub fn run(ctx: &Context, args: UsageArgs) -> Result<(), CliError> {
    let date = |d: &Option<String>, flag: &str| {
        d.as_deref()
            .map(fornax_usage::parse_date)
            .transpose()
            .map_err(|e| {
                CliError::usage(format!("--{flag}: {e}"))
                    .with_hint("a UTC day: 2026-03-14 or 20260314")
            })
    };
    let since = date(&args.since, "since")?;
    let until = date(&args.until, "until")?;
    if let (Some(s), Some(u)) = (&since, &until) {
        // Both are ISO days, so text order is date order; `until` is inclusive.
        if s > u {
            return Err(CliError::usage(format!("--since {s} is after --until {u}"))
                .with_hint("give an earlier --since or a later --until"));
        }
    }
    // A provider nobody reads or an empty text would give an empty report that looks true.
    let provider = args
        .provider
        .as_deref()
        .map(|p| {
            fornax_ui::present::filter::parse_provider(p, &super::filters::providers())
                .map_err(super::filters::usage)
        })
        .transpose()?;
    for (flag, text, what) in [
        ("project", &args.project, "the session's working directory"),
        ("model", &args.model, "the model's name"),
    ] {
        if text.as_deref().is_some_and(|t| t.trim().is_empty()) {
            return Err(CliError::usage(format!("--{flag} is empty"))
                .with_hint(format!("text contained in {what}")));
        }
    }
    let query = UsageQuery {
        since,
        until,
        provider,
        project: args.project.clone(),
        model: args.model.clone(),
        session: None,
    };
    let (grain, store_grain) = match args.report.unwrap_or(Which::Daily) {
        Which::Daily => (Grain::Daily, UsageGrain::Day),
        Which::Monthly => (Grain::Monthly, UsageGrain::Month),
        Which::Session => (Grain::Session, UsageGrain::Session),
        Which::Blocks => (Grain::Blocks, UsageGrain::Hour),
    };
    let table = price_table(ctx)?;
    let store = ctx.open_store_read_only()?;
    let groups = store.usage_groups(store_grain, &query)?;
    let now = jiff::Timestamp::now().to_string();
    let report = fornax_usage::build(grain, &groups, &table, Some(&now));
    if ctx.json {
        output::json_struct(&report);
        return Ok(());
    }
    print_report(&report, args.breakdown);
    Ok(())
}

fn print_report(report: &Report, breakdown: bool) {
    let first = match report.grain {
        Grain::Daily => "DAY",
        Grain::Monthly => "MONTH",
        Grain::Session => "SESSION",
        Grain::Blocks => "BLOCK (UTC)",
    };
    let mut rows: Vec<Vec<String>> = Vec::new();
    for r in &report.rows {
        rows.push(row_cells(
            &row_label(report.grain, r),
            &r.models.join(", "),
            &r.totals,
        ));
        if breakdown {
            for m in &r.breakdown {
                rows.push(row_cells(
                    &format!("  └ {}", m.provider),
                    &m.model,
                    &m.totals,
                ));
            }
        }
        if report.grain == Grain::Session {
            for s in &r.subagents {
                rows.push(row_cells(
                    &format!("  ↳ {}", output::clip(&s.key, 30)),
                    &s.models.join(", "),
                    &s.totals,
                ));
            }
        }
    }
    rows.push(row_cells("TOTAL", "", &report.totals));
    output::table(
        &[
            first,
            "MODELS",
            "INPUT",
            "OUTPUT",
            "CACHE WRITE",
            "CACHE READ",
            "REASONING",
            "TOTAL",
            "COST (USD)",
        ],
        &rows,
    );
    let mut table_line = format!("prices: built-in table of {}", report.prices.version);
    if let Some(v) = &report.prices.override_version {
        table_line.push_str(&format!(", overridden by {PRICES_FILE} ({v})"));
    }
    output::line(&output::dim(&table_line));
    if !report.unpriced_models.is_empty() {
        output::warn(&format!(
            "not priced (unknown to the price table; their tokens are counted, their cost is not): {}",
            report.unpriced_models.join(", ")
        ));
    }
    if let Some(reported) = report.totals.reported_cost_usd {
        let ours = report.totals.cost_where_reported_usd;
        output::line(&format!(
            "cost the agents reported themselves: ${reported:.2}; ours for the same calls: {}",
            ours.map_or_else(
                || "unpriced".to_string(),
                |o| format!("${o:.2} (difference ${:+.2})", o - reported)
            )
        ));
    }
}

fn row_label(grain: Grain, r: &ReportRow) -> String {
    match grain {
        Grain::Session => {
            let project = r
                .project
                .as_deref()
                .map(|p| format!(" {}", output::clip(p, 30)));
            format!(
                "{}{}",
                output::clip(&r.key, 36),
                output::dim(&project.unwrap_or_default())
            )
        }
        Grain::Blocks => {
            let b = r.block.as_ref();
            let active = b.is_some_and(|b| b.active);
            let key: String = r.key.chars().take(16).collect::<String>().replace('T', " ");
            if active {
                format!("{key} (active)")
            } else {
                key
            }
        }
        _ if r.key.is_empty() => output::dim("(no time)"),
        _ => r.key.clone(),
    }
}

fn row_cells(label: &str, models: &str, t: &Totals) -> Vec<String> {
    vec![
        label.to_string(),
        output::clip(models, 40),
        count(t.input_tokens),
        count(t.output_tokens),
        count(t.cache_creation_tokens),
        count(t.cache_read_tokens),
        t.reasoning_tokens.map_or_else(|| output::dim("-"), count),
        count(t.total_tokens),
        cost_cell(t),
    ]
}

/// The cost, marked when some tokens could not be priced.
pub fn cost_cell(t: &Totals) -> String {
    if t.fully_priced() {
        format!("${:.2}", t.cost_usd)
    } else if t.cost_usd > 0.0 {
        format!("${:.2} + unpriced", t.cost_usd)
    } else {
        "unpriced".to_string()
    }
}

/// A count with thousands separators.
pub fn count(n: u64) -> String {
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

/// A session's usage (its subagents' included), priced, and the price table's version:
/// `None` when the index holds no usage for it (the agent reported none).
pub fn session_usage(
    ctx: &Context,
    store: &fornax_store::Store,
    provider: &str,
    native_id: &str,
) -> Result<Option<(Totals, String)>, CliError> {
    let query = UsageQuery {
        provider: Some(provider.to_string()),
        session: Some(native_id.to_string()),
        ..UsageQuery::default()
    };
    let groups = store.usage_groups(UsageGrain::Session, &query)?;
    if groups.is_empty() {
        return Ok(None);
    }
    let table = price_table(ctx)?;
    let report = fornax_usage::build(Grain::Session, &groups, &table, None);
    Ok(Some((report.totals, report.prices.version)))
}

/// One line of a session's tokens and cost, for `show` and the status line.
pub fn session_usage_line(t: &Totals) -> String {
    let mut kinds = vec![
        format!("input {}", count(t.input_tokens)),
        format!("output {}", count(t.output_tokens)),
    ];
    if t.cache_creation_tokens > 0 {
        kinds.push(format!("cache write {}", count(t.cache_creation_tokens)));
    }
    if t.cache_read_tokens > 0 {
        kinds.push(format!("cache read {}", count(t.cache_read_tokens)));
    }
    format!(
        "{} tokens ({}) · {}",
        count(t.total_tokens),
        kinds.join(" · "),
        cost_cell(t)
    )
}
