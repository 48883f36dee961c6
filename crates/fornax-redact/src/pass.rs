//! One redaction pass over some text or JSON: counts what it replaces and, when asked,
//! remembers the secrets it found so that copies of them elsewhere in the same message can be
//! replaced too (see [`crate::message`]).

use crate::span::{self, Span};
use crate::{RedactionCounts, Redactor, SecretKind};

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
}

impl Pass<'_> {
    /// Redacts `text` in place.
    pub fn text(&mut self, text: &mut String) {
        let spans = self.redactor.spans(text);
        if !spans.is_empty() {
            self.replace(text, &spans);
        }
    }

    /// Redacts `text`, an identifier or opaque blob by declaration, in place: formats and
    /// names are looked for, randomness is not judged.
    pub fn identifier(&mut self, text: &mut String) {
        let found = span::Findings {
            skip_entropy: true,
            ..Default::default()
        };
        let spans = self.redactor.spans_with(text, found);
        if !spans.is_empty() {
            self.replace(text, &spans);
        }
    }

    /// Replaces `spans` (merged, sorted) in `text`, remembering the secrets.
    pub fn replace(&mut self, text: &mut String, spans: &[Span]) {
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
