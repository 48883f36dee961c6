//! Build and lint verdicts read from output text, for runs whose exit status does not speak for
//! the command (a `| tail`, a `|| true`, or a runtime that recorded none).
//!
//! Only unmistakable closing lines count: compiler errors (`error[E0308]`, `error TS2345`),
//! `BUILD FAILED`, linter totals (`✖ 3 problems (1 error, 2 warnings)`, `Found 4 errors.`), and
//! their success counterparts (`Finished `dev` profile`, `All checks passed!`).

use std::sync::LazyLock;

use regex::Regex;

use crate::commands::CommandKind;

// Word boundaries are ASCII (`(?-u:\b)`): a Unicode `\b` keeps the regex engine off its
// DFAs on any non-ASCII output and onto the much slower PikeVM; every boundary here sits next
// to an ASCII word anyway.

static BUILD_FAILURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?m)^(?:error(?:\[E\d{4}\])?: .+|.*(?-u:\b)error TS\d+: .+|.+:\d+(?::\d+)?: (?:fatal )?error: .+|BUILD FAILED(?-u:\b).*|BUILD FAILURE(?-u:\b).*|Build FAILED\.?.*|FAILURE: Build failed.*|make(?:\[\d+\])?: \*\*\* .*Error \d+.*|Found \d+ errors? in .+|# [\w./-]+\n.+\.go:\d+:\d+: .+)$",
    )
    .expect("valid regex")
});
static BUILD_SUCCESS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\s*(?:Finished `?\w+`? profile|Finished (?:dev|release) \[|Compiled successfully|BUILD SUCCESSFUL|Build succeeded\.?|webpack \d[\d.]* compiled successfully|✓ built in)")
        .expect("valid regex")
});
static LINT_FAILURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?m)^(?:error(?:\[\w+\])?: .+|✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)|ESLint found too many warnings.*|Found \d+ errors?(?-u:\b).*|.+:\d+:\d+: [A-Z]{1,4}\d{2,4}(?-u:\b).+|.+:\d+(?::\d+)?: error: .+|\d+ files? would be reformatted.*|would reformat .+|Diff in .+|\d+ issues?:?\s*$|.*[1-9]\d* (?:offenses?|problems?) detected.*)$",
    )
    .expect("valid regex")
});
static ESLINT_ZERO_ERRORS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"✖ \d+ problems? \(0 errors?, \d+ warnings?\)").expect("valid regex")
});
static LINT_SUCCESS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\s*(?:All checks passed!|Success: no issues found.*|0 problems|Finished `?\w+`? profile|\d+ files? (?:already formatted|left unchanged)|All matched files use Prettier code style!|no offenses detected)")
        .expect("valid regex")
});

static LINT_WARNINGS: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?m)^(?:warning: .+ generated \d+ warnings?.*|✖ \d+ problems? \(0 errors?, [1-9]\d* warnings?\)|Found [1-9]\d* warnings?(?-u:\b).*|.+:\d+:\d+:\s+warning(?-u:\b).*|\s*\d+:\d+\s+warning\s+.+)$",
    )
    .expect("valid regex")
});

/// A line of a lint output that reports warnings (which a tool may print while exiting 0).
pub fn lint_warning(text: &str) -> Option<String> {
    LINT_WARNINGS.find(text).map(|m| shorten(m.as_str().trim()))
}

/// What a build or lint output says on its own.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reading {
    /// A failure line (quoted for the rationale).
    Failed(String),
    /// A success line.
    Succeeded(String),
}

/// Reads a build or lint output. `None` when the text says nothing conclusive (or `kind` is
/// not build or lint).
pub fn read(kind: CommandKind, text: &str) -> Option<Reading> {
    let (failure, success) = match kind {
        CommandKind::Build => (&*BUILD_FAILURE, &*BUILD_SUCCESS),
        CommandKind::Lint => (&*LINT_FAILURE, &*LINT_SUCCESS),
        _ => return None,
    };
    if let Some(m) = failure.find(text) {
        let line = m.as_str().lines().next().unwrap_or("").trim();
        // ESLint reports warnings as problems; without --max-warnings they do not fail.
        if !(kind == CommandKind::Lint && ESLINT_ZERO_ERRORS.is_match(line)) {
            return Some(Reading::Failed(shorten(line)));
        }
    }
    success
        .find(text)
        .map(|m| Reading::Succeeded(shorten(m.as_str().trim())))
}

fn shorten(line: &str) -> String {
    if line.chars().count() <= 160 {
        return line.to_string();
    }
    let mut s: String = line.chars().take(157).collect();
    s.push('…');
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn build_lines() {
        let rust = "   Compiling kiln v0.3.0\nerror[E0599]: no method named `frobnicate` found\n  --> src/lib.rs:4:7\n";
        assert!(
            matches!(read(CommandKind::Build, rust), Some(Reading::Failed(l)) if l.starts_with("error[E0599]"))
        );
        let ts =
            "src/app.ts(3,9): error TS2322: Type 'string' is not assignable to type 'number'.\n";
        assert!(matches!(
            read(CommandKind::Build, ts),
            Some(Reading::Failed(_))
        ));
        let ok = "   Compiling kiln v0.3.0\n    Finished `release` profile [optimized] target(s) in 9.1s\n";
        assert!(matches!(
            read(CommandKind::Build, ok),
            Some(Reading::Succeeded(_))
        ));
        assert_eq!(read(CommandKind::Build, "nothing to see"), None);
        assert_eq!(read(CommandKind::Test, rust), None);
    }

    #[test]
    fn lint_lines() {
        let eslint = "/w/src/a.ts\n  3:10  error  'x' is defined but never used  no-unused-vars\n\n✖ 1 problem (1 error, 0 warnings)\n";
        assert!(matches!(
            read(CommandKind::Lint, eslint),
            Some(Reading::Failed(_))
        ));
        let warnings_only = "✖ 2 problems (0 errors, 2 warnings)\n";
        assert_eq!(read(CommandKind::Lint, warnings_only), None);
        let ruff = "src/a.py:1:8: F401 [*] `os` imported but unused\nFound 1 error.\n[*] 1 fixable with the `--fix` option.\n";
        assert!(matches!(
            read(CommandKind::Lint, ruff),
            Some(Reading::Failed(_))
        ));
        assert!(matches!(
            read(CommandKind::Lint, "All checks passed!\n"),
            Some(Reading::Succeeded(_))
        ));
        assert!(matches!(
            read(
                CommandKind::Lint,
                "Success: no issues found in 12 source files\n"
            ),
            Some(Reading::Succeeded(_))
        ));
    }
}
