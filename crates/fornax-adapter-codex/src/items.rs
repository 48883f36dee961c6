//! `response_item` payloads (and the same items written bare by pre-envelope rollouts).

use fornax_types::{
    EvidenceStrength, IngestMessage, ReasoningMode, Role, SemanticValue, SubagentValue, TextValue,
};
use serde_json::{json, Value};

use crate::adapter::{CodexAdapter, Ctx, Handled};
use crate::exit_code::{parse_output, ParsedOutput};
use crate::messages::MessageWitness;
use crate::patch::{parse_patch, patch_in_command};
use crate::shell::{command_of, shell_from_call, shell_from_local_action};
use crate::state::Stream;
use crate::text::{
    arguments, content_text, nonempty, str_of, ARGUMENT_STRING_LIMIT, MESSAGE_TEXT_LIMIT,
};
use crate::tools::{CallSpec, OutputWitness};

impl CodexAdapter {
    /// `prefix` is `response_item:` inside the envelope and empty for bare legacy items; it
    /// only shapes the discriminator of an unknown type.
    pub(crate) fn response_item(
        &mut self,
        t: &str,
        p: &Value,
        cx: &mut Ctx<'_>,
        prefix: &str,
    ) -> Handled {
        match t {
            "message" => {
                let Some(role) = str_of(p, "role") else {
                    return Handled::Ignored("message without a role");
                };
                let text = p.get("content").and_then(content_text).unwrap_or_default();
                let mut w = MessageWitness::new(Stream::Response, role, text);
                w.phase = str_of(p, "phase").map(str::to_string);
                self.message(w, cx)
            }
            "reasoning" => self.reasoning_item(p, cx),
            "function_call" => self.function_call(p, cx),
            "custom_tool_call" => self.custom_tool_call(p, cx),
            "local_shell_call" => {
                let call_id = nonempty(p, "call_id").or_else(|| nonempty(p, "id"));
                let action = p.get("action").cloned().unwrap_or(Value::Null);
                let mut spec = CallSpec::new(call_id, "local_shell", arguments(&action));
                spec.shell = shell_from_local_action(&action);
                if let Some(patch) = spec
                    .shell
                    .as_ref()
                    .and_then(|s| patch_in_command(&s.command))
                {
                    spec.patch = parse_patch(patch);
                }
                self.call(spec, cx)
            }
            "function_call_output" | "custom_tool_call_output" => {
                let parsed = p.get("output").map(parse_output).unwrap_or_default();
                self.output(str_of(p, "call_id"), OutputWitness::of(parsed), cx)
            }
            "web_search_call" => {
                let id = nonempty(p, "call_id").or_else(|| nonempty(p, "id"));
                let args = p.get("action").map(arguments).unwrap_or(Value::Null);
                self.call(CallSpec::new(id, "web_search", args), cx)
            }
            "tool_search_call" => {
                let id = nonempty(p, "call_id").or_else(|| nonempty(p, "id"));
                let args = p.get("arguments").map(arguments).unwrap_or(Value::Null);
                self.call(CallSpec::new(id, "tool_search", args), cx)
            }
            "tool_search_output" => {
                let names = tool_names(p.get("tools"));
                let parsed = ParsedOutput {
                    text: Some(names),
                    ..ParsedOutput::default()
                };
                let mut w = OutputWitness::of(parsed);
                w.tool_name = Some("tool_search".into());
                self.output(str_of(p, "call_id"), w, cx)
            }
            "image_generation_call" => {
                let id = nonempty(p, "call_id").or_else(|| nonempty(p, "id"));
                let args = json!({"revised_prompt": p.get("revised_prompt").cloned().unwrap_or(Value::Null)});
                self.call(CallSpec::new(id, "image_generation", arguments(&args)), cx)
            }
            "agent_message" => self.inter_agent_message(p, cx),
            "ghost_snapshot" => Handled::Ignored("ghost_snapshot: undo bookkeeping"),
            "compaction" | "compaction_summary" => {
                Handled::Ignored("encrypted compaction of earlier context")
            }
            "other" => Handled::Ignored("response item the runtime itself did not classify"),
            // Hand-written drift shapes seen in third-party fixtures, read leniently.
            "tool_call" => {
                let name = p
                    .get("function")
                    .and_then(|f| nonempty(f, "name"))
                    .or_else(|| nonempty(p, "name"))
                    .unwrap_or("<unnamed>");
                let args = p.get("arguments").map(arguments).unwrap_or(Value::Null);
                let mut spec = CallSpec::new(str_of(p, "call_id"), name, args);
                spec.strength = EvidenceStrength::Heuristic;
                self.call(spec, cx)
            }
            "tool_result" | "function_result" => {
                let result = p
                    .get("result")
                    .or_else(|| p.get("output"))
                    .cloned()
                    .unwrap_or(Value::Null);
                let mut parsed = match &result {
                    Value::String(s) => ParsedOutput {
                        text: Some(s.clone()),
                        ..ParsedOutput::default()
                    },
                    other => ParsedOutput {
                        text: other
                            .get("stdout")
                            .and_then(Value::as_str)
                            .map(str::to_string),
                        ..ParsedOutput::default()
                    },
                };
                if let Some(code) = result
                    .get("exitCode")
                    .or_else(|| result.get("exit_code"))
                    .and_then(Value::as_i64)
                {
                    parsed.exit_code = Some(fornax_types::ExitCode {
                        code,
                        strength: EvidenceStrength::Heuristic,
                    });
                    parsed.failed = Some(code != 0);
                }
                let mut w = OutputWitness::of(parsed);
                w.tool_name = nonempty(p, "name").map(str::to_string);
                w.stderr = result
                    .get("stderr")
                    .and_then(Value::as_str)
                    .map(str::to_string);
                self.output(str_of(p, "call_id"), w, cx)
            }
            _ => Handled::Unrecognized(format!("{prefix}{t}")),
        }
    }

