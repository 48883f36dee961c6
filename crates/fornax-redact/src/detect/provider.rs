//! Tokens whose format names their issuer: AWS, GitHub, GitLab, Slack, Stripe, OpenAI,
//! Anthropic, Google, npm, PyPI, and JWTs. Each starts with a fixed prefix, found by the
//! trigger automaton; here the prefix's exact case and the body's length and alphabet are
//! checked.

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
}

fn base62(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

fn base64url(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'-'
}

/// Handles a provider prefix found at `hit`.
pub(crate) fn token(bytes: &[u8], hit: usize, family: Family, found: &mut Findings) {
    if family != Family::SlackWebhook && hit > 0 && is_alnum(bytes[hit - 1]) {
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

/// `eyJ<header>.eyJ<payload>.<signature>`: a JSON header and payload, base64url-encoded.
fn jwt(bytes: &[u8], hit: usize, found: &mut Findings) {
    if !starts_with_at(bytes, hit, b"eyJ") {
        return;
    }
    let header = run_len(bytes, hit, base64url);
    let dot = hit + header;
    if header < 10 || bytes.get(dot) != Some(&b'.') || !starts_with_at(bytes, dot + 1, b"eyJ") {
        return;
    }
    let payload = run_len(bytes, dot + 1, base64url);
    let dot2 = dot + 1 + payload;
    if payload < 10 || bytes.get(dot2) != Some(&b'.') {
        return;
    }
    let signature = run_len(bytes, dot2 + 1, base64url);
    found.push(hit, dot2 + 1 + signature, SecretKind::Jwt);
}
