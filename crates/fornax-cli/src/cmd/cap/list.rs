//! `fornax cap list`.

use clap::Args;
use fornax_capability::CapCommand;

#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct ListArgs {
    /// Include draft and reviewed capabilities.
    #[arg(long, visible_alias = "any-lifecycle")]
    pub all: bool,
    /// Only this scope: global, toolspace or workspace.
    #[arg(long)]
    pub scope: Option<String>,
    /// Only capabilities mounted in this toolspace.
    #[arg(long)]
    pub toolspace: Option<String>,
}

impl ListArgs {
    pub fn request(self) -> CapCommand {
        CapCommand::List {
            all: self.all,
            scope: self.scope,
            toolspace: self.toolspace,
        }
    }
}
