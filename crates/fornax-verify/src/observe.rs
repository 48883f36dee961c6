//! Observations: the sensors run over every paired call, and their evidence (with the evidence
//! adapters and the host supplied) is read back into typed, positioned facts the verifiers
//! judge: runs of commands, file changes and commit checks.
//!
//! Position is the index on the timeline where the fact became known (a call's output, or the
//! call itself when no output was recorded). Evidence not tied to an item sorts last.

use fornax_types::evidence::{
    ExitCodePayload, FileDiffPayload, FileOperation, GitCommitCheckPayload, GitOutcomePayload,
    TestSummaryPayload,
};
use fornax_types::shell::parse_invocations;
use fornax_types::{
    Evidence, EvidencePayload, EvidenceSensor, EvidenceStrength, Invocation, Item, Provider,
    RuntimeCapabilities, SemanticValue, SensorInput, SessionRef, SignalAvailability, SignalClass,
    SourceKind, ToolOutputValue, TrustClass,
};

use crate::commands::{self, effective_invocations, CommandClass};
use crate::diagnostics::{self, Reading};
use crate::fschange::strip_heredocs;
use crate::sensors::{
    file_changes, output_text, ExitStatusSensor, FileChangeSensor, GitOutcomeSensor,
    TestSummarySensor,
};
use crate::timeline::{quote_word, CallKind, Timeline};

/// Position of facts that are tied to no item: after everything.
pub const UNPOSITIONED: usize = usize::MAX;

/// One command run (or attempted run) and what is known of its outcome.
#[derive(Debug, Clone)]
pub struct Run {
    pub pos: usize,
    pub session: SessionRef,
    pub at: Option<String>,
    pub command: String,
    /// Effective invocations (launchers unwrapped, here-documents removed).
    pub invocations: Vec<Invocation>,
    /// Recognised invocations with their index in `invocations`.
    pub classes: Vec<(usize, CommandClass)>,
    pub call_id: Option<String>,
    /// The key of the call item (for rationales when no evidence exists).
    pub call_key: Option<String>,
    pub has_output: bool,
    pub exit: Option<ExitCodePayload>,
    pub exit_id: Option<String>,
    /// Boxed: most runs have none, and a family holds thousands of runs.
    pub summary: Option<Box<TestSummaryPayload>>,
    pub summary_id: Option<String>,
    pub git: Vec<(String, GitOutcomePayload)>,
    /// What a build or lint output says on its own (see [`diagnostics`]).
    pub build_reading: Option<Reading>,
    pub lint_reading: Option<Reading>,
    /// A warning a linter printed (it may still have exited 0).
    pub lint_warning: Option<String>,
    /// Files or packages the run's own build or lint reader found errors in.
    pub check_failing: Vec<String>,
    /// The line showing the command could not start (not found, not executable, missing
    /// script or toolchain): such a run is no run at all.
    pub start_failure: Option<String>,
    pub trust: TrustClass,
}

impl Run {
    pub fn evidence_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = self
            .exit_id
            .iter()
            .chain(self.summary_id.iter())
            .cloned()
            .collect();
        ids.extend(self.git.iter().map(|(id, _)| id.clone()));
        ids
    }
}

/// A file written (or an attempt).
#[derive(Debug, Clone)]
pub struct Change {
    pub pos: usize,
    /// The session that made the change.
    pub session: SessionRef,
    pub at: Option<String>,
    /// Empty when the writer names no file (`git apply`).
    pub path: String,
    pub operation: FileOperation,
    /// `None`: the outcome was never recorded.
    pub succeeded: Option<bool>,
    pub tool: String,
    pub error: Option<String>,
    pub evidence_id: Option<String>,
    pub call_id: Option<String>,
    pub item_key: String,
}

/// A commit looked up in the repository by the host.
#[derive(Debug, Clone)]
pub struct CommitCheck {
    pub pos: usize,
    pub payload: GitCommitCheckPayload,
    pub evidence_id: String,
}

