//! The detectors, and the one automaton that finds where they need to look.
//!
//! Most text holds no secret, so detection is two linear passes: an Aho-Corasick automaton
//! over short trigger literals (secret-name keywords, token prefixes, `://`, `-----BEGIN`,
//! tool names), each hit handed to its detector for a local check; and one byte-class loop
//! that measures entropy only on runs of token characters long enough to be credentials.

mod assignment;
mod authorization;
mod cli;
pub(crate) mod entropy;
mod literal;
mod pem;
mod pgpass;
mod provider;
mod url;
pub(crate) mod value;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, AhoCorasickKind, MatchKind};

use crate::bytes::contains_placeholder;
use crate::span::{Findings, Protected, Span};
use provider::Family;

pub(crate) use authorization::header_value as authorization_value;
pub(crate) use literal::is_placeholder_word;

/// What a trigger literal hands its hit to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Detector {
    /// A word that ends secret names: the name around it and what is assigned to it.
    Keyword,
    /// `Bearer` / `Basic` credentials.
    Scheme,
    Url,
    Pem,
    Provider(Family),
    Tool,
    /// A port field of a `.pgpass` line.
    PgPass,
    /// A sign-in call (`login(`, `authenticate(`) with literal arguments.
    SignIn,
}

const TRIGGERS: &[(&str, Detector)] = &[
    ("pass", Detector::Keyword),
    ("pwd", Detector::Keyword),
    ("secret", Detector::Keyword),
    ("token", Detector::Keyword),
    ("key", Detector::Keyword),
    ("auth", Detector::Keyword),
    ("credential", Detector::Keyword),
    ("sig", Detector::Keyword),
    ("pin", Detector::Keyword),
    ("bearer", Detector::Scheme),
    ("basic", Detector::Scheme),
    ("://", Detector::Url),
    ("-----begin", Detector::Pem),
    ("ghp_", Detector::Provider(Family::Github)),
    ("gho_", Detector::Provider(Family::Github)),
    ("ghu_", Detector::Provider(Family::Github)),
    ("ghs_", Detector::Provider(Family::Github)),
    ("ghr_", Detector::Provider(Family::Github)),
    ("github_pat_", Detector::Provider(Family::Github)),
    ("glpat-", Detector::Provider(Family::Gitlab)),
    ("gldt-", Detector::Provider(Family::Gitlab)),
    ("glptt-", Detector::Provider(Family::Gitlab)),
    ("glrt-", Detector::Provider(Family::Gitlab)),
    ("glcbt-", Detector::Provider(Family::Gitlab)),
    ("glimt-", Detector::Provider(Family::Gitlab)),
    ("glagent-", Detector::Provider(Family::Gitlab)),
    ("gloas-", Detector::Provider(Family::Gitlab)),
    ("glsoat-", Detector::Provider(Family::Gitlab)),
    ("glffct-", Detector::Provider(Family::Gitlab)),
    ("gr1348941", Detector::Provider(Family::Gitlab)),
    ("xox", Detector::Provider(Family::Slack)),
    ("xapp-", Detector::Provider(Family::Slack)),
    ("hooks.slack.com/", Detector::Provider(Family::SlackWebhook)),
    ("sk_live_", Detector::Provider(Family::Stripe)),
    ("sk_test_", Detector::Provider(Family::Stripe)),
    ("rk_live_", Detector::Provider(Family::Stripe)),
    ("rk_test_", Detector::Provider(Family::Stripe)),
    ("whsec_", Detector::Provider(Family::Stripe)),
    ("sk-", Detector::Provider(Family::SkDash)),
    ("aiza", Detector::Provider(Family::Google)),
    ("npm_", Detector::Provider(Family::Npm)),
    ("pypi-ag", Detector::Provider(Family::Pypi)),
    ("eyj", Detector::Provider(Family::Jwt)),
    ("akia", Detector::Provider(Family::AwsKeyId)),
    ("asia", Detector::Provider(Family::AwsKeyId)),
    ("abia", Detector::Provider(Family::AwsKeyId)),
    ("acca", Detector::Provider(Family::AwsKeyId)),
    ("a3t", Detector::Provider(Family::AwsKeyId)),
    ("sg.", Detector::Provider(Family::SendGrid)),
    (":aa", Detector::Provider(Family::Telegram)),
    ("login(", Detector::SignIn),
    ("log_in(", Detector::SignIn),
    ("signin(", Detector::SignIn),
    ("sign_in(", Detector::SignIn),
    ("authenticate(", Detector::SignIn),
    (":5432:", Detector::PgPass),
    (":5433:", Detector::PgPass),
    (":6432:", Detector::PgPass),
    (":*:", Detector::PgPass),
    ("mysql", Detector::Tool),
    ("mariadb", Detector::Tool),
    ("sshpass", Detector::Tool),
    ("redis-cli", Detector::Tool),
    ("mongo", Detector::Tool),
    ("ldap", Detector::Tool),
    ("sqlcmd", Detector::Tool),
    ("curl", Detector::Tool),
    ("login", Detector::Tool),
    ("zip", Detector::Tool),
    ("7z", Detector::Tool),
    ("smbclient", Detector::Tool),
];

