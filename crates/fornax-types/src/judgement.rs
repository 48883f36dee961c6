//! Claims agents make and the findings Fornax reaches about them.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::SessionRef;

/// What a claim is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimSubject {
    TestResult,
    BuildResult,
    LintResult,
    CommandExecuted,
    CommandSucceeded,
    FileWritten,
    GitCommit,
    GitPush,
}

impl ClaimSubject {
    pub const ALL: [ClaimSubject; 8] = [
        ClaimSubject::TestResult,
        ClaimSubject::BuildResult,
        ClaimSubject::LintResult,
        ClaimSubject::CommandExecuted,
        ClaimSubject::CommandSucceeded,
        ClaimSubject::FileWritten,
        ClaimSubject::GitCommit,
        ClaimSubject::GitPush,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            ClaimSubject::TestResult => "test_result",
            ClaimSubject::BuildResult => "build_result",
            ClaimSubject::LintResult => "lint_result",
            ClaimSubject::CommandExecuted => "command_executed",
            ClaimSubject::CommandSucceeded => "command_succeeded",
            ClaimSubject::FileWritten => "file_written",
            ClaimSubject::GitCommit => "git_commit",
            ClaimSubject::GitPush => "git_push",
        }
    }
}

/// The specific thing a claim names, when it names one.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimTarget {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    /// A tool named in the claim (`clippy`, `mypy`, `tsc`, `pytest`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

/// An assertion by the agent, in its own words, that something succeeded or was done.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claim {
    /// Deterministic: derived from the item and the claim's place in it.
    pub id: String,
    pub session: SessionRef,
    /// The canonical item whose text holds the claim.
    pub item_key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_position: Option<u32>,
    pub subject: ClaimSubject,
    /// The exact sentence (or clause) of the agent's text that carries the claim.
    pub text: String,
    #[serde(default)]
    pub target: ClaimTarget,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

/// The five verdicts. Never a score.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Verdict {
    /// The latest relevant, fresh, full evidence confirms the claim.
    Verified,
    /// No relevant evidence exists.
    Unverified,
    /// The latest relevant fresh evidence says the opposite.
    Contradicted,
    /// Evidence exists but is partial, filtered, stale, interrupted or conflicting.
    Review,
    /// The runtime cannot expose the signal the claim needs.
    Unavailable,
}

impl Verdict {
    pub const ALL: [Verdict; 5] = [
        Verdict::Verified,
        Verdict::Unverified,
        Verdict::Contradicted,
        Verdict::Review,
        Verdict::Unavailable,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Verified => "VERIFIED",
            Verdict::Unverified => "UNVERIFIED",
            Verdict::Contradicted => "CONTRADICTED",
            Verdict::Review => "REVIEW",
            Verdict::Unavailable => "UNAVAILABLE",
        }
    }

    pub fn parse(s: &str) -> Option<Verdict> {
        let upper = s.to_ascii_uppercase();
        Verdict::ALL.into_iter().find(|v| v.as_str() == upper)
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A verifier's judgement of one claim.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    pub claim_id: String,
    pub session: SessionRef,
    pub verdict: Verdict,
    /// Why, citing the evidence (command, exit status, summary, time, freshness).
    pub rationale: String,
    /// Ids of the evidence the verdict rests on.
    #[serde(default)]
    pub evidence: Vec<String>,
    /// Which verifier rule decided (a stable diagnostic name).
    #[serde(default)]
    pub rule: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdict_wire_names() {
        for v in Verdict::ALL {
            assert_eq!(
                serde_json::to_string(&v).unwrap(),
                format!("\"{}\"", v.as_str())
            );
            assert_eq!(Verdict::parse(&v.as_str().to_lowercase()), Some(v));
        }
    }
}
