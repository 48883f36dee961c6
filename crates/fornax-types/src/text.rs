//! Reaching every text-bearing field of a message.
//!
//! The redaction boundary must see every place a secret could hide. Instead of each consumer
//! listing fields (and forgetting one when the model grows), the model itself enumerates them
//! here, next to the types; adding a text field without visiting it is a bug in this module.

use crate::canonical::{Invocation, SemanticValue, TextValue};
use crate::judgement::{Claim, ClaimActor, ClaimScope, Finding};
use crate::{Evidence, IngestMessage};

/// Receives each text-bearing field.
pub trait TextVisitor {
    /// A free-text field.
    fn text(&mut self, text: &mut String);
    /// A JSON document (tool arguments, extension fields).
    fn json(&mut self, value: &mut serde_json::Value);
}

fn text_value(v: &mut TextValue, visitor: &mut dyn TextVisitor) {
    visitor.text(&mut v.text);
}

fn opt_text(v: &mut Option<String>, visitor: &mut dyn TextVisitor) {
    if let Some(s) = v {
        visitor.text(s);
    }
}

fn invocation(inv: &mut Invocation, visitor: &mut dyn TextVisitor) {
    visitor.text(&mut inv.program);
    for a in &mut inv.argv {
        visitor.text(a);
    }
    for e in &mut inv.env {
        visitor.text(e);
    }
    opt_text(&mut inv.cwd, visitor);
    for r in &mut inv.redirects_to {
        visitor.text(r);
    }
}

fn semantic_value(v: &mut SemanticValue, visitor: &mut dyn TextVisitor) {
    match v {
        SemanticValue::Text(t) => text_value(t, visitor),
        SemanticValue::Reasoning(r) => {
            if let Some(t) = &mut r.text {
                text_value(t, visitor);
            }
        }
        SemanticValue::ToolCall(c) => {
            visitor.json(&mut c.arguments);
            opt_text(&mut c.cwd, visitor);
        }
        SemanticValue::ShellCall(c) => {
            visitor.text(&mut c.command);
            for inv in &mut c.invocations {
                invocation(inv, visitor);
            }
            opt_text(&mut c.cwd, visitor);
        }
        SemanticValue::ToolOutput(o) => {
            if let Some(t) = &mut o.text {
                text_value(t, visitor);
            }
            if let Some(t) = &mut o.stderr {
                text_value(t, visitor);
            }
        }
        SemanticValue::Delegation(_) => {}
        SemanticValue::Subagent(s) => {
            if let Some(t) = &mut s.text {
                text_value(t, visitor);
            }
        }
    }
}

/// Visits every text-bearing field of `msg`.
///
/// Not visited, by design: identifiers (ids, keys, record references, fingerprints), enums,
/// numbers, and [`EvidenceSource`](crate::EvidenceSource), which holds identifiers only.
pub fn visit_message_text(msg: &mut IngestMessage, visitor: &mut dyn TextVisitor) {
    match msg {
        IngestMessage::Source(_) | IngestMessage::Record(_) => {}
        IngestMessage::Capabilities(c) => {
            for signal in c.signals.values_mut() {
                opt_text(&mut signal.detail, visitor);
            }
        }
        IngestMessage::Session(s) => {
            opt_text(&mut s.cwd, visitor);
            opt_text(&mut s.name, visitor);
        }
        IngestMessage::Loop(_) | IngestMessage::Usage(_) => {}
        IngestMessage::Item(item) => semantic_value(&mut item.semantic.value, visitor),
        IngestMessage::Evidence(e) => visit_evidence_text(e, visitor),
        IngestMessage::Claim(c) => visit_claim_text(c, visitor),
        IngestMessage::Finding(f) => visit_finding_text(f, visitor),
    }
}

/// Visits an evidence's payload and extension envelope (the rest are identifiers).
pub fn visit_evidence_text(e: &mut Evidence, visitor: &mut dyn TextVisitor) {
    for text in e.payload.texts_mut() {
        visitor.text(text);
    }
    if let Some(ext) = &mut e.extension {
        visitor.json(&mut ext.fields);
        for value in ext.unknown.values_mut() {
            visitor.json(value);
        }
    }
}

/// Visits a claim's quote and the parts of it the claim names (a SHA is an identifier).
pub fn visit_claim_text(c: &mut Claim, visitor: &mut dyn TextVisitor) {
    visitor.text(&mut c.text);
    opt_text(&mut c.target.command, visitor);
    opt_text(&mut c.target.path, visitor);
    opt_text(&mut c.target.remote, visitor);
    opt_text(&mut c.target.branch, visitor);
    if let ClaimScope::Named { name, .. } = &mut c.scope {
        visitor.text(name);
    }
    if let ClaimActor::Other { who } = &mut c.actor {
        visitor.text(who);
    }
}

/// Visits a re-check's summary (its other fields are identifiers, times and enums).
pub fn visit_recheck_text(r: &mut crate::Recheck, visitor: &mut dyn TextVisitor) {
    visitor.text(&mut r.summary);
}

/// Visits the texts a finding's typed reason carries (commands, paths, output lines).
pub fn visit_finding_text(f: &mut Finding, visitor: &mut dyn TextVisitor) {
    for text in f.reason.texts_mut() {
        visitor.text(text);
    }
}
