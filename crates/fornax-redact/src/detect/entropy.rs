//! High-entropy tokens: long runs of token characters whose measured Shannon entropy and
//! character mix say "random", not "word", "identifier", "path" or "hash".
//!
//! Look-alikes are excluded by shape before entropy is measured: hexadecimal runs (git SHAs,
//! digests, UUIDs), base64 after `base64,` (data URIs) or after a digest label (`sha512-` npm
//! integrity, `h1:` Go sums), image magic numbers, identifiers with a known public prefix
//! (`toolu_`, `msg_`, `call_`), and runs longer than any credential (blobs).

use crate::span::Findings;
use crate::SecretKind;

/// Shortest token judged. Shorter random strings exist, but below this length words and
/// identifiers reach the same entropy.
pub(crate) const MIN_TOKEN: usize = 20;
/// Longest run judged; longer runs are encoded data (images, archives), not credentials.
const MAX_RUN: usize = 1024;

/// Bytes that make up a token run: base64 and base64url alphabets.
const fn run_table() -> [bool; 256] {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        let c = b as u8;
        t[b] = c.is_ascii_alphanumeric() || c == b'+' || c == b'/' || c == b'_' || c == b'-';
        b += 1;
    }
    t
}
static RUN: [bool; 256] = run_table();

/// Scans all of `bytes` for high-entropy runs outside `blocked` (sorted, disjoint ranges:
/// other detections and known public blocks). Blocked bytes separate runs as any non-token
/// byte does, so the runs judged here are the same ones a second pass sees once the other
/// detections have become placeholders (which start with `[` and end with `]`).
///
/// Only runs of at least [`MIN_TOKEN`] bytes matter, so the scan probes every
/// `MIN_TOKEN`-th byte: when the probe is not a token byte, no long run can cover it and the
/// whole stretch before it is skipped unread. Prose and code, made of short words, are mostly
/// skipped this way.
pub(crate) fn scan(bytes: &[u8], blocked: &[(usize, usize)], found: &mut Findings) {
    let n = bytes.len();
    let is_run = |b: u8| RUN[usize::from(b)];
    // Invariant: no run of interest starts before `i`, and `i` starts the text or follows a
    // byte that is not part of a run.
    let mut i = 0;
    while i + MIN_TOKEN <= n {
        let probe = i + MIN_TOKEN - 1;
        if !is_run(bytes[probe]) {
            i = probe + 1;
            continue;
        }
        let mut start = probe;
        while start > i && is_run(bytes[start - 1]) {
            start -= 1;
        }
        let mut end = probe + 1;
        while end < n && is_run(bytes[end]) {
            end += 1;
        }
        if end - start >= MIN_TOKEN {
            judge_unblocked(bytes, start, end, blocked, found);
        }
        // `bytes[end]` is not a run byte (or is the end of the text).
        i = end + 1;
    }
}

/// Judges the parts of the run `[start, end)` that lie outside `blocked`.
fn judge_unblocked(
    bytes: &[u8],
    start: usize,
    end: usize,
    blocked: &[(usize, usize)],
    found: &mut Findings,
) {
    let first = blocked.partition_point(|&(_, e)| e <= start);
    // The context a run is read in (`base64,` before it) must not reach into a detection:
    // that text becomes a placeholder, and a second pass would read the run differently.
    let mut context_start = blocked[..first].last().map_or(0, |&(_, e)| e);
    let mut at = start;
    for &(s, e) in &blocked[first..] {
        if s >= end {
            break;
        }
        if s > at && s - at >= MIN_TOKEN {
            judge_run(bytes, context_start, at, s, found);
        }
        at = at.max(e);
        context_start = at;
    }
    if end > at && end - at >= MIN_TOKEN {
        judge_run(bytes, context_start, at, end, found);
    }
}

