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
//!
//! A claim is about exactly what it says: a count ("48 tests pass", `counts`) is judged on
//! the summary's counts, a scope (a test, file, package, module, service or suite, `scope`)
//! on what the output shows for that scope, and a named command only on runs of that
//! invocation or of one covering it.

use std::collections::BTreeSet;

use fornax_types::reason::{ChangeFact, CheckKind, Reason, RunFact, RunResult, When};
use fornax_types::{Claim, ClaimSubject, Finding, SessionRef, Verdict};

use crate::commands::{self, exit_reflects, names_command, CommandKind};
use crate::observe::{Change, Observations, Run, UNPOSITIONED};
use crate::paths::same_file;

mod counts;
mod files;
mod git;
mod outcome;
mod scope;
#[cfg(test)]
mod tests;

use outcome::{run_outcome, Outcome};

/// When a claim was made and whose evidence it may rest on.
#[derive(Debug, Clone, Copy)]
pub struct Moment<'a> {
    /// Timeline index of the claim's item.
    pub pos: usize,
    /// Nothing the claim can see happened after it (a final answer): evidence tied to no
    /// moment counts too. Evidence placed after the claim never does, final or not: a later
    /// run is a re-check shown beside the finding, not the basis of the verdict the claim had.
    pub is_final: bool,
    /// The sessions whose evidence the claim may rest on: its own and its subagents'. `None`:
    /// every session of the timeline.
    pub sessions: Option<&'a BTreeSet<SessionRef>>,
}

impl Moment<'_> {
    fn sees_pos(&self, pos: usize) -> bool {
        if pos == UNPOSITIONED {
            self.is_final
        } else {
            pos < self.pos
        }
    }

    /// Whether evidence from `session` at timeline index `pos` existed for the claim.
    pub fn sees(&self, session: &SessionRef, pos: usize) -> bool {
        self.sees_pos(pos) && self.sessions.is_none_or(|s| s.contains(session))
    }
}

struct Verdicts<'a> {
    claim: &'a Claim,
    obs: &'a Observations,
    at: Moment<'a>,
}

fn finding(claim: &Claim, verdict: Verdict, reason: Reason, evidence: Vec<String>) -> Finding {
    let mut evidence = evidence;
    evidence.dedup();
    Finding {
        claim_id: claim.id.clone(),
        session: claim.session.clone(),
        verdict,
        rule: format!("{}.{}", claim.subject.as_str(), reason.rule()),
        reason,
        evidence,
    }
}

/// Judges one claim.
pub fn judge(claim: &Claim, obs: &Observations, at: Moment<'_>) -> Finding {
    let v = Verdicts { claim, obs, at };
    let f = match claim.subject {
        ClaimSubject::TestResult => v.check(CommandKind::Test),
        ClaimSubject::BuildResult => v.check(CommandKind::Build),
        ClaimSubject::LintResult => v.check(CommandKind::Lint),
        ClaimSubject::CommandSucceeded => v.command_succeeded(),
        ClaimSubject::CommandExecuted => v.command_executed(),
        ClaimSubject::FileWritten => v.file_written(),
        ClaimSubject::FileDeleted => v.file_deleted(),
        ClaimSubject::GitCommit => v.git_commit(),
        ClaimSubject::GitPush => v.git_push(),
    };
    v.seen_through_failures_only(f)
}

fn when(pos: usize, at: &Option<String>) -> When {
    match at {
        Some(t) => When::At { time: t.clone() },
        None if pos == UNPOSITIONED => When::Unpositioned,
        None => When::Position { index: pos as u64 },
    }
}

/// How a run ended, as a stale or uncounted run's rationale says it.
fn run_result(outcome: &Outcome) -> RunResult {
    match outcome {
        Outcome::Pass { .. } => RunResult::Passed,
        Outcome::Fail => RunResult::Failed,
        Outcome::Unknown => RunResult::Unclear,
    }
}

fn short(command: &str) -> String {
    let one_line = command.lines().next().unwrap_or("").trim();
    let mut s: String = one_line.chars().take(120).collect();
    if one_line.chars().count() > 120 || command.lines().count() > 1 {
        s.push('…');
    }
    s
}

