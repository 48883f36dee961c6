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
    ];
    if lower.is_empty()
        || WORDS.contains(&lower)
        || lower.iter().all(|&b| b == b'*' || b == b'.')
        || (lower.len() >= 3 && lower.iter().all(|&b| b == b'x'))
        || lower.ends_with(b"...")
        || lower.ends_with("…".as_bytes())
        || (lower.starts_with(b"<") && lower.ends_with(b">"))
    {
        return true;
    }
    EXAMPLE_MARKERS
        .iter()
        .any(|m| lower.windows(m.len()).any(|w| w == *m))
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
