//! Canaries of every detector kind, planted in every text-bearing field of every message
//! type: none may survive redaction, and each placeholder must name the canary's kind.

mod common;

use common::{canaries, Canary};
use fornax_redact::{RedactionCounts, Redactor};
use fornax_types::evidence::{EvidenceSource, ExitCodePayload};
use fornax_types::shell::parse_invocations;
use fornax_types::*;
use serde_json::json;

fn session_ref() -> SessionRef {
    SessionRef::new(Provider::ClaudeCode, "5f0c2a9e-1b7d-4c3e-9a8f-0e1d2c3b4a59")
}

fn record() -> RecordRef {
    RecordRef::new(SourceId::new("src-1"), 7)
}

fn item(role: Role, value: SemanticValue) -> IngestMessage {
    IngestMessage::Item(Item {
        session: session_ref(),
        key: "r7".into(),
        loop_position: Some(0),
        at: None,
        semantic: Semantic::new(role, value, EvidenceStrength::Structural),
        records: vec![record()],
    })
}

fn evidence(command: String, extension: Option<ExtensionEnvelope>) -> IngestMessage {
    IngestMessage::Evidence(Evidence {
        id: "ev-1".into(),
        session: session_ref(),
        payload: EvidencePayload::ExitCode(ExitCodePayload {
            command,
            call_id: None,
            cwd: None,
            exit_code: Some(1),
            strength: EvidenceStrength::Structural,
            failed: None,
            interrupted: None,
            timed_out: None,
            duration_ms: None,
        }),
        source: EvidenceSource::pre_provenance(),
        provenance: "claude-code:0.1.0:tool_result".into(),
        extension,
        item_key: None,
        loop_position: None,
        at: None,
        records: Vec::new(),
    })
}

fn envelope(fields: serde_json::Value, unknown: serde_json::Value) -> ExtensionEnvelope {
    let mut unknown_map = serde_json::Map::new();
    unknown_map.insert("future_key".into(), unknown);
    ExtensionEnvelope {
        schema_version: 2,
        provider: Provider::Opencode,
        adapter_version: "0.1.0".into(),
        content_class: ContentClass::ToolTelemetry,
        fields,
        unknown: unknown_map,
    }
}

