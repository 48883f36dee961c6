//! Byte-level helpers shared by the detectors. Every position they return lies on an ASCII
//! byte or at an end of the text, so slicing a `&str` with it never splits a character.

pub(crate) fn is_alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}

/// Characters of a name: variables, keys, flags, headers (`x-api-key`, `spring.mail.password`).
pub(crate) fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.')
}

pub(crate) fn is_quote(b: u8) -> bool {
    matches!(b, b'"' | b'\'' | b'`')
}

/// Spaces and tabs (never a line break).
pub(crate) fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

pub(crate) fn skip_blanks(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && is_blank(bytes[i]) {
        i += 1;
    }
    i
}

/// Start of the line containing `i`.
pub(crate) fn line_start(bytes: &[u8], i: usize) -> usize {
    let i = i.min(bytes.len());
    bytes[..i]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |p| p + 1)
}

/// End of the line containing `i` (the position of its `\n` or `\r\n`, or the text's end).
pub(crate) fn line_end(bytes: &[u8], i: usize) -> usize {
    let i = i.min(bytes.len());
    let end = bytes[i..]
        .iter()
        .position(|&b| b == b'\n')
        .map_or(bytes.len(), |p| i + p);
    if end > i && bytes[end - 1] == b'\r' {
        end - 1
    } else {
        end
    }
}

/// Length of the run of bytes satisfying `class` starting at `i`.
pub(crate) fn run_len(bytes: &[u8], i: usize, class: impl Fn(u8) -> bool) -> usize {
    bytes
        .get(i..)
        .map_or(0, |rest| rest.iter().take_while(|&&b| class(b)).count())
}

/// Whether `bytes[i..]` starts with `prefix`.
pub(crate) fn starts_with_at(bytes: &[u8], i: usize, prefix: &[u8]) -> bool {
    bytes.get(i..).is_some_and(|rest| rest.starts_with(prefix))
}

/// Whether `value` holds a placeholder: it was redacted already, and redacting it again (or
/// around it) would not be idempotent.
pub(crate) fn contains_placeholder(value: &[u8]) -> bool {
    memchr::memmem::find(value, crate::kind::PLACEHOLDER_PREFIX.as_bytes()).is_some()
}

/// Whether the value starting at `i` is a reference to a secret rather than the secret itself:
/// a shell or template variable (`$TOKEN`, `${TOKEN}`, `$(cat f)`, `%TOKEN%`, `{{ .token }}`,
/// `${{ secrets.TOKEN }}`, `<%= token %>`, `#{token}`), or a placeholder this crate wrote.
pub(crate) fn is_reference(bytes: &[u8], i: usize) -> bool {
    let rest = match bytes.get(i..) {
        Some(r) if !r.is_empty() => r,
        _ => return false,
    };
    match rest[0] {
        b'$' => rest
            .get(1)
            .is_some_and(|&b| b.is_ascii_alphabetic() || matches!(b, b'_' | b'{' | b'(')),
        // `%NAME%` (Windows).
        b'%' => {
            let name = rest[1..]
                .iter()
                .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_')
                .count();
            name > 0 && !rest[1].is_ascii_digit() && rest.get(1 + name) == Some(&b'%')
        }
        b'{' => rest.get(1) == Some(&b'{'),
        // `<%= token %>`, and `<your-token>` / `<apiKey>` placeholders.
        b'<' => {
            rest.get(1) == Some(&b'%')
                || rest
                    .iter()
                    .skip(1)
                    .take(64)
                    .position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b' ')))
                    .is_some_and(|p| rest[p + 1] == b'>' && p > 0)
        }
        b'#' => rest.get(1) == Some(&b'{'),
        b'[' => rest.starts_with(crate::kind::PLACEHOLDER_PREFIX.as_bytes()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines() {
        let t = b"ab\r\ncd\nef";
        assert_eq!(line_start(t, 5), 4);
        assert_eq!(line_end(t, 0), 2);
        assert_eq!(line_end(t, 4), 6);
        assert_eq!(line_end(t, 8), 9);
        assert_eq!(line_start(t, 0), 0);
    }

    #[test]
    fn references() {
        for r in [
            "$TOKEN",
            "${TOKEN}",
            "$(cat f)",
            "%TOKEN%",
            "{{ x }}",
            "<%= x %>",
            "#{x}",
            "[REDACTED:jwt]",
            "<your-token>",
            "<apiKey>",
        ] {
            assert!(is_reference(r.as_bytes(), 0), "{r}");
        }
        for r in ["$", "$1", "hunter2", "[x]", "{a}", ""] {
            assert!(!is_reference(r.as_bytes(), 0), "{r}");
        }
    }
}
