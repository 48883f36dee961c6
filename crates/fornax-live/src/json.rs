//! JSON as agents really write it.
//!
//! Two defects are common enough to handle at the byte level:
//!
//! * **Lone surrogate escapes.** JavaScript strings are UTF-16, and a string cut in the middle
//!   of an emoji serializes with half a surrogate pair (`"\ud83d"`). `serde_json` rightly refuses
//!   it; [`parse`] then parses a repaired copy in which each lone surrogate escape reads
//!   `\ufffd` (U+FFFD REPLACEMENT CHARACTER) and says how many it replaced. The caller keeps the
//!   original bytes (fingerprints and byte ranges stay those of the native record).
//! * **Raw line breaks.** In valid JSON a raw CR or LF byte can only be whitespace between
//!   tokens (inside a string it must be escaped), so [`flatten_line_breaks`] replaces them with
//!   spaces without parsing and the value is unchanged; a pretty-printed payload then fits on
//!   one line of a line-framed file.

use serde_json::Value;

/// A value parsed by [`parse`], with the number of lone surrogate escapes replaced.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    pub value: Value,
    pub repaired: u32,
}

/// Parses one JSON text, repairing lone surrogate escapes when that is the only obstacle.
pub fn parse(bytes: &[u8]) -> Result<Parsed, serde_json::Error> {
    match serde_json::from_slice::<Value>(bytes) {
        Ok(value) => Ok(Parsed { value, repaired: 0 }),
        Err(first) => {
            let Some((fixed, repaired)) = repair_surrogates(bytes) else {
                return Err(first);
            };
            match serde_json::from_slice::<Value>(&fixed) {
                Ok(value) => Ok(Parsed { value, repaired }),
                Err(_) => Err(first),
            }
        }
    }
}

const REPLACEMENT: &[u8; 6] = b"\\ufffd";

fn hex4(bytes: &[u8]) -> Option<u16> {
    let digits = bytes.get(..4)?;
    let mut v: u16 = 0;
    for &d in digits {
        let n = (d as char).to_digit(16)? as u16;
        v = (v << 4) | n;
    }
    Some(v)
}

fn is_high(u: u16) -> bool {
    (0xD800..=0xDBFF).contains(&u)
}

fn is_low(u: u16) -> bool {
    (0xDC00..=0xDFFF).contains(&u)
}

/// A copy of `bytes` in which every `\uXXXX` escape inside a string that is a lone surrogate
/// (a high one not followed by a low one, or a low one alone) reads `\ufffd`. `None` when
/// there is none to replace. Each replacement has the length of the escape it replaces.
pub fn repair_surrogates(bytes: &[u8]) -> Option<(Vec<u8>, u32)> {
    let mut out: Vec<u8> = Vec::new();
    let mut copied = 0usize;
    let mut repaired = 0u32;
    let mut in_string = false;
    let mut i = 0usize;
    while i < bytes.len() {
        let b = bytes[i];
        if !in_string {
            if b == b'"' {
                in_string = true;
            }
            i += 1;
            continue;
        }
        match b {
            b'"' => {
                in_string = false;
                i += 1;
            }
            b'\\' => {
                if bytes.get(i + 1) != Some(&b'u') {
                    i += 2;
                    continue;
                }
                let Some(unit) = hex4(&bytes[i + 2..]) else {
                    i += 2;
                    continue;
                };
                let paired = is_high(unit)
                    && bytes.get(i + 6) == Some(&b'\\')
                    && bytes.get(i + 7) == Some(&b'u')
                    && hex4(&bytes[(i + 8).min(bytes.len())..]).is_some_and(is_low);
                if paired {
                    i += 12;
                } else if is_high(unit) || is_low(unit) {
                    out.extend_from_slice(&bytes[copied..i]);
                    out.extend_from_slice(REPLACEMENT);
                    i += 6;
                    copied = i;
                    repaired += 1;
                } else {
                    i += 6;
                }
            }
            _ => i += 1,
        }
    }
    if repaired == 0 {
        return None;
    }
    out.extend_from_slice(&bytes[copied.min(bytes.len())..]);
    Some((out, repaired))
}