/// What the capture can show.
#[derive(Debug, Clone, Copy, Default)]
pub struct Observability {
    /// The timeline holds at least one tool output.
    pub any_output: bool,
    /// The timeline holds at least one tool call.
    pub any_call: bool,
    /// A capability declaration says tool outputs cannot be observed.
    pub outputs_declared_unobservable: bool,
    /// A capability declaration says tool calls cannot be observed.
    pub calls_declared_unobservable: bool,
    /// A capability declaration says file mutations cannot be observed.
    pub files_declared_unobservable: bool,
    /// A capability declaration says process exit statuses cannot be observed.
    pub exits_declared_unobservable: bool,
    /// Tool results are declared unobservable, yet the capture holds some, every one a failure:
    /// only failed results are captured (a hook log with PostToolUseFailure, no PostToolUse).
    pub only_failures_captured: bool,
    /// Some call has no result: calls are captured before they finish (PreToolUse), so a call
    /// whose result is not captured still appears.
    pub calls_without_output: bool,
}

impl Observability {
    /// Tool results cannot be seen in this capture: calls without any output (a hook
    /// configuration without PostToolUse), or a declaration saying so.
    pub fn outputs_unobservable(&self) -> bool {
        !self.any_output && (self.any_call || self.outputs_declared_unobservable)
    }

    pub fn calls_unobservable(&self) -> bool {
        !self.any_call && self.calls_declared_unobservable
    }
}

#[derive(Debug, Default)]
pub struct Observations {
    pub runs: Vec<Run>,
    pub changes: Vec<Change>,
    pub checks: Vec<CommitCheck>,
    pub observability: Observability,
}

fn unobservable(caps: &[&RuntimeCapabilities], class: &SignalClass) -> bool {
    caps.iter().any(|c| {
        matches!(
            c.availability(class),
            SignalAvailability::Unsupported | SignalAvailability::Unavailable
        )
    })
}

fn shell_parts(command: &str) -> (Vec<Invocation>, Vec<(usize, CommandClass)>) {
    let invocations = effective_invocations(&parse_invocations(&strip_heredocs(command)));
    let classes: Vec<(usize, CommandClass)> = invocations
        .iter()
        .enumerate()
        .map(|(i, inv)| (i, commands::classify_invocation(inv)))
        .filter(|(_, c)| c.kind != commands::CommandKind::Other)
        .collect();
    (invocations, classes)
}

/// Runs the sensors over the timeline and reads all evidence back into observations.
/// Returns the derived evidence (to be stored) and the observations.
pub fn observe(
    timeline: &Timeline<'_>,
    input_evidence: &[&Evidence],
    caps: &[&RuntimeCapabilities],
) -> (Vec<Evidence>, Observations) {
    match observe_with::<std::convert::Infallible>(timeline, input_evidence, caps, &mut |_| {
        Ok(None)
    }) {
        Ok(found) => found,
        Err(never) => match never {},
    }
}

