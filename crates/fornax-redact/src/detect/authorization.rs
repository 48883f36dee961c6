//! HTTP authorization values: `Authorization: Bearer x`, `Proxy-Authorization: Basic x`, and
//! `Bearer`/`Basic` credentials written without their header. The scheme stays; the
//! credentials go.

use crate::bytes::{contains_placeholder, is_blank, is_name_byte, is_reference, skip_blanks};
use crate::detect::literal::{is_format_directive, string_prefix_len};
use crate::detect::value::{closing_quote, quoted_value, value_line_end, QuoteSeq};
use crate::span::Findings;
use crate::SecretKind;

/// The value of an authorization header starting at `v`. `enclosing` is the quote of a
/// string the header is written in (`-H "Authorization: Bearer x"`), where the value ends.
pub(crate) fn header_value(
    bytes: &[u8],
    v: usize,
    enclosing: Option<QuoteSeq>,
    found: &mut Findings,
) {
    if enclosing.is_some_and(|seq| seq.at(bytes, v)) {
        return;
    }
    // `f"Bearer {token}"`: a string literal's prefix is not part of the value.
    let v = if enclosing.is_none() {
        v + string_prefix_len(bytes, v)
    } else {
        v
    };
    let (start, end) = match (enclosing, quoted_value(bytes, v)) {
        (None, Some(range)) => range,
        (Some(seq), _) => (
            v,
            closing_quote(bytes, v, seq).unwrap_or_else(|| value_line_end(bytes, v)),
        ),
        (None, None) => (v, value_line_end(bytes, v)),
    };
    let end = trim_end(bytes, start, end);
    if start >= end || is_reference(bytes, start) {
        return;
    }
    // Already (partly) redacted: whatever the placeholder replaced was the secret.
    if contains_placeholder(&bytes[start..end]) {
        return;
    }
    let scheme = bytes[start..end]
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        .count();
    let after_scheme = start + scheme;
    // An interpolation (`{token}`, `${token}`, `%s`) stands where the credentials will be.
    let interpolated = |from: usize| is_format_directive(&bytes[from..end]);
    if scheme > 0 && after_scheme < end && is_blank(bytes[after_scheme]) {
        let credentials = skip_blanks(bytes, after_scheme);
        if credentials < end && !is_reference(bytes, credentials) && !interpolated(credentials) {
            found.push(credentials, end, SecretKind::Authorization);
        }
        return;
    }
    if !interpolated(start) {
        found.push(start, end, SecretKind::Authorization);
    }
}

fn trim_end(bytes: &[u8], start: usize, mut end: usize) -> usize {
    while end > start && matches!(bytes[end - 1], b' ' | b'\t' | b',' | b';') {
        end -= 1;
    }
    end
}

/// Characters of a bearer token (RFC 6750 `b64token`).
fn is_token68(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'+' | b'/' | b'=')
}

/// `Bearer x` or `Basic x` without a header name, found at `[hit, hit_end)`.
pub(crate) fn scheme_word(bytes: &[u8], hit: usize, hit_end: usize, found: &mut Findings) {
    if hit > 0 && is_name_byte(bytes[hit - 1]) {
        return;
    }
    if !bytes.get(hit_end).is_some_and(|&b| is_blank(b)) {
        return;
    }
    let start = skip_blanks(bytes, hit_end);
    let len = bytes[start..]
        .iter()
        .take(4096)
        .take_while(|&&b| is_token68(b))
        .count();
    let end = start + len;
    if bytes
        .get(end)
        .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'$')
    {
        return;
    }
    let token = &bytes[start..end];
    let bearer =
        bytes[hit].eq_ignore_ascii_case(&b'b') && bytes[hit + 1].eq_ignore_ascii_case(&b'e');
    let is_secret = if bearer {
        len >= 16 && token.iter().any(u8::is_ascii_digit)
    } else {
        len >= 8 && decodes_to_user_pass(token)
    };
    if is_secret {
        found.push(start, end, SecretKind::Authorization);
    }
}

/// Whether `token` is base64 of `user:password` (printable, with a colon).
fn decodes_to_user_pass(token: &[u8]) -> bool {
    fn sextet(b: u8) -> Option<u32> {
        Some(match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return None,
        } as u32)
    }
    let body: &[u8] = {
        let mut end = token.len();
        while end > 0 && token[end - 1] == b'=' {
            end -= 1;
        }
        &token[..end]
    };
    if body.len() % 4 == 1 {
        return false;
    }
    let mut colon = false;
    let mut acc = 0u32;
    let mut bits = 0;
    for &b in body {
        let Some(v) = sextet(b) else { return false };
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            let byte = ((acc >> bits) & 0xff) as u8;
            if !(0x20..0x7f).contains(&byte) {
                return false;
            }
            colon |= byte == b':';
        }
    }
    colon
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn basic_credentials_are_recognized_by_decoding() {
        // "aladdin:opensesame"
        assert!(decodes_to_user_pass(b"YWxhZGRpbjpvcGVuc2VzYW1l"));
        assert!(!decodes_to_user_pass(b"authentication"));
        assert!(!decodes_to_user_pass(b"aGVsbG8gd29ybGQ="));
    }
}
