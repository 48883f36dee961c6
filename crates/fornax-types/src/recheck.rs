//! Re-checks: runs Fornax performed itself and tied to a session, kept as dated results of
//! their own ("re-checked 2026-12-01: passes now"), shown beside the findings they speak to and
//! never a replacement of the verdict a claim had when it was made.

use serde::{Deserialize, Serialize};

use crate::{ClaimSubject, SessionRef, TrustClass};

/// What the run showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecheckOutcome {
    /// It ran and succeeded (for a test runner: no test failed).
    Passes,
    /// It ran and failed.
    Fails,
    /// The program or its toolchain could not start: no result either way.
    CouldNotRun,
}

impl RecheckOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            RecheckOutcome::Passes => "passes",
            RecheckOutcome::Fails => "fails",
            RecheckOutcome::CouldNotRun => "could_not_run",
        }
    }

    pub fn parse(s: &str) -> Option<RecheckOutcome> {
        [
            RecheckOutcome::Passes,
            RecheckOutcome::Fails,
            RecheckOutcome::CouldNotRun,
        ]
        .into_iter()
        .find(|o| o.as_str() == s)
    }

    /// "passes now", "fails now", "could not run".
    pub fn phrase(self) -> &'static str {
        match self {
            RecheckOutcome::Passes => "passes now",
            RecheckOutcome::Fails => "fails now",
            RecheckOutcome::CouldNotRun => "could not run",
        }
    }
}

/// Who asked for the run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecheckTrigger {
    /// `fornax verify --recheck`.
    Recheck,
    /// The MCP tool `cap_run`.
    Mcp,
    /// `fornax cap run`.
    Cli,
}

impl RecheckTrigger {
    pub fn as_str(self) -> &'static str {
        match self {
            RecheckTrigger::Recheck => "recheck",
            RecheckTrigger::Mcp => "mcp",
            RecheckTrigger::Cli => "cli",
        }
    }

    pub fn parse(s: &str) -> Option<RecheckTrigger> {
        [
            RecheckTrigger::Recheck,
            RecheckTrigger::Mcp,
            RecheckTrigger::Cli,
        ]
        .into_iter()
        .find(|t| t.as_str() == s)
    }
}

/// One run Fornax performed and tied to a session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Recheck {
    pub session: SessionRef,
    pub capability_id: String,
    pub trigger: RecheckTrigger,
    /// RFC 3339, host clock.
    pub started_at: String,
    pub finished_at: String,
    pub outcome: RecheckOutcome,
    /// A short account built from observed facts (counts, exit status), never raw output.
    pub summary: String,
    /// The claim subjects the run speaks to (a test runner's summary: `test_result`).
    pub subjects: Vec<ClaimSubject>,
    /// The trust class of the run's evidence.
    pub trust_class: TrustClass,
    /// The fingerprint of the workspace files it ran from, when it came from a workspace.
    pub manifest_hash: Option<String>,
    /// Ids of the evidence the run produced.
    pub evidence: Vec<String>,
}
