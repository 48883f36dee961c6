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
    FileDeleted,
    GitCommit,
    GitPush,
}

impl ClaimSubject {
    pub const ALL: [ClaimSubject; 9] = [
        ClaimSubject::TestResult,
        ClaimSubject::BuildResult,
        ClaimSubject::LintResult,
        ClaimSubject::CommandExecuted,
        ClaimSubject::CommandSucceeded,
        ClaimSubject::FileWritten,
        ClaimSubject::FileDeleted,
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
            ClaimSubject::FileDeleted => "file_deleted",
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
    /// A tool named in the claim (`clippy`, `mypy`, `tsc`, `pytest`, ...). For a
    /// `command_succeeded` claim that writes no command, the task it names instead: `check`
    /// for "all checks pass" (the project's check script or target, whatever runs it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
}

/// What part of the work a claim is about: the whole suite (or project, or workspace), or one
/// named part of it. A claim is judged on the evidence for exactly its scope.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClaimScope {
    /// No narrower scope named: "the tests pass", "it builds".
    #[default]
    Whole,
    /// One named part: "the parser tests pass", "`test_refund` passes", "the `api` package
    /// builds". `name` is as the agent wrote it, normalised (no backticks, no `:line`).
    Named { unit: ScopeUnit, name: String },
}

/// The kind of unit a scoped claim names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ScopeUnit {
    /// A single test (`test_refund_rounding`, `parser::tests::empty`).
    Test,
    /// A test or source file (`tests/test_api.py`, `parser.test.ts`).
    File,
    /// A package, crate or Go package (`api`, `example.com/api`, `-p core`).
    Package,
    /// A module or directory (`src/parser`, `the parser module`).
    Module,
    /// A service or component named in prose ("the invoice-service tests").
    Service,
    /// A named suite or category ("the integration tests", "the slow tests").
    Suite,
}

/// How much a claim asserts about a scope.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClaimQuantity {
    /// A plain success claim: "tests pass", "it builds".
    #[default]
    Unqualified,
    /// "All tests pass", "everything is green": no failure anywhere in scope.
    All,
    /// "48 tests pass": at least `count` passed; says nothing about the rest.
    AtLeast { count: u64 },
    /// "All 48 tests pass", "48/48": at least `count` passed and none failed.
    AllOf { count: u64 },
    /// "No failures", "0 failed": none failed (says nothing of how many passed).
    NoneFailed,
}

/// Whose work a claim is about.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum ClaimActor {
    /// The agent itself (or its subagents): judged by the session's own evidence.
    #[default]
    Agent,
    /// Someone else ("my teammate's commit", "the release bot tagged it"): judged only by
    /// evidence about that work (a host lookup, or output showing it), never by the session's
    /// own unrelated actions.
    Other {
        /// Who, as the text names them ("teammate", "the release bot", "upstream").
        who: String,
    },
}

/// An assertion by the agent, in its own words, that something succeeded or was done.
///
/// A claim is one structured assertion (one clause: a sentence may hold several): a subject,
/// what it names ([`ClaimTarget`]), its [`ClaimScope`], its [`ClaimQuantity`] and whose work it
/// is about ([`ClaimActor`]). Only assertions of something done, positively, become claims:
/// hedges, plans, negations and admitted failures are not claims.
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
    #[serde(default, skip_serializing_if = "is_default")]
    pub scope: ClaimScope,
    #[serde(default, skip_serializing_if = "is_default")]
    pub quantity: ClaimQuantity,
    #[serde(default, skip_serializing_if = "is_default")]
    pub actor: ClaimActor,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
}

fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
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
    /// Why, typed: the rule and the facts it rested on (command, exit status, summary, time,
    /// freshness). [`Finding::rationale`] renders it.
    pub reason: crate::reason::Reason,
    /// Ids of the evidence the verdict rests on.
    #[serde(default)]
    pub evidence: Vec<String>,
    /// Which verifier rule decided (a stable diagnostic name: `<subject>.<rule>`).
    #[serde(default)]
    pub rule: String,
}

impl Finding {
    /// The rationale people read, rendered from [`Finding::reason`].
    pub fn rationale(&self) -> String {
        self.reason.render()
    }
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
