//! Key-aware redaction of JSON documents (tool arguments, evidence payloads, extension
//! fields).

use serde_json::{Map, Value};

use crate::bytes::{contains_placeholder, is_reference};
use crate::detect::{authorization_value, is_placeholder_word};
use crate::kind::PLACEHOLDER_PREFIX;
use crate::names::{classify, declares_identifier, NameClass};
use crate::pass::Pass;
use crate::span::Findings;
use crate::SecretKind;

/// Nesting deeper than this is not walked by recursion; deeper strings are still scanned,
/// iteratively (see [`redact_deep`]).
const MAX_RECURSION: usize = 64;

pub(crate) fn redact_value(pass: &mut Pass<'_>, value: &mut Value, depth: usize) {
    if depth >= MAX_RECURSION {
        redact_deep(pass, value);
        return;
    }
    match value {
        Value::String(s) => pass.text(s),
        Value::Array(items) => {
            for item in items {
                redact_value(pass, item, depth + 1);
            }
        }
        Value::Object(map) => redact_object(pass, map, depth),
        Value::Null | Value::Bool(_) | Value::Number(_) => {}
    }
}

/// Scans every string below `value` with an explicit stack (keys are not read), so that a
/// pathologically deep document cannot exhaust the call stack.
fn redact_deep(pass: &mut Pass<'_>, value: &mut Value) {
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            Value::String(s) => pass.text(s),
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => stack.extend(map.values_mut()),
            Value::Null | Value::Bool(_) | Value::Number(_) => {}
        }
    }
}

fn redact_object(pass: &mut Pass<'_>, map: &mut Map<String, Value>, depth: usize) {
    // `{"name": "DB_PASSWORD", "value": "..."}` (container env lists, key/value settings).
    let pair_class = ["name", "key", "Name", "Key"]
        .iter()
        .find_map(|k| map.get(*k).and_then(Value::as_str))
        .and_then(classify);
    for (key, value) in map.iter_mut() {
        // A key that is already a placeholder names nothing (it was a secret itself).
        let class = if key.contains(PLACEHOLDER_PREFIX) {
            None
        } else if key == "value" || key == "Value" {
            classify(key).or(pair_class)
        } else {
            classify(key)
        }
        // A JSON field named `signature` holds a signature of a message, not a credential.
        .filter(|c| *c != NameClass::Signature);
        match (class, value) {
            (Some(class), Value::String(s)) => redact_whole(pass, s, class),
            // `"pin": 482913`: a number can be a secret too; it becomes a string placeholder.
            (Some(NameClass::Secret), value @ Value::Number(_)) => {
                let mut digits = value.to_string();
                if digits.len() >= 4 {
                    pass.replace_whole(&mut digits, SecretKind::SecretAssignment);
                    *value = Value::String(digits);
                }
            }
            (None, Value::String(s)) if declares_identifier(key.as_bytes()) => {
                pass.identifier(s);
            }
            (_, value) => redact_value(pass, value, depth + 1),
        }
    }
    redact_keys(pass, map);
}

/// Replaces the whole string value of a secret-named key. When the detectors recognize the
/// whole value as one secret, its kind is kept (`"token": "ghp_..."` is a `github_token`);
/// an authorization value keeps its scheme (`"Bearer [REDACTED:authorization]"`).
fn redact_whole(pass: &mut Pass<'_>, s: &mut String, class: NameClass) {
    let trimmed = s.trim();
    if trimmed.is_empty()
        || is_reference(trimmed.as_bytes(), 0)
        || contains_placeholder(trimmed.as_bytes())
        || is_placeholder_word(&trimmed.to_ascii_lowercase().into_bytes())
    {
        pass.text(s);
        return;
    }
    if class == NameClass::Authorization {
        let mut found = Findings::default();
        authorization_value(s.as_bytes(), 0, None, &mut found);
        let spans = pass.redactor.spans_with(s, found);
        if !spans.is_empty() {
            pass.replace(s, &spans);
        }
        return;
    }
    let spans = pass.redactor.spans(s);
    let kind = match spans.as_slice() {
        [only] if only.start == 0 && only.end == s.len() => only.kind,
        _ if class == NameClass::AwsSecret => SecretKind::AwsSecretKey,
        _ => SecretKind::SecretAssignment,
    };
    pass.replace_whole(s, kind);
}

/// Redacts object keys that hold secrets (`{"ghp_...": true}`).
fn redact_keys(pass: &mut Pass<'_>, map: &mut Map<String, Value>) {
    rename_keys(map, |k| {
        let spans = pass.redactor.spans(k);
        (!spans.is_empty()).then(|| {
            let mut key = k.to_string();
            pass.replace(&mut key, &spans);
            key
        })
    });
}

/// Renames the keys for which `rename` returns a new name, keeping order; a key that collides
/// with an existing one after renaming gets a numeric suffix so that no entry is lost.
pub(crate) fn rename_keys(
    map: &mut Map<String, Value>,
    mut rename: impl FnMut(&str) -> Option<String>,
) {
    let renamed: Vec<Option<String>> = map.keys().map(|k| rename(k)).collect();
    if renamed.iter().all(Option::is_none) {
        return;
    }
    let old = std::mem::take(map);
    for ((key, value), new_key) in old.into_iter().zip(renamed) {
        let mut key = new_key.unwrap_or(key);
        if map.contains_key(&key) {
            let base = key.clone();
            let mut n = 2;
            while map.contains_key(&key) {
                key = format!("{base} ({n})");
                n += 1;
            }
        }
        map.insert(key, value);
    }
}
