//! The same fact seen through a hook and through the transcript gets the same key and the
//! same value, so a second witness replaces instead of duplicating.

mod common;

use common::{latest, run};
use fornax_adapter_claude::{ClaudeHookAdapter, ClaudeTranscriptAdapter};
use fornax_types::SemanticValue;
use serde_json::json;

const S: &str = "5a5a5a5a-0000-4000-8000-000000000001";

#[test]
fn tool_calls_and_outputs_agree_across_transports() {
    let input =
        json!({"command": "cd api && cargo test -q", "description": "Run tests", "timeout": 60000});
    let hooks = run(
        &mut ClaudeHookAdapter::default(),
        &[
            json!({"session_id": S, "cwd": "/srv", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": input, "tool_use_id": "toolu_same_1"}),
            json!({"session_id": S, "cwd": "/srv", "hook_event_name": "PostToolUse", "tool_name": "Bash",
                   "tool_input": input, "tool_use_id": "toolu_same_1",
                   "tool_response": {"stdout": "test result: ok. 3 passed", "stderr": "warning: unused", "interrupted": false, "isImage": false}}),
            json!({"session_id": S, "cwd": "/srv", "hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": "cargo build"}, "tool_use_id": "toolu_same_2"}),
            json!({"session_id": S, "cwd": "/srv", "hook_event_name": "PostToolUseFailure", "tool_name": "Bash",
                   "tool_input": {"command": "cargo build"}, "tool_use_id": "toolu_same_2",
                   "error": "Exit code 101\nerror[E0308]: mismatched types", "is_interrupt": false}),
        ],
    );
    let line = |uuid: &str, ty: &str, content: serde_json::Value, extra: serde_json::Value| {
        let mut v = json!({"type": ty, "sessionId": S, "uuid": uuid, "cwd": "/srv", "version": "2.1.119",
                           "message": {"role": ty, "content": content}});
        if let (Some(o), Some(e)) = (v.as_object_mut(), extra.as_object()) {
            o.extend(e.clone());
        }
        v
    };
    let transcript = run(
        &mut ClaudeTranscriptAdapter::default(),
        &[
            line("u0", "user", json!("run the tests"), json!({})),
            line(
                "a1",
                "assistant",
                json!([{"type": "tool_use", "id": "toolu_same_1", "name": "Bash", "input": input}]),
                json!({}),
            ),
            line(
                "u1",
                "user",
                json!([{"type": "tool_result", "tool_use_id": "toolu_same_1", "content": "test result: ok. 3 passed\nwarning: unused"}]),
                json!({"toolUseResult": {"stdout": "test result: ok. 3 passed", "stderr": "warning: unused", "interrupted": false, "isImage": false}}),
            ),
            line(
                "a2",
                "assistant",
                json!([{"type": "tool_use", "id": "toolu_same_2", "name": "Bash", "input": {"command": "cargo build"}}]),
                json!({}),
            ),
            line(
                "u2",
                "user",
                json!([{"type": "tool_result", "tool_use_id": "toolu_same_2", "is_error": true, "content": "Exit code 101\nerror[E0308]: mismatched types"}]),
                json!({"toolUseResult": "Error: Exit code 101\nerror[E0308]: mismatched types"}),
            ),
        ],
    );
    for key in ["call:toolu_same_1", "call:toolu_same_2", "out:toolu_same_1"] {
        let (h, t) = (latest(&hooks, key), latest(&transcript, key));
        assert_eq!(h.session, t.session, "{key}");
        assert_eq!(h.semantic, t.semantic, "{key}");
    }
    let (SemanticValue::ToolOutput(h), SemanticValue::ToolOutput(t)) = (
        &latest(&hooks, "out:toolu_same_2").semantic.value,
        &latest(&transcript, "out:toolu_same_2").semantic.value,
    ) else {
        panic!()
    };
    assert_eq!(
        (h.failed, h.exit_code, &h.text),
        (t.failed, t.exit_code, &t.text)
    );
    assert_eq!(h.exit_code.map(|c| c.code), Some(101));
}

#[test]
fn file_diff_evidence_agrees_across_transports() {
    let input = json!({"file_path": "/srv/a.rs", "old_string": "a", "new_string": "b"});
    let result = json!({"filePath": "/srv/a.rs", "oldString": "a", "newString": "b", "originalFile": "a\n",
                        "structuredPatch": [{"oldStart": 1, "oldLines": 1, "newStart": 1, "newLines": 1, "lines": ["-a", "+b"]}],
                        "userModified": false, "replaceAll": false});
    let hooks = run(
        &mut ClaudeHookAdapter::default(),
        &[
            json!({"session_id": S, "hook_event_name": "PostToolUse", "tool_name": "Edit", "tool_input": input,
                 "tool_use_id": "toolu_e", "tool_response": result}),
        ],
    );
    let transcript = run(
        &mut ClaudeTranscriptAdapter::default(),
        &[
            json!({"type": "assistant", "sessionId": S, "uuid": "a", "message": {"role": "assistant",
                   "content": [{"type": "tool_use", "id": "toolu_e", "name": "Edit", "input": input}]}}),
            json!({"type": "user", "sessionId": S, "uuid": "u", "toolUseResult": result, "message": {"role": "user",
                   "content": [{"type": "tool_result", "tool_use_id": "toolu_e", "content": "updated"}]}}),
        ],
    );
    let evidence = |msgs: &[fornax_types::IngestMessage]| {
        msgs.iter()
            .find_map(|m| match m {
                fornax_types::IngestMessage::Evidence(e) => Some(e.clone()),
                _ => None,
            })
            .unwrap()
    };
    let (h, t) = (evidence(&hooks), evidence(&transcript));
    assert_eq!(h.id, t.id);
    assert_eq!(h.item_key, t.item_key);
    assert_eq!(h.payload, t.payload);
    assert_ne!(h.source.collection_method, t.source.collection_method);
}
