//! Texts already found to hold nothing to redact, so that a copy of one is not scanned again.
//!
//! A record is redacted twice: its archived copy, string by string, and the messages its
//! adapter makes of it, field by field. Most fields are the record's own strings (a message's
//! text, a tool's output decoded from its JSON), so the second scan would repeat the first.
//! Detection is a function of the text alone, so a text equal to one found clean is clean:
//! equality is checked byte for byte, never by a hash alone.

use std::collections::HashMap;

/// Texts shorter than this are scanned again: remembering them costs about as much.
const MIN_LEN: usize = 64;

/// At most this many bytes are remembered (memory stays bounded by the largest record).
const MAX_BYTES: usize = 8 << 20;

/// Clean texts of one record (or of whatever the caller scopes it to). Starts empty and
/// allocates nothing until a long clean text is seen.
#[derive(Debug, Default)]
pub struct CleanTexts {
    texts: HashMap<Key, Vec<Box<str>>>,
    bytes: usize,
}

/// Where a text's candidates are filed: its length and its first and last bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Key {
    len: usize,
    head: [u8; 16],
    tail: [u8; 16],
}

impl Key {
    fn of(text: &str) -> Option<Key> {
        let b = text.as_bytes();
        if b.len() < MIN_LEN {
            return None;
        }
        let mut head = [0u8; 16];
        let mut tail = [0u8; 16];
        head.copy_from_slice(&b[..16]);
        tail.copy_from_slice(&b[b.len() - 16..]);
        Some(Key {
            len: b.len(),
            head,
            tail,
        })
    }
}

impl CleanTexts {
    /// Whether `text` is, byte for byte, one remembered as clean.
    pub(crate) fn contains(&self, text: &str) -> bool {
        Key::of(text)
            .and_then(|k| self.texts.get(&k))
            .is_some_and(|texts| texts.iter().any(|t| **t == *text))
    }

    /// Remembers `text`, which detection found clean.
    pub(crate) fn insert(&mut self, text: &str) {
        let Some(key) = Key::of(text) else { return };
        if self.bytes + text.len() > MAX_BYTES {
            return;
        }
        let texts = self.texts.entry(key).or_default();
        if !texts.iter().any(|t| **t == *text) {
            self.bytes += text.len();
            texts.push(text.into());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_an_equal_text_is_known() {
        let mut clean = CleanTexts::default();
        let text = "a".repeat(40) + "middle" + &"b".repeat(40);
        clean.insert(&text);
        assert!(clean.contains(&text));
        // Same length, head and tail; different middle.
        let other = "a".repeat(40) + "MIDDLE" + &"b".repeat(40);
        assert!(!clean.contains(&other));
        assert!(!clean.contains("short"));
    }

    #[test]
    fn short_texts_are_not_kept() {
        let mut clean = CleanTexts::default();
        clean.insert("cargo test");
        assert!(!clean.contains("cargo test"));
        assert_eq!(clean.bytes, 0);
    }
}
