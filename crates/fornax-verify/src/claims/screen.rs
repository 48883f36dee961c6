//! A cheap test run once per sentence before its clauses are read: most sentences of agent
//! prose ("Checking whether the cache is stale before the next read") hold nothing a clause
//! could turn into an assertion, and reading their clauses costs dozens of pattern searches.
//!
//! The test is derived from the patterns the clause reader itself uses, never written beside
//! them: every English assertion needs one of the words in [`NEEDED`] (a success predicate,
//! a commit, a push, a delete verb, an action), or inline code, or a file path. Each pattern is
//! used with its zero-width assertions (`\b`, `^`, `$`) removed, which can only widen what it
//! matches, and so that a match in any part of the sentence is a match in the sentence; the
//! paths are found by the characters every path has (`/`, `\`, `.` inside a token) or a
//! well-known file name. The screen says "maybe" whenever the clause reader could find
//! anything, so skipping a sentence it rejects changes no assertion.

use std::sync::LazyLock;

use regex::{Regex, RegexSet};

use super::pattern::{rewrite, Anchors, Pattern};

use super::lexicon::*;
use super::targets::BARE_RANGE;
use super::BUILD_FIX_LABEL;
use crate::paths::BARE_FILE_NAMES;

/// The patterns one of which an English clause needs to yield an assertion without inline
/// code or a path: the success predicates of `Doc::successes`, the commit, push and
/// delete words, pushes shown as ranges, pushes in words, actions and commit nouns (a commit
/// by someone else).
pub(super) fn needed() -> Vec<&'static Pattern> {
    vec![
        &PASS_WORD,
        &PASSING,
        &SUCCEED,
        &EXIT_ZERO,
        &COUNT_PASS,
        &OK_PHRASE,
        &VERIFIED_BY,
        &BUILD_FIXED,
        &GREEN,
        &BUILDS_VERB,
        &BUILD_FIX_LABEL,
        &COMMITTED,
        &PUSHED,
        &BARE_RANGE,
        &LIVE_AT,
        &ACTION,
        &COMMIT_NOUN,
        &DELETE_VERB,
    ]
}

/// A pattern without its zero-width assertions: `\b`, and `^` and `$` outside classes.
/// Removing an assertion only lets more text match, and what is left matches the same bytes
/// wherever they stand.
pub(super) fn relax(pattern: &str) -> String {
    rewrite(
        pattern,
        |escaped, in_class| (escaped == 'b' && !in_class).then(String::new),
        Anchors::Drop,
    )
}

struct Screen {
    /// The needed words, relaxed, over lower-cased text with inline code blanked.
    words: RegexSet,
    /// What every file path a sentence could name has, over the original text.
    paths: Regex,
}

static SCREEN: LazyLock<Option<Screen>> = LazyLock::new(|| {
    let words = RegexSet::new(needed().iter().map(|r| relax(r.as_str()))).ok()?;
    let names: Vec<String> = BARE_FILE_NAMES.iter().map(|n| regex::escape(n)).collect();
    let paths = Regex::new(&format!(r"[/\\]|\.[A-Za-z0-9_./\\-]|{}", names.join("|"))).ok()?;
    Some(Screen { words, paths })
});

/// Whether a sentence may hold an English assertion. `lower` is its lower-cased text with
/// inline code blanked, `text` its original text; `has_code` whether inline code or a quoted
/// command overlaps it. A screen that cannot be built lets every sentence through.
pub(super) fn may_assert(lower: &str, text: &str, has_code: bool) -> bool {
    let Some(screen) = SCREEN.as_ref() else {
        return true;
    };
    has_code || screen.paths.is_match(text) || screen.words.is_match(lower)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relaxing_drops_only_assertions() {
        assert_eq!(relax(r"\bpass(?:es)?\b"), "pass(?:es)?");
        assert_eq!(relax(r"^\s+(?:a|b)$"), r"\s+(?:a|b)");
        assert_eq!(relax(r"[^\]x]+\.\\b"), r"[^\]x]+\.\\b");
        assert_eq!(relax(r"[]^$]\$\^"), r"[]^$]\$\^");
        assert_eq!(relax(r"[\w./-]*[^\x00-\x7f]"), r"[\w./-]*[^\x00-\x7f]");
    }

    #[test]
    fn every_needed_pattern_is_screened() {
        let screen = SCREEN.as_ref().expect("the screen compiles");
        assert_eq!(screen.words.len(), needed().len());
        for re in needed() {
            let relaxed = relax(re.as_str());
            assert!(Regex::new(&relaxed).is_ok(), "{relaxed}");
        }
    }

    #[test]
    fn a_match_of_a_needed_pattern_passes_the_screen() {
        // Phrases each needed pattern matches, alone and inside longer prose.
        let phrases = [
            "all tests pass",
            "tests are passing",
            "the deploy succeeded",
            "exited with code 0",
            "58 passed",
            "no issues",
            "verified the fix by compiling it",
            "fixed the build",
            "clippy is clean",
            "it compiles cleanly",
            "build fix: moved the import",
            "committed it",
            "pushed the branch",
            "abc1234..def5678",
            "the repo is live at github",
            "opened a pull request",
            "their commit",
            "got rid of the old files",
        ];
        for p in phrases {
            let matched = needed().iter().any(|re| re.is_match(p));
            assert!(matched, "no needed pattern matches {p:?}");
            for hay in [
                p.to_string(),
                format!("so then {p}, as before"),
                format!("x{p}x"),
            ] {
                assert!(may_assert(&hay, &hay, false), "{hay:?}");
            }
        }
        for p in [
            "src/a.rs",
            "a\\b",
            "README",
            "the Makefile",
            "notes.md",
            ".env",
        ] {
            assert!(may_assert("", p, false), "{p:?}");
        }
        assert!(may_assert("", "", true));
        let prose = "let me look at how the retry loop handles a closed connection";
        assert!(!may_assert(prose, prose, false));
    }
}
