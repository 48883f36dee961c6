//! The redaction boundary: secrets replaced once, before anything is stored.
//!
//! A [`Redactor`] scans text for secrets and replaces each with a placeholder that names its
//! kind (`[REDACTED:github_token]`, see [`SecretKind`]). It is applied exactly once, at the
//! ingest boundary, to every text-bearing field of every [`IngestMessage`]
//! ([`Redactor::redact_message`]); everything downstream (store, index, verifiers, exports)
//! only ever sees redacted text. [`RedactionCounts`] records how many secrets of each kind
//! were replaced.
//!
//! [`Redactor::redact`] returns a [`Redacted`] value, which only this crate can construct and
//! which is what every store write takes: the boundary is checked by the compiler.
//!
//! What it finds, and what it leaves alone, is written down in `docs/secrets.md` (the rule
//! both test corpora are written against): private key blocks; AWS, GitHub, GitLab, Slack,
//! Stripe, OpenAI, Anthropic, Google, npm and PyPI tokens and those of about thirty other
//! issuers by their formats; JWTs and JWEs; `Authorization` values; passwords in URLs,
//! connection strings, `.netrc` and `.pgpass` lines; secret-named query parameters and signed
//! URLs' signatures; values assigned to secret-named variables, keys and flags in env files,
//! shell, YAML, JSON, TOML, XML, code and command lines (short values too); passwords given to
//! known tools as short flags (`mysql -pX`, `sshpass -p X`, `curl -u user:X`, ...); and
//! random-looking tokens judged by measured entropy, except where they are identifiers: ids
//! in URL paths, values of names that declare an identifier or an opaque blob.
//!
//! How: one Aho-Corasick pass over short trigger literals hands each hit to a local check,
//! and one byte-class pass measures entropy on runs of token characters long enough to be
//! credentials (the `detect` module). Most text has neither, and costs only the two scans.
//!
//! # Invariants
//!
//! * Never stores, logs, returns or counts a secret: counts are numbers per kind, and the
//!   placeholder carries only the kind.
//! * Never damages what is not a secret: text outside a detected span is copied byte for
//!   byte (whitespace, line breaks, git SHAs, UUIDs, paths, digests, versions, base64 image
//!   data, test output). Assignments keep their name and operator
//!   (`API_KEY=[REDACTED:secret_assignment]`), URLs their user and host, `Authorization`
//!   values their scheme. Identifiers of the model (ids, keys, record references) are not text
//!   and are never visited.
//! * Idempotent: redacting redacted text changes nothing. Placeholders are never matched, and
//!   no detection reads context that an earlier detection replaced.
//! * Placeholders are JSON-safe: writing one inside a JSON, YAML or shell string needs no
//!   escaping.
//! * Total: any input, however large, deep or malformed, is processed without panicking, in
//!   time linear in its length; text without a candidate is returned without allocating.
//! * No I/O, no printing, no global state: a `Redactor` is immutable and shareable across
//!   threads.
//!
//! # Known limits
//!
//! * A secret written in prose without an assignment shape or a known format
//!   (`my password is hunter2`) is not found, nor one shorter than 20 characters that has no
//!   name, flag or format to recognize it by. `name: value` in the middle of a line is taken
//!   only when the value looks like a credential (letters and digits, eight or more).
//! * Entropy misses some random tokens that happen to read as words (about 4% of random
//!   24-character base62 tokens, under 1% from 40 characters) and all-hexadecimal secrets
//!   (which look like digests).
//! * Short single-dash flags mean a password only for the tools listed in `detect::cli`.
//! * A value of three words or more with a function word among them, after a secret name, is
//!   taken for prose (`token: the bearer token, see ...`), so such a passphrase is kept.
//! * A random segment of a URL's path is taken for a resource id unless a credential step
//!   precedes it (`/reset/`, `/webhooks/<id>/`).

mod bytes;
mod clean;
mod counts;
mod detect;
mod json;
mod kind;
mod message;
mod names;
mod nested;
mod pass;
mod redacted;
mod span;

use fornax_types::IngestMessage;

pub use clean::CleanTexts;
pub use counts::RedactionCounts;
pub use kind::SecretKind;
pub use redacted::{Redactable, Redacted};

use detect::Detectors;
use span::Findings;

/// Finds and replaces secrets. Build one (the trigger automaton is compiled here) and share
/// it: it is immutable, `Send` and `Sync`.
#[derive(Debug, Clone)]
pub struct Redactor {
    detectors: Detectors,
}

impl Default for Redactor {
    fn default() -> Self {
        Redactor::new()
    }
}

impl Redactor {
    pub fn new() -> Self {
        Redactor {
            detectors: Detectors::new(),
        }
    }

