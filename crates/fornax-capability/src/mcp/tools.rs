//! The tools `fornax mcp` offers, and what each answers. Every answer is one JSON object
//! bounded by the call's `max_bytes` (default [`DEFAULT_MAX_BYTES`]); listings page with
//! `cursor`/`next_cursor`; a text cut short says which call reads the rest.
//!
//! No tool changes a finding: the history tools only read, and `cap_run` hands its evidence to
//! the [`EvidenceSink`](crate::EvidenceSink), which judges nothing.

use std::sync::Arc;

use fornax_types::{Item, RecheckTrigger, SemanticValue};
use serde_json::{json, Map, Value};

use super::bound::{self, Page, DEFAULT_MAX_BYTES, ENVELOPE_BYTES, ROW_TEXT_BYTES};
use crate::commands::CapEnv;
use crate::exec::RunOptions;
use crate::history::{History, HistoryFilter};
use crate::trust::TrustMode;

/// Rows read from the history per query while a page fills.
const CHUNK: usize = 50;
/// The most rows one answer lists, whatever the budget.
const MAX_ROWS: usize = 500;
/// How many items after a test command its output is looked for.
const OUTPUT_LOOKAHEAD: usize = 400;
/// The end of a test run's output that its answer quotes.
const OUTPUT_TAIL_BYTES: usize = 1500;

/// How a call ended: an answer, a tool error (the agent reads it), or a protocol error
/// (the client sent something no tool accepts).
#[derive(Debug)]
pub enum Outcome {
    Answer(Value),
    ToolError(Value),
    UnknownTool(String),
}

fn schema(properties: Value, required: &[&str]) -> Value {
    let mut props = properties;
    if let Value::Object(p) = &mut props {
        p.insert(
            "max_bytes".to_string(),
            json!({"type": "integer", "minimum": bound::MIN_MAX_BYTES, "maximum": bound::MAX_MAX_BYTES,
                   "description": format!("Largest answer in bytes (default {DEFAULT_MAX_BYTES}).")}),
        );
    }
    json!({"type": "object", "properties": props, "required": required})
}

fn paged(mut properties: Value) -> Value {
    if let Value::Object(p) = &mut properties {
        p.insert(
            "cursor".to_string(),
            json!({"type": "string", "description": "The next_cursor of the previous answer."}),
        );
    }
    properties
}

const SESSION_ARG: &str = "Native id, provider:native_id or `latest` (default: the latest session working in this server's directory).";

/// The tools, in the order `tools/list` gives them.
pub fn list() -> Vec<Value> {
    let filter = json!({
        "provider": {"type": "string", "description": "Agent: claude-code, codex, opencode, pi, gemini, copilot, cursor."},
        "project": {"type": "string", "description": "Text contained in the session's working directory."},
        "since": {"type": "string", "description": "RFC 3339 time: only activity from then on."},
        "verdict": {"type": "string", "description": "Only sessions with a current finding of this verdict."}
    });
    let tool = |name: &str, description: &str, input: Value| json!({"name": name, "description": description, "inputSchema": input});
    vec![
        tool(
            "fornax_findings",
            "Findings of my session: each claim the agent made, its verdict (CONTRADICTED, REVIEW, UNVERIFIED, UNAVAILABLE, VERIFIED) and why, most urgent first.",
            schema(paged(json!({"session": {"type": "string", "description": format!("{SESSION_ARG} `all` lists every session's findings.")}})), &[]),
        ),
        tool(
            "fornax_last_test_run",
            "Did my last test run pass? The session's latest test command, its exit code and what its output says.",
            schema(json!({"session": {"type": "string", "description": SESSION_ARG}}), &[]),
        ),
        tool(
            "fornax_search",
            "Search my history: full-text search over every indexed agent session.",
            schema(
                paged({
                    let mut p = filter.clone();
                    p["text"] = json!({"type": "string", "description": "What to search for (3 characters or more match anywhere)."});
                    p
                }),
                &["text"],
            ),
        ),
        tool("fornax_sessions", "List indexed agent sessions, most recent first.", schema(paged(filter), &[])),
        tool(
            "fornax_session",
            "One session: its summary, then its timeline of items (prompts, agent text, tool calls and outputs), paged.",
            schema(paged(json!({"id": {"type": "string", "description": SESSION_ARG}})), &[]),
        ),
        tool(
            "fornax_output",
            "The whole text of one item (a tool output cut short elsewhere), from a byte offset.",
            schema(
                json!({
                    "session": {"type": "string", "description": SESSION_ARG},
                    "item": {"type": "integer", "minimum": 0, "description": "The item's index in the session."},
                    "offset": {"type": "integer", "minimum": 0, "description": "Byte offset to start at (the previous answer's next_offset)."},
                    "stream": {"type": "string", "enum": ["text", "stderr"], "description": "Which text of a tool output (default: text)."}
                }),
                &["item"],
            ),
        ),
        tool(
            "cap_list",
            "List the active capabilities this server can run, with their argument schemas.",
            schema(paged(json!({})), &[]),
        ),
        tool(
            "cap_inspect",
            "Show one capability's manifest and origin.",
            schema(json!({"id": {"type": "string", "description": "Full id or module.capability."}}), &["id"]),
        ),
        tool(
            "cap_run",
            "Run an active capability under its policies; returns the {ok, data|error, meta} envelope.",
            schema(
                json!({
                    "id": {"type": "string", "description": "Full id or module.capability."},
                    "args": {"type": "object", "description": "Arguments, per the capability's argsSchema."}
                }),
                &["id"],
            ),
        ),
    ]
}

