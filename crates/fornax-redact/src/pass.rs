//! One redaction pass over some text or JSON: counts what it replaces and, when asked,
//! remembers the secrets it found so that copies of them elsewhere in the same message can be
//! replaced too (see [`crate::message`]).

use crate::clean::CleanTexts;
use crate::span::{self, Findings, Span};
use crate::{RedactionCounts, Redactor, SecretKind};

/// How many times one text is scanned at most. A replacement can take away the context that
/// made a detector leave a neighbour alone (a URL's scheme, which marks the path after it as
/// an id, swallowed by an unterminated key block): the result is scanned again until nothing
/// more is found, so that redacting redacted text changes nothing.
pub(crate) const MAX_ROUNDS: usize = 4;

/// A secret found by a pass, kept only in memory for the rest of the same message.
pub(crate) struct Found {
    pub text: String,
    pub kind: SecretKind,
}

pub(crate) struct Pass<'a> {
    pub redactor: &'a Redactor,
    pub counts: &'a mut RedactionCounts,
    /// Where found secrets are remembered, when the caller needs them.
    pub found: Option<&'a mut Vec<Found>>,
    /// Texts known clean: skipped, and each text found clean is added.
    pub clean: Option<&'a mut CleanTexts>,
}

impl Pass<'_> {
    /// Redacts `text` in place.
    pub fn text(&mut self, text: &mut String) {
        if self.clean.as_deref().is_some_and(|c| c.contains(text)) {
            return;
        }
        let spans = self.redactor.spans(text);
        if spans.is_empty() {
            if let Some(clean) = self.clean.as_deref_mut() {
                clean.insert(text);
            }
            return;
        }
        self.apply(text, &spans);
        self.settle(text, false);
    }

    /// Redacts `text`, an identifier or opaque blob by declaration, in place: formats and
    /// names are looked for, randomness is not judged.
    pub fn identifier(&mut self, text: &mut String) {
        let spans = self.redactor.spans_with(text, fresh_findings(true));
        if !spans.is_empty() {
            self.apply(text, &spans);
            self.settle(text, true);
        }
    }

    /// Replaces `spans` (merged, sorted) in `text`, remembering the secrets, then scans the
    /// result again (see [`MAX_ROUNDS`]).
    pub fn replace(&mut self, text: &mut String, spans: &[Span]) {
        self.apply(text, spans);
        self.settle(text, false);
    }

    /// Scans a text that was just redacted again, and redacts what the replacement exposed.
    fn settle(&mut self, text: &mut String, skip_entropy: bool) {
        for _ in 1..MAX_ROUNDS {
            let spans = self.redactor.spans_with(text, fresh_findings(skip_entropy));
            if spans.is_empty() {
                return;
            }
            self.apply(text, &spans);
        }
    }

    fn apply(&mut self, text: &mut String, spans: &[Span]) {
        if let Some(found) = self.found.as_deref_mut() {
            for s in spans {
                if let Some(secret) = text.get(s.start..s.end) {
                    remember(found, secret, s.kind);
                }
            }
        }
        *text = span::apply(text, spans, self.counts);
    }

    /// Replaces the whole of `text` with one placeholder.
    pub fn replace_whole(&mut self, text: &mut String, kind: SecretKind) {
        if let Some(found) = self.found.as_deref_mut() {
            remember(found, text, kind);
        }
        self.counts.add(kind);
        *text = kind.placeholder().to_string();
    }
}

fn fresh_findings(skip_entropy: bool) -> Findings {
    Findings {
        skip_entropy,
        ..Default::default()
    }
}

fn remember(found: &mut Vec<Found>, secret: &str, kind: SecretKind) {
    let mut add = |text: &str| {
        let text = text.trim();
        if !text.is_empty() && !found.iter().any(|f| f.text == text) {
            found.push(Found {
                text: text.to_string(),
                kind,
            });
        }
    };
    add(secret);
    // A multi-line secret (a key block) is also split into lines by whatever copied it
    // elsewhere (a shell command parsed into words and lines).
    if secret.contains('\n') {
        secret
            .lines()
            .filter(|line| line.trim().len() >= 16)
            .for_each(add);
    }
}
