//! Tokens whose format names their issuer: AWS, GitHub, GitLab, Slack, Stripe, OpenAI,
//! Anthropic, Google, npm, PyPI, JWTs, and the issuers of [`PREFIXED`]. Each starts with a
//! fixed prefix, found by the trigger automaton; here the prefix's exact case and the body's
//! length and alphabet are checked.

use crate::bytes::{is_alnum, run_len, starts_with_at};
use crate::span::Findings;
use crate::SecretKind;

/// Which prefix family a trigger belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Family {
    Github,
    Gitlab,
    Slack,
    SlackWebhook,
    Stripe,
    /// `sk-`: OpenAI or Anthropic.
    SkDash,
    Google,
    Npm,
    Pypi,
    Jwt,
    AwsKeyId,
    /// One of [`PREFIXED`].
    Prefixed,
    /// SendGrid: `SG.<22>.<43>`.
    SendGrid,
    /// Telegram bot tokens: `<bot id>:AA<33>` (found at the colon).
    Telegram,
}

/// What a body of a prefixed token is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Body {
    Base62,
    /// Letters, digits, `-` and `_`.
    Base64Url,
    /// Lower-case hexadecimal, exactly this many digits.
    Hex(usize),
    /// Bech32's upper-case alphabet.
    Bech32Upper,
}

/// A token format: its prefix (exact case), body alphabet and shortest body.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Prefixed {
    pub prefix: &'static str,
    body: Body,
    min: usize,
    kind: SecretKind,
}

const fn fmt(prefix: &'static str, body: Body, min: usize) -> Prefixed {
    Prefixed {
        prefix,
        body,
        min,
        kind: SecretKind::ApiToken,
    }
}

/// Documented token formats of other issuers. Their prefixes are trigger literals (in lower
/// case); a prefix alone, or with a short or wrong-alphabet body, is not a token.
pub(crate) const PREFIXED: &[Prefixed] = &[
    fmt("hf_", Body::Base62, 30),
    fmt("gsk_", Body::Base62, 48),
    fmt("xai-", Body::Base62, 60),
    fmt("dop_v1_", Body::Hex(64), 64),
    fmt("doo_v1_", Body::Hex(64), 64),
    fmt("dor_v1_", Body::Hex(64), 64),
    fmt("dos_v1_", Body::Hex(64), 64),
    fmt("shpat_", Body::Hex(32), 32),
    fmt("shpss_", Body::Hex(32), 32),
    fmt("shpca_", Body::Hex(32), 32),
    fmt("shppa_", Body::Hex(32), 32),
    fmt("glc_", Body::Base64Url, 32),
    fmt("glsa_", Body::Base64Url, 32),
    fmt("sq0atp-", Body::Base64Url, 22),
    fmt("sq0csp-", Body::Base64Url, 40),
    fmt("ya29.", Body::Base64Url, 30),
    fmt("lin_api_", Body::Base62, 40),
    fmt("ntn_", Body::Base62, 40),
    fmt("secret_", Body::Base62, 43),
    fmt("figd_", Body::Base64Url, 40),
    fmt("sntrys_", Body::Base64Url, 60),
    fmt("sntryu_", Body::Hex(64), 64),
    fmt("dckr_pat_", Body::Base64Url, 27),
    fmt("r8_", Body::Base62, 37),
    fmt("pplx-", Body::Base62, 48),
    fmt("nvapi-", Body::Base64Url, 60),
    fmt("key-", Body::Hex(32), 32),
    fmt("GOCSPX-", Body::Base64Url, 28),
    fmt("hvs.", Body::Base64Url, 24),
    fmt("hvb.", Body::Base64Url, 24),
    fmt("ATATT", Body::Base64Url, 100),
    Prefixed {
        prefix: "AGE-SECRET-KEY-1",
        body: Body::Bech32Upper,
        min: 58,
        kind: SecretKind::PrivateKey,
    },
];

