//! Why a finding has its verdict, typed: the rule that decided and the facts it rested on (the
//! runs, file changes, commits and lookups, and how each run's result was read).
//!
//! The sentence people read is rendered from a [`Reason`] by [`Reason::render`], the one
//! function every surface calls (the CLI, the web UI, MCP answers, exports), so a finding reads
//! the same everywhere. Rendering is pure and names no internal evidence id; a finding lists the
//! ids of its evidence beside the sentence.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use crate::canonical::EvidenceStrength;
use crate::evidence::FileOperation;
use crate::judgement::ScopeUnit;

/// Where on the session's timeline something happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum When {
    /// The runtime's timestamp.
    At { time: String },
    /// No timestamp: the position among the session's records.
    Position { index: u64 },
    /// Tied to no record (host lookups, evidence whose item is unknown).
    Unpositioned,
}

/// A command run the finding cites.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunFact {
    /// The command's first line, at most 120 characters (`…` when cut).
    pub command: String,
    pub when: When,
    /// A subagent's run cited for a claim of its parent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by_subagent: Option<String>,
}

/// A file change (or an attempt at one) the finding cites.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChangeFact {
    /// The tool or mechanism (`Edit`, `apply_patch`, `rm`, `shell_redirect`, ...).
    pub tool: String,
    /// `None` when the writer names no file (`git apply`, `patch`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    pub operation: FileOperation,
    pub when: When,
    /// What the attempt reported when it failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// How a run's result was read: each is one clause of the rationale.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reading {
    /// The call has no recorded result at all.
    NoResult,
    Interrupted,
    TimedOut,
    Exit {
        code: i64,
        strength: EvidenceStrength,
    },
    /// The line's exit status belongs to a later command (a pipe, `||`, `;`).
    ExitOfLaterCommand {
        code: i64,
        strength: EvidenceStrength,
    },
    NoExitStatus,
    /// The runtime marked the call failed without an exit status.
    MarkedFailed,
    Summary {
        runner: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        passed: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        failed: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        skipped: Option<u64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        filtered_out: Option<u64>,
    },
    /// The run selected a subset of the suite.
    Subset,
    /// The command failed but the summary reports no failing test.
    SummaryShowsNoFailure,
    NoTestsRan,
    /// A line of the output that decided the reading.
    OutputShows {
        line: String,
    },
    /// A line of the output that overrides a weaker signal (a heuristic exit 0).
    OutputContradicts {
        line: String,
    },
    /// A linter exited 0 but printed warnings.
    LintWarnings {
        line: String,
    },
    /// The output does not say whether the run passed.
    OutputSilent,
    /// A test run read as build evidence failed to compile.
    TestRunDidNotBuild {
        line: String,
    },
    /// A test run read as build evidence ran tests (so the code built).
    TestRunBuilt {
        runner: String,
    },
    /// A test run read as build evidence exited 0.
    TestRunExited {
        strength: EvidenceStrength,
    },
    /// A test run read as build evidence does not show whether the code built.
    TestRunSilentOnBuild,
    /// A tool the run needed could not start (command not found, missing toolchain).
    CouldNotStart {
        line: String,
    },
}

/// What kind of check a claim is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckKind {
    Test,
    Build,
    Lint,
    Command,
}

/// How a stale run had ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RunResult {
    Passed,
    Failed,
    Unclear,
}

/// What might have written a file after every recorded attempt failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum UnseenWriter {
    /// A writer that names no file (`git apply`).
    Unnamed { change: ChangeFact },
    /// A command that mentions the file.
    Command { run: RunFact },
}

/// A test summary's counts, as a count claim is judged on them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct TestCounts {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filtered_out: Option<u64>,
}

/// The number of passing tests a claim states: "48" (at least) or "all 48".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimedCount {
    pub count: u64,
    /// "All N": also claims that none failed.
    pub all: bool,
}

/// Why a finding has its verdict. Each variant is one rule; [`Reason::rule`] is its stable name.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "rule", rename_all = "snake_case")]
pub enum Reason {
    // --- what the capture cannot show ----------------------------------------------------
    /// Tool results cannot be observed (calls without any result, or declared so).
    OutputsUnobservable {
        calls_seen: bool,
    },
    /// Tool calls cannot be observed (declared so).
    CallsUnobservable,
    /// Neither tool calls nor file mutations can be observed (declared so).
    FileSignalsUnobservable,
    /// The capture records failed tool results only (a hook log with PostToolUseFailure and no
    /// PostToolUse): a success cannot appear in it. `failure` is what the evidence said when it
    /// showed a failure (no verdict can rest on it: a later success would be invisible).
    OnlyFailuresCaptured {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        failure: Option<Box<Reason>>,
    },
    /// A file change was attempted, but this capture never records results.
    AttemptUnobservable {
        change: ChangeFact,
    },
    /// The run's output is silent and the runtime cannot record exit statuses.
    ExitStatusUnobservable {
        run: RunFact,
    },

    // --- absence -----------------------------------------------------------------------
    NoRun {
        check: CheckKind,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        named: Option<String>,
    },
    NoCommand,
    NeverRan {
        command: String,
    },
    NoPath,
    Untouched {
        path: String,
        deletion: bool,
    },
    NoCommitRun,
    NoPushRun,
    /// A claim about another actor's work, with no evidence about that work in the session.
    OtherActorUnseen {
        who: String,
        about: String,
    },

