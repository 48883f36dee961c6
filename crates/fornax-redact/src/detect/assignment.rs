//! Secret-named assignments: env files and shell (`API_KEY=x`, `export TOKEN="x"`), YAML and
//! INI (`password: x`), JSON and dict literals (`"secret": "x"`), TOML (`token = "x"`), code
//! (`connect(password="x")`), XML (`<password>x</password>`), headers (`X-Api-Key: x`) and CLI
//! flags (`--password x`, `--token=x`). The name stays; only the value is replaced.

use crate::bytes::{is_alnum, is_blank, is_name_byte, is_quote, is_reference, skip_blanks};
use crate::detect::authorization;
use crate::detect::literal::{
    is_code_or_placeholder, is_code_span, is_flag_stopword, is_placeholder_word, is_variable_name,
    looks_like_credential, string_prefix_len,
};
use crate::detect::value::{
    closing_quote, opening_quote, quote_before, quoted_value, strip_comment, token_end,
    value_line_end, MAX_VALUE,
};
use crate::names::{classify, is_flag_only_secret, NameClass};
use crate::span::Findings;
use crate::SecretKind;

/// Longest name considered; longer identifier runs are code or data, not settings.
const MAX_NAME: usize = 128;

/// Handles a secret keyword (`pass`, `token`, `key`, ...) found at `hit`.
pub(crate) fn keyword(text: &str, hit: usize, found: &mut Findings) {
    let bytes = text.as_bytes();
    if !ends_like_a_secret_name(bytes, hit) {
        return;
    }
    let Some(name) = Name::around(bytes, hit) else {
        return;
    };
    if name.end - name.start > MAX_NAME {
        return;
    }
    let raw = &text[name.start..name.end];
    let class = match classify(raw) {
        Some(class) => Some(class),
        None if name.dashes > 0 && is_flag_only_secret(raw) => Some(NameClass::Secret),
        None => two_word_name(text, &name).map(|(class, _)| class),
    };
    let Some(class) = class else { return };
    if name.dashes > 0 {
        if class == NameClass::Signature {
            return;
        }
        flag(bytes, &name, raw, class, found);
    } else {
        let start = two_word_name(text, &name).map_or(name.start, |(_, start)| start);
        assignment(bytes, &Name { start, ..name }, raw, class, found);
    }
}

/// Cheap first check on a keyword hit: secret names end with their keyword (`api_key`,
/// `GITHUB_TOKEN`) or a known completion of it (`password`, `authorization`), so `passed`,
/// `tokenizer`, `keyboard` and `signal` are dismissed before any other work.
fn ends_like_a_secret_name(bytes: &[u8], hit: usize) -> bool {
    const COMPLETIONS: &[&[u8]] = &[
        b"",
        b"word",
        b"wd",
        b"phrase",
        b"s",
        b"orization",
        b"nature",
        b"key",
        b"keybase",
        b"_key",
        b"-key",
        b"_key_base",
        b"in",
        b"out",
        b"code",
        b"_code",
    ];
    // The hit keyword itself, then whatever name characters follow it.
    let keyword_len = match bytes.get(hit).map(u8::to_ascii_lowercase) {
        Some(b'p')
            if bytes.get(hit + 1).is_some_and(|b| {
                b.eq_ignore_ascii_case(&b'w') || b.eq_ignore_ascii_case(&b'i')
            }) =>
        {
            3
        }
        Some(b'p') => 4,
        Some(b's')
            if bytes
                .get(hit + 1)
                .is_some_and(|b| b.eq_ignore_ascii_case(&b'i')) =>
        {
            3
        }
        Some(b's') => 6,
        Some(b't') => 5,
        Some(b'k') => 3,
        Some(b'a') => 4,
        Some(b'c') => 10,
        _ => return true,
    };
    let start = hit + keyword_len;
    let rest_len = bytes[start.min(bytes.len())..]
        .iter()
        .take(12)
        .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        .count();
    let rest = &bytes[start.min(bytes.len())..start.min(bytes.len()) + rest_len];
    let rest = rest.strip_suffix(b"-").unwrap_or(rest);
    COMPLETIONS.iter().any(|c| rest.eq_ignore_ascii_case(c))
}

