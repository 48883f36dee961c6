//! Total accessors over native JSON: a field of the wrong type reads as absent, never as a
//! panic or a default that looks observed.

use serde_json::Value;

/// Longest type tag reported for an unrecognized shape: it is a tag, never data.
pub const DISCRIMINATOR_LIMIT: usize = 64;

/// A string field, whatever its content.
pub fn str_at<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key)?.as_str()
}

/// A string field that holds something other than whitespace.
pub fn text_at<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    str_at(v, key).filter(|s| !s.trim().is_empty())
}

pub fn u64_at(v: &Value, key: &str) -> Option<u64> {
    v.get(key)?.as_u64()
}

pub fn i64_at(v: &Value, key: &str) -> Option<i64> {
    v.get(key)?.as_i64()
}

pub fn bool_at(v: &Value, key: &str) -> Option<bool> {
    v.get(key)?.as_bool()
}

/// A shape's type tag fit to report: at most [`DISCRIMINATOR_LIMIT`] bytes (cut on a
/// character boundary), and `<empty type>` for an empty one.
pub fn discriminator(tag: &str) -> String {
    if tag.is_empty() {
        return "<empty type>".to_string();
    }
    let mut end = tag.len().min(DISCRIMINATOR_LIMIT);
    while !tag.is_char_boundary(end) {
        end -= 1;
    }
    tag[..end].to_string()
}

/// What a JSON value is, for the discriminator of a record that is not an object.
pub fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "<json null>",
        Value::Bool(_) => "<json bool>",
        Value::Number(_) => "<json number>",
        Value::String(_) => "<json string>",
        Value::Array(_) => "<json array>",
        Value::Object(_) => "<json object>",
    }
}

/// `value` with object keys sorted at every level, so that two writers of the same JSON
/// (one as an object, one as a JSON-encoded string) compare and fingerprint equal.
pub fn canonical(value: &Value) -> Value {
    match value {
        Value::Object(obj) => {
            let mut keys: Vec<&String> = obj.keys().collect();
            keys.sort();
            Value::Object(
                keys.into_iter()
                    .map(|k| (k.clone(), canonical(&obj[k.as_str()])))
                    .collect(),
            )
        }
        Value::Array(items) => Value::Array(items.iter().map(canonical).collect()),
        other => other.clone(),
    }
}

/// A stable 64-bit FNV-1a fingerprint of `bytes` (for keys, not for security).
pub fn fingerprint64(bytes: &[u8]) -> u64 {
    const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
    const PRIME: u64 = 0x0000_0100_0000_01b3;
    bytes
        .iter()
        .fold(OFFSET, |hash, b| (hash ^ u64::from(*b)).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn accessors_are_total() {
        let v = json!({"s": "x", "blank": "  ", "n": 3, "b": true, "neg": -2});
        assert_eq!(str_at(&v, "s"), Some("x"));
        assert_eq!(text_at(&v, "blank"), None);
        assert_eq!(str_at(&v, "n"), None);
        assert_eq!(u64_at(&v, "n"), Some(3));
        assert_eq!(i64_at(&v, "neg"), Some(-2));
        assert_eq!(bool_at(&v, "b"), Some(true));
        assert_eq!(str_at(&json!(null), "s"), None);
    }

    #[test]
    fn discriminators_are_short_tags() {
        assert_eq!(discriminator(""), "<empty type>");
        assert!(discriminator(&"é".repeat(100)).len() <= DISCRIMINATOR_LIMIT);
        assert_eq!(kind_of(&json!([1])), "<json array>");
    }

    #[test]
    fn canonical_json_ignores_key_order() {
        let a: Value = serde_json::from_str(r#"{"b":1,"a":{"d":2,"c":[{"y":1,"x":2}]}}"#).unwrap();
        let b = json!({"a": {"c": [{"x": 2, "y": 1}], "d": 2}, "b": 1});
        assert_eq!(canonical(&a).to_string(), canonical(&b).to_string());
        assert_ne!(fingerprint64(b"a"), fingerprint64(b"b"));
    }
}