fn base62(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

fn base64url(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// Handles a provider prefix found at `hit`.
pub(crate) fn token(bytes: &[u8], hit: usize, family: Family, found: &mut Findings) {
    if !matches!(family, Family::SlackWebhook | Family::Telegram)
        && hit > 0
        && is_alnum(bytes[hit - 1])
    {
        return;
    }
    let at = |prefix: &[u8]| starts_with_at(bytes, hit, prefix);
    match family {
        Family::Github => {
            if at(b"github_pat_") {
                let body = run_len(bytes, hit + 11, |b| base62(b) || b == b'_');
                if body >= 22 {
                    found.push(hit, hit + 11 + body, SecretKind::GithubToken);
                }
            } else if [b"ghp_", b"gho_", b"ghu_", b"ghs_", b"ghr_"]
                .iter()
                .any(|p| at(*p))
            {
                let body = run_len(bytes, hit + 4, base62);
                if body >= 36 {
                    found.push(hit, hit + 4 + body, SecretKind::GithubToken);
                }
            }
        }
        Family::Gitlab => {
            const PREFIXES: &[&[u8]] = &[
                b"glpat-",
                b"gldt-",
                b"glptt-",
                b"glrt-",
                b"glcbt-",
                b"glimt-",
                b"glagent-",
                b"gloas-",
                b"glsoat-",
                b"glffct-",
                b"GR1348941",
            ];
            if let Some(prefix) = PREFIXES.iter().find(|p| at(p)) {
                let body = run_len(bytes, hit + prefix.len(), base64url);
                if body >= 20 {
                    found.push(hit, hit + prefix.len() + body, SecretKind::GitlabToken);
                }
            }
        }
        Family::Slack => {
            let prefix_len = if at(b"xoxe.xoxp-") || at(b"xoxe.xoxb-") {
                10
            } else if at(b"xapp-")
                || (at(b"xox")
                    && bytes.get(hit + 3).is_some_and(|b| b"abposre".contains(b))
                    && bytes.get(hit + 4) == Some(&b'-'))
            {
                5
            } else {
                return;
            };
            let body = run_len(bytes, hit + prefix_len, |b| base62(b) || b == b'-');
            if body >= 10 {
                found.push(hit, hit + prefix_len + body, SecretKind::SlackToken);
            }
        }
        Family::SlackWebhook => {
            let path = hit + "hooks.slack.com/".len();
            let kinds: [&[u8]; 3] = [b"services/", b"workflows/", b"triggers/"];
            if let Some(kind) = kinds.iter().find(|k| starts_with_at(bytes, path, k)) {
                let start = path + kind.len();
                let body = run_len(bytes, start, |b| base64url(b) || b == b'/');
                if body >= 10 {
                    found.push(start, start + body, SecretKind::SlackToken);
                }
            }
        }
        Family::Stripe => {
            if at(b"whsec_") {
                let body = run_len(bytes, hit + 6, |b| base62(b) || b == b'+' || b == b'/');
                if body >= 20 {
                    found.push(hit, hit + 6 + body, SecretKind::StripeKey);
                }
            } else if [b"sk_live_", b"sk_test_", b"rk_live_", b"rk_test_"]
                .iter()
                .any(|p| at(*p))
            {
                let body = run_len(bytes, hit + 8, base62);
                if body >= 10 {
                    found.push(hit, hit + 8 + body, SecretKind::StripeKey);
                }
            }
        }
        Family::SkDash => {
            if !at(b"sk-") {
                return;
            }
            let body = run_len(bytes, hit + 3, base64url);
            if at(b"sk-ant-") {
                if body >= 24 {
                    found.push(hit, hit + 3 + body, SecretKind::AnthropicKey);
                }
                return;
            }
            let token = &bytes[hit + 3..hit + 3 + body];
            let mixed = token
                .iter()
                .any(|b| b.is_ascii_digit() || b.is_ascii_uppercase());
            if body >= 20 && mixed {
                found.push(hit, hit + 3 + body, SecretKind::OpenaiKey);
            }
        }
        Family::Google => {
            if at(b"AIza") {
                let body = run_len(bytes, hit + 4, base64url);
                if body >= 35 {
                    found.push(hit, hit + 4 + body, SecretKind::GoogleApiKey);
                }
            }
        }
        Family::Npm => {
            if at(b"npm_") {
                let body = run_len(bytes, hit + 4, base62);
                if body >= 36 {
                    found.push(hit, hit + 4 + body, SecretKind::NpmToken);
                }
            }
        }
        Family::Pypi => {
            if at(b"pypi-Ag") {
                let body = run_len(bytes, hit + 5, base64url);
                if body >= 50 {
                    found.push(hit, hit + 5 + body, SecretKind::PypiToken);
                }
            }
        }
        Family::Jwt => jwt(bytes, hit, found),
        Family::Prefixed => prefixed(bytes, hit, found),
        Family::SendGrid => {
            if at(b"SG.") {
                let first = run_len(bytes, hit + 3, base64url);
                let dot = hit + 3 + first;
                if first >= 16 && bytes.get(dot) == Some(&b'.') {
                    let second = run_len(bytes, dot + 1, base64url);
                    if second >= 30 {
                        found.push(hit, dot + 1 + second, SecretKind::ApiToken);
                    }
                }
            }
        }
        Family::Telegram => telegram(bytes, hit, found),
        Family::AwsKeyId => {
            let upper_digit = |b: u8| b.is_ascii_uppercase() || b.is_ascii_digit();
            let known = [b"AKIA", b"ASIA", b"ABIA", b"ACCA"].iter().any(|p| at(*p))
                || (at(b"A3T") && bytes.get(hit + 3).is_some_and(|&b| upper_digit(b)));
            if known
                && run_len(bytes, hit, upper_digit) == 20
                && !bytes.get(hit + 20).is_some_and(|&b| is_alnum(b))
            {
                found.push(hit, hit + 20, SecretKind::AwsAccessKeyId);
            }
        }
    }
}

/// A JWS (`<header>.<payload>.<signature>`) or JWE (five parts), base64url-encoded: the
/// header is a JSON object (`eyJ`, that is `{"`); the payload may be any JSON (`e30` is `{}`,
/// `WyJ` an array) or encrypted; an unsecured JWT has an empty signature.
fn jwt(bytes: &[u8], hit: usize, found: &mut Findings) {
    if !starts_with_at(bytes, hit, b"eyJ") {
        return;
    }
    let header = run_len(bytes, hit, base64url);
    if header < 10 {
        return;
    }
    let mut end = hit + header;
    let mut parts = 1;
    let mut longest_rest = 0;
    while parts < 5 && bytes.get(end) == Some(&b'.') {
        let len = run_len(bytes, end + 1, base64url);
        longest_rest = longest_rest.max(len);
        end += 1 + len;
        parts += 1;
    }
    // Two dots at least, and something after the header worth protecting: `eyJ...` followed
    // by `.` and a file extension is not a token.
    if parts >= 3 && longest_rest >= 2 {
        found.push(hit, end, SecretKind::Jwt);
    }
}

/// A token of [`PREFIXED`] at `hit`.
fn prefixed(bytes: &[u8], hit: usize, found: &mut Findings) {
    for f in PREFIXED {
        if !starts_with_at(bytes, hit, f.prefix.as_bytes()) {
            continue;
        }
        let start = hit + f.prefix.len();
        let body = match f.body {
            Body::Base62 => run_len(bytes, start, base62),
            Body::Base64Url => run_len(bytes, start, base64url),
            Body::Hex(_) => run_len(bytes, start, |b| b.is_ascii_hexdigit()),
            Body::Bech32Upper => run_len(bytes, start, |b| {
                b.is_ascii_uppercase() && !matches!(b, b'B' | b'I' | b'O')
                    || (b.is_ascii_digit() && b != b'1')
            }),
        };
        let fits = match f.body {
            Body::Hex(n) => body == n && !bytes.get(start + body).is_some_and(|&b| is_alnum(b)),
            _ => body >= f.min,
        };
        if fits {
            found.push(hit, start + body, f.kind);
            return;
        }
    }
}

/// `123456789:AA...`: a Telegram bot id, a colon and the token (found at the colon).
fn telegram(bytes: &[u8], colon: usize, found: &mut Findings) {
    if !starts_with_at(bytes, colon, b":AA") {
        return;
    }
    let digits = bytes[..colon]
        .iter()
        .rev()
        .take_while(|b| b.is_ascii_digit())
        .count();
    let start = colon - digits;
    if !(8..=10).contains(&digits) || (start > 0 && is_alnum(bytes[start - 1])) {
        return;
    }
    let body = run_len(bytes, colon + 1, base64url);
    if body >= 35 {
        found.push(start, colon + 1 + body, SecretKind::ApiToken);
    }
}
