//! Secrets at rest, through the real binary: every entry of the secret and look-alike corpora
//! (`crates/fornax-redact/tests/corpora`, `docs/secrets.md`) is placed in every text field of
//! every provider's native shape, imported with `fornax scan` and captured live through the
//! hooks; then every byte of every file under `FORNAX_HOME` is read (database, WAL, shared
//! memory, spool, logs). No secret may be anywhere, and every look-alike must be stored byte
//! for byte (read back through the store and decoded).
//!
//! The hook spool keeps payloads as they came until their events are committed and the
//! segment is retired; the one segment still open is the only place a live secret may be.

#[path = "../../fornax-redact/tests/common/corpora.rs"]
mod corpora;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use corpora::Entry;
use fornax_store::{QueryLimits, Store};
use serde_json::{json, Value};

fn fornax(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
    // The daemon-down path: hooks spool, `fornax scan` stores (no daemon started by a hook).
    c.env("FORNAX_HOME", home)
        .env("FORNAX_DAEMON_AUTOSTART", "0")
        .env("NO_COLOR", "1")
        .env_remove("FORNAX_WORKSPACE");
    c
}

fn pipe(home: &Path, args: &[&str], input: &[u8]) {
    use std::io::Write;
    let mut child = fornax(home)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    assert!(child.wait_with_output().unwrap().status.success());
}

