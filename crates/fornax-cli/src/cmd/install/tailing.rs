//! Codex CLI, Pi and Gemini CLI: agents Fornax reads from their own session files.
//!
//! Nothing is installed for them. Each writes a complete record of its sessions on its own,
//! which `fornax scan` indexes and `fornax daemon start` follows as it grows; neither offers a
//! hook whose payload says more. Codex's `notify` program in particular is not set: Fornax has
//! no entry point that takes the JSON argument Codex appends, and the rollout already holds
//! what it carries. So `~/.codex/config.toml` (and every other agent file) is never written,
//! and a foreign `notify` there is never overwritten.

use std::path::PathBuf;

use fornax_types::Provider;

use crate::home::{expand_tilde, Context};

use super::report::Outcome;
use super::{Action, Agent, Places};

struct Profile {
    display: &'static str,
    provider: Provider,
    /// The folder read by default, relative to the home directory.
    root: &'static str,
    /// The agent's own variable that moves that folder, and the folder below it.
    moved_by: Option<(&'static str, &'static str)>,
    captured: &'static str,
}

fn profile(agent: Agent) -> Profile {
    match agent {
        Agent::Codex => Profile {
            display: "Codex CLI",
            provider: Provider::Codex,
            root: ".codex/sessions",
            moved_by: Some(("CODEX_HOME", "sessions")),
            captured: "rollout files (sessions, turns with their settings, prompts, replies, \
                reasoning summaries, every tool call with its output and exit code, apply_patch \
                edits, token usage)",
        },
        Agent::Pi => Profile {
            display: "Pi",
            provider: Provider::Pi,
            root: ".pi/agent/sessions",
            moved_by: Some(("PI_CODING_AGENT_DIR", "sessions")),
            captured: "session files (every branch of the session tree, prompts, replies, model \
                changes, compactions, tool calls and their results with the exit code of bash \
                calls as Pi reports it, user `!` commands with their exit code, token usage)",
        },
        Agent::Gemini => Profile {
            display: "Gemini CLI",
            provider: Provider::Gemini,
            root: ".gemini/tmp",
            moved_by: None,
            captured: "chat files, JSON and JSONL (messages, thoughts, tool calls with their \
                results and the exit code of shell commands, rewinds, subagent chats, token \
                counts)",
        },
        Agent::Claude | Agent::Opencode | Agent::Copilot | Agent::Cursor => {
            unreachable!("claude, opencode, copilot and cursor have installers")
        }
    }
}

pub(super) fn run(ctx: &Context, places: &Places, agent: Agent, action: Action) -> Outcome {
    let p = profile(agent);
    let roots = roots(ctx, places, &p);
    let shown: Vec<String> = roots
        .iter()
        .map(|r| {
            let state = if r.is_dir() {
                "present"
            } else {
                "not created yet"
            };
            format!("{} ({state})", r.display())
        })
        .collect();
    let captured = format!(
        "{}'s {} under {}, read by `fornax scan` and followed live by `fornax daemon start`; \
         nothing else is captured, since Fornax installs no hook into {}",
        p.display,
        p.captured,
        shown.join(", "),
        p.display
    );
    let summary = match action {
        Action::Install => format!(
            "nothing to install: Fornax reads {}'s own files, so no {} configuration was written",
            p.display, p.display
        ),
        Action::Uninstall => format!(
            "nothing to uninstall: `fornax install {}` writes no {} configuration",
            agent.name(),
            p.display
        ),
    };
    let mut hints = Vec::new();
    if action == Action::Install {
        hints.push(
            "run `fornax scan` to index what is already there, and `fornax daemon start` to follow \
             new sessions as they are written"
                .to_string(),
        );
        if matches!(agent, Agent::Codex) {
            hints.push(
                "Codex's `notify` setting is left alone: the rollout already records each turn"
                    .to_string(),
            );
        }
        if let Some(hint) = moved_hint(places, &p, &roots) {
            hints.push(hint);
        }
    }
    Outcome::nothing_to_write(agent.name(), action, summary, captured, hints)
}

/// The folders Fornax reads for this agent: the config's `[roots]` if it names them, else the
/// default under the home directory.
fn roots(ctx: &Context, places: &Places, p: &Profile) -> Vec<PathBuf> {
    let adapters: Vec<&'static str> = crate::registry::registry()
        .descriptors()
        .iter()
        .filter(|d| d.provider == p.provider)
        .map(|d| d.name)
        .collect();
    for (name, dirs) in &ctx.config.roots {
        if name == p.provider.as_str() || adapters.contains(&name.as_str()) {
            return dirs.iter().map(|d| expand_tilde(d)).collect();
        }
    }
    vec![places.home.join(p.root)]
}

/// When the agent's own variable moves its files away from the folders Fornax reads.
fn moved_hint(places: &Places, p: &Profile, roots: &[PathBuf]) -> Option<String> {
    let (var, below) = p.moved_by?;
    let moved = places.agent_var(var)?.join(below);
    if roots.contains(&moved) {
        return None;
    }
    Some(format!(
        "{var} is set, so {} writes to {}; add it to Fornax's config.toml: [roots] {} = [\"{}\"]",
        p.display,
        moved.display(),
        p.provider.as_str(),
        moved.display()
    ))
}
