//! `fornax search TEXT`

use clap::Args;

use crate::error::CliError;
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct SearchArgs {
    pub text: String,
    #[arg(long, default_value_t = 20)]
    pub limit: usize,
    /// Also search tool outputs (slower: they are not in the full-text index).
    #[arg(long)]
    pub include_output: bool,
}

pub fn run(ctx: &Context, args: SearchArgs) -> Result<(), CliError> {
    if args.text.trim().is_empty() {
        return Err(CliError::usage("search text is empty"));
    }
    let store = ctx.open_store_read_only()?;
    let hits = store.search(&args.text, args.limit, args.include_output)?;
    if ctx.json {
        output::json(&serde_json::json!({ "hits": hits }));
        return Ok(());
    }
    if hits.is_empty() {
        output::line("no matches");
        return Ok(());
    }
    for h in hits {
        output::line(&format!(
            "{} {} loop {} · {}",
            h.provider,
            h.session,
            h.loop_position
                .map(|l| l.to_string())
                .unwrap_or_else(|| "-".into()),
            h.role
        ));
        if let Some(b) = &h.before {
            output::line(&output::dim(&format!("    {}", output::clip(b, 120))));
        }
        output::line(&format!("  » {}", h.snippet));
        if let Some(a) = &h.after {
            output::line(&output::dim(&format!("    {}", output::clip(a, 120))));
        }
    }
    Ok(())
}
