//! Claim extraction: the agent's own assertions that something succeeded or was done.
//!
//! Extraction reads agent prose as [`Assertion`]s: sentence by sentence, then clause by clause
//! (a sentence such as "`ruff check .` reports no issues and `mypy src` is clean" holds two),
//! each with a subject, what it names (command, path, sha, remote, branch, tool), its scope
//! and quantity, whose work it is about, its exact quote, and how it is put: its polarity and
//! [`Modality`]. Only done, positive assertions become [`Claim`]s. A clause is not a claim when
//! it admits a failure or only partial success ("2 tests still fail", "most tests pass", "the
//! remaining failures are unrelated"), negates, hedges, speaks of the future or the past, gives
//! an instruction, reports someone else's words, or describes someone else's work (an upstream
//! pull request). Markdown is read as what it is: a plan or an acceptance criterion under its
//! heading, an open task-list box, a block quote or a poem the user asked for are not reports;
//! a bare path under "Files changed" is a file written. Words inside inline code never count as
//! prose, and negative-looking success phrases ("no issues", "0 failed") are read as success.
//! Claims in Chinese, Japanese, Korean, Spanish, Portuguese, French, German and Russian are read
//! with each language's own words ([`i18n`]).
//!
//! Deterministic: the same text always gives the same claims, with ids
//! `<item key>#<sentence index>:<subject>` (a `:<n>` suffix tells apart further claims of the
//! same subject in one sentence).

mod actor;
mod i18n;
pub mod lexicon;
mod pattern;
mod scope;
mod screen;
mod sections;
mod sieve;
mod targets;
pub mod vocab;

use fornax_types::{
    Claim, ClaimActor, ClaimQuantity, ClaimScope, ClaimSubject, ClaimTarget, Item, SemanticValue,
};
use pattern::Pattern;
use sieve::Hits;
use std::cell::{Cell, RefCell};

use crate::commands::{self, looks_like_command, CommandClass, CommandKind};
use crate::paths::looks_like_file_path;
use crate::text::{code_spans, sentences_in_blocks, Sentence, Span};
use lexicon::*;
use sections::Section;

/// Whether an assertion says that something is so or that it is not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Polarity {
    Positive,
    /// "I haven't run the tests", "nothing was committed".
    Negative,
}

/// How an assertion is put. Only [`Modality::Done`] (with positive polarity) is a claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Modality {
    /// A report of something done or observed.
    Done,
    /// "I'll push", "let me run the tests", "next: ...".
    Future,
    /// "Should pass", "might", "if the tests pass", "I expect".
    Hedged,
    /// "Run `make test` to check".
    Instruction,
    /// An admitted failure: "2 tests still fail", "passes locally but fails in CI".
    Failure,
    /// Partial success: "most tests pass", "all but two", "30/31", "the remaining failures are
    /// unrelated".
    Partial,
    /// How things were before: "before my change, all tests passed".
    Past,
    /// Someone else's words: "you said", "the README says", a block quote.
    Reported,
    Question,
    /// A plan, a next step, an acceptance criterion, an open task-list box.
    Planned,
    /// Text the user asked to be written (a poem, a story).
    Composed,
    /// A description of someone else's work: "the upstream PR added ...".
    Described,
}

/// One structured assertion found in a text, before it is tied to an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assertion {
    /// Index of the sentence (in the text) that holds it.
    pub sentence_index: usize,
    pub subject: ClaimSubject,
    /// The exact quote: a byte span of the text (the clause; the sentence, or the sentence and
    /// the next one, when the clause alone is too short to find again).
    pub span: Span,
    pub target: ClaimTarget,
    pub scope: ClaimScope,
    pub quantity: ClaimQuantity,
    pub actor: ClaimActor,
    pub polarity: Polarity,
    pub modality: Modality,
}

impl Assertion {
    /// A done, positive assertion: a claim.
    pub fn is_claim(&self) -> bool {
        self.polarity == Polarity::Positive && self.modality == Modality::Done
    }
}

/// Claims in the text of one canonical item. Only agent-voice roles (final answers,
/// commentary, subagent reports) make claims.
pub fn extract_claims(item: &Item) -> Vec<Claim> {
    if !item.semantic.role.is_agent_voice() {
        return Vec::new();
    }
    let text = match &item.semantic.value {
        SemanticValue::Text(t) => t.text.as_str(),
        SemanticValue::Subagent(s) => match &s.text {
            Some(t) => t.text.as_str(),
            None => return Vec::new(),
        },
        _ => return Vec::new(),
    };
    let mut seen: Vec<(usize, ClaimSubject)> = Vec::new();
    extract_from_text(text)
        .into_iter()
        .map(|c| {
            let n = seen
                .iter()
                .filter(|(s, subj)| *s == c.sentence_index && *subj == c.subject)
                .count();
            seen.push((c.sentence_index, c.subject));
            let suffix = if n == 0 {
                String::new()
            } else {
                format!(":{n}")
            };
            Claim {
                id: format!(
                    "{}#{}:{}{}",
                    item.key,
                    c.sentence_index,
                    c.subject.as_str(),
                    suffix
                ),
                session: item.session.clone(),
                item_key: item.key.clone(),
                loop_position: item.loop_position,
                subject: c.subject,
                text: c.span.slice(text).to_string(),
                target: c.target,
                scope: c.scope,
                quantity: c.quantity,
                actor: c.actor,
                at: item.at.clone(),
            }
        })
        .collect()
}

/// Whether a claim's text names a single test (`` `test_parse_dates` passes``).
pub fn names_a_test(text: &str) -> bool {
    code_spans(text).iter().any(|s| {
        let inner = s.slice(text).trim_matches('`').trim();
        matches!(categorize(inner), CodeCat::TestName)
    })
}

/// Stems of every word a claim predicate is made of (see [`lexicon`]).
static TRIGGER: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
    Pattern::new(
        "pass|green|clean|succe|patch|corregi|corrigi|arregl|rubocop|keine |build|built|compil|check|commit|push|creat|updat|add|wrote|writ|rewr|modif|edit|chang|fix|ran|run|execut|invok|exit|return|ok|lint|clippy|vet|fmt|format|ruff|mypy|test|spec|suite|✅|✔|☑|happy|satisf|silent|quiet|move|renam|refactor|implement|introduc|extend|adjust|tweak|touch|save|generat|replac|convert|migrat|extract|adapt|delet|remov|restructur|reorgani|simplif|document|amend|insert|append|populat|bump|pin|scaffold|stub|wire|rework|overhaul|correct|tighten|harden|expand|split|put|place|drop|through|complet|finish|no |new |zero|nothing|mirror|port|appl|revert|copied|guard|merge|rebase|opened|issue|crash|cloned|\\.\\.|^[\\s*_]*`|[^\\x00-\\x7f]|pasa|prueba|teste|cread|criei|criad|actuali|atuali|elimin|borr|removi|apag|exclu|supprim|ajout|erstellt|angelegt|aktualis|bearbeit|angepasst|bestand|bestehen|hice|fiz |poussé|gepusht|eingecheckt|live at|live on|up on|tidi|rais|lower|increas|decreas|reduc|loosen|relax|enabl|disabl|reorder|dedup|inlin|swap|switch|trim|polish|reword|annotat|erase|purg|regist|made",
    )
    .expect("valid regex")
});

