//! [`Redacted`]: proof, checked by the compiler, that a value went through the redactor.
//!
//! The store's write API takes `Redacted<T>` for everything that came from native data, and
//! only this crate can make one: the field is private and there is no other constructor, no
//! `Default`, no `Deserialize` and no mutable access. So a text cannot reach the database
//! without passing through [`Redactor::redact`](crate::Redactor::redact); forgetting to redact
//! is a type error, not a leak found later.

use std::ops::Deref;

use fornax_types::text::{
    visit_claim_text, visit_evidence_text, visit_finding_text, visit_message_text,
    visit_recheck_text, TextVisitor,
};
use fornax_types::{
    Claim, Evidence, Finding, IngestMessage, Invocation, Recheck, SemanticValue, TextValue,
};
use serde::Serialize;

/// A value whose every text-bearing field was redacted. Read it through `Deref`, [`get`] or
/// [`into_inner`]; it cannot be built or changed outside `fornax-redact` (except made shorter,
/// [`Redacted::cap_texts`]).
///
/// [`get`]: Redacted::get
/// [`into_inner`]: Redacted::into_inner
///
/// Outside this crate there is no way to make one but redacting:
///
/// ```compile_fail
/// let forged = fornax_redact::Redacted("sk_live_...".to_string());
/// ```
///
/// ```
/// use fornax_redact::{RedactionCounts, Redactor};
/// let mut counts = RedactionCounts::default();
/// let text = Redactor::new().redact("DB_PASSWORD=hunter2xyz".to_string(), &mut counts);
/// assert_eq!(text.as_str(), "DB_PASSWORD=[REDACTED:secret_assignment]");
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(transparent)]
pub struct Redacted<T>(T);

impl<T> Redacted<T> {
    /// Only the redactor seals values.
    pub(crate) fn seal(value: T) -> Self {
        Redacted(value)
    }

    pub fn get(&self) -> &T {
        &self.0
    }

    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> Deref for Redacted<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T> AsRef<T> for Redacted<T> {
    fn as_ref(&self) -> &T {
        &self.0
    }
}

impl Redacted<String> {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl Redacted<IngestMessage> {
    /// Bounds the size of the message's long texts (item texts, reasoning, tool output,
    /// subagent reports) to `cap` bytes, keeping head and tail ([`TextValue::capped`]).
    /// Cutting redacted text can only remove bytes, so the value stays redacted; capping after
    /// redaction means a secret is never split before it is recognized.
    pub fn cap_texts(&mut self, cap: usize) {
        let IngestMessage::Item(item) = &mut self.0 else {
            return;
        };
        let texts: Vec<&mut TextValue> = match &mut item.semantic.value {
            SemanticValue::Text(t) => vec![t],
            SemanticValue::ToolOutput(o) => o.text.iter_mut().chain(o.stderr.iter_mut()).collect(),
            SemanticValue::Reasoning(r) => r.text.iter_mut().collect(),
            SemanticValue::Subagent(s) => s.text.iter_mut().collect(),
            SemanticValue::ToolCall(_)
            | SemanticValue::ShellCall(_)
            | SemanticValue::Delegation(_) => Vec::new(),
        };
        for t in texts {
            if t.text.len() > cap {
                let full_len = t.byte_len;
                *t = TextValue::capped(&t.text, cap);
                t.byte_len = full_len.max(t.byte_len);
            }
        }
    }
}

mod private {
    /// Keeps [`Redactable`](super::Redactable) implemented here only.
    pub trait Sealed {}
}

/// What the redactor knows how to walk: every text-bearing field of the value is visited
/// (the model lists them, `fornax_types::text`). Implemented for the messages and judgement
/// values the store keeps, for JSON documents (adapter checkpoints) and for plain strings.
pub trait Redactable: private::Sealed {
    #[doc(hidden)]
    fn visit_text(&mut self, visitor: &mut dyn TextVisitor);

    /// Command lines split into words, redacted as the line they came from.
    #[doc(hidden)]
    fn invocations(&mut self) -> Vec<&mut Invocation> {
        Vec::new()
    }
}

impl private::Sealed for IngestMessage {}
impl Redactable for IngestMessage {
    fn visit_text(&mut self, visitor: &mut dyn TextVisitor) {
        visit_message_text(self, visitor);
        // Capability notes are free-form metadata that the model's list leaves out (reserved
        // keys hold a session id and a version, but any note may be written).
        if let IngestMessage::Capabilities(c) = self {
            for note in c.notes.values_mut() {
                visitor.text(note);
            }
        }
    }

    fn invocations(&mut self) -> Vec<&mut Invocation> {
        match self {
            IngestMessage::Item(item) => match &mut item.semantic.value {
                SemanticValue::ShellCall(call) => call.invocations.iter_mut().collect(),
                _ => Vec::new(),
            },
            _ => Vec::new(),
        }
    }
}

impl private::Sealed for Evidence {}
impl Redactable for Evidence {
    fn visit_text(&mut self, visitor: &mut dyn TextVisitor) {
        visit_evidence_text(self, visitor);
    }
}

impl private::Sealed for Claim {}
impl Redactable for Claim {
    fn visit_text(&mut self, visitor: &mut dyn TextVisitor) {
        visit_claim_text(self, visitor);
    }
}

impl private::Sealed for Finding {}
impl Redactable for Finding {
    fn visit_text(&mut self, visitor: &mut dyn TextVisitor) {
        visit_finding_text(self, visitor);
    }
}

impl private::Sealed for Recheck {}
impl Redactable for Recheck {
    fn visit_text(&mut self, visitor: &mut dyn TextVisitor) {
        visit_recheck_text(self, visitor);
    }
}

impl private::Sealed for serde_json::Value {}
impl Redactable for serde_json::Value {
    fn visit_text(&mut self, visitor: &mut dyn TextVisitor) {
        visitor.json(self);
    }
}

impl private::Sealed for String {}
impl Redactable for String {
    fn visit_text(&mut self, visitor: &mut dyn TextVisitor) {
        visitor.text(self);
    }
}
