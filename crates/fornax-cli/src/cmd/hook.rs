//! `fornax hook <agent>`: the live entry points, delegated to `fornax_hook`.
//!
//! The `fornax-hook` binary runs the same code without the rest of `fornax` (about half the
//! start-up cost); `fornax install` writes that binary into agent settings when it sits next
//! to this one. Either way a hook reads the payload, appends it to the spool (fsync) and exits 0
//! with nothing on stdout unless a decision is due; see `fornax_hook` for the guards.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Agent {
    /// One Claude Code hook payload on stdin.
    Claude,
    /// The opencode plugin's NDJSON stream on stdin (long-lived).
    Opencode,
    /// One GitHub Copilot CLI hook payload on stdin; name its EVENT (Copilot's payloads do not).
    Copilot,
    /// One Cursor hook payload on stdin; the permissive answer is printed for Cursor to read.
    Cursor,
}

#[derive(Debug, Args)]
pub struct HookArgs {
    pub agent: Agent,
    /// The hook event, for agents whose payload does not name it (copilot: sessionStart,
    /// userPromptSubmitted, preToolUse, postToolUse, agentStop, ...).
    pub event: Option<String>,
}

/// Runs a hook with every guard on, always returning success to the agent.
pub fn guarded(home: Option<PathBuf>, args: &HookArgs) -> ExitCode {
    let agent = match args.agent {
        Agent::Claude => fornax_hook::Agent::Claude,
        Agent::Opencode => fornax_hook::Agent::Opencode,
        Agent::Copilot => fornax_hook::Agent::Copilot,
        Agent::Cursor => fornax_hook::Agent::Cursor,
    };
    fornax_hook::guarded_event(home, agent, args.event.as_deref())
}
