//! Verifiers: one pure function per claim subject, `(claim, observations) -> Finding`.
//!
//! The rule everywhere: look at the latest relevant evidence the claim could have rested on
//! (evidence up to the moment the claim was made; everything for a final answer), and at
//! whether a file was modified after it.
//!
//! * VERIFIED - the latest relevant, fresh, full evidence confirms the claim.
//! * CONTRADICTED - the latest relevant fresh evidence says the opposite. Never for absence.
//! * UNVERIFIED - nothing relevant happened.
//! * REVIEW - evidence exists but is partial, filtered, stale, interrupted or conflicting.
//! * UNAVAILABLE - the capture cannot show the signal the claim needs.

use fornax_types::evidence::GitOutcomeKind;
use fornax_types::{Claim, ClaimSubject, EvidenceStrength, Finding, Verdict};

use crate::commands::{self, exit_reflects, names_command, CommandKind};
use crate::diagnostics::Reading;
use crate::gitout::{self, sha_matches, GitOp};
use crate::observe::{Change, Observations, Run, UNPOSITIONED};
use crate::paths::same_file;

/// When a claim was made, for choosing the evidence it may rest on.
#[derive(Debug, Clone, Copy)]
pub struct Moment {
    /// Timeline index of the claim's item.
    pub pos: usize,
    /// Nothing happened after the claim (a final answer): all evidence counts, including
    /// evidence tied to no item.
    pub is_final: bool,
}

impl Moment {
    fn sees(&self, pos: usize) -> bool {
        self.is_final || (pos < self.pos && pos != UNPOSITIONED)
    }
}

struct Verdicts<'a> {
    claim: &'a Claim,
    obs: &'a Observations,
    at: Moment,
}

fn finding(
    claim: &Claim,
    verdict: Verdict,
    rule: &str,
    rationale: String,
    evidence: Vec<String>,
) -> Finding {
    let mut evidence = evidence;
    evidence.dedup();
    Finding {
        claim_id: claim.id.clone(),
        session: claim.session.clone(),
        verdict,
        rationale,
        evidence,
        rule: format!("{}.{}", claim.subject.as_str(), rule),
    }
}

