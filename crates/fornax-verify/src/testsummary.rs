//! Test-runner output parsed into a report: how many tests passed, failed, were skipped or
//! were filtered out, and what the output showed per scope.
//!
//! The parsers are the tool table's ([`crate::tools`]); this module is the entry point for
//! output whose tool is not known: every test parser is tried, the most specific format first,
//! and the first that recognises the output wins. A parser only answers when it sees its
//! runner's own closing lines, so ordinary program output does not read as a test summary.
//! Errors count as failures (pytest `errors`, JUnit `Errors`, PHPUnit `Errors:`).

pub use crate::tools::report::TestReport as Summary;

/// Parses test-runner output. `None` when no runner's summary is recognised.
pub fn parse(output: &str) -> Option<Summary> {
    crate::tools::parse_tests(output, None)
}

#[cfg(test)]
mod tests;