/// Runs one tool.
pub fn call(env: &CapEnv, name: &str, args: &Map<String, Value>) -> Outcome {
    let max = match bound::max_bytes(args) {
        Ok(m) => m,
        Err(e) => return tool_error(e),
    };
    let result = match name {
        "fornax_findings" => findings(env, args, max),
        "fornax_last_test_run" => last_test_run(env, args),
        "fornax_search" => search(env, args, max),
        "fornax_sessions" => sessions(env, args, max),
        "fornax_session" => session(env, args, max),
        "fornax_output" => output(env, args, max),
        "cap_list" => cap_list(env, args, max),
        "cap_inspect" => cap_inspect(env, args, max),
        "cap_run" => return cap_run(env, args, max),
        _ => return Outcome::UnknownTool(name.to_string()),
    };
    match result {
        Ok(v) => Outcome::Answer(v),
        Err(e) => tool_error(e),
    }
}

fn tool_error(message: String) -> Outcome {
    Outcome::ToolError(json!({ "error": message }))
}

fn history(env: &CapEnv) -> Result<Arc<dyn History>, String> {
    env.history
        .clone()
        .ok_or_else(|| "Fornax's history is not available to this server".to_string())
}

fn str_arg<'a>(args: &'a Map<String, Value>, key: &str) -> Result<Option<&'a str>, String> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.as_str())),
        Some(other) => Err(format!("\"{key}\" must be a string, got {other}")),
    }
}

fn uint_arg(args: &Map<String, Value>, key: &str) -> Result<Option<usize>, String> {
    match args.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| format!("\"{key}\" must be a non-negative integer, got {v}")),
    }
}

/// The session a call is about: the one named, else the latest working in this directory.
fn session_id(env: &CapEnv, h: &dyn History, given: Option<&str>) -> Result<String, String> {
    if let Some(id) = given.filter(|s| !s.is_empty()) {
        return Ok(id.to_string());
    }
    let now = crate::time::rfc3339(std::time::SystemTime::now());
    match h.session_at(&env.cwd, &now)? {
        Some(s) => Ok(format!("{}:{}", s.provider, s.native_id)),
        None => Err(format!(
            "no indexed session has worked in {}; pass \"session\" (a session id, or `latest`)",
            env.cwd.display()
        )),
    }
}

fn filter(args: &Map<String, Value>) -> Result<HistoryFilter, String> {
    Ok(HistoryFilter {
        provider: str_arg(args, "provider")?.map(str::to_string),
        project: str_arg(args, "project")?.map(str::to_string),
        since: str_arg(args, "since")?.map(str::to_string),
        verdict: str_arg(args, "verdict")?.map(str::to_string),
    })
}

/// Fills a page from `fetch(offset, limit)`, starting at `start`.
fn fill(
    page: &mut Page,
    start: usize,
    mut fetch: impl FnMut(usize, usize) -> Result<Vec<Value>, String>,
    marker: &dyn Fn(usize, usize) -> String,
) -> Result<bool, String> {
    let mut offset = start;
    loop {
        let rows = fetch(offset, CHUNK)?;
        let exhausted = rows.len() < CHUNK;
        for row in rows {
            if page.rows.len() >= MAX_ROWS
                || !page.offer(
                    row,
                    ROW_TEXT_BYTES,
                    marker,
                    || json!({"omitted": "this row is larger than the answer's max_bytes"}),
                )
            {
                return Ok(true);
            }
        }
        offset += CHUNK;
        if exhausted {
            return Ok(false);
        }
    }
}

