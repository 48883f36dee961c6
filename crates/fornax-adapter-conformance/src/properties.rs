//! The property checks.

use std::panic::{catch_unwind, AssertUnwindSafe};

use fornax_types::{
    AgentAdapter, EvidenceKind, IngestMessage, NativeRecord, NormalizationOutcome, RecordRef, Role,
    RuntimeCapabilities, SemanticValue, SignalAvailability, SignalClass, SourceId, WireMessage,
};
use serde_json::{json, Value};

/// One broken property, with enough context to find the cause.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Stable name of the property (`provider_stamp`, `wire_round_trip`, ...).
    pub property: &'static str,
    pub detail: String,
}

/// The result of running the checks.
#[derive(Debug, Default)]
pub struct Report {
    pub violations: Vec<Violation>,
    /// Counts of outcomes seen, for visibility in test output.
    pub messages: usize,
    pub ignored: usize,
    pub unrecognized: usize,
}

impl Report {
    pub fn is_ok(&self) -> bool {
        self.violations.is_empty()
    }

    pub fn has(&self, property: &str) -> bool {
        self.violations.iter().any(|v| v.property == property)
    }

    /// Panics with every violation listed.
    pub fn assert_ok(&self) {
        if !self.is_ok() {
            let lines: Vec<String> = self
                .violations
                .iter()
                .map(|v| format!("  {}: {}", v.property, v.detail))
                .collect();
            panic!(
                "adapter breaks the conformance contract:\n{}",
                lines.join("\n")
            );
        }
    }

    pub(crate) fn violate(&mut self, property: &'static str, detail: impl Into<String>) {
        if self.violations.len() < 200 {
            self.violations.push(Violation {
                property,
                detail: detail.into(),
            });
        }
    }
}

fn signal_for_evidence(kind: EvidenceKind) -> Option<SignalClass> {
    match kind {
        EvidenceKind::ExitCode => Some(SignalClass::ProcessResult),
        EvidenceKind::FileDiff => Some(SignalClass::FileMutation),
        EvidenceKind::TestSummary | EvidenceKind::GitOutcome | EvidenceKind::ToolResult => {
            Some(SignalClass::ToolOutput)
        }
        _ => None,
    }
}

fn signal_for_role(role: Role) -> Option<SignalClass> {
    Some(match role {
        Role::HumanRequest | Role::HumanSteering => SignalClass::HumanInput,
        Role::AgentFinalAnswer => SignalClass::FinalResponse,
        Role::AgentCommentary => SignalClass::AgentCommentary,
        Role::AgentReasoning => SignalClass::Reasoning,
        Role::AgentToolCall | Role::AgentToolCallShell => SignalClass::ToolInvocation,
        Role::ToolOutput => SignalClass::ToolOutput,
        Role::AgentDelegation | Role::SubagentActivity | Role::SubagentReport => {
            SignalClass::SubagentLifecycle
        }
        _ => return None,
    })
}

fn declared_absent(caps: &RuntimeCapabilities, class: &SignalClass) -> bool {
    matches!(
        caps.availability(class),
        SignalAvailability::Unsupported | SignalAvailability::Unavailable
    )
}

