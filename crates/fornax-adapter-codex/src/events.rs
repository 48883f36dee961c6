//! `event_msg` payloads and the other envelope lines that are not response items.
//!
//! Only a subset of Codex's events is persisted (`rollout/policy.rs`); extended-history
//! sessions add exec/patch/MCP end events and `item_completed`. Events that only repeat what
//! another record says, or that are client bookkeeping, are `Ignored` with a reason; a type
//! this adapter does not know is `Unrecognized`.

use fornax_types::{
    Delegation, EvidenceStrength, IngestMessage, ReasoningMode, Role, SemanticValue, SubagentValue,
    TextValue,
};
use serde_json::Value;

use crate::adapter::{CodexAdapter, Ctx, Handled};
use crate::classify::role_of_user_kind;
use crate::exit_code::{parse_text, ParsedOutput};
use crate::messages::MessageWitness;
use crate::patch::{changes_from_map, FileChange};
use crate::shell::{command_of, ShellCommand};
use crate::state::Stream;
use crate::text::{content_text, duration_ms, nonempty, str_of, MESSAGE_TEXT_LIMIT};
use crate::tools::{CallSpec, OutputWitness};

const NOTICE_LIMIT: usize = 4 * 1024;

impl CodexAdapter {
    pub(crate) fn event(&mut self, t: &str, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        match t {
            "task_started" | "turn_started" => self.task_started(p, cx),
            "task_complete" | "turn_complete" => self.task_complete(p, cx),
            "turn_aborted" => self.turn_aborted(p, cx),
            "token_count" => self.token_count(p, cx),
            "user_message" => {
                let text = str_of(p, "message").unwrap_or_default().to_string();
                let mut w = MessageWitness::new(Stream::Event, "user", text);
                w.stated_role = str_of(p, "kind").and_then(role_of_user_kind);
                self.message(w, cx)
            }
            "agent_message" => {
                let text = str_of(p, "message").unwrap_or_default().to_string();
                let mut w = MessageWitness::new(Stream::Event, "assistant", text);
                w.phase = str_of(p, "phase").map(str::to_string);
                self.message(w, cx)
            }
            "agent_reasoning" => {
                self.reasoning_part(Stream::Event, ReasoningMode::Summary, str_of(p, "text"), cx);
                Handled::Done
            }
            "agent_reasoning_raw_content" => {
                self.reasoning_part(Stream::Event, ReasoningMode::Full, str_of(p, "text"), cx);
                Handled::Done
            }
            "item_completed" => self.item_completed(p, cx),
            "exec_command_begin" => self.exec_begin(p, cx),
            "exec_command_end" => self.exec_end(p, str_of(p, "call_id"), cx),
            "patch_apply_end" => {
                let success = p.get("success").and_then(Value::as_bool);
                let stdout = str_of(p, "stdout");
                let stderr = str_of(p, "stderr");
                self.patch_applied(
                    str_of(p, "call_id"),
                    p.get("changes"),
                    success,
                    stdout,
                    stderr,
                    cx,
                )
            }
            "mcp_tool_call_end" => self.mcp_end(p, cx),
            "dynamic_tool_call_request" => self.dynamic_request(p, cx),
            "dynamic_tool_call_response" => self.dynamic_response(p, cx),
            "error" => {
                self.mark_error();
                let text = nonempty(p, "message")
                    .or_else(|| p.get("error").and_then(|e| nonempty(e, "message")))
                    .unwrap_or("error");
                self.text_item("notice", Role::RuntimeNotice, text, NOTICE_LIMIT, cx)
            }
            "warning" => {
                let text = nonempty(p, "message").unwrap_or("warning");
                self.text_item("notice", Role::RuntimeNotice, text, NOTICE_LIMIT, cx)
            }
            "context_compacted" => self.text_item(
                "notice",
                Role::RuntimeNotice,
                "context compacted",
                NOTICE_LIMIT,
                cx,
            ),
            "thread_rolled_back" => self.text_item(
                "notice",
                Role::RuntimeNotice,
                "thread rolled back",
                NOTICE_LIMIT,
                cx,
            ),
            "undo_completed" => {
                let ok = p.get("success").and_then(Value::as_bool);
                let text = match ok {
                    Some(false) => "undo failed",
                    _ => "undo completed",
                };
                self.text_item("notice", Role::RuntimeNotice, text, NOTICE_LIMIT, cx)
            }
            "entered_review_mode" => {
                let hint = nonempty(p, "user_facing_hint").unwrap_or("");
                let text = if hint.is_empty() {
                    "entered review mode".to_string()
                } else {
                    format!("entered review mode: {hint}")
                };
                self.text_item("notice", Role::RuntimeNotice, &text, NOTICE_LIMIT, cx)
            }
            "exited_review_mode" => self.review_report(p, cx),
            "thread_name_updated" => self.thread_name_updated(p, cx),
            "collab_agent_spawn_end" => self.spawned(p, cx),
            "collab_agent_interaction_end"
            | "collab_waiting_end"
            | "collab_close_end"
            | "collab_resume_end"
            | "sub_agent_activity" => self.subagent_activity(p, cx),
            // Streaming fragments: the complete message is persisted separately.
            "agent_message_delta"
            | "agent_reasoning_delta"
            | "agent_reasoning_raw_content_delta"
            | "agent_reasoning_section_break"
            | "agent_message_content_delta"
            | "reasoning_content_delta"
            | "reasoning_raw_content_delta"
            | "plan_delta"
            | "exec_command_output_delta"
            | "terminal_interaction" => Handled::Ignored("streaming fragment"),
            "session_configured"
            | "mcp_list_tools_response"
            | "list_custom_prompts_response"
            | "list_skills_response"
            | "list_models_response"
            | "get_history_entry_response"
            | "mcp_startup_update"
            | "mcp_startup_complete"
            | "conversation_path"
            | "shutdown_complete"
            | "stream_info"
            | "skills_update_available"
            | "deprecation_notice"
            | "background_event"
            | "stream_error" => Handled::Ignored("client bookkeeping"),
            "exec_approval_request"
            | "apply_patch_approval_request"
            | "elicitation_request"
            | "request_user_input"
            | "request_permissions" => {
                Handled::Ignored("approval request (its outcome shows in the call's output)")
            }
            "account/rateLimits/updated" | "rate_limits_updated" | "rate_limits" => {
                Handled::Ignored("rate-limit update")
            }
            "plan_update" => Handled::Ignored("plan update (the update_plan call carries it)"),
            "turn_diff" => Handled::Ignored("aggregated diff of the turn"),
            "web_search_begin" | "web_search_end" => {
                Handled::Ignored("web search progress (the web_search_call carries it)")
            }
            "view_image_tool_call" => Handled::Ignored("image attached to the context"),
            "image_generation_begin" | "image_generation_end" => {
                Handled::Ignored("image generation progress")
            }
            "guardian_assessment" => Handled::Ignored("safety assessment of a proposed action"),
            "thread_settings_applied" => match thread_settings_text(p) {
                Some(text) => self.text_item("settings", Role::RuntimeState, &text, 4096, cx),
                None => Handled::Ignored("thread settings bookkeeping"),
            },
            "thread_goal_updated" => match thread_goal_text(p) {
                Some(text) => self.text_item("goal", Role::RuntimeState, &text, 4096, cx),
                None => Handled::Ignored("thread goal without an objective"),
            },
            "collab_agent_spawn_begin"
            | "collab_agent_interaction_begin"
            | "collab_waiting_begin"
            | "collab_close_begin"
            | "collab_resume_begin" => {
                Handled::Ignored("subagent operation started (its end is recorded)")
            }
            "mcp_tool_call_begin"
            | "patch_apply_begin"
            | "undo_started"
            | "item_started"
            | "item_updated" => Handled::Ignored("progress event (its end is recorded)"),
            _ => Handled::Unrecognized(format!("event_msg:{t}")),
        }
    }

