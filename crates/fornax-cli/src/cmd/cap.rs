//! `fornax cap ...`, `fornax mcp` and `fornax verify --recheck`.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use fornax_capability::{CapCommand, CapEnv};

use crate::error::CliError;
use crate::history::{store_evidence, StoreHistory};
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct CapArgs {
    /// The workspace whose `.fornax/` capabilities apply (default: nearest ancestor with one).
    #[arg(long, global = true, env = "FORNAX_WORKSPACE_DIR")]
    pub workspace: Option<PathBuf>,
    #[command(subcommand)]
    pub command: CapCommand,
}

fn env(ctx: &Context, workspace: Option<PathBuf>) -> CapEnv {
    let history = StoreHistory { db: ctx.db_path() };
    let mut env = CapEnv::from_process(
        ctx.home.clone(),
        workspace,
        ctx.json,
        Some(Arc::new(history.clone())),
    );
    env.evidence_sink = Some(Arc::new(history));
    env
}

pub fn run(ctx: &Context, args: CapArgs) -> Result<(), CliError> {
    let env = env(ctx, args.workspace);
    let out = fornax_capability::execute(args.command, &env).map_err(cap_error)?;
    if !out.evidence.is_empty() && ctx.db_path().exists() {
        if let Err(e) = store_evidence(&ctx.db_path(), &out.evidence) {
            output::warn(&format!("the run's evidence was not stored: {e}"));
        }
    }
    if ctx.json {
        output::json(&out.json);
    } else if !out.human.is_empty() {
        output::line(out.human.trim_end());
    }
    if out.exit_code != 0 {
        return Err(CliError::Exit(out.exit_code.clamp(1, 255) as u8));
    }
    Ok(())
}

fn cap_error(e: fornax_capability::CapError) -> CliError {
    let message = e.to_string();
    if matches!(e, fornax_capability::CapError::Usage(_)) {
        CliError::usage(message)
    } else {
        anyhow::Error::new(e).into()
    }
}

pub fn mcp(ctx: &Context) -> Result<(), CliError> {
    ctx.ensure_home()?;
    fornax_capability::serve_stdio(env(ctx, None)).map_err(cap_error)
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Re-run the workspace's declared test capability in the session's working directory and
    /// re-judge the session's claims with what Fornax itself observed.
    #[arg(long, value_name = "SESSION")]
    pub recheck: String,
    /// The capability to run (default: the shorthand `test run`).
    #[arg(long, default_value = "test run")]
    pub capability: String,
}

pub fn verify(ctx: &Context, args: VerifyArgs) -> Result<(), CliError> {
    let store = ctx.open_store_read_only()?;
    let sid = store.resolve_session(&args.recheck)?;
    let row = store.session_row(sid)?;
    drop(store);
    let Some(cwd) = row.cwd.clone() else {
        return Err(anyhow::anyhow!(
            "session {} records no working directory to re-check in",
            row.native_id
        )
        .into());
    };
    if !std::path::Path::new(&cwd).is_dir() {
        return Err(anyhow::anyhow!(
            "the session's working directory {cwd} does not exist on this machine"
        )
        .into());
    }
    let mut env = env(ctx, Some(PathBuf::from(&cwd)));
    env.cwd = PathBuf::from(&cwd);
    let cmd = CapCommand::Run {
        target: args
            .capability
            .split_whitespace()
            .map(str::to_string)
            .collect(),
        args: Vec::new(),
        args_json: None,
        any_lifecycle: false,
        session: Some(format!("{}:{}", row.provider, row.native_id)),
        toolspace: None,
    };
    let out = fornax_capability::execute(cmd, &env).map_err(cap_error)?;
    let outcome = store_evidence(&ctx.db_path(), &out.evidence).map_err(|e| anyhow::anyhow!(e))?;
    if ctx.json {
        output::json(&serde_json::json!({"run": out.json, "verdicts": outcome.verdicts}));
    } else {
        output::line(out.human.trim_end());
        let parts: Vec<String> = outcome
            .verdicts
            .iter()
            .map(|(v, n)| format!("{} {n}", output::verdict(v)))
            .collect();
        output::line(&format!("re-judged: {}", parts.join(" · ")));
    }
    Ok(())
}