/// [`observe`], where each tool output the sensors read first passes through `full_output`:
/// a caller that built the timeline with output texts left out returns the complete item
/// (`Ok(None)` keeps the item as it is). Only one completed output is held at a time; the
/// first error `full_output` returns stops the pass and is returned.
pub fn observe_with<E>(
    timeline: &Timeline<'_>,
    input_evidence: &[&Evidence],
    caps: &[&RuntimeCapabilities],
    full_output: &mut dyn FnMut(&Item) -> Result<Option<Item>, E>,
) -> Result<(Vec<Evidence>, Observations), E> {
    let mut derived: Vec<Evidence> = Vec::new();
    let mut obs = Observations::default();
    let default_caps =
        RuntimeCapabilities::new(Provider::Other("unknown".into()), SourceKind::File);
    let sensors: [&dyn EvidenceSensor; 4] = [
        &ExitStatusSensor,
        &TestSummarySensor,
        &GitOutcomeSensor,
        &FileChangeSensor,
    ];

    for call in &timeline.calls {
        let provider_caps = caps
            .iter()
            .find(|c| c.provider == call.item.session.provider)
            .copied()
            .unwrap_or(&default_caps);
        let mut evidence_here: Vec<Evidence> = Vec::new();
        let completed = match call.output {
            Some(o) => full_output(o.item)?,
            None => None,
        };
        let output: Option<(&Item, &ToolOutputValue)> =
            call.output.map(
                |o| match completed.as_ref().map(|c| (c, &c.semantic.value)) {
                    Some((c, SemanticValue::ToolOutput(v))) => (c, v),
                    _ => (o.item, o.value),
                },
            );
        if let Some((output_item, _)) = output {
            let input = SensorInput {
                item: output_item,
                call: Some(call.item),
            };
            for sensor in sensors {
                evidence_here.extend(sensor.collect(&input, provider_caps).evidence);
            }
        }
        let pos = call.position();
        let at = call
            .output
            .and_then(|o| o.item.at.clone())
            .or_else(|| call.item.at.clone());
        if let CallKind::Shell { command, .. } = &call.kind {
            let (invocations, classes) = shell_parts(command);
            let mut run = Run {
                pos,
                session: call.item.session.clone(),
                at: at.clone(),
                command: command.to_string(),
                invocations,
                classes,
                call_id: call.call_id.map(str::to_string),
                call_key: Some(call.item.key.clone()),
                has_output: call.output.is_some(),
                exit: None,
                exit_id: None,
                summary: None,
                summary_id: None,
                git: Vec::new(),
                build_reading: None,
                lint_reading: None,
                lint_warning: None,
                check_failing: Vec::new(),
                start_failure: None,
                trust: TrustClass::AgentAdjacent,
            };
            for ev in &evidence_here {
                attach_to_run(&mut run, ev);
            }
            if let Some((_, output_value)) = output {
                let text = output_text(output_value);
                read_output(&mut run, &text);
            }
            obs.runs.push(run);
        }
        // File changes: from the evidence when an output exists, else the bare attempt.
        if call.output.is_some() {
            for ev in &evidence_here {
                if let EvidencePayload::FileDiff(p) = &ev.payload {
                    obs.changes.push(change_from(
                        p,
                        &call.item.session,
                        pos,
                        at.clone(),
                        Some(ev.id.clone()),
                        &call.item.key,
                    ));
                }
            }
            // Writers that name no file (`git apply`) still make earlier evidence stale.
            for (t, succeeded, _) in file_changes(call.item, output.map(|(_, v)| v)) {
                if t.path.is_empty() && succeeded != Some(false) {
                    obs.changes.push(Change {
                        pos,
                        session: call.item.session.clone(),
                        at: at.clone(),
                        path: String::new(),
                        operation: t.operation,
                        succeeded,
                        tool: t.tool,
                        error: None,
                        evidence_id: None,
                        call_id: call.call_id.map(str::to_string),
                        item_key: call.item.key.clone(),
                    });
                }
            }
        } else {
            for (t, _, _) in file_changes(call.item, None) {
                obs.changes.push(Change {
                    pos,
                    session: call.item.session.clone(),
                    at: at.clone(),
                    path: t.path,
                    operation: t.operation,
                    succeeded: None,
                    tool: t.tool,
                    error: None,
                    evidence_id: None,
                    call_id: call.call_id.map(str::to_string),
                    item_key: call.item.key.clone(),
                });
            }
        }
        derived.extend(evidence_here);
    }

    let superseded = add_evidence(&mut obs, timeline, input_evidence);
    // The runtime's adapter (or the host) said it first: its evidence replaces the derived
    // evidence of the same kind about the same call, so nothing is stored twice.
    derived.retain(|e| !superseded.contains(&e.id));

    obs.runs.sort_by_key(|r| r.pos);
    obs.changes.sort_by_key(|c| c.pos);
    // Everything here lives until the family is judged and written: no spare capacity.
    derived.shrink_to_fit();
    obs.runs.shrink_to_fit();
    obs.changes.shrink_to_fit();
    obs.observability = Observability {
        any_output: timeline.output_count > 0
            || obs
                .runs
                .iter()
                .any(|r| r.has_output && r.trust == TrustClass::AgentAdjacent),
        any_call: !timeline.calls.is_empty(),
        outputs_declared_unobservable: unobservable(caps, &SignalClass::ToolOutput),
        calls_declared_unobservable: unobservable(caps, &SignalClass::ToolInvocation),
        files_declared_unobservable: unobservable(caps, &SignalClass::FileMutation),
        exits_declared_unobservable: unobservable(caps, &SignalClass::ProcessResult),
        only_failures_captured: only_failures(timeline, caps),
        calls_without_output: timeline.calls.iter().any(|c| c.output.is_none()),
    };
    Ok((derived, obs))
}

/// Whether the capture holds failed tool results only, while it declares that results cannot
/// be observed: what it lacks is every success.
fn only_failures(timeline: &Timeline<'_>, caps: &[&RuntimeCapabilities]) -> bool {
    if !unobservable(caps, &SignalClass::ToolOutput) {
        return false;
    }
    let mut outputs = timeline
        .items
        .iter()
        .filter_map(|i| match &i.semantic.value {
            SemanticValue::ToolOutput(v) => Some(v),
            _ => None,
        });
    let mut any = false;
    let all_failed = outputs.all(|v| {
        any = true;
        v.failed == Some(true) || v.exit_code.as_ref().is_some_and(|e| e.code != 0)
    });
    any && all_failed
}

