//! `fornax forget SESSION | --project PATH`: removes sessions (and their subagent sessions)
//! from the database, the full-text index, the spool and the archive, and says what went.

use clap::Args;

use crate::error::CliError;
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct ForgetArgs {
    /// The session: its id, a unique prefix, `#<row>` or `latest`.
    #[arg(required_unless_present = "project", conflicts_with = "project")]
    pub session: Option<String>,
    /// Every session that ran in this directory or below it.
    #[arg(long, value_name = "PATH")]
    pub project: Option<String>,
}

pub fn run(ctx: &Context, args: ForgetArgs) -> Result<(), CliError> {
    // The daemon ingests the spool while it runs: a session's events could be stored again
    // between our rewrite and its next pass.
    if crate::cmd::daemon::status(&ctx.home).is_some() {
        return Err(CliError::usage(
            "the daemon is running: it could store the session's events again while they are removed",
        )
        .with_hint("stop it first (`fornax daemon stop`), forget, then start it again"));
    }
    let mut store = ctx.open_store()?;
    let ids = match (&args.session, &args.project) {
        (Some(session), _) => {
            let id = store.resolve_session(session)?;
            store.forget_set(id)?
        }
        (None, Some(project)) => {
            let path = crate::home::expand_tilde(project);
            let path = std::fs::canonicalize(&path).unwrap_or(path);
            store.sessions_under(&path.display().to_string())?
        }
        (None, None) => return Err(CliError::usage("name a session or --project PATH")),
    };
    if ids.is_empty() {
        return Err(CliError::usage(format!(
            "no session ran in {}",
            args.project.as_deref().unwrap_or("")
        ))
        .with_hint("`fornax sessions --project NAME` lists them"));
    }
    let forgotten = store.forget_sessions(&ids)?;
    let spool = fornax_ingest::forget_in_spool(&store, &ctx.spool_dir(), &forgotten)?;
    let archived =
        fornax_ingest::ArchiveEraser::forget(&mut fornax_ingest::NoArchive, &forgotten.sessions)
            .map_err(|e| anyhow::anyhow!("removing archived records: {e}"))?;
    store.checkpoint()?;
    if ctx.json {
        output::json(&serde_json::json!({
            "store": forgotten,
            "spool": spool,
            "archive_records": archived,
        }));
        return Ok(());
    }
    output::line(&format!(
        "Forgot {} session{}: {}",
        forgotten.sessions.len(),
        if forgotten.sessions.len() == 1 {
            ""
        } else {
            "s"
        },
        forgotten.sessions.join(", ")
    ));
    let f = &forgotten;
    output::line(&format!(
        "  database: {} loops, {} items, {} texts, {} evidence, {} claims, {} findings, \
         {} re-checks, {} usage rows, {} records",
        f.loops, f.items, f.texts, f.evidence, f.claims, f.findings, f.rechecks, f.usage, f.records
    ));
    output::line(&format!(
        "  spool: {} events ({} bytes) blanked in {} segments; archive: {archived} records",
        spool.lines, spool.bytes, spool.segments
    ));
    if !f.native_files.is_empty() {
        output::line(&format!(
            "  not read again ({} agent files stay where the agent keeps them):",
            f.native_files.len()
        ));
        for file in &f.native_files {
            output::line(&format!("    {file}"));
        }
    }
    Ok(())
}
