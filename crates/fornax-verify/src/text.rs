//! Splitting agent prose into sentences, with byte spans into the original text.
//!
//! Markdown aware where it matters for claims: fenced code blocks are skipped, table rows are
//! blocks of their own (the rule row under a header is nothing), list markers, task-list boxes,
//! quote marks and heading marks are not part of a sentence but are kept as the block's
//! [`BlockKind`], inline code (`` `...` ``) never ends a sentence (`ruff check .` stays whole),
//! and a line that continues the previous one (a hard wrapped paragraph) joins it. The
//! full-width terminators of Chinese and Japanese (`。！？`) end a sentence without a space.

/// A half-open byte range `[start, end)` into a text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span {
            start,
            end: end.max(start),
        }
    }

    pub fn slice<'a>(&self, text: &'a str) -> &'a str {
        text.get(self.start..self.end).unwrap_or("")
    }

    pub fn is_empty(&self) -> bool {
        self.start >= self.end
    }

    /// The span without surrounding whitespace.
    pub fn trim(self, text: &str) -> Span {
        let s = self.slice(text);
        let lead = s.len() - s.trim_start().len();
        let trail = s.len() - s.trim_end().len();
        Span::new(
            self.start + lead,
            self.end.saturating_sub(trail).max(self.start + lead),
        )
    }
}

/// The byte spans of inline code (`` `x` ``, ``` ``x`` ```) in `text`, backticks included.
/// An unclosed backtick is literal text.
pub fn code_spans(text: &str) -> Vec<Span> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] != b'`' {
            i += 1;
            continue;
        }
        let open_start = i;
        while i < bytes.len() && bytes[i] == b'`' {
            i += 1;
        }
        let run = i - open_start;
        // Find a closing run of the same length on the same line.
        let mut j = i;
        let mut closed = None;
        while j < bytes.len() && bytes[j] != b'\n' {
            if bytes[j] == b'`' {
                let s = j;
                while j < bytes.len() && bytes[j] == b'`' {
                    j += 1;
                }
                if j - s == run {
                    closed = Some(j);
                    break;
                }
                continue;
            }
            j += 1;
        }
        if let Some(end) = closed {
            spans.push(Span::new(open_start, end));
            i = end;
        }
    }
    spans
}

/// What kind of Markdown block a sentence comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BlockKind {
    /// `#` heading level (1-6), 0 for none.
    pub heading: u8,
    /// A list item (`-`, `*`, `+`, `•`, `1.`).
    pub list: bool,
    /// A task-list box: `Some(true)` for `[x]`, `Some(false)` for `[ ]`.
    pub checkbox: Option<bool>,
    /// A block quote (`>`): someone else's words.
    pub quoted: bool,
    /// A table row.
    pub table: bool,
    /// A blank line (or the start of the text) comes right before the block.
    pub after_blank: bool,
}

/// One sentence and the block it belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sentence {
    pub span: Span,
    /// Index of its block (paragraph, list item, heading or table row) in the text.
    pub block: usize,
    /// The whole block's span.
    pub block_span: Span,
    pub kind: BlockKind,
}

struct Line {
    /// Content span (without list marker and surrounding whitespace).
    content: Span,
    /// The line opened a list item, heading or quote (so it never continues the previous one).
    starts_block: bool,
    /// A heading: a block of its own that the next line never continues.
    heading: bool,
    kind: BlockKind,
}