/// "Build fix: moved the server out of the bundle": an entry reporting the build fixed.
static BUILD_FIX_LABEL: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
    Pattern::new(r"^[\s*_]*((?:build|compile|compilation)\s+fix(?:es)?)[\s*_]*(?::|$)")
        .expect("valid regex")
});

/// A relative or causal clause after the main predicate ("fixed the bug where X could ...").
static RELATIVE: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
    Pattern::new(r"\b(?:where|which|because|since|whereas)\b").expect("valid regex")
});

/// The longest sentence read for claims, in bytes.
const MAX_SENTENCE: usize = 1200;

/// A quote shorter than this (in bytes) is hard to find again ("Committed."): the claim quotes
/// its whole sentence, and the next one too when the sentence is that short.
const MIN_QUOTE: usize = 12;

/// Claims in a piece of agent prose, in text order: its done, positive assertions.
pub fn extract_from_text(text: &str) -> Vec<Assertion> {
    read(text, false)
}

/// Every assertion in a piece of agent prose, claims or not, in text order.
pub fn assertions(text: &str) -> Vec<Assertion> {
    read(text, true)
}

fn read(text: &str, keep_all: bool) -> Vec<Assertion> {
    read_with(text, keep_all, true)
}

/// `screened`: skip the clauses of sentences the [`screen`] rejects (always, but for the test
/// that shows the screen changes nothing).
fn read_with(text: &str, keep_all: bool, screened: bool) -> Vec<Assertion> {
    let mut doc = Doc::new(text);
    doc.keep_all = keep_all;
    doc.screened = screened;
    let sentences = sentences_in_blocks(text);
    let sections = sections::sections(text, &sentences);
    let mut per_sentence: Vec<Vec<Assertion>> = Vec::with_capacity(sentences.len());
    for (index, s) in sentences.iter().enumerate() {
        let mut found = doc.sentence(index, s, sections[index]);
        if !keep_all {
            found.retain(Assertion::is_claim);
        }
        per_sentence.push(found);
    }
    doc.list_siblings(&sentences, &mut per_sentence, keep_all);
    let mut out: Vec<Assertion> = per_sentence.into_iter().flatten().collect();
    for a in &mut out {
        a.span = quote_span(text, &sentences, a.sentence_index, a.span);
    }
    out
}

/// A quote long enough to find again: the clause, else its sentence, else the sentence and the
/// ones after it in the same block.
fn quote_span(text: &str, sentences: &[Sentence], index: usize, span: Span) -> Span {
    let long_enough = |s: Span| s.slice(text).trim().len() >= MIN_QUOTE;
    if long_enough(span) {
        return span;
    }
    let Some(s) = sentences.get(index) else {
        return span;
    };
    let mut out = s.span;
    for next in &sentences[index + 1..] {
        if long_enough(out) || next.block != s.block {
            break;
        }
        out.end = next.span.end;
    }
    out
}

#[derive(Debug, Clone)]
enum CodeCat {
    Sha,
    Path,
    Command(CommandClass),
    /// A tool named on its own (`` `clippy` ``): read as the word.
    Tool,
    /// A test's name (`` `test_parse_dates` ``, `` `TestBackoff` ``).
    TestName,
    Other,
}

#[derive(Debug, Clone)]
struct Code {
    span: Span,
    content: String,
    cat: CodeCat,
}

/// What a clause was about, for a following clause that refers back with a pronoun
/// ("I added a test for it; it passes").
#[derive(Debug, Clone, Default)]
struct ClauseContext {
    kinds: Vec<ClaimSubject>,
    /// Subjects named, with or without a success predicate.
    mentioned: Vec<ClaimSubject>,
    commands: Vec<usize>,
    tool: Option<String>,
    /// A label clause's scope ("Unit tests: ..."), for the clause after it.
    label_scope: Option<ClaimScope>,
}

struct Doc<'a> {
    text: &'a str,
    /// `text` lower-cased with inline code blanked (same byte offsets).
    lower: String,
    code: Vec<Code>,
    /// Phrases whose words do not count as negation or failure.
    shields: Vec<Span>,
    /// Paren depth at each byte (outside code), to keep clause splits out of parentheses.
    depth: Vec<u16>,
    /// Keep assertions that are not claims (negated, hedged, planned, ...).
    keep_all: bool,
    /// Skip the clauses of sentences that [`screen`] says hold none.
    screened: bool,
    /// What the [`sieve`] found in the sentence being read: searches of stretches of it with
    /// a pattern found nowhere in it are skipped.
    hits: Cell<Option<Hits>>,
    /// [`Doc::successes`] of the spans of the sentence being read already asked about: the
    /// sentence, each clause and the part before a relative clause ask more than once.
    successes_of: RefCell<Vec<(Span, Vec<Span>)>>,
    /// [`Doc::main_part`] of the clauses of the sentence being read.
    main_part_of: RefCell<Vec<(Span, Span)>>,
}

type Found = (ClaimSubject, Span, ClaimTarget);

impl<'a> Doc<'a> {
    fn new(text: &'a str) -> Self {
        let mut code: Vec<Code> = code_spans(text)
            .into_iter()
            .map(|span| {
                let inner = span.slice(text).trim_matches('`').trim().to_string();
                let cat = categorize(&inner);
                Code {
                    span,
                    content: inner,
                    cat,
                }
            })
            .collect();
        // Commands quoted with double quotes count as code too: I ran "npm test".
        for span in quoted_spans(text) {
            if code
                .iter()
                .any(|c| c.span.start < span.end && span.start < c.span.end)
            {
                continue;
            }
            let inner = span
                .slice(text)
                .trim_matches(['"', '“', '”'])
                .trim()
                .to_string();
            if looks_like_command(&inner) && inner.contains(' ') {
                let cat = categorize(&inner);
                code.push(Code {
                    span,
                    content: inner,
                    cat,
                });
            }
        }
        code.sort_by_key(|c| c.span.start);
        let mut bytes = text.as_bytes().to_ascii_lowercase();
        for c in &code {
            if matches!(c.cat, CodeCat::Tool) {
                // Keep the tool's name readable; only the quotes become backticks.
                let (s, e) = (c.span.start, c.span.end);
                for b in &mut bytes[s..e] {
                    if !b.is_ascii_alphanumeric() && *b != b'-' && *b != b' ' {
                        *b = b'`';
                    }
                }
                continue;
            }
            let (s, e) = (c.span.start, c.span.end);
            for (i, b) in bytes[s..e].iter_mut().enumerate() {
                *b = if i == 0 || s + i == e - 1 { b'`' } else { b'x' };
            }
        }
        let lower = String::from_utf8(bytes).unwrap_or_else(|_| text.to_ascii_lowercase());
        let mut shields: Vec<Span> = Vec::new();
        for re in [&*OK_PHRASE, &*NEUTRAL] {
            shields.extend(re.find_iter(&lower).map(|m| Span::new(m.start(), m.end())));
        }
        let mut depth = vec![0u16; text.len() + 1];
        let mut d = 0u16;
        let raw = text.as_bytes();
        // `code` is sorted by start and its spans do not overlap: walk it alongside.
        let mut next_code = 0;
        for i in 0..text.len() {
            while next_code < code.len() && code[next_code].span.end <= i {
                next_code += 1;
            }
            let in_code = code
                .get(next_code)
                .is_some_and(|c| c.span.start <= i && i < c.span.end);
            if !in_code {
                if raw[i] == b'(' || raw[i] == b'[' {
                    d = d.saturating_add(1);
                } else if (raw[i] == b')' || raw[i] == b']') && d > 0 {
                    d -= 1;
                }
            }
            depth[i] = d;
        }
        Doc {
            text,
            lower,
            code,
            shields,
            depth,
            keep_all: false,
            screened: true,
            hits: Cell::new(None),
            successes_of: RefCell::new(Vec::new()),
            main_part_of: RefCell::new(Vec::new()),
        }
    }

