//! Redacting a whole value (a message, evidence, a claim) through the model's own list of
//! text fields.
//!
//! Fields of one message are often copies or pieces of one another, and a piece alone can
//! lose the context that made its secret recognizable: a shell call's `argv` is its
//! `command` split into words (`-phunter2` without `mysql`, `hunter2` without `--password`).
//! So a message is redacted in three steps:
//!
//! 1. each invocation's words are joined back into one line and redacted with their context,
//!    the result mapped back onto the words;
//! 2. every text field is redacted on its own, and what was found is remembered;
//! 3. what was found is replaced wherever else it appears in the message (when it is
//!    distinctive enough that a plain word elsewhere cannot be mistaken for it).

use fornax_types::text::TextVisitor;
use fornax_types::Invocation;
use serde_json::Value;

use crate::clean::CleanTexts;
use crate::kind::PLACEHOLDER_PREFIX;
use crate::pass::{Found, Pass};
use crate::redacted::Redactable;
use crate::span::Span;
use crate::{RedactionCounts, Redactor, SecretKind};

/// Redacts each field on its own (the first pass).
struct Detect<'a> {
    pass: Pass<'a>,
}

impl TextVisitor for Detect<'_> {
    fn text(&mut self, text: &mut String) {
        self.pass.text(text);
    }

    fn json(&mut self, value: &mut Value) {
        crate::json::redact_value(&mut self.pass, value, 0);
    }
}

/// Replaces copies of already-found secrets (the second pass).
struct Scrub<'a> {
    found: &'a [Found],
}

impl TextVisitor for Scrub<'_> {
    fn text(&mut self, text: &mut String) {
        scrub(text, self.found);
    }

    fn json(&mut self, value: &mut Value) {
        let mut stack = vec![value];
        while let Some(v) = stack.pop() {
            match v {
                Value::String(s) => {
                    scrub(s, self.found);
                }
                Value::Array(items) => stack.extend(items.iter_mut()),
                Value::Object(map) => {
                    crate::json::rename_keys(map, |key| {
                        let mut key = key.to_string();
                        scrub(&mut key, self.found).then_some(key)
                    });
                    stack.extend(map.values_mut());
                }
                Value::Null | Value::Bool(_) | Value::Number(_) => {}
            }
        }
    }
}

/// Redacts every text-bearing field of `value` (see [`Redactable`]).
pub(crate) fn redact<T: Redactable + ?Sized>(
    redactor: &Redactor,
    value: &mut T,
    counts: &mut RedactionCounts,
    clean: Option<&mut CleanTexts>,
) {
    let mut found = Vec::new();
    let mut detect = Detect {
        pass: Pass {
            redactor,
            counts,
            found: Some(&mut found),
            clean,
        },
    };
    for invocation in value.invocations() {
        redact_words(&mut detect.pass, invocation);
    }
    value.visit_text(&mut detect);
    found.retain(|f| is_scrubbable(&f.text));
    if !found.is_empty() {
        let mut scrub = Scrub { found: &found };
        value.visit_text(&mut scrub);
    }
}

/// Redacts an invocation's program and arguments as the command line they came from, so
/// that a flag and its value (`-p` `hunter2`, `--password` `hunter2`) are judged together.
/// Words with blanks are quoted in the line, as the shell had them.
fn redact_words(pass: &mut Pass<'_>, invocation: &mut Invocation) {
    let mut words: Vec<&mut String> = std::iter::once(&mut invocation.program)
        .chain(invocation.argv.iter_mut())
        .collect();
    let mut line = String::new();
    let mut ranges = Vec::with_capacity(words.len());
    for word in &words {
        if !line.is_empty() {
            line.push(' ');
        }
        let quote = (word.is_empty() || word.contains(char::is_whitespace)).then(|| {
            if word.contains('\'') {
                '"'
            } else {
                '\''
            }
        });
        line.extend(quote);
        let start = line.len();
        line.push_str(word);
        ranges.push((start, line.len()));
        line.extend(quote);
    }
    let spans = pass.redactor.spans(&line);
    if spans.is_empty() {
        return;
    }
    for (word, &(start, end)) in words.iter_mut().zip(&ranges) {
        let local: Vec<Span> = spans
            .iter()
            .filter_map(|s| {
                let (a, b) = (s.start.max(start), s.end.min(end));
                (a < b).then(|| Span {
                    start: a - start,
                    end: b - start,
                    kind: s.kind,
                    quote: false,
                })
            })
            .collect();
        if !local.is_empty() {
            pass.replace(word, &local);
        }
    }
}

/// Whether a found secret is distinctive enough to be replaced by its text alone: a plain
/// short word (`test`, `root`) may well appear elsewhere in the message as itself.
fn is_scrubbable(secret: &str) -> bool {
    let distinctive = secret.len() >= 8
        || (secret.len() >= 4 && secret.bytes().any(|b| !b.is_ascii_alphabetic()));
    distinctive
        && !secret.starts_with(PLACEHOLDER_PREFIX)
        && !SecretKind::ALL
            .iter()
            .any(|k| k.placeholder().contains(secret))
}

fn contains_any(text: &str, found: &[Found]) -> bool {
    found.iter().any(|f| text.contains(f.text.as_str()))
}

/// Replaces each occurrence of a found secret that stands as a word of its own (or glued to
/// a one-letter flag, `-psecret`); long secrets are replaced wherever they occur.
fn scrub(text: &mut String, found: &[Found]) -> bool {
    if !contains_any(text, found) {
        return false;
    }
    let mut any = false;
    for f in found {
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        let mut changed = false;
        let mut search = 0;
        while let Some(pos) = text[search..].find(f.text.as_str()).map(|p| p + search) {
            let end = pos + f.text.len();
            if stands_alone(text, pos, end, f.text.len() >= 12) {
                out.push_str(&text[at..pos]);
                out.push_str(f.kind.placeholder());
                at = end;
                changed = true;
                search = end;
            } else {
                search = pos + text[pos..].chars().next().map_or(1, char::len_utf8);
            }
        }
        if changed {
            out.push_str(&text[at..]);
            *text = out;
            any = true;
        }
    }
    any
}

fn stands_alone(text: &str, start: usize, end: usize, long: bool) -> bool {
    if long {
        return true;
    }
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let left_ok = start == 0
        || !word(bytes[start - 1])
        || (start == 2 && bytes[0] == b'-' && bytes[1].is_ascii_alphabetic());
    let right_ok = end == bytes.len() || !word(bytes[end]);
    left_ok && right_ok
}
