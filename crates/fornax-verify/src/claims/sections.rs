//! What a sentence's place in the Markdown says about it: the heading or label it sits under
//! ("## Next steps", "**Acceptance criteria**", "Files changed:"), a task-list box left open, a
//! block quote, text the user asked to be written (a poem).
//!
//! A heading's section lasts until the next heading of the same or a higher level; a label's
//! (a bold line, or a short line ending with a colon) until the next heading or label, or the
//! first paragraph after a blank line that is not a list item.

use std::sync::LazyLock;

use super::pattern::Pattern;

use super::lexicon::CREATIVE_INTRO;
use crate::text::{BlockKind, Sentence};

/// What the section a sentence sits in is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(super) enum Section {
    /// Nothing known: sentences are read on their own.
    #[default]
    Plain,
    /// A plan, next steps, acceptance criteria, open questions: nothing in it is a report.
    Plan,
    /// A list of the files changed: a bare path in it is a file written.
    Changes,
    /// A list of the files deleted.
    Deleted,
    /// A summary of a fix or of what was done: a `File:` field in it names a file written.
    Fix,
    /// Text the user asked for (a poem, a story): not a report.
    Creative,
}

static PLAN_LABEL: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(
        r"(?x)^(?:\d+\.\s*)?(?:
        next(?:\s+steps?)?|what['’]?s\s+next|what\s+remains|remaining(?:\s+work|\s+steps|\s+tasks)?|left\s+to\s+do|still\s+to\s+do
        |todos?|to[\s-]do|follow[\s-]?ups?|future(?:\s+work)?|later|plans?|proposal|proposed(?:\s+\w+){0,4}|suggestions?|suggested(?:\s+\w+){0,2}
        |recommendations?|recommended(?:\s+\w+){0,2}|open\s+questions?|questions?|known\s+issues?|limitations?|risks?|caveats?
        |not\s+done|pending|blocked|out\s+of\s+scope|ideas?|options?|alternatives?|how\s+to\s+(?:test|verify|run|use)
        |to\s+verify|manual\s+(?:testing|steps|verification)|testing\s+instructions|steps\s+to\s+reproduce|reproduction(?:\s+steps)?
        |usage|acceptance(?:\s+criteria)?|definition\s+of\s+done|requirements?|criteria|goals?|after\s+that(?:\s+\(.*\))?
        |what\s+remains\s+and\s+\w+
        |(?:[\w/-]+\s+){1,3}to\s+(?:create|add|update|change|modify|delete|remove|do|write|implement|fix|test|verify|check|review|extract|move|rename|port|migrate|refactor|consider|investigate)
        )\b",
    )
    .expect("valid regex")
});

/// A label that lists what is missing or not done ("Settings missing from README.md").
static GAP_LABEL: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"\b(?:missing|gaps?|undocumented|unimplemented|unsupported|not\s+(?:yet\s+)?(?:documented|implemented|covered|done|tested|handled|supported)|open\s+issues|todo)\b")
        .expect("valid regex")
});

static CHANGES_LABEL: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(
        r"(?x)^(?:\d+\.\s*)?(?:
        (?:files?\s+)?(?:changed|modified|touched|edited|created|added|updated|written)(?:\s+files?)?
        |(?:added|created|new|updated|modified|wrote)\s+(?:tests?|files?|modules?|scripts?|docs?|fixtures?|test\s+files?)
        |changes(?:\s+made)?|changed\s+files|what\s+(?:i\s+)?changed|edits|new(?:\s+and\s+updated|/updated)?\s+files|files
        |summary\s+of\s+(?:the\s+)?changes|(?:code\s+)?changes\s+in
        )$",
    )
    .expect("valid regex")
});

static DELETED_LABEL: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"^(?:(?:files?\s+)?(?:deleted|removed)(?:\s+files?)?|deletions)$")
        .expect("valid regex")
});

static FIX_LABEL: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"\b(?:fix|fixes|fixed|patch|patched|summary|what\s+i\s+did|done|implementation|changes?)\b")
        .expect("valid regex")
});

/// The text of a label or heading, without emphasis, numbering and the closing colon; `None`
/// when the block is not a label.
fn label_text(text: &str, kind: BlockKind) -> Option<String> {
    let t = text.trim();
    let inner = t.trim_matches(|c: char| c == '*' || c == '_' || c.is_whitespace());
    let bold =
        (t.starts_with("**") && t.ends_with("**")) || (t.starts_with("__") && t.ends_with("__"));
    let inner = inner
        .trim_end_matches([':', '：'])
        .trim_matches(|c: char| c == '*' || c == '_' || c.is_whitespace());
    let colon = t
        .trim_end_matches(['*', '_'])
        .trim_end()
        .ends_with([':', '：']);
    let label = kind.heading > 0 || ((bold || colon) && !kind.table && inner.len() <= 80);
    if !label || inner.is_empty() {
        return None;
    }
    Some(inner.to_lowercase())
}