/// An answer: `key` holding the page's rows, the cursor, and a note when texts were cut.
fn answer(mut head: Map<String, Value>, key: &str, page: Page, start: usize, more: bool) -> Value {
    let cut = page.cut;
    let n = page.rows.len();
    head.insert(key.to_string(), Value::Array(page.rows));
    head.insert(
        "next_cursor".to_string(),
        if more {
            Value::String((start + page.consumed).to_string())
        } else {
            Value::Null
        },
    );
    let mut notes = Vec::new();
    if more {
        notes.push(format!(
            "{n} shown; more remain: call again with \"cursor\": \"{}\"",
            start + page.consumed
        ));
    }
    if cut > 0 {
        notes.push(format!(
            "{cut} row(s) had long texts cut; each cut says how to read the rest"
        ));
    }
    if !notes.is_empty() {
        head.insert("note".to_string(), Value::String(notes.join("; ")));
    }
    Value::Object(head)
}

/// Bytes reserved for an answer's cursor and notes.
const NOTES_BYTES: usize = 320;

fn findings(env: &CapEnv, args: &Map<String, Value>, max: usize) -> Result<Value, String> {
    let h = history(env)?;
    let start = bound::cursor(args)?;
    let session = match str_arg(args, "session")? {
        Some("all") => None,
        given => Some(session_id(env, h.as_ref(), given)?),
    };
    let mut head = Map::new();
    head.insert("session".to_string(), json!(session));
    let mut page = Page::new(
        max,
        bound::answer_len(&Value::Object(head.clone())) + NOTES_BYTES,
    );
    let hint = match &session {
        Some(s) => format!("fornax_session {{\"id\": \"{s}\"}} shows the claim in place"),
        None => "fornax_findings with that session shows it alone".to_string(),
    };
    let marker = bound::generic_marker(&hint);
    let more = fill(
        &mut page,
        start,
        |o, l| h.findings(session.as_deref(), o, l),
        &marker,
    )?;
    if start == 0 && page.rows.is_empty() {
        head.insert(
            "note".to_string(),
            json!("no findings: no claim of this session has been judged yet"),
        );
    }
    Ok(answer(head, "findings", page, start, more))
}

fn sessions(env: &CapEnv, args: &Map<String, Value>, max: usize) -> Result<Value, String> {
    let h = history(env)?;
    let start = bound::cursor(args)?;
    let filter = filter(args)?;
    let mut page = Page::new(max, NOTES_BYTES);
    let marker = bound::generic_marker("fornax_session shows the session");
    let more = fill(&mut page, start, |o, l| h.sessions(&filter, o, l), &marker)?;
    Ok(answer(Map::new(), "sessions", page, start, more))
}

fn search(env: &CapEnv, args: &Map<String, Value>, max: usize) -> Result<Value, String> {
    let h = history(env)?;
    let Some(text) = str_arg(args, "text")?.filter(|t| !t.trim().is_empty()) else {
        return Err("missing string argument \"text\"".to_string());
    };
    let start = bound::cursor(args)?;
    let filter = filter(args)?;
    let mut head = Map::new();
    head.insert("query".to_string(), json!(text));
    let mut page = Page::new(
        max,
        bound::answer_len(&Value::Object(head.clone())) + NOTES_BYTES,
    );
    let marker = bound::generic_marker("fornax_session shows the hit in its session");
    let more = fill(
        &mut page,
        start,
        |o, l| h.search(text, &filter, o, l),
        &marker,
    )?;
    Ok(answer(head, "hits", page, start, more))
}

/// An item as an agent reads it: where it is in the session and what it holds (the native
/// records it came from are left to `fornax show`).
fn item_row(index: usize, item: &Item) -> Value {
    let mut row = Map::new();
    row.insert("index".to_string(), json!(index));
    if let Some(at) = &item.at {
        row.insert("at".to_string(), json!(at));
    }
    if let Some(l) = item.loop_position {
        row.insert("loop".to_string(), json!(l));
    }
    row.insert("role".to_string(), json!(item.semantic.role));
    row.insert(
        "value".to_string(),
        serde_json::to_value(&item.semantic.value).unwrap_or(Value::Null),
    );
    Value::Object(row)
}

