//! Credentials in URLs: `scheme://user:password@host`. The user name and host stay; the
//! password goes.

use crate::bytes::is_reference;
use crate::kind::PLACEHOLDER_PREFIX;
use crate::span::Findings;
use crate::SecretKind;

/// Longest user-info part considered.
const MAX_USERINFO: usize = 512;

/// Handles `://` found at `hit`.
pub(crate) fn credentials(bytes: &[u8], hit: usize, found: &mut Findings) {
    let scheme_len = bytes[..hit]
        .iter()
        .rev()
        .take(32)
        .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'.' | b'-'))
        .count();
    if !bytes[hit - scheme_len..hit]
        .iter()
        .any(u8::is_ascii_alphabetic)
    {
        return;
    }
    let start = hit + 3;
    let limit = bytes.len().min(start + MAX_USERINFO);
    let mut at = None;
    let mut colon = None;
    let mut i = start;
    while i < limit {
        match bytes[i] {
            b'@' => {
                at = Some(i);
                break;
            }
            // A placeholder left by an earlier pass may stand for text that held a delimiter:
            // what follows it is not known to be user info.
            b'[' if bytes[i..].starts_with(PLACEHOLDER_PREFIX.as_bytes()) => break,
            b':' if colon.is_none() => colon = Some(i),
            // `#` is not allowed unencoded in user info, but passwords are written with it
            // (`amqp://guest:pa#9@host`): a fragment cannot hold the `@` and host that must
            // follow, so reading on past it is safe.
            b'/' | b'?' | b'"' | b'\'' | b'`' | b'<' | b'>' | b'\\' => break,
            b if b.is_ascii_whitespace() => break,
            _ => {}
        }
        i += 1;
    }
    let (Some(at), Some(colon)) = (at, colon) else {
        return;
    };
    let password = colon + 1;
    if password >= at || is_reference(bytes, password) {
        return;
    }
    // The host must follow (`user:pass@` at the end of a string is not a URL).
    let host = at + 1;
    let ipv6 =
        bytes.get(host) == Some(&b'[') && !bytes[host..].starts_with(PLACEHOLDER_PREFIX.as_bytes());
    if !(ipv6
        || bytes
            .get(host)
            .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_'))
    {
        return;
    }
    found.push(password, at, SecretKind::UrlCredentials);
}