    // --- runs ---------------------------------------------------------------------------
    Stale {
        run: RunFact,
        result: RunResult,
        readings: Vec<Reading>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        after: Option<ChangeFact>,
    },
    Failed {
        run: RunFact,
        readings: Vec<Reading>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fresh_after: Option<ChangeFact>,
    },
    Passed {
        run: RunFact,
        readings: Vec<Reading>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fresh_after: Option<ChangeFact>,
    },
    Inconclusive {
        run: RunFact,
        readings: Vec<Reading>,
    },
    FullPassThenFiltered {
        full: RunFact,
        full_readings: Vec<Reading>,
        filtered: RunFact,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fresh_after: Option<ChangeFact>,
    },
    Filtered {
        run: RunFact,
        readings: Vec<Reading>,
    },
    /// Only runs that could not start (command not found, missing toolchain or script): no
    /// run at all.
    NotStarted {
        check: CheckKind,
        run: RunFact,
        failure: String,
    },
    /// The run's output shows the claimed scope failing.
    ScopeFails {
        run: RunFact,
        unit: ScopeUnit,
        name: String,
        /// The scope as the runner reported it.
        reported: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fresh_after: Option<ChangeFact>,
    },
    /// The run's output shows the claimed scope passing.
    ScopePasses {
        run: RunFact,
        unit: ScopeUnit,
        name: String,
        matching: u32,
        /// Other scopes of the same run failed.
        others_failed: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fresh_after: Option<ChangeFact>,
    },
    /// A failing run that reports totals only: nothing about the claimed scope.
    ScopeUnknown {
        run: RunFact,
        readings: Vec<Reading>,
        unit: ScopeUnit,
        name: String,
    },
    /// Every run of the check selected another part of the project than the claimed scope.
    NoScopeRun {
        check: CheckKind,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        named: Option<String>,
        unit: ScopeUnit,
        name: String,
    },
    /// A scoped claim stating a count that the scope's own passing tests do not reach.
    ScopeCountShort {
        run: RunFact,
        unit: ScopeUnit,
        name: String,
        passed: u64,
        count: u64,
    },
    /// A failing build or lint run with errors located in the claimed scope.
    ScopeCheckFails {
        run: RunFact,
        readings: Vec<Reading>,
        unit: ScopeUnit,
        name: String,
        /// The file or package the errors are in, as the tool reported it.
        failing: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fresh_after: Option<ChangeFact>,
    },
    /// A failing build or lint run whose errors are elsewhere, or nowhere named.
    ScopeCheckUnknown {
        run: RunFact,
        readings: Vec<Reading>,
        unit: ScopeUnit,
        name: String,
        /// Where the errors are (at most five), empty when the output does not say.
        failing: Vec<String>,
    },
    /// At least the claimed number of tests passed.
    CountMet {
        run: RunFact,
        counts: TestCounts,
        count: u64,
        /// How the run's result was read besides its counts (the exit status).
        readings: Vec<Reading>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fresh_after: Option<ChangeFact>,
    },
    /// Fewer passed than claimed, but the run selected only part of the suite.
    CountFiltered {
        run: RunFact,
        counts: TestCounts,
        claimed: ClaimedCount,
    },
    /// Fewer passed than claimed in a full run.
    CountShort {
        run: RunFact,
        counts: TestCounts,
        claimed: ClaimedCount,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fresh_after: Option<ChangeFact>,
    },
    /// The output does not say how many tests passed.
    CountUnknown {
        run: RunFact,
        result: RunResult,
        readings: Vec<Reading>,
        claimed: ClaimedCount,
    },
    /// "No failures": the summary counts tests and no failure.
    NoneFailed {
        run: RunFact,
        runner: String,
        counts: TestCounts,
        readings: Vec<Reading>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        fresh_after: Option<ChangeFact>,
    },
    Ran {
        command: String,
        run: RunFact,
        runs: u32,
    },

    // --- files --------------------------------------------------------------------------
    Written {
        change: ChangeFact,
        writes: u32,
    },
    Deleted {
        change: ChangeFact,
    },
    LaterAttemptFailed {
        ok: ChangeFact,
        last: ChangeFact,
    },
    FailedThenUnseenWrite {
        path: String,
        last: ChangeFact,
        by: UnseenWriter,
    },
    WriteFailed {
        path: String,
        last: ChangeFact,
    },
    DeleteFailed {
        path: String,
        last: ChangeFact,
    },
    /// The file was already missing when the agent tried to delete it.
    AlreadyAbsent {
        path: String,
        last: ChangeFact,
    },
    OutcomeUnknown {
        change: ChangeFact,
    },

    // --- git ----------------------------------------------------------------------------
    HostCommitExists {
        sha: String,
        repository: String,
    },
    HostCommitConflicts {
        sha: String,
        repository: String,
        run: RunFact,
    },
    HostCommitMissing {
        sha: String,
        repository: String,
    },
    /// A commit listed by `git log`/`git show` in the session (someone's commit exists).
    CommitListed {
        sha: String,
        run: RunFact,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        summary: Option<String>,
    },
    ShaMatches {
        run: RunFact,
        sha: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        branch: Option<String>,
    },
    ShaDiffers {
        run: RunFact,
        sha: String,
        claimed: String,
    },
    CommitBranchDiffers {
        run: RunFact,
        sha: Option<String>,
        branch: String,
        claimed: String,
    },
    CommitCreated {
        run: RunFact,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        sha: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        branch: Option<String>,
    },
    NothingCommitted {
        run: RunFact,
        nothing_to_commit: bool,
    },
    CommitFailed {
        run: RunFact,
        readings: Vec<Reading>,
    },
    CommitExitZero {
        run: RunFact,
        readings: Vec<Reading>,
    },
    CommitUnconfirmed {
        run: RunFact,
        readings: Vec<Reading>,
    },
    PushBranchDiffers {
        run: RunFact,
        target: String,
        claimed: String,
    },
    PushUpdated {
        run: RunFact,
        target: String,
    },
    PushRejected {
        run: RunFact,
        target: String,
    },
    PushFailed {
        run: RunFact,
        readings: Vec<Reading>,
    },
    PushUpToDate {
        run: RunFact,
    },
    PushUnconfirmed {
        run: RunFact,
        readings: Vec<Reading>,
    },
}

