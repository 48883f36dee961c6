//! `fornax cap promote` and `fornax cap demote`.

use clap::Args;

#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct PromoteArgs {
    #[arg(required = true, num_args = 1..=2, value_name = "ID")]
    pub target: Vec<String>,
    /// reviewed or active.
    #[arg(long)]
    pub to: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct DemoteArgs {
    #[arg(required = true, num_args = 1..=2, value_name = "ID")]
    pub target: Vec<String>,
    /// reviewed or draft.
    #[arg(long)]
    pub to: String,
}