/// Adds adapter- or host-supplied evidence to the observations, positioned by its item.
/// Returns the ids of derived evidence it supersedes.
pub fn add_evidence(
    obs: &mut Observations,
    timeline: &Timeline<'_>,
    evidence: &[&Evidence],
) -> Vec<String> {
    let mut superseded: Vec<String> = Vec::new();
    for ev in evidence {
        // Evidence tied to no item but stamped (a run Fornax performed) sits where its time
        // falls among the items, so only claims made after it can rest on it.
        let pos = ev
            .item_key
            .as_deref()
            .and_then(|k| timeline.index_of(&ev.session, k))
            .or_else(|| ev.at.as_deref().and_then(|t| timeline.position_at(t)))
            .unwrap_or(UNPOSITIONED);
        superseded.extend(merge_input(obs, ev, pos));
    }
    obs.runs.sort_by_key(|r| r.pos);
    obs.changes.sort_by_key(|c| c.pos);
    superseded
}

fn change_from(
    p: &FileDiffPayload,
    session: &SessionRef,
    pos: usize,
    at: Option<String>,
    id: Option<String>,
    item_key: &str,
) -> Change {
    Change {
        pos,
        session: session.clone(),
        at,
        path: p.path.clone(),
        operation: p.operation,
        succeeded: Some(p.succeeded),
        tool: p.tool.clone(),
        error: p.error.clone(),
        evidence_id: id,
        call_id: p.call_id.clone(),
        item_key: item_key.to_string(),
    }
}

fn attach_to_run(run: &mut Run, ev: &Evidence) {
    match &ev.payload {
        EvidencePayload::ExitCode(p) => {
            let better = match &run.exit {
                None => true,
                Some(cur) => {
                    cur.exit_code.is_none() && p.exit_code.is_some()
                        || cur.strength == EvidenceStrength::Heuristic
                            && p.strength == EvidenceStrength::Structural
                            && p.exit_code.is_some()
                }
            };
            if better {
                run.exit = Some(p.clone());
                run.exit_id = Some(ev.id.clone());
                run.has_output = true;
            }
        }
        EvidencePayload::TestSummary(p) if run.summary.is_none() => {
            run.summary = Some(Box::new(p.clone()));
            run.summary_id = Some(ev.id.clone());
            run.has_output = true;
        }
        EvidencePayload::GitOutcome(p)
            if !run
                .git
                .iter()
                .any(|(_, g)| g.outcome == p.outcome && g.sha == p.sha) =>
        {
            run.git.push((ev.id.clone(), p.clone()));
            run.has_output = true;
        }
        EvidencePayload::ToolResult(p) => {
            if let Some(exit) = run.exit.as_mut().filter(|e| e.failed.is_none()) {
                exit.failed = Some(p.failed);
            }
        }
        _ => {}
    }
}

fn new_run(
    pos: usize,
    ev: &Evidence,
    command: String,
    call_id: Option<String>,
    trust: TrustClass,
) -> Run {
    let (invocations, classes) = shell_parts(&command);
    Run {
        pos,
        session: ev.session.clone(),
        at: ev.at.clone(),
        command,
        invocations,
        classes,
        call_id,
        call_key: ev.item_key.clone(),
        has_output: true,
        exit: None,
        exit_id: None,
        summary: None,
        summary_id: None,
        git: Vec::new(),
        build_reading: None,
        lint_reading: None,
        lint_warning: None,
        check_failing: Vec::new(),
        start_failure: None,
        trust,
    }
}

/// What a run's output says on its own: the build and lint readings (the run's own tool's
/// reader first, the generic lines after), lint warnings, and whether it could not start.
fn read_output(run: &mut Run, text: &str) {
    let own = |kind: commands::CommandKind| {
        run.invocations
            .iter()
            .filter_map(crate::tools::recognise)
            .filter(|(_, u)| u.kind == kind)
            .find_map(|(t, _)| crate::tools::read_check(text, t))
    };
    let build = own(commands::CommandKind::Build);
    let lint = own(commands::CommandKind::Lint);
    run.check_failing = build
        .iter()
        .chain(lint.iter())
        .flat_map(|r| r.failing.iter().cloned())
        .collect();
    run.build_reading = build
        .and_then(|r| r.reading)
        .or_else(|| diagnostics::read(commands::CommandKind::Build, text));
    run.lint_reading = lint
        .and_then(|r| r.reading)
        .or_else(|| diagnostics::read(commands::CommandKind::Lint, text));
    run.lint_warning = diagnostics::lint_warning(text);
    if run.summary.is_none() {
        let code = run.exit.as_ref().and_then(|e| e.exit_code);
        run.start_failure = crate::tools::startup::could_not_start(text, code);
    }
}