    /// `compacted`: the summary that replaced earlier context.
    pub(crate) fn compacted(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        match nonempty(p, "message") {
            Some(text) => self.text_item(
                "compaction",
                Role::RuntimeCompactionSummary,
                text,
                MESSAGE_TEXT_LIMIT,
                cx,
            ),
            None => Handled::Ignored("compaction without a summary text"),
        }
    }

    fn item_completed(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let Some(item) = p.get("item").filter(|i| i.is_object()) else {
            return Handled::Ignored("item_completed without an item");
        };
        let kind = str_of(item, "type").unwrap_or("");
        match kind {
            "UserMessage" | "AgentMessage" => {
                let role = if kind == "UserMessage" {
                    "user"
                } else {
                    "assistant"
                };
                let text = item
                    .get("content")
                    .and_then(content_text)
                    .unwrap_or_default();
                let mut w = MessageWitness::new(Stream::Completed, role, text);
                w.phase = str_of(item, "phase").map(str::to_string);
                self.message(w, cx)
            }
            "CommandExecution" => self.exec_end(item, str_of(item, "id"), cx),
            "McpToolCall" => self.mcp_end(item, cx),
            "FileChange" => {
                let success = str_of(item, "status").map(|s| s == "completed");
                let id = str_of(item, "id");
                let (stdout, stderr) = (str_of(item, "stdout"), str_of(item, "stderr"));
                self.patch_applied(id, item.get("changes"), success, stdout, stderr, cx)
            }
            "Plan" => match nonempty(item, "text") {
                Some(text) => {
                    let key = match nonempty(item, "id") {
                        Some(id) => format!("plan:{id}"),
                        None => cx.positional_key("plan"),
                    };
                    let value = SemanticValue::Text(TextValue::capped(text, MESSAGE_TEXT_LIMIT));
                    let it = self.new_item(
                        key,
                        Role::AgentCommentary,
                        value,
                        EvidenceStrength::Structural,
                        cx,
                    );
                    cx.out.push(IngestMessage::Item(it));
                    Handled::Done
                }
                None => Handled::Ignored("plan item without text"),
            },
            "Reasoning" => Handled::Ignored("reasoning completion (the reasoning item carries it)"),
            "WebSearch"
            | "Extension"
            | "ImageGeneration"
            | "ImageView"
            | "ContextCompaction"
            | "HookPrompt"
            | "CollabAgentToolCall"
            | "DynamicToolCall"
            | "EnteredReviewMode"
            | "ExitedReviewMode"
            | "TodoList" => Handled::Ignored("completion of an item recorded elsewhere"),
            other => Handled::Unrecognized(format!("event_msg:item_completed:{other}")),
        }
    }

