//! What a test run's output says: totals, and per scope (test, file, package, module) which
//! passed, failed or were skipped.
//!
//! Reports are bounded: at most [`MAX_SCOPES`] scopes are kept (failures before passes), each
//! name at most [`MAX_NAME`] bytes, so one huge output cannot grow a payload without limit.

use fornax_types::evidence::{TestOutcome, TestScopeResult};
use fornax_types::ScopeUnit;

/// The most scopes one report keeps.
pub const MAX_SCOPES: usize = 400;
/// The longest scope name kept, in bytes.
pub const MAX_NAME: usize = 240;

/// A parsed test run. `None` counts mean the runner did not say.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TestReport {
    /// The id of the parser that recognised the output (`cargo`, `pytest`, `go`, `jest`, ...).
    pub runner: &'static str,
    pub passed: Option<u64>,
    pub failed: Option<u64>,
    pub skipped: Option<u64>,
    /// Tests excluded by a filter or deselected, when the runner reports it.
    pub filtered_out: Option<u64>,
    /// Per-scope results, failures first.
    pub scopes: Vec<TestScopeResult>,
    /// More scopes were shown than were kept.
    pub scopes_truncated: bool,
}

impl TestReport {
    pub fn new(runner: &'static str) -> Self {
        TestReport {
            runner,
            ..TestReport::default()
        }
    }

    /// At least one test failed (or errored).
    pub fn has_failures(&self) -> bool {
        self.failed.unwrap_or(0) > 0
    }

    /// The run reported no failures and ran at least one test (or reported zero failures
    /// without counting passes, as Gradle does on success).
    pub fn is_clean_pass(&self) -> bool {
        !self.has_failures()
            && (self.passed.unwrap_or(0) > 0 || (self.passed.is_none() && self.failed == Some(0)))
    }

    /// The runner reports that tests were excluded by a filter.
    pub fn reports_filter(&self) -> bool {
        self.filtered_out.unwrap_or(0) > 0
    }

    /// A short human description, for rationales: `cargo: 25 passed, 0 failed`.
    pub fn describe(&self) -> String {
        format!(
            "{}: {}",
            self.runner,
            describe_counts(self.passed, self.failed, self.skipped, self.filtered_out)
        )
    }

    /// Records one scope (bounded; a scope seen twice keeps its worst outcome).
    pub fn scope(&mut self, unit: ScopeUnit, name: &str, outcome: TestOutcome) {
        self.scope_counted(unit, name, outcome, None, None);
    }

    /// [`TestReport::scope`] with per-scope counts.
    pub fn scope_counted(
        &mut self,
        unit: ScopeUnit,
        name: &str,
        outcome: TestOutcome,
        passed: Option<u64>,
        failed: Option<u64>,
    ) {
        let name = bounded_name(name);
        if name.is_empty() {
            return;
        }
        if let Some(s) = self
            .scopes
            .iter_mut()
            .rev()
            .take(64)
            .find(|s| s.unit == unit && s.name == name)
        {
            if rank(outcome) > rank(s.outcome) {
                s.outcome = outcome;
            }
            s.passed = passed.or(s.passed);
            s.failed = failed.or(s.failed);
            return;
        }
        if self.scopes.len() >= MAX_SCOPES {
            self.scopes_truncated = true;
            // A failure displaces the last kept pass: failures are what a verdict needs most.
            if outcome != TestOutcome::Failed {
                return;
            }
            match self
                .scopes
                .iter()
                .rposition(|s| s.outcome != TestOutcome::Failed)
            {
                Some(i) => {
                    self.scopes.remove(i);
                }
                None => return,
            }
        }
        self.scopes.push(TestScopeResult {
            unit,
            name,
            outcome,
            passed,
            failed,
        });
    }

    /// Orders the scopes failures first (stable), once parsing is done.
    pub fn finish(mut self) -> Self {
        self.scopes
            .sort_by_key(|s| std::cmp::Reverse(rank(s.outcome)));
        self
    }

    /// The scopes of one unit.
    pub fn scopes_of(&self, unit: ScopeUnit) -> impl Iterator<Item = &TestScopeResult> {
        self.scopes.iter().filter(move |s| s.unit == unit)
    }
}

/// `25 passed, 1 failed, 2 skipped` (only what is known).
pub fn describe_counts(
    passed: Option<u64>,
    failed: Option<u64>,
    skipped: Option<u64>,
    filtered_out: Option<u64>,
) -> String {
    let mut parts = Vec::new();
    if let Some(p) = passed {
        parts.push(format!("{p} passed"));
    }
    if let Some(f) = failed {
        parts.push(format!("{f} failed"));
    }
    if let Some(s) = skipped.filter(|s| *s > 0) {
        parts.push(format!("{s} skipped"));
    }
    if let Some(f) = filtered_out.filter(|f| *f > 0) {
        parts.push(format!("{f} filtered out"));
    }
    if parts.is_empty() {
        parts.push("no counts".into());
    }
    parts.join(", ")
}

fn rank(o: TestOutcome) -> u8 {
    match o {
        TestOutcome::Skipped => 0,
        TestOutcome::Passed => 1,
        TestOutcome::Failed => 2,
    }
}

fn bounded_name(name: &str) -> String {
    let name = name.trim();
    if name.len() <= MAX_NAME {
        return name.to_string();
    }
    let mut end = MAX_NAME;
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    name[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_are_bounded_and_failures_kept() {
        let mut r = TestReport::new("x");
        for i in 0..MAX_SCOPES + 10 {
            r.scope(ScopeUnit::Test, &format!("t{i}"), TestOutcome::Passed);
        }
        r.scope(ScopeUnit::Test, "bad", TestOutcome::Failed);
        assert!(r.scopes_truncated);
        assert_eq!(r.scopes.len(), MAX_SCOPES);
        let r = r.finish();
        assert_eq!(r.scopes[0].name, "bad");
        let mut r = TestReport::new("x");
        r.scope(ScopeUnit::File, "a.py", TestOutcome::Passed);
        r.scope(ScopeUnit::File, "a.py", TestOutcome::Failed);
        r.scope(ScopeUnit::File, "a.py", TestOutcome::Passed);
        assert_eq!(r.scopes.len(), 1);
        assert_eq!(r.scopes[0].outcome, TestOutcome::Failed);
        r.scope(ScopeUnit::Test, &"é".repeat(400), TestOutcome::Passed);
        assert!(r.scopes[1].name.len() <= MAX_NAME);
    }
}