/// Adds one piece of adapter- or host-supplied evidence: attached to the run it belongs to (by
/// call id) when there is one, else as a fact of its own. Returns the ids of derived evidence
/// it supersedes.
fn merge_input(obs: &mut Observations, ev: &Evidence, pos: usize) -> Vec<String> {
    let mut superseded = Vec::new();
    let call_id = ev.payload.call_id().map(str::to_string);
    let existing = call_id.as_deref().and_then(|id| {
        obs.runs
            .iter()
            .position(|r| r.call_id.as_deref() == Some(id))
    });
    match &ev.payload {
        EvidencePayload::ExitCode(_)
        | EvidencePayload::TestSummary(_)
        | EvidencePayload::GitOutcome(_)
        | EvidencePayload::ToolResult(_) => {
            if let Some(i) = existing {
                let run = &mut obs.runs[i];
                match &ev.payload {
                    EvidencePayload::ExitCode(p) => {
                        let keep_derived = p.exit_code.is_none()
                            && run.exit.as_ref().is_some_and(|e| e.exit_code.is_some());
                        if !keep_derived {
                            superseded.extend(run.exit_id.take());
                            run.exit = Some(p.clone());
                            run.exit_id = Some(ev.id.clone());
                            run.has_output = true;
                        }
                    }
                    EvidencePayload::TestSummary(p) => {
                        superseded.extend(run.summary_id.take());
                        run.summary = Some(Box::new(p.clone()));
                        run.summary_id = Some(ev.id.clone());
                        run.has_output = true;
                    }
                    EvidencePayload::GitOutcome(p) => {
                        let (derived, kept): (Vec<_>, Vec<_>) = run
                            .git
                            .drain(..)
                            .partition(|(id, _)| id.starts_with("git:"));
                        superseded.extend(derived.into_iter().map(|(id, _)| id));
                        run.git = kept;
                        run.git.push((ev.id.clone(), p.clone()));
                        run.has_output = true;
                    }
                    _ => attach_to_run(run, ev),
                }
                return superseded;
            }
            let command = match &ev.payload {
                EvidencePayload::ExitCode(p) => Some(p.command.clone()),
                EvidencePayload::TestSummary(p) => p.command.clone(),
                EvidencePayload::GitOutcome(p) => p.command.clone(),
                _ => None,
            };
            if let Some(command) = command {
                let trust = ev.source.trust_class;
                let mut run = new_run(pos, ev, command, call_id, trust);
                attach_to_run(&mut run, ev);
                obs.runs.push(run);
            }
        }
        EvidencePayload::ProcessObservation(p) => {
            let command = p
                .argv
                .iter()
                .map(|a| quote_word(a))
                .collect::<Vec<_>>()
                .join(" ");
            let mut run = new_run(pos, ev, command.clone(), None, ev.source.trust_class);
            run.exit = Some(ExitCodePayload {
                command,
                call_id: None,
                cwd: p.cwd.clone(),
                exit_code: p.exit_code,
                strength: EvidenceStrength::Structural,
                failed: None,
                interrupted: None,
                timed_out: p.timed_out,
                duration_ms: p.duration_ms,
            });
            run.exit_id = Some(ev.id.clone());
            obs.runs.push(run);
        }
        EvidencePayload::FileDiff(p) => {
            obs.changes.retain(|c| {
                let same = c.call_id.is_some()
                    && c.call_id == p.call_id
                    && crate::paths::same_file(&c.path, &p.path);
                if same {
                    superseded.extend(c.evidence_id.clone());
                }
                !same
            });
            let key = ev.item_key.clone().unwrap_or_default();
            obs.changes.push(change_from(
                p,
                &ev.session,
                pos,
                ev.at.clone(),
                Some(ev.id.clone()),
                &key,
            ));
        }
        EvidencePayload::GitCommitCheck(p) => {
            obs.checks.push(CommitCheck {
                pos,
                payload: p.clone(),
                evidence_id: ev.id.clone(),
            });
        }
        EvidencePayload::TranscriptExcerpt(_) => {}
    }
    superseded
}
