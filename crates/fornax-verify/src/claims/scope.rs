//! What part of the work a result claim covers ([`ClaimScope`]) and how much it asserts
//! ([`ClaimQuantity`]).
//!
//! Scope comes from what the clause names: a test (`` `test_refund` passes``), a test file, a
//! code name with a unit noun (`` the `api` package``, `` the `billing` tests``), or the words
//! in front of "tests" ("the parser tests", "the invoice-service tests", "the integration
//! tests"). Quantity comes from its words and numbers: "all", "48 passed", "all 48", "48/48",
//! "0 failed". A ratio or an "x of y" with fewer passed than run admits failure: the clause is
//! partial success, not a claim; so does a tally with failures ("47 passed and 2 failed"), for
//! the whole sentence.

use std::sync::LazyLock;

use super::pattern::Pattern;
use fornax_types::{ClaimQuantity, ClaimScope, ClaimSubject, ScopeUnit};

use super::{vocab, CodeCat, Doc};
use crate::paths::strip_location;
use crate::text::Span;

/// Words that may stand before "tests" without naming a part of the suite.
const NOT_A_SCOPE: &[&str] = &[
    "the",
    "a",
    "an",
    "all",
    "every",
    "each",
    "both",
    "my",
    "our",
    "your",
    "their",
    "its",
    "this",
    "that",
    "these",
    "those",
    "new",
    "newly",
    "added",
    "existing",
    "old",
    "relevant",
    "remaining",
    "other",
    "updated",
    "modified",
    "affected",
    "related",
    "targeted",
    "focused",
    "failing",
    "flaky",
    "previously",
    "entire",
    "whole",
    "full",
    "complete",
    "local",
    "same",
    "corresponding",
    "original",
    "specific",
    "individual",
    "few",
    "several",
    "many",
    "some",
    "most",
    "now",
    "still",
    "also",
    "again",
    "just",
    "only",
    "test",
    "tests",
    "rest",
    "first",
    "last",
    "own",
    "more",
    "such",
    "additional",
    "extra",
    "regression",
    "passing",
    "broken",
    "project",
    "repo",
    "repository",
    "workspace",
    "codebase",
    "rust",
    "python",
    "go",
    "js",
    "ts",
    "typescript",
    "javascript",
    "java",
    "kotlin",
    "ruby",
    "php",
    "swift",
    "c",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "and",
    "or",
    "of",
    "in",
    "for",
    "with",
    "is",
    "are",
    "ran",
    "run",
    "re-ran",
    "reran",
    "both",
    "suite",
    "suites",
    "whole",
    "entire",
    "written",
    "wrote",
    "fixed",
    "then",
    "so",
    "now",
    "ok",
    "it",
    "they",
    "them",
    "unit-level",
    "green",
    "clean",
    "pass",
    "passes",
    "passed",
    "total",
    "overall",
    "required",
    "necessary",
    "key",
    "main",
    "important",
    "any",
    "no",
    "quick",
    "fast",
    "slow",
];

/// Named parts of a suite ("the integration tests").
const SUITES: &[(&str, &str)] = &[
    ("unit", "unit"),
    ("integration", "integration"),
    ("e2e", "e2e"),
    ("end-to-end", "e2e"),
    ("smoke", "smoke"),
    ("acceptance", "acceptance"),
    ("functional", "functional"),
    ("snapshot", "snapshot"),
    ("contract", "contract"),
    ("property", "property"),
    ("browser", "browser"),
    ("ui", "ui"),
    ("performance", "performance"),
    ("perf", "performance"),
    ("load", "load"),
    ("doc", "doc"),
    ("doctest", "doc"),
    ("system", "system"),
];

/// Words in front of "builds"/"compiles" that mean the whole project.
const WHOLE_BUILD: &[&str] = &[
    "it",
    "everything",
    "project",
    "code",
    "codebase",
    "app",
    "application",
    "workspace",
    "repo",
    "repository",
    "build",
    "crate",
    "package",
    "binary",
    "library",
    "release",
    "debug",
    "production",
    "prod",
    "dev",
    "docker",
    "ci",
    "nightly",
    "full",
    "whole",
    "entire",
    "clean",
    "incremental",
    "local",
    "this",
    "that",
    "all",
    "now",
    "still",
    "also",
    "change",
    "fix",
    "patch",
    "tree",
    "which",
    "and",
    "the",
    "typecheck",
    "type",
    "tsc",
    "compilation",
    "cargo",
    "go",
    "npm",
    "solution",
    "module",
    "program",
    "site",
    "extension",
    "plugin",
    "frontend's",
];

