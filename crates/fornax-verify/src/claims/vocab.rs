//! The names of tools in prose ("clippy is clean", "the vitest suite is green"), in one place:
//! which tool each name is, and what kind of check it runs. The test, build and lint words of
//! [`super::lexicon`] and the tool a claim names ([`ClaimTarget::tool`]) derive from it.
//!
//! [`ClaimTarget::tool`]: fornax_types::ClaimTarget::tool

use std::sync::LazyLock;

use super::pattern::Pattern;

use crate::commands::CommandKind;

/// Prose name (lower case), tool id, and what the tool checks.
const PROSE: &[(&str, &str, CommandKind)] = &[
    ("cargo test", "cargo-test", CommandKind::Test),
    ("nextest", "nextest", CommandKind::Test),
    ("go test", "go-test", CommandKind::Test),
    ("pytest", "pytest", CommandKind::Test),
    ("unittest", "unittest", CommandKind::Test),
    ("jest", "jest", CommandKind::Test),
    ("vitest", "vitest", CommandKind::Test),
    ("mocha", "mocha", CommandKind::Test),
    ("ava", "ava", CommandKind::Test),
    ("jasmine", "jasmine", CommandKind::Test),
    ("karma", "karma", CommandKind::Test),
    ("playwright", "playwright", CommandKind::Test),
    ("cypress", "cypress", CommandKind::Test),
    ("rspec", "rspec", CommandKind::Test),
    ("minitest", "minitest", CommandKind::Test),
    ("phpunit", "phpunit", CommandKind::Test),
    ("pest", "pest", CommandKind::Test),
    ("junit", "junit", CommandKind::Test),
    ("ctest", "ctest", CommandKind::Test),
    ("xctest", "xctest", CommandKind::Test),
    ("exunit", "exunit", CommandKind::Test),
    ("tsc", "tsc", CommandKind::Build),
    ("vue-tsc", "tsc", CommandKind::Build),
    ("clippy", "clippy", CommandKind::Lint),
    ("rustfmt", "rustfmt", CommandKind::Lint),
    ("go vet", "go-vet", CommandKind::Lint),
    ("golangci-lint", "golangci-lint", CommandKind::Lint),
    ("staticcheck", "staticcheck", CommandKind::Lint),
    ("gofmt", "gofmt", CommandKind::Lint),
    ("mypy", "mypy", CommandKind::Lint),
    ("pyright", "pyright", CommandKind::Lint),
    ("basedpyright", "pyright", CommandKind::Lint),
    ("ruff", "ruff", CommandKind::Lint),
    ("flake8", "flake8", CommandKind::Lint),
    ("pylint", "pylint", CommandKind::Lint),
    ("black", "black", CommandKind::Lint),
    ("isort", "isort", CommandKind::Lint),
    ("eslint", "eslint", CommandKind::Lint),
    ("oxlint", "oxlint", CommandKind::Lint),
    ("stylelint", "stylelint", CommandKind::Lint),
    ("prettier", "prettier", CommandKind::Lint),
    ("biome", "biome", CommandKind::Lint),
    ("rubocop", "rubocop", CommandKind::Lint),
    ("standardrb", "standardrb", CommandKind::Lint),
    ("phpstan", "phpstan", CommandKind::Lint),
    ("psalm", "psalm", CommandKind::Lint),
    ("ktlint", "ktlint", CommandKind::Lint),
    ("detekt", "detekt", CommandKind::Lint),
    ("checkstyle", "checkstyle", CommandKind::Lint),
    ("shellcheck", "shellcheck", CommandKind::Lint),
    ("swiftlint", "swiftlint", CommandKind::Lint),
    ("credo", "credo", CommandKind::Lint),
];

/// Every prose name with its tool id and kind, longest first (so that `cargo test` is found
/// before a shorter name inside it).
pub fn prose_names() -> &'static [(&'static str, &'static str, CommandKind)] {
    static NAMES: LazyLock<Vec<(&'static str, &'static str, CommandKind)>> = LazyLock::new(|| {
        let mut v = PROSE.to_vec();
        v.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(b.0)));
        v
    });
    &NAMES
}

/// The tool a prose name (lower case) names.
pub fn tool_of(name: &str) -> Option<(&'static str, CommandKind)> {
    prose_names()
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|(_, id, kind)| (*id, *kind))
}

/// The kind of check a tool id runs.
pub fn kind_of(id: &str) -> Option<CommandKind> {
    PROSE
        .iter()
        .find(|(_, i, _)| *i == id)
        .map(|(_, _, kind)| *kind)
}

/// The prose names of tools of one kind, as a regex alternation (escaped).
pub fn alternation(kind: CommandKind) -> String {
    prose_names()
        .iter()
        .filter(|(_, _, k)| *k == kind)
        .map(|(n, _, _)| regex::escape(n).replace(' ', r"\s+"))
        .collect::<Vec<_>>()
        .join("|")
}

/// The first tool named in lower-cased prose, as its id.
pub fn tool_named(lower: &str) -> Option<&'static str> {
    static ANY: LazyLock<Pattern> = LazyLock::new(|| {
        let words: Vec<String> = prose_names()
            .iter()
            .map(|(n, _, _)| regex::escape(n).replace(' ', r"\s+"))
            .collect();
        Pattern::new(&format!(r"\b(?:{})\b", words.join("|"))).expect("valid regex")
    });
    let word = ANY.find(lower)?.as_str();
    let word = word.split_whitespace().collect::<Vec<_>>().join(" ");
    tool_of(&word).map(|(id, _)| id)
}

/// Whether a tool id is about a claim of this kind (a linter named in a test claim is not the
/// claim's tool).
pub fn fits(kind: CommandKind, id: &str) -> bool {
    kind_of(id) == Some(kind)
}

/// Tool ids as claims name them: wrappers keep their script name.
pub fn canonical(tool: &str) -> String {
    match tool {
        "ruff-format" => "ruff".into(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_resolve_to_one_tool_of_one_kind() {
        assert_eq!(tool_named("the vitest suite is green"), Some("vitest"));
        assert_eq!(tool_named("ran cargo   test again"), Some("cargo-test"));
        assert_eq!(tool_named("clippy: 0 warnings"), Some("clippy"));
        assert_eq!(tool_named("a black background"), Some("black"));
        assert_eq!(tool_named("nothing here"), None);
        assert!(fits(CommandKind::Lint, "mypy"));
        assert!(!fits(CommandKind::Test, "mypy"));
        assert!(fits(CommandKind::Build, "tsc"));
        for (name, id, kind) in prose_names() {
            assert_eq!(tool_of(name), Some((*id, *kind)), "{name}");
            assert_eq!(kind_of(id), Some(*kind), "{id}");
        }
    }
}
