//! Loops: a prompt opens one, turns fill it, the next prompt, an abort, the agent going idle
//! or the session's end closes it (its last text then becomes the final answer).

use super::*;

impl CopilotEventsAdapter {
    pub(super) fn open_loop(&mut self, ev: &Ev<'_>) -> Option<u32> {
        self.st.session.as_ref()?;
        let position = self.st.next_loop;
        self.st.next_loop = self.st.next_loop.saturating_add(1);
        let open = OpenLoop {
            position,
            native_id: text_at(ev.data, "interactionId").map(str::to_string),
            start: ev.record.clone(),
            started_at: ev.at.clone(),
            model: text_at(ev.data, "model")
                .map(str::to_string)
                .or_else(|| self.st.model.clone()),
            message_output: None,
            usage: Usage::default(),
            turn_open: false,
            last_turn_end: None,
            last_activity: None,
            last_text: None,
        };
        self.st.open = Some(open);
        Some(position)
    }

    /// Ends the open loop: with `outcome`, or, when `None`, completed if its last turn
    /// ended. Its last text becomes the final answer when the loop completed.
    pub(super) fn close_loop(&mut self, ev: &mut Ev<'_>, outcome: Option<LoopOutcome>) {
        let (Some(session), Some(open)) = (self.st.session.clone(), self.st.open.take()) else {
            return;
        };
        let outcome = outcome.unwrap_or_else(|| closed_outcome(&open));
        let last = open.last_turn_end.as_ref().or(open.last_activity.as_ref());
        let (record, at) = match (last, outcome) {
            (Some((record, at)), LoopOutcome::Completed) => (record.clone(), at.clone()),
            _ => (ev.record.clone(), ev.at.clone()),
        };
        if outcome == LoopOutcome::Completed {
            if let Some(text) = &open.last_text {
                ev.out.push(IngestMessage::Item(final_answer(text)));
            }
        }
        let end = LoopEnd {
            record,
            outcome,
            ended_at: at,
        };
        ev.out.push(IngestMessage::Loop(loop_message(
            &session,
            &open,
            Some(end),
            self.st.version.clone(),
        )));
    }

    pub(super) fn user_message(&mut self, ev: &mut Ev<'_>) -> Handled {
        let Some(text) = text_at(ev.data, "content").map(str::to_string) else {
            return Handled::Ignored("user message without content");
        };
        if self.st.session.is_none() {
            return Handled::Ignored("event before the session is known");
        }
        let steering = self.st.open.as_ref().is_some_and(|o| o.turn_open);
        let role = if steering {
            Role::HumanSteering
        } else {
            if self.st.open.is_some() {
                self.close_loop(ev, None);
            }
            self.open_loop(ev);
            if let (Some(session), Some(open)) = (&self.st.session, &self.st.open) {
                ev.out.push(IngestMessage::Loop(loop_message(
                    session,
                    open,
                    None,
                    self.st.version.clone(),
                )));
            }
            Role::HumanRequest
        };
        let session = self.st.session.clone().unwrap_or_default();
        let semantic = Semantic::new(
            role,
            SemanticValue::Text(capped(&text)),
            EvidenceStrength::Structural,
        );
        let item = self.item(ev, &session, format!("prompt:{}", ev.id), semantic);
        ev.out.push(IngestMessage::Item(item));
        Handled::Done
    }

    pub(super) fn turn_start(&mut self, ev: &mut Ev<'_>) -> Handled {
        if ev.agent.is_some() {
            return Handled::Ignored("a subagent's turn");
        }
        if self.st.open.is_none() {
            // A turn without a prompt of its own (a resumed or scripted session).
            if self.open_loop(ev).is_none() {
                return Handled::Ignored("event before the session is known");
            }
            if let (Some(session), Some(open)) = (&self.st.session, &self.st.open) {
                ev.out.push(IngestMessage::Loop(loop_message(
                    session,
                    open,
                    None,
                    self.st.version.clone(),
                )));
            }
        }
        if let Some(open) = self.st.open.as_mut() {
            open.turn_open = true;
            if let Some(model) = text_at(ev.data, "model") {
                open.model = Some(model.to_string());
            }
        }
        Handled::Ignored("turn start inside the open loop")
    }
}

pub(super) fn loop_message(
    session: &str,
    open: &OpenLoop,
    end: Option<LoopEnd>,
    version: Option<String>,
) -> Loop {
    Loop {
        session: SessionRef::new(Provider::Copilot, session),
        position: open.position,
        native_id: open.native_id.clone(),
        start_record: open.start.clone(),
        started_at: open.started_at.clone(),
        end,
        model: open.model.clone(),
        usage: open.total_usage(),
        runtime_version: version,
    }
}

/// The outcome a loop has when the next prompt or the session's end closes it: interrupted
/// when a turn was still running, else completed (with or without turn events: builds before
/// 1.0 write none).
pub(super) fn closed_outcome(open: &OpenLoop) -> LoopOutcome {
    if open.turn_open || (open.last_turn_end.is_none() && open.last_activity.is_none()) {
        LoopOutcome::Interrupted
    } else {
        LoopOutcome::Completed
    }
}

pub(super) fn final_answer(text: &TextItem) -> Item {
    Item {
        session: SessionRef::new(Provider::Copilot, text.session.clone()),
        key: text.key.clone(),
        loop_position: text.loop_position,
        at: text.at.clone(),
        semantic: Semantic::new(
            Role::AgentFinalAnswer,
            SemanticValue::Text(text.text.clone()),
            // The last text before the loop ended: a position, not a marker Copilot writes.
            EvidenceStrength::Heuristic,
        ),
        records: text.records.clone(),
    }
}

pub(super) fn usage_of(data: &Value) -> Usage {
    let input = u64_at(data, "inputTokens");
    let cached = u64_at(data, "cacheReadTokens").filter(|c| input.is_none_or(|i| *c <= i));
    let output = u64_at(data, "outputTokens");
    let reasoning = u64_at(data, "reasoningTokens").filter(|r| output.is_none_or(|o| *r <= o));
    Usage {
        input_tokens: input,
        cached_input_tokens: cached,
        output_tokens: output,
        reasoning_output_tokens: reasoning,
    }
}