    /// Whether a search of the span with the pattern can find anything ([`sieve`]).
    fn may_match(&self, re: &Pattern, span: Span) -> bool {
        self.hits.get().is_none_or(|h| h.may_match(re, span))
    }

    fn matches(&self, re: &Pattern, span: Span) -> Vec<Span> {
        if !self.may_match(re, span) {
            return Vec::new();
        }
        let Some(hay) = self.lower.get(span.start..span.end) else {
            return Vec::new();
        };
        re.find_iter(hay)
            .map(|m| Span::new(span.start + m.start(), span.start + m.end()))
            .collect()
    }

    /// The first match of a pattern in the span.
    fn first_match(&self, re: &Pattern, span: Span) -> Option<Span> {
        if !self.may_match(re, span) {
            return None;
        }
        let m = re.find(self.lower.get(span.start..span.end)?)?;
        Some(Span::new(span.start + m.start(), span.start + m.end()))
    }

    /// Whether a pattern matches anywhere in the span, shielded or not.
    fn present(&self, re: &Pattern, span: Span) -> bool {
        self.may_match(re, span)
            && self
                .lower
                .get(span.start..span.end)
                .is_some_and(|h| re.is_match(h))
    }

    fn shielded(&self, m: Span) -> bool {
        self.shields
            .iter()
            .any(|s| s.start <= m.start && m.end <= s.end)
    }

    /// A marker word that is not part of a shielding phrase.
    fn marker(&self, re: &Pattern, span: Span) -> bool {
        if !self.may_match(re, span) {
            return false;
        }
        let Some(hay) = self.lower.get(span.start..span.end) else {
            return false;
        };
        re.find_iter(hay)
            .any(|m| !self.shielded(Span::new(span.start + m.start(), span.start + m.end())))
    }

    /// Positions where the clause says something succeeded.
    fn successes(&self, span: Span) -> Vec<Span> {
        if let Some((_, found)) = self.successes_of.borrow().iter().find(|(s, _)| *s == span) {
            return found.clone();
        }
        let found = self.find_successes(span);
        self.successes_of.borrow_mut().push((span, found.clone()));
        found
    }

