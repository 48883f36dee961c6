//! Detections as byte ranges, merged and written out with placeholders.

use crate::{RedactionCounts, SecretKind};

/// One detected secret: the byte range `[start, end)` of the text to replace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub start: usize,
    pub end: usize,
    pub kind: SecretKind,
    /// Write the placeholder inside double quotes: the secret was a bare JSON scalar
    /// (`"pin": 1234`), and a bare placeholder there would make the JSON invalid.
    pub quote: bool,
}

/// A public PEM block: `[start, end)`, its body starting at `body` (after the header line).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Protected {
    pub start: usize,
    pub body: usize,
    pub end: usize,
}

/// What the detectors found in one text.
#[derive(Debug, Default)]
pub(crate) struct Findings {
    pub spans: Vec<Span>,
    /// Blocks that are known not to be secrets (certificates, public keys): the entropy
    /// detector skips them.
    pub protected: Vec<Protected>,
    /// The whole text is an identifier or an opaque blob by declaration (the value of a JSON
    /// key such as `documentId` or `signature`): only formats and names are looked for, not
    /// randomness.
    pub skip_entropy: bool,
}

impl Findings {
    pub fn push(&mut self, start: usize, end: usize, kind: SecretKind) {
        if start < end {
            self.spans.push(Span {
                start,
                end,
                kind,
                quote: false,
            });
        }
    }

    pub fn push_quoted(&mut self, start: usize, end: usize, kind: SecretKind) {
        if start < end {
            self.spans.push(Span {
                start,
                end,
                kind,
                quote: true,
            });
        }
    }

    pub fn protect(&mut self, start: usize, body: usize, end: usize) {
        if start < end {
            self.protected.push(Protected { start, body, end });
        }
    }
}

/// Sorts and merges overlapping spans into their union, keeping the highest-ranked kind, so
/// that no part of any detection is left in clear.
pub(crate) fn merge(spans: &mut Vec<Span>) {
    if spans.len() < 2 {
        return;
    }
    spans.sort_unstable_by_key(|s| (s.start, s.end));
    let mut out: Vec<Span> = Vec::with_capacity(spans.len());
    for span in spans.drain(..) {
        match out.last_mut() {
            Some(last) if span.start < last.end => {
                if span.end > last.end {
                    last.end = span.end;
                }
                if span.kind.rank() > last.kind.rank() {
                    last.kind = span.kind;
                }
                last.quote = false;
            }
            _ => out.push(span),
        }
    }
    *spans = out;
}

/// Writes `text` with every (merged, sorted, non-overlapping) span replaced.
pub(crate) fn apply(text: &str, spans: &[Span], counts: &mut RedactionCounts) -> String {
    let mut out = String::with_capacity(text.len() + spans.len() * 16);
    let mut at = 0;
    for span in spans {
        // Spans are built on ASCII delimiters; a range that is not on a char boundary would be
        // a detector bug, and widening it is the safe repair.
        let start = floor_boundary(text, span.start.max(at));
        let end = ceil_boundary(text, span.end);
        if start < at || end <= start {
            continue;
        }
        out.push_str(&text[at..start]);
        if span.quote {
            out.push('"');
            out.push_str(span.kind.placeholder());
            out.push('"');
        } else {
            out.push_str(span.kind.placeholder());
        }
        counts.add(span.kind);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while i < s.len() && !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn span(start: usize, end: usize, kind: SecretKind) -> Span {
        Span {
            start,
            end,
            kind,
            quote: false,
        }
    }

    #[test]
    fn overlapping_spans_merge_to_union_with_strongest_kind() {
        let mut spans = vec![
            span(10, 20, SecretKind::HighEntropy),
            span(0, 5, SecretKind::SecretAssignment),
            span(12, 30, SecretKind::GithubToken),
            span(30, 35, SecretKind::Jwt),
        ];
        merge(&mut spans);
        assert_eq!(
            spans,
            vec![
                span(0, 5, SecretKind::SecretAssignment),
                span(10, 30, SecretKind::GithubToken),
                span(30, 35, SecretKind::Jwt),
            ]
        );
    }

    #[test]
    fn apply_replaces_and_counts() {
        let mut counts = RedactionCounts::default();
        let text = "a=SECRET b=OTHER";
        let spans = [
            span(2, 8, SecretKind::SecretAssignment),
            span(11, 16, SecretKind::Jwt),
        ];
        assert_eq!(
            apply(text, &spans, &mut counts),
            "a=[REDACTED:secret_assignment] b=[REDACTED:jwt]"
        );
        assert_eq!(counts.total(), 2);
    }
}