fn judge_run(bytes: &[u8], context_start: usize, start: usize, end: usize, found: &mut Findings) {
    if end - start > MAX_RUN {
        return;
    }
    let run = &bytes[start..end];
    // Nor into a run this scan has just flagged.
    let context_start = found
        .spans
        .last()
        .map(|span| span.end)
        .filter(|&e| e <= start)
        .map_or(context_start, |e| e.max(context_start));
    let is_public = |s: usize, e: usize| {
        let context = &bytes[s.saturating_sub(16).max(context_start.min(s))..s];
        has_public_context(context)
            || has_public_prefix(&bytes[s..e])
            || is_ulid(&bytes[s..e])
            || named_as_identifier(bytes, context_start, s)
    };
    // In a URL, a random path segment names a resource (a document, an image) and a query
    // value under a plain name is a parameter; secrets there are named (`?token=`, found by
    // the assignment detector) or follow a credential step of the path (`/reset/<token>`).
    if let Some(url) = url_context(bytes, start, end) {
        judge_url_run(bytes, &url, start, end, &is_public, found);
        return;
    }
    // Base64 that happens to contain `/` is judged whole, like any other run.
    if !run.contains(&b'/') || !looks_like_path(run) {
        if let Some(kind) = judge_unless(run, || is_public(start, end)) {
            found.push(start, with_padding(bytes, end), kind);
        }
        return;
    }
    // Digests and encoded media are public in every segment too.
    if is_public(start, end) {
        return;
    }
    // A path: judge each segment on its own (`/reset/<token>`), so that the words of the path
    // stay readable.
    let mut seg_start = start;
    for i in start..=end {
        if i == end || bytes[i] == b'/' {
            if i - seg_start >= MIN_TOKEN {
                if let Some(kind) = judge_unless(&bytes[seg_start..i], || is_public(seg_start, i)) {
                    found.push(seg_start, i, kind);
                }
            }
            seg_start = i + 1;
        }
    }
}

/// Where a run sits in a URL.
struct UrlContext {
    /// Start of the URL's path (its first `/` after the host), if the run is in the path.
    path_start: Option<usize>,
}

/// Whether the run at `start` is part of a URL (`scheme://...` without a blank or quote in
/// between), and where its path begins. A run in the query or fragment has no path start.
fn url_context(bytes: &[u8], start: usize, end: usize) -> Option<UrlContext> {
    let limit = start.saturating_sub(2048);
    let mut i = start;
    while i > limit {
        let b = bytes[i - 1];
        if b.is_ascii_whitespace() || matches!(b, b'"' | b'\'' | b'`' | b'(' | b'<' | b'>' | b'\\')
        {
            return None;
        }
        if b == b'/' && i >= 3 && &bytes[i - 3..i] == b"://" {
            if !has_scheme(&bytes[..i - 3]) {
                return None;
            }
            // The host ends at the first `/`, which may be inside the run (`com/api/...`).
            let Some(host_end) = bytes[i..end].iter().position(|&b| b == b'/').map(|p| i + p)
            else {
                // In the authority (user info or host): not a secret's place unless a
                // detector for credentials in URLs said so.
                return Some(UrlContext { path_start: None });
            };
            if host_end < start
                && bytes[host_end..start]
                    .iter()
                    .any(|&b| matches!(b, b'?' | b'#' | b'&' | b'='))
            {
                return Some(UrlContext { path_start: None });
            }
            return Some(UrlContext {
                path_start: Some(host_end),
            });
        }
        i -= 1;
    }
    None
}

/// Whether `before` ends with a URL scheme (`https`, `git+ssh`, `s3`): short and lower-case,
/// so never itself a detection that a second pass would see as a placeholder; or with a
/// placeholder, which is what such a scheme-shaped secret became in an earlier pass.
fn has_scheme(before: &[u8]) -> bool {
    if before.ends_with(b"]") {
        return before
            .iter()
            .rposition(|&b| b == b'[')
            .is_some_and(|p| before[p..].starts_with(crate::kind::PLACEHOLDER_PREFIX.as_bytes()));
    }
    let len = before
        .iter()
        .rev()
        .take(17)
        .take_while(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'+' | b'.' | b'-')
        })
        .count();
    let scheme = &before[before.len() - len..];
    (1..=16).contains(&len)
        && scheme[0].is_ascii_lowercase()
        && !(before.len() - len)
            .checked_sub(1)
            .and_then(|i| before.get(i))
            .is_some_and(|b| b.is_ascii_alphanumeric())
}

