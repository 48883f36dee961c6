//! The command lines Fornax writes into agent settings, and how it recognizes them again.
//!
//! An entry is Fornax's when its command is exactly one `fornax` (or `fornax-hook`) binary (any
//! folder, so an install from a binary that has since moved is still found) followed by
//! Fornax's own arguments. Anything else on the line (a pipe, a second command, other arguments) makes it
//! someone else's.

use std::path::Path;

/// A command line running `program` with `args`, quoted for a POSIX shell.
pub fn command(program: &Path, args: &[&str]) -> String {
    let mut line = quote(&program.to_string_lossy());
    for a in args {
        line.push(' ');
        line.push_str(&quote(a));
    }
    line
}

/// Whether `line` runs a `fornax` binary with exactly `args`.
pub fn is_fornax_call(line: &str, args: &[&str]) -> bool {
    is_call(line, "fornax", args)
}

/// Whether `line` runs a `fornax-hook` binary with exactly `args`.
pub fn is_fornax_hook_call(line: &str, args: &[&str]) -> bool {
    is_call(line, "fornax-hook", args)
}

/// Whether `line` runs a binary called `program` (any folder) with exactly `args`.
fn is_call(line: &str, program: &str, args: &[&str]) -> bool {
    let Some(words) = words(line) else {
        return false;
    };
    let Some((first, rest)) = words.split_first() else {
        return false;
    };
    let name = Path::new(first)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = name.strip_suffix(".exe").unwrap_or(&name);
    name == program && rest.iter().map(String::as_str).eq(args.iter().copied())
}

/// Quotes one word for a POSIX shell, leaving plain words as they are.
pub fn quote(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+:@%,=".contains(c));
    if plain {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', r"'\''"))
    }
}

/// Splits a command line into words the way a POSIX shell would for a simple command, or
/// `None` when it holds anything but words (operators, expansions, comments, open quotes).
pub fn words(line: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut current: Option<String> = None;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if let Some(w) = current.take() {
                    words.push(w);
                }
            }
            '\'' => {
                let w = current.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '\'' => break,
                        other => w.push(other),
                    }
                }
            }
            '"' => {
                let w = current.get_or_insert_with(String::new);
                loop {
                    match chars.next()? {
                        '"' => break,
                        '\\' => match chars.next()? {
                            e @ ('"' | '\\' | '$' | '`') => w.push(e),
                            other => {
                                w.push('\\');
                                w.push(other);
                            }
                        },
                        '$' | '`' => return None,
                        other => w.push(other),
                    }
                }
            }
            '\\' => current.get_or_insert_with(String::new).push(chars.next()?),
            '|' | '&' | ';' | '<' | '>' | '(' | ')' | '$' | '`' | '\n' | '\r' => return None,
            '#' if current.is_none() => return None,
            other => current.get_or_insert_with(String::new).push(other),
        }
    }
    if let Some(w) = current {
        words.push(w);
    }
    Some(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quoting_round_trips_through_the_word_splitter() {
        for path in [
            "/usr/local/bin/fornax",
            "/home/a b/bin/fornax",
            "/tmp/it's/fornax",
            "/opt/$HOME/fornax",
        ] {
            let line = command(Path::new(path), &["hook", "claude"]);
            assert_eq!(
                words(&line).unwrap(),
                vec![path.to_string(), "hook".into(), "claude".into()],
                "{line}"
            );
            assert!(is_fornax_call(&line, &["hook", "claude"]), "{line}");
        }
    }

    #[test]
    fn only_a_bare_fornax_call_is_ours() {
        assert!(is_fornax_call("fornax hook claude", &["hook", "claude"]));
        assert!(is_fornax_call(
            "/opt/x/fornax  hook claude",
            &["hook", "claude"]
        ));
        assert!(!is_fornax_call(
            "/opt/x/fornax hook claude --x",
            &["hook", "claude"]
        ));
        assert!(!is_fornax_call(
            "fornax hook claude | tee log",
            &["hook", "claude"]
        ));
        assert!(!is_fornax_call(
            "fornax hook claude; rm -rf x",
            &["hook", "claude"]
        ));
        assert!(!is_fornax_call(
            "/opt/not-fornax hook claude",
            &["hook", "claude"]
        ));
        assert!(!is_fornax_call("fornax hook opencode", &["hook", "claude"]));
        assert!(!is_fornax_call(
            "echo 'fornax hook claude'",
            &["hook", "claude"]
        ));
        assert!(!is_fornax_call("fornax 'hook claude", &["hook", "claude"]));
        assert!(!is_fornax_call("", &["hook", "claude"]));
        assert!(is_fornax_hook_call(
            "/opt/x/fornax-hook claude",
            &["claude"]
        ));
        assert!(is_fornax_hook_call(
            "'/a b/fornax-hook' claude",
            &["claude"]
        ));
        assert!(!is_fornax_hook_call(
            "/opt/x/fornax-hook claude x",
            &["claude"]
        ));
        assert!(!is_fornax_hook_call("/opt/x/fornax claude", &["claude"]));
        assert!(!is_fornax_call(
            "/opt/x/fornax-hook hook claude",
            &["hook", "claude"]
        ));
    }
}
