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
#[cfg(test)]
mod reference;
mod registry;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::error::CliError;

/// Shown under `fornax --help`.
const EXAMPLES: &str = "\
Examples:
  fornax demo                        the whole pipeline on sample sessions (no set-up)
  fornax scan                        index and verify every supported agent's sessions
  fornax findings                    what to believe, most urgent first
  fornax findings --since 2d --verdict contradicted,review
  fornax findings latest --verbose   the latest session, with evidence ids
  fornax sessions --provider codex --limit 5
  fornax search \"all tests pass\" --project ledger
  fornax show latest                 a session's timeline with its verdicts
  fornax ui                          the same in your browser
  fornax watch                       live: sessions, calls and verdicts as they happen
  fornax help verdicts               what the five verdicts mean";

#[derive(Debug, Parser)]
#[command(
    name = "fornax",
    version,
    about = "Local-first integrity monitor and trace index for AI coding agents",
    long_about = "Fornax indexes what coding agents (Claude Code, Codex CLI, GitHub Copilot CLI, Cursor, Pi, opencode, Gemini CLI) \
                  record, extracts the claims they make, and checks each claim against the evidence \
                  with one of five verdicts: CONTRADICTED, REVIEW, UNVERIFIED, UNAVAILABLE, VERIFIED \
                  (`fornax help verdicts`).",
    disable_help_subcommand = true,
    after_help = EXAMPLES
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
    /// List indexed sessions, the most recent first.
    #[command(
        after_help = "Examples:\n  fornax sessions\n  fornax sessions --since yesterday --provider claude\n  fornax sessions --verdict contradicted --limit all\n  fornax sessions --project ledger --json"
    )]
    Sessions(cmd::sessions::SessionsArgs),
    /// Show one session's timeline with verdicts inline.
    Show(cmd::show::ShowArgs),
    /// Search human and agent text (substrings match).
    #[command(
        after_help = "Examples:\n  fornax search \"all tests pass\"\n  fornax search migration --since 1w --provider codex\n  fornax search \"permission denied\" --include-output"
    )]
    Search(cmd::search::SearchArgs),
    /// Run one read-only SQL statement over the public schema.
    Query(cmd::query::QueryArgs),
    /// List the public schema's relations and columns.
    Schema,
    /// List findings (one verdict per claim), the most urgent first.
    #[command(
        after_help = "Examples:\n  fornax findings\n  fornax findings latest\n  fornax findings --verdict contradicted,review --since 2d\n  fornax findings 5b7c1f0e --verbose\n  fornax findings --json --limit all"
    )]
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
    /// Serve the history and capabilities to agents over MCP (stdio); `fornax mcp test` shows
    /// what an agent would see.
    Mcp(cmd::cap::mcp::McpArgs),
    /// Re-check a session's claims with evidence Fornax observes itself.
    Verify(cmd::cap::VerifyArgs),
    /// Check the installation: adapters, store, drift.
    Doctor,
    /// Rebuild the index from the archive alone (the agents' files are not read).
    Reindex(cmd::reindex::ReindexArgs),
    /// Share sessions: Markdown, HTML, JSONL files, or OpenTelemetry traces.
    Export(cmd::export::ExportArgs),
    /// Mirror the store into a team's PostgreSQL.
    Sync(cmd::sync::SyncArgs),
    /// Open the local web dashboard (read-only; this machine only).
    #[command(
        after_help = "Examples:\n  fornax ui            print the address (with this home's token) and serve until Ctrl-C\n  fornax ui --open     and open it in the default browser\n  fornax ui --port 8700"
    )]
    Ui(cmd::ui::UiArgs),
    /// Show the effective configuration, its file, and what each key does.
    Config(cmd::config::ConfigArgs),
    /// Explain a topic (`verdicts`, `filters`) or a command.
    Help(cmd::help::HelpArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(cmd::help::CompletionsArgs),
    /// Print the man page (roff): `fornax man > ~/.local/share/man/man1/fornax.1`.
    Man,
    /// Tokens and cost per day, month, session or 5-hour block.
    Usage(cmd::usage::UsageArgs),
    /// Remove a session (with its subagents) or a project's sessions from everything Fornax keeps.
    #[command(
        after_help = "Examples:\n  fornax forget 5b7c1f0e\n  fornax forget --project ~/work/client-x"
    )]
    Forget(cmd::forget::ForgetArgs),
    /// Re-apply the current secret detectors to everything stored (`--again`).
    Redact(cmd::redact::RedactArgs),
    /// A live view: sessions across agents, their latest calls, claims as they are judged.
    #[command(
        after_help = "Examples:\n  fornax watch                     full-screen on a terminal (keys: ↑↓ enter esc a p r q)\n  fornax watch --provider codex\n  fornax watch --plain | grep CONTRADICTED   one line per item and verdict"
    )]
    Watch(cmd::watch::WatchArgs),
}

fn run(cli: Cli) -> Result<(), CliError> {
    let ctx = home::Context::new(cli.home.clone(), cli.json)?;
    match cli.command {
        Command::Scan(args) => cmd::scan::run(&ctx, args),
        Command::Export(args) => cmd::export::run(&ctx, args),
        Command::Sync(args) => cmd::sync::run(&ctx, args),
        Command::Sessions(args) => cmd::sessions::run(&ctx, args),
        Command::Usage(args) => cmd::usage::run(&ctx, args),
        Command::Watch(args) => cmd::watch::run(&ctx, args),
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
        Command::Mcp(args) => cmd::cap::mcp::run(&ctx, args),
        Command::Verify(args) => cmd::cap::verify(&ctx, args),
        Command::Doctor => cmd::doctor::run(&ctx),
        Command::Reindex(args) => cmd::reindex::run(&ctx, args),
        Command::Ui(args) => cmd::ui::run(&ctx, args),
        Command::Config(args) => cmd::config::run(&ctx, args),
        Command::Forget(args) => cmd::forget::run(&ctx, args),
        Command::Redact(args) => cmd::redact::run(&ctx, args),
        // Answered in `main` before any context: they need no home.
        Command::Help(_) | Command::Completions(_) | Command::Man => Ok(()),
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
    let finish = |result: Result<(), CliError>| match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => e.report(),
    };
    // Help, completions and the man page need no home (and no valid config).
    let cli = match cli.command {
        Command::Help(args) => return finish(cmd::help::run(args)),
        Command::Completions(args) => return finish(cmd::help::completions(args)),
        Command::Man => return finish(cmd::help::man()),
        _ => cli,
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