fn unit_of(noun: &str) -> Option<ScopeUnit> {
    let noun = noun.trim_end_matches('s');
    Some(match noun {
        "crate" | "package" | "gem" | "librarie" | "library" | "lib" | "workspace member" => {
            ScopeUnit::Package
        }
        "module" | "component" | "directorie" | "directory" | "folder" | "dir" => ScopeUnit::Module,
        "service" | "app" => ScopeUnit::Service,
        "suite" => ScopeUnit::Suite,
        "test" | "spec" => ScopeUnit::Module,
        _ => return None,
    })
}

fn named(unit: ScopeUnit, name: &str) -> ClaimScope {
    ClaimScope::Named {
        unit,
        name: name.to_string(),
    }
}

/// A prose scope name: a service when it says so, a module otherwise.
fn prose_unit(name: &str) -> ScopeUnit {
    let lower = name.to_ascii_lowercase();
    let service = [
        "service", "-svc", "-api", "-server", "-worker", "-gateway", "-daemon",
    ]
    .iter()
    .any(|s| lower.ends_with(s));
    if service {
        ScopeUnit::Service
    } else {
        ScopeUnit::Module
    }
}

/// A file name that holds tests.
pub(super) fn is_test_file(path: &str) -> bool {
    let p = path.to_ascii_lowercase();
    let name = p.rsplit('/').next().unwrap_or(&p);
    let stem = name.split('.').next().unwrap_or(name);
    p.contains("/tests/")
        || p.starts_with("tests/")
        || p.starts_with("test/")
        || p.contains("/test/")
        || p.contains("__tests__/")
        || p.contains("/spec/")
        || p.starts_with("spec/")
        || stem.starts_with("test_")
        || stem.ends_with("_test")
        || stem.ends_with("_spec")
        || stem.ends_with("test") && name.ends_with(".java")
        || name.contains(".test.")
        || name.contains(".spec.")
}

static UNIT_AFTER: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"^\s*(?:['’]s\s+)?(crates?|packages?|gems?|librar(?:y|ies)|libs?|modules?|components?|director(?:y|ies)|folders?|dirs?|services?|suites?|tests?|specs?)\b").expect("valid regex")
});
static TESTS_PREP_BEFORE: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(
        r"\b(?:tests?|specs?|suites?|cases?)\s+(?:in|for|under|from|of|inside)\s+(?:the\s+)?$",
    )
    .expect("valid regex")
});
static CHECK_PREP_BEFORE: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"\b(?:on|in|for|with|to|of|against|across)\s+(?:the\s+)?$").expect("valid regex")
});
static TEST_NOUN: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"\b(?:tests?|test\s+suites?|suites?|specs?|test\s+cases?)\b")
        .expect("valid regex")
});
static PROSE_UNIT_OF: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"\b(?:tests?|specs?)\s+(?:for|of|in)\s+(?:the\s+)?([a-z][\w-]*)\s+(modules?|packages?|crates?|services?|components?)\b")
        .expect("valid regex")
});
static BUILD_SUBJECT: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"(?:^|\b(?:the|our)\s+)([a-z][\w-]*)\s+(?:builds|compiles|typechecks|build\s+(?:succeeds|succeeded|passes|passed|is\s+green|works|is\s+clean))\b")
        .expect("valid regex")
});

static RATIO: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"\b(\d+)\s*/\s*(\d+)\b|\b(\d+)\s+(?:of|out\s+of)\s+(\d+)\b").expect("valid regex")
});
pub(super) static ALL_N: LazyLock<Pattern> =
    LazyLock::new(|| Pattern::new(r"\ball\s+(?:the\s+|of\s+the\s+)?(\d+)\b").expect("valid regex"));