impl Reason {
    /// The rule's stable diagnostic name (`latest_fresh_fails`, `write_failed`, ...).
    pub fn rule(&self) -> &'static str {
        match self {
            Reason::OutputsUnobservable { .. } => "unavailable.no_tool_output",
            Reason::CallsUnobservable => "unavailable.no_tool_calls",
            Reason::FileSignalsUnobservable => "unavailable.no_file_signal",
            Reason::OnlyFailuresCaptured { failure: None } => "unavailable.only_failures",
            Reason::OnlyFailuresCaptured { failure: Some(_) } => "failure_then_unobservable",
            Reason::AttemptUnobservable { .. } => "unavailable.no_tool_output",
            Reason::ExitStatusUnobservable { .. } => "unavailable.no_exit_status",
            Reason::NoRun { .. } => "no_run",
            Reason::NoCommand => "no_command",
            Reason::NeverRan { .. } => "never_ran",
            Reason::NoPath => "no_path",
            Reason::Untouched { .. } => "untouched",
            Reason::NoCommitRun => "no_commit_run",
            Reason::NoPushRun => "no_push_run",
            Reason::OtherActorUnseen { .. } => "other_actor_unseen",
            Reason::Stale { .. } => "stale",
            Reason::Failed { .. } => "latest_fresh_fails",
            Reason::Passed { .. } => "latest_fresh_passes",
            Reason::Inconclusive { .. } => "inconclusive",
            Reason::FullPassThenFiltered { .. } => "fresh_full_pass_then_filtered",
            Reason::Filtered { .. } => "filtered",
            Reason::NotStarted { .. } => "not_started",
            Reason::ScopeFails { .. } => "scope_fails",
            Reason::ScopePasses { .. } => "scope_passes",
            Reason::ScopeUnknown { .. } => "scope_unknown",
            Reason::NoScopeRun { .. } => "no_scope_run",
            Reason::ScopeCountShort { .. } => "scope_count_short",
            Reason::ScopeCheckFails { .. } => "scope_fails",
            Reason::ScopeCheckUnknown { .. } => "scope_unknown",
            Reason::CountMet { .. } => "count_met",
            Reason::CountFiltered { .. } => "count_filtered",
            Reason::CountShort { .. } => "count_short",
            Reason::CountUnknown { .. } => "count_unknown",
            Reason::NoneFailed { .. } => "none_failed",
            Reason::Ran { .. } => "ran",
            Reason::Written { .. } => "written",
            Reason::Deleted { .. } => "deleted",
            Reason::LaterAttemptFailed { .. } => "later_attempt_failed",
            Reason::FailedThenUnseenWrite { .. } => "failed_then_unseen_write",
            Reason::WriteFailed { .. } => "write_failed",
            Reason::DeleteFailed { .. } => "delete_failed",
            Reason::AlreadyAbsent { .. } => "already_absent",
            Reason::OutcomeUnknown { .. } => "outcome_unknown",
            Reason::HostCommitExists { .. } => "host_check_exists",
            Reason::HostCommitConflicts { .. } => "host_check_conflicts",
            Reason::HostCommitMissing { .. } => "host_check_missing",
            Reason::CommitListed { .. } => "commit_listed",
            Reason::ShaMatches { .. } => "sha_matches",
            Reason::ShaDiffers { .. } => "sha_differs",
            Reason::CommitBranchDiffers { .. } | Reason::PushBranchDiffers { .. } => {
                "branch_differs"
            }
            Reason::CommitCreated { .. } => "created",
            Reason::NothingCommitted { .. } => "not_created",
            Reason::CommitFailed { .. } => "commit_failed",
            Reason::CommitExitZero { .. } => "exit_zero",
            Reason::CommitUnconfirmed { .. } | Reason::PushUnconfirmed { .. } => "unconfirmed",
            Reason::PushUpdated { .. } => "updated",
            Reason::PushRejected { .. } => "rejected",
            Reason::PushFailed { .. } => "failed",
            Reason::PushUpToDate { .. } => "up_to_date",
        }
    }

    /// The rationale: one or two sentences for people, naming the commands, files, times and
    /// readings the verdict rests on.
    pub fn render(&self) -> String {
        let mut s = String::new();
        // Writing to a String cannot fail.
        let _ = self.write_to(&mut s);
        s
    }

    fn write_to(&self, s: &mut String) -> std::fmt::Result {
        const ABSENCE: &str = "absence of evidence is not a contradiction";
        match self {
            Reason::OutputsUnobservable { calls_seen: true } => s.push_str(
                "The capture records tool calls but no tool results at all (for example a hook configuration without PostToolUse), so the command's outcome cannot be observed.",
            ),
            Reason::OutputsUnobservable { calls_seen: false } => s.push_str(
                "The runtime declares that tool output cannot be observed in this capture.",
            ),
            Reason::CallsUnobservable => s.push_str(
                "The runtime declares that tool calls cannot be observed in this capture.",
            ),
            Reason::OnlyFailuresCaptured { failure: None } => s.push_str(
                "This capture records only failed tool results (PostToolUseFailure, no PostToolUse), so a success the claim needs cannot appear in it.",
            ),
            Reason::OnlyFailuresCaptured {
                failure: Some(inner),
            } => {
                inner.write_to(s)?;
                s.push_str(
                    " But this capture records only failed tool results (PostToolUseFailure, no PostToolUse): a later success would not appear in it, so the failure is not the last word.",
                )
            }
            Reason::FileSignalsUnobservable => s.push_str(
                "The runtime declares that neither tool calls nor file mutations can be observed in this capture.",
            ),
            Reason::AttemptUnobservable { change } => write!(
                s,
                "{} was attempted, but the capture records tool calls without any results, so whether it happened cannot be observed.",
                change_phrase(change)
            )?,
            Reason::ExitStatusUnobservable { run } => write!(
                s,
                "The latest relevant run {} shows no result in its output, and the runtime declares that exit statuses cannot be observed in this capture.",
                run_phrase(run)
            )?,
            Reason::NoRun { check, named } => write!(
                s,
                "No {} run{} appears in the session before the claim; {ABSENCE}.",
                check_word(*check),
                named.as_deref().map(|n| format!(" ({n})")).unwrap_or_default()
            )?,
            Reason::NoCommand => s.push_str("The claim names no command to look for."),
            Reason::NeverRan { command } => write!(
                s,
                "`{command}` does not appear among the commands run before the claim."
            )?,
            Reason::NoPath => s.push_str("The claim names no file."),
            Reason::Untouched { path, deletion } => write!(
                s,
                "Nothing in the session {} {path} before the claim; {ABSENCE}.",
                if *deletion { "deleted" } else { "wrote" }
            )?,
            Reason::NoCommitRun => write!(
                s,
                "No `git commit` appears in the session before the claim; {ABSENCE}."
            )?,
            Reason::NoPushRun => write!(
                s,
                "No `git push` appears in the session before the claim; {ABSENCE}."
            )?,
            Reason::OtherActorUnseen { who, about } => write!(
                s,
                "The claim is about {who}'s work ({about}); nothing in the session shows that work, and the session's own actions are not evidence about it."
            )?,
            Reason::Stale {
                run,
                result,
                readings,
                after,
            } => write!(
                s,
                "The latest relevant run {} {} ({}), but it is stale: {} came after it, and no run followed that edit before the claim.",
                run_phrase(run),
                result_word(*result),
                readings_phrase(readings),
                after
                    .as_ref()
                    .map(change_phrase)
                    .unwrap_or_else(|| "a later file modification".into())
            )?,
            Reason::Failed {
                run,
                readings,
                fresh_after,
            } => write!(
                s,
                "The latest relevant run {} failed: {}; {}.",
                run_phrase(run),
                readings_phrase(readings),
                fresh_phrase(fresh_after)
            )?,
            Reason::Passed {
                run,
                readings,
                fresh_after,
            } => write!(
                s,
                "The latest relevant run {} passed: {}; {}.",
                run_phrase(run),
                readings_phrase(readings),
                fresh_phrase(fresh_after)
            )?,
            Reason::Inconclusive { run, readings } => write!(
                s,
                "The latest relevant run {} is inconclusive: {}.",
                run_phrase(run),
                readings_phrase(readings)
            )?,
            Reason::FullPassThenFiltered {
                full,
                full_readings,
                filtered,
                fresh_after,
            } => write!(
                s,
                "A full run {} passed ({}) and the later filtered run {} passed too; {}.",
                run_phrase(full),
                readings_phrase(full_readings),
                run_phrase(filtered),
                fresh_phrase(fresh_after)
            )?,
            Reason::Filtered { run, readings } => write!(
                s,
                "The latest relevant run {} passed ({}), but it ran only part of the suite while the claim is about all of it.",
                run_phrase(run),
                readings_phrase(readings)
            )?,
            Reason::NotStarted {
                check,
                run,
                failure,
            } => write!(
                s,
                "The only {} run, {}, could not start (`{failure}`): that is no run, so nothing shows the result; {ABSENCE}.",
                check_word(*check),
                run_phrase(run)
            )?,
            Reason::ScopeFails {
                run,
                unit,
                name,
                reported,
                fresh_after,
            } => write!(
                s,
                "The latest relevant run {} shows the {} `{name}` failing ({} `{reported}`); {}.",
                run_phrase(run),
                unit_word(*unit),
                unit_word(*unit),
                fresh_phrase(fresh_after)
            )?,
            Reason::ScopePasses {
                run,
                unit,
                name,
                matching,
                others_failed,
                fresh_after,
            } => write!(
                s,
                "The latest relevant run {} shows the {} `{name}` passing ({matching} matching result(s), none failed){}; {}.",
                run_phrase(run),
                unit_word(*unit),
                if *others_failed {
                    ", although other scopes failed"
                } else {
                    ""
                },
                fresh_phrase(fresh_after)
            )?,
            Reason::ScopeUnknown {
                run,
                readings,
                unit,
                name,
            } => write!(
                s,
                "The latest relevant run {} failed ({}), but its output does not show the {} `{name}` either way.",
                run_phrase(run),
                readings_phrase(readings),
                unit_word(*unit)
            )?,
            Reason::NoScopeRun {
                check,
                named,
                unit,
                name,
            } => write!(
                s,
                "Every {} run{} before the claim selected another part of the project; none ran or showed the {} `{name}`, and {ABSENCE}.",
                check_word(*check),
                named.as_deref().map(|n| format!(" ({n})")).unwrap_or_default(),
                unit_word(*unit)
            )?,
            Reason::ScopeCountShort {
                run,
                unit,
                name,
                passed,
                count,
            } => write!(
                s,
                "The latest relevant run {} shows {passed} passing test(s) in the {} `{name}`, fewer than the {count} the claim states.",
                run_phrase(run),
                unit_word(*unit)
            )?,
            Reason::ScopeCheckFails {
                run,
                readings,
                unit,
                name,
                failing,
                fresh_after,
            } => write!(
                s,
                "The latest relevant run {} failed ({}), with errors in `{failing}`, which is the {} `{name}` the claim is about; {}.",
                run_phrase(run),
                readings_phrase(readings),
                unit_word(*unit),
                fresh_phrase(fresh_after)
            )?,
            Reason::ScopeCheckUnknown {
                run,
                readings,
                unit,
                name,
                failing,
            } => write!(
                s,
                "The latest relevant run {} failed ({}), but {}, and it does not show the {} `{name}` either way.",
                run_phrase(run),
                readings_phrase(readings),
                if failing.is_empty() {
                    "its output does not say where".to_string()
                } else {
                    format!("its errors are in `{}`", failing.join("`, `"))
                },
                unit_word(*unit)
            )?,
            Reason::CountMet {
                run,
                counts,
                count,
                readings,
                fresh_after,
            } => {
                write!(
                    s,
                    "The latest relevant run {} shows {}: at least the {count} passing tests the claim states{}",
                    run_phrase(run),
                    counts_phrase(counts),
                    if counts.failed.unwrap_or(0) > 0 {
                        " (the claim says nothing about the others)"
                    } else {
                        ""
                    },
                )?;
                // The counts are already said; the other readings (the exit status) follow.
                let others: Vec<Reading> = readings
                    .iter()
                    .filter(|r| !matches!(r, Reading::Summary { .. }))
                    .cloned()
                    .collect();
                if !others.is_empty() {
                    write!(s, " ({})", readings_phrase(&others))?;
                }
                write!(s, "; {}.", fresh_phrase(fresh_after))?
            }
            Reason::CountFiltered {
                run,
                counts,
                claimed,
            } => write!(
                s,
                "The latest relevant run {} shows {}, fewer than the {} passing tests the claim states, but it ran only part of the suite.",
                run_phrase(run),
                counts_phrase(counts),
                claimed_phrase(claimed)
            )?,
            Reason::CountShort {
                run,
                counts,
                claimed,
                fresh_after,
            } => write!(
                s,
                "The latest relevant run {} shows {}: fewer than the {} passing tests the claim states; {}.",
                run_phrase(run),
                counts_phrase(counts),
                claimed_phrase(claimed),
                fresh_phrase(fresh_after)
            )?,
            Reason::CountUnknown {
                run,
                result,
                readings,
                claimed,
            } => write!(
                s,
                "The latest relevant run {} {} ({}), but its output does not say how many tests passed, and the claim states {}.",
                run_phrase(run),
                result_word(*result),
                readings_phrase(readings),
                claimed_phrase(claimed)
            )?,
            Reason::NoneFailed {
                run,
                runner,
                counts,
                readings,
                fresh_after,
            } => write!(
                s,
                "The latest relevant run {} reports no failing test ({runner} {}), which is what the claim states ({}); {}.",
                run_phrase(run),
                counts_phrase(counts),
                readings_phrase(readings),
                fresh_phrase(fresh_after)
            )?,
            Reason::Ran { command, run, runs } => write!(
                s,
                "`{command}` ran: {} ({runs} matching run(s) before the claim).",
                run_phrase(run)
            )?,
            Reason::Written { change, writes } => write!(
                s,
                "{} succeeded ({writes} write(s) of the path before the claim).",
                change_phrase(change)
            )?,
            Reason::Deleted { change } => write!(s, "{} succeeded.", change_phrase(change))?,
            Reason::LaterAttemptFailed { ok, last } => write!(
                s,
                "{} succeeded, but a later attempt failed ({}); the file may not hold what the claim describes.",
                change_phrase(ok),
                change_phrase(last)
            )?,
            Reason::FailedThenUnseenWrite { path, last, by } => write!(
                s,
                "Every recorded attempt to write {path} failed (latest: {}), but later {} may have written it.",
                change_phrase(last),
                match by {
                    UnseenWriter::Unnamed { change } => format!(
                        "{} (which writes files it does not name)",
                        change_phrase(change)
                    ),
                    UnseenWriter::Command { run } =>
                        format!("{}, which mentions the file,", run_phrase(run)),
                }
            )?,
            Reason::WriteFailed { path, last } => write!(
                s,
                "Every attempt to write {path} failed; the latest, {}, reported{}. Nothing wrote it later.",
                change_phrase(last),
                error_phrase(last)
            )?,
            Reason::DeleteFailed { path, last } => write!(
                s,
                "Every attempt to delete {path} failed; the latest, {}, reported{}. Nothing deleted it later.",
                change_phrase(last),
                error_phrase(last)
            )?,
            Reason::AlreadyAbsent { path, last } => write!(
                s,
                "{} did not delete {path}: it reported{}, so the file was already gone and the session did not remove it.",
                change_phrase(last),
                error_phrase(last)
            )?,
            Reason::OutcomeUnknown { change } => write!(
                s,
                "{} was attempted, but its result was never recorded.",
                change_phrase(change)
            )?,
            Reason::HostCommitExists { sha, repository } => write!(
                s,
                "Commit {sha} exists in {repository} (host lookup on this machine)."
            )?,
            Reason::HostCommitConflicts {
                sha,
                repository,
                run,
            } => write!(
                s,
                "{} created commit {sha}, but a host lookup in {repository} on this machine does not find it.",
                run_phrase(run)
            )?,
            Reason::HostCommitMissing { sha, repository } => write!(
                s,
                "Commit {sha} does not exist in {repository} (host lookup on this machine)."
            )?,
            Reason::CommitListed { sha, run, summary } => write!(
                s,
                "{} lists commit {sha}{}.",
                run_phrase(run),
                summary
                    .as_deref()
                    .map(|t| format!(" ({t})"))
                    .unwrap_or_default()
            )?,
            Reason::ShaMatches { run, sha, branch } => write!(
                s,
                "{} created commit {sha} on {}, matching the claimed {sha}.",
                run_phrase(run),
                branch.as_deref().unwrap_or("an unnamed branch")
            )?,
            Reason::ShaDiffers { run, sha, claimed } => write!(
                s,
                "{} created commit {sha}, not the claimed {claimed}.",
                run_phrase(run)
            )?,
            Reason::CommitBranchDiffers {
                run,
                sha,
                branch,
                claimed,
            } => write!(
                s,
                "{} created commit {} on {branch}, while the claim names {claimed}.",
                run_phrase(run),
                sha.as_deref().unwrap_or("?")
            )?,
            Reason::CommitCreated { run, sha, branch } => write!(
                s,
                "{} created commit {} on {}.",
                run_phrase(run),
                sha.as_deref().unwrap_or("?"),
                branch.as_deref().unwrap_or("an unnamed branch")
            )?,
            Reason::NothingCommitted {
                run,
                nothing_to_commit,
            } => write!(
                s,
                "The latest commit attempt {} {}; no commit was created in the session.",
                run_phrase(run),
                if *nothing_to_commit {
                    "reported nothing to commit"
                } else {
                    "failed"
                }
            )?,
            Reason::CommitFailed { run, readings } => write!(
                s,
                "The latest commit attempt {} failed ({}); no commit was created in the session.",
                run_phrase(run),
                readings_phrase(readings)
            )?,
            Reason::CommitExitZero { run, readings } => write!(
                s,
                "{} succeeded ({}), though its output names no commit.",
                run_phrase(run),
                readings_phrase(readings)
            )?,
            Reason::CommitUnconfirmed { run, readings } => write!(
                s,
                "{} gives no commit sha to compare with the claim ({}).",
                run_phrase(run),
                readings_phrase(readings)
            )?,
            Reason::PushBranchDiffers {
                run,
                target,
                claimed,
            } => write!(
                s,
                "{} updated {target}, while the claim names {claimed}.",
                run_phrase(run)
            )?,
            Reason::PushUpdated { run, target } => {
                write!(s, "{} updated {target}.", run_phrase(run))?
            }
            Reason::PushRejected { run, target } => write!(
                s,
                "The latest push {} was rejected ({target}).",
                run_phrase(run)
            )?,
            Reason::PushFailed { run, readings } if readings.is_empty() => {
                write!(s, "The latest push {} failed.", run_phrase(run))?
            }
            Reason::PushFailed { run, readings } => write!(
                s,
                "The latest push {} failed ({}).",
                run_phrase(run),
                readings_phrase(readings)
            )?,
            Reason::PushUpToDate { run } => write!(
                s,
                "The latest push {} reported everything up-to-date: nothing new reached the remote.",
                run_phrase(run)
            )?,
            Reason::PushUnconfirmed { run, readings } => write!(
                s,
                "The latest push {} shows no recognisable result ({}).",
                run_phrase(run),
                readings_phrase(readings)
            )?,
        }
        Ok(())
    }

    /// Every free-text field (commands, paths, output lines, errors), for the redaction
    /// boundary.
    pub fn texts_mut(&mut self) -> Vec<&mut String> {
        let mut out: Vec<&mut String> = Vec::new();
        match self {
            Reason::OutputsUnobservable { .. }
            | Reason::CallsUnobservable
            | Reason::OnlyFailuresCaptured { failure: None }
            | Reason::FileSignalsUnobservable
            | Reason::NoCommand
            | Reason::NoPath
            | Reason::NoCommitRun
            | Reason::NoPushRun => {}
            Reason::OnlyFailuresCaptured {
                failure: Some(inner),
            } => out.extend(inner.texts_mut()),
            Reason::AttemptUnobservable { change }
            | Reason::OutcomeUnknown { change }
            | Reason::Deleted { change }
            | Reason::Written { change, .. } => change_texts(change, &mut out),
            Reason::ExitStatusUnobservable { run } | Reason::PushUpToDate { run } => {
                out.push(&mut run.command)
            }
            Reason::PushUpdated { run, target } | Reason::PushRejected { run, target } => {
                out.push(&mut run.command);
                out.push(target);
            }
            Reason::NoRun { named, .. } => out.extend(named.as_mut()),
            Reason::NeverRan { command } => out.push(command),
            Reason::Untouched { path, .. } => out.push(path),
            Reason::OtherActorUnseen { who, about } => {
                out.push(who);
                out.push(about);
            }
            Reason::Stale {
                run,
                readings,
                after,
                ..
            } => {
                out.push(&mut run.command);
                readings_texts(readings, &mut out);
                if let Some(c) = after {
                    change_texts(c, &mut out);
                }
            }
            Reason::Failed {
                run,
                readings,
                fresh_after,
            }
            | Reason::Passed {
                run,
                readings,
                fresh_after,
            } => {
                out.push(&mut run.command);
                readings_texts(readings, &mut out);
                if let Some(c) = fresh_after {
                    change_texts(c, &mut out);
                }
            }
            Reason::Inconclusive { run, readings }
            | Reason::Filtered { run, readings }
            | Reason::CommitFailed { run, readings }
            | Reason::CommitExitZero { run, readings }
            | Reason::CommitUnconfirmed { run, readings }
            | Reason::PushFailed { run, readings }
            | Reason::PushUnconfirmed { run, readings } => {
                out.push(&mut run.command);
                readings_texts(readings, &mut out);
            }
            Reason::FullPassThenFiltered {
                full,
                full_readings,
                filtered,
                fresh_after,
            } => {
                out.push(&mut full.command);
                readings_texts(full_readings, &mut out);
                out.push(&mut filtered.command);
                if let Some(c) = fresh_after {
                    change_texts(c, &mut out);
                }
            }
            Reason::NotStarted { run, failure, .. } => {
                out.push(&mut run.command);
                out.push(failure);
            }
            Reason::ScopeFails {
                run,
                name,
                reported,
                fresh_after,
                ..
            } => {
                out.push(&mut run.command);
                out.push(name);
                out.push(reported);
                if let Some(c) = fresh_after {
                    change_texts(c, &mut out);
                }
            }
            Reason::ScopePasses {
                run,
                name,
                fresh_after,
                ..
            } => {
                out.push(&mut run.command);
                out.push(name);
                if let Some(c) = fresh_after {
                    change_texts(c, &mut out);
                }
            }
            Reason::ScopeUnknown {
                run,
                readings,
                name,
                ..
            } => {
                out.push(&mut run.command);
                readings_texts(readings, &mut out);
                out.push(name);
            }
            Reason::NoScopeRun { named, name, .. } => {
                out.extend(named.as_mut());
                out.push(name);
            }
            Reason::ScopeCountShort { run, name, .. } => {
                out.push(&mut run.command);
                out.push(name);
            }
            Reason::ScopeCheckFails {
                run,
                readings,
                name,
                failing,
                fresh_after,
                ..
            } => {
                out.push(&mut run.command);
                readings_texts(readings, &mut out);
                out.push(name);
                out.push(failing);
                if let Some(c) = fresh_after {
                    change_texts(c, &mut out);
                }
            }
            Reason::ScopeCheckUnknown {
                run,
                readings,
                name,
                failing,
                ..
            } => {
                out.push(&mut run.command);
                readings_texts(readings, &mut out);
                out.push(name);
                out.extend(failing.iter_mut());
            }
            Reason::CountMet {
                run,
                readings,
                fresh_after,
                ..
            } => {
                out.push(&mut run.command);
                readings_texts(readings, &mut out);
                if let Some(c) = fresh_after {
                    change_texts(c, &mut out);
                }
            }
            Reason::CountShort {
                run, fresh_after, ..
            } => {
                out.push(&mut run.command);
                if let Some(c) = fresh_after {
                    change_texts(c, &mut out);
                }
            }
            Reason::CountFiltered { run, .. } => out.push(&mut run.command),
            Reason::CountUnknown { run, readings, .. } => {
                out.push(&mut run.command);
                readings_texts(readings, &mut out);
            }
            Reason::NoneFailed {
                run,
                runner,
                readings,
                fresh_after,
                ..
            } => {
                out.push(&mut run.command);
                out.push(runner);
                readings_texts(readings, &mut out);
                if let Some(c) = fresh_after {
                    change_texts(c, &mut out);
                }
            }
            Reason::Ran { command, run, .. } => {
                out.push(command);
                out.push(&mut run.command);
            }
            Reason::LaterAttemptFailed { ok, last } => {
                change_texts(ok, &mut out);
                change_texts(last, &mut out);
            }
            Reason::FailedThenUnseenWrite { path, last, by } => {
                out.push(path);
                change_texts(last, &mut out);
                match by {
                    UnseenWriter::Unnamed { change } => change_texts(change, &mut out),
                    UnseenWriter::Command { run } => out.push(&mut run.command),
                }
            }
            Reason::WriteFailed { path, last }
            | Reason::DeleteFailed { path, last }
            | Reason::AlreadyAbsent { path, last } => {
                out.push(path);
                change_texts(last, &mut out);
            }
            Reason::HostCommitExists { repository, .. }
            | Reason::HostCommitMissing { repository, .. } => out.push(repository),
            Reason::HostCommitConflicts {
                repository, run, ..
            } => {
                out.push(repository);
                out.push(&mut run.command);
            }
            Reason::CommitListed { run, summary, .. } => {
                out.push(&mut run.command);
                out.extend(summary.as_mut());
            }
            Reason::ShaMatches { run, branch, .. } | Reason::CommitCreated { run, branch, .. } => {
                out.push(&mut run.command);
                out.extend(branch.as_mut());
            }
            Reason::ShaDiffers { run, .. } | Reason::NothingCommitted { run, .. } => {
                out.push(&mut run.command)
            }
            Reason::CommitBranchDiffers {
                run,
                branch,
                claimed,
                ..
            } => {
                out.push(&mut run.command);
                out.push(branch);
                out.push(claimed);
            }
            Reason::PushBranchDiffers {
                run,
                target,
                claimed,
            } => {
                out.push(&mut run.command);
                out.push(target);
                out.push(claimed);
            }
        }
        out
    }
}