/// Path segments after which the next one is a credential: one-time links, webhook and bot
/// tokens, keys in paths.
fn names_a_credential_step(segment: &[u8]) -> bool {
    const STEPS: &[&[u8]] = &[
        b"reset",
        b"reset-password",
        b"password-reset",
        b"reset_password",
        b"resetpassword",
        b"verify",
        b"verify-email",
        b"verification",
        b"confirm",
        b"confirmation",
        b"invite",
        b"invitation",
        b"invites",
        b"activate",
        b"activation",
        b"magic",
        b"magic-link",
        b"login",
        b"signin",
        b"sign-in",
        b"token",
        b"tokens",
        b"auth",
        b"oauth",
        b"webhook",
        b"webhooks",
        b"hooks",
        b"secret",
        b"secrets",
        b"key",
        b"keys",
        b"apikey",
        b"api-key",
        b"api_key",
        b"unsubscribe",
        b"bot",
    ];
    STEPS.iter().any(|s| segment.eq_ignore_ascii_case(s))
}

/// Judges the path segments of a URL run that follow a credential step; everything else in
/// a URL is an identifier or a parameter.
fn judge_url_run(
    bytes: &[u8],
    url: &UrlContext,
    start: usize,
    end: usize,
    is_public: &dyn Fn(usize, usize) -> bool,
    found: &mut Findings,
) {
    let Some(path_start) = url.path_start else {
        return;
    };
    let mut seg_start = start;
    for i in start..=end {
        if i < end && bytes[i] != b'/' {
            continue;
        }
        if i - seg_start >= MIN_TOKEN && follows_credential_step(bytes, path_start, seg_start) {
            if let Some(kind) = judge_unless(&bytes[seg_start..i], || is_public(seg_start, i)) {
                found.push(seg_start, i, kind);
            }
        }
        seg_start = i + 1;
    }
}

/// Whether the path segment starting at `seg_start` comes after a credential step, looking
/// back over numeric ids (`/api/webhooks/<id>/<token>`).
fn follows_credential_step(bytes: &[u8], path_start: usize, seg_start: usize) -> bool {
    let path = &bytes[path_start..seg_start.saturating_sub(1).max(path_start)];
    path.split(|&b| b == b'/')
        .rev()
        .filter(|s| !s.is_empty())
        .take(3)
        .find(|s| !s.iter().all(u8::is_ascii_digit))
        .is_some_and(|s| {
            names_a_credential_step(s)
                || s.strip_prefix(b"bot")
                    .is_some_and(|rest| rest.contains(&b':'))
        })
}

/// A ULID (`01ARZ3NDEKTSV4RRFFQ69G5FAV`): 26 characters of Crockford base32, time first.
fn is_ulid(run: &[u8]) -> bool {
    run.len() == 26
        && matches!(run[0], b'0'..=b'7')
        && run.iter().all(|&b| {
            b.is_ascii_digit()
                || (b.is_ascii_uppercase() && !matches!(b, b'I' | b'L' | b'O' | b'U'))
        })
}

