//! Output parsers, one per tool family. A test parser answers only when it sees its runner's
//! own closing lines (so ordinary program output does not read as a test run) and reads what
//! the output shows per scope; a check parser reads a build or lint tool's verdict lines.
//!
//! Work is bounded: at most the last [`MAX_PARSED`] bytes of an output are read, every pattern
//! is compiled once per process, and each parser is one pass (or a few) over the text.

use std::sync::LazyLock;

use regex::Regex;

use super::report::TestReport;

pub mod checks;
mod dotnet;
mod elixir;
mod generic;
mod go;
mod js;
mod jvm;
mod native;
mod php;
mod python;
mod ruby;
mod rust;
mod script;

pub use checks::{CheckReport, Reading};
pub use dotnet::dotnet;
pub use elixir::exunit;
pub use generic::generic;
pub use go::{go, go_json};
pub use js::{bun, deno, jest, jest_json, mocha, playwright, vitest};
pub use jvm::{gradle, junit_xml, maven};
pub use native::{ctest, swift};
pub use php::phpunit;
pub use python::{pytest, unittest};
pub use ruby::{minitest, rspec};
pub use rust::{cargo, libtest_json, nextest};
pub use script::{script_header, ScriptHeader};

/// The most bytes of one output a parser reads (the end of it, where runners summarise).
pub const MAX_PARSED: usize = 4 << 20;

/// The part of an output parsers read: all of it, or its last [`MAX_PARSED`] bytes.
pub fn bounded(out: &str) -> &str {
    if out.len() <= MAX_PARSED {
        return out;
    }
    let mut start = out.len() - MAX_PARSED;
    while !out.is_char_boundary(start) {
        start += 1;
    }
    &out[start..]
}

/// A test-output parser.
pub type TestParser = fn(&str) -> Option<TestReport>;

pub(crate) fn re(pattern: &str) -> Regex {
    // Patterns are constants of this module, compiled once; the table test compiles them all.
    Regex::new(pattern).unwrap_or_else(|_| Regex::new("$^").expect("empty pattern compiles"))
}

pub(crate) fn num(s: Option<regex::Match<'_>>) -> u64 {
    s.and_then(|m| m.as_str().parse().ok()).unwrap_or(0)
}

pub(crate) fn add(slot: &mut Option<u64>, n: u64) {
    *slot = Some(slot.unwrap_or(0).saturating_add(n));
}

/// Reads `N word` pairs (`1 failed, 41 passed, 2 skipped`) into a report's totals.
pub(crate) fn count_words(report: &mut TestReport, text: &str, sep: &Regex) {
    static PAIR: LazyLock<Regex> = LazyLock::new(|| re(r"^\s*(\d+)\s+([A-Za-z][A-Za-z ()]*?)\s*$"));
    for part in sep.split(text) {
        let Some(c) = PAIR.captures(part) else {
            continue;
        };
        let n = num(c.get(1));
        let word = c.get(2).map_or("", |m| m.as_str()).to_ascii_lowercase();
        let word = word.split_whitespace().next().unwrap_or("");
        match word {
            "passed" | "passing" | "pass" | "ok" | "succeeded" => add(&mut report.passed, n),
            "failed" | "failing" | "fail" | "failures" | "failure" | "error" | "errors"
            | "errored" | "broken" | "timed" | "crashed" => add(&mut report.failed, n),
            "skipped" | "skip" | "pending" | "todo" | "ignored" | "xfailed" | "xfail"
            | "incomplete" => add(&mut report.skipped, n),
            "deselected" | "filtered" => add(&mut report.filtered_out, n),
            // xpassed tests are unexpected passes: neither a failure nor a plain pass.
            _ => {}
        }
    }
}

pub(crate) static COMMA: LazyLock<Regex> = LazyLock::new(|| re(r",\s*"));
pub(crate) static PIPE: LazyLock<Regex> = LazyLock::new(|| re(r"\s*\|\s*"));

/// Strips ANSI colour sequences when there are any (borrowed otherwise).
pub fn plain(out: &str) -> std::borrow::Cow<'_, str> {
    static ANSI: LazyLock<Regex> = LazyLock::new(|| re(r"\x1b\[[0-9;?]*[A-Za-z]"));
    if !out.contains('\x1b') {
        return std::borrow::Cow::Borrowed(out);
    }
    ANSI.replace_all(out, "")
}
