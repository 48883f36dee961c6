//! Reading one run's outcome for a claim: pass (full or filtered), fail, or unknown, with how
//! it was read (exit status and its strength, summary, output lines).

use fornax_types::EvidenceStrength;

use super::*;
use crate::diagnostics::Reading;

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
    pub(super) detail: String,
}

pub(super) fn strength(s: EvidenceStrength) -> &'static str {
    match s {
        EvidenceStrength::Structural => "structural",
        EvidenceStrength::Heuristic => "heuristic",
    }
}

/// Reads a run's outcome for a claim of `kind` (or about the command itself when `None`),
/// where `idx` is the invocation the claim is about.
pub(super) fn run_outcome(run: &Run, idx: Option<usize>, kind: Option<CommandKind>) -> Judged {
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
        let desc =
            crate::tools::report::describe_counts(s.passed, s.failed, s.skipped, s.filtered_out);
        notes.push(format!("summary ({} {desc})", s.runner));
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