/// Every trigger literal with its detector: [`TRIGGERS`] and the prefixes of
/// [`provider::PREFIXED`] (lower-cased; the automaton ignores case).
fn triggers() -> Vec<(String, Detector)> {
    let mut all: Vec<(String, Detector)> = TRIGGERS
        .iter()
        .map(|(literal, d)| (literal.to_string(), *d))
        .collect();
    for f in provider::PREFIXED {
        let literal = f.prefix.to_ascii_lowercase();
        if !all.iter().any(|(l, _)| *l == literal) {
            all.push((literal, Detector::Provider(Family::Prefixed)));
        }
    }
    all
}

/// The compiled trigger automaton. Built once per [`Redactor`](crate::Redactor).
#[derive(Debug, Clone)]
pub(crate) struct Detectors {
    triggers: AhoCorasick,
    detectors: Vec<Detector>,
}

impl Detectors {
    pub fn new() -> Self {
        let (literals, detectors): (Vec<String>, Vec<Detector>) = triggers().into_iter().unzip();
        let triggers = AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            // Every occurrence, overlapping ones too: a trigger that ends where another begins
            // (`data3token` holds `a3t` and `token`) must not hide it.
            .match_kind(MatchKind::Standard)
            // A few dozen short literals make a small DFA: the fastest scan, built once. Its
            // prefilter only slows it down here, since many literals start with common letters.
            .kind(Some(AhoCorasickKind::DFA))
            .prefilter(false)
            .build(&literals)
            .expect("a few dozen short literals always build an automaton");
        Detectors {
            triggers,
            detectors,
        }
    }

    /// Every detection in `text`, unmerged.
    pub fn find(&self, text: &str, found: &mut Findings) {
        let bytes = text.as_bytes();
        for m in self.triggers.find_overlapping_iter(text) {
            let Some(&detector) = self.detectors.get(m.pattern().as_usize()) else {
                continue;
            };
            match detector {
                Detector::Keyword => assignment::keyword(text, m.start(), found),
                Detector::Scheme => authorization::scheme_word(bytes, m.start(), m.end(), found),
                Detector::Url => url::credentials(bytes, m.start(), found),
                Detector::Pem => pem::block(bytes, m.start(), found),
                Detector::Provider(family) => provider::token(bytes, m.start(), family, found),
                Detector::Tool => cli::tool(bytes, m.start(), found),
                Detector::PgPass => pgpass::line(bytes, m.start(), found),
                Detector::SignIn => assignment::sign_in_call(bytes, m.start(), m.end(), found),
            }
        }
        // A detection that would swallow a placeholder reads text an earlier pass already
        // redacted (its bounds were found around the placeholder, not the original secret):
        // dropping it keeps redaction idempotent.
        found
            .spans
            .retain(|s| !contains_placeholder(&bytes[s.start..s.end]));
        // Entropy is judged only outside what the other detectors found, so that the runs it
        // sees do not change once those become placeholders.
        let protected = std::mem::take(&mut found.protected);
        let mut blocked: Vec<(usize, usize)> = protected
            .iter()
            .filter_map(|p| public_extent(bytes, p, &found.spans))
            .collect();
        blocked.extend(found.spans.iter().map(|s| (s.start, s.end)));
        blocked.sort_unstable();
        if !found.skip_entropy {
            entropy::scan(bytes, &merge_ranges(blocked), found);
        }
    }
}

/// How far a public block (a certificate) extends once the detections are placeholders: a
/// detection inside it cuts it short exactly where a second pass would see it end (at the
/// placeholder), and one over its start or header leaves no block at all.
fn public_extent(bytes: &[u8], block: &Protected, spans: &[Span]) -> Option<(usize, usize)> {
    let mut end = block.end;
    for s in spans {
        if s.start < end && block.start < s.end {
            if s.start < block.body {
                return None;
            }
            end = end.min(s.start);
        }
    }
    if end == block.end {
        return Some((block.start, end));
    }
    pem::truncated_end(bytes, block.body, end).map(|e| (block.start, e))
}

/// Sorted ranges merged into disjoint ones.
fn merge_ranges(ranges: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::with_capacity(ranges.len());
    for (s, e) in ranges {
        match out.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => out.push((s, e)),
        }
    }
    out
}