/// Whether the run at `start` is the value of a name that declares an identifier, a digest
/// or an opaque blob (`"documentId": "..."`, `SPREADSHEET_ID = "..."`, `"signature": "..."`,
/// `"encrypted_content": "..."`). Reads back over an optional quote, the operator and the
/// name's closing quote, not into a detection (`context_start`).
fn named_as_identifier(bytes: &[u8], context_start: usize, start: usize) -> bool {
    let mut i = start;
    let floor = context_start.min(start);
    let back = |i: &mut usize, pred: &dyn Fn(u8) -> bool, max: usize| {
        let mut n = 0;
        while *i > floor && n < max && pred(bytes[*i - 1]) {
            *i -= 1;
            n += 1;
        }
        n
    };
    back(&mut i, &|b| b == b'"' || b == b'\'' || b == b'\\', 3);
    back(&mut i, &|b| b == b' ' || b == b'\t', 4);
    if back(&mut i, &|b| b == b':' || b == b'=', 2) == 0 {
        return false;
    }
    back(&mut i, &|b| b == b' ' || b == b'\t', 4);
    back(&mut i, &|b| b == b'"' || b == b'\'' || b == b'\\', 3);
    let name_end = i;
    back(
        &mut i,
        &|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.'),
        64,
    );
    crate::names::declares_identifier(&bytes[i..name_end])
}

/// `end` extended over base64 padding (`=`, `==`) that ends the token. The padding is not
/// judged (what follows it can change once a neighbour is redacted), only removed with it.
fn with_padding(bytes: &[u8], end: usize) -> usize {
    let pad = bytes[end..]
        .iter()
        .take(2)
        .take_while(|&&b| b == b'=')
        .count();
    let after = bytes.get(end + pad).copied();
    if pad > 0 && !after.is_some_and(|b| RUN[usize::from(b)] || b == b'=') {
        end + pad
    } else {
        end
    }
}

/// A path rather than base64 that happens to contain `/`: it starts at the root or home,
/// ends with `/`, or one of its segments is a short lower-case word or a number (`src`,
/// `org`, `2024`).
fn looks_like_path(run: &[u8]) -> bool {
    // A run that ends with `/` is also what remains of a path once one of its segments has
    // been redacted: judging it as a path again keeps redaction idempotent.
    if run.starts_with(b"/") || run.starts_with(b"~") || run.ends_with(b"/") {
        return true;
    }
    if run.contains(&b'+') {
        return false;
    }
    run.split(|&b| b == b'/').any(|seg| {
        let word = seg.len() >= 3
            && seg
                .iter()
                .all(|&b| b.is_ascii_lowercase() || b == b'_' || b == b'-')
            && seg.windows(2).any(|w| {
                w[0].is_ascii_lowercase() && w[1].is_ascii_lowercase() && is_common_pair(w[0], w[1])
            });
        let number = seg.len() >= 2 && seg.iter().all(u8::is_ascii_digit);
        word || number
    })
}

/// Text right before a run that says the run is a digest or encoded data.
fn has_public_context(before: &[u8]) -> bool {
    const CONTEXTS: &[&[u8]] = &[
        b"base64,", b"h1:", b"sha1:", b"sha256:", b"sha384:", b"sha512:", b"md5:", b"sha1-",
        b"sha256-", b"sha384-", b"sha512-", b"ipfs://", b"ipns://",
    ];
    CONTEXTS.iter().any(|c| {
        before.len() >= c.len() && before[before.len() - c.len()..].eq_ignore_ascii_case(c)
    })
}

/// Prefixes of runs that are digests, encoded media or public identifiers.
fn has_public_prefix(run: &[u8]) -> bool {
    const PREFIXES: &[&[u8]] = &[
        // Subresource integrity / npm lockfiles.
        b"sha1-",
        b"sha256-",
        b"sha384-",
        b"sha512-",
        // Magic numbers of base64-encoded media: PNG, JPEG, GIF, WebP, PDF, SVG.
        b"iVBORw0KGgo",
        b"/9j/",
        b"R0lGOD",
        b"UklGR",
        b"JVBERi0",
        b"PHN2Zy",
        b"PD94bWwg",
        // Public keys in OpenSSH's encoding (`ssh-rsa`, `ssh-ed25519`, `ecdsa-sha2-*`,
        // `sk-ssh-ed25519@openssh.com`).
        b"AAAAB3NzaC1",
        b"AAAAC3NzaC1",
        b"AAAAE2VjZHNh",
        b"AAAAGnNrLX",
        b"AAAAInNrLX",
        // Content identifiers and addresses: IPFS CIDs, Bitcoin bech32 addresses.
        b"bafy",
        b"bafk",
        b"bafz",
        b"bc1q",
        b"bc1p",
        b"tb1q",
        // Public identifiers agents and APIs print.
        b"toolu_",
        b"srvtoolu_",
        b"msg_",
        b"call_",
        b"chatcmpl-",
        b"resp_",
        b"req_",
        b"run_",
        b"asst_",
        b"thread_",
        b"fc_",
        b"rs_",
        b"ses_",
        b"prt_",
        b"file-",
        b"file_",
        b"evt_",
        b"cus_",
        b"ch_",
        b"pi_",
        b"sub_",
        b"price_",
        b"prod_",
        b"acct_",
        b"batch_",
    ];
    PREFIXES.iter().any(|p| run.starts_with(p))
}

