//! Which names (variables, keys, flags, headers) hold secrets.
//!
//! A name is judged by how it ends, after lower-casing and dropping separators, so that
//! `DB_PASSWORD`, `dbPassword`, `db-password` and `PGPASSWORD` are all passwords while
//! `password_file`, `max_tokens` and `token_count` are not: what matters is what the value
//! *is*, and the last word of a name says that.

/// What a secret-holding name says about its value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NameClass {
    /// The value is a secret (`password`, `api_key`, `GITHUB_TOKEN`).
    Secret,
    /// The value is an AWS secret access key (`aws_secret_access_key`).
    AwsSecret,
    /// The value is an HTTP authorization header value (`Authorization`).
    Authorization,
    /// A signature (`X-Amz-Signature`, `Signature`, `sig`): a credential in a signed URL's
    /// query string (`Signature=...`), where it grants access; elsewhere (a JSON field, a
    /// thinking block's `signature`) a signature is derived from a message and grants nothing.
    Signature,
}

/// Normalized endings that name a secret.
const SECRET_SUFFIXES: &[&str] = &[
    "password",
    "passwd",
    "passphrase",
    "secret",
    "token",
    "apikey",
    "accesskey",
    "secretkey",
    "privatekey",
    "signingkey",
    "encryptionkey",
    "masterkey",
    "authkey",
    "clientkey",
    "credential",
    "credentials",
    "secretkeybase",
    "accountkey",
    "sharedkey",
    "passcode",
];

/// Normalized endings that look like a secret name but name something public: tokenizer
/// vocabulary, pagination cursors, cancellation handles.
const NOT_SECRET_SUFFIXES: &[&str] = &[
    "pagetoken",
    "nexttoken",
    "cancellationtoken",
    "continuationtoken",
    "synctoken",
    "maxtoken",
    "bostoken",
    "eostoken",
    "padtoken",
    "unktoken",
    "septoken",
    "clstoken",
    "masktoken",
    "starttoken",
    "endtoken",
    "specialtoken",
    "nopassword",
];

/// Last words that name a secret only after a qualifier (`DB_PASS`, `smtp_pwd`), because
/// alone they are too often something else (`pass` a counter, `PWD` the working directory).
const QUALIFIED_LAST_WORDS: &[&str] = &["pass", "pwd", "pw"];

/// Classifies a name such as `DB_PASSWORD`, `x-api-key`, `"client_secret"` (without quotes)
/// or `password` (a flag without its dashes).
pub(crate) fn classify(name: &str) -> Option<NameClass> {
    // A placeholder (a JSON key or a `name` value that was itself a secret) names nothing.
    if name.as_bytes().contains(&b'[') && name.contains(crate::kind::PLACEHOLDER_PREFIX) {
        return None;
    }
    let mut norm = [0u8; 64];
    let mut len = 0;
    for b in name.bytes() {
        if b.is_ascii_alphanumeric() {
            if len == norm.len() {
                // Only the ending matters: keep the last 64 normalized bytes.
                norm.copy_within(1.., 0);
                len -= 1;
            }
            norm[len] = b.to_ascii_lowercase();
            len += 1;
        }
    }
    let norm = &norm[..len];
    if norm.is_empty() {
        return None;
    }
    // A PIN only as the whole name (`pin`, `PIN`, `pin_code`): `spin`, `mapping` are not.
    if matches!(norm, b"pin" | b"pincode" | b"pinnumber") {
        return Some(NameClass::Secret);
    }
    if norm.ends_with(b"signature") {
        return Some(NameClass::Signature);
    }
    // Every secret suffix ends in one of these letters; most names are dismissed here.
    if matches!(
        norm.last(),
        Some(b'd' | b'e' | b't' | b'n' | b'y' | b's' | b'l')
    ) {
        if norm.ends_with(b"authorization") {
            return Some(NameClass::Authorization);
        }
        if SECRET_SUFFIXES.iter().any(|s| norm.ends_with(s.as_bytes()))
            && !NOT_SECRET_SUFFIXES
                .iter()
                .any(|s| norm.ends_with(s.as_bytes()))
        {
            if contains(norm, b"aws") && contains(norm, b"secret") {
                return Some(NameClass::AwsSecret);
            }
            return Some(NameClass::Secret);
        }
    }
    // The word-based names below end in `auth`, `pass`, `pwd`, `pw` or `sig`.
    if !matches!(norm.last(), Some(b'h' | b's' | b'd' | b'w' | b'g')) {
        return None;
    }
    let (words, last) = last_word(name);
    if last.eq_ignore_ascii_case("auth") {
        return Some(NameClass::Secret);
    }
    // `sig=` of a shared-access-signature URL.
    if words == 1 && last.eq_ignore_ascii_case("sig") {
        return Some(NameClass::Signature);
    }
    if words >= 2
        && QUALIFIED_LAST_WORDS
            .iter()
            .any(|w| last.eq_ignore_ascii_case(w))
    {
        return Some(NameClass::Secret);
    }
    None
}