fn session(env: &CapEnv, args: &Map<String, Value>, max: usize) -> Result<Value, String> {
    let h = history(env)?;
    let id = session_id(env, h.as_ref(), str_arg(args, "id")?)?;
    let start = bound::cursor(args)?;
    let mut summary = h.session(&id)?;
    let item_count = summary.get("item_count").cloned().unwrap_or(Value::Null);
    let mut head = Map::new();
    head.insert("id".to_string(), json!(id));
    head.insert("item_count".to_string(), item_count);
    if start == 0 {
        // The summary is shown once, on the first page, and never takes more than a quarter.
        bound::cap_strings(
            &mut summary,
            ROW_TEXT_BYTES / 4,
            &bound::generic_marker("cut"),
        );
        let room = (max / 4).max(256);
        if bound::answer_len(&summary) <= room {
            head.insert("session".to_string(), summary);
        } else {
            head.insert(
                "session".to_string(),
                json!("summary omitted: larger than a quarter of max_bytes"),
            );
        }
    }
    let mut page = Page::new(
        max,
        bound::answer_len(&Value::Object(head.clone())) + NOTES_BYTES,
    );
    let marker = {
        let id = id.clone();
        move |index: usize| {
            let id = id.clone();
            move |kept: usize, len: usize| {
                format!(
                    " …[cut: {kept} of {len} bytes shown; the rest: fornax_output {{\"session\": \"{id}\", \"item\": {index}, \"offset\": {kept}}}]"
                )
            }
        }
    };
    let mut offset = start;
    let mut more = false;
    'fill: loop {
        let items = h.items(&id, offset, CHUNK)?;
        let exhausted = items.len() < CHUNK;
        for (i, item) in items.iter().enumerate() {
            let index = offset + i;
            let more_of = marker(index);
            if page.rows.len() >= MAX_ROWS
                || !page.offer(item_row(index, item), ROW_TEXT_BYTES, &more_of, || {
                    json!({"index": index, "omitted": "this item does not fit max_bytes; read its text with fornax_output"})
                })
            {
                more = true;
                break 'fill;
            }
        }
        offset += CHUNK;
        if exhausted {
            break;
        }
    }
    Ok(answer(head, "items", page, start, more))
}

/// The texts of an item an agent can read whole through `fornax_output`.
fn item_text<'a>(item: &'a Item, stream: &str) -> Option<&'a str> {
    match (&item.semantic.value, stream) {
        (SemanticValue::ToolOutput(o), "stderr") => o.stderr.as_ref().map(|t| t.text.as_str()),
        (_, "stderr") => None,
        (v, _) => v.primary_text(),
    }
}

fn output(env: &CapEnv, args: &Map<String, Value>, max: usize) -> Result<Value, String> {
    let h = history(env)?;
    let id = session_id(env, h.as_ref(), str_arg(args, "session")?)?;
    let Some(index) = uint_arg(args, "item")? else {
        return Err("missing integer argument \"item\" (an index from fornax_session)".to_string());
    };
    let offset = uint_arg(args, "offset")?.unwrap_or(0);
    let stream = str_arg(args, "stream")?.unwrap_or("text");
    if !matches!(stream, "text" | "stderr") {
        return Err(format!("\"stream\" must be text or stderr, got {stream:?}"));
    }
    let items = h.items(&id, index, 1)?;
    let Some(item) = items.first() else {
        return Err(format!("session {id} has no item {index}"));
    };
    let Some(text) = item_text(item, stream) else {
        return Err(format!(
            "item {index} of session {id} has no {stream} to read"
        ));
    };
    if offset > text.len() {
        return Err(format!(
            "\"offset\" {offset} is past the end of the text ({} bytes)",
            text.len()
        ));
    }
    let from = bound::floor_boundary(text, offset);
    let head = json!({
        "session": id, "item": index, "stream": stream, "offset": from,
        "bytes": text.len(), "next_offset": text.len(), "text": ""
    });
    let room = max.saturating_sub(ENVELOPE_BYTES + bound::answer_len(&head) + NOTES_BYTES);
    // The slice's escaped size counts twice: once in the page JSON, once more as content text.
    let mut used = 0usize;
    let mut end = from;
    for (i, c) in text[from..].char_indices() {
        let cost = bound::nested_escaped_len(c);
        if used + cost > room {
            break;
        }
        used += cost;
        end = from + i + c.len_utf8();
    }
    let next = (end < text.len()).then_some(end);
    let mut answer = json!({
        "session": id, "item": index, "stream": stream, "offset": from,
        "bytes": text.len(), "next_offset": next, "text": &text[from..end]
    });
    if let Some(n) = next {
        answer["note"] = json!(format!(
            "{} of {} bytes shown; call again with \"offset\": {n} for more",
            end - from,
            text.len()
        ));
    }
    Ok(answer)
}