/// Character classes of one candidate token.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Profile {
    upper: usize,
    lower: usize,
    digit: usize,
    /// Only hexadecimal digits, dashes and underscores, after an optional `0x` (SHAs,
    /// digests, UUIDs, numeric literals).
    hex: bool,
}

fn profile(token: &[u8]) -> Profile {
    let (mut upper, mut lower, mut digit) = (0, 0, 0);
    let mut hex = true;
    let body = token.strip_prefix(b"0x").unwrap_or(token);
    for &b in body {
        if b.is_ascii_uppercase() {
            upper += 1;
        } else if b.is_ascii_lowercase() {
            lower += 1;
        } else if b.is_ascii_digit() {
            digit += 1;
        }
        hex &= b.is_ascii_hexdigit() || b == b'-' || b == b'_';
    }
    Profile {
        upper,
        lower,
        digit,
        hex,
    }
}

/// Shannon entropy of the byte distribution of `token`, in bits per byte.
fn shannon_entropy(token: &[u8]) -> f64 {
    let mut counts = [0u16; 128];
    for &b in token {
        counts[usize::from(b & 0x7f)] += 1;
    }
    let n = token.len() as f64;
    counts
        .iter()
        .filter(|&&c| c > 0)
        .map(|&c| {
            let p = f64::from(c) / n;
            -p * p.log2()
        })
        .sum()
}

/// Common English letter pairs (case-folded). Identifiers are made of words, and most of
/// their adjacent letter pairs are common ones; in a random token about a fifth are.
const COMMON_BIGRAMS: [&[u8; 2]; 206] = [
    b"th", b"he", b"in", b"er", b"an", b"re", b"on", b"at", b"en", b"nd", b"ti", b"es", b"or",
    b"te", b"of", b"ed", b"is", b"it", b"al", b"ar", b"st", b"to", b"nt", b"ng", b"se", b"ha",
    b"as", b"ou", b"io", b"le", b"ve", b"co", b"me", b"de", b"hi", b"ri", b"ro", b"ic", b"ne",
    b"ea", b"ra", b"ce", b"li", b"ch", b"ll", b"be", b"ma", b"si", b"om", b"ur", b"ca", b"el",
    b"ta", b"la", b"ns", b"di", b"fo", b"ho", b"pe", b"ec", b"pr", b"no", b"ct", b"us", b"ac",
    b"ot", b"il", b"tr", b"ly", b"nc", b"et", b"ut", b"ss", b"so", b"rs", b"un", b"lo", b"wa",
    b"ge", b"ie", b"wh", b"ee", b"wi", b"em", b"ad", b"ol", b"rt", b"po", b"we", b"na", b"ul",
    b"ni", b"ts", b"mo", b"ow", b"pa", b"im", b"mi", b"ai", b"sh", b"ir", b"su", b"id", b"os",
    b"iv", b"ia", b"am", b"fi", b"ci", b"vi", b"pl", b"ig", b"tu", b"ev", b"ld", b"ry", b"mp",
    b"fe", b"bl", b"ab", b"gh", b"ty", b"op", b"wo", b"sa", b"ay", b"ex", b"ke", b"fr", b"oo",
    b"av", b"ag", b"if", b"ap", b"gr", b"od", b"bo", b"sp", b"rd", b"do", b"uc", b"bu", b"ei",
    b"ov", b"by", b"rm", b"ep", b"tt", b"oc", b"fa", b"ef", b"cu", b"rn", b"sc", b"gi", b"da",
    b"yo", b"cr", b"cl", b"du", b"qu", b"ue", b"ff", b"ba", b"ey", b"ls", b"va", b"um", b"pp",
    b"ua", b"up", b"lu", b"go", b"ht", b"ru", b"ug", b"ds", b"lt", b"pi", b"rc", b"rr", b"eg",
    b"au", b"ck", b"ew", b"mu", b"br", b"bi", b"pt", b"ak", b"pu", b"ui", b"rg", b"ib", b"ys",
    b"ob", b"mm", b"ph", b"og", b"ms", b"ye", b"ud", b"mb", b"ip", b"ub", b"oi",
];

