//! Claim extraction: the agent's own assertions that something succeeded or was done.
//!
//! Extraction is sentence by sentence, then clause by clause: a sentence such as "`ruff check .`
//! reports no issues and `mypy src` is clean" carries two claims, each with its own exact
//! quote. A clause is dropped whole when it admits a failure, negates, hedges, speaks of the
//! future or the past, or gives an instruction ("2 tests still fail", "I haven't run the full
//! suite", "should pass once CI runs", "run `make test` to check"). Words inside inline code
//! never count as prose, and negative-looking success phrases ("no issues", "0 failed") are
//! read as success.
//!
//! Deterministic: the same text always gives the same claims, with ids
//! `<item key>#<sentence index>:<subject>` (a `:<n>` suffix tells apart further claims of the
//! same subject in one sentence).

pub mod lexicon;
mod targets;

use fornax_types::{Claim, ClaimSubject, ClaimTarget, Item, SemanticValue};
use regex::Regex;

use crate::commands::{self, looks_like_command, CommandClass, CommandKind};
use crate::paths::looks_like_file_path;
use crate::text::{code_spans, sentences, Span};
use lexicon::*;

/// One claim found in a text, before it is tied to an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractedClaim {
    /// Index of the sentence (in the text) that holds the claim.
    pub sentence_index: usize,
    pub subject: ClaimSubject,
    /// The exact quote: a byte span of the text.
    pub span: Span,
    pub target: ClaimTarget,
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
                scope: Default::default(),
                quantity: Default::default(),
                actor: Default::default(),
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
static TRIGGER: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
    Regex::new(
        "pass|green|clean|succe|build|built|compil|check|commit|push|creat|updat|add|wrote|writ|rewr|modif|edit|chang|fix|ran|run|execut|invok|exit|return|ok|lint|clippy|vet|fmt|format|ruff|mypy|test|spec|suite|✅|✔|☑|happy|satisf|silent|quiet|move|renam|refactor|implement|introduc|extend|adjust|tweak|touch|save|generat|replac|convert|migrat|extract|adapt|delet|remov|restructur|reorgani|simplif|document|amend|insert|append|populat|bump|pin|scaffold|stub|wire|rework|overhaul|correct|tighten|harden|expand|split|put|place|drop|through|complet|finish|no |new |zero|nothing|^[\\s*_]*`",
    )
    .expect("valid regex")
});

/// The longest sentence read for claims, in bytes.
const MAX_SENTENCE: usize = 1200;