/// The latest test command of the session and what became of it.
fn last_test_run(env: &CapEnv, args: &Map<String, Value>) -> Result<Value, String> {
    let h = history(env)?;
    let id = session_id(env, h.as_ref(), str_arg(args, "session")?)?;
    let summary = h.session(&id)?;
    let count = summary
        .get("item_count")
        .and_then(Value::as_u64)
        .and_then(|n| usize::try_from(n).ok())
        .ok_or_else(|| format!("session {id}: its item count is unknown"))?;
    let mut end = count;
    while end > 0 {
        let from = end.saturating_sub(CHUNK * 4);
        let items = h.items(&id, from, end - from)?;
        for (i, item) in items.iter().enumerate().rev() {
            let Some(command) = fornax_verify::sensors::shell_command(item) else {
                continue;
            };
            let class = fornax_verify::classify_command(&command);
            if class.kind != fornax_verify::CommandKind::Test {
                continue;
            }
            return Ok(test_run(h.as_ref(), &id, from + i, item, &command, count));
        }
        end = from;
    }
    Ok(json!({
        "session": id,
        "found": false,
        "answer": format!("no test command among the session's {count} items"),
    }))
}

fn call_id(item: &Item) -> Option<&str> {
    match &item.semantic.value {
        SemanticValue::ShellCall(c) => c.call_id.as_deref(),
        SemanticValue::ToolCall(c) => c.call_id.as_deref(),
        SemanticValue::ToolOutput(o) => o.call_id.as_deref(),
        _ => None,
    }
}

fn test_run(
    h: &dyn History,
    id: &str,
    index: usize,
    call: &Item,
    command: &str,
    count: usize,
) -> Value {
    let wanted = call_id(call);
    let mut found = None;
    let mut offset = index + 1;
    while found.is_none() && offset < count.min(index + 1 + OUTPUT_LOOKAHEAD) {
        let Ok(items) = h.items(id, offset, CHUNK) else {
            break;
        };
        if items.is_empty() {
            break;
        }
        found = items
            .iter()
            .enumerate()
            .find_map(|(i, it)| match &it.semantic.value {
                SemanticValue::ToolOutput(o)
                    if wanted.is_none() || o.call_id.as_deref() == wanted =>
                {
                    Some((offset + i, o.clone()))
                }
                _ => None,
            });
        offset += items.len();
    }
    let mut answer = json!({
        "session": id, "found": true, "command": command, "item": index, "at": call.at,
    });
    let Some((out_index, out)) = found else {
        answer["passed"] = Value::Null;
        answer["answer"] = json!(format!(
            "`{command}` ran, but its output is not in the history (still running, or the runtime did not record it)"
        ));
        return answer;
    };
    let text = out.text.as_ref().map(|t| t.text.as_str()).unwrap_or("");
    let report = fornax_verify::testsummary::parse(text);
    let exit = out.exit_code.as_ref().map(|e| e.code);
    let passed = match (exit, &report, out.failed) {
        (Some(code), _, _) => Some(code == 0),
        (None, Some(r), _) if r.has_failures() => Some(false),
        (None, _, Some(true)) => Some(false),
        (None, Some(r), _) if r.is_clean_pass() => Some(true),
        _ => None,
    };
    let said = report.as_ref().map(|r| r.describe());
    let sentence = match (passed, exit, &said) {
        (Some(true), Some(c), Some(s)) => format!("yes: `{command}` exited {c} ({s})"),
        (Some(true), Some(c), None) => format!("yes: `{command}` exited {c}"),
        (Some(false), Some(c), Some(s)) => format!("no: `{command}` exited {c} ({s})"),
        (Some(false), Some(c), None) => format!("no: `{command}` exited {c}"),
        (Some(true), None, Some(s)) => {
            format!("yes by its output ({s}); no exit code was recorded")
        }
        (Some(false), None, Some(s)) => {
            format!("no by its output ({s}); no exit code was recorded")
        }
        (Some(false), None, None) => format!("no: the runtime marked `{command}` as failed"),
        _ => format!("unknown: `{command}` recorded no exit code and its output gives no counts"),
    };
    let tail_from = bound::floor_boundary(text, text.len().saturating_sub(OUTPUT_TAIL_BYTES));
    answer["passed"] = json!(passed);
    answer["exit_code"] = json!(exit);
    answer["summary"] = json!(said);
    answer["answer"] = json!(sentence);
    answer["output_item"] = json!(out_index);
    answer["output_bytes"] = json!(text.len());
    answer["output_tail"] = json!(&text[tail_from..]);
    if tail_from > 0 {
        answer["note"] = json!(format!(
            "the output's last {} bytes; the whole: fornax_output {{\"session\": \"{id}\", \"item\": {out_index}}}",
            text.len() - tail_from
        ));
    }
    answer
}

