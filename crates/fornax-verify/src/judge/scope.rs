//! Scoped claims ("the parser tests pass", "`test_refund` passes", "`src/util.py` is mypy
//! clean", "the `api` package builds"): judged on what the run's output shows for that scope,
//! whatever happened elsewhere in the same run. A run filtered to that scope is full evidence
//! for it; a run filtered to another scope is no evidence for it at all.

use fornax_types::evidence::{TestOutcome, TestScopeResult};
use fornax_types::{ClaimQuantity, ClaimScope, ScopeUnit};

use fornax_types::reason::ChangeFact;

use super::outcome::{Judged, Outcome};
use super::*;

/// Whether a reported scope is the one a claim names.
fn matches(reported: &TestScopeResult, unit: ScopeUnit, name: &str) -> bool {
    names_scope(&reported.name, unit, name)
}

/// Whether `got` (a scope as a runner reports it, or a command-line selection) names the
/// claimed scope `name` of kind `unit`.
fn names_scope(got: &str, unit: ScopeUnit, name: &str) -> bool {
    let want = name.trim().trim_matches('`').to_ascii_lowercase();
    if want.is_empty() {
        return false;
    }
    let got = got.to_ascii_lowercase();
    let got = got.trim_start_matches("./");
    if got.is_empty() {
        return false;
    }
    let tail_is = |sep: &[char]| {
        got.rsplit(sep).next() == Some(want.as_str())
            || got.ends_with(&format!("/{want}"))
            || got == want
    };
    match unit {
        ScopeUnit::Test => {
            got == want
                || tail_is(&[':', '.', '/', '>', '#', ' '])
                || got.ends_with(&format!("::{want}"))
                || (got.contains("::")
                    && got.split("::").any(|p| p.split('[').next() == Some(&want)))
        }
        ScopeUnit::File => {
            same_file(got, &want)
                || got.ends_with(&format!("/{want}"))
                || want.ends_with(&format!("/{got}"))
        }
        // A directory named as a path (`tests/unit`): the same path.
        _ if want.contains('/') => {
            got.trim_end_matches('/') == want.trim_start_matches("./").trim_end_matches('/')
        }
        // Packages, modules, services, suites: a path component or word of the reported name.
        _ => {
            let norm = |s: &str| s.replace(['-', '_'], "");
            let w = norm(&want);
            got.split(['/', ':', '.', ' ', '\\']).any(|part| {
                norm(part) == w
                    || norm(
                        part.trim_start_matches("test_")
                            .trim_end_matches("_test")
                            .trim_end_matches("_spec"),
                    ) == w
            })
        }
    }
}

/// Whether a command-line selection (a path, a package, a `-k`/`-t` value) covers the scope:
/// it names it, or is a directory holding the claimed file.
fn selection_covers(arg: &str, unit: ScopeUnit, name: &str) -> bool {
    let arg = arg.trim_matches(['\'', '"']);
    // `tests/test_api.py::test_x` selects the file and the test.
    let (path, test) = arg.split_once("::").unwrap_or((arg, ""));
    if names_scope(arg, unit, name) || (unit == ScopeUnit::File && names_scope(path, unit, name)) {
        return true;
    }
    if unit == ScopeUnit::Test && !test.is_empty() {
        return names_scope(test, unit, name);
    }
    let dir = path.trim_start_matches("./").trim_end_matches("/...");
    let dir = dir.trim_end_matches('/');
    unit == ScopeUnit::File
        && !dir.is_empty()
        && dir != "."
        && name
            .trim_start_matches("./")
            .to_ascii_lowercase()
            .starts_with(&format!("{}/", dir.to_ascii_lowercase()))
}

/// Whether the claimed invocation of `run` (every recognised one when unknown) selects the
/// scope on its command line.
pub(super) fn run_selects(run: &Run, idx: Option<usize>, unit: ScopeUnit, name: &str) -> bool {
    let invocations: Vec<&fornax_types::Invocation> = match idx {
        Some(i) => run.invocations.get(i).into_iter().collect(),
        None => run
            .classes
            .iter()
            .filter_map(|(i, _)| run.invocations.get(*i))
            .collect(),
    };
    invocations.iter().any(|inv| {
        inv.argv.iter().any(|a| {
            let value = a.split_once('=').map_or(a.as_str(), |(_, v)| v);
            (!a.starts_with('-') || a.contains('=')) && selection_covers(value, unit, name)
        })
    })
}