    /// The redacted text, or `None` when `text` holds nothing to redact (no allocation then).
    pub fn redact_text(&self, text: &str, counts: &mut RedactionCounts) -> Option<String> {
        let spans = self.spans(text);
        if spans.is_empty() {
            return None;
        }
        let mut out = span::apply(text, &spans, counts);
        let mut pass = pass::Pass {
            redactor: self,
            counts,
            found: None,
            clean: None,
        };
        pass.text(&mut out);
        Some(out)
    }

    /// Redacts `text` in place (untouched when it holds nothing to redact).
    pub fn redact_in_place(&self, text: &mut String, counts: &mut RedactionCounts) {
        if let Some(redacted) = self.redact_text(text, counts) {
            *text = redacted;
        }
    }

    /// Redacts every string of a JSON document, in place. Keys are read: the string value of
    /// a secret-named key (`"password"`, `"api_key"`, `"Authorization"`, and `"value"` next
    /// to `"name": "DB_PASSWORD"`) is replaced whole; object keys that hold a secret are
    /// redacted too.
    pub fn redact_json(&self, value: &mut serde_json::Value, counts: &mut RedactionCounts) {
        self.redact_json_with(value, counts, None);
    }

    pub(crate) fn redact_json_with(
        &self,
        value: &mut serde_json::Value,
        counts: &mut RedactionCounts,
        clean: Option<&mut CleanTexts>,
    ) {
        let mut pass = pass::Pass {
            redactor: self,
            counts,
            found: None,
            clean,
        };
        json::redact_value(&mut pass, value, 0);
    }

    /// A native record as it is archived: every string redacted, and JSON documents held as
    /// strings inside it (a tool call's arguments) redacted in their decoded form too.
    pub fn redact_record(
        &self,
        value: serde_json::Value,
        counts: &mut RedactionCounts,
    ) -> Redacted<serde_json::Value> {
        self.redact_record_with(value, counts, &mut CleanTexts::default())
    }

    /// [`Redactor::redact_record`], remembering in `clean` the texts found clean (the
    /// record's strings and those of the documents it holds), for
    /// [`Redactor::redact_with`] on the messages made from the same record.
    pub fn redact_record_with(
        &self,
        mut value: serde_json::Value,
        counts: &mut RedactionCounts,
        clean: &mut CleanTexts,
    ) -> Redacted<serde_json::Value> {
        nested::redact_nested_documents(self, &mut value, 0, clean);
        self.redact_with(value, counts, clean)
    }

    /// Redacts every text-bearing field of `msg` (see [`fornax_types::text`]). A secret found
    /// in one field is also replaced where it appears in the message's other fields (a shell
    /// call's `argv` repeats its `command` word by word).
    pub fn redact_message(&self, msg: &mut IngestMessage, counts: &mut RedactionCounts) {
        message::redact(self, msg, counts, None);
    }

    /// Redacts every text-bearing field of `value`, as [`Redactor::redact_message`] does, and
    /// seals the result: a [`Redacted`] is what the store's write API takes.
    pub fn redact<T: Redactable>(&self, mut value: T, counts: &mut RedactionCounts) -> Redacted<T> {
        message::redact(self, &mut value, counts, None);
        Redacted::seal(value)
    }

    /// [`Redactor::redact`], skipping the texts `clean` holds (equal to texts found clean
    /// before) and adding those found clean now. The result is the same as without it.
    pub fn redact_with<T: Redactable>(
        &self,
        mut value: T,
        counts: &mut RedactionCounts,
        clean: &mut CleanTexts,
    ) -> Redacted<T> {
        message::redact(self, &mut value, counts, Some(clean));
        Redacted::seal(value)
    }

    /// [`Redactor::redact`] for each value.
    pub fn redact_all<T: Redactable>(
        &self,
        values: impl IntoIterator<Item = T>,
        counts: &mut RedactionCounts,
    ) -> Vec<Redacted<T>> {
        values.into_iter().map(|v| self.redact(v, counts)).collect()
    }

    /// Detections in `text` merged into non-overlapping spans (for whole-value decisions).
    pub(crate) fn spans(&self, text: &str) -> Vec<span::Span> {
        self.spans_with(text, Findings::default())
    }

    /// Like [`Redactor::spans`], with detections the caller made from context the text does
    /// not show (a JSON key). They go in before the entropy scan, which must see them.
    pub(crate) fn spans_with(&self, text: &str, mut found: Findings) -> Vec<span::Span> {
        self.detectors.find(text, &mut found);
        span::merge(&mut found.spans);
        found.spans
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redactor_is_send_and_sync() {
        fn assert_send_sync<T: Send + Sync>() {}
        assert_send_sync::<Redactor>();
    }

    #[test]
    fn text_without_candidates_is_not_copied() {
        let r = Redactor::new();
        let mut counts = RedactionCounts::default();
        assert_eq!(
            r.redact_text("cargo test -p fornax-redact\nok", &mut counts),
            None
        );
        assert!(counts.is_empty());
    }
}