fn classify(label: &str) -> Section {
    let label = label.trim_start_matches(|c: char| !c.is_alphanumeric());
    if CREATIVE_INTRO.is_match(label) && !label.contains("summary") {
        Section::Creative
    } else if PLAN_LABEL.is_match(label) || GAP_LABEL.is_match(label) {
        Section::Plan
    } else if DELETED_LABEL.is_match(label) {
        Section::Deleted
    } else if CHANGES_LABEL.is_match(label) {
        Section::Changes
    } else if FIX_LABEL.is_match(label) {
        Section::Fix
    } else {
        Section::Plain
    }
}

/// The section of every sentence (same order as `sentences`).
pub(super) fn sections(text: &str, sentences: &[Sentence]) -> Vec<Section> {
    let mut out = Vec::with_capacity(sentences.len());
    // Open heading sections (level, section) and the open label section.
    let mut headings: Vec<(u8, Section)> = Vec::new();
    let mut label: Option<Section> = None;
    let mut last_block = usize::MAX;
    let mut current = Section::Plain;
    // The section a table's rows are in, from its header row.
    let mut table: Option<Section> = None;
    let mut previous_table = false;
    for s in sentences {
        if s.block != last_block {
            last_block = s.block;
            let block_text = s.block_span.slice(text);
            if s.kind.table {
                if !previous_table {
                    // A header row: a "File" column lists changed files.
                    let files = block_text.split('|').any(|cell| {
                        let cell = cell.trim().trim_matches(['*', '_']).to_lowercase();
                        matches!(
                            cell.as_str(),
                            "file" | "files" | "path" | "changed file" | "changed files"
                        )
                    });
                    table = files.then_some(Section::Changes);
                    previous_table = true;
                    current = Section::Plain;
                    out.push(current);
                    continue;
                }
                current = table
                    .or(label)
                    .or_else(|| headings.last().map(|(_, k)| *k))
                    .unwrap_or(Section::Plain);
                out.push(current);
                continue;
            }
            previous_table = false;
            table = None;
            let found = label_text(block_text, s.kind);
            if s.kind.heading > 0 {
                headings.retain(|(level, _)| *level < s.kind.heading);
                label = None;
                if let Some(l) = &found {
                    headings.push((s.kind.heading, classify(l)));
                }
                // The heading itself is read on its own terms.
                current = Section::Plain;
            } else if let Some(l) = &found {
                let kind = classify(l);
                // A line that introduces a poem opens a creative section even when it is a
                // sentence ("Here's the poem you asked for:").
                label = Some(kind);
                current = if kind == Section::Creative {
                    Section::Creative
                } else {
                    Section::Plain
                };
                out.push(current);
                current = kind;
                continue;
            } else {
                if s.kind.after_blank && !s.kind.list && !s.kind.table {
                    // A paragraph after a blank line ends a label's list.
                    if label != Some(Section::Creative) {
                        label = None;
                    }
                }
                current = label
                    .or_else(|| headings.last().map(|(_, k)| *k))
                    .unwrap_or(Section::Plain);
            }
        }
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::sentences_in_blocks;

    fn kinds(text: &str) -> Vec<(String, Section)> {
        let s = sentences_in_blocks(text);
        sections(text, &s)
            .into_iter()
            .zip(s)
            .map(|(k, s)| (s.span.slice(text).to_string(), k))
            .collect()
    }

    #[test]
    fn headings_and_labels_open_sections() {
        let t = "## Next steps\n\n- Push the branch.\n- Run the e2e suite.\n\n## Done\n\nAll tests pass.";
        let got = kinds(t);
        assert_eq!(got[1], ("Push the branch.".into(), Section::Plan));
        assert_eq!(got[2], ("Run the e2e suite.".into(), Section::Plan));
        assert_eq!(got[4], ("All tests pass.".into(), Section::Fix));
        let t = "**Acceptance criteria**\n- The suite passes.\n\nI updated `a.rs`.";
        let got = kinds(t);
        assert_eq!(got[1].1, Section::Plan);
        assert_eq!(got[2].1, Section::Plain);
        let t = "Files changed:\n- `src/a.rs`\n- `src/b.rs`";
        assert!(kinds(t)[1..].iter().all(|(_, k)| *k == Section::Changes));
        let t = "Here's the poem you asked for:\n\nThe build is green tonight.";
        assert_eq!(kinds(t)[1].1, Section::Creative);
    }
}