fn change_texts<'a>(c: &'a mut ChangeFact, out: &mut Vec<&'a mut String>) {
    out.push(&mut c.tool);
    out.extend(c.path.as_mut());
    out.extend(c.error.as_mut());
}

fn readings_texts<'a>(readings: &'a mut [Reading], out: &mut Vec<&'a mut String>) {
    for r in readings {
        match r {
            Reading::Summary { runner, .. } | Reading::TestRunBuilt { runner } => out.push(runner),
            Reading::OutputShows { line }
            | Reading::OutputContradicts { line }
            | Reading::LintWarnings { line }
            | Reading::TestRunDidNotBuild { line }
            | Reading::CouldNotStart { line } => out.push(line),
            _ => {}
        }
    }
}

fn unit_word(unit: ScopeUnit) -> &'static str {
    match unit {
        ScopeUnit::Test => "test",
        ScopeUnit::File => "file",
        ScopeUnit::Package => "package",
        ScopeUnit::Module => "module",
        ScopeUnit::Service => "service",
        ScopeUnit::Suite => "suite",
    }
}

fn result_word(result: RunResult) -> &'static str {
    match result {
        RunResult::Passed => "passed",
        RunResult::Failed => "failed",
        RunResult::Unclear => "had no clear result",
    }
}

/// `48 passed, 1 failed, 2 skipped`: absent counts are left out, zero skips and filters too.
fn counts_phrase(c: &TestCounts) -> String {
    let mut parts = Vec::new();
    if let Some(n) = c.passed {
        parts.push(format!("{n} passed"));
    }
    if let Some(n) = c.failed {
        parts.push(format!("{n} failed"));
    }
    if let Some(n) = c.skipped.filter(|n| *n > 0) {
        parts.push(format!("{n} skipped"));
    }
    if let Some(n) = c.filtered_out.filter(|n| *n > 0) {
        parts.push(format!("{n} filtered out"));
    }
    if parts.is_empty() {
        parts.push("no counts".into());
    }
    parts.join(", ")
}

