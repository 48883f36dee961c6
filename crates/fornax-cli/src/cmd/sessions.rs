//! `fornax sessions`

use clap::Args;
use fornax_store::SessionFilter;

use crate::error::CliError;
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct SessionsArgs {
    /// Only this provider (claude-code, codex, copilot, cursor, pi, opencode, gemini).
    #[arg(long)]
    pub provider: Option<String>,
    /// Only sessions whose working directory contains this text.
    #[arg(long)]
    pub project: Option<String>,
    /// Only sessions active at or after this ISO date/time.
    #[arg(long)]
    pub since: Option<String>,
    /// Only sessions with at least one finding of this verdict.
    #[arg(long = "has-verdict", value_name = "VERDICT")]
    pub verdict: Option<String>,
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
}

pub fn verdict_cell(verdicts: &std::collections::BTreeMap<String, i64>) -> String {
    if verdicts.is_empty() {
        return output::dim("-");
    }
    verdicts
        .iter()
        .map(|(v, n)| format!("{}×{n}", output::verdict(v)))
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn run(ctx: &Context, args: SessionsArgs) -> Result<(), CliError> {
    if let Some(v) = &args.verdict {
        if fornax_types::Verdict::parse(v).is_none() {
            return Err(CliError::usage(format!("unknown verdict {v:?}"))
                .with_hint("one of VERIFIED, UNVERIFIED, CONTRADICTED, REVIEW, UNAVAILABLE"));
        }
    }
    let store = ctx.open_store_read_only()?;
    let rows = store.list_sessions(&SessionFilter {
        provider: args.provider,
        project: args.project,
        since: args.since,
        verdict: args.verdict,
        limit: args.limit,
    })?;
    if ctx.json {
        output::json(&serde_json::json!({ "sessions": rows }));
        return Ok(());
    }
    let table: Vec<Vec<String>> = rows
        .iter()
        .map(|r| {
            vec![
                r.provider.clone(),
                output::clip(&r.native_id, 40),
                r.last_activity
                    .clone()
                    .or(r.created_at.clone())
                    .map(|t| t.chars().take(19).collect())
                    .unwrap_or_default(),
                output::clip(r.cwd.as_deref().unwrap_or("-"), 40),
                r.loops.to_string(),
                r.items.to_string(),
                verdict_cell(&r.verdicts),
            ]
        })
        .collect();
    output::table(
        &[
            "PROVIDER",
            "SESSION",
            "LAST ACTIVITY",
            "CWD",
            "LOOPS",
            "ITEMS",
            "VERDICTS",
        ],
        &table,
    );
    Ok(())
}