/// Whether a name declares that its value is an identifier, a digest or an opaque blob
/// (`documentId`, `SPREADSHEET_ID`, `event_id`, `sha`, `etag`, `signature`,
/// `encrypted_content`, `reasoningOpaque`): such a value is not judged by its randomness.
/// Session ids are not among them: a session id is a credential.
pub(crate) fn declares_identifier(name: &[u8]) -> bool {
    let norm: Vec<u8> = name
        .iter()
        .filter(|b| b.is_ascii_alphanumeric())
        .map(u8::to_ascii_lowercase)
        .collect();
    const ENDINGS: &[&[u8]] = &[
        b"id",
        b"ids",
        b"uuid",
        b"guid",
        b"hash",
        b"sha",
        b"digest",
        b"checksum",
        b"etag",
        b"signature",
        b"encryptedcontent",
        b"ciphertext",
        b"opaque",
        b"fingerprint",
        b"integrity",
        b"oid",
        b"cid",
        b"commit",
        b"revision",
        b"nonce",
    ];
    let session = norm.ends_with(b"sessionid") || norm == b"sid" || norm.ends_with(b"sessid");
    // `key_id` names a key's identifier; `apikey`, `secret` never end with these.
    !session && norm.len() >= 2 && ENDINGS.iter().any(|e| norm.ends_with(e))
}

/// Flag spellings that name a password only as flags (`--pass`, openssl's `-passin`).
pub(crate) fn is_flag_only_secret(name: &str) -> bool {
    ["pass", "pw", "pwd", "passin", "passout"]
        .iter()
        .any(|w| name.eq_ignore_ascii_case(w))
}

/// The number of words in `name` and its last word. Words are split at non-alphanumeric
/// characters and at lower-to-upper case changes (`dbPass` is `db`, `Pass`).
fn last_word(name: &str) -> (usize, &str) {
    let bytes = name.as_bytes();
    let mut words = 0;
    let mut start = None;
    let mut last = "";
    for i in 0..=bytes.len() {
        let b = bytes.get(i).copied();
        let alnum = b.is_some_and(|b| b.is_ascii_alphanumeric());
        let camel_break = alnum
            && i > 0
            && b.is_some_and(|b| b.is_ascii_uppercase())
            && bytes[i - 1].is_ascii_lowercase();
        if let Some(s) = start {
            if !alnum || camel_break {
                words += 1;
                last = &name[s..i];
                start = None;
            }
        }
        if alnum && start.is_none() {
            start = Some(i);
        }
    }
    (words, last)
}

fn contains(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_names() {
        for name in [
            "password",
            "PASSWORD",
            "DB_PASSWORD",
            "dbPassword",
            "db-password",
            "PGPASSWORD",
            "passwd",
            "passphrase",
            "client_secret",
            "SECRET",
            "GITHUB_TOKEN",
            "access_token",
            "refreshToken",
            "_authToken",
            "api_key",
            "apiKey",
            "x-api-key",
            "X-API-KEY",
            "OPENAI_API_KEY",
            "private_key",
            "secret_key",
            "DB_PASS",
            "smtpPass",
            "MYSQL_PWD",
            "auth",
            "basic_auth",
            "credentials",
            "spring.datasource.password",
            "pin",
            "PIN",
            "pin_code",
            "AccountKey",
            "passcode",
        ] {
            assert!(
                matches!(classify(name), Some(NameClass::Secret)),
                "{name} should name a secret"
            );
        }
    }

    #[test]
    fn public_names() {
        for name in [
            "key",
            "max_tokens",
            "input_tokens",
            "token_count",
            "TOKEN_LIMIT",
            "tokenizer",
            "next_page_token",
            "eos_token",
            "cancellationToken",
            "password_file",
            "PASSWORD_HASH",
            "pass",
            "PWD",
            "OLDPWD",
            "bypass",
            "passed",
            "public_key",
            "primary_key",
            "cache_key",
            "secret_name",
            "GIT_ASKPASS",
            "SSH_AUTH_SOCK",
            "author",
            "spin",
            "mapping",
            "",
            "--",
        ] {
            assert_eq!(classify(name), None, "{name} should not name a secret");
        }
    }

    #[test]
    fn special_classes() {
        assert_eq!(
            classify("aws_secret_access_key"),
            Some(NameClass::AwsSecret)
        );
        assert_eq!(
            classify("AWS_SECRET_ACCESS_KEY"),
            Some(NameClass::AwsSecret)
        );
        assert_eq!(classify("Authorization"), Some(NameClass::Authorization));
        assert_eq!(
            classify("Proxy-Authorization"),
            Some(NameClass::Authorization)
        );
        assert_eq!(
            classify("HTTP_AUTHORIZATION"),
            Some(NameClass::Authorization)
        );
        for name in ["X-Amz-Signature", "Signature", "sig", "thinkingSignature"] {
            assert_eq!(classify(name), Some(NameClass::Signature), "{name}");
        }
    }

    #[test]
    fn very_long_names_are_judged_by_their_ending() {
        let name = format!("{}_PASSWORD", "X".repeat(500));
        assert_eq!(classify(&name), Some(NameClass::Secret));
    }
}