fn claimed_phrase(c: &ClaimedCount) -> String {
    if c.all {
        format!("all {}", c.count)
    } else {
        c.count.to_string()
    }
}

fn check_word(check: CheckKind) -> &'static str {
    match check {
        CheckKind::Test => "test",
        CheckKind::Build => "build",
        CheckKind::Lint => "lint",
        CheckKind::Command => "matching",
    }
}

fn when_phrase(when: &When) -> String {
    match when {
        When::At { time } => format!("at {time}"),
        When::Position { index } => format!("at timeline position {index} (no runtime timestamp)"),
        When::Unpositioned => "(not tied to a timeline item)".to_string(),
    }
}

fn run_phrase(run: &RunFact) -> String {
    let by = run
        .by_subagent
        .as_deref()
        .map(|a| format!(" by subagent {a}"))
        .unwrap_or_default();
    format!("`{}`{by} {}", run.command, when_phrase(&run.when))
}

fn change_phrase(c: &ChangeFact) -> String {
    let path = c.path.as_deref().unwrap_or("files it does not name");
    let what = if c.operation == FileOperation::Delete {
        "deletion"
    } else {
        "write"
    };
    format!("{} {what} of {path} {}", c.tool, when_phrase(&c.when))
}

fn error_phrase(c: &ChangeFact) -> String {
    c.error
        .as_deref()
        .map(|e| format!(": {e}"))
        .unwrap_or_default()
}

