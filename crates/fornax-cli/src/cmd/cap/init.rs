//! `fornax cap init capability|adapter|toolspace`.

use clap::Subcommand;
use fornax_capability::InitCommand;

#[derive(Debug, Clone, PartialEq, Eq, Subcommand)]
pub enum InitArgs {
    /// A draft capability manifest (global.* under FORNAX_HOME, workspace.* in the workspace).
    Capability { id: String },
    /// A draft adapter folder.
    Adapter {
        /// A type adapter is named after its type (cli, internal); a provider has its own name.
        name: String,
        /// `type` or `provider`.
        #[arg(long, default_value = "type")]
        kind: String,
        /// The type a provider adapter composes.
        #[arg(long, default_value = "cli")]
        composes: String,
        /// Make it private to this toolspace.
        #[arg(long)]
        toolspace: Option<String>,
    },
    /// A draft toolspace (in the workspace, or FORNAX_HOME without one).
    Toolspace { name: String },
}

impl InitArgs {
    pub fn request(self) -> InitCommand {
        match self {
            InitArgs::Capability { id } => InitCommand::Capability { id },
            InitArgs::Adapter {
                name,
                kind,
                composes,
                toolspace,
            } => InitCommand::Adapter {
                name,
                kind,
                composes,
                toolspace,
            },
            InitArgs::Toolspace { name } => InitCommand::Toolspace { name },
        }
    }
}
