//! What each mapped hook event publishes.

use fornax_types::{
    CollectionMethod, EvidenceStrength, IngestMessage, LoopOutcome, Role, Semantic, SemanticValue,
    SubagentValue,
};
use serde_json::Value;

use crate::common::{capped, get_bool, get_str, get_text, get_u64, line_count};
use crate::file_diff::{self, DiffAttempt, DiffSite};
use crate::tools::{
    call_key, call_semantic, delegation_activity, failure_output, is_delegation_tool, output_key,
    response_text, success_output,
};

use EvidenceStrength::{Heuristic, Structural};

use super::events::Event;
use super::payload::Hook;
use super::{hook_loop, ClaudeHookAdapter, HookLoop};

impl ClaudeHookAdapter {
    pub(super) fn on_event(&mut self, event: Event, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        match event {
            Event::SessionStart => self.session_start(hook, out),
            Event::UserPromptSubmit => self.prompt(hook, out),
            Event::PreToolUse => self.pre_tool(hook, out),
            Event::PostToolUse => self.post_tool(hook, false, out),
            Event::PostToolUseFailure => self.post_tool(hook, true, out),
            Event::PermissionRequest => {
                let tool = get_text(hook.p, "tool_name").unwrap_or("a tool");
                let key = get_text(hook.p, "tool_use_id")
                    .map(|id| format!("permission:{id}"))
                    .unwrap_or_else(|| hook.fallback_key("permission"));
                let pos = self.loop_position(hook);
                let text = format!("Permission requested for {tool}");
                out.push(hook.text(key, pos, Role::RuntimeNotice, &text, Structural));
            }
            Event::Notification => {
                if let Some(message) = get_text(hook.p, "message") {
                    let pos = self.loop_position(hook);
                    // The type (permission_prompt, idle_prompt, ...; absent before ~2.0.37)
                    // names what the runtime is waiting for.
                    let kind = get_text(hook.p, "notification_type").unwrap_or("untyped");
                    let key = hook.fallback_key(&format!("notification:{kind}"));
                    out.push(hook.text(key, pos, Role::RuntimeNotice, message, Structural));
                }
            }
            Event::Stop => self.stop(hook, out),
            Event::SubagentStart | Event::SubagentStop => self.subagent(event, hook, out),
            Event::PreCompact => {
                let trigger = get_text(hook.p, "trigger").unwrap_or("unknown trigger");
                let mut text = format!("PreCompact ({trigger})");
                if let Some(instructions) = get_text(hook.p, "custom_instructions") {
                    text.push('\n');
                    text.push_str(instructions);
                }
                let pos = self.loop_position(hook);
                out.push(hook.text(
                    hook.fallback_key("state"),
                    pos,
                    Role::RuntimeState,
                    &text,
                    Structural,
                ));
            }
            Event::SessionEnd => {
                let reason = get_text(hook.p, "reason").unwrap_or("unknown reason");
                let pos = self.loop_position(hook);
                let text = format!("SessionEnd ({reason})");
                out.push(hook.text(
                    hook.fallback_key("state"),
                    pos,
                    Role::RuntimeState,
                    &text,
                    Structural,
                ));
                // Stop did not fire for a loop still open: the session ended under it.
                self.end_loop(hook, LoopOutcome::Interrupted, out);
            }
        }
    }

    fn session_start(&mut self, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        let source = get_text(hook.p, "source");
        if hook.subagent.is_none() && matches!(source, Some("startup" | "clear")) {
            // A brand-new session id: its loops count from 0 from here. A count already
            // running is never reset (positions must not be reused).
            let st = self.state(&hook.session.native_id);
            if !st.grounded && st.next_loop == 0 && st.open.is_none() {
                st.grounded = true;
            }
        }
        let text = format!("SessionStart ({})", source.unwrap_or("unknown source"));
        let pos = self.loop_position(hook);
        out.push(hook.text(
            hook.fallback_key("state"),
            pos,
            Role::RuntimeState,
            &text,
            Structural,
        ));
    }

