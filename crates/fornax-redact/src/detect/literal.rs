//! Whether a value found after a secret name is a literal secret, or code, a type, a
//! reference, a mask or an example standing where a secret would be.
//!
//! Transcripts are full of code that names secrets without holding one
//! (`password = os.environ["DB_PASSWORD"]`, `token: string`, `connect(password=password)`) and
//! of documentation with examples (`API_KEY=your_key_here`, `sk-ant-...`). Redacting those
//! would damage the code an agent read or wrote and teach nothing; missing a literal would
//! leak it. These tests decide, and err toward redacting when unsure.

use crate::detect::value::ends_token;

/// Words that follow a flag in prose ("use the --password flag"), never a password.
pub(super) fn is_flag_stopword(lower: &[u8]) -> bool {
    const WORDS: &[&[u8]] = &[
        b"flag",
        b"flags",
        b"option",
        b"options",
        b"argument",
        b"arguments",
        b"parameter",
        b"and",
        b"or",
        b"to",
        b"is",
        b"was",
        b"the",
        b"a",
        b"an",
        b"in",
        b"on",
        b"with",
        b"for",
        b"of",
        b"if",
        b"when",
        b"which",
        b"that",
        b"instead",
        b"value",
        b"is:",
    ];
    WORDS.contains(&lower)
}

/// Values that are code (`os.environ["X"]`, `getpass()`, `password`, `%s`), types (`string`),
/// literals (`null`, `true`), masks (`***`) or examples (`sk-...`, `your_key_here`), not secrets.
pub(super) fn is_code_or_placeholder(value: &[u8], name: &str) -> bool {
    let first_word_end = value
        .iter()
        .position(|b| b.is_ascii_whitespace())
        .unwrap_or(value.len());
    let first = &value[..first_word_end];
    if matches!(
        value[0],
        b'(' | b'{'
            | b'['
            | b'<'
            | b'!'
            | b'*'
            | b'&'
            | b'@'
            | b'/'
            | b'~'
            | b'-'
            | b'.'
            | b'|'
            | b'>'
            // A format directive (`printf("token: %d\n", ...)`).
            | b'%'
    ) {
        return true;
    }
    let lower_first = first.to_ascii_lowercase();
    if first.len() == value.len() && is_placeholder_word(&lower_first) {
        return true;
    }
    if is_type_or_keyword(&lower_first) || is_expression(first) || is_same_name(first, name) {
        return true;
    }
    if is_prose(value) || is_store_path(value) || is_format_directive(value) {
        return true;
    }
    // Code on the right of the operator: `apiKey || options.apiKey`, `a ? b : c`.
    const OPERATORS: &[&[u8]] = &[b" || ", b" && ", b" ?? ", b" ? ", b" + ", b" => "];
    OPERATORS
        .iter()
        .any(|op| value.windows(op.len()).any(|w| w == *op))
}

