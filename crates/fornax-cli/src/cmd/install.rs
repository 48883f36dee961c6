//! `fornax install|uninstall <agent>`: connect an agent to Fornax, or disconnect it.
//!
//! What each agent gets:
//!
//! * Claude Code (with `--mcp`, also the `fornax mcp` server: see `mcp`): one command hook per event Fornax maps, running `fornax-hook claude` when
//!   that binary sits next to the running `fornax` (it starts faster) and `fornax hook claude`
//!   otherwise, and a `statusLine` when none is set, in `~/.claude/settings.json` (or `.claude/settings.json`
//!   with `--project`, or the file given with `--settings`).
//! * opencode: the capture plugin `fornax.js` in opencode's plugin folder.
//! * GitHub Copilot CLI: one command hook per event in the repository's
//!   `.github/hooks/fornax.json` (`--repo PATH`, else the git work tree around the current
//!   directory), running `fornax-hook copilot <event>`.
//! * Cursor: one command hook per agent event in `~/.cursor/hooks.json` (or
//!   `.cursor/hooks.json` with `--project`), running `fornax-hook cursor`.
//! * Codex CLI, Pi, Gemini CLI: nothing. Fornax reads the session files these agents write
//!   (`fornax scan`, and `fornax daemon start` to follow them live); the command says what is
//!   captured and where it is read from. Codex's `notify` program is deliberately not set:
//!   Fornax has no entry point that accepts the JSON argument Codex appends, and the rollout
//!   already holds what a notification would carry, so `~/.codex/config.toml` is never written.
//!
//! # Invariants
//!
//! * Idempotent: a second `install` writes nothing and says "already installed"; `uninstall`
//!   of something not installed writes nothing.
//! * `uninstall` removes exactly the entries `install` writes, recognized by their command
//!   (a `fornax` or `fornax-hook` binary followed by Fornax's own arguments); entries Fornax did not write are
//!   never changed, reordered or removed.
//! * A file is only ever replaced atomically (temporary file in the same folder, fsync,
//!   rename), keeps its mode, and its previous bytes are kept in `<file>.fornax-backup`.
//! * A refusal (malformed file, unexpected shape, foreign file in our place) leaves every byte
//!   as it was and exits 1 with the path in the message.
//!
//! # Locations
//!
//! `FORNAX_AGENT_HOME` replaces the user's home directory for every agent location (and the
//! agents' own location variables, `CLAUDE_CONFIG_DIR` and `XDG_CONFIG_HOME`, are then
//! ignored), so installs can be tried or tested in a scratch directory. `--project` uses the
//! current directory.

mod atomic;
mod claude;
mod copilot;
mod cursor;
mod hookfile;
mod mcp;
mod opencode;
mod report;
mod service;
mod shell;
mod tailing;

use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};

use crate::error::CliError;
use crate::home::Context;

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Agent {
    Claude,
    Codex,
    Opencode,
    Pi,
    Gemini,
    Copilot,
    Cursor,
}

impl Agent {
    pub fn name(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Opencode => "opencode",
            Agent::Pi => "pi",
            Agent::Gemini => "gemini",
            Agent::Copilot => "copilot",
            Agent::Cursor => "cursor",
        }
    }
}

#[derive(Debug, Args)]
pub struct InstallArgs {
    pub agent: Agent,
    /// Install into the current project instead of the user's configuration.
    #[arg(long)]
    pub project: bool,
    /// Claude Code only: the settings file to edit (for example `.claude/settings.local.json`).
    #[arg(long, value_name = "PATH", conflicts_with = "project")]
    pub settings: Option<PathBuf>,
    /// Copilot only: the repository whose `.github/hooks` to edit (default: the git work tree
    /// around the current directory).
    #[arg(long, value_name = "PATH", conflicts_with = "project")]
    pub repo: Option<PathBuf>,
    /// Say what would change without writing anything.
    #[arg(long)]
    pub dry_run: bool,
    /// Claude Code only: also register `fornax mcp` as an MCP server (in `~/.claude.json`, or
    /// `.mcp.json` with `--project`). `uninstall claude` removes it in any case.
    #[arg(long)]
    pub mcp: bool,
    /// Also install (or, with uninstall, remove) a user service that keeps the daemon running:
    /// a systemd user unit on Linux, a launchd agent on macOS.
    #[arg(long)]
    pub service: bool,
}

/// Whether the command adds or removes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Action {
    Install,
    Uninstall,
}

impl Action {
    fn verb(self) -> &'static str {
        match self {
            Action::Install => "install",
            Action::Uninstall => "uninstall",
        }
    }
}