fn lines(text: &str) -> Vec<Line> {
    let mut out = Vec::new();
    let mut in_fence = false;
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let start = offset;
        offset += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        let trimmed = line.trim_start();
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            in_fence = !in_fence;
            out.push(Line {
                content: Span::new(start, start),
                starts_block: true,
                heading: false,
                kind: BlockKind::default(),
            });
            continue;
        }
        if in_fence || trimmed.is_empty() {
            // A blank line ends a paragraph: mark with an empty content span.
            out.push(Line {
                content: Span::new(start, start),
                starts_block: true,
                heading: false,
                kind: BlockKind::default(),
            });
            continue;
        }
        if trimmed.starts_with('|') {
            // A table row is a block of its own (cells inside the outer pipes); the rule row
            // under a header is nothing.
            let lead = line.len() - trimmed.len();
            let inner = trimmed.trim_end().trim_start_matches('|');
            let inner = inner.strip_suffix('|').unwrap_or(inner);
            let is_rule = inner
                .chars()
                .all(|c| matches!(c, '-' | ':' | '|' | ' ' | '\t'));
            let content = if is_rule {
                Span::new(start, start)
            } else {
                let inner_start = start + lead + 1;
                Span::new(inner_start, inner_start + inner.len()).trim(text)
            };
            out.push(Line {
                content,
                starts_block: true,
                heading: true,
                kind: BlockKind {
                    table: true,
                    ..BlockKind::default()
                },
            });
            continue;
        }
        let lead = line.len() - trimmed.len();
        let (marker_len, starts_block, kind) = block_marker(trimmed);
        let content_start = start + lead + marker_len;
        let content = Span::new(content_start, start + line.len()).trim(text);
        let heading = kind.heading > 0;
        out.push(Line {
            content,
            starts_block,
            heading,
            kind,
        });
    }
    out
}

/// Length of a leading list marker, heading mark or quote mark, whether one was found, and
/// what the marks say about the block.
fn block_marker(line: &str) -> (usize, bool, BlockKind) {
    let b = line.as_bytes();
    let mut i = 0;
    let mut found = false;
    let mut kind = BlockKind::default();
    loop {
        let rest = &line[i..];
        let rb = &b[i..];
        if rb.is_empty() {
            break;
        }
        // `- `, `* `, `+ `, `• `
        if matches!(rb[0], b'-' | b'*' | b'+') && rb.get(1) == Some(&b' ') {
            i += 2;
            found = true;
            kind.list = true;
            continue;
        }
        if rest.starts_with("• ") {
            i += "• ".len();
            found = true;
            kind.list = true;
            continue;
        }
        // `1. ` / `1) `
        let digits = rb.iter().take_while(|c| c.is_ascii_digit()).count();
        if digits > 0
            && digits < 4
            && matches!(rb.get(digits), Some(b'.' | b')'))
            && rb.get(digits + 1) == Some(&b' ')
        {
            i += digits + 2;
            found = true;
            kind.list = true;
            continue;
        }
        // `# heading`, `> quote`
        if rb[0] == b'#' {
            let hashes = rb.iter().take_while(|c| **c == b'#').count();
            if rb.get(hashes) == Some(&b' ') {
                i += hashes + 1;
                found = true;
                kind.heading = hashes.min(6) as u8;
                continue;
            }
        }
        if rb[0] == b'>' {
            i += if rb.get(1) == Some(&b' ') { 2 } else { 1 };
            found = true;
            kind.quoted = true;
            continue;
        }
        // `[x] ` task-list boxes
        if rest.starts_with("[x] ") || rest.starts_with("[X] ") || rest.starts_with("[ ] ") {
            kind.checkbox = Some(!rest.starts_with("[ ]"));
            i += 4;
            found = true;
            continue;
        }
        break;
    }
    (i, found, kind)
}

/// Sentence spans of `text`, in order.
pub fn sentences(text: &str) -> Vec<Span> {
    sentences_in_blocks(text)
        .into_iter()
        .map(|s| s.span)
        .collect()
}

/// Sentences of `text`, in order, each with its block.
pub fn sentences_in_blocks(text: &str) -> Vec<Sentence> {
    let code = code_spans(text);
    // Group lines into blocks: a line continues the previous block when it neither starts a
    // block of its own nor follows a finished sentence, and begins in lower case.
    let mut blocks: Vec<(Span, BlockKind)> = Vec::new();
    let mut open: Option<(Span, BlockKind)> = None;
    let mut open_is_heading = false;
    let mut after_blank = true;
    for line in lines(text) {
        if line.content.is_empty() {
            if let Some(b) = open.take() {
                blocks.push(b);
            }
            after_blank = true;
            continue;
        }
        let continues = match &open {
            Some((prev, _)) if !line.starts_block && !open_is_heading => {
                let prev_text = prev.slice(text);
                let ends_sentence = prev_text.ends_with(['.', '!', '?', ':']);
                let first = line.content.slice(text).chars().next().unwrap_or(' ');
                !ends_sentence && (first.is_lowercase() || first == '`' || first == '(')
            }
            _ => false,
        };
        if continues {
            if let Some((prev, _)) = open.as_mut() {
                prev.end = line.content.end;
            }
        } else {
            if let Some(b) = open.take() {
                blocks.push(b);
            }
            let mut kind = line.kind;
            kind.after_blank = after_blank;
            open = Some((line.content, kind));
            open_is_heading = line.heading;
        }
        after_blank = false;
    }
    if let Some(b) = open.take() {
        blocks.push(b);
    }
    let mut out = Vec::new();
    let mut spans = Vec::new();
    for (index, (block, kind)) in blocks.into_iter().enumerate() {
        spans.clear();
        split_block(text, block, &code, &mut spans);
        out.extend(spans.iter().map(|&span| Sentence {
            span,
            block: index,
            block_span: block,
            kind,
        }));
    }
    out
}