/// Literal words, masks and examples that stand where a secret would be.
pub(crate) fn is_placeholder_word(lower: &[u8]) -> bool {
    const WORDS: &[&[u8]] = &[
        b"true",
        b"false",
        b"null",
        b"none",
        b"nil",
        b"undefined",
        b"yes",
        b"no",
        b"on",
        b"off",
        b"required",
        b"optional",
        b"string",
        b"str",
        b"include",
        b"omit",
        b"same-origin",
        b"redacted",
        b"hidden",
        b"masked",
        b"empty",
        b"unset",
        b"token",
        b"bearer",
        b"basic",
        b"oauth",
        b"password",
        b"secret",
        b"apikey",
        b"api_key",
        b"api-key",
        b"key",
        b"env",
        b"environment",
    ];
    const EXAMPLE_MARKERS: &[&[u8]] = &[
        b"your",
        b"example",
        b"placeholder",
        b"_here",
        b"-here",
        b"dummy",
        b"changeme",
        b"change_me",
        b"change-me",
        b"changeit",
        b"replace_me",
        b"replaceme",
        b"replace-me",
    ];
    // `mypassword`, `my-secret`, `my_token`: the example a tutorial writes.
    let mine = lower
        .strip_prefix(b"my")
        .map(|rest| {
            rest.strip_prefix(b"_")
                .or(rest.strip_prefix(b"-"))
                .unwrap_or(rest)
        })
        .is_some_and(|rest| WORDS.contains(&rest) || rest == b"pass");
    // `[REDACTED]`, `<hidden>`, `(none)`, `{{ secret }}`: a mark standing for the value.
    let bracketed = lower.len() >= 2
        && matches!(
            (lower[0], lower[lower.len() - 1]),
            (b'[', b']') | (b'<', b'>') | (b'(', b')') | (b'{', b'}')
        );
    if lower.is_empty()
        || mine
        || bracketed
        || is_format_directive(lower)
        || WORDS.contains(&lower)
        || lower.iter().all(|&b| b == b'*' || b == b'.')
        || (lower.len() >= 3 && lower.iter().all(|&b| b == b'x'))
        || lower.ends_with(b"...")
        || lower.ends_with("…".as_bytes())
        || (lower.starts_with(b"<") && lower.ends_with(b">"))
    {
        return true;
    }
    // A marker names an example written in words (`your_api_key_here`, `example-token`); a
    // long random value that happens to contain one (`...bPxRfiCYEXAMPLEKEY`) is a key.
    let wordy = lower.len() < 24
        || lower
            .iter()
            .all(|b| b.is_ascii_lowercase() || matches!(b, b'_' | b'-' | b'.' | b' '));
    wordy
        && EXAMPLE_MARKERS
            .iter()
            .any(|m| lower.windows(m.len()).any(|w| w == *m))
}

/// The length of a string literal's prefix before its quote (`f"`, `rb'`, `u"`), or 0.
pub(crate) fn string_prefix_len(bytes: &[u8], i: usize) -> usize {
    let letters = bytes[i.min(bytes.len())..]
        .iter()
        .take(3)
        .take_while(|b| matches!(b.to_ascii_lowercase(), b'f' | b'r' | b'b' | b'u'))
        .count();
    let quoted = bytes
        .get(i + letters)
        .is_some_and(|&b| b == b'"' || b == b'\'');
    if (1..=2).contains(&letters) && quoted {
        letters
    } else {
        0
    }
}

/// A Markdown code span's content that is code rather than one literal: a call, a
/// signature, an expression (`parse(s: str) -> dict`, `Auth.token()`, `a[b]`).
pub(crate) fn is_code_span(value: &[u8]) -> bool {
    const MARKS: &[&[u8]] = &[b"(", b")", b" ", b"<", b"[", b"{", b"=", b"::", b"->", b","];
    MARKS
        .iter()
        .any(|m| value.windows(m.len()).any(|w| w == *m))
        || value
            .windows(2)
            .any(|w| w[0] == b'.' && w[1].is_ascii_alphabetic())
}

/// A value that reads as a sentence (`the bearer token, see `Auth.token()`.`): three words
/// or more with a function word among them, or prose around a code span. A passphrase of
/// plain words (`correct horse battery staple`) has none and stays a secret.
pub(crate) fn is_prose(value: &[u8]) -> bool {
    const FUNCTION_WORDS: &[&[u8]] = &[
        b"the", b"a", b"an", b"to", b"of", b"with", b"see", b"for", b"and", b"or", b"is", b"are",
        b"be", b"in", b"on", b"from", b"by", b"as", b"it", b"this", b"that", b"your", b"our",
        b"their", b"when", b"if", b"not", b"no", b"use", b"set", b"will", b"must", b"should",
        b"can", b"here", b"used", b"which",
    ];
    let words: Vec<&[u8]> = value
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() < 3 {
        return false;
    }
    value.contains(&b'`')
        || words.iter().any(|w| {
            let w: Vec<u8> = w
                .iter()
                .filter(|b| b.is_ascii_alphabetic())
                .map(u8::to_ascii_lowercase)
                .collect();
            FUNCTION_WORDS.contains(&w.as_slice())
        })
}