    fn find_successes(&self, span: Span) -> Vec<Span> {
        let mut out: Vec<Span> = Vec::new();
        for m in self.matches(&PASS_WORD, span) {
            let rest = self.lower.get(m.end..span.end).unwrap_or("");
            // "pass across the FFI boundary" hands a value over; "pass across all packages"
            // (every, each, both, the board) is a result over a scope.
            static ACROSS_SCOPE: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
                Pattern::new(r"^\s+across\s+(?:all|every|each|both|the\s+(?:board|whole|entire|workspace|repo|monorepo|project)|\d+)\b")
                    .expect("valid regex")
            });
            if !PASS_NOT_FOLLOWED_BY.is_match(rest) || ACROSS_SCOPE.is_match(rest) {
                out.push(m);
            }
        }
        for re in [
            &*PASSING,
            &*SUCCEED,
            &*EXIT_ZERO,
            &*COUNT_PASS,
            &*OK_PHRASE,
            &*VERIFIED_BY,
            &*BUILD_FIXED,
        ] {
            out.extend(self.matches(re, span));
        }
        // "happy" is a success, "the happy path" is not.
        out.extend(self.matches(&GREEN, span).into_iter().filter(|m| {
            let rest = self.lower.get(m.end..span.end).unwrap_or("");
            !(rest.starts_with(" path") || rest.starts_with("-path") || rest.starts_with(" case"))
        }));
        out.extend(self.build_verbs(span));
        if let Some(m) = self
            .lower
            .get(span.start..span.end)
            .filter(|_| self.may_match(&BUILD_FIX_LABEL, span))
            .and_then(|h| BUILD_FIX_LABEL.captures(h))
            .and_then(|c| c.get(1))
        {
            out.push(Span::new(span.start + m.start(), span.start + m.end()));
        }
        out.sort();
        out
    }

    /// "It builds" / "compiles cleanly", but not "builds the index" (code that builds things).
    fn build_verbs(&self, span: Span) -> Vec<Span> {
        self.matches(&BUILDS_VERB, span)
            .into_iter()
            .filter(|m| {
                let w = &self.lower[m.start..m.end];
                let bare = w == "builds"
                    || w == "compiles"
                    || w == "typechecks"
                    || w == "type-checks"
                    || w == "type checks";
                // "excluded fuzz targets from GCC builds": a noun, not a verb; "Builds and
                // caches the index": a description with no subject.
                let before = self.lower.get(span.start..m.start).unwrap_or("");
                let after = self.lower.get(m.end..span.end).unwrap_or("");
                let opens = before
                    .trim_matches(|c: char| {
                        c.is_whitespace() || matches!(c, '*' | '_' | '✅' | '✔' | '☑' | '-')
                    })
                    .is_empty();
                static OPENING_FOLLOW: std::sync::LazyLock<Pattern> =
                    std::sync::LazyLock::new(|| {
                        Pattern::new(r"^(?:\s*$|\s*[.!]|\s+(?:successfully|cleanly|fine|without|with\s+(?:no|zero|0)|ok|green|again|now)\b)")
                            .expect("valid regex")
                    });
                let noun = BUILDS_AS_NOUN.is_match(before);
                !bare
                    || !noun
                        && if opens {
                            OPENING_FOLLOW.is_match(after)
                        } else {
                            BUILD_VERB_FOLLOW.is_match(after)
                        }
            })
            .collect()
    }

    /// Whether a stretch of text says anything a clause could be about (used to decide
    /// whether a conjunction joins two clauses or two nouns).
    fn has_predicate(&self, span: Span) -> bool {
        // A lone check mark decorates a line; it does not make a clause of its own.
        if self
            .successes(span)
            .iter()
            .any(|s| !matches!(&self.lower[s.start..s.end], "✅" | "✔" | "☑"))
        {
            return true;
        }
        [&*FAILURE, &*NEGATION, &*HEDGE, &*FUTURE, &*HISTORY]
            .iter()
            .any(|re| self.marker(re, span))
            || [&*FILE_VERB, &*RAN, &*COMMITTED, &*PUSHED]
                .iter()
                .any(|re| self.present(re, span))
    }

    /// The clauses of a sentence, each with whether a contrast ("but", "while", "although")
    /// joins it to the next one.
    fn clauses(&self, sentence: Span) -> Vec<(Span, bool)> {
        static SEPARATOR: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
            Pattern::new(r";\s+|\s+[—–-]\s+|\s+--\s+|:\s+|,\s+(?:and|but|while|whereas|although|though|so|plus|then|yet)\s+|\s+(?:and|but|then|yet|plus)\s+|,\s+")
                .expect("valid regex")
        });
        let cands: Vec<(Span, bool)> = self
            .matches(&SEPARATOR, sentence)
            .into_iter()
            .filter(|m| self.depth.get(m.start).copied().unwrap_or(0) == 0)
            .map(|m| {
                let sep = &self.lower[m.start..m.end];
                let hard = sep.starts_with(';');
                (m, hard)
            })
            .collect();
        let mut out = Vec::new();
        if cands.is_empty() {
            out.push((sentence.trim(self.text), false));
            return out;
        }
        // Where the sentence says anything (matched once for the whole sentence).
        let results: Vec<Span> = self
            .successes(sentence)
            .into_iter()
            .filter(|s| !matches!(&self.lower[s.start..s.end], "✅" | "✔" | "☑"))
            .chain(
                [&*FAILURE, &*NEGATION, &*HEDGE, &*FUTURE, &*HISTORY]
                    .iter()
                    .flat_map(|re| self.matches(re, sentence))
                    .filter(|m| !self.shielded(*m)),
            )
            .chain(
                [&*RAN, &*COMMITTED, &*PUSHED]
                    .iter()
                    .flat_map(|re| self.matches(re, sentence)),
            )
            .collect();
        let file_verbs = self.matches(&FILE_VERB, sentence);
        let inside = |list: &[Span], span: Span| {
            list.iter()
                .any(|p| p.start >= span.start && p.end <= span.end)
        };
        let has_result = |span: Span| inside(&results, span);
        let has_predicate = |span: Span| has_result(span) || inside(&file_verbs, span);
        let mut cur = sentence.start;
        for (k, (m, hard)) in cands.iter().enumerate() {
            if m.start < cur {
                continue;
            }
            let left = Span::new(cur, m.start);
            let right_end = cands.get(k + 1).map_or(sentence.end, |(n, _)| n.start);
            let right = Span::new(m.end, right_end);
            // "I updated `a.rs` and `b.rs` so ...": a second file object, not a new clause.
            let coordinated_path = !*hard
                && inside(&file_verbs, left)
                && self.code.iter().any(|c| {
                    matches!(c.cat, CodeCat::Path)
                        && c.span.start >= right.start
                        && self.text[right.start..c.span.start].trim().is_empty()
                });
            // A dash after a bare subject ("`src/a.rs` — new parser", "`cargo test` — 42
            // passed") labels it; after a clause it starts a new one.
            let sep = self.lower[m.start..m.end].trim();
            // "not yet committed": an adverb, not a conjunction.
            if sep == "yet" && {
                let before = self.lower[cur..m.start].trim_end();
                before.ends_with(" not")
                    || before.ends_with("n't")
                    || before.ends_with("n’t")
                    || before == "not"
            } {
                continue;
            }
            let dash = matches!(sep, "—" | "–" | "--" | "-");
            // A bare comma joins two clauses ("Tests passed, no regressions") unless the first
            // is subordinate ("After the tests pass, I'll push").
            let bare_comma = sep == ",";
            static SUBORDINATE: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
                Pattern::new(r"^[\s*_]*(?:if|when|whenever|once|as\s+soon\s+as|after|before|until|unless|although|though|while|since|because|provided|given|assuming|apart\s+from|aside\s+from|except|besides|other\s+than|with\s+the\s+exception\s+of)\b")
                    .expect("valid regex")
            });
            let starts_with_count = |span: Span| {
                self.lower
                    .get(span.start..span.end)
                    .is_some_and(|t| t.trim_start().starts_with(|c: char| c.is_ascii_digit()))
            };
            // "1 failed, 41 passed": one summary, not two clauses.
            let subordinate = bare_comma
                && (SUBORDINATE.is_match(self.lower.get(cur..m.start).unwrap_or(""))
                    || starts_with_count(right)
                    || starts_with_count(Span::new(cur, m.start)));
            // After a bare comma, a file verb without a file of its own continues the
            // previous action ("removed the section from README.md, replaced with a link").
            let continues_action = || {
                bare_comma
                    && !has_result(right)
                    && !self.code.iter().any(|c| {
                        matches!(c.cat, CodeCat::Path)
                            && c.span.start >= right.start
                            && c.span.end <= right.end
                    })
                    && self.bare_paths(right).is_empty()
            };
            let split = if dash {
                has_predicate(left)
            } else {
                !coordinated_path
                    && !subordinate
                    && has_predicate(left)
                    && has_predicate(right)
                    && !continues_action()
            };
            if *hard || split {
                let sep = &self.lower[m.start..m.end];
                let contrast = ["but", "while", "whereas", "although", "though", "yet"]
                    .iter()
                    .any(|w| sep.split(|c: char| !c.is_alphanumeric()).any(|t| t == *w));
                out.push((left.trim(self.text), contrast));
                cur = m.end;
            }
        }
        out.push((Span::new(cur, sentence.end).trim(self.text), false));
        out.into_iter().filter(|(s, _)| !s.is_empty()).collect()
    }

    /// Subjects a clause talks about, whether or not it claims success.
    fn mentioned_kinds(&self, region: Span) -> Vec<ClaimSubject> {
        let has = |re: &Pattern| self.present(re, region);
        let mut kinds = Vec::new();
        let code_kind = |k: CommandKind| {
            self.codes_in(region)
                .iter()
                .any(|&ci| matches!(&self.code[ci].cat, CodeCat::Command(c) if c.kind == k))
        };
        if has(&TEST_WORD) || code_kind(CommandKind::Test) {
            kinds.push(ClaimSubject::TestResult);
        }
        if has(&BUILD_WORD) || code_kind(CommandKind::Build) {
            kinds.push(ClaimSubject::BuildResult);
        }
        if has(&LINT_WORD) || code_kind(CommandKind::Lint) {
            kinds.push(ClaimSubject::LintResult);
        }
        kinds
    }

    /// "X passes locally but fails in CI": the second clause takes the success back.
    fn taken_back(&self, clause: Span, next: Span) -> bool {
        if !self.marker(&FAILURE, next) {
            return false;
        }
        let here = self.mentioned_kinds(clause);
        let there = self.mentioned_kinds(next);
        if there.is_empty() {
            return true;
        }
        let scope = |span: Span| suite_scope_word(&self.lower[span.start..span.end]);
        let (a, b) = (scope(clause), scope(next));
        if a.is_some() && b.is_some() && a != b {
            return false;
        }
        here.iter().any(|k| there.contains(k))
    }

    fn codes_in(&self, span: Span) -> Vec<usize> {
        (0..self.code.len())
            .filter(|&i| self.code[i].span.start >= span.start && self.code[i].span.end <= span.end)
            .collect()
    }

    /// How a clause is put: its polarity and modality, read from its markers. Markers inside a
    /// relative clause that follows the main predicate ("fixed the bug where X could ...") do
    /// not change the main clause.
    fn mood(&self, region: Span) -> (Polarity, Modality) {
        let main = self.main_part(region);
        let head = self.lower[region.start..region.end].trim_start();
        if IMPERATIVE_START.is_match(head) {
            return (Polarity::Positive, Modality::Instruction);
        }
        if self.marker(&NEGATION, main) {
            return (Polarity::Negative, Modality::Done);
        }
        let modality = if self.marker(&FAILURE, main) {
            Modality::Failure
        } else if self.marker(&HEDGE, main) {
            Modality::Hedged
        } else if self.marker(&FUTURE, main) {
            Modality::Future
        } else if self.describes_other_work(region) {
            Modality::Described
        } else if self.marker(&HISTORY, main) {
            Modality::Past
        } else if self.marker(&REPORTED, main) {
            Modality::Reported
        } else {
            Modality::Done
        };
        (Polarity::Positive, modality)
    }

    /// The clause up to a relative or causal clause ("where", "which", "because") that follows
    /// its predicate.
    fn main_part(&self, region: Span) -> Span {
        if let Some(&(_, main)) = self
            .main_part_of
            .borrow()
            .iter()
            .find(|(r, _)| *r == region)
        {
            return main;
        }
        let main = self.find_main_part(region);
        self.main_part_of.borrow_mut().push((region, main));
        main
    }

    fn find_main_part(&self, region: Span) -> Span {
        for m in self.matches(&RELATIVE, region) {
            let before = Span::new(region.start, m.start);
            if self.has_predicate(before) {
                return before;
            }
        }
        region
    }

    /// The assertions of one clause, and what it was about.
    fn analyze(
        &self,
        clause: Span,
        previous: Option<&ClauseContext>,
    ) -> (Vec<Assertion>, ClauseContext) {
        // Text after a purpose marker ("to make sure ...", "so that ...") is not a report.
        let region = match self.first_match(&PURPOSE, clause) {
            Some(m) => Span::new(clause.start, m.start).trim(self.text),
            None => clause,
        };
        if region.is_empty() {
            return (Vec::new(), ClauseContext::default());
        }
        let (polarity, modality) = self.mood(region);
        let done = polarity == Polarity::Positive && modality == Modality::Done;
        if !done && !self.keep_all {
            return (Vec::new(), ClauseContext::default());
        }
        let (mut found, mut context) = self.detect(region, previous);
        let actor = self.actor_of(region);
        if matches!(actor, ClaimActor::Other { .. })
            && !found.iter().any(|f| f.0 == ClaimSubject::GitCommit)
            && self.marker(&COMMIT_NOUN, region)
        {
            // "My teammate's commit `4d5e6f7` fixed it": a commit by someone else.
            let codes = self.codes_in(region);
            found.push((
                ClaimSubject::GitCommit,
                region,
                self.commit_target(region, &codes),
            ));
        }
        let (quantity, ratio_partial) = self.quantity_of(region);
        let partial = ratio_partial || self.marker(&PARTIAL, self.main_part(region));
        if found.is_empty() && context.mentioned.contains(&ClaimSubject::TestResult) {
            // A label ("Unit tests: ...") names the scope of what follows.
            context.label_scope = Some(self.scope_of(ClaimSubject::TestResult, region));
        }
        let inherited = previous.and_then(|p| p.label_scope.clone());
        let assertions = found
            .into_iter()
            .map(|(subject, span, target)| {
                let checked = matches!(
                    subject,
                    ClaimSubject::TestResult | ClaimSubject::BuildResult | ClaimSubject::LintResult
                );
                let mut scope = if checked {
                    self.scope_of(subject, region)
                } else {
                    ClaimScope::Whole
                };
                if scope == ClaimScope::Whole && subject == ClaimSubject::TestResult {
                    if let Some(s) = &inherited {
                        scope = s.clone();
                    }
                }
                let modality = if done && is_result(subject) && partial {
                    Modality::Partial
                } else {
                    modality
                };
                Assertion {
                    sentence_index: 0,
                    subject,
                    span,
                    target,
                    scope,
                    quantity: if subject == ClaimSubject::TestResult {
                        quantity
                    } else {
                        ClaimQuantity::Unqualified
                    },
                    actor: actor.clone(),
                    polarity,
                    modality,
                }
            })
            .collect();
        if !done {
            context = ClauseContext::default();
        }
        (assertions, context)
    }

    /// The claims a clause's words make, whatever its mood.
    fn detect(
        &self,
        region: Span,
        previous: Option<&ClauseContext>,
    ) -> (Vec<Found>, ClauseContext) {
        let mut context = ClauseContext::default();
        let mut found: Vec<Found> = Vec::new();
        let codes = self.codes_in(region);
        context.mentioned = self.mentioned_kinds(region);
        let successes = self.successes(region);
        let tool = self.tool_named(region);
        context.tool = tool.clone();

        // 1. A command named in code, then a success predicate: "`cargo test` passes".
        let exit_style: Vec<Span> = self
            .matches(&EXIT_ZERO, region)
            .into_iter()
            .filter(|m| {
                let w = &self.lower[m.start..m.end];
                w.contains("exit") || w.contains("return")
            })
            .collect();
        let mut command_claimed = Vec::new();
        for &ci in &codes {
            let c = &self.code[ci];
            let CodeCat::Command(class) = &c.cat else {
                continue;
            };
            // "`cargo test` passes", "passes (`cargo test`)", "no crash with `make fuzz`".
            let in_parens = self.depth.get(c.span.start).copied().unwrap_or(0)
                > self.depth.get(region.start).copied().unwrap_or(0);
            let leads_to = |s: &Span| {
                s.end <= c.span.start
                    && SUCCESS_BEFORE_COMMAND
                        .is_match(self.lower.get(s.end..c.span.start).unwrap_or("x"))
            };
            if !successes
                .iter()
                .any(|s| s.start >= c.span.end || in_parens && s.end <= c.span.start || leads_to(s))
            {
                continue;
            }
            let target = ClaimTarget {
                command: Some(c.content.clone()),
                tool: class.tool.clone().map(|t| vocab::canonical(&t)),
                ..ClaimTarget::default()
            };
            let by_exit = exit_style.iter().any(|s| s.start >= c.span.end);
            let subject = if by_exit || is_task_runner(class) {
                ClaimSubject::CommandSucceeded
            } else {
                match class.kind {
                    CommandKind::Test => ClaimSubject::TestResult,
                    CommandKind::Build => ClaimSubject::BuildResult,
                    CommandKind::Lint => ClaimSubject::LintResult,
                    CommandKind::Other => ClaimSubject::CommandSucceeded,
                }
            };
            found.push((subject, region, target));
            command_claimed.push(ci);
            context.commands.push(ci);
        }

        // 2. "I ran `X`".
        for m in self.matches(&RAN, region) {
            let Some(&ci) = codes.iter().find(|&&ci| self.code[ci].span.start >= m.end) else {
                continue;
            };
            let gap = self
                .lower
                .get(m.end..self.code[ci].span.start)
                .unwrap_or("x");
            if !RAN_GAP.is_match(gap) || command_claimed.contains(&ci) {
                continue;
            }
            let c = &self.code[ci];
            if matches!(c.cat, CodeCat::Sha)
                || (matches!(c.cat, CodeCat::Other) && !c.content.contains(' '))
            {
                continue;
            }
            let tool = match &c.cat {
                CodeCat::Command(class) => class.tool.clone().map(|t| vocab::canonical(&t)),
                _ => None,
            };
            found.push((
                ClaimSubject::CommandExecuted,
                region,
                ClaimTarget {
                    command: Some(c.content.clone()),
                    tool,
                    ..ClaimTarget::default()
                },
            ));
            context.commands.push(ci);
        }

        // "`node build/index.js` executed and printed the banner".
        for &ci in &codes {
            let c = &self.code[ci];
            if !matches!(c.cat, CodeCat::Command(_)) || context.commands.contains(&ci) {
                continue;
            }
            let rest = self.lower.get(c.span.end..region.end).unwrap_or("");
            if RAN_PASSIVE.is_match(rest) && !command_claimed.contains(&ci) {
                let tool = match &c.cat {
                    CodeCat::Command(class) => class.tool.clone().map(|t| vocab::canonical(&t)),
                    _ => None,
                };
                found.push((
                    ClaimSubject::CommandExecuted,
                    region,
                    ClaimTarget {
                        command: Some(c.content.clone()),
                        tool,
                        ..ClaimTarget::default()
                    },
                ));
                context.commands.push(ci);
            }
        }

        // 3. Test, build and lint claims in words: "all tests pass", "the build is green".
        if command_claimed.is_empty() && !successes.is_empty() {
            let kinds = self.word_subjects(region, &successes);
            // "it passes", or a bare "green." after "Re-ran `pytest`:" refer to the previous
            // clause's subject.
            let fragment = self.lower[region.start..region.end]
                .split_whitespace()
                .count()
                <= 3;
            let kinds = if kinds.is_empty() && (self.marker(&PRONOUN, region) || fragment) {
                previous
                    .map(|p| {
                        if p.kinds.is_empty() {
                            p.mentioned.clone()
                        } else {
                            p.kinds.clone()
                        }
                    })
                    .unwrap_or_default()
            } else {
                kinds
            };
            let tool = tool.or_else(|| previous.and_then(|p| p.tool.clone()));
            let own_command = codes
                .iter()
                .any(|&ci| matches!(self.code[ci].cat, CodeCat::Command(_)));
            for subject in &kinds {
                if *subject == ClaimSubject::CommandSucceeded && self.marker(&CHECKS_WORD, region) {
                    // "All checks pass": the project's check task, whatever runs it.
                    found.push((
                        *subject,
                        region,
                        ClaimTarget {
                            tool: Some("check".into()),
                            ..ClaimTarget::default()
                        },
                    ));
                    continue;
                }
                let kind = match subject {
                    ClaimSubject::TestResult => Some(CommandKind::Test),
                    ClaimSubject::BuildResult => Some(CommandKind::Build),
                    ClaimSubject::LintResult => Some(CommandKind::Lint),
                    _ => None,
                };
                // "I ran `go test ./...`: every package is ok" is about that run.
                let inherited = if own_command {
                    None
                } else {
                    previous.and_then(|p| {
                        p.commands.iter().find_map(|&ci| match &self.code[ci].cat {
                            CodeCat::Command(class) if subject_of(class) == *subject => {
                                Some((self.code[ci].content.clone(), class.tool.clone()))
                            }
                            _ => None,
                        })
                    })
                };
                let target = match inherited {
                    Some((command, tool)) => ClaimTarget {
                        command: Some(command),
                        tool: tool.map(|t| vocab::canonical(&t)),
                        ..ClaimTarget::default()
                    },
                    None => ClaimTarget {
                        tool: tool
                            .clone()
                            .filter(|t| kind.is_some_and(|k| vocab::fits(k, t))),
                        ..ClaimTarget::default()
                    },
                };
                found.push((*subject, region, target));
            }
            context.kinds = kinds;
            let pronoun = self.marker(&PRONOUN, region);
            if context.kinds.is_empty()
                && previous.is_none_or(|p| p.commands.is_empty())
                && IT_PASSES.is_match(&self.lower[region.start..region.end])
            {
                // "There's an unused import warning, but it passes": something that was run
                // passed, though the text does not say what.
                found.push((
                    ClaimSubject::CommandSucceeded,
                    region,
                    ClaimTarget::default(),
                ));
            }
            if context.kinds.is_empty() && (pronoun || fragment) {
                // "I ran `cargo test` and it passed": the pronoun names the command.
                if let Some(p) = previous {
                    for &ci in &p.commands {
                        let c = &self.code[ci];
                        if let CodeCat::Command(class) = &c.cat {
                            let subject = subject_of(class);
                            found.push((
                                subject,
                                region,
                                ClaimTarget {
                                    command: Some(c.content.clone()),
                                    tool: class.tool.clone().map(|t| vocab::canonical(&t)),
                                    ..ClaimTarget::default()
                                },
                            ));
                        }
                    }
                }
            }
        } else if !command_claimed.is_empty() {
            for &ci in &command_claimed {
                if let CodeCat::Command(class) = &self.code[ci].cat {
                    context.kinds.push(match class.kind {
                        CommandKind::Test => ClaimSubject::TestResult,
                        CommandKind::Build => ClaimSubject::BuildResult,
                        CommandKind::Lint => ClaimSubject::LintResult,
                        CommandKind::Other => continue,
                    });
                }
            }
        }

        // 4. Files written: "I updated `src/parse.rs`".
        found.extend(self.file_claims(region, &codes));

        // 5. Commits and pushes.
        if self.marker(&COMMITTED, region) {
            found.push((
                ClaimSubject::GitCommit,
                region,
                self.commit_target(region, &codes),
            ));
        }
        if self.marker(&PUSHED, region) {
            found.push((
                ClaimSubject::GitPush,
                region,
                self.push_target(region, &codes),
            ));
        } else if let Some(target) = self.push_range(region, &codes) {
            // "`origin/main`: `f95ca73..017b237`": the range a push printed.
            found.push((ClaimSubject::GitPush, region, target));
        } else if self.present(&LIVE_AT, region) {
            found.push((ClaimSubject::GitPush, region, ClaimTarget::default()));
        }

        // 6. Actions done through a well-known command: "merged `x` into `main`", "opened a
        // pull request", "commented on the issue".
        for (span, command) in self.actions(region) {
            if !found.iter().any(|f| {
                f.0 == ClaimSubject::CommandExecuted
                    && f.2.command.as_deref() == Some(command.as_str())
            }) {
                found.push((
                    ClaimSubject::CommandExecuted,
                    span,
                    ClaimTarget {
                        command: Some(command),
                        ..ClaimTarget::default()
                    },
                ));
            }
        }
        (found, context)
    }

    fn word_subjects(&self, region: Span, successes: &[Span]) -> Vec<ClaimSubject> {
        let mut kinds = Vec::new();
        let has = |re: &Pattern| self.present(re, region);
        // A check mark alone in front of a description marks a feature as done ("✅ Builds a
        // dependency graph"); only a short result phrase ("✅ Tests", "✅ Build") is a claim.
        let marks_only = successes
            .iter()
            .all(|s| matches!(&self.lower[s.start..s.end], "✅" | "✔" | "☑"));
        if marks_only
            && self.lower[region.start..region.end]
                .split_whitespace()
                .filter(|w| !matches!(*w, "✅" | "✔" | "☑"))
                .count()
                > 4
        {
            return kinds;
        }
        let pass_like = successes.iter().any(|s| {
            let w = &self.lower[s.start..s.end];
            w.contains("pass") || w.contains("green") || w.ends_with("ok") || w.ends_with("okay")
        });
        let lint_words = has(&LINT_WORD);
        if pass_like && has(&CHECKS_WORD) && !lint_words && !has(&TEST_WORD) && !has(&BUILD_WORD) {
            // "All checks pass": a check command (`npm run check`) succeeded.
            return vec![ClaimSubject::CommandSucceeded];
        }
        let names_test = self.codes_in(region).iter().any(|&ci| {
            let c = &self.code[ci];
            matches!(c.cat, CodeCat::TestName)
                || matches!(c.cat, CodeCat::Path) && scope::is_test_file(&c.content)
        });
        if has(&TEST_WORD)
            || has(&COUNT_PASS)
            || (has(&PACKAGE_WORD) && pass_like)
            || (names_test && pass_like)
        {
            kinds.push(ClaimSubject::TestResult);
        }
        let build_verb = !self.build_verbs(region).is_empty()
            || has(&BUILD_FIXED)
            || successes.iter().any(|s| {
                let w = &self.lower[s.start..s.end];
                w.starts_with(['b', 'c']) && (w.ends_with(" fix") || w.ends_with(" fixes"))
            });
        let build_words = build_verb
            || (has(&BUILD_WORD)
                && successes
                    .iter()
                    .any(|s| !self.lower[s.start..s.end].starts_with("build")));
        // "mypy type checks pass" is a lint claim, not a build claim.
        let type_checker_named = ["mypy", "pyright", "pytype"].iter().any(|t| {
            self.text[region.start..region.end]
                .to_ascii_lowercase()
                .contains(t)
        });
        if build_words && !type_checker_named {
            kinds.push(ClaimSubject::BuildResult);
        }
        if lint_words {
            kinds.push(ClaimSubject::LintResult);
        }
        if kinds.is_empty() {
            // "All checks pass": a check command (`npm run check`) succeeded; "the script
            // executed successfully", "all 5 repos cloned successfully": a command did.
            if has(&CHECKS_WORD) && pass_like
                || has(&RUN_SUBJECT) && (has(&EXIT_ZERO) || has(&OK_PHRASE))
            {
                kinds.push(ClaimSubject::CommandSucceeded);
            }
            return kinds;
        }
        // "All tests pass in the release build": a build named only as the place where tests
        // ran is not a build claim.
        if kinds.contains(&ClaimSubject::TestResult)
            && kinds.contains(&ClaimSubject::BuildResult)
            && !build_verb
        {
            static PLACE: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
                Pattern::new(r"\b(?:in|on|for|with|against|using|during|of|after|before|from)\s+(?:the\s+|a\s+|an\s+|this\s+|our\s+|\w+\s+){0,2}$").expect("valid regex")
            });
            let all_places = self.matches(&BUILD_WORD, region).iter().all(|b| {
                let before = &self.lower[region.start..b.start];
                PLACE.is_match(before)
            });
            if all_places {
                kinds.retain(|k| *k != ClaimSubject::BuildResult);
            }
        }
        kinds
    }

    /// Whether the clauses of a sentence can hold an English assertion at all ([`screen`]).
    fn may_assert(&self, sentence: Span) -> bool {
        if !self.screened {
            return true;
        }
        // `code` is sorted by start and its spans do not overlap.
        let first_after = self.code.partition_point(|c| c.span.end <= sentence.start);
        let has_code = self
            .code
            .get(first_after)
            .is_some_and(|c| c.span.start < sentence.end);
        screen::may_assert(
            &self.lower[sentence.start..sentence.end],
            &self.text[sentence.start..sentence.end],
            has_code,
        )
    }

    fn tool_named(&self, region: Span) -> Option<String> {
        vocab::tool_named(&self.lower[region.start..region.end]).map(str::to_string)
    }

    /// The assertions of one sentence: its clauses, the same sentence read in another
    /// language, and what its place in a list of changes says.
    fn sentence(&self, index: usize, s: &Sentence, section: Section) -> Vec<Assertion> {
        let sentence = s.span;
        let mut out: Vec<Assertion> = Vec::new();
        // Claims are short; a "sentence" of thousands of bytes is code or a log, not prose.
        if sentence.end - sentence.start > MAX_SENTENCE {
            return out;
        }
        let lowered = &self.lower[sentence.start..sentence.end];
        // Cheap pre-check: a sentence with none of the claim words cannot hold a claim.
        if !TRIGGER.is_match(lowered) {
            self.listed_files(index, s, section, &mut out);
            return out;
        }
        let question = sentence
            .slice(self.text)
            .trim_end_matches(['*', '_', ')', '"'])
            .ends_with(['?', '？']);
        // What the sentence's place in the document says about it.
        let placed = if question {
            Some(Modality::Question)
        } else if s.kind.quoted {
            Some(Modality::Reported)
        } else if s.kind.checkbox == Some(false) || section == Section::Plan {
            Some(Modality::Planned)
        } else if section == Section::Creative {
            Some(Modality::Composed)
        } else if PLAN_PREFIX.is_match(lowered) {
            Some(Modality::Planned)
        } else {
            None
        };
        if placed.is_some() && !self.keep_all {
            return out;
        }
        let mut previous: Option<ClauseContext> = None;
        self.hits.set(Hits::of(&self.lower, sentence));
        self.successes_of.borrow_mut().clear();
        self.main_part_of.borrow_mut().clear();
        let clauses = if self.may_assert(sentence) {
            self.clauses(sentence)
        } else {
            Vec::new()
        };
        // "According to the issue, X was fixed and the tests were green": someone else's words
        // for the whole sentence.
        let carried = clauses
            .first()
            .filter(|&&(first, _)| self.marker(&REPORTED, first))
            .map(|_| Modality::Reported);
        // "47 passed and 2 failed": the clause with the passed count is not a success claim.
        let failing_tally = !clauses.is_empty()
            && self
                .lower
                .get(sentence.start..sentence.end)
                .is_some_and(|t| scope::FAILING_TALLY.is_match(t));
        for (i, &(clause, contrast)) in clauses.iter().enumerate() {
            let (mut found, context) = self.analyze(clause, previous.as_ref());
            if let Some(m) = carried {
                if !self.keep_all && !found.is_empty() {
                    found.clear();
                }
                for a in &mut found {
                    a.modality = m;
                }
            }
            // "X passes locally but fails in CI": the second clause takes the success back.
            let taken_back = contrast
                && clauses
                    .get(i + 1)
                    .is_some_and(|(next, _)| self.taken_back(clause, *next));
            for mut a in found {
                if taken_back && is_result(a.subject) && a.modality == Modality::Done {
                    a.modality = Modality::Failure;
                }
                if failing_tally
                    && a.subject == ClaimSubject::TestResult
                    && a.modality == Modality::Done
                {
                    a.modality = Modality::Partial;
                }
                a.sentence_index = index;
                out.push(a);
            }
            previous = Some(context);
        }
        for (subject, span, target, quantity, modality) in self.foreign(sentence) {
            if out
                .iter()
                .any(|a| a.subject == subject && a.span.start < span.end && span.start < a.span.end)
            {
                continue;
            }
            out.push(Assertion {
                sentence_index: index,
                subject,
                span,
                target,
                scope: self.foreign_scope(subject, span),
                quantity,
                actor: ClaimActor::Agent,
                polarity: Polarity::Positive,
                modality,
            });
        }
        self.listed_files(index, s, section, &mut out);
        if let Some(m) = placed {
            for a in &mut out {
                if a.modality == Modality::Done {
                    a.modality = m;
                }
            }
        }
        out
    }

    /// A list item under "Files changed" or "Deleted" that is a path ("- `src/a.rs`", "-
    /// `src/a.rs` — retry logic"), or a `File:` field in a summary of a fix.
    fn listed_files(&self, index: usize, s: &Sentence, section: Section, out: &mut Vec<Assertion>) {
        let subject = match section {
            Section::Changes | Section::Fix => ClaimSubject::FileWritten,
            Section::Deleted => ClaimSubject::FileDeleted,
            _ => return,
        };
        if !(s.kind.list || s.kind.table) || s.span.start != s.block_span.start {
            return;
        }
        let Some((path_span, path)) = self.leading_path(s.span) else {
            return;
        };
        if section == Section::Fix && !self.file_field(s.span, path_span) {
            return;
        }
        if section == Section::Deleted {
            for a in out.iter_mut() {
                if a.subject == ClaimSubject::FileWritten
                    && a.target.path.as_deref() == Some(path.as_str())
                {
                    a.subject = ClaimSubject::FileDeleted;
                }
            }
        }
        if out
            .iter()
            .any(|a| a.target.path.as_deref() == Some(path.as_str()))
        {
            return;
        }
        let span = if section == Section::Fix {
            path_span
        } else {
            s.span
        };
        out.push(Assertion {
            sentence_index: index,
            subject,
            span: trim_punctuation(self.text, span),
            target: ClaimTarget {
                path: Some(path),
                ..ClaimTarget::default()
            },
            scope: ClaimScope::Whole,
            quantity: ClaimQuantity::Unqualified,
            actor: ClaimActor::Agent,
            polarity: Polarity::Positive,
            modality: Modality::Done,
        });
    }

    /// In a list where other items say what was changed in a file ("`a.ts` — added the
    /// button"), an item that only says what a file is for ("`b.test.ts` — unit test for the
    /// change set") is a change too.
    fn list_siblings(
        &self,
        sentences: &[Sentence],
        per_sentence: &mut [Vec<Assertion>],
        keep_all: bool,
    ) {
        let mut run_start = 0;
        while run_start < sentences.len() {
            if !sentences[run_start].kind.list {
                run_start += 1;
                continue;
            }
            let mut run_end = run_start;
            while run_end < sentences.len() && sentences[run_end].kind.list {
                run_end += 1;
            }
            let item_firsts: Vec<usize> = (run_start..run_end)
                .filter(|&i| sentences[i].span.start == sentences[i].block_span.start)
                .collect();
            let change_item = |i: usize| {
                self.leading_path(sentences[i].span)
                    .is_some_and(|(_, path)| {
                        per_sentence[i].iter().any(|a| {
                            a.is_claim()
                                && a.subject == ClaimSubject::FileWritten
                                && a.target.path.as_deref() == Some(path.as_str())
                        })
                    })
            };
            if item_firsts.len() >= 2 && item_firsts.iter().any(|&i| change_item(i)) {
                for &i in &item_firsts {
                    if per_sentence[i].iter().any(|a| keep_all || a.is_claim()) {
                        continue;
                    }
                    let s = &sentences[i];
                    let Some((path_span, path)) = self.leading_path(s.span) else {
                        continue;
                    };
                    let rest = self.lower.get(path_span.end..s.span.end).unwrap_or("");
                    if !self.labels_a_path(rest) {
                        continue;
                    }
                    per_sentence[i].push(Assertion {
                        sentence_index: i,
                        subject: ClaimSubject::FileWritten,
                        span: trim_punctuation(self.text, s.span),
                        target: ClaimTarget {
                            path: Some(path),
                            ..ClaimTarget::default()
                        },
                        scope: ClaimScope::Whole,
                        quantity: ClaimQuantity::Unqualified,
                        actor: ClaimActor::Agent,
                        polarity: Polarity::Positive,
                        modality: Modality::Done,
                    });
                }
            }
            run_start = run_end;
        }
    }
}