fn bigram_table() -> &'static [bool; 676] {
    static TABLE: std::sync::OnceLock<[bool; 676]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = [false; 676];
        for pair in COMMON_BIGRAMS {
            t[usize::from(pair[0] - b'a') * 26 + usize::from(pair[1] - b'a')] = true;
        }
        t
    })
}

fn is_common_pair(a: u8, b: u8) -> bool {
    let a = usize::from(a.to_ascii_lowercase() - b'a');
    let b = usize::from(b.to_ascii_lowercase() - b'a');
    bigram_table()[a * 26 + b]
}

/// How much of `token` reads as words: `(share, word_letters)`. `share` is the share of
/// adjacent letter pairs (case-folded) that are common English pairs (`None` below six
/// pairs); `word_letters` counts the letters of camel-case words of four letters or more
/// made mostly of common pairs (`Register` in `WHvX64RegisterFpMmx0`).
pub(crate) fn wordiness(token: &[u8]) -> (Option<f64>, usize) {
    let mut pairs = 0usize;
    let mut common = 0usize;
    let mut word_letters = 0usize;
    let mut seg_len = 0usize;
    let mut seg_pairs = 0usize;
    let mut seg_common = 0usize;
    let mut close = |seg_len: usize, seg_pairs: usize, seg_common: usize| {
        let word = match seg_len {
            0..=2 => false,
            3 => seg_common == seg_pairs,
            _ => seg_common * 2 >= seg_pairs,
        };
        if word {
            word_letters += seg_len;
        }
    };
    for (i, &b) in token.iter().enumerate() {
        let prev = if i > 0 { token[i - 1] } else { 0 };
        if !b.is_ascii_alphabetic() {
            close(seg_len, seg_pairs, seg_common);
            seg_len = 0;
            seg_pairs = 0;
            seg_common = 0;
            continue;
        }
        if prev.is_ascii_alphabetic() {
            pairs += 1;
            let is_common = is_common_pair(prev, b);
            common += usize::from(is_common);
            // Camel-case word starts: `dbPassword`, and `HTTPServer` before `Server`.
            let next_lower = token.get(i + 1).is_some_and(u8::is_ascii_lowercase);
            if (prev.is_ascii_lowercase() && b.is_ascii_uppercase())
                || (prev.is_ascii_uppercase() && b.is_ascii_uppercase() && next_lower)
            {
                close(seg_len, seg_pairs, seg_common);
                seg_len = 0;
                seg_pairs = 0;
                seg_common = 0;
            } else {
                seg_pairs += 1;
                seg_common += usize::from(is_common);
            }
        }
        seg_len += 1;
    }
    close(seg_len, seg_pairs, seg_common);
    (
        (pairs >= 6).then(|| common as f64 / pairs as f64),
        word_letters,
    )
}

/// The entropy below which a token is not random: a margin under the entropy a uniformly
/// random string of this length over this alphabet is expected to reach (about
/// `log2` of the number of distinct characters it is expected to contain).
fn entropy_threshold(len: usize, alphabet: usize) -> f64 {
    let a = alphabet.max(2) as f64;
    let distinct = a * (1.0 - (1.0 - 1.0 / a).powi(len.min(4096) as i32));
    distinct.log2() - ENTROPY_MARGIN
}