/// Claims in a piece of agent prose, in text order.
pub fn extract_from_text(text: &str) -> Vec<ExtractedClaim> {
    let doc = Doc::new(text);
    let mut out = Vec::new();
    for (index, sentence) in sentences(text).into_iter().enumerate() {
        // Claims are short; a "sentence" of thousands of bytes is code or a log, not prose.
        if sentence.end - sentence.start > MAX_SENTENCE {
            continue;
        }
        // Cheap pre-check: a sentence with none of the claim words cannot hold a claim.
        if !TRIGGER.is_match(&doc.lower[sentence.start..sentence.end]) {
            continue;
        }
        if sentence
            .slice(text)
            .trim_end_matches(['*', '_', ')', '"'])
            .ends_with('?')
        {
            continue;
        }
        let mut previous: Option<ClauseContext> = None;
        let clauses = doc.clauses(sentence);
        for (i, &(clause, contrast)) in clauses.iter().enumerate() {
            let (claims, context) = doc.analyze(clause, previous.as_ref());
            let taken_back = contrast
                && clauses
                    .get(i + 1)
                    .is_some_and(|(next, _)| doc.taken_back(clause, *next));
            out.extend(
                claims
                    .into_iter()
                    .filter(|(subject, _, _)| {
                        !(taken_back
                            && matches!(
                                subject,
                                ClaimSubject::TestResult
                                    | ClaimSubject::BuildResult
                                    | ClaimSubject::LintResult
                                    | ClaimSubject::CommandSucceeded
                            ))
                    })
                    .map(|(subject, span, target)| ExtractedClaim {
                        sentence_index: index,
                        subject,
                        span,
                        target,
                    }),
            );
            previous = Some(context);
        }
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
        }
    }

    fn matches(&self, re: &Regex, span: Span) -> Vec<Span> {
        let Some(hay) = self.lower.get(span.start..span.end) else {
            return Vec::new();
        };
        re.find_iter(hay)
            .map(|m| Span::new(span.start + m.start(), span.start + m.end()))
            .collect()
    }

    fn shielded(&self, m: Span) -> bool {
        self.shields
            .iter()
            .any(|s| s.start <= m.start && m.end <= s.end)
    }

    /// A marker word that is not part of a shielding phrase.
    fn marker(&self, re: &Regex, span: Span) -> bool {
        self.matches(re, span)
            .into_iter()
            .any(|m| !self.shielded(m))
    }

    /// Positions where the clause says something succeeded.
    fn successes(&self, span: Span) -> Vec<Span> {
        let mut out: Vec<Span> = Vec::new();
        for m in self.matches(&PASS_WORD, span) {
            let rest = self.lower.get(m.end..span.end).unwrap_or("");
            if !PASS_NOT_FOLLOWED_BY.is_match(rest) {
                out.push(m);
            }
        }
        for re in [
            &*PASSING,
            &*GREEN,
            &*SUCCEED,
            &*EXIT_ZERO,
            &*COUNT_PASS,
            &*OK_PHRASE,
        ] {
            out.extend(self.matches(re, span));
        }
        out.extend(self.build_verbs(span));
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
                !bare || BUILD_VERB_FOLLOW.is_match(self.lower.get(m.end..span.end).unwrap_or(""))
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
        [
            &*FAILURE,
            &*NEGATION,
            &*HEDGE,
            &*FUTURE,
            &*HISTORY,
            &*FILE_VERB,
            &*RAN,
            &*COMMITTED,
            &*PUSHED,
        ]
        .iter()
        .any(|re| self.marker(re, span))
    }

    /// The clauses of a sentence, each with whether a contrast ("but", "while", "although")
    /// joins it to the next one.
    fn clauses(&self, sentence: Span) -> Vec<(Span, bool)> {
        static SEPARATOR: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
            Regex::new(r";\s+|\s+[—–-]\s+|\s+--\s+|:\s+|,\s+(?:and|but|while|whereas|although|though|so|plus|then|yet)\s+|\s+(?:and|but|then|yet|plus)\s+")
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
                && self.marker(&FILE_VERB, left)
                && self.code.iter().any(|c| {
                    matches!(c.cat, CodeCat::Path)
                        && c.span.start >= right.start
                        && self.text[right.start..c.span.start].trim().is_empty()
                });
            // A dash after a bare subject ("`src/a.rs` — new parser", "`cargo test` — 42
            // passed") labels it; after a clause it starts a new one.
            let sep = self.lower[m.start..m.end].trim();
            let dash = matches!(sep, "—" | "–" | "--" | "-");
            let split = if dash {
                self.has_predicate(left)
            } else {
                !coordinated_path && self.has_predicate(left) && self.has_predicate(right)
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
        let has = |re: &Regex| !self.matches(re, region).is_empty();
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

    /// Claims of one clause, and what it was about.
    fn analyze(
        &self,
        clause: Span,
        previous: Option<&ClauseContext>,
    ) -> (Vec<Found>, ClauseContext) {
        let mut context = ClauseContext::default();
        let mut found: Vec<Found> = Vec::new();
        // Text after a purpose marker ("to make sure ...", "so that ...") is not a report.
        let region = match self.matches(&PURPOSE, clause).first() {
            Some(m) => Span::new(clause.start, m.start).trim(self.text),
            None => clause,
        };
        if region.is_empty() {
            return (found, context);
        }
        let head = self.lower[region.start..region.end].trim_start();
        if IMPERATIVE_START.is_match(head) {
            return (found, context);
        }
        if [
            &*NEGATION, &*FAILURE, &*HEDGE, &*FUTURE, &*HISTORY, &*REPORTED,
        ]
        .iter()
        .any(|re| self.marker(re, region))
        {
            return (found, context);
        }
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
            // "`cargo test` passes", or "passes (`cargo test`)".
            let in_parens = self.depth.get(c.span.start).copied().unwrap_or(0)
                > self.depth.get(region.start).copied().unwrap_or(0);
            if !successes
                .iter()
                .any(|s| s.start >= c.span.end || in_parens && s.end <= c.span.start)
            {
                continue;
            }
            let target = ClaimTarget {
                command: Some(c.content.clone()),
                tool: class.tool.clone().map(|t| canonical_tool(&t)),
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
                CodeCat::Command(class) => class.tool.clone().map(|t| canonical_tool(&t)),
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
            for subject in &kinds {
                let tool = tool.clone().filter(|t| tool_fits(subject, t));
                found.push((
                    *subject,
                    region,
                    ClaimTarget {
                        tool,
                        ..ClaimTarget::default()
                    },
                ));
            }
            context.kinds = kinds;
            if context.kinds.is_empty() && (self.marker(&PRONOUN, region) || fragment) {
                // "I ran `cargo test` and it passed": the pronoun names the command.
                if let Some(p) = previous {
                    for &ci in &p.commands {
                        let c = &self.code[ci];
                        if let CodeCat::Command(class) = &c.cat {
                            let subject = match class.kind {
                                CommandKind::Test if !is_task_runner(class) => {
                                    ClaimSubject::TestResult
                                }
                                CommandKind::Build if !is_task_runner(class) => {
                                    ClaimSubject::BuildResult
                                }
                                CommandKind::Lint if !is_task_runner(class) => {
                                    ClaimSubject::LintResult
                                }
                                _ => ClaimSubject::CommandSucceeded,
                            };
                            found.push((
                                subject,
                                region,
                                ClaimTarget {
                                    command: Some(c.content.clone()),
                                    tool: class.tool.clone().map(|t| canonical_tool(&t)),
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
        }
        (found, context)
    }

    fn word_subjects(&self, region: Span, successes: &[Span]) -> Vec<ClaimSubject> {
        let mut kinds = Vec::new();
        let has = |re: &Regex| !self.matches(re, region).is_empty();
        let pass_like = successes.iter().any(|s| {
            let w = &self.lower[s.start..s.end];
            w.contains("pass") || w.contains("green")
        });
        let lint_words = has(&LINT_WORD);
        let names_test = self
            .codes_in(region)
            .iter()
            .any(|&ci| matches!(self.code[ci].cat, CodeCat::TestName));
        if has(&TEST_WORD)
            || has(&COUNT_PASS)
            || (has(&PACKAGE_WORD) && pass_like)
            || (names_test && pass_like)
        {
            kinds.push(ClaimSubject::TestResult);
        }
        let build_verb = !self.build_verbs(region).is_empty();
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
        // "All tests pass in the release build": a build named only as the place where tests
        // ran is not a build claim.
        if kinds.contains(&ClaimSubject::TestResult)
            && kinds.contains(&ClaimSubject::BuildResult)
            && !build_verb
        {
            static PLACE: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
                Regex::new(r"\b(?:in|on|for|with|against|using|during|of|after|before|from)\s+(?:the\s+|a\s+|an\s+|this\s+|our\s+|\w+\s+){0,2}$").expect("valid regex")
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

    fn tool_named(&self, region: Span) -> Option<String> {
        static TOOLS: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
            let words: Vec<String> = TOOL_NAMES.iter().map(|(w, _)| regex::escape(w)).collect();
            Regex::new(&format!(r"\b(?:{})\b", words.join("|"))).expect("valid regex")
        });
        let hay = &self.lower[region.start..region.end];
        let word = TOOLS.find(hay)?.as_str();
        TOOL_NAMES
            .iter()
            .find(|(w, _)| *w == word)
            .map(|(_, id)| id.to_string())
    }
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
    if TOOL_NAMES.iter().any(|(w, _)| *w == t.to_ascii_lowercase()) && !t.contains(' ') {
        return CodeCat::Tool;
    }
    // A lone path is a file even when it could be run (`tests/test_x.py`, `scripts/ci.sh`).
    if !t.contains(char::is_whitespace) && looks_like_file_path(t) {
        return CodeCat::Path;
    }
    if looks_like_command(t) {
        return CodeCat::Command(commands::classify_command(t));
    }
    static TEST_ID: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
        Regex::new(r"^(?:test_\w+|Test[A-Z0-9_]\w*|\w+_test|\w+(?:::\w+)*::tests?::\w+|[\w.]+\.(?:test|spec)\.[jt]sx?|\w+Test|\w+Spec)(?:\[[^\]]*\])?(?:\(\))?$").expect("valid regex")
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
    static QUOTED: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
        Regex::new(r#""[^"\n]{2,200}"|“[^”\n]{2,200}”"#).expect("valid regex")
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

/// Tool ids as claims name them: wrappers keep their script name.
fn canonical_tool(tool: &str) -> String {
    match tool {
        "ruff-format" => "ruff".into(),
        other => other.to_string(),
    }
}

/// Whether a tool named in a clause is about the claim's subject.
fn tool_fits(subject: &ClaimSubject, tool: &str) -> bool {
    let lint = [
        "clippy",
        "eslint",
        "ruff",
        "flake8",
        "pylint",
        "mypy",
        "pyright",
        "ktlint",
        "rubocop",
        "golangci-lint",
        "go-vet",
        "prettier",
        "biome",
        "stylelint",
        "shellcheck",
        "rustfmt",
        "gofmt",
        "phpstan",
        "detekt",
        "swiftlint",
    ];
    let test = [
        "pytest",
        "jest",
        "vitest",
        "mocha",
        "rspec",
        "phpunit",
        "nextest",
        "ctest",
        "playwright",
        "cypress",
        "go-test",
        "cargo-test",
    ];
    match subject {
        ClaimSubject::LintResult => lint.contains(&tool),
        ClaimSubject::TestResult => test.contains(&tool),
        ClaimSubject::BuildResult => tool == "tsc",
        _ => false,
    }
}

fn trim_punctuation(text: &str, span: Span) -> Span {
    let s = span.slice(text);
    let trimmed = s.trim_end_matches([',', ';', ':']).trim_end();
    Span::new(span.start, span.start + trimmed.len())
}

#[cfg(test)]
mod tests;
