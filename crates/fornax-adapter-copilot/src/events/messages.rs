//! The agent's messages and reasoning.

use super::*;

impl CopilotEventsAdapter {
    pub(super) fn assistant_message(&mut self, ev: &mut Ev<'_>) -> Handled {
        let Some(session) = self.session_of(ev) else {
            return Handled::Ignored("event before the session is known");
        };
        let message = text_at(ev.data, "messageId")
            .map(str::to_string)
            .unwrap_or_else(|| ev.id.clone());
        let requests: Vec<&Value> = ev
            .data
            .get("toolRequests")
            .and_then(Value::as_array)
            .map(|r| r.iter().collect())
            .unwrap_or_default();
        if let Some(reasoning) = text_at(ev.data, "reasoningText") {
            let text = reasoning.to_string();
            self.reasoning(ev, format!("reason:{message}"), Some(text));
        } else if text_at(ev.data, "reasoningOpaque").is_some()
            || text_at(ev.data, "encryptedContent").is_some()
        {
            self.reasoning(ev, format!("reason:{message}"), None);
        }
        if ev.agent.is_none() {
            if let Some(open) = self.st.open.as_mut() {
                open.last_activity = Some((ev.record.clone(), ev.at.clone()));
                if let Some(n) = u64_at(ev.data, "outputTokens") {
                    open.message_output = Some(open.message_output.unwrap_or(0).saturating_add(n));
                }
            }
        }
        let text = text_at(ev.data, "content").map(str::to_string);
        if let Some(text) = &text {
            let key = match u64_at(ev.data, "chunkIndex") {
                Some(chunk) => format!("msg:{message}:{chunk}"),
                None => format!("msg:{message}"),
            };
            let semantic = Semantic::new(
                Role::AgentCommentary,
                SemanticValue::Text(capped(text)),
                EvidenceStrength::Structural,
            );
            let item = self.item(ev, &session, key.clone(), semantic);
            let kept = TextItem {
                session: session.clone(),
                key,
                text: capped(text),
                loop_position: item.loop_position,
                at: item.at.clone(),
                records: item.records.clone(),
            };
            ev.out.push(IngestMessage::Item(item));
            self.remember_text(ev, requests.is_empty().then_some(kept));
        } else if !requests.is_empty() {
            self.remember_text(ev, None);
        }
        for request in requests {
            let (Some(call_id), Some(tool)) =
                (text_at(request, "toolCallId"), text_at(request, "name"))
            else {
                continue;
            };
            let args = request.get("arguments").cloned().unwrap_or(Value::Null);
            self.note_call(ev, &session, call_id, tool, &args);
        }
        if ev.out.is_empty() {
            return Handled::Ignored(
                "message with tool requests only; each call is published with its result",
            );
        }
        Handled::Done
    }

    /// Keeps (or forgets) the text that would be the final answer of the loop or subagent.
    pub(super) fn remember_text(&mut self, ev: &Ev<'_>, text: Option<TextItem>) {
        match &ev.agent {
            Some(agent) => {
                if let Some(child) = self.st.children.get_mut(agent) {
                    child.last_text = text;
                }
            }
            None => {
                if let Some(open) = self.st.open.as_mut() {
                    open.last_text = text;
                }
            }
        }
    }

    pub(super) fn reasoning(&mut self, ev: &mut Ev<'_>, key: String, text: Option<String>) {
        let Some(session) = self.session_of(ev) else {
            return;
        };
        let value = match text {
            Some(t) => ReasoningValue {
                mode: ReasoningMode::Full,
                text: Some(capped(&t)),
            },
            None => ReasoningValue {
                mode: ReasoningMode::Unavailable,
                text: None,
            },
        };
        let semantic = Semantic::new(
            Role::AgentReasoning,
            SemanticValue::Reasoning(value),
            EvidenceStrength::Structural,
        );
        let item = self.item(ev, &session, key, semantic);
        ev.out.push(IngestMessage::Item(item));
    }
}