/// Judges one claim.
pub fn judge(claim: &Claim, obs: &Observations, at: Moment) -> Finding {
    let v = Verdicts { claim, obs, at };
    match claim.subject {
        ClaimSubject::TestResult => v.check(CommandKind::Test),
        ClaimSubject::BuildResult => v.check(CommandKind::Build),
        ClaimSubject::LintResult => v.check(CommandKind::Lint),
        ClaimSubject::CommandSucceeded => v.command_succeeded(),
        ClaimSubject::CommandExecuted => v.command_executed(),
        ClaimSubject::FileWritten => v.file_written(),
        ClaimSubject::GitCommit => v.git_commit(),
        ClaimSubject::GitPush => v.git_push(),
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Outcome {
    Pass { full: bool },
    Fail,
    Unknown,
}

#[derive(Debug, Clone)]
struct Judged {
    outcome: Outcome,
    /// How the outcome was read, for the rationale.
    detail: String,
}

fn strength(s: EvidenceStrength) -> &'static str {
    match s {
        EvidenceStrength::Structural => "structural",
        EvidenceStrength::Heuristic => "heuristic",
    }
}

fn when(pos: usize, at: &Option<String>) -> String {
    match at {
        Some(t) => format!("at {t}"),
        None if pos == UNPOSITIONED => "(not tied to a timeline item)".to_string(),
        None => format!("at timeline position {pos} (no runtime timestamp)"),
    }
}

fn ids(list: &[String]) -> String {
    if list.is_empty() {
        String::new()
    } else {
        format!(" [{}]", list.join(", "))
    }
}

fn describe_run(run: &Run) -> String {
    let mut ev = run.evidence_ids();
    if ev.is_empty() {
        if let Some(k) = &run.call_key {
            ev.push(format!("call {k}"));
        }
    }
    format!(
        "`{}` {}{}",
        short(&run.command),
        when(run.pos, &run.at),
        ids(&ev)
    )
}

fn describe_change(c: &Change) -> String {
    let path = if c.path.is_empty() {
        "files it does not name".to_string()
    } else {
        c.path.clone()
    };
    let ev = c
        .evidence_id
        .clone()
        .map(|i| vec![i])
        .unwrap_or_else(|| vec![format!("call {}", c.item_key)]);
    format!("{} of {} {}{}", c.tool, path, when(c.pos, &c.at), ids(&ev))
}

fn short(command: &str) -> String {
    let one_line = command.lines().next().unwrap_or("").trim();
    let mut s: String = one_line.chars().take(120).collect();
    if one_line.chars().count() > 120 || command.lines().count() > 1 {
        s.push('…');
    }
    s
}

/// Reads a run's outcome for a claim of `kind` (or about the command itself when `None`),
/// where `idx` is the invocation the claim is about.
fn run_outcome(run: &Run, idx: Option<usize>, kind: Option<CommandKind>) -> Judged {
    if !run.has_output {
        return Judged {
            outcome: Outcome::Unknown,
            detail: "no result was ever recorded for the call".into(),
        };
    }
    let class_at = idx
        .and_then(|i| run.classes.iter().find(|(j, _)| *j == i))
        .map(|(_, c)| c);
    if kind == Some(CommandKind::Build) && class_at.is_some_and(|c| c.kind == CommandKind::Test) {
        return build_from_test_run(run);
    }
    let mut notes: Vec<String> = Vec::new();
    let exit = run.exit.as_ref();
    if exit.is_some_and(|e| e.interrupted == Some(true)) {
        return Judged {
            outcome: Outcome::Unknown,
            detail: "the call was interrupted".into(),
        };
    }
    if exit.is_some_and(|e| e.timed_out == Some(true)) {
        return Judged {
            outcome: Outcome::Unknown,
            detail: "the call timed out".into(),
        };
    }
    let class_filtered = idx
        .and_then(|i| run.classes.iter().find(|(j, _)| *j == i))
        .is_some_and(|(_, c)| c.filtered);
    let summary_counts = matches!(
        kind,
        None | Some(CommandKind::Test) | Some(CommandKind::Other)
    );
    let summary = run.summary.as_ref().filter(|_| summary_counts);
    let filtered = class_filtered || summary.is_some_and(|s| s.filtered == Some(true));
    let attributable = idx.is_none_or(|i| exit_reflects(&run.invocations, i));
    if let Some(s) = summary {
        let desc = crate::testsummary::Summary {
            runner: "",
            passed: s.passed,
            failed: s.failed,
            skipped: s.skipped,
            filtered_out: s.filtered_out,
        }
        .describe();
        notes.push(format!(
            "summary ({}{})",
            s.runner,
            desc.trim_start_matches(':')
        ));
        if s.failed.unwrap_or(0) > 0 {
            return Judged {
                outcome: Outcome::Fail,
                detail: notes.join("; "),
            };
        }
    }
    let summary_clean = summary
        .is_some_and(|s| s.failed == Some(0) && (s.passed.unwrap_or(0) > 0 || s.passed.is_none()));
    let summary_empty = summary.is_some_and(|s| s.failed == Some(0) && s.passed == Some(0));
    let reading = match kind {
        Some(CommandKind::Lint) => run.lint_reading.as_ref(),
        Some(CommandKind::Build) | Some(CommandKind::Test) => run.build_reading.as_ref(),
        _ => None,
    };
    let pass = |notes: &mut Vec<String>| -> Judged {
        if filtered {
            notes.push("the run selected a subset of the suite".into());
        }
        Judged {
            outcome: Outcome::Pass { full: !filtered },
            detail: notes.join("; "),
        }
    };
    match exit.and_then(|e| e.exit_code.map(|c| (c, e.strength))) {
        Some((code, s)) if attributable => {
            notes.insert(0, format!("exit {code} ({})", strength(s)));
            if code != 0 && summary_clean && kind == Some(CommandKind::Test) {
                // The tests passed and the command failed for another reason (a coverage
                // threshold, a teardown): the signals conflict.
                notes.push("but the summary reports no failing test".into());
                return Judged {
                    outcome: Outcome::Unknown,
                    detail: notes.join("; "),
                };
            }
            if code != 0 {
                return Judged {
                    outcome: Outcome::Fail,
                    detail: notes.join("; "),
                };
            }
            if summary_empty {
                notes.push("no tests ran".into());
                return Judged {
                    outcome: Outcome::Unknown,
                    detail: notes.join("; "),
                };
            }
            // A heuristic 0 (assumed from a call not marked failed) is weaker than an output
            // that shows the build or lint failing.
            if s == EvidenceStrength::Heuristic
                && matches!(kind, Some(CommandKind::Build | CommandKind::Lint))
            {
                if let Some(Reading::Failed(line)) = reading {
                    notes.push(format!("but the output shows `{line}`"));
                    return Judged {
                        outcome: Outcome::Fail,
                        detail: notes.join("; "),
                    };
                }
            }
            if kind == Some(CommandKind::Lint) {
                if let Some(w) = &run.lint_warning {
                    // Exit 0 with warnings: not the clean result a lint claim describes.
                    notes.push(format!("but the output reports warnings (`{w}`)"));
                    return Judged {
                        outcome: Outcome::Unknown,
                        detail: notes.join("; "),
                    };
                }
            }
            pass(&mut notes)
        }
        Some((code, s)) => {
            notes.insert(
                0,
                format!(
                    "exit {code} ({}) belongs to a later command of the line (a pipe, `||` or `;`)",
                    strength(s)
                ),
            );
            decide_without_exit(summary_clean, reading, notes, pass)
        }
        None => {
            if exit.is_some_and(|e| e.failed == Some(true)) && attributable {
                notes.insert(0, "the runtime marked the call failed".into());
                return Judged {
                    outcome: Outcome::Fail,
                    detail: notes.join("; "),
                };
            }
            notes.insert(0, "no exit status recorded".into());
            decide_without_exit(summary_clean, reading, notes, pass)
        }
    }
}

/// A test run read as a build: compile errors fail it; tests that ran (whatever their result)
/// or a clean exit show that the code built.
fn build_from_test_run(run: &Run) -> Judged {
    if let Some(Reading::Failed(line)) = &run.build_reading {
        return Judged {
            outcome: Outcome::Fail,
            detail: format!("the test run could not build the code: `{line}`"),
        };
    }
    if let Some(s) = &run.summary {
        return Judged {
            outcome: Outcome::Pass { full: true },
            detail: format!(
                "the code built and the tests ran ({} summary reported)",
                s.runner
            ),
        };
    }
    match run
        .exit
        .as_ref()
        .and_then(|e| e.exit_code.map(|c| (c, e.strength)))
    {
        Some((0, s)) => Judged {
            outcome: Outcome::Pass { full: true },
            detail: format!("the test run exited 0 ({})", strength(s)),
        },
        _ => Judged {
            outcome: Outcome::Unknown,
            detail: "the test run does not show whether the code built".into(),
        },
    }
}

fn decide_without_exit(
    summary_clean: bool,
    reading: Option<&Reading>,
    mut notes: Vec<String>,
    pass: impl Fn(&mut Vec<String>) -> Judged,
) -> Judged {
    if summary_clean {
        return pass(&mut notes);
    }
    match reading {
        Some(Reading::Failed(line)) => {
            notes.push(format!("output shows `{line}`"));
            Judged {
                outcome: Outcome::Fail,
                detail: notes.join("; "),
            }
        }
        Some(Reading::Succeeded(line)) => {
            notes.push(format!("output shows `{line}`"));
            pass(&mut notes)
        }
        None => {
            notes.push("the output does not say whether it passed".into());
            Judged {
                outcome: Outcome::Unknown,
                detail: notes.join("; "),
            }
        }
    }
}

/// Tool ids that name the same tool.
fn tool_family(tool: &str) -> &str {
    match tool {
        "nextest" | "cargo-test" | "cargo" => "cargo-test",
        "go" | "go-test" => "go-test",
        "ruff-format" => "ruff",
        "junit" | "maven" | "gradle" => "junit",
        other => other,
    }
}

impl Verdicts<'_> {
    fn make(
        &self,
        verdict: Verdict,
        rule: &str,
        rationale: String,
        evidence: Vec<String>,
    ) -> Finding {
        finding(self.claim, verdict, rule, rationale, evidence)
    }

    /// The latest file modification (successful or of unknown outcome) the claim can see.
    /// The latest file modification the claim can see that may change a command's result:
    /// successful or of unknown outcome, and not a documentation-only file.
    fn last_modification(&self) -> Option<&Change> {
        self.obs
            .changes
            .iter()
            .filter(|c| {
                self.at.sees(c.pos) && c.succeeded != Some(false) && !is_documentation(&c.path)
            })
            .max_by_key(|c| c.pos)
    }

    /// The first such modification after `pos`.
    fn modification_after(&self, pos: usize) -> Option<&Change> {
        self.obs
            .changes
            .iter()
            .filter(|c| {
                self.at.sees(c.pos)
                    && c.succeeded != Some(false)
                    && c.pos > pos
                    && !is_documentation(&c.path)
            })
            .min_by_key(|c| c.pos)
    }

    fn unavailable_outputs(&self, relevant_calls: bool) -> Option<Finding> {
        let o = &self.obs.observability;
        if o.outputs_unobservable() && (relevant_calls || o.calls_unobservable() || !o.any_call) {
            let why = if o.any_call {
                "the capture records tool calls but no tool results at all (for example a hook configuration without PostToolUse), so the command's outcome cannot be observed"
            } else {
                "the runtime declares that tool output cannot be observed in this capture"
            };
            return Some(self.make(
                Verdict::Unavailable,
                "unavailable.no_tool_output",
                why.to_string(),
                Vec::new(),
            ));
        }
        None
    }

    /// Runs relevant to a test/build/lint claim, with the invocation the claim is about.
    fn relevant_checks(&self, kind: CommandKind) -> Vec<(&Run, Option<usize>)> {
        let visible: Vec<&Run> = self
            .obs
            .runs
            .iter()
            .filter(|r| self.at.sees(r.pos))
            .collect();
        if let Some(cmd) = &self.claim.target.command {
            let named: Vec<(&Run, Option<usize>)> = visible
                .iter()
                .filter(|r| names_command(cmd, &r.invocations))
                .map(|r| (*r, claimed_invocation(cmd, r)))
                .collect();
            if !named.is_empty() {
                return named;
            }
        }
        let tool = self.claim.target.tool.as_deref().map(tool_family);
        let claim_scope = suite_scope(&self.claim.text.to_ascii_lowercase());
        let checks: Vec<(&Run, Option<usize>)> = visible
            .iter()
            .copied()
            .filter(|r| {
                // "Unit tests pass" is not about an end-to-end run, and the other way round.
                kind != CommandKind::Test
                    || claim_scope.is_none()
                    || suite_scope(&r.command.to_ascii_lowercase())
                        .is_none_or(|s| Some(s) == claim_scope)
            })
            .filter_map(|r| {
                let runner = r.summary.as_ref().map(|s| tool_family(&s.runner));
                let class = r.classes.iter().find(|(_, c)| {
                    c.kind == kind && tool_fits(tool, c.tool.as_deref(), c.wrapper, runner)
                });
                match class {
                    Some((i, _)) => Some((r, Some(*i))),
                    None if kind == CommandKind::Test
                        && r.classes.iter().all(|(_, c)| c.kind == CommandKind::Other)
                        && r.summary.is_some()
                        && tool.is_none_or(|t| runner == Some(t)) =>
                    {
                        Some((r, None))
                    }
                    None => None,
                }
            })
            .collect();
        if kind == CommandKind::Build && checks.is_empty() && tool.is_none() {
            // Test runs of compiled languages build the code first: with no build run at all,
            // they are the build evidence.
            return visible
                .into_iter()
                .filter_map(|r| {
                    r.classes
                        .iter()
                        .find(|(_, c)| {
                            c.kind == CommandKind::Test
                                && c.tool.as_deref().is_some_and(compiles_first)
                        })
                        .map(|(i, _)| (r, Some(*i)))
                })
                .collect();
        }
        checks
    }

    fn check(&self, kind: CommandKind) -> Finding {
        let relevant = self.relevant_checks(kind);
        let what = match kind {
            CommandKind::Test => "test",
            CommandKind::Build => "build",
            CommandKind::Lint => "lint",
            CommandKind::Other => "matching",
        };
        let named = self
            .claim
            .target
            .command
            .as_deref()
            .map(|c| format!("`{c}`"))
            .or_else(|| self.claim.target.tool.clone())
            .map(|n| format!(" ({n})"))
            .unwrap_or_default();
        if let Some(f) = self.unavailable_outputs(!relevant.is_empty()) {
            return f;
        }
        if relevant.is_empty() {
            return self.make(
                Verdict::Unverified,
                "no_run",
                format!("No {what} run{named} appears in the session before the claim; absence of evidence is not a contradiction."),
                Vec::new(),
            );
        }
        // A claim about one named test is not a claim about the whole suite.
        let whole_suite =
            !(kind == CommandKind::Test && crate::claims::names_a_test(&self.claim.text));
        self.latest_fresh(relevant, Some(kind), whole_suite)
    }

    /// The shared rule for claims about a command's result: latest fresh run decides.
    fn latest_fresh(
        &self,
        relevant: Vec<(&Run, Option<usize>)>,
        kind: Option<CommandKind>,
        whole_suite: bool,
    ) -> Finding {
        let last_mod = if kind == Some(CommandKind::Other) {
            None
        } else {
            self.last_modification()
        };
        let fresh: Vec<&(&Run, Option<usize>)> = relevant
            .iter()
            .filter(|(r, _)| last_mod.is_none_or(|m| r.pos >= m.pos))
            .collect();
        let Some(&&(latest, idx)) = fresh.last() else {
            // Every relevant run predates the last modification.
            let Some(&(stale, sidx)) = relevant.last() else {
                return self.make(
                    Verdict::Unverified,
                    "no_run",
                    "No relevant run.".into(),
                    Vec::new(),
                );
            };
            let j = run_outcome(stale, sidx, kind);
            let after = self.modification_after(stale.pos).or(last_mod);
            let mut ev = stale.evidence_ids();
            let mod_desc = match after {
                Some(m) => {
                    ev.extend(m.evidence_id.clone());
                    describe_change(m)
                }
                None => "a later file modification".into(),
            };
            let result = match j.outcome {
                Outcome::Pass { .. } => "passed",
                Outcome::Fail => "failed",
                Outcome::Unknown => "had no clear result",
            };
            return self.make(
                Verdict::Review,
                "stale",
                format!(
                    "The latest relevant run {} {result} ({}), but it is stale: {} came after it, and no run followed that edit before the claim.",
                    describe_run(stale),
                    j.detail,
                    mod_desc
                ),
                ev,
            );
        };
        let j = run_outcome(latest, idx, kind);
        let fresh_note = match last_mod {
            Some(m) => format!(
                "it is fresh (after the last file modification, {})",
                describe_change(m)
            ),
            None => "no file was modified after it".to_string(),
        };
        match j.outcome {
            Outcome::Fail => self.make(
                Verdict::Contradicted,
                "latest_fresh_fails",
                format!(
                    "The latest relevant run {} failed: {}; {fresh_note}.",
                    describe_run(latest),
                    j.detail
                ),
                latest.evidence_ids(),
            ),
            Outcome::Unknown => {
                if !latest.has_output && self.obs.observability.outputs_unobservable() {
                    if let Some(f) = self.unavailable_outputs(true) {
                        return f;
                    }
                }
                self.make(
                    Verdict::Review,
                    "inconclusive",
                    format!(
                        "The latest relevant run {} is inconclusive: {}.",
                        describe_run(latest),
                        j.detail
                    ),
                    latest.evidence_ids(),
                )
            }
            Outcome::Pass { full } => {
                let names_filtered = self.claim.target.command.as_deref().is_some_and(|c| {
                    names_command(c, &latest.invocations) && commands::classify_command(c).filtered
                });
                if full || !whole_suite || names_filtered {
                    return self.make(
                        Verdict::Verified,
                        "latest_fresh_passes",
                        format!(
                            "The latest relevant run {} passed: {}; {fresh_note}.",
                            describe_run(latest),
                            j.detail
                        ),
                        latest.evidence_ids(),
                    );
                }
                // A filtered pass: an earlier full pass, with no failure since and no edit
                // before it, still covers the whole suite.
                for &&(earlier, eidx) in fresh.iter().rev().skip(1) {
                    let e = run_outcome(earlier, eidx, kind);
                    match e.outcome {
                        Outcome::Fail | Outcome::Unknown => break,
                        Outcome::Pass { full: true } => {
                            let mut ev = earlier.evidence_ids();
                            ev.extend(latest.evidence_ids());
                            return self.make(
                                Verdict::Verified,
                                "fresh_full_pass_then_filtered",
                                format!(
                                    "A full run {} passed ({}) and the later filtered run {} passed too; {fresh_note}.",
                                    describe_run(earlier),
                                    e.detail,
                                    describe_run(latest)
                                ),
                                ev,
                            );
                        }
                        Outcome::Pass { full: false } => continue,
                    }
                }
                self.make(
                    Verdict::Review,
                    "filtered",
                    format!(
                        "The latest relevant run {} passed ({}), but it ran only part of the suite while the claim is about all of it.",
                        describe_run(latest),
                        j.detail
                    ),
                    latest.evidence_ids(),
                )
            }
        }
    }

    fn command_runs(&self, cmd: &str) -> Vec<(&Run, Option<usize>)> {
        self.obs
            .runs
            .iter()
            .filter(|r| self.at.sees(r.pos) && names_command(cmd, &r.invocations))
            .map(|r| (r, claimed_invocation(cmd, r)))
            .collect()
    }

    fn command_succeeded(&self) -> Finding {
        let Some(cmd) = self.claim.target.command.clone() else {
            return self.make(
                Verdict::Unverified,
                "no_command",
                "The claim names no command to look for.".into(),
                Vec::new(),
            );
        };
        let relevant = self.command_runs(&cmd);
        if let Some(f) = self.unavailable_outputs(!relevant.is_empty()) {
            return f;
        }
        if relevant.is_empty() {
            return self.make(
                Verdict::Unverified,
                "never_ran",
                format!("`{cmd}` does not appear among the commands run before the claim."),
                Vec::new(),
            );
        }
        let kind = commands::classify_command(&cmd).kind;
        self.latest_fresh(relevant, Some(kind), false)
    }

    fn command_executed(&self) -> Finding {
        let Some(cmd) = self.claim.target.command.clone() else {
            return self.make(
                Verdict::Unverified,
                "no_command",
                "The claim names no command to look for.".into(),
                Vec::new(),
            );
        };
        let relevant = self.command_runs(&cmd);
        match relevant.last() {
            Some((run, _)) => self.make(
                Verdict::Verified,
                "ran",
                format!(
                    "`{cmd}` ran: {} ({} matching run(s) before the claim).",
                    describe_run(run),
                    relevant.len()
                ),
                run.evidence_ids(),
            ),
            None if self.obs.observability.calls_unobservable() => self.make(
                Verdict::Unavailable,
                "unavailable.no_tool_calls",
                "The runtime declares that tool calls cannot be observed in this capture.".into(),
                Vec::new(),
            ),
            None => self.make(
                Verdict::Unverified,
                "never_ran",
                format!("`{cmd}` does not appear among the commands run before the claim."),
                Vec::new(),
            ),
        }
    }

    fn file_written(&self) -> Finding {
        let Some(path) = self.claim.target.path.clone() else {
            return self.make(
                Verdict::Unverified,
                "no_path",
                "The claim names no file.".into(),
                Vec::new(),
            );
        };
        let matching: Vec<&Change> = self
            .obs
            .changes
            .iter()
            .filter(|c| self.at.sees(c.pos) && !c.path.is_empty() && same_file(&path, &c.path))
            .collect();
        if matching.is_empty() {
            let o = &self.obs.observability;
            if o.files_declared_unobservable && o.calls_unobservable() {
                return self.make(
                    Verdict::Unavailable,
                    "unavailable.no_file_signal",
                    "The runtime declares that neither tool calls nor file mutations can be observed in this capture.".into(),
                    Vec::new(),
                );
            }
            return self.make(
                Verdict::Unverified,
                "untouched",
                format!("Nothing in the session wrote {path} before the claim; absence of evidence is not a contradiction."),
                Vec::new(),
            );
        }
        let last_success = matching.iter().rposition(|c| c.succeeded == Some(true));
        let last = matching[matching.len() - 1];
        match last_success {
            Some(i) => {
                let ok = matching[i];
                let later_failure = matching[i + 1..].iter().any(|c| c.succeeded == Some(false));
                let ev: Vec<String> = matching[i..]
                    .iter()
                    .filter_map(|c| c.evidence_id.clone())
                    .collect();
                if later_failure {
                    return self.make(
                        Verdict::Review,
                        "later_attempt_failed",
                        format!(
                            "{} succeeded, but a later attempt failed ({}); the file may not hold what the claim describes.",
                            describe_change(ok),
                            describe_change(last)
                        ),
                        ev,
                    );
                }
                self.make(
                    Verdict::Verified,
                    "written",
                    format!(
                        "{} succeeded ({} write(s) of the path before the claim).",
                        describe_change(ok),
                        matching.len()
                    ),
                    ev,
                )
            }
            None if matching.iter().all(|c| c.succeeded == Some(false))
                && self.later_unseen_write(&path, last.pos).is_some() =>
            {
                let (what, ids) = self.later_unseen_write(&path, last.pos).unwrap_or_default();
                self.make(
                    Verdict::Review,
                    "failed_then_unseen_write",
                    format!(
                        "Every recorded attempt to write {path} failed (latest: {}), but later {what} may have written it.",
                        describe_change(last)
                    ),
                    ids,
                )
            }
            None if matching.iter().all(|c| c.succeeded == Some(false)) => {
                let ev: Vec<String> = matching
                    .iter()
                    .filter_map(|c| c.evidence_id.clone())
                    .collect();
                let err = last
                    .error
                    .clone()
                    .map(|e| format!(": {e}"))
                    .unwrap_or_default();
                self.make(
                    Verdict::Contradicted,
                    "write_failed",
                    format!("Every attempt to write {path} failed; the latest, {}, reported{err}. Nothing wrote it later.", describe_change(last)),
                    ev,
                )
            }
            None => {
                if self.obs.observability.outputs_unobservable() {
                    return self.make(
                        Verdict::Unavailable,
                        "unavailable.no_tool_output",
                        format!(
                            "{} was attempted, but the capture records tool calls without any results, so whether the write happened cannot be observed.",
                            describe_change(last)
                        ),
                        Vec::new(),
                    );
                }
                self.make(
                    Verdict::Review,
                    "outcome_unknown",
                    format!(
                        "{} was attempted, but its result was never recorded.",
                        describe_change(last)
                    ),
                    matching
                        .iter()
                        .filter_map(|c| c.evidence_id.clone())
                        .collect(),
                )
            }
        }
    }

    /// A write the file timeline cannot attribute to a path, after `pos`: a writer that names no
    /// file (`git apply`, `patch`) or a command that mentions the file (a script writing it).
    fn later_unseen_write(&self, path: &str, pos: usize) -> Option<(String, Vec<String>)> {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        if let Some(c) = self.obs.changes.iter().find(|c| {
            self.at.sees(c.pos) && c.pos > pos && c.path.is_empty() && c.succeeded != Some(false)
        }) {
            return Some((
                format!(
                    "{} (which writes files it does not name)",
                    describe_change(c)
                ),
                Vec::new(),
            ));
        }
        let run = self.obs.runs.iter().find(|r| {
            self.at.sees(r.pos)
                && r.pos > pos
                && !name.is_empty()
                && r.command.contains(name)
                && r.classes.iter().all(|(_, c)| c.kind == CommandKind::Other)
                && !is_read_only(&r.command)
        })?;
        Some((
            format!("{} mentions the file", describe_run(run)),
            run.evidence_ids(),
        ))
    }

    fn git_runs(&self, want_push: bool) -> Vec<&Run> {
        self.obs
            .runs
            .iter()
            .filter(|r| self.at.sees(r.pos))
            .filter(|r| {
                gitout::git_ops(&r.command)
                    .iter()
                    .any(|op| matches!(op, GitOp::Push { .. }) == want_push)
                    || r.git.iter().any(|(_, g)| is_push(g.outcome) == want_push)
            })
            .collect()
    }

    fn git_commit(&self) -> Finding {
        let claimed_sha = self.claim.target.sha.clone();
        // A host lookup of the claimed commit is the strongest evidence there is.
        if let Some(sha) = &claimed_sha {
            if let Some(check) = self.obs.checks.iter().rfind(|c| {
                self.at.sees(c.pos)
                    && (sha_matches(sha, &c.payload.sha)
                        || c.payload
                            .full_sha
                            .as_deref()
                            .is_some_and(|f| sha_matches(sha, f)))
            }) {
                return if check.payload.exists {
                    self.make(
                        Verdict::Verified,
                        "host_check_exists",
                        format!(
                            "Commit {sha} exists in {} (host lookup [{}]).",
                            check.payload.repository, check.evidence_id
                        ),
                        vec![check.evidence_id.clone()],
                    )
                } else {
                    self.make(
                        Verdict::Contradicted,
                        "host_check_missing",
                        format!(
                            "Commit {sha} does not exist in {} (host lookup [{}]).",
                            check.payload.repository, check.evidence_id
                        ),
                        vec![check.evidence_id.clone()],
                    )
                };
            }
        }
        let runs = self.git_runs(false);
        if let Some(f) = self.unavailable_outputs(!runs.is_empty()) {
            return f;
        }
        let Some(latest) = runs.last() else {
            return self.make(
                Verdict::Unverified,
                "no_commit_run",
                "No `git commit` appears in the session before the claim; absence of evidence is not a contradiction.".into(),
                Vec::new(),
            );
        };
        let created: Vec<(&Run, &String, &fornax_types::evidence::GitOutcomePayload)> = runs
            .iter()
            .flat_map(|r| {
                r.git
                    .iter()
                    .filter(|(_, g)| g.outcome == GitOutcomeKind::CommitCreated)
                    .map(move |(id, g)| (*r, id, g))
            })
            .collect();
        if let Some(sha) = &claimed_sha {
            if let Some((run, id, g)) = created
                .iter()
                .rev()
                .find(|(_, _, g)| g.sha.as_deref().is_some_and(|s| sha_matches(sha, s)))
            {
                return self.make(
                    Verdict::Verified,
                    "sha_matches",
                    format!(
                        "{} created commit {} on {}, matching the claimed {sha}.",
                        describe_run(run),
                        g.sha.as_deref().unwrap_or("?"),
                        g.branch.as_deref().unwrap_or("an unnamed branch")
                    ),
                    vec![(*id).clone()],
                );
            }
            if let Some((run, id, g)) = created.last() {
                return self.make(
                    Verdict::Contradicted,
                    "sha_differs",
                    format!(
                        "{} created commit {}, not the claimed {sha}.",
                        describe_run(run),
                        g.sha.as_deref().unwrap_or("?")
                    ),
                    vec![(*id).clone()],
                );
            }
        } else if let Some((run, id, g)) = created.last() {
            if let (Some(cb), Some(gb)) = (&self.claim.target.branch, &g.branch) {
                if cb != gb && !gb.starts_with("detached") {
                    return self.make(
                        Verdict::Review,
                        "branch_differs",
                        format!(
                            "{} created commit {} on {gb}, while the claim names {cb}.",
                            describe_run(run),
                            g.sha.as_deref().unwrap_or("?")
                        ),
                        vec![(*id).clone()],
                    );
                }
            }
            return self.make(
                Verdict::Verified,
                "created",
                format!(
                    "{} created commit {} on {}.",
                    describe_run(run),
                    g.sha.as_deref().unwrap_or("?"),
                    g.branch.as_deref().unwrap_or("an unnamed branch")
                ),
                vec![(*id).clone()],
            );
        }
        // No commit was created: read the latest commit run.
        let not_created = latest.git.iter().find(|(_, g)| {
            matches!(
                g.outcome,
                GitOutcomeKind::NothingToCommit | GitOutcomeKind::CommitFailed
            )
        });
        if let Some((id, g)) = not_created {
            let what = if g.outcome == GitOutcomeKind::NothingToCommit {
                "reported nothing to commit"
            } else {
                "failed"
            };
            let mut ev = vec![id.clone()];
            ev.extend(latest.exit_id.clone());
            return self.make(
                Verdict::Contradicted,
                "not_created",
                format!(
                    "The latest commit attempt {} {what}; no commit was created in the session.",
                    describe_run(latest)
                ),
                ev,
            );
        }
        let j = run_outcome(latest, commit_index(latest), None);
        match j.outcome {
            Outcome::Fail => self.make(
                Verdict::Contradicted,
                "commit_failed",
                format!("The latest commit attempt {} failed ({}); no commit was created in the session.", describe_run(latest), j.detail),
                latest.evidence_ids(),
            ),
            Outcome::Pass { .. } if claimed_sha.is_none() => self.make(
                Verdict::Verified,
                "exit_zero",
                format!("{} succeeded ({}), though its output names no commit.", describe_run(latest), j.detail),
                latest.evidence_ids(),
            ),
            _ => self.make(
                Verdict::Review,
                "unconfirmed",
                format!("{} gives no commit sha to compare with the claim ({}).", describe_run(latest), j.detail),
                latest.evidence_ids(),
            ),
        }
    }

    fn git_push(&self) -> Finding {
        let runs = self.git_runs(true);
        if let Some(f) = self.unavailable_outputs(!runs.is_empty()) {
            return f;
        }
        // Prefer pushes of the claimed branch.
        let branch = self.claim.target.branch.clone();
        let of_branch: Vec<&Run> =
            runs.iter()
                .copied()
                .filter(|r| {
                    branch.as_deref().is_some_and(|b| {
                        r.git.iter().any(|(_, g)| {
                            g.branch.as_deref().is_some_and(|gb| branch_matches(b, gb))
                        }) || gitout::git_ops(&r.command).iter().any(|op| match op {
                            GitOp::Push { refspecs, .. } => refspecs
                                .iter()
                                .any(|s| branch_matches(b, s.rsplit(':').next().unwrap_or(s))),
                            GitOp::Commit => false,
                        })
                    })
                })
                .collect();
        let pool = if of_branch.is_empty() {
            runs
        } else {
            of_branch
        };
        let Some(latest) = pool.last() else {
            return self.make(
                Verdict::Unverified,
                "no_push_run",
                "No `git push` appears in the session before the claim; absence of evidence is not a contradiction.".into(),
                Vec::new(),
            );
        };
        let push = latest.git.iter().rev().find(|(_, g)| is_push(g.outcome));
        match push {
            Some((id, g)) => {
                let target = format!(
                    "{}{}",
                    g.remote
                        .as_deref()
                        .map(|r| format!("{r} "))
                        .unwrap_or_default(),
                    g.branch.as_deref().unwrap_or("")
                );
                let mut ev = vec![id.clone()];
                ev.extend(latest.exit_id.clone());
                match g.outcome {
                    GitOutcomeKind::PushUpdated => {
                        if let (Some(b), Some(gb)) = (&branch, &g.branch) {
                            if !branch_matches(b, gb) {
                                return self.make(
                                    Verdict::Review,
                                    "branch_differs",
                                    format!("{} updated {target}, while the claim names {b}.", describe_run(latest)),
                                    ev,
                                );
                            }
                        }
                        self.make(Verdict::Verified, "updated", format!("{} updated {target}.", describe_run(latest)), ev)
                    }
                    GitOutcomeKind::PushRejected => self.make(
                        Verdict::Contradicted,
                        "rejected",
                        format!("The latest push {} was rejected ({target}).", describe_run(latest)),
                        ev,
                    ),
                    GitOutcomeKind::PushFailed => self.make(
                        Verdict::Contradicted,
                        "failed",
                        format!("The latest push {} failed.", describe_run(latest)),
                        ev,
                    ),
                    _ => self.make(
                        Verdict::Review,
                        "up_to_date",
                        format!("The latest push {} reported everything up-to-date: nothing new reached the remote.", describe_run(latest)),
                        ev,
                    ),
                }
            }
            None => {
                let j = run_outcome(latest, None, None);
                match j.outcome {
                    Outcome::Fail => self.make(
                        Verdict::Contradicted,
                        "failed",
                        format!(
                            "The latest push {} failed ({}).",
                            describe_run(latest),
                            j.detail
                        ),
                        latest.evidence_ids(),
                    ),
                    _ => self.make(
                        Verdict::Review,
                        "unconfirmed",
                        format!(
                            "The latest push {} shows no recognisable result ({}).",
                            describe_run(latest),
                            j.detail
                        ),
                        latest.evidence_ids(),
                    ),
                }
            }
        }
    }
}

