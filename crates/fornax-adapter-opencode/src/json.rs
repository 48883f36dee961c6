//! Total accessors over `serde_json::Value`: a missing field and a field of the wrong type read
//! the same (absent), so translation code never branches on malformed input.

use serde_json::Value;

/// The value at `path`, following object keys.
pub(crate) fn at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a Value> {
    let mut cur = v;
    for key in path {
        cur = cur.as_object()?.get(*key)?;
    }
    Some(cur)
}

/// A non-empty string at `path`.
pub(crate) fn str_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    at(v, path)
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
}

/// A string at `path`, empty allowed.
pub(crate) fn raw_str_at<'a>(v: &'a Value, path: &[&str]) -> Option<&'a str> {
    at(v, path).and_then(Value::as_str)
}

/// A whole number at `path` (integers, or floats without a fraction such as `3.0`).
pub(crate) fn i64_at(v: &Value, path: &[&str]) -> Option<i64> {
    let n = at(v, path)?;
    if let Some(i) = n.as_i64() {
        return Some(i);
    }
    let f = n.as_f64()?;
    (f.fract() == 0.0 && f.abs() < 9.0e15).then_some(f as i64)
}

/// A non-negative whole number at `path`.
pub(crate) fn u64_at(v: &Value, path: &[&str]) -> Option<u64> {
    i64_at(v, path).and_then(|i| u64::try_from(i).ok())
}

pub(crate) fn bool_at(v: &Value, path: &[&str]) -> Option<bool> {
    at(v, path).and_then(Value::as_bool)
}

/// The name of a value's JSON type, used as the discriminator of shapes that carry no tag.
pub(crate) fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// Keeps at most `limit` bytes of a discriminator taken from the payload, on a char boundary.
pub(crate) fn short(s: &str, limit: usize) -> String {
    if s.len() <= limit {
        return s.to_string();
    }
    let mut end = limit;
    while end > 0 && !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn wrong_types_read_as_absent() {
        let v = json!({"a": {"b": "x", "n": 3.0, "f": 1.5, "neg": -2}, "s": ""});
        assert_eq!(str_at(&v, &["a", "b"]), Some("x"));
        assert_eq!(str_at(&v, &["s"]), None);
        assert_eq!(raw_str_at(&v, &["s"]), Some(""));
        assert_eq!(i64_at(&v, &["a", "n"]), Some(3));
        assert_eq!(i64_at(&v, &["a", "f"]), None);
        assert_eq!(u64_at(&v, &["a", "neg"]), None);
        assert_eq!(str_at(&v, &["a", "b", "c"]), None);
        assert_eq!(str_at(&json!([1]), &["a"]), None);
    }

    #[test]
    fn short_respects_char_boundaries() {
        assert_eq!(short("ééé", 3), "é");
        assert_eq!(short("abc", 10), "abc");
    }
}
