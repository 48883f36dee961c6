//! The claim patterns, searched fast on text with typographic symbols in it.
//!
//! Every claim pattern speaks of words with Unicode word boundaries and classes (`\b`, `\w`,
//! `\s`, `\d`). The regex engine's fast automaton reads Unicode word boundaries only on ASCII
//! text, so one check mark, dash or curly quote (`✅`, `—`, `’`) sends every search of a text
//! to the slow engines. On a text whose non-ASCII characters are neither word characters nor
//! white space, the Unicode and the ASCII meanings of those four agree at every position: a
//! [`Pattern`] keeps both compiled and searches such text with the ASCII one. Text with a
//! non-ASCII letter, digit or space (Chinese, `é`, a no-break space) is searched with the
//! pattern as written. Both give the same matches, so the choice changes no result.

use std::sync::LazyLock;

use regex::{CaptureMatches, Captures, Match, Matches, Regex};

/// A regular expression as written, and its ASCII reading where that one compiles.
#[derive(Debug, Clone)]
pub struct Pattern {
    unicode: Regex,
    ascii: Option<Regex>,
}

/// A non-ASCII character that is a word character or white space: text with one is read
/// with the Unicode meanings.
static NOT_PLAIN: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"[[\w\s]&&[^\x00-\x7F]]").ok());

impl Pattern {
    pub fn new(pattern: &str) -> Result<Pattern, regex::Error> {
        let unicode = Regex::new(pattern)?;
        let ascii = Regex::new(&ascii_reading(pattern)).ok();
        Ok(Pattern { unicode, ascii })
    }

    /// The pattern as written.
    pub fn as_str(&self) -> &str {
        self.unicode.as_str()
    }

    /// The compiled expression that reads `hay` fastest with the same matches.
    fn pick(&self, hay: &str) -> &Regex {
        match &self.ascii {
            Some(ascii) if !hay.is_ascii() && plain(hay) => ascii,
            _ => &self.unicode,
        }
    }

    pub fn is_match(&self, hay: &str) -> bool {
        self.pick(hay).is_match(hay)
    }

    pub fn find<'h>(&self, hay: &'h str) -> Option<Match<'h>> {
        self.pick(hay).find(hay)
    }

    pub fn find_iter<'r, 'h>(&'r self, hay: &'h str) -> Matches<'r, 'h> {
        self.pick(hay).find_iter(hay)
    }

    pub fn captures<'h>(&self, hay: &'h str) -> Option<Captures<'h>> {
        self.pick(hay).captures(hay)
    }

    pub fn captures_iter<'r, 'h>(&'r self, hay: &'h str) -> CaptureMatches<'r, 'h> {
        self.pick(hay).captures_iter(hay)
    }
}

/// Whether every non-ASCII character of a text is neither a word character nor white space.
fn plain(hay: &str) -> bool {
    NOT_PLAIN.as_ref().is_some_and(|re| !re.is_match(hay))
}

/// ASCII word characters, white space and digits, as class items (written out: in verbose
/// mode a bare space would be ignored).
const WORD: &str = "0-9A-Za-z_";
const SPACE: &str = r"\t\n\x0B\x0C\r\x20";
const DIGIT: &str = "0-9";

/// The pattern with `\b`, `\w`, `\s` and `\d` in their ASCII meanings; everything else as
/// written.
pub(super) fn ascii_reading(pattern: &str) -> String {
    rewrite(
        pattern,
        |escaped, in_class| {
            let items = match escaped {
                'b' if !in_class => return Some(r"(?-u:\b)".to_string()),
                'w' => WORD,
                's' => SPACE,
                'd' => DIGIT,
                _ => return None,
            };
            Some(if in_class {
                items.to_string()
            } else {
                format!("[{items}]")
            })
        },
        Anchors::Keep,
    )
}

/// What [`rewrite`] does with `^` and `$` outside classes.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Anchors {
    Keep,
    Drop,
}

/// A pattern's source rewritten piece by piece: `escape(c, in_class)` gives what `\c` becomes
/// (`None` keeps it as written), and `^`/`$` outside classes are kept or dropped. Class
/// brackets are tracked, nested ones too, so a `]` right after `[` or `[^` stays a literal.
pub(super) fn rewrite(
    pattern: &str,
    escape: impl Fn(char, bool) -> Option<String>,
    anchors: Anchors,
) -> String {
    let mut out = String::with_capacity(pattern.len() + 16);
    let mut chars = pattern.chars();
    // Depth of `[...]` classes.
    let mut class = 0usize;
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(n) => match escape(n, class > 0) {
                    Some(with) => out.push_str(&with),
                    None => {
                        out.push('\\');
                        out.push(n);
                    }
                },
                None => out.push('\\'),
            },
            '[' => {
                class += 1;
                out.push('[');
                if chars.clone().next() == Some('^') {
                    out.push('^');
                    chars.next();
                }
                if chars.clone().next() == Some(']') {
                    out.push(']');
                    chars.next();
                }
            }
            ']' if class > 0 => {
                class -= 1;
                out.push(']');
            }
            '^' | '$' if class == 0 && anchors == Anchors::Drop => {}
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ascii_reading_rewrites_only_the_four_classes() {
        assert_eq!(ascii_reading(r"\bpass\b"), r"(?-u:\b)pass(?-u:\b)");
        assert_eq!(
            ascii_reading(r"[\w./-]+\s\d"),
            r"[0-9A-Za-z_./-]+[\t\n\x0B\x0C\r\x20][0-9]"
        );
        assert_eq!(
            ascii_reading(r"[^\]\b]\\w\.\p{Han}"),
            r"[^\]\b]\\w\.\p{Han}"
        );
        assert_eq!(ascii_reading(r"[]\w]"), r"[]0-9A-Za-z_]");
    }

    #[test]
    fn both_readings_find_the_same_matches_on_plain_text() {
        let patterns = [
            r"\b(?:pass(?:es|ed)?|green|ok)\b",
            r"(?x) \b(?:no|zero) \s+ (?:new\s+)? (?:errors?|warnings?) \b | [✅✔☑]",
            r"\b\w+n['’]t\b",
            r"^[\s*_]*(?:next|todo)[\s*_]*:",
            r"[^.;]{0,20}?\bnow\s+pass(?:es)?\b",
            r"(?i:\b(?:tests?)\b)",
        ];
        let texts = [
            "✅ all tests pass — no new warnings",
            "it didn’t pass; “green” now",
            "– next: ✔ ok ✅ok✅ pass✅",
            "│ 0 errors │ tests: ok … done",
            "plain ascii tests pass, no errors",
            "Tests ✔ pass—ok—green",
        ];
        for p in patterns {
            let pattern = Pattern::new(p).expect("compiles");
            let ascii = pattern.ascii.clone().expect("the ASCII reading compiles");
            for t in texts {
                assert!(plain(t), "{t:?}");
                let a: Vec<_> = ascii.find_iter(t).map(|m| m.range()).collect();
                let u: Vec<_> = pattern.unicode.find_iter(t).map(|m| m.range()).collect();
                assert_eq!(a, u, "{p} on {t:?}");
            }
        }
    }

    #[test]
    fn text_with_non_ascii_letters_or_spaces_is_read_as_written() {
        for t in ["café passes", "测试通过", "tests\u{a0}pass", "naïve ok"] {
            assert!(!plain(t), "{t:?}");
        }
        // "é" is a word character: no boundary before "pass" in "épass".
        let p = Pattern::new(r"\bpass\b").expect("compiles");
        assert!(!p.is_match("épass"));
        assert!(p.is_match("✅pass"));
    }
}