fn cap_list(env: &CapEnv, args: &Map<String, Value>, max: usize) -> Result<Value, String> {
    let start = bound::cursor(args)?;
    let rt = env.runtime();
    let caps: Vec<Value> = rt
        .registry
        .list(false)
        .map(|c| json!({"id": c.manifest.id, "summary": c.manifest.summary, "argsSchema": c.manifest.args_schema}))
        .collect();
    let mut page = Page::new(max, NOTES_BYTES);
    let marker = bound::generic_marker("cap_inspect shows it whole");
    let more = fill(
        &mut page,
        start,
        |o, l| Ok(caps.iter().skip(o).take(l).cloned().collect()),
        &marker,
    )?;
    Ok(answer(Map::new(), "capabilities", page, start, more))
}

/// Cuts an answer with no pages of its own until it fits.
fn fit_whole(value: Value, max: usize, hint: &str) -> Value {
    let marker = bound::generic_marker(hint);
    bound::fit_row(value, max.saturating_sub(ENVELOPE_BYTES), max, &marker).unwrap_or_else(|| {
        json!({"error": "the answer does not fit max_bytes even with its texts cut; raise max_bytes"})
    })
}

fn cap_inspect(env: &CapEnv, args: &Map<String, Value>, max: usize) -> Result<Value, String> {
    let Some(id) = str_arg(args, "id")? else {
        return Err("missing string argument \"id\"".to_string());
    };
    let rt = env.runtime();
    let cap = rt
        .resolve(&[id.to_string()], env.toolspace.as_deref())
        .map_err(|e| e.to_string())?;
    Ok(fit_whole(
        json!({"capability": cap.manifest.to_value(), "origin": cap.origin.to_json()}),
        max,
        "`fornax cap inspect` in a terminal shows it whole",
    ))
}

fn cap_run(env: &CapEnv, args: &Map<String, Value>, max: usize) -> Outcome {
    let id = match str_arg(args, "id") {
        Ok(Some(id)) => id,
        Ok(None) => return tool_error("missing string argument \"id\"".to_string()),
        Err(e) => return tool_error(e),
    };
    let run_args = match args.get("args") {
        None | Some(Value::Null) => Map::new(),
        Some(Value::Object(m)) => m.clone(),
        Some(_) => return tool_error("\"args\" must be an object".to_string()),
    };
    let rt = env.runtime();
    let cap = match rt.resolve(&[id.to_string()], env.toolspace.as_deref()) {
        Ok(c) => c,
        Err(e) => return tool_error(e.to_string()),
    };
    let mut outcome = rt.run(
        cap,
        &RunOptions {
            args: run_args,
            any_lifecycle: false,
            session: None,
            // An agent cannot trust what it may have written itself.
            trust: TrustMode::RequireTrusted,
        },
    );
    let recheck = crate::evidence::recheck_of(&cap.manifest.id, &outcome, RecheckTrigger::Mcp);
    if let (Some(sink), false) = (&env.evidence_sink, outcome.evidence.is_empty()) {
        if let Err(e) = sink.record(recheck.as_ref(), &outcome.evidence) {
            outcome
                .envelope
                .warn(format!("evidence was not recorded: {e}"));
        }
    }
    let value = fit_whole(
        outcome.envelope.to_json(),
        max,
        "`fornax cap run` in a terminal shows the whole output",
    );
    if outcome.envelope.ok {
        Outcome::Answer(value)
    } else {
        Outcome::ToolError(value)
    }
}
