//! Finding where a value starts and ends: quoted (also JSON-escaped, `\"x\"`), a bare token, or
//! the rest of a line.

use crate::bytes::{is_blank, is_quote, starts_with_at};

/// How far a value may reach from where it starts. Secrets are short; a bound keeps every
/// detector linear on huge single-line inputs.
pub(crate) const MAX_VALUE: usize = 4096;

/// A quote as written in the text: the quote character and how many backslashes escape it
/// (0 for `"`, 1 for `\"` inside a JSON string, 3 for `\\\"` one level deeper).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct QuoteSeq {
    pub quote: u8,
    pub backslashes: usize,
}

impl QuoteSeq {
    pub fn len(self) -> usize {
        self.backslashes + 1
    }

    /// Whether the sequence starts at `i`.
    pub fn at(self, bytes: &[u8], i: usize) -> bool {
        let end = i + self.backslashes;
        end < bytes.len() && bytes[end] == self.quote && bytes[i..end].iter().all(|&b| b == b'\\')
    }
}

/// The quote sequence that opens at `i`, if any.
pub(crate) fn opening_quote(bytes: &[u8], i: usize) -> Option<QuoteSeq> {
    let mut j = i;
    while j < bytes.len() && bytes[j] == b'\\' && j - i < 8 {
        j += 1;
    }
    let quote = *bytes.get(j)?;
    is_quote(quote).then_some(QuoteSeq {
        quote,
        backslashes: j - i,
    })
}

/// The quote sequence that ends right before `i` (the one opening a name at `i`), if any,
/// with the position where it starts.
pub(crate) fn quote_before(bytes: &[u8], i: usize) -> Option<(QuoteSeq, usize)> {
    let q = i.checked_sub(1)?;
    if !is_quote(bytes[q]) {
        return None;
    }
    let mut s = q;
    while s > 0 && bytes[s - 1] == b'\\' && q - s < 8 {
        s -= 1;
    }
    Some((
        QuoteSeq {
            quote: bytes[q],
            backslashes: q - s,
        },
        s,
    ))
}

/// Where the string that `seq` opened (content starting at `from`) closes: the position of
/// the closing sequence, or `None` when it does not close on this line within [`MAX_VALUE`].
pub(crate) fn closing_quote(bytes: &[u8], from: usize, seq: QuoteSeq) -> Option<usize> {
    let limit = bytes.len().min(from.saturating_add(MAX_VALUE));
    let mut j = from;
    while j < limit {
        let b = bytes[j];
        if b == b'\n' {
            return None;
        }
        if seq.backslashes == 0 {
            if b == b'\\' {
                j += 2;
                continue;
            }
            if b == seq.quote {
                return Some(j);
            }
        } else if b == b'\\' {
            if seq.at(bytes, j) {
                return Some(j);
            }
            // Skip an escape of this level (`\\` at level 1 stands for one backslash).
            j += 1;
            while j < limit && bytes[j] == b'\\' {
                j += 1;
            }
            continue;
        }
        j += 1;
    }
    None
}

/// The quoted value opening at `i`: `(content_start, content_end)`. An unclosed quote runs to
/// the end of the line (a truncated secret is still a secret).
pub(crate) fn quoted_value(bytes: &[u8], i: usize) -> Option<(usize, usize)> {
    let seq = opening_quote(bytes, i)?;
    let start = i + seq.len();
    let end = closing_quote(bytes, start, seq).unwrap_or_else(|| value_line_end(bytes, start));
    Some((start, end))
}

/// Bytes that end a bare value.
pub(crate) fn ends_token(b: u8) -> bool {
    b.is_ascii_whitespace()
        || is_quote(b)
        || matches!(
            b,
            b',' | b';' | b')' | b'}' | b']' | b'<' | b'>' | b'|' | b'&' | b'\\'
        )
}

/// End of the bare token starting at `i`.
pub(crate) fn token_end(bytes: &[u8], i: usize) -> usize {
    let limit = bytes.len().min(i.saturating_add(MAX_VALUE));
    let mut j = i;
    while j < limit && !ends_token(bytes[j]) {
        j += 1;
    }
    j
}

/// End of a value that runs to the end of its line: a real line break, an escaped one
/// (`\n` inside a JSON string) or [`MAX_VALUE`], without trailing blanks.
pub(crate) fn value_line_end(bytes: &[u8], i: usize) -> usize {
    let limit = bytes.len().min(i.saturating_add(MAX_VALUE));
    let mut j = i;
    while j < limit && !matches!(bytes[j], b'\n' | b'\r' | b'\\') {
        j += 1;
    }
    while j > i && is_blank(bytes[j - 1]) {
        j -= 1;
    }
    j
}

/// Strips a trailing ` # comment` (YAML, shell, INI) from `[start, end)`.
pub(crate) fn strip_comment(bytes: &[u8], start: usize, end: usize) -> usize {
    let mut j = start;
    while j + 1 < end {
        if is_blank(bytes[j]) && (bytes[j + 1] == b'#' || starts_with_at(bytes, j + 1, b"; ")) {
            let mut e = j;
            while e > start && is_blank(bytes[e - 1]) {
                e -= 1;
            }
            return e;
        }
        j += 1;
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_and_escaped_quotes() {
        let t = br#""abc\"d" rest"#;
        assert_eq!(quoted_value(t, 0), Some((1, 7)));
        let t = br#"\"hunter2\", \"x\""#;
        assert_eq!(quoted_value(t, 0), Some((2, 9)));
        let t = br#"'open to the end  "#;
        assert_eq!(quoted_value(t, 0), Some((1, 16)));
        assert_eq!(quoted_value(b"abc", 0), None);
    }

    #[test]
    fn quote_before_counts_backslashes() {
        let t = br#"{\"password\""#;
        let (seq, start) = quote_before(t, 3).unwrap();
        assert_eq!(
            seq,
            QuoteSeq {
                quote: b'"',
                backslashes: 1
            }
        );
        assert_eq!(start, 1);
        assert!(seq.at(t, 11));
    }

    #[test]
    fn comments_and_line_ends() {
        let t = b"hunter2  # the password\nnext";
        let end = value_line_end(t, 0);
        assert_eq!(strip_comment(t, 0, end), 7);
        assert_eq!(value_line_end(b"abc\\nnext", 0), 3);
        assert_eq!(token_end(b"abc&def", 0), 3);
    }
}
