//! The two transports witness one fact once: a call reported by Copilot's tool hooks and
//! by its session log gets one key (the first hook's timestamp and the call's fingerprint),
//! and the same session id.

use std::path::PathBuf;

use fornax_adapter_conformance::{load_fixtures, replay};
use fornax_adapter_copilot::{CopilotEventsAdapter, CopilotHookAdapter};
use fornax_types::{IngestMessage, Item, Role, SemanticValue};

fn items(name: &str, hooks: bool) -> Vec<Item> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let (_, fixture) = load_fixtures(&dir)
        .unwrap()
        .into_iter()
        .find(|(n, _)| n == name)
        .unwrap();
    let replayed = if hooks {
        replay(&mut CopilotHookAdapter::default(), &fixture)
    } else {
        replay(&mut CopilotEventsAdapter::default(), &fixture)
    };
    replayed
        .steps
        .into_iter()
        .flat_map(|s| s.outcome.messages())
        .chain(replayed.finished)
        .filter_map(|m| match m {
            IngestMessage::Item(i) => Some(i),
            _ => None,
        })
        .collect()
}

fn shell_output_keys(items: &[Item]) -> Vec<(String, String)> {
    items
        .iter()
        .filter(|i| i.semantic.role == Role::ToolOutput)
        .filter(|i| matches!(&i.semantic.value, SemanticValue::ToolOutput(o) if o.tool_name.as_deref() == Some("bash")))
        .map(|i| (i.session.native_id.clone(), i.key.clone()))
        .collect()
}

#[test]
fn a_hooked_call_has_one_key_in_both_transports() {
    let log = items("v1_0_55_tool_loop_subagent_shutdown", false);
    let hooks = items("hooks_v1_0_55_prompt_tools_stop", true);
    let from_log = shell_output_keys(&log);
    let from_hooks = shell_output_keys(&hooks);
    assert_eq!(from_log.len(), 1, "{from_log:?}");
    assert_eq!(from_log, from_hooks, "the cargo test output is one fact");
    // The call too, and the log's witness keeps the call id the hook cannot know.
    let call_key = from_log[0].1.trim_end_matches(":out");
    let log_call = log.iter().find(|i| i.key == call_key).unwrap();
    let hook_call = hooks.iter().find(|i| i.key == call_key).unwrap();
    assert_eq!(log_call.semantic.role, Role::AgentToolCallShell);
    assert_eq!(hook_call.semantic.role, Role::AgentToolCallShell);
    assert!(
        matches!(&log_call.semantic.value, SemanticValue::ShellCall(c) if c.call_id.as_deref() == Some("toolu_7c1a_bash1"))
    );
}

#[test]
fn calls_no_hook_reported_keep_their_call_id_key() {
    let log = items("v1_0_55_tool_loop_subagent_shutdown", false);
    assert!(log.iter().any(|i| i.key == "call:toolu_7c1a_edit1"));
    assert!(log.iter().any(|i| i.key == "out:toolu_7c1a_edit1"));
}