/// The subject of a claim that a command of this class succeeded.
fn subject_of(class: &CommandClass) -> ClaimSubject {
    match class.kind {
        CommandKind::Test if !is_task_runner(class) => ClaimSubject::TestResult,
        CommandKind::Build if !is_task_runner(class) => ClaimSubject::BuildResult,
        CommandKind::Lint if !is_task_runner(class) => ClaimSubject::LintResult,
        _ => ClaimSubject::CommandSucceeded,
    }
}

/// Subjects whose claim is a result (a run passed), which partial success and a contrast that
/// takes it back apply to.
fn is_result(subject: ClaimSubject) -> bool {
    matches!(
        subject,
        ClaimSubject::TestResult
            | ClaimSubject::BuildResult
            | ClaimSubject::LintResult
            | ClaimSubject::CommandSucceeded
    )
}

fn categorize(inner: &str) -> CodeCat {
    let t = inner.trim();
    if t.len() >= 7
        && t.len() <= 40
        && t.chars()
            .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase())
    {
        return CodeCat::Sha;
    }
    if !t.contains(' ') && vocab::tool_of(&t.to_ascii_lowercase()).is_some() {
        return CodeCat::Tool;
    }
    // A lone path is a file even when it could be run (`tests/test_x.py`, `scripts/ci.sh`).
    if !t.contains(char::is_whitespace) && looks_like_file_path(t) {
        return CodeCat::Path;
    }
    if looks_like_command(t) {
        return CodeCat::Command(commands::classify_command(t));
    }
    static TEST_ID: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
        Pattern::new(r"^(?:test_\w+|Test[A-Z0-9_]\w*|\w+_test|\w+(?:::\w+)*::tests?::\w+|[\w.]+\.(?:test|spec)\.[jt]sx?|\w+Test|\w+Spec)(?:\[[^\]]*\])?(?:\(\))?$").expect("valid regex")
    });
    if TEST_ID.is_match(t) {
        return CodeCat::TestName;
    }
    CodeCat::Other
}

