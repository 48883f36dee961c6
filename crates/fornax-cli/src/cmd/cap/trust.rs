//! `fornax cap trust` and `fornax cap untrust`.

use std::path::PathBuf;

use clap::Args;

#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct TrustArgs {
    /// A workspace, its `.fornax/` folder, a folder inside it, or one file (default: the
    /// workspace).
    pub path: Option<PathBuf>,
    /// List the trusted files instead.
    #[arg(long, conflicts_with = "path")]
    pub list: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Args)]
pub struct UntrustArgs {
    /// A workspace or a file (default: the workspace).
    pub path: Option<PathBuf>,
}
