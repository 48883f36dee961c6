//! Redacting a whole message through the model's own list of text fields.
//!
//! Fields of one message are often copies or pieces of one another: a shell call's `argv`
//! and `env` are its `command` split into words, and a word alone (`-phunter2`, `hunter2`
//! after `--password`) has lost the context that made it recognizable. So a message is
//! redacted in two passes: the first redacts every field on its own and remembers what it
//! found; the second replaces what was found wherever else it appears in the message.

use fornax_types::text::{visit_message_text, TextVisitor};
use fornax_types::IngestMessage;
use serde_json::Value;

use crate::kind::PLACEHOLDER_PREFIX;
use crate::pass::{Found, Pass};
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

pub(crate) fn redact(redactor: &Redactor, msg: &mut IngestMessage, counts: &mut RedactionCounts) {
    let mut found = Vec::new();
    let mut detect = Detect {
        pass: Pass {
            redactor,
            counts,
            found: Some(&mut found),
        },
    };
    visit_message_text(msg, &mut detect);
    visit_unlisted_text(msg, &mut detect);
    found.retain(|f| is_scrubbable(&f.text));
    if !found.is_empty() {
        let mut scrub = Scrub { found: &found };
        visit_message_text(msg, &mut scrub);
        visit_unlisted_text(msg, &mut scrub);
    }
}

/// Free text that [`visit_message_text`] does not list: capability `notes` are free-form
/// metadata (reserved keys hold a session id and a version, but any note may be written).
fn visit_unlisted_text(msg: &mut IngestMessage, visitor: &mut dyn TextVisitor) {
    if let IngestMessage::Capabilities(c) = msg {
        for note in c.notes.values_mut() {
            visitor.text(note);
        }
    }
}

/// Secrets too short or too common to replace by text alone are left to the detectors: a
/// two-letter password would otherwise erase every word that contains it.
fn is_scrubbable(secret: &str) -> bool {
    secret.len() >= 4
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
