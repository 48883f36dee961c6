//! The harness proves itself: a small well-behaved adapter passes, and each deliberately broken
//! adapter is caught by the property it breaks.

use fornax_adapter_conformance::{check_adapter, load_fixtures, replay};
use fornax_types::evidence::ExitCodePayload;
use fornax_types::*;
use serde_json::{json, Value};

/// What to break, if anything.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Flaw {
    None,
    WrongProvider,
    PanicsOnWrongType,
    ItemWithoutRecord,
    EvidenceWithoutSource,
    DeclaresExitCodesUnsupported,
    EmptyDiscriminator,
    BadUsage,
}

/// A toy format: `{"kind": "say", "session": "...", "text": "..."}` and
/// `{"kind": "ran", "session": "...", "command": "...", "exit": N}`.
#[derive(Debug)]
struct ToyAdapter {
    flaw: Flaw,
}

impl CapabilityProbe for ToyAdapter {
    fn probe(&self) -> RuntimeCapabilities {
        let process = if self.flaw == Flaw::DeclaresExitCodesUnsupported {
            SignalAvailability::Unsupported
        } else {
            SignalAvailability::Available
        };
        RuntimeCapabilities::new(Provider::Other("toy".into()), SourceKind::File)
            .declare(SignalClass::ProcessResult, process, "")
            .declare(
                SignalClass::FinalResponse,
                SignalAvailability::Available,
                "",
            )
    }
}

impl AgentAdapter for ToyAdapter {
    fn provider(&self) -> Provider {
        Provider::Other("toy".into())
    }

    fn adapter_version(&self) -> &'static str {
        "0.0.1"
    }

    fn normalize(&mut self, hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome {
        let v = native.value;
        let provider = if self.flaw == Flaw::WrongProvider {
            Provider::Codex
        } else {
            self.provider()
        };
        let session = SessionRef::new(
            provider.clone(),
            v.get("session").and_then(Value::as_str).unwrap_or(hint),
        );
        let records = if self.flaw == Flaw::ItemWithoutRecord {
            vec![]
        } else {
            vec![native.record.clone()]
        };
        match v.get("kind").and_then(Value::as_str) {
            Some("say") => {
                let text = if self.flaw == Flaw::PanicsOnWrongType {
                    v["text"].as_str().expect("text is a string").to_string()
                } else {
                    v.get("text")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_string()
                };
                let item = Item {
                    session,
                    key: format!("r{}", native.record.position),
                    loop_position: Some(0),
                    at: None,
                    semantic: Semantic::new(
                        Role::AgentFinalAnswer,
                        SemanticValue::Text(TextValue::full(text)),
                        EvidenceStrength::Structural,
                    ),
                    records,
                };
                let mut msgs = vec![IngestMessage::Item(item)];
                if self.flaw == Flaw::BadUsage {
                    msgs.push(IngestMessage::Loop(Loop {
                        session: SessionRef::new(provider, "s"),
                        position: 0,
                        native_id: None,
                        start_record: native.record.clone(),
                        started_at: None,
                        end: None,
                        model: None,
                        usage: Some(Usage {
                            input_tokens: Some(1),
                            cached_input_tokens: Some(5),
                            ..Usage::default()
                        }),
                        runtime_version: None,
                    }));
                }
                NormalizationOutcome::Messages(msgs)
            }
            Some("ran") => {
                let exit = v.get("exit").and_then(Value::as_i64);
                let source = if self.flaw == Flaw::EvidenceWithoutSource {
                    EvidenceSource::pre_provenance()
                } else {
                    EvidenceSource {
                        sensor_name: "toy_exit".into(),
                        trust_class: TrustClass::AgentAdjacent,
                        collection_method: CollectionMethod::FilePoll,
                        collector_version: "0.0.1".into(),
                        freshness: Freshness {
                            clock: ClockSource::RecordOrderOnly,
                            caveat: None,
                        },
                        tamper_boundary: "toy file".into(),
                        collected_at: None,
                        provider: provider.clone(),
                    }
                };
                let ev = Evidence {
                    id: format!("exit:{}", native.record.position),
                    session,
                    payload: EvidencePayload::ExitCode(ExitCodePayload {
                        command: v
                            .get("command")
                            .and_then(Value::as_str)
                            .unwrap_or("")
                            .to_string(),
                        call_id: None,
                        cwd: None,
                        exit_code: exit,
                        strength: EvidenceStrength::Structural,
                        failed: None,
                        interrupted: None,
                        timed_out: None,
                        duration_ms: None,
                    }),
                    source,
                    provenance: "toy:0.0.1:ran".into(),
                    extension: None,
                    item_key: None,
                    loop_position: None,
                    at: None,
                    records,
                };
                NormalizationOutcome::Messages(vec![IngestMessage::Evidence(ev)])
            }
            Some("noise") => NormalizationOutcome::Ignored {
                reason: "toy noise",
            },
            Some(other) => NormalizationOutcome::Unrecognized {
                discriminator: if self.flaw == Flaw::EmptyDiscriminator {
                    String::new()
                } else {
                    other.to_string()
                },
            },
            None => NormalizationOutcome::Unrecognized {
                discriminator: if self.flaw == Flaw::EmptyDiscriminator {
                    String::new()
                } else {
                    "<no kind>".into()
                },
            },
        }
    }
}

