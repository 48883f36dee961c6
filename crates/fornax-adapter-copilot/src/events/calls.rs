//! Tool calls paired by `toolCallId`, their results and file edits, and the hook runs the log
//! mirrors (a tool hook gives its call the key the hook transport uses).

use super::*;

impl CopilotEventsAdapter {
    pub(super) fn note_call(
        &mut self,
        ev: &Ev<'_>,
        session: &str,
        call_id: &str,
        tool: &str,
        args: &Value,
    ) {
        if let Some(call) = self.st.calls.get_mut(call_id) {
            call.records.push(ev.record.clone());
            call.records.dedup();
            if call.args.is_null() && !args.is_null() {
                call.args = crate::tools::arguments(args);
            }
            return;
        }
        let call = Call {
            tool: tool.to_string(),
            args: crate::tools::arguments(args),
            session: session.to_string(),
            loop_position: self.loop_position(ev),
            at: ev.at.clone(),
            records: vec![ev.record.clone()],
            hook_key: None,
            published: None,
        };
        self.st.calls.insert(call_id.to_string(), call);
    }

    pub(super) fn tool_start(&mut self, ev: &mut Ev<'_>) -> Handled {
        let (Some(call_id), Some(tool)) =
            (text_at(ev.data, "toolCallId"), text_at(ev.data, "toolName"))
        else {
            return Handled::Ignored("tool start without a call id or tool name");
        };
        let Some(session) = self.session_of(ev) else {
            return Handled::Ignored("event before the session is known");
        };
        let args = ev.data.get("arguments").cloned().unwrap_or(Value::Null);
        let (call_id, tool) = (call_id.to_string(), tool.to_string());
        self.note_call(ev, &session, &call_id, &tool, &args);
        Handled::Ignored("tool start; the call is published with its result")
    }

    pub(super) fn tool_complete(&mut self, ev: &mut Ev<'_>) -> Handled {
        let Some(call_id) = text_at(ev.data, "toolCallId").map(str::to_string) else {
            return Handled::Ignored("tool result without a call id");
        };
        let Some(session) = self.session_of(ev) else {
            return Handled::Ignored("event before the session is known");
        };
        let call = self.st.calls.remove(&call_id);
        if ev.agent.is_none() {
            if let Some(open) = self.st.open.as_mut() {
                open.last_activity = Some((ev.record.clone(), ev.at.clone()));
            }
        }
        let result = ev.data.get("result");
        let error = ev.data.get("error");
        let text = result
            .and_then(|r| text_at(r, "content"))
            .or_else(|| error.and_then(|e| text_at(e, "message").or_else(|| e.as_str())));
        let failed = ev.data.get("success").and_then(Value::as_bool) == Some(false);
        let duration_ms = ev
            .data
            .get("toolTelemetry")
            .and_then(|t| t.get("metrics"))
            .and_then(|m| u64_at(m, "durationMs"));
        let (out_key, loop_position) = match &call {
            Some(c) => {
                let key = c.key(&call_id);
                if c.published.is_none() {
                    let mut item = call_item(c, &call_id, key.clone());
                    item.records.push(ev.record.clone());
                    item.records.dedup();
                    ev.out.push(IngestMessage::Item(item));
                }
                (output_key(&key), c.loop_position)
            }
            None => (format!("out:{call_id}"), self.loop_position(ev)),
        };
        let tool = call.as_ref().map(|c| c.tool.as_str());
        let semantic = output_semantic(&ToolResult {
            tool,
            call_id: Some(&call_id),
            text,
            failed,
            duration_ms,
        });
        let item = Item {
            session: SessionRef::new(Provider::Copilot, session.clone()),
            key: out_key.clone(),
            loop_position,
            at: ev.at.clone(),
            semantic,
            records: vec![ev.record.clone()],
        };
        ev.out.push(IngestMessage::Item(item));
        if let Some(c) = &call {
            if let Some(target) = file_target(&c.tool, &c.args) {
                let diff = result.and_then(|r| text_at(r, "detailedContent"));
                let (added, removed) = file_lines(target.1, &c.args, diff);
                let mut edit =
                    file_edit(SessionRef::new(Provider::Copilot, session), target, &c.tool);
                edit.succeeded = !failed;
                edit.error = failed.then(|| text.unwrap_or("failed").to_string());
                edit.call_id = Some(call_id.clone());
                edit.lines_added = added.filter(|_| !failed);
                edit.lines_removed = removed.filter(|_| !failed);
                edit.item_key = Some(out_key);
                edit.loop_position = loop_position;
                edit.at = ev.at.clone();
                edit.records = vec![ev.record.clone()];
                edit.discriminator = ev.ty.to_string();
                if let Some(evidence) = edit.into_evidence(&edit_sensor(CollectionMethod::FilePoll))
                {
                    ev.out.push(IngestMessage::Evidence(evidence));
                }
            }
        }
        Handled::Done
    }