    /// A submitted prompt: a request opening a loop, or steering while one runs. Without a
    /// grounded loop state the distinction is unknown, so the request is heuristic.
    fn prompt(&mut self, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        let Some(prompt) = get_text(hook.p, "prompt") else {
            return;
        };
        let prompt_id = get_text(hook.p, "prompt_id");
        let st = self.state(&hook.session.native_id);
        if !st.grounded {
            let key = prompt_id
                .map(|id| format!("prompt:{id}"))
                .unwrap_or_else(|| hook.fallback_key("prompt"));
            out.push(hook.text(key, None, Role::HumanRequest, prompt, Heuristic));
            return;
        }
        if let Some(open) = &st.open {
            let key = prompt_id
                .map(|id| format!("prompt:{id}"))
                .unwrap_or_else(|| hook.fallback_key("steer"));
            out.push(hook.text(
                key,
                Some(open.position),
                Role::HumanSteering,
                prompt,
                Structural,
            ));
            return;
        }
        let open = HookLoop {
            position: st.next_loop,
            native_id: prompt_id.map(str::to_string),
            start_record: hook.record.clone(),
            started_at: hook.at.clone(),
        };
        st.next_loop = st.next_loop.saturating_add(1);
        st.last_closed = None;
        out.push(IngestMessage::Loop(hook_loop(&hook.session, &open, None)));
        let key = prompt_id
            .map(|id| format!("prompt:{id}"))
            .unwrap_or_else(|| format!("prompt:{}", open.position));
        out.push(hook.text(
            key,
            Some(open.position),
            Role::HumanRequest,
            prompt,
            Structural,
        ));
        st.open = Some(open);
    }

    fn pre_tool(&mut self, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        let Some(name) = get_text(hook.p, "tool_name") else {
            return;
        };
        let id = get_text(hook.p, "tool_use_id");
        let input = hook.p.get("tool_input").unwrap_or(&Value::Null);
        let key = id
            .map(call_key)
            .unwrap_or_else(|| hook.fallback_key("call"));
        self.remember_call(hook, id, &key);
        let semantic = call_semantic(&hook.session.native_id, name, id, input, hook.cwd);
        let pos = self.loop_position(hook);
        out.push(hook.item(key, pos, semantic));
    }

    /// Remembers a recorded call: by `tool_use_id`, or (older Claude Code, none) as awaiting
    /// the result that pairs with it by tool name and input, in order.
    fn remember_call(&mut self, hook: &Hook<'_>, id: Option<&str>, key: &str) {
        let pairing = super::dump::pairing_key(hook.p);
        let st = self.state(&hook.session.native_id);
        match id {
            Some(id) => {
                if !st.called.iter().any(|c| c == id) {
                    st.called.push_back(id.to_string());
                }
                while st.called.len() > super::CALLS_CAP {
                    st.called.pop_front();
                }
            }
            None => {
                let suffix = key.strip_prefix("call:").unwrap_or(key).to_string();
                if let Some(pairing) = pairing {
                    st.unanswered.push_back((pairing, suffix));
                }
                while st.unanswered.len() > super::CALLS_CAP {
                    st.unanswered.pop_front();
                }
            }
        }
    }

    /// The output key of a result, and whether its call must be recorded from it (no
    /// PreToolUse was seen for it: the result's payload carries the call's name and input).
    fn answer(&mut self, hook: &Hook<'_>, id: Option<&str>) -> (String, Option<String>) {
        if let Some(id) = id {
            let known = self
                .state(&hook.session.native_id)
                .called
                .iter()
                .any(|c| c == id);
            let call = (!known).then(|| call_key(id));
            if call.is_some() {
                self.remember_call(hook, Some(id), &call_key(id));
            }
            return (output_key(id), call);
        }
        let pairing = super::dump::pairing_key(hook.p);
        let st = self.state(&hook.session.native_id);
        let matched = pairing.as_deref().and_then(|p| {
            let at = st.unanswered.iter().position(|(k, _)| k == p)?;
            st.unanswered.remove(at).map(|(_, suffix)| suffix)
        });
        match matched {
            Some(suffix) => (format!("out:{suffix}"), None),
            None => {
                let call = hook.fallback_key("call");
                let suffix = call.strip_prefix("call:").unwrap_or(&call).to_string();
                (format!("out:{suffix}"), Some(call))
            }
        }
    }