static COUNT: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"\b(\d+)\s+(?:[a-z][\w-]*\s+){0,2}?(?:(?:tests?|specs?|examples?|cases?|checks?|assertions?)\s+)?(?:passed|passing|pass|passes|ok|succeeded|green)\b|\b(?:passed|passing|pass)\s*[:=]\s*(\d+)\b")
        .expect("valid regex")
});
/// Whether a number before "passing" counts what passed: not a label's number ("Task 60",
/// "step 3", "#12", "v2") and not joined to the predicate by a function word ("completed
/// Task 60 with tests passing").
fn is_a_count(hay: &str, c: &regex::Captures<'_>) -> bool {
    let Some(n) = c.get(1) else {
        return true;
    };
    static LABEL_BEFORE: LazyLock<Pattern> = LazyLock::new(|| {
        Pattern::new(r"(?:\b(?:task|step|phase|stage|issue|ticket|pr|item|line|lines|version|section|chapter|part|milestone|round|iteration|day|week|node|python|go|java|php|ruby|level|no|number)\s*|#|\bv)$")
            .expect("valid regex")
    });
    if LABEL_BEFORE.is_match(&hay[..n.start()]) {
        return false;
    }
    let whole = c.get(0).map_or("", |m| m.as_str());
    let between = &whole[n.end() - c.get(0).map_or(0, |m| m.start())..];
    !between.split_whitespace().any(|w| {
        matches!(
            w,
            "with"
                | "and"
                | "of"
                | "in"
                | "for"
                | "on"
                | "at"
                | "by"
                | "from"
                | "after"
                | "before"
                | "to"
                | "the"
                | "but"
                | "while"
                | "so"
        )
    })
}

pub(super) static ZERO_FAILED: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"\b(?:0|no|zero)\s+(?:test\s+|tests\s+)?(?:failed|failures?|failing)\b|\bnone\s+(?:of\s+them\s+)?failed\b|\bnothing\s+failed\b|\bwithout\s+(?:any\s+)?(?:test\s+)?failures?\b|\b(?:failed|failures?)\s*[:=]\s*0\b")
        .expect("valid regex")
});
/// A tally with failures ("47 passed and 2 failed", "2 failed, 47 passed"): whatever clause
/// holds the passed count, the sentence admits failure.
pub(super) static FAILING_TALLY: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"\b\d+\s+(?:tests?\s+)?(?:passed|passing|ok)\b\s*(?:,|;|and|but|with)?\s*(?:and\s+)?[1-9]\d*\s+(?:tests?\s+)?(?:failed|failures?|failing|errors?)\b|\b[1-9]\d*\s+(?:tests?\s+)?(?:failed|failures?|failing)\b\s*(?:,|;|and)?\s*(?:and\s+)?\d+\s+(?:tests?\s+)?(?:passed|passing)\b")
        .expect("valid regex")
});
pub(super) static ALL_WORD: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"\b(?:all|every|everything|entire|whole|full)\b").expect("valid regex")
});

/// A unit noun of another language right before a code span ("del paquete `store`", "im Modul
/// `auth`", "пакета `api`").
static FOREIGN_UNIT_BEFORE: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"(?:(paquete|pacote|paket|paquet|пакет[а-яё]*|crate)|(módulo|modulo|modul|module|модул[а-яё]*))\s*$")
        .expect("valid regex")
});
/// A unit noun of another language right after a code span ("`store` 包", "`api` パッケージ",
/// "`core` 패키지", "`auth` 模块").
static FOREIGN_UNIT_AFTER: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"^\s*(?:(包|套件|パッケージ|패키지|crate)|(模块|模組|モジュール|모듈))")
        .expect("valid regex")
});

/// The unit a foreign clause gives the code span between `before` and `after`.
fn foreign_unit(before: &str, after: &str) -> Option<ScopeUnit> {
    let c = FOREIGN_UNIT_BEFORE
        .captures(before)
        .or_else(|| FOREIGN_UNIT_AFTER.captures(after))?;
    Some(if c.get(1).is_some() {
        ScopeUnit::Package
    } else {
        ScopeUnit::Module
    })
}

