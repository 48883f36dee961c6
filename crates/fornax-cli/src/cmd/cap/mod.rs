//! `fornax cap ...`, `fornax mcp` (in [`mcp`]) and `fornax verify --recheck`.

pub mod init;
pub mod inspect;
pub mod lifecycle;
pub mod list;
pub mod mcp;
pub mod render;
pub mod run;
pub mod trust;

use std::path::PathBuf;
use std::sync::Arc;

use clap::{Args, Subcommand};
use fornax_capability::{CapCommand, CapEnv};

use crate::error::CliError;
use crate::history::{store_run, StoreHistory};
use crate::home::Context;
use crate::output;
use fornax_types::{RecheckOutcome, RecheckTrigger};

#[derive(Debug, Args)]
pub struct CapArgs {
    /// The workspace whose `.fornax/` capabilities apply (default: nearest ancestor with one).
    #[arg(long, global = true, env = "FORNAX_WORKSPACE_DIR")]
    pub workspace: Option<PathBuf>,
    #[command(subcommand)]
    pub command: CapCli,
}

/// `fornax cap ...`: one module per command parses it into the library's typed request.
#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
pub enum CapCli {
    /// List capabilities (only active ones unless --all).
    List(list::ListArgs),
    /// Show a capability: effective manifest, origin, adapters and a policy dry run.
    Inspect(inspect::InspectArgs),
    /// Run a capability; exits non-zero when the result is not ok.
    Run(run::RunArgs),
    /// Scaffold a draft capability, adapter or toolspace (never overwrites).
    Init {
        #[command(subcommand)]
        what: init::InitArgs,
    },
    /// Move a capability towards active, rewriting its manifest.
    Promote(lifecycle::PromoteArgs),
    /// Move a capability towards draft, rewriting its manifest.
    Demote(lifecycle::DemoteArgs),
    /// Report manifests, adapters, shadowing, orphans and policy problems.
    Doctor,
    /// Trust a workspace's capabilities, adapters and toolspaces as they are now: records each
    /// file's content hash in FORNAX_HOME; a file that changes is untrusted again.
    Trust(trust::TrustArgs),
    /// Forget the trust given to a workspace (or one of its files).
    Untrust(trust::UntrustArgs),
}

impl CapCli {
    /// The library's request for this command line.
    pub fn request(self) -> CapCommand {
        match self {
            CapCli::List(a) => a.request(),
            CapCli::Inspect(a) => a.request(),
            CapCli::Run(a) => a.request(),
            CapCli::Init { what } => CapCommand::Init {
                what: what.request(),
            },
            CapCli::Promote(a) => CapCommand::Promote {
                target: a.target,
                to: a.to,
            },
            CapCli::Demote(a) => CapCommand::Demote {
                target: a.target,
                to: a.to,
            },
            CapCli::Doctor => CapCommand::Doctor,
            CapCli::Trust(a) => CapCommand::Trust {
                path: a.path,
                list: a.list,
            },
            CapCli::Untrust(a) => CapCommand::Untrust { path: a.path },
        }
    }
}

pub(crate) fn env(ctx: &Context, workspace: Option<PathBuf>) -> CapEnv {
    let history = StoreHistory { db: ctx.db_path() };
    let mut env = CapEnv::from_process(
        ctx.home.clone(),
        workspace,
        ctx.json,
        Some(Arc::new(history.clone())),
    );
    env.evidence_sink = Some(Arc::new(history));
    env.confiner = confiner(ctx);
    env
}

/// Capability processes are confined by this very binary, re-executed as the helper.
fn confiner(ctx: &Context) -> Option<fornax_capability::exec::Confiner> {
    let launcher = std::env::current_exe().ok()?;
    let home = std::env::var_os("HOME").map(PathBuf::from);
    Some(fornax_capability::exec::Confiner {
        launcher,
        denied: fornax_sandbox::default_denied(home.as_deref(), &ctx.home),
    })
}

pub fn run(ctx: &Context, args: CapArgs) -> Result<(), CliError> {
    let env = env(ctx, args.workspace);
    let mut command = args.command.request();
    let mut out = fornax_capability::execute(command.clone(), &env).map_err(cap_error)?;
    if out.refused_untrusted && !ctx.json && confirm_trust_once(&out) {
        if let CapCommand::Run { trust_once, .. } = &mut command {
            *trust_once = true;
        }
        out = fornax_capability::execute(command, &env).map_err(cap_error)?;
    }
    if ctx.db_path().exists() {
        if let Err(e) = store_run(&ctx.db_path(), out.recheck.as_ref(), &out.evidence) {
            output::warn(&format!("the run's evidence was not stored: {e}"));
        }
    }
    if ctx.json {
        output::json(&out.json);
    } else {
        let text = render::report(&out.report);
        if !text.is_empty() {
            output::line(text.trim_end());
        }
    }
    if out.refused_untrusted && !ctx.json {
        output::line(
            "hint: to run it once without trusting it, pass --trust-once (its evidence stays untrusted)",
        );
    }
    if out.exit_code != 0 {
        return Err(CliError::Exit(out.exit_code.clamp(1, 255) as u8));
    }
    Ok(())
}