fn check_message(
    report: &mut Report,
    adapter_provider: &fornax_types::Provider,
    caps: &RuntimeCapabilities,
    msg: &IngestMessage,
    at: usize,
) {
    if let Some(p) = msg.provider() {
        if p != adapter_provider {
            report.violate(
                "provider_stamp",
                format!(
                    "record {at}: {} message stamped {p}, adapter is {adapter_provider}",
                    msg.type_name()
                ),
            );
        }
    }
    let wire = WireMessage::new(msg.clone());
    match WireMessage::from_json(&wire.to_json()) {
        Ok(back) if back == wire => {}
        Ok(_) => report.violate(
            "wire_round_trip",
            format!(
                "record {at}: {} message changes through its wire shape",
                msg.type_name()
            ),
        ),
        Err(e) => report.violate(
            "wire_round_trip",
            format!(
                "record {at}: {} message does not parse back: {e}",
                msg.type_name()
            ),
        ),
    }
    match msg {
        IngestMessage::Item(item) => {
            if item.records.is_empty() {
                report.violate(
                    "item_cites_records",
                    format!("record {at}: item {} cites no record", item.key),
                );
            }
            if item.key.is_empty() {
                report.violate("item_key", format!("record {at}: item with an empty key"));
            }
            if !item.semantic.is_consistent() {
                report.violate(
                    "semantic_shape",
                    format!(
                        "record {at}: role {} carries a mismatched value",
                        item.semantic.role.as_str()
                    ),
                );
            }
            if let Some(class) = signal_for_role(item.semantic.role) {
                if declared_absent(caps, &class) {
                    report.violate(
                        "declaration_matches_reality",
                        format!(
                            "record {at}: {} item emitted but {class} is declared {}",
                            item.semantic.role.as_str(),
                            caps.availability(&class)
                        ),
                    );
                }
            }
            if let SemanticValue::ToolOutput(out) = &item.semantic.value {
                if out.exit_code.is_some() && declared_absent(caps, &SignalClass::ProcessResult) {
                    report.violate(
                        "declaration_matches_reality",
                        format!(
                            "record {at}: exit code emitted but process_result is declared {}",
                            caps.availability(&SignalClass::ProcessResult)
                        ),
                    );
                }
            }
        }
        IngestMessage::Loop(lp) => {
            if let Some(usage) = &lp.usage {
                if let Err(e) = usage.validate() {
                    report.violate(
                        "usage_invariants",
                        format!("record {at}: loop {}: {e}", lp.position),
                    );
                }
            }
        }
        IngestMessage::Evidence(ev) => {
            if ev.source.is_pre_provenance() {
                report.violate(
                    "evidence_has_source",
                    format!("record {at}: evidence {} carries no EvidenceSource", ev.id),
                );
            }
            if let Some(class) = signal_for_evidence(ev.kind()) {
                if declared_absent(caps, &class) {
                    report.violate(
                        "declaration_matches_reality",
                        format!(
                            "record {at}: {} evidence emitted but {class} is declared {}",
                            ev.kind().as_str(),
                            caps.availability(&class)
                        ),
                    );
                }
            }
        }
        IngestMessage::Capabilities(c) if c.provider != caps.provider => {
            report.violate(
                "probe_agrees",
                format!("record {at}: announced capabilities name {}", c.provider),
            );
        }
        _ => {}
    }
}

fn normalize_guarded(
    adapter: &mut dyn AgentAdapter,
    hint: &str,
    native: &NativeRecord<'_>,
) -> Result<NormalizationOutcome, String> {
    catch_unwind(AssertUnwindSafe(|| adapter.normalize(hint, native))).map_err(|p| {
        p.downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| p.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "non-string panic".to_string())
    })
}

/// Replays `natives` in order through one adapter from `make` and checks every property on
/// every outcome, then runs [`check_robustness`].
pub fn check_adapter<A, F>(make: F, natives: &[Value]) -> Report
where
    A: AgentAdapter + 'static,
    F: Fn() -> A,
{
    let mut report = Report::default();
    let mut adapter = make();
    let caps = adapter.probe();
    let provider = adapter.provider();
    if caps.provider != provider {
        report.violate(
            "probe_agrees",
            format!("probe() says {}, provider() says {provider}", caps.provider),
        );
    }
    let source = SourceId::new("conformance");
    for (i, native) in natives.iter().enumerate() {
        let record = RecordRef::new(source.clone(), i as u64);
        let nr = NativeRecord::new(&record, native);
        match normalize_guarded(&mut adapter, "conformance-session", &nr) {
            Err(p) => report.violate("never_panics", format!("record {i}: panicked: {p}")),
            Ok(NormalizationOutcome::Messages(msgs)) => {
                report.messages += msgs.len();
                for m in &msgs {
                    check_message(&mut report, &provider, &caps, m, i);
                }
            }
            Ok(NormalizationOutcome::Ignored { reason }) => {
                report.ignored += 1;
                if reason.is_empty() {
                    report.violate(
                        "ignored_has_reason",
                        format!("record {i}: Ignored without a reason"),
                    );
                }
            }
            Ok(NormalizationOutcome::Unrecognized { discriminator }) => {
                report.unrecognized += 1;
                if discriminator.is_empty() {
                    report.violate(
                        "unrecognized_discriminator",
                        format!("record {i}: empty discriminator"),
                    );
                }
            }
        }
    }
    match catch_unwind(AssertUnwindSafe(|| adapter.finish())) {
        Ok(msgs) => {
            for m in &msgs {
                check_message(&mut report, &provider, &caps, m, natives.len());
            }
        }
        Err(_) => report.violate("never_panics", "finish() panicked"),
    }
    let robust = check_robustness(make, natives);
    report.violations.extend(robust.violations);
    report
}

