//! Scoped test claims ("the parser tests pass", "`test_refund` passes"): judged on what the
//! run's output shows for that scope, whatever happened elsewhere in the same run.

use fornax_types::evidence::{TestOutcome, TestScopeResult};
use fornax_types::{ClaimQuantity, ClaimScope, ScopeUnit};

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
    pub(super) fn scoped(&self, run: &Run, judged: &Judged, fresh_note: &str) -> Option<Finding> {
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
        let unit_word = unit_word(unit);
        if let Some(f) = failed.first() {
            return Some(self.make(
                Verdict::Contradicted,
                "scope_fails",
                format!(
                    "The latest relevant run {} shows the {unit_word} `{}` failing ({} `{}`); {fresh_note}.",
                    describe_run(run),
                    name,
                    unit_word,
                    f.name
                ),
                run.evidence_ids(),
            ));
        }
        if let Some(f) = self.scope_count_short(run, &hits, &name, unit_word) {
            return Some(f);
        }
        if hits.iter().any(|s| s.outcome == TestOutcome::Passed) {
            return Some(self.make(
                Verdict::Verified,
                "scope_passes",
                format!(
                    "The latest relevant run {} shows the {unit_word} `{}` passing ({} matching result(s), none failed){}; {fresh_note}.",
                    describe_run(run),
                    name,
                    hits.len(),
                    if summary.failed.unwrap_or(0) > 0 { ", although other scopes failed" } else { "" }
                ),
                run.evidence_ids(),
            ));
        }
        // Failures elsewhere, and nothing said about this scope: partial evidence.
        if judged.outcome == Outcome::Fail && summary.failed.unwrap_or(0) > 0 {
            return Some(self.make(
                Verdict::Review,
                "scope_unknown",
                format!(
                    "The latest relevant run {} failed ({}), but its output does not show the {unit_word} `{}` either way.",
                    describe_run(run),
                    judged.detail,
                    name
                ),
                run.evidence_ids(),
            ));
        }
        None
    }
}

impl Verdicts<'_> {
    /// A scoped claim stating a count ("the 12 parser tests pass") that the scope's own counts
    /// do not reach: partial evidence (the name may match only part of what the claim means).
    fn scope_count_short(
        &self,
        run: &Run,
        hits: &[&TestScopeResult],
        name: &str,
        unit_word: &str,
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
            "scope_count_short",
            format!(
                "The latest relevant run {} shows {passed} passing test(s) in the {unit_word} `{name}`, fewer than the {count} the claim states.",
                describe_run(run)
            ),
            run.evidence_ids(),
        ))
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