fn natives() -> Vec<Value> {
    vec![
        json!({"kind": "say", "session": "s1", "text": "all tests pass"}),
        json!({"kind": "ran", "session": "s1", "command": "cargo test", "exit": 0}),
        json!({"kind": "noise"}),
        json!({"kind": "from_the_future"}),
    ]
}

fn report_for(flaw: Flaw) -> fornax_adapter_conformance::Report {
    check_adapter(move || ToyAdapter { flaw }, &natives())
}

#[test]
fn a_conforming_adapter_passes() {
    let report = report_for(Flaw::None);
    report.assert_ok();
    assert_eq!(report.unrecognized, 1);
    assert_eq!(report.ignored, 1);
}

#[test]
fn wrong_provider_stamp_is_caught() {
    assert!(report_for(Flaw::WrongProvider).has("provider_stamp"));
}

#[test]
fn a_panic_on_wrong_types_is_caught() {
    let report = report_for(Flaw::PanicsOnWrongType);
    assert!(report.has("never_panics"), "{:?}", report.violations);
}

#[test]
fn an_item_without_records_is_caught() {
    assert!(report_for(Flaw::ItemWithoutRecord).has("item_cites_records"));
}

#[test]
fn evidence_without_source_is_caught() {
    assert!(report_for(Flaw::EvidenceWithoutSource).has("evidence_has_source"));
}

#[test]
fn a_false_declaration_is_caught() {
    assert!(report_for(Flaw::DeclaresExitCodesUnsupported).has("declaration_matches_reality"));
}

#[test]
fn an_empty_discriminator_is_caught() {
    assert!(report_for(Flaw::EmptyDiscriminator).has("unrecognized_discriminator"));
}

#[test]
fn broken_usage_invariants_are_caught() {
    assert!(report_for(Flaw::BadUsage).has("usage_invariants"));
}

#[test]
fn golden_fixtures_replay_and_snapshot() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/toy");
    let fixtures = load_fixtures(&dir).unwrap();
    assert!(!fixtures.is_empty());
    for (name, fixture) in fixtures {
        let mut adapter = ToyAdapter { flaw: Flaw::None };
        let replay = replay(&mut adapter, &fixture);
        if name.starts_with("unrecognized_future_") {
            assert!(
                !replay.unrecognized().is_empty(),
                "{name} must come back Unrecognized"
            );
        }
        insta::assert_json_snapshot!(name, replay.to_snapshot());
    }
}

#[test]
fn unsanitized_fixtures_are_refused() {
    let dir = tempdir();
    std::fs::write(
        dir.join("raw.json"),
        r#"{"provider":"toy","provider_runtime_version":"1","description":"d","native_events":[{}]}"#,
    )
    .unwrap();
    let err = load_fixtures(&dir).unwrap_err().to_string();
    assert!(err.contains("sanitized"), "{err}");
    std::fs::remove_dir_all(dir).ok();
}

fn tempdir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("fornax-conformance-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
