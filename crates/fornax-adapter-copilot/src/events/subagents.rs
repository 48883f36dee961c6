//! Subagents: their own sessions, delegated from the call that started them, and their
//! activity in the parent.

use super::*;

impl CopilotEventsAdapter {
    pub(super) fn subagent_started(&mut self, ev: &mut Ev<'_>) -> Handled {
        let Some(call_id) = text_at(ev.data, "toolCallId")
            .map(str::to_string)
            .or_else(|| ev.agent.clone())
        else {
            return Handled::Ignored("subagent start without a call id");
        };
        let Some(main) = self.st.session.clone() else {
            return Handled::Ignored("event before the session is known");
        };
        let native_id = child_id(Some(&main), &call_id);
        let agent_name = text_at(ev.data, "agentName").map(str::to_string);
        self.st.children.insert(
            call_id.clone(),
            Child {
                native_id: native_id.clone(),
                agent_name: agent_name.clone(),
                last_text: None,
            },
        );
        ev.out.push(IngestMessage::Session(Session {
            id: SessionRef::new(Provider::Copilot, native_id.clone()),
            identity_record: ev.record.clone(),
            cwd: self.st.cwd.clone(),
            name: text_at(ev.data, "agentDisplayName").map(str::to_string),
            created_at: ev.at.clone(),
            forked_from: None,
            delegated_from: Some(Delegation {
                parent_native_id: main.clone(),
                call_id: Some(call_id.clone()),
                agent_id: Some(call_id.clone()),
                agent_type: agent_name.clone(),
            }),
            runtime_version: self.st.version.clone(),
        }));
        self.announce(native_id.clone(), ev);
        self.activity(ev, &main, &call_id, native_id, agent_name, "started");
        Handled::Done
    }

    pub(super) fn subagent_ended(&mut self, ev: &mut Ev<'_>) -> Handled {
        let Some(call_id) = text_at(ev.data, "toolCallId")
            .map(str::to_string)
            .or_else(|| ev.agent.clone())
        else {
            return Handled::Ignored("subagent end without a call id");
        };
        let Some(main) = self.st.session.clone() else {
            return Handled::Ignored("event before the session is known");
        };
        let child = self.st.children.remove(&call_id);
        let native_id = child
            .as_ref()
            .map(|c| c.native_id.clone())
            .unwrap_or_else(|| child_id(Some(&main), &call_id));
        let agent_name = text_at(ev.data, "agentName")
            .map(str::to_string)
            .or_else(|| child.as_ref().and_then(|c| c.agent_name.clone()));
        let status = if ev.ty == "subagent.failed" {
            "failed"
        } else {
            "completed"
        };
        if status == "completed" {
            if let Some(text) = child.as_ref().and_then(|c| c.last_text.as_ref()) {
                ev.out.push(IngestMessage::Item(final_answer(text)));
            }
        }
        self.activity(ev, &main, &call_id, native_id, agent_name, status);
        Handled::Done
    }

    pub(super) fn activity(
        &mut self,
        ev: &mut Ev<'_>,
        main: &str,
        call_id: &str,
        child: String,
        agent_type: Option<String>,
        status: &str,
    ) {
        let error = (status == "failed")
            .then(|| text_at(ev.data, "error").map(capped))
            .flatten();
        let value = SubagentValue {
            child_session: Some(child),
            agent_id: Some(call_id.to_string()),
            agent_type,
            status: Some(status.to_string()),
            text: error,
        };
        let semantic = Semantic::new(
            Role::SubagentActivity,
            SemanticValue::Subagent(value),
            EvidenceStrength::Structural,
        );
        let mut item = self.item(ev, main, format!("subagent:{call_id}:{status}"), semantic);
        item.loop_position = self.st.open.as_ref().map(|o| o.position);
        ev.out.push(IngestMessage::Item(item));
    }
}

/// A subagent's session id: the parent's and the call that started it.
pub(super) fn child_id(main: Option<&str>, call_id: &str) -> String {
    format!("{}/{call_id}", main.unwrap_or("copilot"))
}
