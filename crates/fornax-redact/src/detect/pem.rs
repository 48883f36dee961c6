//! PEM blocks: private keys are secrets from `-----BEGIN` to `-----END`; certificates and
//! public keys are not, and are shielded from the entropy detector.

use memchr::memmem;

use crate::kind::PLACEHOLDER_PREFIX;
use crate::span::Findings;
use crate::SecretKind;

/// Longest PEM block searched for its end marker.
const MAX_BLOCK: usize = 64 * 1024;

/// Handles `-----BEGIN` found at `hit`.
pub(crate) fn block(bytes: &[u8], hit: usize, found: &mut Findings) {
    const BEGIN: &[u8] = b"-----BEGIN ";
    if !bytes[hit..].starts_with(BEGIN) {
        return;
    }
    let label_start = hit + BEGIN.len();
    let label_limit = bytes.len().min(label_start + 80);
    let Some(label_len) = memmem::find(&bytes[label_start..label_limit], b"-----") else {
        return;
    };
    let label = &bytes[label_start..label_start + label_len];
    if label.iter().any(|&b| b == b'\n' || b == b'\\') {
        return;
    }
    let body = label_start + label_len + 5;
    // Blocks do not nest: the next `-----BEGIN` ends this block's search for its end. So does
    // a placeholder, which may stand for one (and redacting must be idempotent).
    let limit = bytes.len().min(body + MAX_BLOCK);
    let limit = memmem::find(&bytes[body..limit], b"-----BEGIN ").map_or(limit, |p| body + p);
    let limit = memmem::find(&bytes[body..limit], PLACEHOLDER_PREFIX.as_bytes())
        .map_or(limit, |p| body + p);
    let end = match memmem::find(&bytes[body..limit], b"-----END ") {
        Some(p) => {
            let marker = body + p + 9;
            let marker_limit = bytes.len().min(marker + 80);
            match memmem::find(&bytes[marker..marker_limit], b"-----") {
                Some(q) => marker + q + 5,
                None => marker,
            }
        }
        None => match truncated_end(bytes, body, limit) {
            Some(end) => end,
            None => return,
        },
    };
    if memmem::find(label, b"PRIVATE").is_some() {
        found.push(hit, end, SecretKind::PrivateKey);
    } else {
        found.protect(hit, body, end);
    }
}

/// Where a block without an end marker (cut off by a truncated output, or by `limit`) stops,
/// or `None` when no body follows the marker (a line of code that compares against it is not
/// a key).
pub(crate) fn truncated_end(bytes: &[u8], body: usize, limit: usize) -> Option<usize> {
    let end = truncated_body_end(bytes, body, limit);
    let body_len = bytes[body..end]
        .iter()
        .filter(|b| b.is_ascii_alphanumeric())
        .count();
    (body_len >= 16).then_some(end)
}

/// Where a block without an end marker stops: at the first byte that cannot be part of a PEM
/// body, at a blank line, or at `limit`.
fn truncated_body_end(bytes: &[u8], body: usize, limit: usize) -> usize {
    let mut i = body;
    let mut newlines = 0;
    while i < limit {
        let b = bytes[i];
        match b {
            b'\n' => {
                newlines += 1;
                if newlines == 2 {
                    break;
                }
            }
            b'\\' if i + 1 < limit && bytes[i + 1] == b'n' => {
                newlines += 1;
                if newlines == 2 {
                    break;
                }
                i += 1;
            }
            b'\r' | b' ' | b'\t' => {}
            b if b.is_ascii_alphanumeric()
                || matches!(b, b'+' | b'/' | b'=' | b':' | b',' | b'-') =>
            {
                newlines = 0;
            }
            _ => break,
        }
        i += 1;
    }
    while i > body && bytes[i - 1].is_ascii_whitespace() {
        i -= 1;
    }
    if i > body + 1 && bytes[i - 1] == b'\\' {
        i -= 1;
    }
    i
}