/// Which part of a test suite a text is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Scope {
    Unit,
    Integration,
    EndToEnd,
}

fn suite_scope(lower: &str) -> Option<Scope> {
    let has = |w: &str| {
        lower.match_indices(w).any(|(i, _)| {
            let before = lower[..i]
                .chars()
                .next_back()
                .is_none_or(|c| !c.is_ascii_alphanumeric());
            let after = lower[i + w.len()..]
                .chars()
                .next()
                .is_none_or(|c| !c.is_ascii_alphanumeric());
            before && after
        })
    };
    if [
        "e2e",
        "end-to-end",
        "end to end",
        "playwright",
        "cypress",
        "selenium",
        "browser tests",
    ]
    .iter()
    .any(|w| has(w))
    {
        Some(Scope::EndToEnd)
    } else if has("integration") {
        Some(Scope::Integration)
    } else if has("unit") {
        Some(Scope::Unit)
    } else {
        None
    }
}

/// Test runners that compile the code before running it.
fn compiles_first(tool: &str) -> bool {
    matches!(
        tool,
        "cargo-test"
            | "nextest"
            | "go-test"
            | "maven"
            | "gradle"
            | "dotnet-test"
            | "swift-test"
            | "sbt"
            | "mix-test"
            | "haskell-test"
            | "zig-test"
    )
}

