//! Test claims that state a quantity ("48 tests pass", "all 48 pass", "no failures"): judged
//! on the counts of the latest fresh summary. A count says nothing about the other tests; "all
//! N" also claims that none failed; "none failed" says nothing of how many passed.

use fornax_types::reason::{ChangeFact, ClaimedCount, TestCounts};
use fornax_types::ClaimQuantity;

use super::outcome::{Judged, Outcome};
use super::*;

impl Verdicts<'_> {
    /// The finding for a whole-suite test claim with a quantity, when the counts decide it;
    /// `None` leaves the claim to the ordinary rule (a plain pass or failure).
    pub(super) fn counted(
        &self,
        run: &Run,
        idx: Option<usize>,
        judged: &Judged,
        fresh_after: &Option<ChangeFact>,
    ) -> Option<Finding> {
        let (count, all) = match self.claim.quantity {
            ClaimQuantity::AtLeast { count } => (count, false),
            ClaimQuantity::AllOf { count } => (count, true),
            ClaimQuantity::NoneFailed => return self.none_failed(run, idx, judged, fresh_after),
            ClaimQuantity::All | ClaimQuantity::Unqualified => return None,
        };
        if run
            .exit
            .as_ref()
            .is_some_and(|e| e.interrupted == Some(true) || e.timed_out == Some(true))
        {
            return None;
        }
        let summary = run.summary.as_deref().filter(|_| run.has_output);
        let passed = summary.and_then(|s| s.passed);
        let failed = summary.and_then(|s| s.failed).unwrap_or(0);
        let filtered = is_filtered(run, idx);
        let counts = summary.map(test_counts).unwrap_or_default();
        let claimed = ClaimedCount { count, all };
        match passed {
            // "All N" with a failure: the ordinary rule contradicts it.
            _ if all && failed > 0 => None,
            Some(p) if p >= count && all => None,
            Some(p) if p >= count => Some(self.make(
                Verdict::Verified,
                Reason::CountMet {
                    run: self.run_fact(run),
                    counts,
                    count,
                    readings: judged.readings.clone(),
                    fresh_after: fresh_after.clone(),
                },
                run.evidence_ids(),
            )),
            Some(_) if filtered => Some(self.make(
                Verdict::Review,
                Reason::CountFiltered {
                    run: self.run_fact(run),
                    counts,
                    claimed,
                },
                run.evidence_ids(),
            )),
            Some(_) => Some(self.make(
                Verdict::Contradicted,
                Reason::CountShort {
                    run: self.run_fact(run),
                    counts,
                    claimed,
                    fresh_after: fresh_after.clone(),
                },
                run.evidence_ids(),
            )),
            // Counts were not reported: nothing shows how many passed.
            None if all && judged.outcome == Outcome::Fail => None,
            None => Some(self.make(
                Verdict::Review,
                Reason::CountUnknown {
                    run: self.run_fact(run),
                    result: run_result(&judged.outcome),
                    readings: judged.readings.clone(),
                    claimed,
                },
                run.evidence_ids(),
            )),
        }
    }

    /// "No failures": a full run whose summary counts tests and no failure, even when the
    /// command failed for another reason (a coverage threshold, a teardown).
    fn none_failed(
        &self,
        run: &Run,
        idx: Option<usize>,
        judged: &Judged,
        fresh_after: &Option<ChangeFact>,
    ) -> Option<Finding> {
        let s = run.summary.as_deref().filter(|_| run.has_output)?;
        let clean = s.failed == Some(0) && s.passed.unwrap_or(0) > 0;
        if !clean || is_filtered(run, idx) || judged.outcome != Outcome::Unknown {
            return None;
        }
        Some(self.make(
            Verdict::Verified,
            Reason::NoneFailed {
                run: self.run_fact(run),
                runner: s.runner.clone(),
                counts: test_counts(s),
                readings: judged.readings.clone(),
                fresh_after: fresh_after.clone(),
            },
            run.evidence_ids(),
        ))
    }
}

fn test_counts(s: &fornax_types::evidence::TestSummaryPayload) -> TestCounts {
    TestCounts {
        passed: s.passed,
        failed: s.failed,
        skipped: s.skipped,
        filtered_out: s.filtered_out,
    }
}

/// Whether the claimed invocation of `run` (or its summary) selected part of the suite.
fn is_filtered(run: &Run, idx: Option<usize>) -> bool {
    let class_filtered = idx
        .and_then(|i| run.classes.iter().find(|(j, _)| *j == i))
        .is_some_and(|(_, c)| c.filtered);
    class_filtered
        || run
            .summary
            .as_ref()
            .is_some_and(|s| s.filtered == Some(true))
}