/// A name found in the text: `[start, end)` without leading dashes or quotes.
#[derive(Debug, Clone, Copy)]
struct Name {
    start: usize,
    end: usize,
    /// Leading dashes (1 or 2 for a CLI flag).
    dashes: usize,
    /// The name follows an escaped line break (`\npassword: x` inside a JSON string).
    after_escaped_newline: bool,
}

impl Name {
    fn around(bytes: &[u8], hit: usize) -> Option<Name> {
        let mut start = hit;
        while start > 0 && is_name_byte(bytes[start - 1]) && hit - start < MAX_NAME {
            start -= 1;
        }
        let mut end = hit;
        while end < bytes.len() && is_name_byte(bytes[end]) && end - hit < MAX_NAME {
            end += 1;
        }
        while end > hit && matches!(bytes[end - 1], b'.' | b'-') {
            end -= 1;
        }
        // `\npassword` inside a JSON string: the `n` belongs to the escape.
        let mut after_escaped_newline = false;
        if start > 0 && bytes[start - 1] == b'\\' && matches!(bytes[start], b'n' | b'r' | b't') {
            after_escaped_newline = bytes[start] != b't';
            start += 1;
        }
        // Right after a placeholder the name may have begun inside the redacted text: what it
        // was is not known (and guessing would make a second pass differ from the first).
        let ident_start = start;
        if ident_start > 0 && bytes[ident_start - 1] == b']' {
            return None;
        }
        let mut dashes = 0;
        while start < end && bytes[start] == b'-' {
            dashes += 1;
            start += 1;
        }
        while start < end && bytes[start] == b'.' {
            start += 1;
        }
        if start >= end || dashes > 2 {
            return None;
        }
        // A flag stands alone: `--token x`, not `a--token`.
        if dashes > 0
            && ident_start > 0
            && !(bytes[ident_start - 1].is_ascii_whitespace()
                || is_quote(bytes[ident_start - 1])
                || matches!(bytes[ident_start - 1], b'=' | b'(' | b'[' | b','))
        {
            return None;
        }
        // `$TOKEN`, `${TOKEN}`, `%TOKEN%` are references to a secret, not assignments.
        if ident_start > 0 && dashes == 0 {
            let prev = bytes[ident_start - 1];
            if prev == b'$'
                || prev == b'%'
                || (prev == b'{' && ident_start > 1 && bytes[ident_start - 2] == b'$')
            {
                return None;
            }
        }
        Some(Name {
            start,
            end,
            dashes,
            after_escaped_newline,
        })
    }
}

/// `API key: x`, `access token = x`: a secret named in two words. Returns the class and the
/// start of the first word.
fn two_word_name(text: &str, name: &Name) -> Option<(NameClass, usize)> {
    let bytes = text.as_bytes();
    let last = &text[name.start..name.end];
    if name.dashes > 0
        || !["key", "token", "secret"]
            .iter()
            .any(|w| last.eq_ignore_ascii_case(w))
    {
        return None;
    }
    if name.start < 2 || bytes[name.start - 1] != b' ' {
        return None;
    }
    let end = name.start - 1;
    let mut start = end;
    while start > 0 && is_alnum(bytes[start - 1]) && end - start < 24 {
        start -= 1;
    }
    if start == end || (start > 0 && is_name_byte(bytes[start - 1])) {
        return None;
    }
    let mut joined = [0u8; 64];
    let first = &bytes[start..end];
    let total = first.len() + 1 + last.len();
    if total > joined.len() {
        return None;
    }
    joined[..first.len()].copy_from_slice(first);
    joined[first.len()] = b'_';
    joined[first.len() + 1..total].copy_from_slice(last.as_bytes());
    let joined = std::str::from_utf8(&joined[..total]).ok()?;
    // The two words must make a secret name that neither word makes alone (`API key`).
    classify(joined).map(|class| (class, start))
}

