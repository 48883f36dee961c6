//! JSON documents held as strings inside a record.

use serde_json::Value;

use crate::{CleanTexts, RedactionCounts, Redactor};

/// Redacts JSON documents held as strings inside a record (a tool call's arguments): inside
/// them quotes and newlines are escapes, which hide what detectors read in the decoded text
/// (an adapter decodes them before its messages are redacted, and the copy must be as clean).
/// A string is rewritten only when something in it was redacted.
pub(crate) fn redact_nested_documents(
    redactor: &Redactor,
    value: &mut Value,
    depth: usize,
    clean: &mut CleanTexts,
) -> bool {
    const MAX_DEPTH: usize = 4;
    match value {
        Value::String(s) if depth < MAX_DEPTH && (s.starts_with('{') || s.starts_with('[')) => {
            let Ok(mut inner) = serde_json::from_str::<Value>(s) else {
                return false;
            };
            if !(inner.is_object() || inner.is_array()) {
                return false;
            }
            let deeper = redact_nested_documents(redactor, &mut inner, depth + 1, clean);
            let mut counts = RedactionCounts::default();
            redactor.redact_json_with(&mut inner, &mut counts, Some(clean));
            let changed = deeper || !counts.is_empty();
            if changed {
                *s = inner.to_string();
            }
            changed
        }
        Value::Array(items) => items.iter_mut().fold(false, |changed, v| {
            redact_nested_documents(redactor, v, depth, clean) | changed
        }),
        Value::Object(map) => map.values_mut().fold(false, |changed, v| {
            redact_nested_documents(redactor, v, depth, clean) | changed
        }),
        _ => false,
    }
}