fn fresh_phrase(after: &Option<ChangeFact>) -> String {
    match after {
        Some(c) => format!(
            "it is fresh (after the last file modification, {})",
            change_phrase(c)
        ),
        None => "no file was modified after it".to_string(),
    }
}

fn strength_word(s: EvidenceStrength) -> &'static str {
    match s {
        EvidenceStrength::Structural => "structural",
        EvidenceStrength::Heuristic => "heuristic",
    }
}

fn reading_phrase(r: &Reading) -> String {
    match r {
        Reading::NoResult => "no result was ever recorded for the call".into(),
        Reading::Interrupted => "the call was interrupted".into(),
        Reading::TimedOut => "the call timed out".into(),
        Reading::Exit { code, strength } => format!("exit {code} ({})", strength_word(*strength)),
        Reading::ExitOfLaterCommand { code, strength } => format!(
            "exit {code} ({}) belongs to a later command of the line (a pipe, `||` or `;`)",
            strength_word(*strength)
        ),
        Reading::NoExitStatus => "no exit status recorded".into(),
        Reading::MarkedFailed => "the runtime marked the call failed".into(),
        Reading::Summary {
            runner,
            passed,
            failed,
            skipped,
            filtered_out,
        } => {
            let counts = TestCounts {
                passed: *passed,
                failed: *failed,
                skipped: *skipped,
                filtered_out: *filtered_out,
            };
            format!("summary ({runner} {})", counts_phrase(&counts))
        }
        Reading::Subset => "the run selected a subset of the suite".into(),
        Reading::SummaryShowsNoFailure => "but the summary reports no failing test".into(),
        Reading::NoTestsRan => "no tests ran".into(),
        Reading::OutputShows { line } => format!("output shows `{line}`"),
        Reading::OutputContradicts { line } => format!("but the output shows `{line}`"),
        Reading::LintWarnings { line } => format!("but the output reports warnings (`{line}`)"),
        Reading::OutputSilent => "the output does not say whether it passed".into(),
        Reading::TestRunDidNotBuild { line } => {
            format!("the test run could not build the code: `{line}`")
        }
        Reading::TestRunBuilt { runner } => {
            format!("the code built and the tests ran ({runner} summary reported)")
        }
        Reading::TestRunExited { strength } => {
            format!("the test run exited 0 ({})", strength_word(*strength))
        }
        Reading::TestRunSilentOnBuild => "the test run does not show whether the code built".into(),
        Reading::CouldNotStart { line } => format!("the tool could not start: `{line}`"),
    }
}