/// Full-width sentence terminators (`。`, `！`, `？`), as UTF-8 bytes.
const WIDE_TERMINATORS: [&[u8]; 3] = [
    "\u{3002}".as_bytes(),
    "\u{ff01}".as_bytes(),
    "\u{ff1f}".as_bytes(),
];

fn split_block(text: &str, block: Span, code: &[Span], out: &mut Vec<Span>) {
    let bytes = text.as_bytes();
    let mut start = block.start;
    let mut depth = 0i32;
    let mut i = block.start;
    // `code` is sorted and non-overlapping: skip each span whole.
    let mut next_code = code.partition_point(|c| c.end <= block.start);
    while i < block.end {
        while next_code < code.len() && code[next_code].end <= i {
            next_code += 1;
        }
        if let Some(c) = code.get(next_code).filter(|c| c.start <= i && i < c.end) {
            i = c.end;
            continue;
        }
        let c = bytes[i];
        if c == 0xE3 || c == 0xEF {
            if let Some(t) = WIDE_TERMINATORS
                .iter()
                .find(|t| bytes[i..block.end].starts_with(t))
            {
                // A full-width terminator ends the sentence whatever follows (no space is
                // written after it); closing brackets and quotes stay with it.
                let mut end = i + t.len();
                while end < block.end && matches!(bytes[end], b')' | b'"' | b'*' | b'_') {
                    end += 1;
                }
                let s = Span::new(start, end).trim(text);
                if !s.is_empty() {
                    out.push(s);
                }
                start = end;
                i = end;
                continue;
            }
        }
        match c {
            b'(' => depth += 1,
            b')' => depth = (depth - 1).max(0),
            b'\n' => {
                // A newline inside a joined block is not a boundary; the block decided that.
            }
            b'.' | b'!' | b'?' if depth == 0 => {
                let mut end = i + 1;
                while end < block.end
                    && matches!(
                        bytes[end],
                        b'.' | b'!' | b'?' | b'"' | b'\'' | b'*' | b'_' | b')'
                    )
                {
                    end += 1;
                }
                if is_boundary(text, block, start, i, end) {
                    let s = Span::new(start, end).trim(text);
                    if !s.is_empty() {
                        out.push(s);
                    }
                    start = end;
                    i = end;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    let s = Span::new(start, block.end).trim(text);
    if !s.is_empty() {
        out.push(s);
    }
}

const ABBREVIATIONS: &[&str] = &[
    "e.g", "i.e", "vs", "cf", "etc", "approx", "incl", "fig", "no", "nr", "ca",
];

fn is_boundary(text: &str, block: Span, sentence_start: usize, mark: usize, after: usize) -> bool {
    if after >= block.end {
        return true;
    }
    let rest = &text[after..block.end];
    if !rest.starts_with(char::is_whitespace) {
        return false;
    }
    let next = rest.trim_start().chars().next().unwrap_or(' ');
    // Scripts without case (Hangul, kana, Han, ...) start a sentence with any letter.
    let uncased = next.is_alphabetic() && !next.is_uppercase() && !next.is_lowercase();
    if !(next.is_uppercase()
        || uncased
        || next.is_ascii_digit()
        || matches!(next, '`' | '"' | '\'' | '(' | '[' | '*' | '_' | '“' | '‘')
        || !next.is_alphanumeric() && !next.is_whitespace())
    {
        return false;
    }
    if text.as_bytes()[mark] == b'.' {
        let before = &text[sentence_start..mark];
        let word = before
            .rsplit(|c: char| c.is_whitespace() || c == '(')
            .next()
            .unwrap_or("");
        let word = word.to_ascii_lowercase();
        if ABBREVIATIONS.contains(&word.as_str()) && next.is_lowercase() {
            return false;
        }
        if (word == "e.g" || word == "i.e") && !next.is_uppercase() {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sents(text: &str) -> Vec<&str> {
        sentences(text).into_iter().map(|s| s.slice(text)).collect()
    }

    #[test]
    fn splits_on_terminators_but_not_inside_code() {
        let t = "Lint: `ruff check .` reports no issues. Formatting is done! Ready?";
        assert_eq!(
            sents(t),
            vec![
                "Lint: `ruff check .` reports no issues.",
                "Formatting is done!",
                "Ready?"
            ]
        );
    }

    #[test]
    fn list_items_and_fences() {
        let t = "Summary:\n\n- `cargo test`: 12 passed.\n- Committed as `abc1234`.\n\n```\nrunning 3 tests. All good.\n```\n1. Fixed the parser.";
        assert_eq!(
            sents(t),
            vec![
                "Summary:",
                "`cargo test`: 12 passed.",
                "Committed as `abc1234`.",
                "Fixed the parser."
            ]
        );
    }

    #[test]
    fn decimals_paths_and_abbreviations() {
        let t = "It failed on the 0.5 s limit in src/cache.py, e.g. under load. Then it passed.";
        assert_eq!(
            sents(t),
            vec![
                "It failed on the 0.5 s limit in src/cache.py, e.g. under load.",
                "Then it passed."
            ]
        );
    }

    #[test]
    fn wrapped_lines_join() {
        let t =
            "The suite passes after the change to\nthe retry loop. Next line.\n## Heading\ntext";
        assert_eq!(
            sents(t),
            vec![
                "The suite passes after the change to\nthe retry loop.",
                "Next line.",
                "Heading",
                "text"
            ]
        );
    }

    #[test]
    fn table_rows_are_sentences_and_spans_are_exact() {
        let t = "| Check | Result |\n|---|:---:|\n| `cargo test` | 42 passed |\nDone.";
        let got = sents(t);
        assert_eq!(
            got,
            vec!["Check | Result", "`cargo test` | 42 passed", "Done."]
        );
        let spans = sentences(t);
        assert_eq!(&t[spans[2].start..spans[2].end], "Done.");
    }

    #[test]
    fn full_width_terminators_end_sentences() {
        let t = "所有测试都通过了。已推送到 `origin/main`。テストが通りました！次は？";
        assert_eq!(
            sents(t),
            vec![
                "所有测试都通过了。",
                "已推送到 `origin/main`。",
                "テストが通りました！",
                "次は？"
            ]
        );
    }

    #[test]
    fn blocks_keep_their_markdown_kind() {
        let t = "## Plan\n- [ ] Push it.\n- [x] Tests pass.\n> quoted words\n\n| a | b |\n|---|---|\n| c | d |\nText.";
        let s = sentences_in_blocks(t);
        let kinds: Vec<(&str, BlockKind)> = s.iter().map(|s| (s.span.slice(t), s.kind)).collect();
        assert_eq!(kinds[0].0, "Plan");
        assert_eq!(kinds[0].1.heading, 2);
        assert_eq!(kinds[1].1.checkbox, Some(false));
        assert!(kinds[1].1.list);
        assert_eq!(kinds[2].1.checkbox, Some(true));
        assert!(kinds[3].1.quoted);
        assert!(kinds[4].1.table && kinds[4].1.after_blank);
        assert_eq!(kinds[5].0, "c | d");
        assert!(!kinds[6].1.table && !kinds[6].1.after_blank);
        assert!(s.windows(2).all(|w| w[0].block < w[1].block));
    }

    #[test]
    fn code_span_detection() {
        let t = "a `b` c ``d`e`` f `unclosed";
        let spans: Vec<&str> = code_spans(t).iter().map(|s| s.slice(t)).collect();
        assert_eq!(spans, vec!["`b`", "``d`e``"]);
    }

    #[test]
    fn never_panics_on_odd_text() {
        for t in [
            "",
            "\n\n",
            "```",
            "`",
            "...",
            "- ",
            "é. É. ü?",
            "(((",
            "a.\u{2028}b",
        ] {
            let _ = sentences(t);
        }
    }
}