fn kind_for(class: NameClass) -> SecretKind {
    match class {
        NameClass::AwsSecret => SecretKind::AwsSecretKey,
        NameClass::Authorization => SecretKind::Authorization,
        NameClass::Secret | NameClass::Signature => SecretKind::SecretAssignment,
    }
}

/// `--password x`, `--token=x`, `-passin pass:x`.
fn flag(bytes: &[u8], name: &Name, raw: &str, class: NameClass, found: &mut Findings) {
    if raw.len() > 3 && raw[..3].eq_ignore_ascii_case("no-") {
        return;
    }
    // Flags are spelled in lower case (`--api-key`, `-password`); a single dash glued to
    // mixed case or digits is a short flag with its value (`-pQx7secret`), handled per tool.
    let lower = |b: &u8| b.is_ascii_lowercase() || matches!(b, b'-' | b'_' | b'.');
    let spelled_as_flag = if name.dashes == 1 {
        raw.bytes().all(|b| lower(&b))
    } else {
        raw.bytes().all(|b| lower(&b) || b.is_ascii_digit())
    };
    if !spelled_as_flag {
        return;
    }
    let mut v = name.end;
    match bytes.get(v) {
        Some(b'=') => v += 1,
        Some(&b) if is_blank(b) => v = skip_blanks(bytes, v),
        _ => return,
    }
    if class == NameClass::Authorization {
        authorization::header_value(bytes, v, None, found);
        return;
    }
    let (start, end) = match quoted_value(bytes, v) {
        Some(range) => range,
        None => (v, token_end(bytes, v)),
    };
    if start >= end || bytes[start] == b'-' || is_reference(bytes, start) {
        return;
    }
    let value = &bytes[start..end];
    // openssl: `-passin pass:secret`; `env:`, `file:`, `fd:` and `stdin` name a source.
    let lower = value.to_ascii_lowercase();
    if lower.starts_with(b"pass:") {
        found.push(start + 5, end, SecretKind::CliPassword);
        return;
    }
    if ["env:", "file:", "fd:", "id=", "src=", "type="]
        .iter()
        .any(|p| lower.starts_with(p.as_bytes()))
        || lower == b"stdin"
        || is_flag_stopword(&lower)
        || is_placeholder_word(&lower)
    {
        return;
    }
    found.push(start, end, SecretKind::CliPassword);
}

/// Operators that bind a name to a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Op {
    /// `=`, `:=`, `=>`
    Assign,
    /// `:`
    Colon,
}

