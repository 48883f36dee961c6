//! Cursor: command hooks in `~/.cursor/hooks.json` (or the project's `.cursor/hooks.json`
//! with `--project`), one per agent event Fornax maps, running `fornax-hook cursor` (or
//! `fornax hook cursor`). Cursor's payloads name their event; its before-hooks read the
//! answer the hook prints, which is always the permissive one unless intervention says
//! otherwise at a `stop`.

use std::path::Path;

use serde_json::{Map, Value};

use crate::error::CliError;

use super::atomic::Mode;
use super::hookfile::{self, Spec};
use super::report::Outcome;
use super::{Action, Places};

/// The agent events Cursor documents that carry what Fornax reads (Tab events and file reads
/// are left out: they say nothing about the agent's claims).
const EVENTS: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "beforeSubmitPrompt",
    "beforeShellExecution",
    "afterShellExecution",
    "beforeMCPExecution",
    "afterMCPExecution",
    "afterFileEdit",
    "afterAgentThought",
    "afterAgentResponse",
    "stop",
    "subagentStart",
    "subagentStop",
    "preCompact",
];

const CAPTURED: &str = "live hook events (prompts, shell commands before and after with their output, MCP calls, \
file edits, the agent's thoughts and answers, turn ends, session start and end) are spooled by `fornax-hook cursor`, \
which answers Cursor's before-hooks permissively; agent transcripts under ~/.cursor/projects are read by `fornax \
scan` and followed live by `fornax daemon start`";

const SPEC: Spec = Spec {
    agent: "cursor",
    command_key: "command",
    events: EVENTS,
    args: |_| vec!["cursor"],
    extra: Map::<String, Value>::new,
    captured: CAPTURED,
};

pub(super) fn run(
    places: &Places,
    project: bool,
    action: Action,
    mode: Mode,
) -> Result<Outcome, CliError> {
    let base: &Path = if project { &places.cwd } else { &places.home };
    let path = base.join(".cursor").join("hooks.json");
    hookfile::run(&SPEC, &path, action, mode, Vec::new())
}
