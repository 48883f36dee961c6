//! Text shaping: one-line shortening at word boundaries, and wrapping to a width without ever
//! dropping a word.

use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};

/// Collapses all whitespace runs (newlines included) to single spaces.
pub fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Display width in terminal columns.
pub fn width(s: &str) -> usize {
    UnicodeWidthStr::width(s)
}

/// Shortens `s` to at most `max` columns on one line, cutting at a word boundary when one is
/// near and marking the cut with `…`.
pub fn shorten(s: &str, max: usize) -> String {
    let line = one_line(s);
    if width(&line) <= max {
        return line;
    }
    if max == 0 {
        return String::new();
    }
    let mut cut = String::new();
    let mut used = 0;
    for c in line.chars() {
        let w = c.width().unwrap_or(0);
        if used + w > max.saturating_sub(1) {
            break;
        }
        cut.push(c);
        used += w;
    }
    // Prefer the last word boundary in the final third of the kept text.
    if let Some(space) = cut.rfind(' ') {
        if space * 3 >= cut.len() * 2 {
            cut.truncate(space);
        }
    }
    let trimmed = cut.trim_end_matches([' ', ',', ';', ':', '.']);
    format!("{trimmed}…")
}

/// Wraps `text` to `width` columns: the first line starts with `first`, the others with
/// `rest` (a hanging indent). Words longer than a line are broken, never dropped, so the
/// whole text is always there.
pub fn wrap(text: &str, width: usize, first: &str, rest: &str) -> Vec<String> {
    let width = width.max(first.len() + 20).max(rest.len() + 20);
    let options = textwrap::Options::new(width)
        .initial_indent(first)
        .subsequent_indent(rest)
        .break_words(true)
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    let lines: Vec<String> = textwrap::wrap(&one_line(text), options)
        .into_iter()
        .map(|l| l.into_owned())
        .collect();
    if lines.is_empty() {
        vec![first.trim_end().to_string()]
    } else {
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shorten_cuts_at_words_and_marks_the_cut() {
        assert_eq!(shorten("fix the\n  parser", 40), "fix the parser");
        assert_eq!(
            shorten(
                "add myapp directory and create myapp/hoge.py which shows",
                30
            ),
            "add myapp directory and…"
        );
        assert_eq!(shorten("abcdefghijklmnopqrstuvwxyz", 10), "abcdefghi…");
        assert_eq!(width(&shorten("日本語のテキストをここに書きます", 9)), 9);
    }

    #[test]
    fn wrap_keeps_every_word_and_indents() {
        let text = "The latest relevant run `cargo test 2>&1 | tail -20` failed: summary (cargo 11 passed, 1 failed).";
        let lines = wrap(text, 40, "  ", "    ");
        assert!(lines.iter().all(|l| width(l) <= 40), "{lines:?}");
        assert!(lines[0].starts_with("  The"));
        assert!(lines[1].starts_with("    "));
        let joined: String = lines.iter().map(|l| l.trim()).collect::<Vec<_>>().join(" ");
        assert_eq!(joined, text);
    }

    #[test]
    fn long_words_are_broken_not_lost() {
        let lines = wrap(&"x".repeat(100), 30, "", "");
        assert_eq!(lines.concat().len(), 100);
    }
}