impl Doc<'_> {
    /// The scope of a test, build or lint claim in `region`.
    pub(super) fn scope_of(&self, subject: ClaimSubject, region: Span) -> ClaimScope {
        let codes = self.codes_in(region);
        if subject == ClaimSubject::TestResult {
            if let Some(&ci) = codes
                .iter()
                .find(|&&ci| matches!(self.code[ci].cat, CodeCat::TestName))
            {
                return named(ScopeUnit::Test, &self.code[ci].content);
            }
        }
        for &ci in &codes {
            let c = &self.code[ci];
            if matches!(c.cat, CodeCat::Command(_) | CodeCat::Tool | CodeCat::Sha) {
                continue;
            }
            let after = self.lower.get(c.span.end..region.end).unwrap_or("");
            let before = self.lower.get(region.start..c.span.start).unwrap_or("");
            let name = strip_location(&c.content).trim_end_matches('/');
            if name.is_empty() {
                continue;
            }
            if let Some(m) = UNIT_AFTER.captures(after) {
                let noun = m.get(1).map_or("", |n| n.as_str());
                if let Some(unit) = unit_of(noun) {
                    let unit = if matches!(c.cat, CodeCat::Path) && unit != ScopeUnit::Package {
                        if c.content.ends_with('/') {
                            ScopeUnit::Module
                        } else {
                            ScopeUnit::File
                        }
                    } else if unit == ScopeUnit::Module && noun.starts_with(['t', 's']) {
                        prose_unit(name)
                    } else {
                        unit
                    };
                    return named(unit, name);
                }
            }
            let path_like = matches!(c.cat, CodeCat::Path) || c.content.ends_with('/');
            if !path_like {
                continue;
            }
            let unit = if c.content.ends_with('/') {
                ScopeUnit::Module
            } else {
                ScopeUnit::File
            };
            let fits = match subject {
                ClaimSubject::TestResult => {
                    TESTS_PREP_BEFORE.is_match(before)
                        || (is_test_file(&c.content) && !CHECK_PREP_BEFORE.is_match(before))
                }
                _ => CHECK_PREP_BEFORE.is_match(before) || before.trim().is_empty(),
            };
            if fits {
                return named(unit, name);
            }
        }
        match subject {
            ClaimSubject::TestResult => self.prose_test_scope(region),
            ClaimSubject::BuildResult => self.prose_build_scope(region),
            _ => ClaimScope::Whole,
        }
    }

    /// The scope of a claim read in another language: what its inline code names (a package or
    /// module when the language's unit noun stands beside it, a test, a test file for a test
    /// claim, a file or directory for a build or lint claim). Function words differ per
    /// language, so only the code spans and unit nouns are read; the whole project otherwise.
    pub(super) fn foreign_scope(&self, subject: ClaimSubject, clause: Span) -> ClaimScope {
        let checked = matches!(
            subject,
            ClaimSubject::TestResult | ClaimSubject::BuildResult | ClaimSubject::LintResult
        );
        if !checked {
            return ClaimScope::Whole;
        }
        let codes = self.codes_in(clause);
        for &ci in &codes {
            let c = &self.code[ci];
            if matches!(c.cat, CodeCat::Other | CodeCat::Path) {
                let before = self.lower.get(clause.start..c.span.start).unwrap_or("");
                let after = self.lower.get(c.span.end..clause.end).unwrap_or("");
                let name = strip_location(&c.content).trim_end_matches('/');
                if let Some(unit) = foreign_unit(before, after).filter(|_| !name.is_empty()) {
                    return named(unit, name);
                }
            }
            match c.cat {
                CodeCat::TestName if subject == ClaimSubject::TestResult => {
                    return named(ScopeUnit::Test, &c.content);
                }
                CodeCat::Path => {
                    let name = strip_location(&c.content).trim_end_matches('/');
                    if name.is_empty()
                        || (subject == ClaimSubject::TestResult && !is_test_file(&c.content))
                    {
                        continue;
                    }
                    let unit = if c.content.ends_with('/') {
                        ScopeUnit::Module
                    } else {
                        ScopeUnit::File
                    };
                    return named(unit, name);
                }
                _ => {}
            }
        }
        ClaimScope::Whole
    }

    /// "The parser tests", "the invoice-service tests", "the integration suite", "tests for the
    /// parser module".
    fn prose_test_scope(&self, region: Span) -> ClaimScope {
        let hay = self.lower.get(region.start..region.end).unwrap_or("");
        if let Some(c) = PROSE_UNIT_OF.captures(hay) {
            if let (Some(name), Some(noun)) = (c.get(1), c.get(2)) {
                if let Some(unit) = unit_of(noun.as_str()) {
                    let name = &self.text[region.start + name.start()..region.start + name.end()];
                    if !NOT_A_SCOPE.contains(&name.to_ascii_lowercase().as_str()) {
                        return named(unit, name);
                    }
                }
            }
        }
        for m in TEST_NOUN.find_iter(hay) {
            let before = &hay[..m.start()];
            // The words right in front of the noun, nearest first, up to a stop word.
            let mut words: Vec<(usize, usize)> = Vec::new();
            let mut end = before.len();
            for _ in 0..3 {
                let seg = before[..end].trim_end();
                let start = seg
                    .rfind(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
                    .map_or(0, |i| i + seg[i..].chars().next().map_or(1, char::len_utf8));
                let word = &seg[start..];
                if word.is_empty()
                    || NOT_A_SCOPE.contains(&word)
                    || word.chars().all(|c| c.is_ascii_digit())
                {
                    break;
                }
                if vocab::tool_of(word).is_some()
                    || word.contains('x') && word.chars().all(|c| c == 'x')
                {
                    words.clear();
                    break;
                }
                words.push((start, seg.len()));
                // Only spaces may join the words of one name.
                let gap = &before[..start];
                if !gap.ends_with(' ') {
                    break;
                }
                end = start;
            }
            if words.is_empty() {
                continue;
            }
            words.reverse();
            let lower_words: Vec<&str> = words.iter().map(|&(s, e)| &before[s..e]).collect();
            if let Some((_, suite)) = lower_words
                .iter()
                .find_map(|w| SUITES.iter().find(|(s, _)| s == w))
            {
                return named(ScopeUnit::Suite, suite);
            }
            let (s, e) = (words[0].0, words[words.len() - 1].1);
            let name = &self.text[region.start + s..region.start + e];
            // A possessive ("the parser's tests") names the same part.
            let name = name.trim_end_matches("'s").trim_end_matches("’s");
            return named(prose_unit(name), name);
        }
        ClaimScope::Whole
    }

    /// "The frontend builds", "the docs build succeeds".
    fn prose_build_scope(&self, region: Span) -> ClaimScope {
        let hay = self.lower.get(region.start..region.end).unwrap_or("");
        let Some(c) = BUILD_SUBJECT.captures(hay) else {
            return ClaimScope::Whole;
        };
        let Some(m) = c.get(1) else {
            return ClaimScope::Whole;
        };
        let word = m.as_str();
        if WHOLE_BUILD.contains(&word)
            || vocab::tool_of(word).is_some()
            || word.chars().all(|c| c == 'x')
            || word.chars().all(|c| c.is_ascii_digit())
        {
            return ClaimScope::Whole;
        }
        let name = &self.text[region.start + m.start()..region.start + m.end()];
        named(prose_unit(name), name)
    }

    /// How much a test claim asserts, and whether its numbers admit failure ("30/31", "45 of
    /// 47": partial success).
    pub(super) fn quantity_of(&self, region: Span) -> (ClaimQuantity, bool) {
        let hay = self.lower.get(region.start..region.end).unwrap_or("");
        let mut count: Option<u64> = None;
        let mut all_of = false;
        for c in RATIO.captures_iter(hay) {
            let (a, b) = match (c.get(1).or(c.get(3)), c.get(2).or(c.get(4))) {
                (Some(a), Some(b)) => (a.as_str(), b.as_str()),
                _ => continue,
            };
            let (Ok(a), Ok(b)) = (a.parse::<u64>(), b.parse::<u64>()) else {
                continue;
            };
            if b == 0 || a > b {
                continue;
            }
            if a < b {
                return (ClaimQuantity::Unqualified, true);
            }
            count = Some(a);
            all_of = true;
        }
        if count.is_none() && self.may_match(&ALL_N, region) {
            if let Some(n) = ALL_N.captures(hay).and_then(|c| c.get(1)) {
                count = n.as_str().parse().ok();
                all_of = count.is_some();
            }
        }
        if count.is_none() {
            count = COUNT
                .captures_iter(hay)
                .filter(|c| is_a_count(hay, c))
                .find_map(|c| c.get(1).or(c.get(2)))
                .and_then(|n| n.as_str().parse().ok());
        }
        let none_failed = self.may_match(&ZERO_FAILED, region) && ZERO_FAILED.is_match(hay);
        let all = self.may_match(&ALL_WORD, region) && ALL_WORD.is_match(hay);
        let q = match count {
            Some(0) => return (ClaimQuantity::Unqualified, true),
            Some(n) if all_of || all || none_failed => ClaimQuantity::AllOf { count: n },
            Some(n) => ClaimQuantity::AtLeast { count: n },
            None if all => ClaimQuantity::All,
            None if none_failed => ClaimQuantity::NoneFailed,
            None => ClaimQuantity::Unqualified,
        };
        (q, false)
    }
}