    fn exec_begin(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let Some(call_id) = nonempty(p, "call_id") else {
            return Handled::Ignored("exec begin without a call id");
        };
        if self.knows_call(call_id) || str_of(p, "source") == Some("user_shell") {
            return Handled::Ignored("exec begin of a known call");
        }
        self.exec_call_from_event(call_id, p, cx)
    }

    /// `exec_command_end` or a completed `CommandExecution` item: a structural exit code
    /// (when the mode wrote one) joined to the call's output.
    fn exec_end(&mut self, p: &Value, call_id: Option<&str>, cx: &mut Ctx<'_>) -> Handled {
        if str_of(p, "source") == Some("user_shell") {
            return Handled::Ignored("shell command the user ran, not the agent");
        }
        let Some(call_id) = call_id.filter(|c| !c.is_empty()) else {
            return Handled::Ignored("exec end without a call id");
        };
        if !self.knows_call(call_id) {
            self.exec_call_from_event(call_id, p, cx);
        }
        let text = ["aggregated_output", "formatted_output", "stdout"]
            .iter()
            .find_map(|k| str_of(p, k))
            .map(str::to_string);
        let mut parsed = ParsedOutput {
            text,
            ..ParsedOutput::default()
        };
        if let Some(code) = p.get("exit_code").and_then(Value::as_i64) {
            parsed.exit_code = Some(fornax_types::ExitCode {
                code,
                strength: EvidenceStrength::Structural,
            });
            parsed.failed = Some(code != 0);
        } else if matches!(str_of(p, "status"), Some("failed" | "declined")) {
            parsed.failed = Some(true);
        }
        parsed.duration_ms = duration_ms(p.get("duration"));
        let mut w = OutputWitness::of(parsed);
        w.stderr = str_of(p, "stderr").map(str::to_string);
        self.output(Some(call_id), w, cx)
    }

    fn exec_call_from_event(&mut self, call_id: &str, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let Some(command) = p.get("command").and_then(command_of) else {
            return Handled::Ignored("exec event without a command");
        };
        let mut spec = CallSpec::new(Some(call_id), "exec_command", Value::Null);
        spec.shell = Some(ShellCommand {
            command,
            cwd: nonempty(p, "cwd").map(str::to_string),
            timeout_ms: None,
        });
        self.call(spec, cx)
    }