/// Replaces every raw CR and LF byte with a space. For valid JSON the value is unchanged (a raw
/// line break can only be whitespace between tokens); the text then fits on one line.
pub fn flatten_line_breaks(bytes: &mut [u8]) {
    for b in bytes.iter_mut() {
        if *b == b'\n' || *b == b'\r' {
            *b = b' ';
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn lone_surrogates_become_replacement_characters() {
        let p = parse(br#"{"a":"cut \ud83d","b":"\udc00 x","ok":"\ud83d\ude00"}"#).unwrap();
        assert_eq!(p.repaired, 2);
        assert_eq!(p.value["a"], "cut \u{FFFD}");
        assert_eq!(p.value["b"], "\u{FFFD} x");
        assert_eq!(p.value["ok"], "\u{1F600}");
        // A high surrogate followed by another high one: only the first is lone.
        let p = parse(br#"["\uD83D\uD83D\uDE00"]"#).unwrap();
        assert_eq!(
            (p.repaired, p.value[0].as_str().unwrap()),
            (1, "\u{FFFD}\u{1F600}")
        );
    }

    #[test]
    fn escaped_backslashes_and_keys_are_left_alone() {
        // `\\ud83d` is a backslash and the letters `ud83d`, not an escape.
        let p = parse(br#"{"k":"\\ud83d"}"#).unwrap();
        assert_eq!((p.repaired, p.value["k"].as_str().unwrap()), (0, "\\ud83d"));
        let p = parse(br#"{"\ud800":1}"#).unwrap();
        assert_eq!(p.repaired, 1);
        assert_eq!(p.value["\u{FFFD}"], 1);
    }

    #[test]
    fn other_errors_stay_errors() {
        assert!(parse(br#"{"a":"\ud83d""#).is_err());
        assert!(parse(b"not json").is_err());
        assert!(parse(br#"{"a":"\ud83d"} trailing"#).is_err());
    }

    #[test]
    fn flattening_keeps_the_value() {
        let pretty = serde_json::to_string_pretty(&serde_json::json!({"a": [1, {"b": "x\ny"}]}))
            .unwrap()
            .replace('\n', "\r\n");
        let mut bytes = pretty.clone().into_bytes();
        flatten_line_breaks(&mut bytes);
        assert!(!bytes.contains(&b'\n') && !bytes.contains(&b'\r'));
        let a: Value = serde_json::from_str(&pretty).unwrap();
        let b: Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(a, b);
    }

    proptest! {
        /// Any JSON value, pretty-printed, flattens to one line with the same value.
        #[test]
        fn flattening_any_pretty_value(s in "\\PC*", n in any::<i64>(), keys in proptest::collection::vec("[a-z\n\r\"\\\\]{0,6}", 0..4)) {
            let mut obj = serde_json::Map::new();
            for k in &keys {
                obj.insert(k.clone(), Value::String(s.clone()));
            }
            obj.insert("n".into(), n.into());
            let v = Value::Object(obj);
            let mut bytes = serde_json::to_vec_pretty(&v).unwrap();
            flatten_line_breaks(&mut bytes);
            prop_assert!(!bytes.contains(&b'\n'));
            prop_assert_eq!(serde_json::from_slice::<Value>(&bytes).unwrap(), v);
        }

        /// Repair never panics and replaces escapes with escapes of the same length.
        #[test]
        fn repair_is_total(bytes in proptest::collection::vec(any::<u8>(), 0..64)) {
            if let Some((fixed, n)) = repair_surrogates(&bytes) {
                prop_assert!(n > 0);
                prop_assert_eq!(fixed.len(), bytes.len());
            }
            let _ = parse(&bytes);
        }
    }
}
