//! Which clause patterns can match anywhere in a sentence, found in one pass over it.
//!
//! Reading a sentence's clauses asks dozens of patterns about stretches of it: the success
//! predicates for the sentence, for each clause and for each part before a relative clause,
//! the mood markers for each clause, the subject words. Most of them match nowhere in the
//! sentence. Every match of a pattern begins with one of its prefix literals (read from the
//! pattern's syntax: "pass" for `\bpass(?:es|ed)?\b`); the sieve finds every occurrence of
//! every member's prefix literals in the sentence in one Aho-Corasick pass. A member none of
//! whose prefixes occurs in the sentence cannot match in any stretch of it, so that search is
//! skipped; any other is searched as before. A member whose prefixes cannot be listed (it may
//! begin with any of a large class, or match the empty string) is always searched. The sieve
//! changes no match.

use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, MatchKind};
use regex_syntax::hir::literal::{ExtractKind, Extractor};

use super::lexicon::*;
use super::pattern::Pattern;
use super::scope::{ALL_N, ALL_WORD, ZERO_FAILED};
use super::RELATIVE;
use crate::text::Span;

/// The patterns the clause reader searches stretches of a sentence with (through
/// `Doc::matches`, `first_match`, `present` and `marker`, or after asking
/// `Doc::may_match`). At most 64 (one bit each).
fn members() -> Vec<&'static Pattern> {
    let mut members = super::screen::needed();
    let clause_words: [&'static Pattern; 21] = [
        &FAILURE,
        &NEGATION,
        &HEDGE,
        &FUTURE,
        &HISTORY,
        &REPORTED,
        &PURPOSE,
        &PARTIAL,
        &PRONOUN,
        &FILE_VERB,
        &RAN,
        &CHECKS_WORD,
        &RUN_SUBJECT,
        &TEST_WORD,
        &BUILD_WORD,
        &LINT_WORD,
        &PACKAGE_WORD,
        &RELATIVE,
        &ALL_N,
        &ZERO_FAILED,
        &ALL_WORD,
    ];
    members.extend(clause_words);
    members
}

/// The most prefix literals read from one pattern; a pattern with more is always searched.
const MAX_PREFIXES: usize = 2000;

struct Sieve {
    /// Every distinct prefix literal of the members.
    prefixes: AhoCorasick,
    /// Per prefix literal (in the order of `prefixes`), the members it begins.
    begins: Vec<u64>,
    /// Members always searched.
    always: u64,
    members: Vec<&'static Pattern>,
}

/// The prefix literals every match of a pattern begins with, or `None` when they cannot be
/// listed (too many, or the pattern can match the empty string).
fn prefixes(pattern: &str) -> Option<Vec<Vec<u8>>> {
    let hir = regex_syntax::parse(pattern).ok()?;
    let seq = Extractor::new()
        .kind(ExtractKind::Prefix)
        .limit_total(MAX_PREFIXES)
        .extract(&hir);
    let literals = seq.literals()?;
    if literals.is_empty() || literals.iter().any(|l| l.as_bytes().is_empty()) {
        return None;
    }
    Some(literals.iter().map(|l| l.as_bytes().to_vec()).collect())
}

fn build() -> Option<Sieve> {
    let members = members();
    if members.len() > 64 {
        return None;
    }
    let mut literals: Vec<Vec<u8>> = Vec::new();
    let mut begins: Vec<u64> = Vec::new();
    let mut always = 0u64;
    for (i, member) in members.iter().enumerate() {
        let Some(found) = prefixes(member.as_str()) else {
            always |= 1 << i;
            continue;
        };
        for literal in found {
            match literals.iter().position(|l| *l == literal) {
                Some(at) => begins[at] |= 1 << i,
                None => {
                    literals.push(literal);
                    begins.push(1 << i);
                }
            }
        }
    }
    let prefixes = AhoCorasick::builder()
        .match_kind(MatchKind::Standard)
        .build(&literals)
        .ok()?;
    Some(Sieve {
        prefixes,
        begins,
        always,
        members,
    })
}

static SIEVE: LazyLock<Option<Sieve>> = LazyLock::new(build);