const ENTROPY_MARGIN: f64 = 0.5;
/// Tokens whose letter pairs are at least this often common English pairs read as words.
const WORDLIKE_SHARE: f64 = 0.6;

/// Whether `token` is a random secret, and which kind to report.
#[cfg(test)]
fn judge(token: &[u8]) -> Option<SecretKind> {
    judge_unless(token, || false)
}

/// [`judge`], with `is_public` (a costlier look at the token's context) asked only once the
/// token's shape has passed the cheap checks.
fn judge_unless(token: &[u8], is_public: impl FnOnce() -> bool) -> Option<SecretKind> {
    let len = token.len();
    if len < MIN_TOKEN {
        return None;
    }
    let p = profile(token);
    if p.hex {
        return None;
    }
    let letters = p.upper + p.lower;
    let alnum = letters + p.digit;
    let classes = usize::from(p.upper > 0) + usize::from(p.lower > 0) + usize::from(p.digit > 0);
    let mixed = match classes {
        3 => true,
        2 if p.digit == 0 => len >= 24,
        2 => p.digit * 5 >= alnum,
        _ => false,
    };
    if !mixed || letters * 2 < alnum {
        return None;
    }
    // One-case names with separators are identifiers (`NL80211_CMD_SET_WIPHY`,
    // `x86_64-unknown-linux-gnu`).
    if (p.upper == 0 || p.lower == 0) && token.iter().any(|&b| b == b'_' || b == b'-') {
        return None;
    }
    // Compound identifiers (`_mm_sha256msg1_epu32`) are short and separated; random tokens
    // that short rarely are.
    if len < 24 && token.iter().any(|&b| b == b'_' || b == b'-') {
        return None;
    }
    if is_public() {
        return None;
    }
    let symbols = token
        .iter()
        .filter(|b| !b.is_ascii_alphanumeric())
        .fold(0u8, |acc, &b| {
            acc | match b {
                b'+' => 1,
                b'/' => 2,
                b'_' => 4,
                _ => 8,
            }
        });
    let alphabet = 26 * usize::from(p.upper > 0)
        + 26 * usize::from(p.lower > 0)
        + 10 * usize::from(p.digit > 0)
        + symbols.count_ones() as usize;
    if shannon_entropy(token) < entropy_threshold(len, alphabet) {
        return None;
    }
    // Alphabets and counting sequences (`ABCDEFGHIJ...`, `0123456789abcdef...`) are tables.
    let ascending = token
        .windows(2)
        .filter(|w| w[1] == w[0].wrapping_add(1))
        .count();
    if ascending * 2 >= len {
        return None;
    }
    let (share, word_letters) = wordiness(token);
    if share.is_some_and(|share| share >= WORDLIKE_SHARE) || word_letters * 2 >= letters {
        return None;
    }
    // Base64 of text (`MDQ6VXNlcjI2NDc5OTA=` is `04:User2647990`) is an encoded name, not
    // a random key: random bytes almost never decode to printable text.
    if decodes_to_text(token) {
        return None;
    }
    let aws_shape = len == 40
        && classes == 3
        && token
            .iter()
            .all(|&b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/');
    Some(if aws_shape {
        SecretKind::AwsSecretKey
    } else {
        SecretKind::HighEntropy
    })
}

/// Whether `token` is base64 (standard or URL alphabet) of printable ASCII text.
fn decodes_to_text(token: &[u8]) -> bool {
    let body_len = token.iter().rposition(|&b| b != b'=').map_or(0, |p| p + 1);
    let body = &token[..body_len];
    if body.len() % 4 == 1 || body.len() < 8 {
        return false;
    }
    let mut acc = 0u32;
    let mut bits = 0;
    let mut printable = 0usize;
    let mut total = 0usize;
    for &b in body {
        let v = match b {
            b'A'..=b'Z' => b - b'A',
            b'a'..=b'z' => b - b'a' + 26,
            b'0'..=b'9' => b - b'0' + 52,
            b'+' | b'-' => 62,
            b'/' | b'_' => 63,
            _ => return false,
        };
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            let byte = (acc >> bits) & 0xff;
            acc &= (1 << bits) - 1;
            total += 1;
            if (0x20..0x7f).contains(&byte) || byte == u32::from(b'\n') || byte == u32::from(b'\t')
            {
                printable += 1;
            }
        }
    }
    total > 0 && printable == total
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Lcg(u64);

    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 33
        }

        fn token(&mut self, alphabet: &[u8], len: usize) -> Vec<u8> {
            (0..len)
                .map(|_| alphabet[(self.next() % alphabet.len() as u64) as usize])
                .collect()
        }
    }

    const BASE62: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    const BASE64: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    fn flagged_share(alphabet: &[u8], len: usize) -> f64 {
        let mut rng = Lcg(len as u64 * 7919);
        let total = 2000;
        let hits = (0..total)
            .filter(|_| judge(&rng.token(alphabet, len)).is_some())
            .count();
        hits as f64 / total as f64
    }

    #[test]
    fn random_tokens_are_flagged() {
        // Measured: ~92% at 20 characters, ~96% at 24, ~99% from 40 on.
        for (len, floor) in [(20, 0.88), (24, 0.93), (32, 0.95), (40, 0.97), (64, 0.99)] {
            for alphabet in [BASE62, BASE64] {
                let share = flagged_share(alphabet, len);
                assert!(share >= floor, "len {len}: only {share:.3} flagged");
            }
        }
    }

    #[test]
    fn identifiers_and_digests_are_not() {
        for token in [
            "test_handles_unicode_normalization_correctly",
            "GetFileInformationByHandleEx",
            "D3DKMTSubmitCommandToHwQueue",
            "PtpV2OverUdpIPv4AllMsgReceiveHw",
            "WHvX64RegisterMsrMtrrPhysBase0",
            "NL80211_CMD_SET_WIPHY_NETNS",
            "x86_64-unknown-linux-gnu",
            "aarch64-apple-darwin20.1",
            "HTTP2ServerConnectionManager",
            "useCallbackWithDependencies",
            "AbstractSingletonProxyFactoryBean",
            "fornax_redact-3f2a1b9c8d7e6f5a",
            "3f2a1b9c8d7e6f5a4b3c2d1e0f9a8b7c6d5e4f3a",
            "0x9e37_79b9_7f4a_7c15",
            "550e8400-e29b-41d4-a716-446655440000",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
            "MDQ6VXNlcjI2NDc5OTA=",
            "cm90YXRpb24ta2V5LTIwMjYtMDg",
            "module_1678991624569",
            "TestCheckoutFlowRejectsExpiredCards",
            "ReactDOMServerRenderingStream",
        ] {
            assert_eq!(judge(token.as_bytes()), None, "{token}");
        }
    }

    #[test]
    fn forty_character_base64_is_an_aws_secret_shape() {
        let mut rng = Lcg(3);
        let token = loop {
            let t = rng.token(BASE64, 40);
            if judge(&t).is_some() {
                break t;
            }
        };
        assert_eq!(judge(&token), Some(SecretKind::AwsSecretKey));
    }

    #[test]
    fn paths_are_judged_by_segment() {
        let mut found = Findings::default();
        let text = b"/Users/JaneDoe/Library/Application Support/Code/User/workspaceStorage/8f3c2a1b/state.vscdb";
        scan(text, &[], &mut found);
        assert!(found.spans.is_empty());
        let text = b"GET /reset-password/q8Zr2LmX9vT4nB7kW1pY6sD3xC HTTP/1.1";
        scan(text, &[], &mut found);
        assert_eq!(found.spans.len(), 1);
        let span = found.spans[0];
        assert_eq!(&text[span.start..span.end], b"q8Zr2LmX9vT4nB7kW1pY6sD3xC");
    }
}
