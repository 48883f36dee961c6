//! Canary secrets shared by the integration tests.
//!
//! Every canary is built at run time from a seeded generator, so the source holds no string
//! that looks like a live credential, and every run plants the same values.

#![allow(dead_code)]

use fornax_redact::SecretKind;

/// A small deterministic generator (64-bit LCG).
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }

    /// `len` characters drawn from `alphabet`.
    pub fn string(&mut self, alphabet: &str, len: usize) -> String {
        let chars: Vec<char> = alphabet.chars().collect();
        (0..len)
            .map(|_| chars[(self.next() % chars.len() as u64) as usize])
            .collect()
    }
}

pub const UPPER_DIGITS: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
pub const BASE62: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
pub const BASE64: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
pub const BASE64URL: &str = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// A planted secret: the text to plant, the part of it that must never reach the output,
/// and the kind its placeholder must name.
#[derive(Debug, Clone)]
pub struct Canary {
    pub kind: SecretKind,
    pub planted: String,
    pub secret: String,
}

fn canary(kind: SecretKind, planted: String, secret: String) -> Canary {
    Canary {
        kind,
        planted,
        secret,
    }
}

/// A base62 string with at least one upper-case letter, lower-case letter and digit.
pub fn mixed62(rng: &mut Rng, len: usize) -> String {
    loop {
        let s = rng.string(BASE62, len);
        let ok = s.bytes().any(|b| b.is_ascii_uppercase())
            && s.bytes().any(|b| b.is_ascii_lowercase())
            && s.bytes().any(|b| b.is_ascii_digit());
        if ok {
            return s;
        }
    }
}

/// One canary of every detector kind (some kinds in more than one shape).
pub fn canaries() -> Vec<Canary> {
    let mut rng = Rng::new(0x5eed);
    let mut out = Vec::new();

    let body: Vec<String> = (0..4).map(|_| rng.string(BASE64, 64)).collect();
    let pem = format!(
        "-----BEGIN OPENSSH PRIVATE KEY-----\n{}\n-----END OPENSSH PRIVATE KEY-----",
        body.join("\n")
    );
    out.push(canary(SecretKind::PrivateKey, pem, body[1].clone()));

    let id = format!("AKIA{}", rng.string("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16));
    out.push(canary(
        SecretKind::AwsAccessKeyId,
        format!("aws key id {id} in use"),
        id,
    ));

    let secret = loop {
        let s = rng.string(BASE64, 40);
        if s.contains('/') || s.contains('+') {
            break s;
        }
    };
    out.push(canary(
        SecretKind::AwsSecretKey,
        format!("aws_secret_access_key = {secret}"),
        secret,
    ));

    let gh = format!("ghp_{}", mixed62(&mut rng, 36));
    out.push(canary(
        SecretKind::GithubToken,
        format!("remote uses {gh} today"),
        gh,
    ));
    let pat = format!(
        "github_pat_11{}_{}",
        mixed62(&mut rng, 20),
        mixed62(&mut rng, 59)
    );
    out.push(canary(SecretKind::GithubToken, format!("token {pat}"), pat));
    let gho = format!("gho_{}", mixed62(&mut rng, 36));
    out.push(canary(SecretKind::GithubToken, gho.clone(), gho));

    let gl = format!("glpat-{}", rng.string(BASE64URL, 20));
    out.push(canary(
        SecretKind::GitlabToken,
        format!("use {gl} for ci"),
        gl,
    ));

    let slack = format!(
        "xoxb-{}-{}-{}",
        rng.string("0123456789", 12),
        rng.string("0123456789", 13),
        mixed62(&mut rng, 24)
    );
    out.push(canary(
        SecretKind::SlackToken,
        format!("bot {slack}"),
        slack,
    ));

    let stripe = format!("sk_live_{}", mixed62(&mut rng, 24));
    out.push(canary(
        SecretKind::StripeKey,
        format!("stripe: {stripe}"),
        stripe,
    ));

    let openai = format!("sk-proj-{}", rng.string(BASE64URL, 48));
    out.push(canary(
        SecretKind::OpenaiKey,
        format!("key {openai}"),
        openai,
    ));

    let anthropic = format!("sk-ant-api03-{}", rng.string(BASE64URL, 93));
    out.push(canary(
        SecretKind::AnthropicKey,
        format!("key {anthropic}"),
        anthropic,
    ));

    let google = format!("AIza{}", rng.string(BASE64URL, 35));
    out.push(canary(
        SecretKind::GoogleApiKey,
        format!("maps {google}"),
        google,
    ));

    let npm = format!("npm_{}", mixed62(&mut rng, 36));
    out.push(canary(
        SecretKind::NpmToken,
        format!("//registry.npmjs.org/ {npm}"),
        npm,
    ));

    let pypi = format!("pypi-AgEIcHlwaS5vcmc{}", rng.string(BASE64URL, 70));
    out.push(canary(
        SecretKind::PypiToken,
        format!("upload with {pypi}"),
        pypi,
    ));

    let hf = format!("hf_{}", mixed62(&mut rng, 34));
    out.push(canary(
        SecretKind::ApiToken,
        format!("HF_TOKEN {hf} for the hub"),
        hf,
    ));

    let jwt = format!(
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ{}.{}",
        rng.string(BASE64URL, 40),
        rng.string(BASE64URL, 43)
    );
    out.push(canary(
        SecretKind::Jwt,
        format!("cookie session={jwt};"),
        jwt,
    ));

    let bearer = mixed62(&mut rng, 32);
    out.push(canary(
        SecretKind::Authorization,
        format!("Authorization: Bearer {bearer}"),
        bearer,
    ));

    let url_pw = format!("pw{}", rng.string(BASE62, 10));
    out.push(canary(
        SecretKind::UrlCredentials,
        format!("postgres://app:{url_pw}@db.internal:5432/app"),
        url_pw,
    ));

    // Short values too.
    let short = format!("hx{}", rng.string("abcdefghijklmnopqrstuvwxyz", 5));
    out.push(canary(
        SecretKind::SecretAssignment,
        format!("DB_PASSWORD={short}"),
        short,
    ));

    let cli = format!("q{}", rng.string("abcdefghijklmnopqrstuvwxyz0123456789", 7));
    out.push(canary(
        SecretKind::CliPassword,
        format!("mysql -u root -p{cli} app"),
        cli,
    ));
    let flag = format!("f{}", rng.string("abcdefghijklmnopqrstuvwxyz0123456789", 7));
    out.push(canary(
        SecretKind::CliPassword,
        format!("vault login --password {flag}"),
        flag,
    ));

    let random = mixed62(&mut rng, 32);
    out.push(canary(
        SecretKind::HighEntropy,
        format!("the value {random} was set"),
        random,
    ));

    out
}