/// Which members may match in one sentence.
#[derive(Debug, Clone, Copy)]
pub(super) struct Hits {
    /// The sentence, in the text the sieve read.
    span: Span,
    /// Bit `i`: member `i` may match somewhere in the sentence.
    found: u64,
}

impl Hits {
    /// The members that may match in `hay[span]` (lower-cased text with inline code
    /// blanked); `None` when the sieve cannot be built or the span is not in the text.
    pub(super) fn of(hay: &str, span: Span) -> Option<Hits> {
        let sieve = SIEVE.as_ref()?;
        let sentence = hay.get(span.start..span.end)?;
        let found = sieve
            .prefixes
            .find_overlapping_iter(sentence)
            .fold(sieve.always, |bits, m| {
                bits | sieve.begins[m.pattern().as_usize()]
            });
        Some(Hits { span, found })
    }

    /// Whether `re` may match in the stretch `within` of the text: false only when `within`
    /// lies inside this sentence and `re` is a member the sieve found nowhere in it.
    pub(super) fn may_match(&self, re: &Pattern, within: Span) -> bool {
        if within.start < self.span.start || within.end > self.span.end {
            return true;
        }
        let Some(sieve) = SIEVE.as_ref() else {
            return true;
        };
        match sieve.members.iter().position(|m| std::ptr::eq(*m, re)) {
            Some(i) => self.found & (1 << i) != 0,
            None => true,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sieve_builds_with_every_member() {
        let sieve = SIEVE.as_ref().expect("the sieve compiles");
        assert_eq!(sieve.members.len(), members().len());
        // Most members are sieved, not searched always.
        let always = sieve.always.count_ones();
        assert!(
            always * 4 < members().len() as u32,
            "{always} always searched"
        );
    }

    #[test]
    fn a_member_matching_a_stretch_is_found_in_its_sentence() {
        let text = "so then all tests pass, and I committed it; nothing else";
        let span = Span::new(0, text.len());
        let hits = Hits::of(text, span).expect("hits");
        for (re, stretch) in [
            (&*PASS_WORD, Span::new(8, 22)),
            (&*TEST_WORD, Span::new(12, 17)),
            (&*COMMITTED, Span::new(30, 40)),
            (&*NEGATION, Span::new(44, 51)),
        ] {
            assert!(re.is_match(stretch.slice(text)), "{}", re.as_str());
            assert!(hits.may_match(re, stretch), "{}", re.as_str());
        }
        // Found nowhere in the sentence: skipped in every stretch of it, not outside it.
        assert!(!hits.may_match(&PUSHED, Span::new(0, 10)));
        assert!(!hits.may_match(&PUSHED, span));
        assert!(hits.may_match(&PUSHED, Span::new(0, text.len() + 1)));
        // Not a member: always searched.
        let other = Pattern::new(r"\bpushed\b").expect("compiles");
        assert!(hits.may_match(&other, span));
    }

    #[test]
    fn the_sieve_never_hides_a_match_in_a_stretch() {
        let texts = [
            "✅ `cargo test` passes — 48 tests, 0 failed; pushed to origin/main",
            "Committed the fix as `xxxxxxx` and pushed it; the build is green",
            "I haven't run the integration suite yet, but lint is clean",
            "Most of the tests pass; two still fail in the cron parser.",
            "Deleted `xxxxxxxxxxx` and removed setup.cfg — nothing else changed",
            "Les tests passent. 所有测试都通过了 and it builds cleanly",
            "if the ci job passes, we can merge abc1234..def5678",
        ];
        for text in texts {
            let lower = text.to_lowercase();
            let hits = Hits::of(&lower, Span::new(0, lower.len())).expect("hits");
            let cuts: Vec<usize> = (0..=lower.len())
                .filter(|&i| lower.is_char_boundary(i))
                .collect();
            for re in members() {
                for (a, &start) in cuts.iter().enumerate() {
                    for &end in &cuts[a..] {
                        let stretch = Span::new(start, end);
                        if re.is_match(stretch.slice(&lower)) {
                            assert!(
                                hits.may_match(re, stretch),
                                "{} in {:?}",
                                re.as_str(),
                                stretch.slice(&lower)
                            );
                        }
                    }
                }
            }
        }
    }
}