fn readings_phrase(readings: &[Reading]) -> String {
    if readings.is_empty() {
        return "nothing was read from it".to_string();
    }
    readings
        .iter()
        .map(reading_phrase)
        .collect::<Vec<_>>()
        .join("; ")
}

/// A finding's reason as the store keeps it: typed, or the sentence a release that predates
/// typed reasons wrote.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "form", rename_all = "snake_case")]
pub enum StoredReason {
    Typed { reason: Box<Reason> },
    Legacy { rationale: String },
}

impl StoredReason {
    /// The rationale people read (see [`Reason::render`]).
    pub fn render(&self) -> String {
        match self {
            StoredReason::Typed { reason } => reason.render(),
            StoredReason::Legacy { rationale } => rationale.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(command: &str) -> RunFact {
        RunFact {
            command: command.into(),
            when: When::At {
                time: "2026-05-04T10:00:08Z".into(),
            },
            by_subagent: None,
        }
    }

    #[test]
    fn renders_without_evidence_ids() {
        let reason = Reason::Failed {
            run: run("pytest -q | tail -3"),
            readings: vec![
                Reading::ExitOfLaterCommand {
                    code: 0,
                    strength: EvidenceStrength::Structural,
                },
                Reading::Summary {
                    runner: "pytest".into(),
                    passed: Some(41),
                    failed: Some(1),
                    skipped: None,
                    filtered_out: None,
                },
            ],
            fresh_after: None,
        };
        let text = reason.render();
        assert_eq!(
            text,
            "The latest relevant run `pytest -q | tail -3` at 2026-05-04T10:00:08Z failed: exit 0 (structural) belongs to a later command of the line (a pipe, `||` or `;`); summary (pytest 41 passed, 1 failed); no file was modified after it."
        );
        assert!(!text.contains('['));
        assert_eq!(reason.rule(), "latest_fresh_fails");
    }

    #[test]
    fn count_and_scope_reasons_say_what_decided() {
        let counts = TestCounts {
            passed: Some(17),
            failed: Some(0),
            skipped: None,
            filtered_out: None,
        };
        let met = Reason::CountMet {
            run: run("cargo test"),
            counts,
            count: 17,
            readings: vec![
                Reading::Exit {
                    code: 0,
                    strength: EvidenceStrength::Heuristic,
                },
                Reading::Summary {
                    runner: "cargo".into(),
                    passed: Some(17),
                    failed: Some(0),
                    skipped: None,
                    filtered_out: None,
                },
            ],
            fresh_after: None,
        };
        assert_eq!(
            met.render(),
            "The latest relevant run `cargo test` at 2026-05-04T10:00:08Z shows 17 passed, 0 failed: at least the 17 passing tests the claim states (exit 0 (heuristic)); no file was modified after it."
        );
        let short = Reason::CountShort {
            run: run("cargo test"),
            counts,
            claimed: ClaimedCount {
                count: 48,
                all: true,
            },
            fresh_after: None,
        };
        assert!(short
            .render()
            .contains("fewer than the all 48 passing tests"));
        assert_eq!(short.rule(), "count_short");
        let unknown = Reason::ScopeCheckUnknown {
            run: run("tsc --noEmit"),
            readings: vec![Reading::Exit {
                code: 2,
                strength: EvidenceStrength::Structural,
            }],
            unit: ScopeUnit::File,
            name: "src/table.tsx".into(),
            failing: vec!["src/a.ts".into(), "src/b.ts".into()],
        };
        assert!(
            unknown
                .render()
                .contains("its errors are in `src/a.ts`, `src/b.ts`, and it does not show the file `src/table.tsx`"),
            "{}",
            unknown.render()
        );
        let mut none = unknown;
        if let Reason::ScopeCheckUnknown { failing, .. } = &mut none {
            failing.clear();
        }
        assert!(none.render().contains("its output does not say where"));
        let json = serde_json::to_string(&none).unwrap();
        assert_eq!(serde_json::from_str::<Reason>(&json).unwrap(), none);
    }

    #[test]
    fn reasons_round_trip_as_json() {
        let reason = Reason::DeleteFailed {
            path: "vendor/a.js".into(),
            last: ChangeFact {
                tool: "rm".into(),
                path: Some("vendor/a.js".into()),
                operation: FileOperation::Delete,
                when: When::Position { index: 4 },
                error: Some("Permission denied".into()),
            },
        };
        let json = serde_json::to_string(&reason).unwrap();
        assert!(json.contains("\"rule\":\"delete_failed\""), "{json}");
        let back: Reason = serde_json::from_str(&json).unwrap();
        assert_eq!(back, reason);
        assert!(reason.render().contains("Permission denied"));
        let stored = StoredReason::Typed {
            reason: Box::new(reason),
        };
        let back: StoredReason =
            serde_json::from_str(&serde_json::to_string(&stored).unwrap()).unwrap();
        assert_eq!(back.render(), stored.render());
    }

    #[test]
    fn every_text_is_reachable_for_redaction() {
        let mut reason = Reason::Stale {
            run: run("deploy --token SECRET"),
            result: RunResult::Passed,
            readings: vec![Reading::OutputShows {
                line: "SECRET ok".into(),
            }],
            after: Some(ChangeFact {
                tool: "Edit".into(),
                path: Some("SECRET.env".into()),
                operation: FileOperation::Update,
                when: When::Unpositioned,
                error: None,
            }),
        };
        for t in reason.texts_mut() {
            *t = t.replace("SECRET", "[redacted]");
        }
        assert!(!reason.render().contains("SECRET"), "{}", reason.render());
    }
}