    /// `patch_apply_end` / a completed `FileChange` item: the patch outcome and the files.
    fn patch_applied(
        &mut self,
        call_id: Option<&str>,
        changes: Option<&Value>,
        success: Option<bool>,
        stdout: Option<&str>,
        stderr: Option<&str>,
        cx: &mut Ctx<'_>,
    ) -> Handled {
        let Some(call_id) = call_id.filter(|c| !c.is_empty()) else {
            return Handled::Ignored("patch result without a call id");
        };
        let changes: Vec<FileChange> = changes.map(changes_from_map).unwrap_or_default();
        let changes = self.align_paths(call_id, changes);
        if !self.knows_call(call_id) && !changes.is_empty() {
            let mut spec = CallSpec::new(Some(call_id), "apply_patch", Value::Null);
            spec.patch = changes.clone();
            self.call(spec, cx);
        }
        let text = match success {
            Some(false) => stderr.filter(|s| !s.is_empty()).or(stdout),
            _ => stdout.filter(|s| !s.is_empty()).or(stderr),
        };
        let parsed = ParsedOutput {
            text: text.map(str::to_string),
            failed: success.map(|s| !s),
            ..ParsedOutput::default()
        };
        let mut w = OutputWitness::of(parsed);
        w.tool_name = Some("apply_patch".into());
        w.patch_evidence = false;
        self.output(Some(call_id), w, cx);
        if let (Some(succeeded), false) = (success, changes.is_empty()) {
            let error = (!succeeded)
                .then(|| {
                    stderr
                        .and_then(|s| s.lines().next())
                        .map(|l| l.chars().take(300).collect())
                })
                .flatten();
            if let Some(output) = self.st.outputs.get(call_id).cloned() {
                let mut records = Vec::new();
                if let Some(call) = self.st.calls.get(call_id) {
                    records.push(call.record.clone());
                }
                let witnesses: Vec<_> = output
                    .records
                    .iter()
                    .filter(|r| !records.contains(r))
                    .cloned()
                    .collect();
                records.extend(witnesses);
                self.publish_diffs(call_id, &changes, succeeded, error, &output, records, cx);
            }
        }
        Handled::Done
    }

    /// `mcp_tool_call_end` or a completed `McpToolCall` item.
    fn mcp_end(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let Some(call_id) = nonempty(p, "call_id").or_else(|| nonempty(p, "id")) else {
            return Handled::Ignored("MCP call result without a call id");
        };
        let invocation = p.get("invocation").unwrap_or(p);
        let server = nonempty(invocation, "server").unwrap_or("mcp");
        let tool = nonempty(invocation, "tool").unwrap_or("<unnamed>");
        let name = format!("{server}__{tool}");
        if !self.knows_call(call_id) {
            let args = invocation
                .get("arguments")
                .map(crate::text::arguments)
                .unwrap_or(Value::Null);
            self.call(CallSpec::new(Some(call_id), &name, args), cx);
        }
        let result = p.get("result").unwrap_or(&Value::Null);
        let (ok, err) = (result.get("Ok"), result.get("Err"));
        let body = ok.unwrap_or(result);
        let mut parsed = match err {
            Some(e) => ParsedOutput {
                text: e.as_str().map(str::to_string).or_else(|| content_text(e)),
                failed: Some(true),
                ..ParsedOutput::default()
            },
            None => ParsedOutput {
                text: body.get("content").and_then(content_text),
                failed: body.get("isError").and_then(Value::as_bool),
                ..ParsedOutput::default()
            },
        };
        parsed.duration_ms = duration_ms(p.get("duration"));
        let mut w = OutputWitness::of(parsed);
        w.tool_name = Some(name);
        self.output(Some(call_id), w, cx)
    }

    fn dynamic_request(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let Some(call_id) = nonempty(p, "callId").or_else(|| nonempty(p, "call_id")) else {
            return Handled::Ignored("dynamic tool request without a call id");
        };
        if self.knows_call(call_id) {
            return Handled::Ignored("dynamic tool request of a known call");
        }
        let args = p
            .get("arguments")
            .map(crate::text::arguments)
            .unwrap_or(Value::Null);
        self.call(CallSpec::new(Some(call_id), &dynamic_name(p), args), cx)
    }

    fn dynamic_response(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let call_id = nonempty(p, "call_id").or_else(|| nonempty(p, "callId"));
        let text = p.get("content_items").and_then(content_text);
        let mut parsed = text.map(|t| parse_text(&t, false)).unwrap_or_default();
        if let Some(success) = p.get("success").and_then(Value::as_bool) {
            parsed.failed = Some(!success);
        }
        parsed.duration_ms = parsed
            .duration_ms
            .or_else(|| duration_ms(p.get("duration")));
        let mut w = OutputWitness::of(parsed);
        w.tool_name = Some(dynamic_name(p));
        self.output(call_id, w, cx)
    }