/// Prose files whose edits cannot change a test, build or lint result (README, CHANGELOG,
/// `docs/*.md`); editing them does not make earlier runs stale.
fn is_documentation(path: &str) -> bool {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    let lower = name.to_ascii_lowercase();
    let ext = lower.rsplit_once('.').map(|(_, e)| e);
    matches!(ext, Some("md" | "mdx" | "rst" | "adoc" | "txt"))
        && !lower.starts_with("requirements")
        && !lower.starts_with("cmakelists")
        || matches!(
            lower.as_str(),
            "license" | "licence" | "authors" | "changelog" | "notice" | "contributors"
        )
}

/// Commands that only read files (so mentioning a file does not write it).
fn is_read_only(command: &str) -> bool {
    let invs = commands::effective_invocations(&fornax_types::shell::parse_invocations(command));
    !invs.is_empty()
        && invs.iter().all(|i| {
            i.redirects_to.is_empty()
                && matches!(
                    commands::base_name(&i.program),
                    "cat" | "head" | "tail" | "less" | "grep" | "rg" | "ls" | "wc" | "diff" | "git" | "stat" | "file"
                        | "cd" | "echo" | "find" | "nl" | "bat" | "sed" if !i.argv.iter().any(|a| a.starts_with("-i"))
                )
        })
}