    /// PostToolUse (success) and PostToolUseFailure: the output item and, for file tools,
    /// FileDiff evidence.
    fn post_tool(&mut self, hook: &Hook<'_>, failed: bool, out: &mut Vec<IngestMessage>) {
        let p = hook.p;
        let name = get_text(p, "tool_name");
        let id = get_text(p, "tool_use_id");
        let (key, unrecorded_call) = self.answer(hook, id);
        let pos = self.loop_position(hook);
        if let (Some(call), Some(tool)) = (unrecorded_call, name) {
            // No PreToolUse for this call (not configured, or not logged): the result's
            // payload names the tool and its input, so the call is recorded from it.
            let input = p.get("tool_input").unwrap_or(&Value::Null);
            let semantic = call_semantic(&hook.session.native_id, tool, id, input, hook.cwd);
            out.push(hook.item(call, pos, semantic));
        }
        let response = p.get("tool_response");
        let error = get_str(p, "error");
        let mut value = if failed {
            failure_output(id, name, error, get_bool(p, "is_interrupt"))
        } else {
            let shaped = response.filter(|r| r.is_object());
            success_output(id, name, shaped, response.and_then(response_text))
        };
        value.duration_ms = get_u64(p, "duration_ms");
        out.push(hook.item(
            key.clone(),
            pos,
            Semantic::new(
                Role::ToolOutput,
                SemanticValue::ToolOutput(value),
                Structural,
            ),
        ));
        let input = p.get("tool_input").unwrap_or(&Value::Null);
        if name.is_some_and(is_delegation_tool) && !failed {
            let agent_type = get_text(input, "subagent_type");
            if let Some((key, semantic)) = delegation_activity(id, agent_type, response) {
                out.push(hook.item(key, pos, semantic));
            }
        }
        if let Some(tool) = name.filter(|t| file_diff::is_file_tool(t)) {
            let site = DiffSite {
                session: &hook.session,
                record: hook.record,
                at: hook.at.as_deref(),
                loop_position: pos,
                method: CollectionMethod::HookCallback,
                discriminator: hook.event,
            };
            let attempt = DiffAttempt {
                tool,
                call_id: id,
                item_key: &key,
                input_path: get_text(input, "file_path"),
                input_content_lines: get_str(input, "content").map(line_count),
                result: response.filter(|_| !failed),
                error: failed.then(|| error.unwrap_or("tool failed")),
            };
            if let Some(ev) = file_diff::evidence(&site, &attempt) {
                out.push(IngestMessage::Evidence(ev));
            }
        }
        if failed && get_bool(p, "is_interrupt") == Some(true) {
            // The user interrupted the tool: the turn ends without a Stop event.
            self.end_loop(hook, LoopOutcome::Interrupted, out);
        }
    }

    fn stop(&mut self, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        if get_bool(hook.p, "stop_hook_active") == Some(true) {
            // The agent continued because a Stop hook blocked: this Stop ends the same loop.
            let st = self.state(&hook.session.native_id);
            if st.open.is_none() {
                st.open = st.last_closed.take();
            }
        }
        let pos = self.loop_position(hook);
        if let Some(text) = get_text(hook.p, "last_assistant_message") {
            let key = match pos {
                Some(pos) => format!("final:{pos}"),
                None => hook.fallback_key("final"),
            };
            out.push(hook.text(key, pos, Role::AgentFinalAnswer, text, Structural));
        }
        self.end_loop(hook, LoopOutcome::Completed, out);
    }

    fn subagent(&mut self, event: Event, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        let agent_id = hook.subagent.as_ref().and_then(|d| d.agent_id.clone());
        let agent_type = hook.subagent.as_ref().and_then(|d| d.agent_type.clone());
        let child_session = agent_id.as_ref().map(|_| hook.session.native_id.clone());
        let started = event == Event::SubagentStart;
        let report = get_text(hook.p, "last_assistant_message").filter(|_| !started);
        if let (Some(text), Some(_)) = (report, &agent_id) {
            out.push(hook.text(
                "subagent:report".into(),
                None,
                Role::SubagentReport,
                text,
                Structural,
            ));
            return;
        }
        let status = if started { "started" } else { "stopped" };
        let key = match &agent_id {
            Some(_) => format!("subagent:{status}"),
            None => hook.fallback_key("subagent"),
        };
        let value = SubagentValue {
            child_session,
            agent_id,
            agent_type,
            status: Some(status.to_string()),
            text: report.map(capped),
        };
        out.push(hook.item(
            key,
            None,
            Semantic::new(
                Role::SubagentActivity,
                SemanticValue::Subagent(value),
                Structural,
            ),
        ));
    }
}
