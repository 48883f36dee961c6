//! Whole messages: a shell call's words are judged with their context, copies of a secret in
//! other fields go too, plain words that happen to equal a short secret stay, and redacting a
//! message twice changes nothing.

use fornax_redact::{RedactionCounts, Redactor};
use fornax_types::shell::parse_invocations;
use fornax_types::*;
use proptest::prelude::*;

fn shell_item(command: &str) -> IngestMessage {
    IngestMessage::Item(Item {
        session: SessionRef::new(Provider::Codex, "0199a3b2-7c4d-7e8f-9a0b-1c2d3e4f5a6b"),
        key: "call_1".into(),
        loop_position: Some(0),
        at: None,
        semantic: Semantic::new(
            Role::AgentToolCallShell,
            SemanticValue::ShellCall(ShellCallValue {
                call_id: Some("call_1".into()),
                tool_name: "exec_command".into(),
                command: command.into(),
                invocations: parse_invocations(command),
                cwd: None,
                timeout_ms: None,
            }),
            EvidenceStrength::Structural,
        ),
        records: vec![RecordRef::new(SourceId::new("rollout"), 3)],
    })
}

fn redacted_shell(command: &str) -> ShellCallValue {
    let mut msg = shell_item(command);
    let mut counts = RedactionCounts::default();
    Redactor::new().redact_message(&mut msg, &mut counts);
    match msg {
        IngestMessage::Item(item) => match item.semantic.value {
            SemanticValue::ShellCall(call) => call,
            other => panic!("not a shell call: {other:?}"),
        },
        other => panic!("not an item: {other:?}"),
    }
}

#[test]
fn argv_words_are_judged_with_their_flags() {
    let call = redacted_shell("mysql -u root -pQx7secret app && echo done");
    assert_eq!(
        call.command,
        "mysql -u root -p[REDACTED:cli_password] app && echo done"
    );
    assert_eq!(
        call.invocations[0].argv,
        ["-u", "root", "-p[REDACTED:cli_password]", "app"]
    );
    assert_eq!(call.invocations[1].argv, ["done"]);

    let call = redacted_shell("vault login --password hunter2 -address=https://vault:8200");
    assert_eq!(
        call.invocations[0].argv,
        [
            "login",
            "--password",
            "[REDACTED:cli_password]",
            "-address=https://vault:8200"
        ]
    );

    let call = redacted_shell(
        "curl -sS -u admin:s3cret -H 'Authorization: Bearer abc123def456ghi789' https://x",
    );
    assert_eq!(
        call.invocations[0].argv,
        [
            "-sS",
            "-u",
            "admin:[REDACTED:cli_password]",
            "-H",
            "Authorization: Bearer [REDACTED:authorization]",
            "https://x"
        ]
    );
}

#[test]
fn env_assignments_and_plain_words() {
    let call = redacted_shell("PASSWORD=test cargo test -p app");
    assert_eq!(
        call.command,
        "PASSWORD=[REDACTED:secret_assignment] cargo test -p app"
    );
    assert_eq!(
        call.invocations[0].env,
        ["PASSWORD=[REDACTED:secret_assignment]"]
    );
    // `test` is also the password, but as a word of its own it is the cargo subcommand.
    assert_eq!(call.invocations[0].program, "cargo");
    assert_eq!(call.invocations[0].argv, ["test", "-p", "app"]);
}

#[test]
fn copies_of_a_distinctive_secret_go_everywhere() {
    let mut msg = shell_item("export API_TOKEN=tok_9f8e7d6c && ./deploy.sh tok_9f8e7d6c");
    let mut counts = RedactionCounts::default();
    Redactor::new().redact_message(&mut msg, &mut counts);
    let json = WireMessage::new(msg).to_json();
    assert!(!json.contains("tok_9f8e7d6c"), "{json}");
}

#[test]
fn capability_notes_are_redacted() {
    let mut caps = RuntimeCapabilities::new(Provider::Opencode, SourceKind::PluginStream);
    caps.notes.insert(
        "proxy".into(),
        "https://user:pa55word@proxy.internal:3128".into(),
    );
    let mut msg = IngestMessage::Capabilities(caps);
    let mut counts = RedactionCounts::default();
    Redactor::new().redact_message(&mut msg, &mut counts);
    let IngestMessage::Capabilities(caps) = msg else {
        unreachable!()
    };
    assert_eq!(
        caps.notes["proxy"],
        "https://user:[REDACTED:url_credentials]@proxy.internal:3128"
    );
}

#[test]
fn identifiers_are_not_touched() {
    let mut msg = shell_item("echo ok");
    if let IngestMessage::Item(item) = &mut msg {
        // A key that looks like a token is an identifier, not text: not visited.
        item.key = "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB".into();
    }
    let before = msg.clone();
    let mut counts = RedactionCounts::default();
    Redactor::new().redact_message(&mut msg, &mut counts);
    assert_eq!(msg, before);
}

const PIECES: &[&str] = &[
    "mysql",
    "-u",
    "root",
    "-p",
    "-psecret1",
    "--password",
    "--token=",
    "hunter2",
    "curl",
    "-H",
    "'Authorization: Bearer abc123def456ghi789'",
    "PASSWORD=x1y2",
    "API_KEY=\"k 1\"",
    "&&",
    "|",
    ";",
    "\n",
    " ",
    "cd /tmp",
    "sshpass",
    "-a",
    "redis-cli",
    "\"",
    "'",
    "test",
    "postgres://u:pw12345@db/x",
    "ghp_aB3dE5fG7hJ9kL1mN3pQ5rS7tU9vW1xY3zA5",
    "$TOKEN",
    ">",
    "out.txt",
    "2>&1",
    "echo",
    "q8Zr2LmX9vT4nB7kW1pY6sD3",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn shell_messages_are_redacted_idempotently(
        parts in prop::collection::vec(prop::sample::select(PIECES), 0..24)
    ) {
        let command = parts.join(" ");
        let redactor = Redactor::new();
        let mut msg = shell_item(&command);
        let mut counts = RedactionCounts::default();
        redactor.redact_message(&mut msg, &mut counts);
        let once = msg.clone();
        let mut again = RedactionCounts::default();
        redactor.redact_message(&mut msg, &mut again);
        prop_assert_eq!(&msg, &once);
        prop_assert!(again.is_empty(), "{:?}", again);
    }
}
