//! `fornax redact --again`: re-applies the current detectors to everything stored (after a
//! detector was added or fixed), in batches; a second run changes nothing.

use clap::Args;

use crate::error::CliError;
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct RedactArgs {
    /// Redact what is already stored again with this version's detectors.
    #[arg(long)]
    pub again: bool,
    /// Rows per transaction.
    #[arg(long, default_value_t = 1000, value_name = "ROWS")]
    pub batch: usize,
}

pub fn run(ctx: &Context, args: RedactArgs) -> Result<(), CliError> {
    if !args.again {
        return Err(CliError::usage("nothing to do")
            .with_hint("`fornax redact --again` re-applies the detectors to what is stored"));
    }
    if !ctx.db_path().exists() {
        return Err(fornax_store::StoreError::Missing(ctx.db_path()).into());
    }
    let mut store = ctx.open_store()?;
    let redactor = fornax_redact::Redactor::new();
    let rerun = store.redact_again(&redactor, args.batch)?;
    if ctx.json {
        output::json(&rerun);
        return Ok(());
    }
    output::line(&format!(
        "Redacted again: {} of {} stored values changed",
        rerun.changed, rerun.values
    ));
    for (kind, n) in &rerun.kinds {
        output::line(&format!("  {kind}: {n}"));
    }
    Ok(())
}