/// Whether the claimed invocation names paths on its command line (`ruff check src/a.py`,
/// `go build ./cmd/web`), other than the whole project (`.`, `./...`).
fn names_paths(run: &Run, idx: Option<usize>) -> bool {
    let invocations: Vec<&fornax_types::Invocation> = match idx {
        Some(i) => run.invocations.get(i).into_iter().collect(),
        None => run
            .classes
            .iter()
            .filter_map(|(i, _)| run.invocations.get(*i))
            .collect(),
    };
    invocations.iter().any(|inv| {
        inv.argv.iter().any(|a| {
            let a = a.trim_matches(['\'', '"']);
            !a.starts_with('-')
                && !matches!(a, "." | "./" | "./..." | "...")
                && (a.contains('/')
                    || a.rsplit_once('.').is_some_and(|(b, e)| {
                        !b.is_empty()
                            && !e.is_empty()
                            && e.chars().all(|c| c.is_ascii_alphanumeric())
                    }))
        })
    })
}

/// Whether the run selected a subset of what its tool checks (a filter, a package, a path).
pub(super) fn run_filtered(run: &Run, idx: Option<usize>) -> bool {
    let class_filtered = match idx {
        Some(i) => run
            .classes
            .iter()
            .find(|(j, _)| *j == i)
            .is_some_and(|(_, c)| c.filtered),
        None => run.classes.iter().any(|(_, c)| c.filtered),
    };
    class_filtered
        || run
            .summary
            .as_ref()
            .is_some_and(|s| s.filtered == Some(true))
}