/// One message per text-bearing field, each carrying `text` in that field.
fn messages(text: &str) -> Vec<(&'static str, IngestMessage)> {
    let t = || text.to_string();
    let shell_command = format!("cd /srv/app && {text}");
    vec![
        (
            "item text",
            item(
                Role::HumanRequest,
                SemanticValue::Text(TextValue::full(t())),
            ),
        ),
        (
            "reasoning text",
            item(
                Role::AgentReasoning,
                SemanticValue::Reasoning(ReasoningValue {
                    mode: ReasoningMode::Full,
                    text: Some(TextValue::full(t())),
                }),
            ),
        ),
        (
            "shell command, argv, env",
            item(
                Role::AgentToolCallShell,
                SemanticValue::ShellCall(ShellCallValue {
                    call_id: Some("toolu_01".into()),
                    tool_name: "Bash".into(),
                    invocations: parse_invocations(&shell_command),
                    command: shell_command.clone(),
                    cwd: Some("/srv/app".into()),
                    timeout_ms: None,
                }),
            ),
        ),
        (
            "invocation argv and env on their own",
            item(
                Role::AgentToolCallShell,
                SemanticValue::ShellCall(ShellCallValue {
                    call_id: None,
                    tool_name: "shell".into(),
                    command: "./deploy.sh".into(),
                    invocations: vec![Invocation {
                        program: "./deploy.sh".into(),
                        argv: vec![t()],
                        env: vec![t()],
                        cwd: Some(t()),
                        redirects_to: vec![t()],
                        then: None,
                    }],
                    cwd: Some(t()),
                    timeout_ms: None,
                }),
            ),
        ),
        (
            "tool arguments (nested JSON)",
            item(
                Role::AgentToolCall,
                SemanticValue::ToolCall(ToolCallValue {
                    call_id: Some("call_1".into()),
                    name: "Write".into(),
                    arguments: json!({
                        "file_path": "/srv/app/.env",
                        "content": {"lines": [t(), {"deeper": [[t()]]}]},
                        "description": t(),
                    }),
                    cwd: Some(t()),
                }),
            ),
        ),
        (
            "tool output text and stderr",
            item(
                Role::ToolOutput,
                SemanticValue::ToolOutput(ToolOutputValue {
                    call_id: Some("toolu_01".into()),
                    tool_name: Some("Bash".into()),
                    text: Some(TextValue::full(format!("line one\n{text}\nline three"))),
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
            "subagent text",
            item(
                Role::SubagentReport,
                SemanticValue::Subagent(SubagentValue {
                    child_session: None,
                    agent_id: None,
                    agent_type: None,
                    status: None,
                    text: Some(TextValue::full(t())),
                }),
            ),
        ),
        ("evidence payload", evidence(t(), None)),
        (
            "extension envelope fields and unknown keys",
            evidence(
                "true".into(),
                Some(envelope(
                    json!({"title": t(), "meta": {"list": [t()]}}),
                    json!({"x": [t()]}),
                )),
            ),
        ),
        (
            "claim text and target",
            IngestMessage::Claim(Claim {
                id: "c1".into(),
                session: session_ref(),
                item_key: "r9".into(),
                loop_position: None,
                subject: ClaimSubject::CommandSucceeded,
                text: format!("I ran `{text}` and it worked."),
                target: ClaimTarget {
                    command: Some(t()),
                    path: Some(t()),
                    ..ClaimTarget::default()
                },
                scope: Default::default(),
                quantity: Default::default(),
                actor: Default::default(),
                at: None,
            }),
        ),
        (
            "finding rationale",
            IngestMessage::Finding(Finding {
                claim_id: "c1".into(),
                session: session_ref(),
                verdict: Verdict::Review,
                reason: Reason::Inconclusive {
                    run: reason::RunFact {
                        command: format!("deploy {text}"),
                        when: reason::When::Unpositioned,
                        by_subagent: None,
                    },
                    readings: vec![reason::Reading::OutputShows { line: t() }],
                },
                evidence: vec!["ev-1".into()],
                rule: "partial_output".into(),
            }),
        ),
        (
            "session cwd and name",
            IngestMessage::Session(Session {
                id: session_ref(),
                identity_record: record(),
                cwd: Some(t()),
                name: Some(t()),
                created_at: None,
                forked_from: None,
                delegated_from: None,
                runtime_version: Some("2.1.119".into()),
            }),
        ),
        (
            "capability detail and notes",
            IngestMessage::Capabilities(
                RuntimeCapabilities::new(Provider::Codex, SourceKind::File)
                    .declare(
                        SignalClass::ProcessResult,
                        SignalAvailability::Available,
                        t(),
                    )
                    .stamped("s-1", &t()),
            ),
        ),
    ]
}

fn check(redactor: &Redactor, canary: &Canary, field: &str, mut msg: IngestMessage) {
    let mut counts = RedactionCounts::default();
    redactor.redact_message(&mut msg, &mut counts);
    let wire = WireMessage::new(msg).to_json();
    assert!(
        !wire.contains(&canary.secret),
        "{:?} canary survived in {field}:\n{wire}",
        canary.kind
    );
    assert!(
        wire.contains(canary.kind.placeholder()),
        "{field}: expected {} in\n{wire}",
        canary.kind.placeholder()
    );
    assert!(
        counts.get(canary.kind) >= 1,
        "{field}: {:?} not counted: {counts:?}",
        canary.kind
    );
    // Placeholders keep the message valid: it reads back from the wire.
    let back = WireMessage::from_json(&wire).expect("redacted message reads back");
    assert_eq!(WireMessage::new(back.message).to_json(), wire);
}

#[test]
fn no_canary_survives_in_any_field() {
    let redactor = Redactor::new();
    for canary in canaries() {
        for (field, msg) in messages(&canary.planted) {
            check(&redactor, &canary, field, msg);
        }
    }
}

#[test]
fn canaries_are_caught_alone_in_plain_text() {
    let redactor = Redactor::new();
    for canary in canaries() {
        let mut counts = RedactionCounts::default();
        let out = redactor
            .redact_text(&canary.planted, &mut counts)
            .unwrap_or_else(|| panic!("{:?} not detected in {:?}", canary.kind, canary.planted));
        assert!(!out.contains(&canary.secret), "{:?}: {out}", canary.kind);
        assert!(
            out.contains(canary.kind.placeholder()),
            "{:?}: {out}",
            canary.kind
        );
    }
}

#[test]
fn every_kind_has_a_canary() {
    let kinds: std::collections::BTreeSet<_> = canaries().iter().map(|c| c.kind).collect();
    for kind in fornax_redact::SecretKind::ALL {
        assert!(kinds.contains(&kind), "no canary for {kind}");
    }
}

#[test]
fn counts_never_hold_the_secret() {
    let redactor = Redactor::new();
    let mut counts = RedactionCounts::default();
    for canary in canaries() {
        redactor.redact_text(&canary.planted, &mut counts);
    }
    let json = serde_json::to_string(&counts).unwrap();
    for canary in canaries() {
        assert!(!json.contains(&canary.secret));
    }
    assert!(counts.total() >= canaries().len() as u64);
}
