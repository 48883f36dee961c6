//! Messages and reasoning, and the pairing of their witnesses.
//!
//! Codex writes the same human or agent message up to three times: as an `event_msg`
//! (`user_message` / `agent_message`, what the UI showed), as a `response_item` message (what
//! the model saw) and, from 2026, as an `item_completed` item. Newer versions drop some of
//! these copies. Witnesses are paired by role and whitespace-insensitive text within the loop:
//! the first witness publishes the item under a stable key, each later one re-publishes it
//! with one more record. Reasoning summaries pair the same way, one item per summary part.

use fornax_types::{
    EvidenceStrength, IngestMessage, ReasoningMode, ReasoningValue, Role, SemanticValue, TextValue,
};

use crate::adapter::{CodexAdapter, Ctx, Handled};
use crate::classify::injected_role;
use crate::state::{Entry, Stream};
use crate::text::{fingerprint, MESSAGE_TEXT_LIMIT};

/// One witness of a message.
pub(crate) struct MessageWitness {
    pub stream: Stream,
    /// `user`, `assistant`, `developer`, `system` as the runtime wrote it.
    pub role: String,
    pub text: String,
    /// `phase` of newer messages (`commentary`, `final_answer`).
    pub phase: Option<String>,
    /// A runtime role the record states outright (for example a user message `kind`).
    pub stated_role: Option<Role>,
}

impl MessageWitness {
    pub(crate) fn new(stream: Stream, role: &str, text: String) -> Self {
        MessageWitness {
            stream,
            role: role.to_string(),
            text,
            phase: None,
            stated_role: None,
        }
    }

    fn is_final(&self) -> bool {
        self.phase.as_deref() == Some("final_answer")
    }
}

impl CodexAdapter {
    pub(crate) fn message(&mut self, w: MessageWitness, cx: &mut Ctx<'_>) -> Handled {
        if w.text.trim().is_empty() {
            return Handled::Ignored("message without text");
        }
        let fp = fingerprint(&w.text);
        let class = match w.role.as_str() {
            "user" | "assistant" | "developer" | "system" => w.role.clone(),
            _ => "other".to_string(),
        };
        if self.pair_message(&class, fp, &w, cx) {
            return Handled::Done;
        }
        let (role, strength) = match class.as_str() {
            "assistant" if w.is_final() => (Role::AgentFinalAnswer, EvidenceStrength::Structural),
            "assistant" => (Role::AgentCommentary, EvidenceStrength::Structural),
            "developer" | "system" => (Role::RuntimeInstructions, EvidenceStrength::Structural),
            "user" => match w.stated_role.or_else(|| injected_role(&w.text)) {
                Some(runtime_role) => (runtime_role, EvidenceStrength::Structural),
                None => (self.human_turn(cx), EvidenceStrength::Structural),
            },
            _ => (Role::RuntimeUnknown, EvidenceStrength::Heuristic),
        };
        if class == "assistant" {
            self.note_agent_activity();
        }
        let scope = self.scope_mut();
        let key = format!("msg:{}:{}", scope.label, scope.next_msg);
        scope.next_msg += 1;
        let value = SemanticValue::Text(TextValue::capped(&w.text, MESSAGE_TEXT_LIMIT));
        let item = self.new_item(key, role, value, strength, cx);
        let entry = Entry {
            item: item.clone(),
            fp,
            class,
            streams: w.stream as u8,
        };
        self.scope_mut().push_message(entry);
        cx.out.push(IngestMessage::Item(item));
        Handled::Done
    }

    /// Joins `w` to an already published message of the same role and text that lacks a
    /// witness from `w`'s stream. Returns whether it did.
    fn pair_message(&mut self, class: &str, fp: u64, w: &MessageWitness, cx: &mut Ctx<'_>) -> bool {
        let bit = w.stream as u8;
        let scope = self.scope_mut();
        let Some(entry) = scope
            .messages
            .iter_mut()
            .find(|e| e.class == class && e.fp == fp && e.streams & bit == 0)
        else {
            return false;
        };
        entry.streams |= bit;
        add_record(&mut entry.item, cx);
        if w.is_final() && entry.item.semantic.role == Role::AgentCommentary {
            entry.item.semantic.role = Role::AgentFinalAnswer;
            entry.item.semantic.evidence_strength = EvidenceStrength::Structural;
        }
        cx.out.push(IngestMessage::Item(entry.item.clone()));
        true
    }

