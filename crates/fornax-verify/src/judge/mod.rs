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

use fornax_types::{Claim, ClaimSubject, Finding, Verdict};

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

/// When a claim was made, for choosing the evidence it may rest on.
#[derive(Debug, Clone, Copy)]
pub struct Moment {
    /// Timeline index of the claim's item.
    pub pos: usize,
    /// Nothing happened after the claim (a final answer): evidence tied to no moment counts
    /// too. Evidence placed after the claim never does, final or not: a later run is a
    /// re-check shown beside the finding, not the basis of the verdict the claim had.
    pub is_final: bool,
}

impl Moment {
    fn sees(&self, pos: usize) -> bool {
        if pos == UNPOSITIONED {
            self.is_final
        } else {
            pos < self.pos
        }
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
        ClaimSubject::FileDeleted => v.file_deleted(),
        ClaimSubject::GitCommit => v.git_commit(),
        ClaimSubject::GitPush => v.git_push(),
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

/// Tool ids that name the same tool (the tool table's families).
fn tool_family(tool: &str) -> &str {
    match tool {
        "ruff-format" => "ruff",
        other => crate::tools::family_of(other),
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
            .filter(|r| bare.is_none_or(|b| !runs_tool_of(b, r) || covers_claimed(b, r)))
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
        let relevant = match self.drop_not_started(relevant, what) {
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
            let unit = *unit;
            return self.make(
                Verdict::Unverified,
                "no_scope_run",
                format!("Every {what} run{named} before the claim selected another part of the project; none ran or showed the {} `{name}`, and absence of evidence is not a contradiction.", scope::unit_word(unit)),
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
        if matches!(kind, Some(CommandKind::Build | CommandKind::Lint)) {
            if let Some(f) = self.scoped_check(latest, idx, &j, &fresh_note) {
                return f;
            }
        }
        if kind == Some(CommandKind::Test) {
            if let Some(f) = self.scoped(latest, idx, &j, &fresh_note) {
                return f;
            }
            if self.scope().is_none() {
                if let Some(f) = self.counted(latest, idx, &j, &fresh_note) {
                    return f;
                }
            }
        }
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
                        "unavailable.no_exit_status",
                        format!(
                            "The latest relevant run {} shows no result in its output, and the runtime declares that exit statuses cannot be observed in this capture.",
                            describe_run(latest)
                        ),
                        latest.evidence_ids(),
                    );
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
            .filter(|r| {
                self.at.sees(r.pos) && names_command(cmd, &r.invocations) && covers_claimed(cmd, r)
            })
            .map(|r| (r, claimed_invocation(cmd, r)))
            .collect()
    }
    /// Runs that could not start are no runs: the finding when nothing else is left, naming
    /// the failure; otherwise the runs that did start.
    fn drop_not_started<'r>(
        &self,
        relevant: Vec<(&'r Run, Option<usize>)>,
        what: &str,
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
            "not_started",
            format!(
                "The only {what} run, {}, could not start (`{}`): that is no run, so nothing shows the result; absence of evidence is not a contradiction.",
                describe_run(run),
                run.start_failure.as_deref().unwrap_or("")
            ),
            run.evidence_ids(),
        )))
    }
    /// The finding for a command claim that names no command.
    fn no_command(&self) -> Finding {
        self.make(
            Verdict::Unverified,
            "no_command",
            "The claim names no command to look for.".into(),
            Vec::new(),
        )
    }
    fn command_succeeded(&self) -> Finding {
        let Some(cmd) = self.claim.target.command.clone() else {
            return self.no_command();
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
        let relevant = match self.drop_not_started(relevant, "matching") {
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

/// Whether a run invokes the tool `cmd` names itself (not through a script or task runner).
fn runs_tool_of(cmd: &str, run: &Run) -> bool {
    use crate::tools::identity::{identify, main_invocation};
    let Some(claimed) = main_invocation(cmd) else {
        return false;
    };
    let tool = identify(&claimed).tool;
    run.invocations.iter().any(|inv| identify(inv).tool == tool)
}
