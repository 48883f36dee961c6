//! `fornax cap run`.

use clap::Args;
use fornax_capability::CapCommand;

#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct RunArgs {
    /// A full id, `MODULE CAPABILITY` or `MODULE.CAPABILITY`.
    #[arg(required = true, num_args = 1..=2, value_name = "ID")]
    pub target: Vec<String>,
    /// An argument, coerced to the type argsSchema declares (repeatable).
    #[arg(long = "arg", short = 'a', value_name = "KEY=VALUE")]
    pub args: Vec<String>,
    /// Arguments as one JSON object (--arg values override its keys).
    #[arg(long, value_name = "JSON")]
    pub args_json: Option<String>,
    /// Run a draft or reviewed capability.
    #[arg(long)]
    pub any_lifecycle: bool,
    /// Tie the run's evidence to this session (`provider:native_id` or a native id).
    #[arg(long)]
    pub session: Option<String>,
    /// Toolspace for shorthand resolution (default: FORNAX_TOOLSPACE).
    #[arg(long)]
    pub toolspace: Option<String>,
    /// Run an untrusted workspace capability this once, without trusting it; its evidence
    /// is recorded as untrusted and no verdict rests on it.
    #[arg(long)]
    pub trust_once: bool,
}

impl RunArgs {
    pub fn request(self) -> CapCommand {
        CapCommand::Run {
            target: self.target,
            args: self.args,
            args_json: self.args_json,
            any_lifecycle: self.any_lifecycle,
            session: self.session,
            toolspace: self.toolspace,
            trust_once: self.trust_once,
        }
    }
}