    /// Decides whether a human message opens a loop or steers the open one, opening a loop
    /// when needed.
    fn human_turn(&mut self, cx: &mut Ctx<'_>) -> Role {
        match &mut self.st.current {
            Some(l) if !l.has_human => {
                l.has_human = true;
                Role::HumanRequest
            }
            Some(l) if l.bound_to_task && l.lp.end.is_none() => Role::HumanSteering,
            _ => {
                self.open_loop(cx, None);
                if let Some(l) = &mut self.st.current {
                    l.has_human = true;
                }
                Role::HumanRequest
            }
        }
    }

    /// `task_complete.last_agent_message`: the message equal to it is the loop's final answer
    /// (heuristic: equality of text, not a structural mark). When no such message was seen,
    /// the text itself is published as the final answer.
    pub(crate) fn promote_final(&mut self, text: &str, cx: &mut Ctx<'_>) {
        if text.trim().is_empty() {
            return;
        }
        let fp = fingerprint(text);
        let scope = self.scope_mut();
        if let Some(entry) = scope
            .messages
            .iter_mut()
            .rev()
            .find(|e| e.class == "assistant" && e.fp == fp)
        {
            entry.streams |= Stream::TaskSummary as u8;
            add_record(&mut entry.item, cx);
            if entry.item.semantic.role != Role::AgentFinalAnswer {
                entry.item.semantic.role = Role::AgentFinalAnswer;
                entry.item.semantic.evidence_strength = EvidenceStrength::Heuristic;
            }
            cx.out.push(IngestMessage::Item(entry.item.clone()));
            return;
        }
        let key = format!("msg:{}:{}", scope.label, scope.next_msg);
        scope.next_msg += 1;
        let value = SemanticValue::Text(TextValue::capped(text, MESSAGE_TEXT_LIMIT));
        let item = self.new_item(
            key,
            Role::AgentFinalAnswer,
            value,
            EvidenceStrength::Heuristic,
            cx,
        );
        let entry = Entry {
            item: item.clone(),
            fp,
            class: "assistant".into(),
            streams: Stream::TaskSummary as u8,
        };
        self.scope_mut().push_message(entry);
        cx.out.push(IngestMessage::Item(item));
    }

    /// One reasoning part. Text parts pair across streams; unreadable reasoning never pairs.
    pub(crate) fn reasoning_part(
        &mut self,
        stream: Stream,
        mode: ReasoningMode,
        text: Option<&str>,
        cx: &mut Ctx<'_>,
    ) {
        self.note_agent_activity();
        let text = text.filter(|t| !t.trim().is_empty());
        let class = match mode {
            ReasoningMode::Full => "full",
            ReasoningMode::Summary => "summary",
            ReasoningMode::Unavailable => "unavailable",
        };
        let fp = text.map(fingerprint).unwrap_or(0);
        let bit = stream as u8;
        let scope = self.scope_mut();
        if text.is_some() {
            if let Some(entry) = scope
                .reasoning
                .iter_mut()
                .find(|e| e.class == class && e.fp == fp && e.streams & bit == 0)
            {
                entry.streams |= bit;
                add_record(&mut entry.item, cx);
                cx.out.push(IngestMessage::Item(entry.item.clone()));
                return;
            }
        }
        let key = format!("rsn:{}:{}", scope.label, scope.next_rsn);
        scope.next_rsn += 1;
        let value = SemanticValue::Reasoning(ReasoningValue {
            mode: if text.is_some() {
                mode
            } else {
                ReasoningMode::Unavailable
            },
            text: text.map(|t| TextValue::capped(t, MESSAGE_TEXT_LIMIT)),
        });
        let item = self.new_item(
            key,
            Role::AgentReasoning,
            value,
            EvidenceStrength::Structural,
            cx,
        );
        if text.is_some() {
            let entry = Entry {
                item: item.clone(),
                fp,
                class: class.into(),
                streams: bit,
            };
            self.scope_mut().push_reasoning(entry);
        }
        cx.out.push(IngestMessage::Item(item));
    }
}

/// Cites one more record (once), and takes the record's timestamp when the item had none.
pub(crate) fn add_record(item: &mut fornax_types::Item, cx: &Ctx<'_>) {
    if !item.records.contains(cx.record) && item.records.len() < 32 {
        item.records.push(cx.record.clone());
    }
    if item.at.is_none() {
        item.at = cx.at.clone();
    }
}