fn is_push(k: GitOutcomeKind) -> bool {
    matches!(
        k,
        GitOutcomeKind::PushUpdated
            | GitOutcomeKind::PushRejected
            | GitOutcomeKind::PushUpToDate
            | GitOutcomeKind::PushFailed
    )
}

fn branch_matches(claimed: &str, observed: &str) -> bool {
    let strip = |b: &str| b.trim().trim_start_matches("refs/heads/").to_string();
    let (c, o) = (strip(claimed), strip(observed));
    c == o
        || c.ends_with(&format!("/{o}"))
            && c.split('/')
                .next()
                .is_some_and(|r| crate::claims::lexicon::REMOTE_NAMES.contains(&r))
}

fn tool_fits(
    claimed: Option<&str>,
    tool: Option<&str>,
    wrapper: bool,
    runner: Option<&str>,
) -> bool {
    let Some(claimed) = claimed else {
        return true;
    };
    if tool.map(tool_family) == Some(claimed) || runner == Some(claimed) {
        return true;
    }
    // A script whose real tool is unknown may be the claimed one.
    wrapper && runner.is_none()
}

/// The index (in `run.invocations`) of the invocation a claimed command names.
fn claimed_invocation(cmd: &str, run: &Run) -> Option<usize> {
    let claimed = commands::effective_invocations(&fornax_types::shell::parse_invocations(cmd));
    let first = claimed.iter().find(|i| i.program != "cd")?;
    run.invocations.iter().position(|i| {
        commands::base_name(&i.program) == commands::base_name(&first.program)
            && first.argv.iter().all(|a| i.argv.contains(a))
    })
}

fn commit_index(run: &Run) -> Option<usize> {
    run.invocations.iter().position(|i| {
        commands::base_name(&i.program) == "git" && i.argv.iter().any(|a| a == "commit")
    })
}
