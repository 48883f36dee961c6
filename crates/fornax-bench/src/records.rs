//! Native JSONL sessions in the shapes each agent writes: Claude Code transcripts (2.1.x),
//! Codex rollouts (envelope era) and Pi v3 sessions. Each turn reads a file, edits it, runs
//! the tests (passing or failing) and ends with the agent's closing words.

use serde_json::{json, Value};

use crate::Rng;

const CWD: &str = "/home/dev/ledger";

/// One turn in provider-neutral terms.
struct Turn {
    prompt: String,
    path: String,
    content: String,
    old: String,
    new: String,
    test_output: String,
    passed: bool,
    thinking: String,
    closing: String,
}

fn turn(rng: &mut Rng) -> Turn {
    let passed = rng.chance(60);
    let n = 3 + rng.below(300);
    let mut test_output = format!("running {n} tests\n");
    for i in 0..n.min(40) {
        test_output.push_str(&format!("test ledger::tests::case_{i} ... ok\n"));
    }
    if passed {
        test_output.push_str(&format!("\ntest result: ok. {n} passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s\n"));
    } else {
        test_output.push_str(&format!(
            "\nfailures:\n    ledger::tests::rounds\n\ntest result: FAILED. {} passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.02s\n",
            n - 1
        ));
    }
    let closing = format!(
        "I changed {} so that {}. {}",
        "src/ledger.rs",
        rng.words_around(80, 400),
        if rng.chance(80) {
            "All tests pass now."
        } else {
            "I committed the change."
        }
    );
    Turn {
        prompt: format!(
            "Fix the rounding in src/ledger.rs: {}",
            rng.words_around(40, 400)
        ),
        path: format!("{CWD}/src/{}.rs", rng.hex(6)),
        content: rng.code_around(500, 12_000),
        old: rng.code_around(60, 300),
        new: rng.code_around(60, 300),
        test_output,
        passed,
        thinking: rng.words_around(200, 1_500),
        closing,
    }
}

fn push(out: &mut Vec<u8>, value: &Value) {
    // Serializing a `Value` cannot fail.
    if let Ok(bytes) = serde_json::to_vec(value) {
        out.extend_from_slice(&bytes);
        out.push(b'\n');
    }
}

fn iso(second: u64) -> String {
    let (h, m, s) = ((second / 3600) % 24, (second / 60) % 60, second % 60);
    format!("2026-03-14T{h:02}:{m:02}:{s:02}.000Z")
}

/// A Claude Code transcript of `turns` turns.
pub fn claude_session(seed: u64, turns: usize) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let session = format!("5b7c1f0e-2d4a-4c55-9a1e-{}", rng.hex(12));
    let mut out = Vec::new();
    let mut parent = Value::Null;
    let mut clock = 0u64;
    let mut envelope = |rng: &mut Rng, kind: &str, clock: u64| {
        let uuid = format!(
            "{}-{}-4{}-8{}-{}",
            rng.hex(8),
            rng.hex(4),
            rng.hex(3),
            rng.hex(3),
            rng.hex(12)
        );
        let line = json!({
            "parentUuid": parent, "isSidechain": false, "userType": "external", "cwd": CWD,
            "sessionId": session, "version": "2.1.119", "gitBranch": "main", "type": kind,
            "uuid": uuid, "timestamp": iso(clock),
        });
        parent = Value::String(uuid);
        line
    };
    for t in 0..turns {
        let turn = turn(&mut rng);
        clock += 60;
        let mut line = envelope(&mut rng, "user", clock);
        line["message"] = json!({"role": "user", "content": turn.prompt});
        push(&mut out, &line);
        let usage = json!({"input_tokens": 12, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 2048, "output_tokens": 40, "service_tier": "standard"});
        let calls = [
            ("Read", json!({"file_path": turn.path})),
            (
                "Edit",
                json!({"file_path": turn.path, "old_string": turn.old, "new_string": turn.new}),
            ),
            (
                "Bash",
                json!({"command": "cargo test", "description": "Run the test suite"}),
            ),
        ];
        let mut line = envelope(&mut rng, "assistant", clock);
        line["message"] = json!({"id": format!("msg_{t}_0"), "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": [{"type": "thinking", "thinking": turn.thinking, "signature": rng.hex(120)}],
            "stop_reason": null, "stop_sequence": null, "usage": usage});
        push(&mut out, &line);
        for (i, (name, input)) in calls.into_iter().enumerate() {
            clock += 2;
            let id = format!("toolu_{t}_{i}");
            let mut line = envelope(&mut rng, "assistant", clock);
            line["message"] = json!({"id": format!("msg_{t}_{}", i + 1), "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                "content": [{"type": "tool_use", "id": id, "name": name, "input": input}],
                "stop_reason": "tool_use", "stop_sequence": null, "usage": usage});
            push(&mut out, &line);
            let (content, result) = match name {
                "Read" => (
                    Value::String(turn.content.clone()),
                    json!({"type": "text", "file": {"filePath": turn.path, "content": turn.content, "numLines": 40, "startLine": 1, "totalLines": 40}}),
                ),
                "Edit" => (
                    Value::String(format!(
                        "The file {} has been updated successfully.",
                        turn.path
                    )),
                    json!({"filePath": turn.path, "oldString": turn.old, "newString": turn.new, "structuredPatch": [], "userModified": false, "replaceAll": false}),
                ),
                _ if turn.passed => (
                    Value::String(turn.test_output.clone()),
                    json!({"stdout": turn.test_output, "stderr": "", "interrupted": false, "isImage": false}),
                ),
                _ => (
                    Value::String(format!("Exit code 101\n{}", turn.test_output)),
                    Value::String(format!("Error: Exit code 101\n{}", turn.test_output)),
                ),
            };
            let is_error = name == "Bash" && !turn.passed;
            let mut line = envelope(&mut rng, "user", clock);
            line["message"] = json!({"role": "user", "content": [{"tool_use_id": id, "type": "tool_result", "content": content, "is_error": is_error}]});
            line["toolUseResult"] = result;
            push(&mut out, &line);
        }
        let mut line = envelope(&mut rng, "assistant", clock + 3);
        line["message"] = json!({"id": format!("msg_{t}_9"), "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": [{"type": "text", "text": turn.closing}], "stop_reason": "end_turn", "stop_sequence": null, "usage": usage});
        push(&mut out, &line);
    }
    out
}

