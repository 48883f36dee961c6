//! Reading one run's outcome for a claim: pass (full or filtered), fail, or unknown, with how
//! it was read (exit status and its strength, summary, output lines) as typed [`Reading`]s.

use fornax_types::reason::Reading;
use fornax_types::EvidenceStrength;

use super::*;
use crate::diagnostics::Reading as Diagnostic;

#[derive(Debug, Clone, PartialEq)]
pub(super) enum Outcome {
    Pass { full: bool },
    Fail,
    Unknown,
}

#[derive(Debug, Clone)]
pub(super) struct Judged {
    pub(super) outcome: Outcome,
    /// How the outcome was read, for the rationale.
    pub(super) readings: Vec<Reading>,
}

impl Judged {
    fn new(outcome: Outcome, readings: Vec<Reading>) -> Judged {
        Judged { outcome, readings }
    }
}

/// Reads a run's outcome for a claim of `kind` (or about the command itself when `None`),
/// where `idx` is the invocation the claim is about.
pub(super) fn run_outcome(run: &Run, idx: Option<usize>, kind: Option<CommandKind>) -> Judged {
    if !run.has_output {
        return Judged::new(Outcome::Unknown, vec![Reading::NoResult]);
    }
    let class_at = idx
        .and_then(|i| run.classes.iter().find(|(j, _)| *j == i))
        .map(|(_, c)| c);
    if kind == Some(CommandKind::Build) && class_at.is_some_and(|c| c.kind == CommandKind::Test) {
        return build_from_test_run(run);
    }
    let mut notes: Vec<Reading> = Vec::new();
    let exit = run.exit.as_ref();
    if exit.is_some_and(|e| e.interrupted == Some(true)) {
        return Judged::new(Outcome::Unknown, vec![Reading::Interrupted]);
    }
    if exit.is_some_and(|e| e.timed_out == Some(true)) {
        return Judged::new(Outcome::Unknown, vec![Reading::TimedOut]);
    }
    let class_filtered = idx
        .and_then(|i| run.classes.iter().find(|(j, _)| *j == i))
        .is_some_and(|(_, c)| c.filtered);
    let summary_counts = matches!(
        kind,
        None | Some(CommandKind::Test) | Some(CommandKind::Other)
    );
    let summary = run.summary.as_deref().filter(|_| summary_counts);
    let filtered = class_filtered || summary.is_some_and(|s| s.filtered == Some(true));
    let attributable = idx.is_none_or(|i| exit_reflects(&run.invocations, i));
    if let Some(s) = summary {
        notes.push(Reading::Summary {
            runner: s.runner.clone(),
            passed: s.passed,
            failed: s.failed,
            skipped: s.skipped,
            filtered_out: s.filtered_out,
        });
        if s.failed.unwrap_or(0) > 0 {
            return Judged::new(Outcome::Fail, notes);
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
    let pass = |mut notes: Vec<Reading>| -> Judged {
        if filtered {
            notes.push(Reading::Subset);
        }
        Judged::new(Outcome::Pass { full: !filtered }, notes)
    };
    match exit.and_then(|e| e.exit_code.map(|c| (c, e.strength))) {
        Some((code, strength)) if attributable => {
            notes.insert(0, Reading::Exit { code, strength });
            if code != 0 && summary_clean && kind == Some(CommandKind::Test) {
                // The tests passed and the command failed for another reason (a coverage
                // threshold, a teardown): the signals conflict.
                notes.push(Reading::SummaryShowsNoFailure);
                return Judged::new(Outcome::Unknown, notes);
            }
            if code != 0 {
                return Judged::new(Outcome::Fail, notes);
            }
            if summary_empty {
                notes.push(Reading::NoTestsRan);
                return Judged::new(Outcome::Unknown, notes);
            }
            // A heuristic 0 (assumed from a call not marked failed) is weaker than an output
            // that shows the build or lint failing.
            if strength == EvidenceStrength::Heuristic
                && matches!(kind, Some(CommandKind::Build | CommandKind::Lint))
            {
                if let Some(Diagnostic::Failed(line)) = reading {
                    notes.push(Reading::OutputContradicts { line: line.clone() });
                    return Judged::new(Outcome::Fail, notes);
                }
            }
            if kind == Some(CommandKind::Lint) {
                if let Some(w) = &run.lint_warning {
                    // Exit 0 with warnings: not the clean result a lint claim describes.
                    notes.push(Reading::LintWarnings { line: w.clone() });
                    return Judged::new(Outcome::Unknown, notes);
                }
            }
            pass(notes)
        }
        Some((code, strength)) => {
            notes.insert(0, Reading::ExitOfLaterCommand { code, strength });
            decide_without_exit(summary_clean, reading, notes, pass)
        }
        None => {
            if exit.is_some_and(|e| e.failed == Some(true)) && attributable {
                notes.insert(0, Reading::MarkedFailed);
                return Judged::new(Outcome::Fail, notes);
            }
            notes.insert(0, Reading::NoExitStatus);
            decide_without_exit(summary_clean, reading, notes, pass)
        }
    }
}

/// A test run read as a build: compile errors fail it; tests that ran (whatever their result)
/// or a clean exit show that the code built.
fn build_from_test_run(run: &Run) -> Judged {
    if let Some(Diagnostic::Failed(line)) = &run.build_reading {
        return Judged::new(
            Outcome::Fail,
            vec![Reading::TestRunDidNotBuild { line: line.clone() }],
        );
    }
    if let Some(s) = &run.summary {
        return Judged::new(
            Outcome::Pass { full: true },
            vec![Reading::TestRunBuilt {
                runner: s.runner.clone(),
            }],
        );
    }
    match run
        .exit
        .as_ref()
        .and_then(|e| e.exit_code.map(|c| (c, e.strength)))
    {
        Some((0, strength)) => Judged::new(
            Outcome::Pass { full: true },
            vec![Reading::TestRunExited { strength }],
        ),
        _ => Judged::new(Outcome::Unknown, vec![Reading::TestRunSilentOnBuild]),
    }
}

fn decide_without_exit(
    summary_clean: bool,
    reading: Option<&Diagnostic>,
    mut notes: Vec<Reading>,
    pass: impl Fn(Vec<Reading>) -> Judged,
) -> Judged {
    if summary_clean {
        return pass(notes);
    }
    match reading {
        Some(Diagnostic::Failed(line)) => {
            notes.push(Reading::OutputShows { line: line.clone() });
            Judged::new(Outcome::Fail, notes)
        }
        Some(Diagnostic::Succeeded(line)) => {
            notes.push(Reading::OutputShows { line: line.clone() });
            pass(notes)
        }
        None => {
            notes.push(Reading::OutputSilent);
            Judged::new(Outcome::Unknown, notes)
        }
    }
}
