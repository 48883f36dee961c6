//! `fornax`: the one binary.
//!
//! Parses the command line, opens the home, calls into the libraries, and prints. It holds no
//! logic a library should own.
//!
//! # Invariants
//!
//! * Data goes to stdout, diagnostics to stderr; every listing has `--json`.
//! * Exit codes: 0 success, 1 failure, 2 usage error.
//! * `fornax hook ...` never blocks or breaks the agent: exit 0, nothing on stdout unless a
//!   decision is due, a hard deadline, no panic escapes.

#![allow(clippy::print_stdout, clippy::print_stderr)]

mod cmd;
mod error;
mod history;
mod home;
mod output;
mod registry;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::error::CliError;

#[derive(Debug, Parser)]
#[command(
    name = "fornax",
    version,
    about = "Local-first integrity monitor and trace index for AI coding agents",
    long_about = "Fornax indexes what coding agents (Claude Code, Codex CLI, GitHub Copilot CLI, Cursor, Pi, opencode, Gemini CLI) \
                  record, extracts the claims they make, and checks each claim against the evidence \
                  with one of five verdicts: VERIFIED, UNVERIFIED, CONTRADICTED, REVIEW, UNAVAILABLE."
)]
pub struct Cli {
    /// Print machine-readable JSON.
    #[arg(long, global = true)]
    json: bool,
    /// Fornax's data directory (default: the user's data directory).
    #[arg(long, global = true, env = "FORNAX_HOME", value_name = "DIR")]
    home: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Find agent sessions, index them and verify the claims in them.
    Scan(cmd::scan::ScanArgs),
    /// List indexed sessions.
    Sessions(cmd::sessions::SessionsArgs),
    /// Show one session's timeline with verdicts inline.
    Show(cmd::show::ShowArgs),
    /// Search human and agent text (substrings match).
    Search(cmd::search::SearchArgs),
    /// Run one read-only SQL statement over the public schema.
    Query(cmd::query::QueryArgs),
    /// List the public schema's relations and columns.
    Schema,
    /// List findings (one verdict per claim).
    Findings(cmd::findings::FindingsArgs),
    /// Summarize verdicts (or print a status line for Claude Code).
    Status(cmd::status::StatusArgs),
    /// Inspect or verify a stored record against its source bytes.
    Record(cmd::record::RecordArgs),
    /// Entry point for agent hooks and plugins (reads the agent's payload on stdin).
    Hook(cmd::hook::HookArgs),
    /// Run the whole pipeline on bundled sample sessions in a throwaway home.
    Demo,
    /// The live daemon: ingests the spool and agent files as they change.
    Daemon(cmd::daemon::DaemonArgs),
    /// Connect an agent to Fornax (hooks, plugin, notify program).
    Install(cmd::install::InstallArgs),
    /// Remove exactly what `install` added.
    Uninstall(cmd::install::InstallArgs),
    /// Capabilities: declared actions Fornax runs for people and agents.
    Cap(cmd::cap::CapArgs),
    /// Serve the history and capabilities to agents over MCP (stdio).
    Mcp,
    /// Re-check a session's claims with evidence Fornax observes itself.
    Verify(cmd::cap::VerifyArgs),
    /// Check the installation: adapters, store, drift.
    Doctor,
}

fn run(cli: Cli) -> Result<(), CliError> {
    let ctx = home::Context::new(cli.home.clone(), cli.json)?;
    match cli.command {
        Command::Scan(args) => cmd::scan::run(&ctx, args),
        Command::Sessions(args) => cmd::sessions::run(&ctx, args),
        Command::Show(args) => cmd::show::run(&ctx, args),
        Command::Search(args) => cmd::search::run(&ctx, args),
        Command::Query(args) => cmd::query::run(&ctx, args),
        Command::Schema => cmd::query::schema(&ctx),
        Command::Findings(args) => cmd::findings::run(&ctx, args),
        Command::Status(args) => cmd::status::run(&ctx, args),
        Command::Record(args) => cmd::record::run(&ctx, args),
        // `main` routes hooks to `guarded` before any context is built, so that a broken
        // config never fails the agent; this arm only keeps the match whole.
        Command::Hook(args) => {
            cmd::hook::guarded(Some(ctx.home.clone()), &args);
            Ok(())
        }
        Command::Demo => cmd::demo::run(&ctx),
        Command::Daemon(args) => cmd::daemon::run(&ctx, args),
        Command::Install(args) => cmd::install::install(&ctx, args),
        Command::Uninstall(args) => cmd::install::uninstall(&ctx, args),
        Command::Cap(args) => cmd::cap::run(&ctx, args),
        Command::Mcp => cmd::cap::mcp(&ctx),
        Command::Verify(args) => cmd::cap::verify(&ctx, args),
        Command::Doctor => cmd::doctor::run(&ctx),
    }
}

fn main() -> ExitCode {
    // A capability process's confinement helper: confines itself, then runs the program.
    // First, before anything starts a thread.
    let mut raw = std::env::args_os();
    if raw.nth(1).is_some_and(|a| a == fornax_sandbox::HELPER_ARG) {
        let spec = raw.next().map(PathBuf::from).unwrap_or_default();
        let code = fornax_sandbox::helper_main(&spec);
        return ExitCode::from(u8::try_from(code.clamp(0, 255)).unwrap_or(1));
    }
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let code = if e.use_stderr() { 2 } else { 0 };
            let _ = e.print();
            return ExitCode::from(code);
        }
    };
    if let Command::Hook(args) = &cli.command {
        // Hooks run inside the agent's loop: they must never fail it.
        return cmd::hook::guarded(cli.home.clone(), args);
    }
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => e.report(),
    }
}