fn scan(home: &Path, paths: &[&Path]) -> Value {
    let out = fornax(home)
        .args(["scan", "--json"])
        .args(paths)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn jsonl(lines: &[Value]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

fn ts(i: usize) -> String {
    format!(
        "2026-03-14T{:02}:{:02}:{:02}.000Z",
        8 + i / 3600,
        (i / 60) % 60,
        i % 60
    )
}

/// A Claude Code transcript: each text as a prompt, thinking, agent text, a shell command and
/// its description, a file written, and a tool result (content, stdout, stderr).
fn claude_transcript(session: &str, texts: &[&str]) -> String {
    let base = |t: &str, uuid: &str, parent: Option<&str>, i: usize| {
        json!({"parentUuid": parent, "isSidechain": false, "userType": "external",
            "cwd": "/home/dev/vault", "sessionId": session, "version": "2.1.119", "type": t,
            "uuid": uuid, "timestamp": ts(i)})
    };
    let mut lines = Vec::new();
    let mut parent: Option<String> = None;
    for (i, text) in texts.iter().enumerate() {
        let (u, a, r) = (format!("u{i}"), format!("a{i}"), format!("r{i}"));
        let mut user = base("user", &u, parent.as_deref(), i);
        user["message"] = json!({"role": "user", "content": text});
        lines.push(user);
        let mut assistant = base("assistant", &a, Some(&u), i);
        assistant["message"] = json!({"id": format!("msg_{i:04}"), "type": "message",
            "role": "assistant", "model": "claude-sonnet-4-5", "content": [
                {"type": "thinking", "thinking": text, "signature": "c2lnbmF0dXJl"},
                {"type": "text", "text": text},
                {"type": "tool_use", "id": format!("toolu_{i:04}a"), "name": "Bash",
                 "input": {"command": text, "description": text}},
                {"type": "tool_use", "id": format!("toolu_{i:04}b"), "name": "Write",
                 "input": {"file_path": "/home/dev/vault/notes.md", "content": text}}
            ], "stop_reason": "tool_use", "stop_sequence": null,
            "usage": {"input_tokens": 1, "output_tokens": 1}});
        lines.push(assistant);
        let mut result = base("user", &r, Some(&a), i);
        result["message"] = json!({"role": "user", "content": [
            {"tool_use_id": format!("toolu_{i:04}a"), "type": "tool_result", "content": text,
             "is_error": false},
            {"tool_use_id": format!("toolu_{i:04}b"), "type": "tool_result",
             "content": "File created successfully", "is_error": false}]});
        result["toolUseResult"] =
            json!({"stdout": text, "stderr": text, "interrupted": false, "isImage": false});
        lines.push(result);
        parent = Some(r);
    }
    jsonl(&lines)
}

/// A Codex CLI rollout: prompt (response item and event), reasoning summary, a shell call
/// (arguments are a JSON string), its output, and the answer (response item and event).
fn codex_rollout(id: &str, texts: &[&str]) -> String {
    let mut lines = vec![
        json!({"timestamp": ts(0), "type": "session_meta", "payload": {"id": id,
            "timestamp": ts(0), "cwd": "/home/dev/vault", "originator": "codex_cli_rs",
            "cli_version": "0.66.0", "instructions": null, "source": "cli",
            "model_provider": "openai"}}),
        json!({"timestamp": ts(0), "type": "turn_context", "payload": {"cwd": "/home/dev/vault",
            "approval_policy": "on-request", "sandbox_policy": {"mode": "workspace-write"},
            "model": "gpt-5-codex", "effort": "medium", "summary": "auto"}}),
    ];
    for (i, text) in texts.iter().enumerate() {
        let call = format!("call_{i:04}");
        let arguments = json!({"command": text, "workdir": "/home/dev/vault"}).to_string();
        lines.extend([
            json!({"timestamp": ts(i), "type": "response_item", "payload": {"type": "message",
                "role": "user", "content": [{"type": "input_text", "text": text}]}}),
            json!({"timestamp": ts(i), "type": "event_msg", "payload": {"type": "user_message",
                "message": text, "images": []}}),
            json!({"timestamp": ts(i), "type": "response_item", "payload": {"type": "reasoning",
                "summary": [{"type": "summary_text", "text": text}]}}),
            json!({"timestamp": ts(i), "type": "response_item", "payload": {
                "type": "function_call", "name": "shell_command", "arguments": arguments,
                "call_id": call}}),
            json!({"timestamp": ts(i), "type": "response_item", "payload": {
                "type": "function_call_output", "call_id": call, "output": text}}),
            json!({"timestamp": ts(i), "type": "response_item", "payload": {"type": "message",
                "role": "assistant", "content": [{"type": "output_text", "text": text}]}}),
            json!({"timestamp": ts(i), "type": "event_msg", "payload": {"type": "agent_message",
                "message": text}}),
        ]);
    }
    jsonl(&lines)
}

/// A Pi session (v3): prompt, thinking, agent text, a bash call and its result.
fn pi_session(id: &str, texts: &[&str]) -> String {
    let mut lines = vec![
        json!({"type": "session", "version": 3, "id": id, "timestamp": ts(0),
        "cwd": "/home/dev/vault"}),
    ];
    let mut parent: Option<String> = None;
    for (i, text) in texts.iter().enumerate() {
        let (u, a, r) = (format!("u{i:07}"), format!("a{i:07}"), format!("r{i:07}"));
        lines.push(
            json!({"type": "message", "id": u, "parentId": parent, "timestamp": ts(i),
            "message": {"role": "user", "content": [{"type": "text", "text": text}],
                "timestamp": 1_770_109_201_000u64}}),
        );
        lines.push(
            json!({"type": "message", "id": a, "parentId": u, "timestamp": ts(i),
            "message": {"role": "assistant", "content": [
                {"type": "thinking", "thinking": text},
                {"type": "text", "text": text},
                {"type": "toolCall", "id": format!("tc_{i}"), "name": "bash",
                 "arguments": {"command": text}}],
                "api": "anthropic-messages", "provider": "anthropic",
                "model": "claude-sonnet-4-5", "usage": {"input": 1, "output": 1,
                    "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2, "cost": {"input": 0,
                    "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
                "stopReason": "toolUse", "timestamp": 1_770_109_204_000u64}}),
        );
        lines.push(
            json!({"type": "message", "id": r, "parentId": a, "timestamp": ts(i),
            "message": {"role": "toolResult", "toolCallId": format!("tc_{i}"),
                "toolName": "bash", "content": [{"type": "text", "text": text}],
                "isError": false, "timestamp": 1_770_109_209_000u64}}),
        );
        parent = Some(r);
    }
    jsonl(&lines)
}

/// A Gemini CLI chat (JSONL): prompt, agent text, a shell call and its output.
fn gemini_chat(id: &str, texts: &[&str]) -> String {
    let mut lines = vec![json!({"sessionId": id, "projectHash": "5f".repeat(32),
        "startTime": ts(0), "lastUpdated": ts(0), "kind": "main"})];
    for (i, text) in texts.iter().enumerate() {
        let call = format!("run_shell_command-{i}");
        lines.push(
            json!({"id": format!("u-{i}"), "timestamp": ts(i), "type": "user",
            "content": [{"text": text}]}),
        );
        lines.push(
            json!({"id": format!("g-{i}"), "timestamp": ts(i), "type": "gemini",
            "content": [{"text": text}], "toolCalls": [{"id": call,
                "name": "run_shell_command", "args": {"command": text},
                "result": [{"functionResponse": {"id": call, "name": "run_shell_command",
                    "response": {"output": text}}}], "status": "success"}]}),
        );
    }
    jsonl(&lines)
}

/// Claude Code hook payloads: a prompt, a shell call before and after (stdout, stderr) and
/// the last agent message, each one event.
fn claude_hooks(session: &str, texts: &[String]) -> Vec<Value> {
    let base = |event: &str| {
        json!({"session_id": session, "transcript_path":
            format!("/home/dev/.claude/projects/-home-dev-vault/{session}.jsonl"),
            "cwd": "/home/dev/vault", "permission_mode": "default", "hook_event_name": event})
    };
    let mut out = vec![{
        let mut s = base("SessionStart");
        s["source"] = json!("startup");
        s
    }];
    for (i, text) in texts.iter().enumerate() {
        let id = format!("toolu_h{i:04}");
        let mut prompt = base("UserPromptSubmit");
        prompt["prompt"] = json!(text);
        let mut pre = base("PreToolUse");
        pre["tool_name"] = json!("Bash");
        pre["tool_input"] = json!({"command": text, "description": text});
        pre["tool_use_id"] = json!(id);
        let mut post = base("PostToolUse");
        post["tool_name"] = json!("Bash");
        post["tool_input"] = json!({"command": text, "description": text});
        post["tool_use_id"] = json!(id);
        post["tool_response"] = json!({"stdout": text, "stderr": text, "interrupted": false,
            "isImage": false});
        let mut stop = base("Stop");
        stop["stop_hook_active"] = json!(false);
        stop["last_assistant_message"] = json!(text);
        out.extend([prompt, pre, post, stop]);
    }
    out
}

/// The opencode plugin's stream: a prompt part, a shell call before and after, and an agent
/// text part.
fn opencode_stream(session: &str, texts: &[String]) -> String {
    let mut lines = vec![json!({"hook": "event", "at": ts(0), "payload": {"event": {
        "type": "session.created", "properties": {"info": {"id": session, "version": "1.1.53",
            "projectID": "p1", "directory": "/home/dev/vault", "title": "New session",
            "time": {"created": 1_772_366_400_000u64, "updated": 1_772_366_400_000u64}}}}}})];
    for (i, text) in texts.iter().enumerate() {
        let (user, agent) = (format!("msg_u{i:020}"), format!("msg_a{i:020}"));
        let call = format!("call_o{i}");
        lines.extend([
            json!({"hook": "chat.message", "at": ts(i), "payload": {"input": {
                "sessionID": session, "agent": "build", "messageID": user}, "output": {
                "message": {"id": user, "sessionID": session, "role": "user",
                    "time": {"created": 1_772_366_401_000u64}},
                "parts": [{"id": format!("prt_u{i}"), "sessionID": session, "messageID": user,
                    "type": "text", "text": text}]}}}),
            json!({"hook": "event", "at": ts(i), "payload": {"event": {
                "type": "message.updated", "properties": {"info": {"id": agent,
                    "sessionID": session, "role": "assistant",
                    "time": {"created": 1_772_366_401_200u64}, "parentID": user,
                    "modelID": "claude-sonnet-4-5", "providerID": "anthropic",
                    "path": {"cwd": "/home/dev/vault", "root": "/home/dev/vault"},
                    "tokens": {"input": 0, "output": 0, "reasoning": 0,
                        "cache": {"read": 0, "write": 0}}}}}}}),
            json!({"hook": "tool.execute.before", "at": ts(i), "payload": {"input": {
                "tool": "bash", "sessionID": session, "callID": call}, "output": {
                "args": {"command": text, "description": text}}}}),
            json!({"hook": "tool.execute.after", "at": ts(i), "payload": {"input": {
                "tool": "bash", "sessionID": session, "callID": call}, "output": {
                "title": text, "output": text, "metadata": {"exit": 0, "output": text,
                    "description": text}}}}),
            json!({"hook": "event", "at": ts(i), "payload": {"event": {
                "type": "message.part.updated", "properties": {"part": {
                    "id": format!("prt_a{i}"), "sessionID": session, "messageID": agent,
                    "type": "text", "text": text, "time": {"start": 1, "end": 2}}}}}}),
        ]);
    }
    jsonl(&lines)
}

fn files_under(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn json_escaped(s: &str) -> String {
    let quoted = serde_json::to_string(s).unwrap();
    quoted[1..quoted.len() - 1].to_string()
}

/// The forms a secret could be written in: as it is, JSON-escaped, and line by line for a
/// multi-line secret (a key block is stored as words and lines by some fields).
fn secret_needles(e: &Entry) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for s in &e.secrets {
        for form in [s.clone(), json_escaped(s)] {
            if !out.iter().any(|(_, f)| *f == form) {
                out.push((e.id.clone(), form));
            }
        }
        for line in s.lines().filter(|l| l.trim().len() >= 16) {
            out.push((e.id.clone(), line.trim().to_string()));
        }
    }
    out
}

/// Every byte of every file under `home`: no secret anywhere, except in the open spool
/// segment when `open_spool` allows it (it holds payloads as they came until retired).
fn assert_no_secret_in_files(home: &Path, secrets: &[Entry], open_spool: Option<&Path>) {
    let mut files = Vec::new();
    files_under(home, &mut files);
    assert!(
        files.iter().any(|f| f.ends_with("fornax.db")),
        "no database under {}: {files:?}",
        home.display()
    );
    let needles: Vec<(String, String)> = secrets.iter().flat_map(secret_needles).collect();
    let mut leaks = Vec::new();
    for file in &files {
        if open_spool.is_some_and(|spool| file.parent() == Some(spool)) {
            continue;
        }
        let bytes = std::fs::read(file).unwrap();
        for (id, needle) in &needles {
            if memchr::memmem::find(&bytes, needle.as_bytes()).is_some() {
                leaks.push(format!("{id} in {}", file.display()));
            }
        }
    }
    assert!(
        leaks.is_empty(),
        "{} secrets found at rest:\n{}",
        leaks.len(),
        leaks[..leaks.len().min(40)].join("\n")
    );
}

/// Every string the store holds, decoded (text bodies, JSON values of items, evidence,
/// capabilities, checkpoints; claims, findings, sessions; every record's archived copy,
/// decompressed: compressed bytes are opaque to the byte scan), joined.
fn stored_strings(home: &Path) -> String {
    let store = Store::open_read_only(&home.join("fornax.db")).unwrap();
    let limits = QueryLimits {
        max_rows: usize::MAX,
        max_output_bytes: 1 << 30,
        timeout: std::time::Duration::from_secs(120),
    };
    let mut out = String::new();
    for sql in [
        "SELECT body FROM text",
        "SELECT value FROM item",
        "SELECT payload FROM evidence",
        "SELECT extension FROM evidence",
        "SELECT body FROM capability",
        "SELECT unpacked(adapter_state) FROM source",
        "SELECT text FROM claim",
        "SELECT target FROM claim",
        "SELECT rationale FROM finding",
        "SELECT cwd FROM session",
        "SELECT name FROM session",
        "SELECT discriminator FROM drift",
        "SELECT summary FROM scan",
    ] {
        let result = store.query(sql, limits).unwrap();
        for row in result.rows {
            for v in row {
                let Value::String(s) = v else { continue };
                match serde_json::from_str::<Value>(&s) {
                    Ok(doc @ (Value::Object(_) | Value::Array(_))) => push_strings(&doc, &mut out),
                    _ => {
                        out.push_str(&s);
                        out.push('\u{0}');
                    }
                }
            }
        }
    }
    let ids = store.query("SELECT id FROM record", limits).unwrap();
    let mut copies = 0;
    for row in ids.rows {
        let Some(Value::Number(id)) = row.first() else {
            continue;
        };
        let copy = store.archived_copy(id.as_i64().unwrap()).unwrap();
        let fornax_store::ArchivedCopy::Intact(bytes) = copy else {
            panic!("record {id}: archived copy {}", copy.status());
        };
        let doc: Value = serde_json::from_slice(&bytes).expect("an archived copy is JSON");
        push_strings(&doc, &mut out);
        copies += 1;
    }
    assert!(copies > 0, "no archived copy under {}", home.display());
    out
}

fn push_strings(v: &Value, out: &mut String) {
    match v {
        Value::String(s) => {
            // A JSON string holding a document (a checkpoint inside a checkpoint).
            if let Ok(inner @ (Value::Object(_) | Value::Array(_))) = serde_json::from_str(s) {
                push_strings(&inner, out);
            }
            out.push_str(s);
            out.push('\u{0}');
        }
        Value::Array(a) => a.iter().for_each(|x| push_strings(x, out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| {
            out.push_str(k);
            out.push('\u{0}');
            push_strings(x, out);
        }),
        _ => {}
    }
}

fn assert_store_holds(home: &Path, secrets: &[Entry], lookalikes: &[Entry], label: &str) {
    let stored = stored_strings(home);
    let leaked: Vec<&str> = secrets
        .iter()
        .filter(|e| e.secrets.iter().any(|s| stored.contains(s.as_str())))
        .map(|e| e.id.as_str())
        .collect();
    assert!(leaked.is_empty(), "{label}: secrets stored: {leaked:?}");
    let damaged: Vec<&str> = lookalikes
        .iter()
        .filter(|e| !stored.contains(e.text.as_str()))
        .map(|e| e.id.as_str())
        .collect();
    assert!(
        damaged.is_empty(),
        "{label}: {} of {} look-alikes not stored byte for byte: {damaged:?}",
        damaged.len(),
        lookalikes.len()
    );
}

fn texts(entries: &[Entry]) -> Vec<&str> {
    entries.iter().map(|e| e.text.as_str()).collect()
}

#[test]
fn imported_sessions_hold_no_secret_and_every_lookalike() {
    let (secrets, lookalikes) = (corpora::secrets(), corpora::lookalikes());
    let work = tempfile::tempdir().unwrap();
    let (home, data) = (work.path().join("home"), work.path().join("data"));
    std::fs::create_dir_all(&data).unwrap();
    for (kind, entries) in [("s", &secrets), ("l", &lookalikes)] {
        let t = texts(entries);
        let claude = format!("7f3e2d1c-0b9a-4876-a5b4-c3d2e1f0a9{kind}0");
        std::fs::write(
            data.join(format!("{claude}.jsonl")),
            claude_transcript(&claude, &t),
        )
        .unwrap();
        let codex = format!("0198f3c1-7a2b-7c3d-9e4f-5a6b7c8d9e{kind}1");
        std::fs::write(
            data.join(format!("rollout-2026-03-14T08-00-00-{codex}.jsonl")),
            codex_rollout(&codex, &t),
        )
        .unwrap();
        let pi = format!("4c1b9e20-6d3a-4a7f-8b2c-1e0d9f8a7b{kind}2");
        std::fs::write(data.join(format!("{pi}.jsonl")), pi_session(&pi, &t)).unwrap();
        let gemini = format!("8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5f{kind}3");
        std::fs::write(
            data.join(format!("session-{gemini}.jsonl")),
            gemini_chat(&gemini, &t),
        )
        .unwrap();
    }
    let summary = scan(&home, &[&data]);
    assert!(
        summary["items"].as_u64().unwrap_or(0) > 8 * (secrets.len() + lookalikes.len()) as u64,
        "{summary}"
    );
    assert_no_secret_in_files(&home, &secrets, None);
    assert_store_holds(&home, &secrets, &lookalikes, "import");
}

#[test]
fn live_captures_hold_no_secret_and_every_lookalike() {
    let (secrets, lookalikes) = (corpora::secrets(), corpora::lookalikes());
    let work = tempfile::tempdir().unwrap();
    let home = work.path().join("home");
    let empty = work.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    // One hook process per event; entries go in batches, one batch a payload field, so that
    // a few hundred processes carry every entry.
    for (kind, entries) in [("s", &secrets), ("l", &lookalikes)] {
        let batches: Vec<String> = entries
            .chunks(12)
            .map(|c| {
                c.iter()
                    .map(|e| e.text.as_str())
                    .collect::<Vec<_>>()
                    .join("\n\n")
            })
            .collect();
        let claude = format!("2a9f4d1e-8b7c-4e6d-a5f3-0c1b2d3e4f{kind}5");
        for payload in claude_hooks(&claude, &batches) {
            pipe(
                &home,
                &["hook", "claude"],
                format!("{payload}\n").as_bytes(),
            );
        }
        let opencode = format!("ses_3a1b2c3d4e5fAbCdEfGhIjK{kind}");
        pipe(
            &home,
            &["hook", "opencode"],
            opencode_stream(&opencode, &batches).as_bytes(),
        );
    }
    let summary = scan(&home, &[&empty]);
    assert!(summary["items"].as_u64().unwrap_or(0) > 100, "{summary}");
    assert_no_secret_in_files(&home, &secrets, Some(&home.join("spool")));
    assert_store_holds(&home, &secrets, &lookalikes, "live");
}

#[test]
fn a_final_message_holding_every_secret_leaves_none_at_rest() {
    let secrets = corpora::secrets();
    let work = tempfile::tempdir().unwrap();
    let (home, data) = (work.path().join("home"), work.path().join("data"));
    std::fs::create_dir_all(&data).unwrap();
    let session = "5b7c1f0e-2d4a-4c55-9a1e-0f3b6c2d8e11";
    let all = texts(&secrets).join("\n\n");
    let base = |t: &str, uuid: &str, parent: Option<&str>| {
        json!({"parentUuid": parent, "isSidechain": false, "userType": "external",
            "cwd": "/home/dev/vault", "sessionId": session, "version": "2.1.119", "type": t,
            "uuid": uuid, "timestamp": "2026-03-14T08:00:00.000Z"})
    };
    let mut user = base("user", "u1", None);
    user["message"] =
        json!({"role": "user", "content": "Rotate the keys and tell me the new ones."});
    let mut answer = base("assistant", "a1", Some("u1"));
    answer["message"] = json!({"id": "msg_01", "type": "message", "role": "assistant",
        "model": "claude-sonnet-4-5", "content": [{"type": "text", "text": all}],
        "stop_reason": "end_turn", "stop_sequence": null,
        "usage": {"input_tokens": 1, "output_tokens": 1}});
    let transcript = data.join(format!("{session}.jsonl"));
    std::fs::write(&transcript, jsonl(&[user, answer])).unwrap();
    scan(&home, &[&data]);
    // A second scan after an append resumes from the stored checkpoint.
    let mut more = base("user", "u2", Some("a1"));
    more["message"] = json!({"role": "user", "content": "Thanks."});
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&transcript)
        .unwrap();
    std::io::Write::write_all(&mut f, format!("{more}\n").as_bytes()).unwrap();
    scan(&home, &[&data]);
    assert_no_secret_in_files(&home, &secrets, None);
    // `strings`, when it is installed, agrees with the byte scan.
    let mut files = Vec::new();
    files_under(&home, &mut files);
    if let Ok(out) = Command::new("strings").args(&files).output() {
        let printable = String::from_utf8_lossy(&out.stdout);
        let found: Vec<&str> = secrets
            .iter()
            .filter(|e| e.secrets.iter().any(|s| printable.contains(s.as_str())))
            .map(|e| e.id.as_str())
            .collect();
        assert!(found.is_empty(), "strings shows: {found:?}");
    }
}