    fn reasoning_item(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let summary = part_texts(p.get("summary"));
        let content = part_texts(p.get("content"));
        if summary.is_empty() && content.is_empty() {
            self.reasoning_part(Stream::Response, ReasoningMode::Unavailable, None, cx);
            return Handled::Done;
        }
        for text in &summary {
            self.reasoning_part(Stream::Response, ReasoningMode::Summary, Some(text), cx);
        }
        if !content.is_empty() {
            let joined = content.join("\n");
            self.reasoning_part(Stream::Response, ReasoningMode::Full, Some(&joined), cx);
        }
        Handled::Done
    }

    fn function_call(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let name = nonempty(p, "name").unwrap_or("<unnamed>");
        let args = p.get("arguments").map(arguments).unwrap_or(Value::Null);
        let call_id = nonempty(p, "call_id").or_else(|| nonempty(p, "id"));
        let mut spec = CallSpec::new(call_id, name, Value::Null);
        spec.shell = shell_from_call(name, &args);
        if name == "apply_patch" {
            let patch = args
                .get("input")
                .and_then(Value::as_str)
                .or_else(|| args.as_str());
            spec.patch = patch.map(parse_patch).unwrap_or_default();
        } else if let Some(patch) =
            shell_patch(name, &args, spec.shell.as_ref().map(|s| s.command.as_str()))
        {
            spec.patch = parse_patch(&patch);
        }
        if name == "write_stdin" {
            spec.stdin_session = args.get("session_id").and_then(|s| match s {
                Value::Number(n) => Some(n.to_string()),
                Value::String(s) => Some(s.clone()),
                _ => None,
            });
        }
        spec.arguments = args;
        self.call(spec, cx)
    }

    fn custom_tool_call(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let name = nonempty(p, "name").unwrap_or("<unnamed>");
        let input = str_of(p, "input").unwrap_or("");
        let call_id = nonempty(p, "call_id").or_else(|| nonempty(p, "id"));
        if name == "apply_patch" {
            let capped = TextValue::capped(input, ARGUMENT_STRING_LIMIT).text;
            let mut spec = CallSpec::new(call_id, name, Value::String(capped));
            spec.patch = parse_patch(input);
            return self.call(spec, cx);
        }
        let args = arguments(&Value::String(input.to_string()));
        let mut spec = CallSpec::new(call_id, name, Value::Null);
        spec.shell = shell_from_call(name, &args);
        if let Some(patch) =
            shell_patch(name, &args, spec.shell.as_ref().map(|s| s.command.as_str()))
        {
            spec.patch = parse_patch(&patch);
        }
        spec.arguments = args;
        self.call(spec, cx)
    }

    /// `inter_agent_communication` lines and 2026 `agent_message` response items: a message
    /// between agents of one multi-agent run.
    pub(crate) fn inter_agent_message(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let text = p
            .get("content")
            .and_then(content_text)
            .filter(|t| !t.trim().is_empty());
        let value = SubagentValue {
            child_session: None,
            agent_id: nonempty(p, "author").map(str::to_string),
            agent_type: None,
            status: None,
            text: text.map(|t| TextValue::capped(&t, MESSAGE_TEXT_LIMIT)),
        };
        let item = self.new_item(
            cx.positional_key("agentmsg"),
            Role::SubagentActivity,
            SemanticValue::Subagent(value),
            EvidenceStrength::Structural,
            cx,
        );
        cx.out.push(IngestMessage::Item(item));
        Handled::Done
    }
}

/// The patch of a shell call that invokes `apply_patch` (argv `["apply_patch", patch]` or a
/// heredoc inside `bash -lc`).
fn shell_patch(name: &str, args: &Value, command: Option<&str>) -> Option<String> {
    if let Some(Value::Array(argv)) = args.get("command") {
        if let [Value::String(program), Value::String(patch)] = argv.as_slice() {
            if matches!(program.as_str(), "apply_patch" | "applypatch") && name != "apply_patch" {
                return Some(patch.clone());
            }
        }
    }
    command
        .and_then(patch_in_command)
        .map(str::to_string)
        .or_else(|| {
            // A patch argv that `command_of` joined with quotes: read the raw argv instead.
            args.get("command")
                .and_then(command_of)
                .and_then(|c| patch_in_command(&c).map(str::to_string))
        })
}

fn part_texts(v: Option<&Value>) -> Vec<String> {
    match v {
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| content_text(p).or_else(|| p.as_str().map(str::to_string)))
            .filter(|t| !t.trim().is_empty())
            .collect(),
        Some(Value::String(s)) if !s.trim().is_empty() => vec![s.clone()],
        _ => Vec::new(),
    }
}

fn tool_names(tools: Option<&Value>) -> String {
    let mut names = Vec::new();
    if let Some(Value::Array(list)) = tools {
        for tool in list.iter().take(200) {
            if let Some(name) = str_of(tool, "name") {
                names.push(name.to_string());
            }
            if let Some(Value::Array(inner)) = tool.get("tools") {
                names.extend(
                    inner
                        .iter()
                        .take(200)
                        .filter_map(|t| str_of(t, "name"))
                        .map(str::to_string),
                );
            }
        }
    }
    names.join("\n")
}