/// Where the agents' files are, resolved once per command.
#[derive(Debug)]
pub(crate) struct Places {
    /// The user's home directory (or `FORNAX_AGENT_HOME`).
    pub home: PathBuf,
    /// True when `FORNAX_AGENT_HOME` is set: agent location variables are then ignored.
    pub overridden: bool,
    /// The current directory, for `--project`.
    pub cwd: PathBuf,
}

impl Places {
    fn resolve() -> Result<Places, CliError> {
        let (home, overridden) = match std::env::var_os("FORNAX_AGENT_HOME") {
            Some(h) if !h.is_empty() => (PathBuf::from(h), true),
            _ => match dirs::home_dir() {
                Some(h) => (h, false),
                None => return Err(CliError::from(anyhow::anyhow!(
                    "cannot find the home directory"
                ))
                .with_hint(
                    "set FORNAX_AGENT_HOME to the directory holding the agents' configuration",
                )),
            },
        };
        let cwd = std::env::current_dir()
            .map_err(|e| anyhow::Error::new(e).context("reading the current directory"))?;
        Ok(Places {
            home,
            overridden,
            cwd,
        })
    }

    /// An agent's location variable, unless `FORNAX_AGENT_HOME` overrides everything.
    pub fn agent_var(&self, name: &str) -> Option<PathBuf> {
        if self.overridden {
            return None;
        }
        std::env::var_os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
    }
}

/// The small hook binary next to `exe`, when there is one: it runs the same hook code as
/// `fornax hook` with about half the start-up cost, so agents that start a process per event
/// should call it.
pub(crate) fn hook_binary(exe: &Path) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let sibling = exe.with_file_name("fornax-hook");
    let meta = std::fs::metadata(&sibling).ok()?;
    (meta.is_file() && meta.permissions().mode() & 0o111 != 0).then_some(sibling)
}

/// The running binary, as hooks and plugins should call it.
pub(crate) fn fornax_exe() -> Result<PathBuf, CliError> {
    let exe = std::env::current_exe()
        .map_err(|e| anyhow::Error::new(e).context("locating the fornax binary"))?;
    Ok(std::fs::canonicalize(&exe).unwrap_or(exe))
}

pub fn install(ctx: &Context, args: InstallArgs) -> Result<(), CliError> {
    run(ctx, args, Action::Install)
}

pub fn uninstall(ctx: &Context, args: InstallArgs) -> Result<(), CliError> {
    run(ctx, args, Action::Uninstall)
}

fn run(ctx: &Context, args: InstallArgs, action: Action) -> Result<(), CliError> {
    if args.settings.is_some() && !matches!(args.agent, Agent::Claude) {
        return Err(CliError::usage(format!(
            "--settings applies to claude only, not {}",
            args.agent.name()
        )));
    }
    if args.mcp && !matches!(args.agent, Agent::Claude) {
        return Err(CliError::usage(format!(
            "--mcp applies to claude only, not {}",
            args.agent.name()
        )));
    }
    if args.repo.is_some() && !matches!(args.agent, Agent::Copilot) {
        return Err(CliError::usage(format!(
            "--repo applies to copilot only, not {}",
            args.agent.name()
        )));
    }
    let places = Places::resolve()?;
    let write = if args.dry_run {
        atomic::Mode::DryRun
    } else {
        atomic::Mode::Write
    };
    let outcome = match args.agent {
        Agent::Claude => {
            let path = match (&args.settings, args.project) {
                (Some(p), _) => places.cwd.join(p),
                (None, true) => places.cwd.join(".claude").join("settings.json"),
                (None, false) => claude::user_settings(&places),
            };
            let mcp_path = if args.project {
                mcp::project_config(&places)
            } else {
                mcp::user_config(&places)
            };
            if args.mcp {
                // A refusal of the MCP file must come before the hooks file changes.
                mcp::run(&mcp_path, action, atomic::Mode::DryRun, true)?;
            }
            let outcome = claude::run(&path, action, write)?;
            if args.mcp || action == Action::Uninstall {
                // Unasked (a plain uninstall), a file Fornax cannot read is left alone.
                let file = match mcp::run(&mcp_path, action, write, args.mcp) {
                    Ok(file) => file,
                    Err(_) if !args.mcp => None,
                    Err(e) => return Err(e),
                };
                mcp::with_file(outcome, action, file)
            } else {
                outcome
            }
        }
        Agent::Opencode => opencode::run(&places, args.project, action, write)?,
        Agent::Copilot => {
            if args.project {
                return Err(CliError::usage(
                    "copilot keeps hooks per repository: use --repo PATH (default: the repository around the current directory)",
                ));
            }
            let repo = copilot::repository(args.repo.as_deref(), &places.cwd)?;
            copilot::run(&repo, action, write)?
        }
        Agent::Cursor => cursor::run(&places, args.project, action, write)?,
        Agent::Codex | Agent::Pi | Agent::Gemini => {
            if args.project {
                return Err(CliError::usage(format!(
                    "--project does not apply to {}: it keeps no per-project configuration Fornax uses",
                    args.agent.name()
                )));
            }
            tailing::run(ctx, &places, args.agent, action)
        }
    };
    let outcome = with_service(ctx, &places, &args, action, write, outcome)?;
    report::print(ctx, &outcome);
    Ok(())
}

