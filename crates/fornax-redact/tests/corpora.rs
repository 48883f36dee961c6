//! Recall and damage on the secret and look-alike corpora (`docs/secrets.md`): every secret
//! is removed, and replaced exactly (the text around it keeps its bytes); every look-alike
//! comes out byte for byte, as plain text, inside JSON, and in every text field of every
//! message the pipeline stores.

#![allow(clippy::print_stdout)]
// The test reads its corpora from disk; the crate itself does no I/O (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

#[path = "common/corpora.rs"]
mod corpora;

use corpora::Entry;
use fornax_redact::{RedactionCounts, Redactor};
use fornax_types::evidence::{EvidenceSource, ExitCodePayload};
use fornax_types::*;
use serde_json::{json, Value};

/// Places `text` in each text-bearing field the pipeline stores: `(field, message)`.
fn placements(text: &str) -> Vec<(&'static str, IngestMessage)> {
    let session = SessionRef::new(Provider::ClaudeCode, "0b6f2c1e-5a4d-4e3c-9b2a-1f0e9d8c7b6a");
    let record = RecordRef::new(SourceId::new("file:/tmp/s.jsonl"), 3);
    let item = |role: Role, value: SemanticValue| {
        IngestMessage::Item(Item {
            session: session.clone(),
            key: "r3".into(),
            loop_position: Some(0),
            at: None,
            semantic: Semantic::new(role, value, EvidenceStrength::Structural),
            records: vec![record.clone()],
        })
    };
    let t = || text.to_string();
    vec![
        (
            "agent text",
            item(
                Role::AgentFinalAnswer,
                SemanticValue::Text(TextValue::full(t())),
            ),
        ),
        (
            "tool arguments",
            item(
                Role::AgentToolCall,
                SemanticValue::ToolCall(ToolCallValue {
                    call_id: Some("toolu_01".into()),
                    name: "Write".into(),
                    arguments: json!({"file_path": "/srv/app/notes.md", "content": t()}),
                    cwd: None,
                }),
            ),
        ),
        (
            "tool output",
            item(
                Role::ToolOutput,
                SemanticValue::ToolOutput(ToolOutputValue {
                    call_id: Some("toolu_01".into()),
                    tool_name: Some("Bash".into()),
                    text: Some(TextValue::full(t())),
                    stderr: Some(TextValue::full(t())),
                    exit_code: None,
                    failed: None,
                    interrupted: None,
                    duration_ms: None,
                    runtime_truncated: None,
                }),
            ),
        ),
        (
            "evidence payload",
            IngestMessage::Evidence(Evidence {
                id: "ev-1".into(),
                session: session.clone(),
                payload: EvidencePayload::ExitCode(ExitCodePayload {
                    command: t(),
                    call_id: None,
                    cwd: None,
                    exit_code: Some(0),
                    strength: EvidenceStrength::Structural,
                    failed: None,
                    interrupted: None,
                    timed_out: None,
                    duration_ms: None,
                }),
                source: EvidenceSource::pre_provenance(),
                provenance: "claude-code:0.1.0:tool_result".into(),
                extension: None,
                item_key: None,
                loop_position: None,
                at: None,
                records: Vec::new(),
            }),
        ),
    ]
}

/// The texts a message holds after redaction, as one string per field visited.
fn stored_texts(msg: &IngestMessage) -> String {
    serde_json::to_string(msg).unwrap_or_default()
}

fn json_escaped(s: &str) -> String {
    let quoted = serde_json::to_string(s).unwrap_or_default();
    quoted[1..quoted.len() - 1].to_string()
}

/// Secrets of `e` still present in `out`, as plain or JSON-escaped text.
fn leaked<'e>(e: &'e Entry, out: &str) -> Vec<&'e str> {
    e.secrets
        .iter()
        .filter(|s| out.contains(s.as_str()) || out.contains(&json_escaped(s)))
        .map(String::as_str)
        .collect()
}

