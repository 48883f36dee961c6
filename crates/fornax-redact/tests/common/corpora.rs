//! The secret and look-alike corpora (`tests/corpora/*.jsonl`), as `docs/secrets.md` defines
//! them: every entry of `secrets.jsonl` holds at least one secret, every entry of
//! `lookalikes.jsonl` holds none.
//!
//! An entry is one JSON line `{"id", "category", "text"}`. In a secret entry each secret is
//! marked `«…»`; a `⁞` inside a token splits its issuer prefix so that the file holds no
//! string a credential scanner would take for a live token. Both marks are removed when the
//! corpus is loaded.
//!
//! Shared by this crate's tests and by the end-to-end test of the binary (which includes
//! this file by path), so it depends on `serde_json` only.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// Splits a token prefix in the corpus files; removed on load.
const SPLIT: char = '\u{205e}';
const OPEN: char = '«';
const CLOSE: char = '»';

/// One corpus entry, marks removed.
#[derive(Debug, Clone)]
pub struct Entry {
    pub id: String,
    pub category: String,
    /// The text as planted.
    pub text: String,
    /// The secrets it holds, in order (empty for a look-alike).
    pub secrets: Vec<String>,
    /// The text around the secrets: `parts.len() == secrets.len() + 1`.
    pub parts: Vec<String>,
}

impl Entry {
    /// Whether `redacted` is this entry's text with each secret, and nothing else, replaced
    /// by one placeholder.
    pub fn redacted_exactly(&self, redacted: &str) -> bool {
        let mut rest = redacted;
        for (i, part) in self.parts.iter().enumerate() {
            let Some(after) = rest.strip_prefix(part.as_str()) else {
                return false;
            };
            rest = after;
            if i < self.secrets.len() {
                let Some(after) = strip_placeholder(rest) else {
                    return false;
                };
                rest = after;
            }
        }
        rest.is_empty()
    }
}

/// `text` after a leading `[REDACTED:kind]` (quoted when it replaced a bare JSON scalar).
fn strip_placeholder(text: &str) -> Option<&str> {
    if let Some(quoted) = text.strip_prefix('"') {
        if let Some(rest) = strip_placeholder(quoted).and_then(|r| r.strip_prefix('"')) {
            return Some(rest);
        }
    }
    let body = text.strip_prefix("[REDACTED:")?;
    let end = body.find(']')?;
    body[..end]
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b == b'_')
        .then(|| &body[end + 1..])
}

/// The folder of the corpora, beside this file's crate.
pub fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|p| p.join("crates/fornax-redact/tests/corpora"))
        .find(|p| p.is_dir())
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpora"))
}

fn load(name: &str) -> Vec<Entry> {
    let path = dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(n, line)| {
            let v: serde_json::Value =
                serde_json::from_str(line).unwrap_or_else(|e| panic!("{name} line {}: {e}", n + 1));
            let field = |k: &str| v[k].as_str().unwrap_or_default().to_string();
            parse(field("id"), field("category"), &field("text"))
        })
        .collect()
}

fn parse(id: String, category: String, marked: &str) -> Entry {
    let mut text = String::new();
    let mut parts = vec![String::new()];
    let mut secrets = Vec::new();
    let mut current: Option<String> = None;
    for c in marked.chars() {
        match c {
            SPLIT => {}
            OPEN => current = Some(String::new()),
            CLOSE => {
                secrets.push(current.take().unwrap_or_default());
                parts.push(String::new());
            }
            c => {
                text.push(c);
                match &mut current {
                    Some(secret) => secret.push(c),
                    None => parts.last_mut().expect("one part at least").push(c),
                }
            }
        }
    }
    assert!(current.is_none(), "{id}: unclosed secret mark");
    Entry {
        id,
        category,
        text,
        secrets,
        parts,
    }
}

/// Every entry of the secret corpus.
pub fn secrets() -> Vec<Entry> {
    let entries = load("secrets.jsonl");
    for e in &entries {
        assert!(
            !e.secrets.is_empty(),
            "{}: a secret entry marks no secret",
            e.id
        );
    }
    entries
}

/// Every entry of the look-alike corpus.
pub fn lookalikes() -> Vec<Entry> {
    let entries = load("lookalikes.jsonl");
    for e in &entries {
        assert!(
            e.secrets.is_empty(),
            "{}: a look-alike marks a secret",
            e.id
        );
    }
    entries
}