fn change_fact(c: &Change) -> ChangeFact {
    ChangeFact {
        tool: c.tool.clone(),
        path: (!c.path.is_empty()).then(|| c.path.clone()),
        operation: c.operation,
        when: when(c.pos, &c.at),
        error: c.error.clone(),
    }
}

/// Tool ids that name the same tool (the tool table's families).
fn tool_family(tool: &str) -> &str {
    match tool {
        "ruff-format" => "ruff",
        other => crate::tools::family_of(other),
    }
}

impl Verdicts<'_> {
    fn make(&self, verdict: Verdict, reason: Reason, evidence: Vec<String>) -> Finding {
        finding(self.claim, verdict, reason, evidence)
    }
    fn sees(&self, session: &SessionRef, pos: usize) -> bool {
        self.at.sees(session, pos)
    }
    /// The run as a rationale cites it: a subagent's run is named as such.
    fn run_fact(&self, run: &Run) -> RunFact {
        RunFact {
            command: short(&run.command),
            when: when(run.pos, &run.at),
            by_subagent: (run.session != self.claim.session).then(|| run.session.native_id.clone()),
        }
    }
    /// The latest file modification the claim can see that may change a command's result:
    /// successful or of unknown outcome, and not a documentation-only file.
    fn last_modification(&self) -> Option<&Change> {
        self.obs
            .changes
            .iter()
            .filter(|c| {
                self.sees(&c.session, c.pos)
                    && c.succeeded != Some(false)
                    && !is_documentation(&c.path)
            })
            .max_by_key(|c| c.pos)
    }
    /// The first such modification after `pos`.
    fn modification_after(&self, pos: usize) -> Option<&Change> {
        self.obs
            .changes
            .iter()
            .filter(|c| {
                self.sees(&c.session, c.pos)
                    && c.succeeded != Some(false)
                    && c.pos > pos
                    && !is_documentation(&c.path)
            })
            .min_by_key(|c| c.pos)
    }
    /// In a capture of failed results only, absence says nothing (the success the claim needs
    /// could not appear: UNAVAILABLE) and a failure is not the last word (a later success would
    /// be invisible: REVIEW). A command claim keeps its absence when calls are captured apart
    /// from their results.
    fn seen_through_failures_only(&self, f: Finding) -> Finding {
        let o = &self.obs.observability;
        if !o.only_failures_captured {
            return f;
        }
        let absence_visible =
            self.claim.subject == ClaimSubject::CommandExecuted && o.calls_without_output;
        match f.verdict {
            Verdict::Unverified if !absence_visible => self.make(
                Verdict::Unavailable,
                Reason::OnlyFailuresCaptured { failure: None },
                f.evidence,
            ),
            Verdict::Contradicted => self.make(
                Verdict::Review,
                Reason::OnlyFailuresCaptured {
                    failure: Some(Box::new(f.reason)),
                },
                f.evidence,
            ),
            _ => f,
        }
    }
    fn unavailable_outputs(&self, relevant_calls: bool) -> Option<Finding> {
        let o = &self.obs.observability;
        if o.outputs_unobservable() && (relevant_calls || o.calls_unobservable() || !o.any_call) {
            return Some(self.make(
                Verdict::Unavailable,
                Reason::OutputsUnobservable {
                    calls_seen: o.any_call,
                },
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
            .filter(|r| self.sees(&r.session, r.pos))
            .collect();
        if let Some(cmd) = &self.claim.target.command {
            let named: Vec<(&Run, Option<usize>)> = visible
                .iter()
                .filter(|r| names_command(cmd, &r.invocations) && covers_claimed(cmd, r))
                .map(|r| (*r, claimed_invocation(cmd, r)))
                .collect();
            if !named.is_empty() {
                return named;
            }
        }
        let tool = self.claim.target.tool.as_deref().map(tool_family);
        // A tool named as a bare command ("`pytest` passes") is that invocation: a run with
        // other selecting flags (`pytest --runslow`) is a different one.
        let bare = self
            .claim
            .target
            .tool
            .as_deref()
            .and_then(crate::tools::by_id)
            .and_then(|t| t.prose.first().copied())
            .filter(|p| commands::classify_command(p).kind == kind);
        let claim_scope = suite_scope(&self.claim.text.to_ascii_lowercase());
        let claims_the_build = tool.is_none() && is_about_the_build(&self.claim.text);
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
            .filter(|r| {
                bare.is_none_or(|b| {
                    !runs_tool_of(b, r) || covers_claimed(b, r) || selects_paths_of(b, r)
                })
            })
            // "Fixed the build" is about the build, not a typecheck script or `tsc --noEmit`.
            .filter(|r| kind != CommandKind::Build || !claims_the_build || !only_typechecks(r))
            .filter_map(|r| {
                let runner = r.summary.as_deref().map(|s| tool_family(&s.runner));
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
        let check = match kind {
            CommandKind::Test => CheckKind::Test,
            CommandKind::Build => CheckKind::Build,
            CommandKind::Lint => CheckKind::Lint,
            CommandKind::Other => CheckKind::Command,
        };
        let named = self
            .claim
            .target
            .command
            .as_deref()
            .map(|c| format!("`{c}`"))
            .or_else(|| self.claim.target.tool.clone());
        if let Some(f) = self.unavailable_outputs(!relevant.is_empty()) {
            return f;
        }
        if relevant.is_empty() {
            return self.make(
                Verdict::Unverified,
                Reason::NoRun { check, named },
                Vec::new(),
            );
        }
        let relevant = match self.drop_not_started(relevant, check) {
            Ok(r) => r,
            Err(f) => return *f,
        };
        let scope = if kind == CommandKind::Test {
            self.scope()
        } else {
            self.check_scope()
        };
        let relevant = match &scope {
            Some((unit, name)) => self.for_scope(relevant, *unit, name),
            None => relevant,
        };
        if let (true, Some((unit, name))) = (relevant.is_empty(), &scope) {
            return self.make(
                Verdict::Unverified,
                Reason::NoScopeRun {
                    check,
                    named,
                    unit: *unit,
                    name: name.clone(),
                },
                Vec::new(),
            );
        }
        // A claim about one named test (or another named scope) is not a claim about the
        // whole suite.
        let whole_suite = !(kind == CommandKind::Test
            && (crate::claims::names_a_test(&self.claim.text) || self.scope().is_some()));
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
        let fresh_after = last_mod.map(change_fact);
        let fresh: Vec<&(&Run, Option<usize>)> = relevant
            .iter()
            .filter(|(r, _)| last_mod.is_none_or(|m| r.pos >= m.pos))
            .collect();
        let Some(&&(latest, idx)) = fresh.last() else {
            // Every relevant run predates the last modification.
            let Some(&(stale, sidx)) = relevant.last() else {
                return self.make(
                    Verdict::Unverified,
                    Reason::NoRun {
                        check: CheckKind::Command,
                        named: None,
                    },
                    Vec::new(),
                );
            };
            let j = run_outcome(stale, sidx, kind);
            let after = self.modification_after(stale.pos).or(last_mod);
            let mut ev = stale.evidence_ids();
            if let Some(m) = after {
                ev.extend(m.evidence_id.clone());
            }
            let result = run_result(&j.outcome);
            return self.make(
                Verdict::Review,
                Reason::Stale {
                    run: self.run_fact(stale),
                    result,
                    readings: j.readings,
                    after: after.map(change_fact),
                },
                ev,
            );
        };
        let j = run_outcome(latest, idx, kind);
        if matches!(kind, Some(CommandKind::Build | CommandKind::Lint)) {
            if let Some(f) = self.scoped_check(latest, idx, &j, &fresh_after) {
                return f;
            }
        }
        if kind == Some(CommandKind::Test) {
            if let Some(f) = self.scoped(latest, idx, &j, &fresh_after) {
                return f;
            }
            if self.scope().is_none() {
                if let Some(f) = self.counted(latest, idx, &j, &fresh_after) {
                    return f;
                }
            }
        }
        match j.outcome {
            Outcome::Fail => self.make(
                Verdict::Contradicted,
                Reason::Failed {
                    run: self.run_fact(latest),
                    readings: j.readings,
                    fresh_after,
                },
                latest.evidence_ids(),
            ),
            Outcome::Unknown => {
                if !latest.has_output && self.obs.observability.outputs_unobservable() {
                    if let Some(f) = self.unavailable_outputs(true) {
                        return f;
                    }
                }
                // The output says nothing either way and the runtime declares that it cannot
                // record exit statuses: the signal the claim needs is not observable.
                let no_status = latest
                    .exit
                    .as_ref()
                    .is_none_or(|e| e.exit_code.is_none() && e.failed.is_none());
                if latest.has_output
                    && no_status
                    && self.obs.observability.exits_declared_unobservable
                {
                    return self.make(
                        Verdict::Unavailable,
                        Reason::ExitStatusUnobservable {
                            run: self.run_fact(latest),
                        },
                        latest.evidence_ids(),
                    );
                }
                self.make(
                    Verdict::Review,
                    Reason::Inconclusive {
                        run: self.run_fact(latest),
                        readings: j.readings,
                    },
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
                        Reason::Passed {
                            run: self.run_fact(latest),
                            readings: j.readings,
                            fresh_after,
                        },
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
                                Reason::FullPassThenFiltered {
                                    full: self.run_fact(earlier),
                                    full_readings: e.readings,
                                    filtered: self.run_fact(latest),
                                    fresh_after,
                                },
                                ev,
                            );
                        }
                        Outcome::Pass { full: false } => continue,
                    }
                }
                self.make(
                    Verdict::Review,
                    Reason::Filtered {
                        run: self.run_fact(latest),
                        readings: j.readings,
                    },
                    latest.evidence_ids(),
                )
            }
        }
    }
    fn command_runs(&self, cmd: &str) -> Vec<(&Run, Option<usize>)> {
        self.obs
            .runs
            .iter()
            .filter(|r| {
                self.sees(&r.session, r.pos)
                    && names_command(cmd, &r.invocations)
                    && covers_claimed(cmd, r)
            })
            .map(|r| (r, claimed_invocation(cmd, r)))
            .collect()
    }
    /// Runs that could not start are no runs: the finding when nothing else is left, naming
    /// the failure; otherwise the runs that did start.
    fn drop_not_started<'r>(
        &self,
        relevant: Vec<(&'r Run, Option<usize>)>,
        check: CheckKind,
    ) -> Result<Vec<(&'r Run, Option<usize>)>, Box<Finding>> {
        let (failed, started): (Vec<_>, Vec<_>) = relevant
            .into_iter()
            .partition(|(r, _)| r.start_failure.is_some());
        if !started.is_empty() {
            return Ok(started);
        }
        let Some((run, _)) = failed.last() else {
            return Ok(started);
        };
        Err(Box::new(self.make(
            Verdict::Unverified,
            Reason::NotStarted {
                check,
                run: self.run_fact(run),
                failure: run.start_failure.clone().unwrap_or_default(),
            },
            run.evidence_ids(),
        )))
    }
    /// The finding for a command claim that names no command.
    fn no_command(&self) -> Finding {
        self.make(Verdict::Unverified, Reason::NoCommand, Vec::new())
    }
    /// "All checks pass" names the project's check script: the command of the latest run of
    /// one the claim can see (`npm run check`, `make check`).
    fn check_script_command(&self) -> Option<String> {
        if self.claim.target.tool.as_deref() != Some("check") {
            return None;
        }
        self.obs
            .runs
            .iter()
            .rev()
            .filter(|r| self.sees(&r.session, r.pos))
            .find(|r| {
                r.classes.iter().any(|(_, c)| {
                    c.tool
                        .as_deref()
                        .is_some_and(|t| t == "check" || t.ends_with(":check"))
                })
            })
            .map(|r| r.command.clone())
    }
    fn command_succeeded(&self) -> Finding {
        let Some(cmd) = self
            .claim
            .target
            .command
            .clone()
            .or_else(|| self.check_script_command())
        else {
            return self.no_command();
        };
        let relevant = self.command_runs(&cmd);
        if let Some(f) = self.unavailable_outputs(!relevant.is_empty()) {
            return f;
        }
        if relevant.is_empty() {
            return self.make(
                Verdict::Unverified,
                Reason::NeverRan { command: cmd },
                Vec::new(),
            );
        }
        let relevant = match self.drop_not_started(relevant, CheckKind::Command) {
            Ok(r) => r,
            Err(f) => return *f,
        };
        let kind = commands::classify_command(&cmd).kind;
        self.latest_fresh(relevant, Some(kind), false)
    }
    fn command_executed(&self) -> Finding {
        let Some(cmd) = self.claim.target.command.clone() else {
            return self.no_command();
        };
        let relevant = self.command_runs(&cmd);
        match relevant.last() {
            Some((run, _)) => self.make(
                Verdict::Verified,
                Reason::Ran {
                    command: cmd,
                    run: self.run_fact(run),
                    runs: u32::try_from(relevant.len()).unwrap_or(u32::MAX),
                },
                run.evidence_ids(),
            ),
            None if self.obs.observability.calls_unobservable() => {
                self.make(Verdict::Unavailable, Reason::CallsUnobservable, Vec::new())
            }
            None => self.make(
                Verdict::Unverified,
                Reason::NeverRan { command: cmd },
                Vec::new(),
            ),
        }
    }
}

/// A claim about the build itself ("fixed the build break", "the build succeeds"), not about
/// types ("typecheck is clean", "it compiles").
fn is_about_the_build(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    lower.contains("build")
        && ![
            "typecheck",
            "type-check",
            "type check",
            "types",
            "tsc",
            "compil",
        ]
        .iter()
        .any(|w| lower.contains(w))
}

/// A run whose every build step only checks types (a `typecheck` script, `tsc --noEmit`).
fn only_typechecks(run: &Run) -> bool {
    let mut builds = run
        .classes
        .iter()
        .filter(|(_, c)| c.kind == CommandKind::Build)
        .peekable();
    builds.peek().is_some()
        && builds.all(|(i, c)| {
            let tool = c.tool.as_deref().unwrap_or("");
            tool.contains("typecheck")
                || tool.contains("type-check")
                || tool.contains("types")
                || (tool == "tsc"
                    && run
                        .invocations
                        .get(*i)
                        .is_some_and(|inv| inv.argv.iter().any(|a| a == "--noEmit")))
        })
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

/// Whether a run of `cmd`'s tool covers the claimed invocation (the same, wider or narrower),
/// not a different one: `npm run build:docs` is not `npm run build`, `pytest --runslow` is not
/// `pytest`. Commands the table does not know keep the plain name match.
fn covers_claimed(cmd: &str, run: &Run) -> bool {
    use crate::tools::identity::{coverage, identify, main_invocation, Coverage};
    let Some(claimed) = main_invocation(cmd) else {
        return true;
    };
    let claimed = identify(&claimed);
    if claimed.kind == CommandKind::Other {
        return true;
    }
    run.invocations
        .iter()
        .any(|inv| coverage(&claimed, &identify(inv)) != Coverage::Different)
}

/// Whether a run of the tool `cmd` names differs from it only by the paths it checks (`mypy
/// harbor` for a claim about mypy): a check of part of what the tool checks, not another
/// selection of tests or rules.
fn selects_paths_of(cmd: &str, run: &Run) -> bool {
    use crate::tools::identity::{identify, main_invocation};
    let Some(claimed) = main_invocation(cmd) else {
        return false;
    };
    let claimed = identify(&claimed);
    if claimed.kind != CommandKind::Lint || !claimed.args.is_empty() {
        return false;
    }
    run.invocations.iter().any(|inv| {
        let id = identify(inv);
        id.tool == claimed.tool
            && !id.args.is_empty()
            && id.args.iter().all(|a| !a.starts_with('-'))
    })
}

/// Whether a run invokes the tool `cmd` names itself (not through a script or task runner).
fn runs_tool_of(cmd: &str, run: &Run) -> bool {
    use crate::tools::identity::{identify, main_invocation};
    let Some(claimed) = main_invocation(cmd) else {
        return false;
    };
    let tool = identify(&claimed).tool;
    run.invocations.iter().any(|inv| identify(inv).tool == tool)
}