/// A path in a secret store naming where a secret lives (`prod/db/password`,
/// `kv/data/payments/stripe`): lower-case word segments, not a random string with slashes.
pub(crate) fn is_store_path(value: &[u8]) -> bool {
    let segments: Vec<&[u8]> = value.split(|&b| b == b'/').collect();
    segments.len() >= 2
        && segments.iter().all(|seg| {
            !seg.is_empty()
                && seg.iter().all(|&b| {
                    b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'_' | b'.')
                })
        })
        && segments.iter().any(|seg| {
            let (share, word_letters) = crate::detect::entropy::wordiness(seg);
            share.is_some_and(|s| s >= 0.6) || (seg.len() >= 3 && word_letters == seg.len())
        })
}

/// A format string's directives standing where a value will be (`%s`, `%-20s`, `%.*s`,
/// `%08x`, `%(password)s`, `{}`, `{0}`, `{:?}`, `{token}`, `${token}`, `#{token}`,
/// `%{token}`), possibly several with punctuation between them.
pub(crate) fn is_format_directive(value: &[u8]) -> bool {
    let mut i = 0;
    let mut directives = 0;
    while i < value.len() {
        let rest = &value[i..];
        let len = if rest[0] == b'%' {
            percent_directive(rest)
        } else if matches!(rest[0], b'$' | b'#') && rest.get(1) == Some(&b'{') {
            brace_directive(&rest[1..]).map(|n| n + 1)
        } else if rest[0] == b'{' {
            brace_directive(rest)
        } else if rest[0].is_ascii_punctuation() || rest[0] == b' ' {
            i += 1;
            continue;
        } else {
            None
        };
        match len {
            Some(n) => {
                i += n;
                directives += 1;
            }
            None => return false,
        }
    }
    directives > 0
}

/// `%s`, `%-20s`, `%.*s`, `%08x`, `%(name)s`, `%{name}`: its length.
fn percent_directive(rest: &[u8]) -> Option<usize> {
    let mut i = 1;
    if rest.get(1) == Some(&b'(') || rest.get(1) == Some(&b'{') {
        let close = if rest[1] == b'(' { b')' } else { b'}' };
        i = 2 + rest[2..].iter().position(|&b| b == close)? + 1;
        if close == b'}' {
            return Some(i);
        }
    }
    while rest.get(i).is_some_and(|b| {
        b.is_ascii_digit()
            || matches!(
                b,
                b'-' | b'+' | b' ' | b'#' | b'.' | b'*' | b'l' | b'h' | b'z'
            )
    }) {
        i += 1;
    }
    rest.get(i)
        .is_some_and(|b| b"sdifuxXoceEgGpqQrvtTwa%".contains(b))
        .then_some(i + 1)
}

/// `{}`, `{0}`, `{:?}`, `{token}`, `{self.token}`, `{{token}}`: its length.
fn brace_directive(rest: &[u8]) -> Option<usize> {
    let double = rest.starts_with(b"{{");
    let open = if double { 2 } else { 1 };
    let body_len = rest[open..].iter().position(|&b| b == b'}')?;
    let body = &rest[open..open + body_len];
    let ok = body.len() <= 64
        && body.iter().all(|&b| {
            b.is_ascii_alphanumeric() || b"_.:?#<>^+-*[]'\" ()|".contains(&b) || b == b' '
        });
    let close = if double { 2 } else { 1 };
    (ok && rest.get(open + body_len..open + body_len + close)
        == Some(if double { &b"}}"[..] } else { &b"}"[..] }))
    .then_some(open + body_len + close)
}