/// On a terminal, asks whether to run an untrusted workspace capability once. Elsewhere the
/// answer is no: nothing untrusted runs without `--trust-once`.
fn confirm_trust_once(out: &fornax_capability::CommandOutput) -> bool {
    use std::io::IsTerminal;
    if !std::io::stdin().is_terminal() || !std::io::stderr().is_terminal() {
        return false;
    }
    output::line(render::report(&out.report).trim_end());
    eprint!("Run it once without trusting it? Its evidence will stay untrusted. [y/N] ");
    let mut answer = String::new();
    if std::io::stdin().read_line(&mut answer).is_err() {
        return false;
    }
    matches!(answer.trim(), "y" | "Y" | "yes")
}

pub(crate) fn cap_error(e: fornax_capability::CapError) -> CliError {
    let message = e.to_string();
    if matches!(e, fornax_capability::CapError::Usage(_)) {
        CliError::usage(message)
    } else {
        anyhow::Error::new(e).into()
    }
}

#[derive(Debug, Args)]
pub struct VerifyArgs {
    /// Re-run the workspace's declared test capability in the session's working directory.
    /// The result is kept as a dated re-check beside the findings; it never changes the
    /// verdict a claim had when it was made. Exits 1 when the re-run fails or cannot run.
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
        trust_once: false,
    };
    let out = fornax_capability::execute(cmd, &env).map_err(cap_error)?;
    if out.refused_untrusted {
        let message = out.json["error"]["message"]
            .as_str()
            .unwrap_or("the capability is not trusted")
            .to_string();
        return Err(CliError::Failure {
            error: anyhow::anyhow!(message),
            hint: Some(
                "a re-check runs only what you trusted; `fornax cap trust` records it".to_string(),
            ),
        });
    }
    let Some(mut recheck) = out.recheck.clone() else {
        // Nothing ran: a policy, argument or adapter problem (the envelope says which).
        let message = out.json["error"]["message"]
            .as_str()
            .unwrap_or("the capability did not run")
            .to_string();
        return Err(anyhow::anyhow!("could not run the re-check: {message}").into());
    };
    recheck.trigger = RecheckTrigger::Recheck;
    store_run(&ctx.db_path(), Some(&recheck), &out.evidence).map_err(|e| anyhow::anyhow!(e))?;
    let store = ctx.open_store_read_only()?;
    let findings = store.findings(&fornax_store::FindingFilter {
        session: Some(sid),
        verdict: None,
    })?;
    let beside: Vec<_> = findings
        .iter()
        .filter(|f| {
            f.rechecks.iter().any(|r| {
                r.finished_at == recheck.finished_at && r.capability_id == recheck.capability_id
            })
        })
        .collect();
    let date = recheck
        .finished_at
        .get(..10)
        .unwrap_or(&recheck.finished_at);
    if ctx.json {
        output::json(&serde_json::json!({
            "run": out.json,
            "recheck": recheck,
            "findings": beside,
        }));
    } else {
        output::line(&format!(
            "re-checked {date}: {} — {} ({}, {})",
            recheck.outcome.phrase(),
            recheck.summary,
            recheck.capability_id,
            trust_words(recheck.trust_class),
        ));
        for f in &beside {
            output::line(&format!(
                "  {} {}  (verdict when claimed; unchanged)",
                output::verdict(&f.verdict),
                f.claim["text"].as_str().unwrap_or_default()
            ));
        }
        if beside.is_empty() {
            output::line("  no claim of this session speaks to what it ran");
        }
    }
    match recheck.outcome {
        RecheckOutcome::Passes => Ok(()),
        RecheckOutcome::Fails | RecheckOutcome::CouldNotRun => Err(CliError::Exit(1)),
    }
}

/// How far a re-check's evidence can be trusted, in words.
pub fn trust_words(class: fornax_types::TrustClass) -> &'static str {
    use fornax_types::TrustClass::*;
    match class {
        HostObserved => "host-observed",
        WorkspaceTrusted => "from workspace files you trusted",
        WorkspaceUntrusted => "from untrusted workspace files, run once",
        _ => "other",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(subcommand)]
        cmd: CapCli,
    }

    fn parse(args: &[&str]) -> Result<CapCommand, clap::Error> {
        Cli::try_parse_from(std::iter::once("cap").chain(args.iter().copied()))
            .map(|c| c.cmd.request())
    }

    #[test]
    fn command_lines_become_typed_requests() {
        assert!(parse(&["run"]).is_err());
        assert!(parse(&["run", "a", "b", "c"]).is_err());
        assert_eq!(
            parse(&[
                "init",
                "adapter",
                "--kind",
                "provider",
                "--composes",
                "cli",
                "--toolspace",
                "ci",
                "wrap"
            ])
            .unwrap(),
            CapCommand::Init {
                what: fornax_capability::InitCommand::Adapter {
                    name: "wrap".into(),
                    kind: "provider".into(),
                    composes: "cli".into(),
                    toolspace: Some("ci".into())
                }
            }
        );
        assert!(matches!(
            parse(&["list", "--any-lifecycle"]).unwrap(),
            CapCommand::List { all: true, .. }
        ));
        assert!(matches!(
            parse(&["promote", "workspace.a.b", "--to", "active"]).unwrap(),
            CapCommand::Promote { .. }
        ));
        assert!(matches!(parse(&["doctor"]).unwrap(), CapCommand::Doctor));
        assert!(matches!(
            parse(&["run", "echo", "say", "-a", "text=hi", "--session", "codex:1"]).unwrap(),
            CapCommand::Run { target, args, session: Some(_), .. } if target == ["echo", "say"] && args == ["text=hi"]
        ));
        assert!(parse(&["trust", "x", "--list"]).is_err());
    }
}
