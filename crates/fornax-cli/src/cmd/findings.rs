//! `fornax findings`

use clap::Args;
use fornax_store::FindingFilter;

use crate::error::CliError;
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct FindingsArgs {
    /// Only this session (agent id, unique prefix, or `#<internal id>`); includes its subagents.
    #[arg(long)]
    pub session: Option<String>,
    /// Only this verdict.
    #[arg(long)]
    pub verdict: Option<String>,
}

pub fn run(ctx: &Context, args: FindingsArgs) -> Result<(), CliError> {
    if let Some(v) = &args.verdict {
        if fornax_types::Verdict::parse(v).is_none() {
            return Err(CliError::usage(format!("unknown verdict {v:?}"))
                .with_hint("one of VERIFIED, UNVERIFIED, CONTRADICTED, REVIEW, UNAVAILABLE"));
        }
    }
    let store = ctx.open_store_read_only()?;
    let session = match &args.session {
        Some(s) => Some(store.resolve_session(s)?),
        None => None,
    };
    let findings = store.findings(&FindingFilter {
        session,
        verdict: args.verdict,
    })?;
    if ctx.json {
        output::json(&serde_json::json!({ "findings": findings }));
        return Ok(());
    }
    if findings.is_empty() {
        output::line("no findings");
        return Ok(());
    }
    for f in findings {
        output::line(&format!(
            "{} {} {} {}",
            output::verdict(&f.verdict),
            f.claim["subject"].as_str().unwrap_or(""),
            f.session["provider"].as_str().unwrap_or(""),
            output::dim(f.session["native_id"].as_str().unwrap_or(""))
        ));
        output::line(&format!(
            "  “{}”",
            output::clip(f.claim["text"].as_str().unwrap_or(""), 140)
        ));
        output::line(&format!("  {}", f.rationale()));
        for e in &f.evidence {
            output::line(&output::dim(&format!("    {} {}", e.id, e.description)));
        }
        for r in &f.rechecks {
            output::line(&format!("  {}", output::recheck_line(r)));
        }
    }
    Ok(())
}