/// A Codex CLI rollout (envelope era) of `turns` turns.
pub fn codex_rollout(seed: u64, turns: usize) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let line = |clock: u64, kind: &str, payload: Value| json!({"timestamp": iso(clock), "type": kind, "payload": payload});
    let id = format!("0199a1b2-c3d4-7e5f-8a9b-{}", rng.hex(12));
    push(
        &mut out,
        &line(
            0,
            "session_meta",
            json!({"id": id, "timestamp": iso(0), "cwd": CWD, "originator": "codex_cli_rs",
        "cli_version": "0.128.0", "source": "cli", "model_provider": "openai", "git": {"commit_hash": rng.hex(40), "branch": "main"}}),
        ),
    );
    let mut clock = 0u64;
    for t in 0..turns {
        let turn = turn(&mut rng);
        clock += 60;
        let turn_id = format!("turn-{t}");
        push(
            &mut out,
            &line(
                clock,
                "event_msg",
                json!({"type": "task_started", "turn_id": turn_id, "model_context_window": 272000}),
            ),
        );
        push(
            &mut out,
            &line(
                clock,
                "turn_context",
                json!({"turn_id": turn_id, "cwd": CWD, "approval_policy": "on-request",
            "sandbox_policy": {"type": "workspace-write", "network_access": false}, "model": "gpt-5.2-codex", "effort": "medium", "summary": "auto"}),
            ),
        );
        push(
            &mut out,
            &line(
                clock,
                "response_item",
                json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": turn.prompt}]}),
            ),
        );
        push(
            &mut out,
            &line(
                clock,
                "event_msg",
                json!({"type": "user_message", "message": turn.prompt, "images": []}),
            ),
        );
        push(
            &mut out,
            &line(
                clock,
                "response_item",
                json!({"type": "reasoning", "id": format!("rs_{t}"),
            "summary": [{"type": "summary_text", "text": turn.thinking}], "content": null, "encrypted_content": rng.hex(2_000)}),
            ),
        );
        let read =
            json!({"cmd": format!("sed -n '1,200p' {}", turn.path), "workdir": CWD}).to_string();
        push(
            &mut out,
            &line(
                clock + 1,
                "response_item",
                json!({"type": "function_call", "name": "exec_command", "arguments": read, "call_id": format!("call_r{t}")}),
            ),
        );
        push(
            &mut out,
            &line(
                clock + 2,
                "response_item",
                json!({"type": "function_call_output", "call_id": format!("call_r{t}"),
            "output": format!("Chunk ID: 4f1a\nWall time: 0.1 seconds\nProcess exited with code 0\nOriginal token count: 40\nOutput:\n{}", turn.content)}),
            ),
        );
        let patch = format!(
            "*** Begin Patch\n*** Update File: {}\n@@\n-{}\n+{}\n*** End Patch\n",
            turn.path, turn.old, turn.new
        );
        push(
            &mut out,
            &line(
                clock + 3,
                "response_item",
                json!({"type": "custom_tool_call", "status": "completed", "call_id": format!("call_p{t}"), "name": "apply_patch", "input": patch}),
            ),
        );
        push(
            &mut out,
            &line(
                clock + 3,
                "response_item",
                json!({"type": "custom_tool_call_output", "call_id": format!("call_p{t}"),
            "output": json!({"output": format!("Success. Updated the following files:\nM {}\n", turn.path), "metadata": {"exit_code": 0, "duration_seconds": 0.0}}).to_string()}),
            ),
        );
        let test = json!({"cmd": "cargo test", "workdir": CWD}).to_string();
        push(
            &mut out,
            &line(
                clock + 4,
                "response_item",
                json!({"type": "function_call", "name": "exec_command", "arguments": test, "call_id": format!("call_t{t}")}),
            ),
        );
        let code = if turn.passed { 0 } else { 101 };
        push(
            &mut out,
            &line(
                clock + 9,
                "response_item",
                json!({"type": "function_call_output", "call_id": format!("call_t{t}"),
            "output": format!("Chunk ID: 77b0\nWall time: 4.2 seconds\nProcess exited with code {code}\nOriginal token count: 400\nOutput:\n{}", turn.test_output)}),
            ),
        );
        push(
            &mut out,
            &line(
                clock + 10,
                "response_item",
                json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": turn.closing}], "phase": "final_answer"}),
            ),
        );
        push(
            &mut out,
            &line(
                clock + 10,
                "event_msg",
                json!({"type": "agent_message", "message": turn.closing, "phase": "final_answer"}),
            ),
        );
        push(
            &mut out,
            &line(
                clock + 10,
                "event_msg",
                json!({"type": "token_count", "info": {"total_token_usage": {"input_tokens": 9000, "cached_input_tokens": 6000,
            "output_tokens": 700, "reasoning_output_tokens": 300, "total_tokens": 9700}, "model_context_window": 272000}, "rate_limits": null}),
            ),
        );
        push(
            &mut out,
            &line(
                clock + 10,
                "event_msg",
                json!({"type": "task_complete", "turn_id": turn_id, "last_agent_message": turn.closing, "duration_ms": 10_000}),
            ),
        );
    }
    out
}