fn assignment(bytes: &[u8], name: &Name, raw: &str, class: NameClass, found: &mut Findings) {
    let open = quote_before(bytes, name.start);
    let kind = kind_for(class);
    if class == NameClass::Signature
        && (open.is_some() || name.start > 0 && bytes[name.start - 1] == b'<')
    {
        return;
    }
    // `<password>x</password>`: only with its closing tag (`<api-key>` alone is a placeholder).
    if name.start > 0 && bytes[name.start - 1] == b'<' && bytes.get(name.end) == Some(&b'>') {
        let start = name.end + 1;
        let limit = bytes.len().min(start + MAX_VALUE);
        let Some(len) = bytes[start..limit].iter().position(|&b| b == b'<') else {
            return;
        };
        let end = start + len;
        let tag = &bytes[name.start..name.end];
        let closes = bytes.get(end + 1) == Some(&b'/')
            && bytes.get(end + 2..end + 2 + tag.len()) == Some(tag)
            && bytes.get(end + 2 + tag.len()) == Some(&b'>');
        if closes
            && !is_reference(bytes, start)
            && !bytes[start..end].iter().all(u8::is_ascii_whitespace)
        {
            found.push(start, end, kind);
        }
        return;
    }
    let mut p = name.end;
    let key_quoted = match open {
        Some((seq, _)) if seq.at(bytes, p) => {
            p += seq.len();
            true
        }
        _ => false,
    };
    let after_name = p;
    p = skip_blanks(bytes, p);
    let blank_before = p > after_name;
    let (op, op_len) = match (bytes.get(p), bytes.get(p + 1)) {
        (Some(b':'), Some(b'=')) => (Op::Assign, 2),
        (Some(b'='), Some(b'>')) => (Op::Assign, 2),
        (Some(b'='), next) if !matches!(next, Some(b'=') | Some(b'~')) => (Op::Assign, 1),
        (Some(b':'), next) if next != Some(&b':') => (Op::Colon, 1),
        (Some(b'('), _) if !key_quoted && class == NameClass::Secret => {
            credential_call(bytes, name, raw, p, kind, found);
            return;
        }
        _ => {
            if !key_quoted && open.is_none() {
                netrc(bytes, name, raw, after_name, found);
            }
            return;
        }
    };
    let after_op = p + op_len;
    let v = skip_blanks(bytes, after_op);
    let blank_after = v > after_op;
    // A signature is a credential only as a signed URL's parameter (`&Signature=...`).
    if class == NameClass::Signature && (op != Op::Assign || blank_before || blank_after) {
        return;
    }
    let context_start = open.map_or(name.start, |(_, s)| s);
    let line_start = name.after_escaped_newline || at_line_start(bytes, context_start);
    // A name opened by a quote that does not close after it (`"X-Api-Key: abc"`): the value
    // ends where that string ends.
    let enclosing = match open {
        Some((seq, _)) if !key_quoted => Some(seq),
        _ => None,
    };

    if class == NameClass::Authorization {
        if key_quoted || enclosing.is_some() || line_start || op == Op::Assign {
            authorization::header_value(bytes, v, enclosing, found);
        }
        return;
    }

    if class == NameClass::Secret && bytes.get(v) == Some(&b'(') {
        credential_tuple(bytes, v, kind, found);
        return;
    }

    // A quoted value is a literal wherever it appears (`f"..."`, `b'...'` too).
    let q = v + string_prefix_len(bytes, v);
    if let Some(seq) = opening_quote(bytes, q) {
        // The enclosing string closing right after the operator assigns nothing
        // (`read -p "Password: " pw`).
        if enclosing != Some(seq) {
            if let Some((start, end)) = quoted_value(bytes, q) {
                let value = bytes[start..end].to_ascii_lowercase();
                // Markdown code after a name (`` token: `parse(s: str) -> dict` ``) is code.
                let code = seq.quote == b'`' && is_code_span(&bytes[start..end]);
                if start < end
                    && !code
                    && !is_reference(bytes, start)
                    && !is_placeholder_word(&value)
                    && !is_variable_name(&bytes[start..end])
                {
                    found.push(start, end, kind);
                }
            }
        }
        return;
    }

    if let Some(seq) = enclosing {
        let limit_end = closing_quote(bytes, v, seq).unwrap_or_else(|| value_line_end(bytes, v));
        let end = trim_value_end(bytes, v, limit_end);
        push_bare(bytes, v, end, raw, kind, false, found);
        return;
    }

    if key_quoted {
        // `"pin": 1234`, `'token': abc` in JSON or a dict literal: the bare value must end
        // where the structure goes on (`,`, `}`, end of line), or it is prose
        // (`` `apiKey`: API key for the model``).
        let quote = open.map_or(b'"', |(seq, _)| seq.quote);
        let end = token_end(bytes, v);
        let value = &bytes[v..end];
        if value.is_empty() || matches!(bytes[v], b'{' | b'[') || quote == b'`' {
            return;
        }
        let next = skip_blanks(bytes, end);
        if !matches!(
            bytes.get(next),
            None | Some(b',' | b'}' | b']' | b'\n' | b'\r' | b'\\' | b';' | b')')
        ) {
            return;
        }
        let json_scalar = open.is_some_and(|(seq, _)| seq.quote == b'"');
        let numeric = value
            .iter()
            .all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'-' | b'+'));
        push_bare(bytes, v, end, raw, kind, json_scalar && numeric, found);
        return;
    }

    // `name:value` without a blank is a URL's user info, a namespaced key or a label, not a
    // YAML or header assignment.
    if op == Op::Colon && !blank_after && v < bytes.len() && bytes[v] != b'\n' && bytes[v] != b'\r'
    {
        return;
    }
    match op {
        Op::Colon if line_start => line_value(bytes, v, name, raw, kind, found),
        Op::Assign if line_start && (blank_before || blank_after) => {
            line_value(bytes, v, name, raw, kind, found)
        }
        Op::Assign if !blank_before && !blank_after => {
            let end = token_end(bytes, v);
            push_bare(bytes, v, end, raw, kind, false, found);
        }
        _ => {
            // Mid-line `name: value` or `name = value`: prose and code look like this too,
            // so only a value that looks like a credential is taken.
            let end = token_end(bytes, v);
            if looks_like_credential(&bytes[v..end]) {
                push_bare(bytes, v, end, raw, kind, false, found);
            }
        }
    }
}