/// An environment variable's name given as the value (`"apiKey": "OLLAMA_API_KEY"`): the
/// setting names where the secret lives.
pub(super) fn is_variable_name(value: &[u8]) -> bool {
    value.len() >= 3
        && value[0].is_ascii_uppercase()
        && value.contains(&b'_')
        && value
            .iter()
            .all(|&b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
}

/// Type names and keywords that follow a name in code (`password: string`,
/// `token: Option<String>`, `const token = await ...`).
fn is_type_or_keyword(lower: &[u8]) -> bool {
    const WORDS: &[&[u8]] = &[
        b"string",
        b"str",
        b"&str",
        b"number",
        b"int",
        b"integer",
        b"bool",
        b"boolean",
        b"any",
        b"unknown",
        b"bytes",
        b"object",
        b"dict",
        b"list",
        b"text",
        b"varchar",
        b"char",
        b"secretstr",
        b"secretstring",
        b"await",
        b"new",
        b"function",
        b"lambda",
        b"async",
        b"this",
        b"self",
        b"none",
        b"null",
        b"nil",
        b"undefined",
        b"true",
        b"false",
        b"string,",
        b"string;",
        b"str,",
        b"optional",
        b"option",
        b"required",
        b"typeof",
    ];
    WORDS.contains(&lower)
}

/// `os.environ[...]`, `getpass()`, `env::var(...)`, `obj->token`, `config?.token`.
fn is_expression(value: &[u8]) -> bool {
    let ident = value
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'$')
        .count();
    if ident == 0 || value[0].is_ascii_digit() {
        return false;
    }
    let rest = &value[ident..];
    rest.starts_with(b"(")
        || rest.starts_with(b"[")
        || rest.starts_with(b"::")
        || rest.starts_with(b"->")
        || rest.starts_with(b"?.")
        || rest.starts_with(b"<")
        || (rest.starts_with(b".")
            && rest
                .get(1)
                .is_some_and(|b| b.is_ascii_alphabetic() || *b == b'_'))
}

/// `password=password`, `token=access_token`, `api_key=apiKey`: code passing a variable on.
fn is_same_name(value: &[u8], name: &str) -> bool {
    if !value
        .iter()
        .all(|&b| b.is_ascii_alphanumeric() || b == b'_')
        || value[0].is_ascii_digit()
    {
        return false;
    }
    let norm_value: Vec<u8> = value
        .iter()
        .filter(|b| b.is_ascii_alphanumeric())
        .map(u8::to_ascii_lowercase)
        .collect();
    let norm_name: Vec<u8> = name
        .bytes()
        .filter(u8::is_ascii_alphanumeric)
        .map(|b| b.to_ascii_lowercase())
        .collect();
    if norm_value.len() < 3 {
        return false;
    }
    if norm_name.ends_with(&norm_value) {
        return true;
    }
    [
        "password",
        "passwd",
        "secret",
        "token",
        "key",
        "pass",
        "pwd",
        "credentials",
        "auth",
    ]
    .iter()
    .any(|w| norm_name.ends_with(w.as_bytes()) && norm_value.ends_with(w.as_bytes()))
}

/// A bare token that looks like a credential rather than a word or a name in code: one
/// piece, at least eight characters, letters and digits (or symbols), and not mostly words.
pub(super) fn looks_like_credential(value: &[u8]) -> bool {
    if value.len() < 8 || value.iter().any(|&b| ends_token(b)) {
        return false;
    }
    let lower = value.to_ascii_lowercase();
    if is_type_or_keyword(&lower) || is_expression(value) || is_placeholder_word(&lower) {
        return false;
    }
    let letters = value.iter().filter(|b| b.is_ascii_alphabetic()).count();
    let digits = value.iter().filter(|b| b.is_ascii_digit()).count();
    let symbols = value.len() - letters - digits;
    if letters == 0 || digits + symbols == 0 {
        return false;
    }
    let (_, word_letters) = crate::detect::entropy::wordiness(value);
    word_letters * 2 < letters
}
