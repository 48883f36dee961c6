//! `fornax cap inspect`.

use clap::Args;
use fornax_capability::CapCommand;

#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct InspectArgs {
    /// A full id, `MODULE CAPABILITY` or `MODULE.CAPABILITY`.
    #[arg(required = true, num_args = 1..=2, value_name = "ID")]
    pub target: Vec<String>,
    /// Toolspace for shorthand resolution (default: FORNAX_TOOLSPACE).
    #[arg(long)]
    pub toolspace: Option<String>,
}

impl InspectArgs {
    pub fn request(self) -> CapCommand {
        CapCommand::Inspect {
            target: self.target,
            toolspace: self.toolspace,
        }
    }
}