    /// A hook's input, mirrored in the log: a tool hook gives the call it reports the key the
    /// hook transport uses.
    pub(super) fn hook_start(&mut self, ev: &mut Ev<'_>) -> Handled {
        let hook_type = text_at(ev.data, "hookType").unwrap_or("hook").to_string();
        if let Some(invocation) = text_at(ev.data, "hookInvocationId") {
            self.st
                .hooks
                .insert(invocation.to_string(), hook_type.clone());
        }
        let input = ev.data.get("input");
        if matches!(hook_type.as_str(), "preToolUse" | "postToolUse") {
            if let Some(input) = input {
                self.adopt_hook_key(input);
            }
        }
        Handled::Ignored("hook run started (its input mirrors what the hook received)")
    }

    pub(super) fn adopt_hook_key(&mut self, input: &Value) {
        let (Some(tool), Some(main)) = (text_at(input, "toolName"), self.st.session.clone()) else {
            return;
        };
        let args = input.get("toolArgs").cloned().unwrap_or(Value::Null);
        let fp = call_fingerprint(tool, &args);
        let ts = input.get("timestamp").cloned().unwrap_or(Value::Null);
        // The oldest call of the main session with this tool and these arguments that no
        // hook reported yet.
        let target = self.st.calls.keys().into_iter().find(|id| {
            self.st.calls.get(id).is_some_and(|c| {
                c.session == main
                    && c.hook_key.is_none()
                    && c.tool == tool
                    && call_fingerprint(&c.tool, &c.args) == fp
            })
        });
        if let Some(id) = target {
            if let Some(call) = self.st.calls.get_mut(&id) {
                call.hook_key = Some(hook_call_key(&ts, tool, &args));
            }
        }
    }

    pub(super) fn hook_end(&mut self, ev: &mut Ev<'_>) -> Handled {
        let hook_type = text_at(ev.data, "hookInvocationId")
            .and_then(|id| self.st.hooks.remove(id))
            .or_else(|| text_at(ev.data, "hookType").map(str::to_string))
            .unwrap_or_else(|| "hook".to_string());
        if ev.data.get("success").and_then(Value::as_bool) == Some(false) {
            let error = ev
                .data
                .get("error")
                .and_then(|e| text_at(e, "message").or_else(|| e.as_str()))
                .unwrap_or("no reason given");
            return self.state_item(
                ev,
                Role::RuntimeNotice,
                format!("{hook_type} hook failed: {error}"),
            );
        }
        Handled::Ignored("hook run ended successfully")
    }
}

pub(super) fn call_item(call: &Call, call_id: &str, key: String) -> Item {
    Item {
        session: SessionRef::new(Provider::Copilot, call.session.clone()),
        key,
        loop_position: call.loop_position,
        at: call.at.clone(),
        semantic: tool_call_semantic(call, call_id),
        records: call.records.clone(),
    }
}

/// `task` starts a subagent: its call is a delegation.
pub(super) fn tool_call_semantic(call: &Call, call_id: &str) -> Semantic {
    if call.tool == "task" {
        return Semantic::new(
            Role::AgentDelegation,
            SemanticValue::Delegation(Delegation {
                parent_native_id: call.session.clone(),
                call_id: Some(call_id.to_string()),
                agent_id: None,
                agent_type: text_at(&call.args, "agent_type").map(str::to_string),
            }),
            EvidenceStrength::Structural,
        );
    }
    call_semantic(&call.tool, &call.args, Some(call_id))
}

/// The output key that goes with a call key (`call:x` → `out:x`, `hook:…` → `hook-out:…`).
pub(super) fn output_key(call_key: &str) -> String {
    match call_key.strip_prefix("call:") {
        Some(rest) => format!("out:{rest}"),
        None => format!("{call_key}:out"),
    }
}
