//! `fornax install|uninstall <agent>`

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
}

#[derive(Debug, Args)]
pub struct InstallArgs {
    pub agent: Agent,
    /// Install into the current project instead of the user's configuration.
    #[arg(long)]
    pub project: bool,
}

pub fn install(_ctx: &Context, args: InstallArgs) -> Result<(), CliError> {
    Err(anyhow::anyhow!(
        "installing for {:?} is not available in this build",
        args.agent
    )
    .into())
}

pub fn uninstall(_ctx: &Context, args: InstallArgs) -> Result<(), CliError> {
    Err(anyhow::anyhow!(
        "uninstalling for {:?} is not available in this build",
        args.agent
    )
    .into())
}