    fn review_report(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let Some(review) = p.get("review_output").filter(|r| r.is_object()) else {
            return self.text_item(
                "notice",
                Role::RuntimeNotice,
                "exited review mode",
                NOTICE_LIMIT,
                cx,
            );
        };
        let mut text = nonempty(review, "overall_explanation")
            .unwrap_or("")
            .to_string();
        if let Some(Value::Array(findings)) = review.get("findings") {
            for title in findings
                .iter()
                .filter_map(|f| nonempty(f, "title"))
                .take(100)
            {
                text.push_str("\n- ");
                text.push_str(title);
            }
        }
        let value = SubagentValue {
            child_session: None,
            agent_id: None,
            agent_type: Some("review".into()),
            status: nonempty(review, "overall_correctness").map(str::to_string),
            text: (!text.trim().is_empty())
                .then(|| TextValue::capped(text.trim(), MESSAGE_TEXT_LIMIT)),
        };
        let item = self.new_item(
            cx.positional_key("review"),
            Role::SubagentReport,
            SemanticValue::Subagent(value),
            EvidenceStrength::Structural,
            cx,
        );
        cx.out.push(IngestMessage::Item(item));
        Handled::Done
    }

    fn spawned(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let key = match nonempty(p, "call_id") {
            Some(id) => format!("spawn:{id}"),
            None => cx.positional_key("spawn"),
        };
        let value = Delegation {
            parent_native_id: self.session_ref().native_id,
            call_id: nonempty(p, "call_id").map(str::to_string),
            agent_id: nonempty(p, "new_thread_id").map(str::to_string),
            agent_type: nonempty(p, "new_agent_role").map(str::to_string),
        };
        let item = self.new_item(
            key,
            Role::AgentDelegation,
            SemanticValue::Delegation(value),
            EvidenceStrength::Structural,
            cx,
        );
        cx.out.push(IngestMessage::Item(item));
        Handled::Done
    }

    fn subagent_activity(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let status = match p.get("status") {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Object(obj)) => obj.keys().next().cloned(),
            _ => nonempty(p, "kind").map(str::to_string),
        };
        let value = SubagentValue {
            child_session: ["receiver_thread_id", "new_thread_id", "agent_thread_id"]
                .iter()
                .find_map(|k| nonempty(p, k))
                .map(str::to_string),
            agent_id: ["receiver_agent_nickname", "agent_path"]
                .iter()
                .find_map(|k| nonempty(p, k))
                .map(str::to_string),
            agent_type: nonempty(p, "receiver_agent_role").map(str::to_string),
            status,
            text: nonempty(p, "prompt").map(|t| TextValue::capped(t, MESSAGE_TEXT_LIMIT)),
        };
        let item = self.new_item(
            cx.positional_key("subagent"),
            Role::SubagentActivity,
            SemanticValue::Subagent(value),
            EvidenceStrength::Structural,
            cx,
        );
        cx.out.push(IngestMessage::Item(item));
        Handled::Done
    }
}

fn dynamic_name(p: &Value) -> String {
    match (nonempty(p, "namespace"), nonempty(p, "tool")) {
        (Some(ns), Some(tool)) => format!("{ns}.{tool}"),
        (None, Some(tool)) => tool.to_string(),
        _ => "<dynamic tool>".to_string(),
    }
}

/// `thread_settings_applied` (0.146): the settings a thread now runs with, in one line.
fn thread_settings_text(p: &Value) -> Option<String> {
    let t = p.get("thread_settings")?;
    let text = |field: &str| t.get(field).and_then(Value::as_str);
    // What the agent may touch comes before the details: it is what a reader looks for.
    let profile = t
        .get("active_permission_profile")
        .and_then(|a| a.get("id"))
        .and_then(Value::as_str)
        .or_else(|| {
            t.get("permission_profile")
                .and_then(|a| a.get("type"))
                .and_then(Value::as_str)
        });
    let parts: Vec<String> = [
        text("model").map(|v| format!("model {v}")),
        text("approval_policy").map(|v| format!("approval {v}")),
        profile.map(|v| format!("permissions {v}")),
        text("reasoning_effort").map(|v| format!("reasoning effort {v}")),
        text("cwd").map(|v| format!("cwd {v}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    (!parts.is_empty()).then(|| format!("thread settings: {}", parts.join(", ")))
}

/// `thread_goal_updated`: the thread's goal and where it stands.
fn thread_goal_text(p: &Value) -> Option<String> {
    let goal = p.get("goal")?;
    let objective = goal.get("objective").and_then(Value::as_str)?;
    Some(match goal.get("status").and_then(Value::as_str) {
        Some(status) => format!("goal ({status}): {objective}"),
        None => format!("goal: {objective}"),
    })
}