impl Verdicts<'_> {
    /// The scope the claim names: its structured scope, else a single test named in code.
    pub(super) fn scope(&self) -> Option<(ScopeUnit, String)> {
        match &self.claim.scope {
            ClaimScope::Named { unit, name } => Some((*unit, name.clone())),
            ClaimScope::Whole if crate::claims::names_a_test(&self.claim.text) => {
                crate::text::code_spans(&self.claim.text)
                    .iter()
                    .map(|s| s.slice(&self.claim.text).trim_matches('`').trim())
                    .find(|t| crate::claims::names_a_test(&format!("`{t}`")))
                    .map(|t| (ScopeUnit::Test, t.trim_end_matches("()").to_string()))
            }
            ClaimScope::Whole => self.command_scope(),
        }
    }

    /// The scope a claimed filtered command selects (`pytest tests/test_api.py` passes: the
    /// file), so that a wider run is read for that scope.
    fn command_scope(&self) -> Option<(ScopeUnit, String)> {
        use crate::tools::identity::{identify, main_invocation, selected_scope};
        let cmd = self.claim.target.command.as_deref()?;
        match selected_scope(&identify(&main_invocation(cmd)?))? {
            ClaimScope::Named { unit, name } => Some((unit, name)),
            ClaimScope::Whole => None,
        }
    }

    /// The scope a build or lint claim names ("the `api` package builds", "`src/util.py` is
    /// mypy clean").
    pub(super) fn check_scope(&self) -> Option<(ScopeUnit, String)> {
        match &self.claim.scope {
            ClaimScope::Named { unit, name } => Some((*unit, name.clone())),
            ClaimScope::Whole => None,
        }
    }

    /// Drops runs filtered to another scope: a run of only `tests/test_render.py` says
    /// nothing about `tests/test_api.py`. Full runs, runs selecting the scope and runs whose
    /// output shows it stay.
    pub(super) fn for_scope<'r>(
        &self,
        relevant: Vec<(&'r Run, Option<usize>)>,
        unit: ScopeUnit,
        name: &str,
    ) -> Vec<(&'r Run, Option<usize>)> {
        relevant
            .into_iter()
            .filter(|(r, i)| {
                !(run_filtered(r, *i) || names_paths(r, *i))
                    || run_selects(r, *i, unit, name)
                    || r.summary
                        .as_ref()
                        .is_some_and(|s| s.scopes.iter().any(|x| matches(x, unit, name)))
                    || r.check_failing.iter().any(|f| names_scope(f, unit, name))
            })
            .collect()
    }

    /// The finding for a scoped test claim from the latest fresh run, when its output speaks
    /// for the scope, or when it failed without saying where (partial evidence). `None` leaves
    /// it to the ordinary rule: a run of just that scope, or a passing full run.
    pub(super) fn scoped(
        &self,
        run: &Run,
        idx: Option<usize>,
        judged: &Judged,
        fresh_after: &Option<ChangeFact>,
    ) -> Option<Finding> {
        let (unit, name) = self.scope()?;
        let scopes: &[TestScopeResult] = run.summary.as_deref().map_or(&[], |s| &s.scopes);
        let hits: Vec<&TestScopeResult> =
            scopes.iter().filter(|s| matches(s, unit, &name)).collect();
        let failed: Vec<&&TestScopeResult> = hits
            .iter()
            .filter(|s| s.outcome == TestOutcome::Failed)
            .collect();
        if let Some(f) = failed.first() {
            return Some(self.make(
                Verdict::Contradicted,
                Reason::ScopeFails {
                    run: self.run_fact(run),
                    unit,
                    name,
                    reported: f.name.clone(),
                    fresh_after: fresh_after.clone(),
                },
                run.evidence_ids(),
            ));
        }
        if let Some(f) = self.scope_count_short(run, &hits, unit, &name) {
            return Some(f);
        }
        let others_failed = run
            .summary
            .as_ref()
            .is_some_and(|s| s.failed.unwrap_or(0) > 0);
        if hits.iter().any(|s| s.outcome == TestOutcome::Passed) {
            return Some(self.make(
                Verdict::Verified,
                Reason::ScopePasses {
                    run: self.run_fact(run),
                    unit,
                    name,
                    matching: u32::try_from(hits.len()).unwrap_or(u32::MAX),
                    others_failed,
                    fresh_after: fresh_after.clone(),
                },
                run.evidence_ids(),
            ));
        }
        if run_selects(run, idx, unit, &name) {
            return None;
        }
        // A failure, and nothing said about this scope: partial evidence.
        (judged.outcome == Outcome::Fail).then(|| {
            self.make(
                Verdict::Review,
                Reason::ScopeUnknown {
                    run: self.run_fact(run),
                    readings: judged.readings.clone(),
                    unit,
                    name,
                },
                run.evidence_ids(),
            )
        })
    }

    /// The finding for a scoped build or lint claim from the latest fresh run that failed:
    /// errors in the scope contradict it; errors only elsewhere (or nowhere named) are partial
    /// evidence. A run of just that scope, or a passing run, is left to the ordinary rule.
    pub(super) fn scoped_check(
        &self,
        run: &Run,
        idx: Option<usize>,
        judged: &Judged,
        fresh_after: &Option<ChangeFact>,
    ) -> Option<Finding> {
        let (unit, name) = self.check_scope()?;
        if judged.outcome != Outcome::Fail || run_selects(run, idx, unit, &name) {
            return None;
        }
        if let Some(f) = run
            .check_failing
            .iter()
            .find(|f| names_scope(f, unit, &name))
        {
            return Some(self.make(
                Verdict::Contradicted,
                Reason::ScopeCheckFails {
                    run: self.run_fact(run),
                    readings: judged.readings.clone(),
                    unit,
                    name,
                    failing: f.clone(),
                    fresh_after: fresh_after.clone(),
                },
                run.evidence_ids(),
            ));
        }
        Some(self.make(
            Verdict::Review,
            Reason::ScopeCheckUnknown {
                run: self.run_fact(run),
                readings: judged.readings.clone(),
                unit,
                name,
                failing: run.check_failing.iter().take(5).cloned().collect(),
            },
            run.evidence_ids(),
        ))
    }
}

impl Verdicts<'_> {
    /// A scoped claim stating a count ("the 12 parser tests pass") that the scope's own counts
    /// do not reach: partial evidence (the name may match only part of what the claim means).
    fn scope_count_short(
        &self,
        run: &Run,
        hits: &[&TestScopeResult],
        unit: ScopeUnit,
        name: &str,
    ) -> Option<Finding> {
        let count = match self.claim.quantity {
            ClaimQuantity::AtLeast { count } | ClaimQuantity::AllOf { count } => count,
            _ => return None,
        };
        let counted: Option<u64> = hits.iter().map(|s| s.passed).sum();
        let passed = counted.filter(|_| !hits.is_empty())?;
        if passed >= count {
            return None;
        }
        Some(self.make(
            Verdict::Review,
            Reason::ScopeCountShort {
                run: self.run_fact(run),
                unit,
                name: name.to_string(),
                passed,
                count,
            },
            run.evidence_ids(),
        ))
    }
}
