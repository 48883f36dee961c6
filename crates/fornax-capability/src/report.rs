//! What each `cap` command found or did, as typed values. The binary turns them into
//! sentences (its render module); this crate never formats text for a person.

use std::path::PathBuf;

use serde_json::Value;

use crate::doctor::DoctorReport;
use crate::lifecycle::Direction;
use crate::manifest::LifecycleState;
use crate::registry::Origin;

/// One command's result, by command.
#[derive(Debug, Clone, PartialEq)]
pub enum CapReport {
    List(ListReport),
    Inspect(Box<InspectReport>),
    Run(RunReport),
    Init(InitReport),
    Lifecycle(LifecycleReport),
    Trust(TrustReport),
    Untrust(UntrustReport),
    TrustList(TrustListReport),
    Doctor(Box<DoctorReport>),
}

/// `cap list`: the capabilities shown, and how many were left out.
#[derive(Debug, Clone, PartialEq)]
pub struct ListReport {
    pub shown: Vec<ListedCapability>,
    /// Loaded but not active, and so hidden without `--all`.
    pub hidden: usize,
    /// Manifests the registry refused.
    pub rejected: usize,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ListedCapability {
    pub id: String,
    pub lifecycle: LifecycleState,
    pub summary: String,
}

/// `cap inspect`: the effective manifest, where it came from, its adapters and a policy dry run.
#[derive(Debug, Clone, PartialEq)]
pub struct InspectReport {
    pub id: String,
    pub lifecycle: LifecycleState,
    pub summary: String,
    pub origin: Origin,
    pub provider: String,
    pub owner: String,
    /// The adapters that would run it, or why they cannot be found.
    pub adapters: Result<InspectedAdapters, String>,
    pub side_effects: Vec<String>,
    /// Names of the declared policies.
    pub policies: Vec<String>,
    pub policy_errors: Vec<String>,
    pub policy_warnings: Vec<String>,
    pub args: Vec<ArgumentSpec>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InspectedAdapters {
    pub type_adapter: String,
    /// The file that defines it (`None`: built in).
    pub type_adapter_path: Option<String>,
    /// `(name, file)` of the provider adapter, when the manifest names one.
    pub provider_adapter: Option<(String, Option<String>)>,
}

/// One property of a manifest's argument schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArgumentSpec {
    pub name: String,
    /// The schema's `type` (`None`: any).
    pub kind: Option<String>,
    pub required: bool,
    pub description: Option<String>,
}

/// `cap run`: the capability's envelope, as far as a person reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct RunReport {
    pub ok: bool,
    /// What the capability returned (its own shape; text is shown as it is).
    pub data: Value,
    pub error: Option<String>,
    pub warnings: Vec<String>,
}

/// `cap init`: the files scaffolded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitReport {
    pub created: Vec<PathBuf>,
}

/// `cap promote` / `cap demote`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LifecycleReport {
    pub direction: Direction,
    pub id: String,
    pub from: String,
    pub to: String,
    pub path: String,
}

/// `cap trust PATH`: the files trusted as they are now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustReport {
    pub target: PathBuf,
    /// Where the trust records are kept.
    pub store: PathBuf,
    pub files: Vec<TrustedFile>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustedFile {
    pub path: PathBuf,
    pub hash: String,
    /// What the file defines (`id: runs command args`), for review.
    pub defines: Option<String>,
}

/// `cap untrust PATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UntrustReport {
    pub target: PathBuf,
    pub removed: Vec<PathBuf>,
}

/// `cap trust --list`: every trust record and whether its file still matches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustListReport {
    pub records: Vec<TrustRecordState>,
    /// Why the trust file could not be read whole, if it could not.
    pub problem: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrustRecordState {
    pub path: PathBuf,
    pub hash: String,
    pub trusted_at: String,
    pub state: TrustState,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrustState {
    Trusted,
    Changed,
    Missing,
}

impl TrustState {
    pub fn as_str(self) -> &'static str {
        match self {
            TrustState::Trusted => "trusted",
            TrustState::Changed => "changed since trusted",
            TrustState::Missing => "missing",
        }
    }
}