/// Whether the text between the start of the line and `i` is only indentation, a YAML list
/// dash or a shell keyword (`export`, `set`, Dockerfile `ENV`).
fn at_line_start(bytes: &[u8], i: usize) -> bool {
    let mut s = i;
    while s > 0 && bytes[s - 1] != b'\n' && i - s <= 40 {
        s -= 1;
    }
    if s > 0 && bytes[s - 1] != b'\n' {
        return false;
    }
    let prefix = &bytes[s..i];
    let trimmed = trim_ascii(prefix);
    if trimmed.is_empty() {
        return true;
    }
    const PREFIXES: &[&[u8]] = &[
        b"-",
        b"export",
        b"set",
        b"ENV",
        b"ARG",
        b"local",
        b"readonly",
        b"declare",
        b"declare -x",
        b"typeset",
        b"$env:",
        b"#",
        b"//",
        b">",
        b"<",
    ];
    PREFIXES.contains(&trimmed)
}

fn trim_ascii(mut s: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = s {
        if first.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = s {
        if last.is_ascii_whitespace() {
            s = rest;
        } else {
            break;
        }
    }
    s
}

/// A value that runs to the end of its line (YAML, INI, headers), or a YAML block scalar.
fn line_value(
    bytes: &[u8],
    v: usize,
    name: &Name,
    raw: &str,
    kind: SecretKind,
    found: &mut Findings,
) {
    let end = strip_comment(bytes, v, value_line_end(bytes, v));
    let value = &bytes[v..end];
    if matches!(value, b"|" | b"|-" | b"|+" | b">" | b">-" | b">+") {
        block_scalar(bytes, end, name, kind, found);
        return;
    }
    let end = trim_value_end(bytes, v, end);
    push_bare(bytes, v, end, raw, kind, false, found);
}

/// Drops trailing punctuation that ends a statement (`password: hunter2,` in a JS object).
fn trim_value_end(bytes: &[u8], start: usize, mut end: usize) -> usize {
    while end > start && matches!(bytes[end - 1], b',' | b';' | b' ' | b'\t') {
        end -= 1;
    }
    end
}

/// `password: |` followed by more-indented lines: the lines are the value.
fn block_scalar(
    bytes: &[u8],
    header_end: usize,
    name: &Name,
    kind: SecretKind,
    found: &mut Findings,
) {
    let key_line = crate::bytes::line_start(bytes, name.start);
    let key_indent = bytes[key_line..]
        .iter()
        .take_while(|&&b| is_blank(b) || b == b'-')
        .count();
    let mut i = match bytes[header_end..].iter().position(|&b| b == b'\n') {
        Some(p) => header_end + p + 1,
        None => return,
    };
    let mut first = None;
    let mut last_end = 0;
    let limit = bytes.len().min(header_end + MAX_VALUE * 4);
    while i < limit {
        let line_end = crate::bytes::line_end(bytes, i);
        let indent = bytes[i..line_end]
            .iter()
            .take_while(|&&b| is_blank(b))
            .count();
        if i + indent == line_end {
            i = line_end + 1;
            continue;
        }
        if indent <= key_indent {
            break;
        }
        first.get_or_insert(i + indent);
        last_end = line_end;
        i = line_end + 1;
    }
    if let Some(start) = first {
        if !is_reference(bytes, start) {
            found.push(start, last_end, kind);
        }
    }
}

/// Pushes an unquoted value unless it is evidently not a literal secret.
fn push_bare(
    bytes: &[u8],
    start: usize,
    end: usize,
    name: &str,
    kind: SecretKind,
    quote: bool,
    found: &mut Findings,
) {
    if start >= end || is_reference(bytes, start) {
        return;
    }
    let value = &bytes[start..end];
    if is_code_or_placeholder(value, name) || is_variable_name(value) {
        return;
    }
    if quote {
        found.push_quoted(start, end, kind);
    } else {
        found.push(start, end, kind);
    }
}

/// `new NetworkCredential("user", "secret")`, `BasicAuth("user", "secret")`: a constructor of
/// credentials called with string literals. The first literal names the user; the others are
/// the secrets. `getToken("name")` (one literal) looks a secret up and is left alone.
fn credential_call(
    bytes: &[u8],
    name: &Name,
    raw: &str,
    open_paren: usize,
    kind: SecretKind,
    found: &mut Findings,
) {
    let lower = raw.to_ascii_lowercase();
    let is_constructor = ["credential", "credentials", "auth", "basicauth"]
        .iter()
        .any(|w| lower.ends_with(w));
    if !is_constructor || name.end != open_paren {
        return;
    }
    credential_args(bytes, open_paren, kind, found);
}

/// `client.login("admin", "secret")`, `authenticate("u", "p")`: a sign-in call with string
/// literals (found at its name).
pub(crate) fn sign_in_call(bytes: &[u8], hit: usize, hit_end: usize, found: &mut Findings) {
    // The trigger ends with `(`; the callee's name must end there.
    if hit > 0 && (bytes[hit - 1].is_ascii_alphanumeric() || bytes[hit - 1] == b'_') {
        return;
    }
    credential_args(bytes, hit_end - 1, SecretKind::CliPassword, found);
}

/// `auth=("user", "secret")`: a secret-named tuple of a user and its secret.
fn credential_tuple(bytes: &[u8], v: usize, kind: SecretKind, found: &mut Findings) {
    if bytes.get(v) == Some(&b'(') {
        credential_args(bytes, v, kind, found);
    }
}

/// The string literal arguments after the first of the call or tuple opened at `open_paren`
/// (two literals at least: the first names the user).
fn credential_args(bytes: &[u8], open_paren: usize, kind: SecretKind, found: &mut Findings) {
    let mut literals = Vec::new();
    let mut i = open_paren + 1;
    let limit = bytes.len().min(open_paren + MAX_VALUE);
    while i < limit {
        i = skip_blanks(bytes, i);
        let Some((start, end)) = quoted_value(bytes, i) else {
            return;
        };
        literals.push((start, end));
        // Past the closing quote, then a comma or the closing parenthesis.
        i = skip_blanks(bytes, end + 1);
        match bytes.get(i) {
            Some(b',') => i += 1,
            Some(b')') => break,
            _ => return,
        }
    }
    if literals.len() < 2 {
        return;
    }
    for &(start, end) in &literals[1..] {
        let value = &bytes[start..end];
        if start < end
            && !is_reference(bytes, start)
            && !is_placeholder_word(&value.to_ascii_lowercase())
        {
            found.push(start, end, kind);
        }
    }
}

/// `machine host login user password secret` (`.netrc`): the word after `password`, on a
/// line that names a machine (or the default) and a login.
fn netrc(bytes: &[u8], name: &Name, raw: &str, after_name: usize, found: &mut Findings) {
    if raw != "password" || bytes.get(after_name) != Some(&b' ') {
        return;
    }
    let line = crate::bytes::line_start(bytes, name.start);
    let before = &bytes[line..name.start];
    let names_machine = before.starts_with(b"machine ") || before.starts_with(b"default ");
    if !names_machine || !before.windows(7).any(|w| w == b" login ") {
        return;
    }
    let start = after_name + 1;
    let end = token_end(bytes, start);
    if start < end && !is_reference(bytes, start) {
        found.push(start, end, SecretKind::SecretAssignment);
    }
}