/// A Pi v3 session of `turns` turns.
pub fn pi_session(seed: u64, turns: usize) -> Vec<u8> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    push(
        &mut out,
        &json!({"type": "session", "version": 3, "id": format!("7d2e9c41-0b6a-4f3e-9c8d-{}", rng.hex(12)), "timestamp": iso(0), "cwd": CWD}),
    );
    let mut parent = Value::Null;
    let mut entry = |rng: &mut Rng, out: &mut Vec<u8>, clock: u64, mut fields: Value| {
        let id = rng.hex(8);
        fields["id"] = Value::String(id.clone());
        fields["parentId"] = parent.clone();
        fields["timestamp"] = Value::String(iso(clock));
        push(out, &fields);
        parent = Value::String(id);
    };
    entry(
        &mut rng,
        &mut out,
        0,
        json!({"type": "model_change", "provider": "anthropic", "modelId": "claude-sonnet-4-5"}),
    );
    let usage = json!({"input": 800, "output": 60, "cacheRead": 400, "cacheWrite": 0, "totalTokens": 1260, "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}});
    let mut clock = 0u64;
    for t in 0..turns {
        let turn = turn(&mut rng);
        clock += 60;
        let ms = 1_773_568_800_000 + clock * 1000;
        entry(
            &mut rng,
            &mut out,
            clock,
            json!({"type": "message", "message": {"role": "user", "content": [{"type": "text", "text": turn.prompt}], "timestamp": ms}}),
        );
        let calls = [
            (
                "read",
                json!({"path": turn.path}),
                turn.content.clone(),
                false,
            ),
            (
                "edit",
                json!({"path": turn.path, "oldText": turn.old, "newText": turn.new}),
                format!("Successfully replaced text in {}.", turn.path),
                false,
            ),
            (
                "bash",
                json!({"command": "cargo test"}),
                if turn.passed {
                    turn.test_output.clone()
                } else {
                    format!("{}\n\nCommand exited with code 101", turn.test_output)
                },
                !turn.passed,
            ),
        ];
        for (i, (name, args, result, is_error)) in calls.into_iter().enumerate() {
            let id = format!("tc_{t}_{i}");
            let content = if i == 0 {
                json!([{"type": "thinking", "thinking": turn.thinking}, {"type": "toolCall", "id": id, "name": name, "arguments": args}])
            } else {
                json!([{"type": "toolCall", "id": id, "name": name, "arguments": args}])
            };
            entry(
                &mut rng,
                &mut out,
                clock,
                json!({"type": "message", "message": {"role": "assistant", "content": content, "api": "anthropic-messages",
                "provider": "anthropic", "model": "claude-sonnet-4-5", "usage": usage, "stopReason": "toolUse", "timestamp": ms}}),
            );
            entry(
                &mut rng,
                &mut out,
                clock + 1,
                json!({"type": "message", "message": {"role": "toolResult", "toolCallId": id, "toolName": name,
                "content": [{"type": "text", "text": result}], "isError": is_error, "timestamp": ms + 1000}}),
            );
        }
        entry(
            &mut rng,
            &mut out,
            clock + 2,
            json!({"type": "message", "message": {"role": "assistant", "content": [{"type": "text", "text": turn.closing}],
            "api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5", "usage": usage, "stopReason": "stop", "timestamp": ms + 2000}}),
        );
    }
    out
}

/// The complete lines of a JSONL buffer, without their newlines.
pub fn split_lines(jsonl: &[u8]) -> Vec<&[u8]> {
    jsonl
        .split(|&b| b == b'\n')
        .filter(|line| !line.is_empty())
        .collect()
}
