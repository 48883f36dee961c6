//! Scoped test claims ("the parser tests pass", "`test_refund` passes"): judged on what the
//! run's output shows for that scope, whatever happened elsewhere in the same run.

use fornax_types::evidence::{TestOutcome, TestScopeResult};
use fornax_types::{ClaimScope, ScopeUnit};

use super::outcome::{Judged, Outcome};
use super::*;

/// Whether a reported scope is the one a claim names.
fn matches(reported: &TestScopeResult, unit: ScopeUnit, name: &str) -> bool {
    let want = name.trim().trim_matches('`').to_ascii_lowercase();
    if want.is_empty() {
        return false;
    }
    let got = reported.name.to_ascii_lowercase();
    let got = got.trim_start_matches("./");
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
            ClaimScope::Whole => None,
        }
    }

    /// The finding for a scoped claim from the latest fresh run, when its output speaks for
    /// the scope (or is a failing run that only reports totals).
    pub(super) fn scoped(
        &self,
        run: &Run,
        judged: &Judged,
        fresh_after: &Option<ChangeFact>,
    ) -> Option<Finding> {
        let (unit, name) = self.scope()?;
        let summary = run.summary.as_ref()?;
        let hits: Vec<&TestScopeResult> = summary
            .scopes
            .iter()
            .filter(|s| matches(s, unit, &name))
            .collect();
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
        if hits.iter().any(|s| s.outcome == TestOutcome::Passed) {
            return Some(self.make(
                Verdict::Verified,
                Reason::ScopePasses {
                    run: self.run_fact(run),
                    unit,
                    name,
                    matching: u32::try_from(hits.len()).unwrap_or(u32::MAX),
                    others_failed: summary.failed.unwrap_or(0) > 0,
                    fresh_after: fresh_after.clone(),
                },
                run.evidence_ids(),
            ));
        }
        // Failures elsewhere, and nothing said about this scope: partial evidence.
        if judged.outcome == Outcome::Fail && summary.failed.unwrap_or(0) > 0 {
            return Some(self.make(
                Verdict::Review,
                Reason::ScopeUnknown {
                    run: self.run_fact(run),
                    readings: judged.readings.clone(),
                    unit,
                    name,
                },
                run.evidence_ids(),
            ));
        }
        None
    }
}