/// Hostile inputs derived from nothing and from each real native record: a never-seen shape,
/// empty and non-object payloads, each top-level field replaced by every wrong JSON type,
/// deep nesting and a 5 MB string. None may panic; an `Unrecognized` must name a
/// discriminator.
pub fn check_robustness<A, F>(make: F, natives: &[Value]) -> Report
where
    A: AgentAdapter + 'static,
    F: Fn() -> A,
{
    let mut report = Report::default();
    let huge = "x".repeat(5 * 1024 * 1024);
    let mut deep = json!({"type": "deep"});
    for _ in 0..200 {
        deep = json!({"type": "deep", "payload": deep});
    }
    let mut hostile: Vec<(String, Value)> = vec![
        (
            "never_seen_shape".into(),
            json!({"type": "fornax_never_seen_shape_v999", "hook_event_name": "FornaxNeverSeen", "payload": {"type": "fornax_never_seen"}}),
        ),
        ("empty_object".into(), json!({})),
        ("null".into(), Value::Null),
        ("array".into(), json!([1, "two", null])),
        ("number".into(), json!(42)),
        ("string".into(), json!("text")),
        ("deep_nesting".into(), deep),
        (
            "huge_string".into(),
            json!({"type": huge.clone(), "message": huge.clone(), "content": huge.clone(), "text": huge.clone()}),
        ),
    ];
    let wrong_types = [
        Value::Null,
        json!(7),
        json!(-1.5),
        json!("s"),
        json!([]),
        json!({}),
        json!(true),
        Value::String("y".repeat(64 * 1024)),
    ];
    for (i, native) in natives.iter().enumerate().take(32) {
        if let Some(obj) = native.as_object() {
            for key in obj.keys() {
                for (t, wrong) in wrong_types.iter().enumerate() {
                    let mut mutated = native.clone();
                    mutated[key.as_str()] = wrong.clone();
                    hostile.push((
                        format!("record {i} with `{key}` as wrong type #{t}"),
                        mutated,
                    ));
                }
            }
        }
    }
    let source = SourceId::new("conformance-hostile");
    for (i, (label, value)) in hostile.iter().enumerate() {
        // A fresh adapter primed with the real records, so stateful paths are exercised too.
        let mut adapter = make();
        for (j, native) in natives.iter().enumerate().take(16) {
            let record = RecordRef::new(source.clone(), j as u64);
            let _ = normalize_guarded(
                &mut adapter,
                "conformance-session",
                &NativeRecord::new(&record, native),
            );
        }
        let record = RecordRef::new(source.clone(), 1000 + i as u64);
        match normalize_guarded(
            &mut adapter,
            "conformance-session",
            &NativeRecord::new(&record, value),
        ) {
            Err(p) => report.violate("never_panics", format!("{label}: panicked: {p}")),
            Ok(NormalizationOutcome::Unrecognized { discriminator })
                if discriminator.is_empty() =>
            {
                report.violate(
                    "unrecognized_discriminator",
                    format!("{label}: empty discriminator"),
                );
            }
            Ok(_) => {}
        }
        if catch_unwind(AssertUnwindSafe(|| adapter.finish())).is_err() {
            report.violate("never_panics", format!("{label}: finish() panicked"));
        }
    }
    report
}