/// Which part of a suite words name: `unit`, `integration`, `e2e`.
fn suite_scope_word(lower: &str) -> Option<&'static str> {
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .collect();
    if words.iter().any(|w| {
        matches!(
            *w,
            "e2e" | "end-to-end" | "playwright" | "cypress" | "browser"
        )
    }) {
        Some("e2e")
    } else if words.contains(&"integration") {
        Some("integration")
    } else if words.contains(&"unit") {
        Some("unit")
    } else {
        None
    }
}

/// `"..."` / `“...”` spans on one line.
fn quoted_spans(text: &str) -> Vec<Span> {
    static QUOTED: std::sync::LazyLock<Pattern> = std::sync::LazyLock::new(|| {
        Pattern::new(r#""[^"\n]{2,200}"|“[^”\n]{2,200}”"#).expect("valid regex")
    });
    QUOTED
        .find_iter(text)
        .map(|m| Span::new(m.start(), m.end()))
        .collect()
}

/// Task runners whose success is a command's success rather than a test/build/lint verdict
/// in the runner's own terms (`make test`, `just check`, `./scripts/test.sh`).
fn is_task_runner(class: &CommandClass) -> bool {
    class.wrapper
        && class.tool.as_deref().is_some_and(|t| {
            [
                "make:",
                "gmake:",
                "just:",
                "task:",
                "mage:",
                "cargo-make:",
                "rake:",
                "script:",
            ]
            .iter()
            .any(|p| t.starts_with(p))
        })
}

fn trim_punctuation(text: &str, span: Span) -> Span {
    let s = span.slice(text);
    let trimmed = s.trim_end_matches([',', ';', ':']).trim_end();
    Span::new(span.start, span.start + trimmed.len())
}

#[cfg(test)]
mod tests;