/// Adds the user service's file to an outcome when `--service` asks for it.
fn with_service(
    ctx: &Context,
    places: &Places,
    args: &InstallArgs,
    action: Action,
    write: atomic::Mode,
    mut outcome: report::Outcome,
) -> Result<report::Outcome, CliError> {
    if !args.service {
        return Ok(outcome);
    }
    let (file, hints) = service::run(places, &ctx.home, action, write)?;
    let service_changed = file.change != report::Change::Unchanged;
    outcome.files.push(file);
    outcome.hints.extend(hints);
    if service_changed && !outcome.changed {
        outcome.changed = true;
        outcome.summary = match (action, args.dry_run) {
            (Action::Install, false) => "installed the user service",
            (Action::Install, true) => "would install the user service (dry run, nothing written)",
            (Action::Uninstall, false) => "removed the user service",
            (Action::Uninstall, true) => "would remove the user service (dry run, nothing written)",
        }
        .to_string();
    }
    Ok(outcome)
}

/// Whether Claude Code's user settings hold Fornax's hooks (a dry run that would change
/// nothing).
pub(crate) fn claude_installed() -> bool {
    let Ok(places) = Places::resolve() else {
        return false;
    };
    claude::run(
        &claude::user_settings(&places),
        Action::Install,
        atomic::Mode::DryRun,
    )
    .is_ok_and(|o| !o.changed)
}

/// Whether each agent is connected, as `doctor` reports it: a dry run of `install` that would
/// change nothing means installed.
pub(crate) fn agent_states() -> Vec<serde_json::Value> {
    let Ok(places) = Places::resolve() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let claude_path = claude::user_settings(&places);
    let claude = match claude::run(&claude_path, Action::Install, atomic::Mode::DryRun) {
        Ok(o) => {
            serde_json::json!({"agent": "claude", "transport": "hooks", "installed": !o.changed, "config": claude_path.display().to_string()})
        }
        Err(_) => {
            serde_json::json!({"agent": "claude", "transport": "hooks", "installed": false, "config": claude_path.display().to_string(), "problem": "settings file unreadable"})
        }
    };
    out.push(claude);
    let opencode = match opencode::run(&places, false, Action::Install, atomic::Mode::DryRun) {
        Ok(o) => {
            serde_json::json!({"agent": "opencode", "transport": "plugin", "installed": !o.changed})
        }
        Err(_) => {
            serde_json::json!({"agent": "opencode", "transport": "plugin", "installed": false, "problem": "plugin folder unreadable"})
        }
    };
    out.push(opencode);
    let cursor_hooks = places.home.join(".cursor").join("hooks.json");
    out.push(match cursor::run(&places, false, Action::Install, atomic::Mode::DryRun) {
        Ok(o) => {
            serde_json::json!({"agent": "cursor", "transport": "hooks", "installed": !o.changed, "config": cursor_hooks.display().to_string()})
        }
        Err(_) => {
            serde_json::json!({"agent": "cursor", "transport": "hooks", "installed": false, "config": cursor_hooks.display().to_string(), "problem": "hooks file unreadable"})
        }
    });
    out.push(serde_json::json!({
        "agent": "copilot",
        "transport": "hooks per repository (`fornax install copilot --repo PATH`) and session logs",
        "installed": true,
        "sessions_folder": places.home.join(".copilot/session-state").display().to_string(),
        "sessions_folder_exists": places.home.join(".copilot/session-state").is_dir(),
    }));
    for (agent, root) in [
        ("codex", ".codex/sessions"),
        ("pi", ".pi/agent/sessions"),
        ("gemini", ".gemini/tmp"),
    ] {
        let dir = places.home.join(root);
        out.push(serde_json::json!({
            "agent": agent,
            "transport": "file tailing (no configuration needed)",
            "installed": true,
            "sessions_folder": dir.display().to_string(),
            "sessions_folder_exists": dir.is_dir(),
        }));
    }
    out
}