#[test]
fn every_secret_is_removed_and_replaced_exactly() {
    let redactor = Redactor::new();
    let entries = corpora::secrets();
    assert!(entries.len() >= 150, "{} secret shapes", entries.len());
    let mut failures = Vec::new();
    let mut secrets = 0usize;
    let mut removed = 0usize;
    for e in &entries {
        let mut counts = RedactionCounts::default();
        let out = redactor
            .redact_text(&e.text, &mut counts)
            .unwrap_or_else(|| e.text.clone());
        secrets += e.secrets.len();
        let left = leaked(e, &out);
        removed += e.secrets.len() - left.len();
        if !left.is_empty() || !e.redacted_exactly(&out) {
            failures.push(format!(
                "{} [{}]:\n  in:  {:?}\n  out: {:?}",
                e.id, e.category, e.text, out
            ));
        }
        // A second pass changes nothing.
        let mut again = RedactionCounts::default();
        assert_eq!(
            redactor.redact_text(&out, &mut again),
            None,
            "{}: not idempotent",
            e.id
        );
    }
    println!(
        "secret corpus: {} shapes, {secrets} secrets, {removed} removed (recall {:.4})",
        entries.len(),
        removed as f64 / secrets as f64
    );
    assert!(
        failures.is_empty(),
        "{} of {}:\n{}",
        failures.len(),
        entries.len(),
        failures.join("\n")
    );
}

#[test]
fn every_lookalike_survives_byte_for_byte() {
    let redactor = Redactor::new();
    let entries = corpora::lookalikes();
    assert!(entries.len() >= 300, "{} look-alikes", entries.len());
    let mut damaged = Vec::new();
    for e in &entries {
        let mut counts = RedactionCounts::default();
        if let Some(out) = redactor.redact_text(&e.text, &mut counts) {
            damaged.push(format!(
                "{} [{}]:\n  in:  {:?}\n  out: {:?}",
                e.id, e.category, e.text, out
            ));
        }
    }
    println!(
        "look-alike corpus: {} entries, {} changed (damage {:.4})",
        entries.len(),
        damaged.len(),
        damaged.len() as f64 / entries.len() as f64
    );
    assert!(
        damaged.is_empty(),
        "{} of {}:\n{}",
        damaged.len(),
        entries.len(),
        damaged.join("\n")
    );
}

#[test]
fn every_field_of_every_message_is_redacted_and_lookalikes_kept() {
    let redactor = Redactor::new();
    let mut failures = Vec::new();
    for e in corpora::secrets() {
        for (field, msg) in placements(&e.text) {
            let mut counts = RedactionCounts::default();
            let out = stored_texts(redactor.redact(msg, &mut counts).get());
            let left = leaked(&e, &out);
            if !left.is_empty() {
                failures.push(format!("{} in {field}: {left:?} survived", e.id));
            }
        }
    }
    for e in corpora::lookalikes() {
        for (field, msg) in placements(&e.text) {
            let before = stored_texts(&msg);
            let mut counts = RedactionCounts::default();
            let after = stored_texts(redactor.redact(msg, &mut counts).get());
            if before != after {
                failures.push(format!("look-alike {} changed in {field}", e.id));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures, the first:\n{}",
        failures.len(),
        failures[..failures.len().min(20)].join("\n")
    );
}

#[test]
fn json_entries_are_redacted_as_documents_too() {
    let redactor = Redactor::new();
    let mut failures = Vec::new();
    for e in corpora::secrets()
        .iter()
        .chain(corpora::lookalikes().iter())
    {
        let Ok(mut doc) = serde_json::from_str::<Value>(&e.text) else {
            continue;
        };
        if !doc.is_object() && !doc.is_array() {
            continue;
        }
        let before = doc.clone();
        let mut counts = RedactionCounts::default();
        redactor.redact_json(&mut doc, &mut counts);
        let out = doc.to_string();
        if e.secrets.is_empty() {
            if doc != before {
                failures.push(format!("look-alike {} changed as JSON: {out}", e.id));
            }
        } else if !leaked(e, &out).is_empty() {
            failures.push(format!("{} survived as JSON: {out}", e.id));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
