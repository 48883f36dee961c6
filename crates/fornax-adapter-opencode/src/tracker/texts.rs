//! Text and reasoning parts: the role a part's message gives it, parts that wait (still
//! streaming, or their message not seen yet), and assistant text as commentary or final answer.

use fornax_types::{
    EvidenceStrength, IngestMessage, Item, ReasoningMode, ReasoningValue, RecordRef, Role,
    Semantic, SemanticValue, TextValue,
};
use serde_json::Value;

use super::loops::TextSlot;
use super::state::{iso, Pending, SessionState, Speaker};
use super::TEXT_LIMIT;
use crate::json::{at, bool_at, raw_str_at, str_at};

impl SessionState {
    pub(super) fn publish_text_item(
        &mut self,
        slot: &TextSlot,
        role: Role,
        strength: EvidenceStrength,
        loop_pos: Option<u32>,
        extra_record: Option<RecordRef>,
        out: &mut Vec<IngestMessage>,
    ) {
        let mut records = slot.records.clone();
        if let Some(r) = extra_record.filter(|r| !records.contains(r)) {
            records.push(r);
        }
        let item = Item {
            session: self.sref(),
            key: format!("part:{}", slot.part_id),
            loop_position: loop_pos,
            at: slot.at.clone(),
            semantic: Semantic::new(role, SemanticValue::Text(slot.value.clone()), strength),
            records,
        };
        self.publish_item(item, out);
    }

    /// Publishes the texts that were waiting: those of `message` (or all, when `None`) whose
    /// message role is now known. Parts of unknown messages keep waiting.
    pub(super) fn flush_pending(&mut self, message: Option<&str>, out: &mut Vec<IngestMessage>) {
        let ready: Vec<(u64, Pending)> = self
            .parts
            .values_mut()
            .filter(|p| p.pending.is_some())
            .filter(|p| match message {
                Some(m) => p.message_id.as_deref() == Some(m),
                None => true,
            })
            .filter_map(|p| p.pending.take().map(|pending| (p.seq, pending)))
            .collect();
        let mut still_waiting = Vec::new();
        for (seq, pending) in ready {
            let message_id = str_at(&pending.part, &["messageID"]);
            let known = message_id.is_some_and(|m| self.messages.contains(m));
            if !known && message.is_none() && self.transport.defers_unknown_roles() {
                still_waiting.push(pending);
                continue;
            }
            self.publish_text(
                &pending.part,
                seq,
                &pending.record,
                pending.observed_at.as_deref(),
                out,
            );
        }
        for pending in still_waiting {
            if let Some(id) = str_at(&pending.part, &["id"]).map(str::to_string) {
                if let Some(p) = self.parts.get_mut(&id) {
                    p.pending = Some(pending);
                }
            }
        }
    }

    /// Publishes one text or reasoning part with the role its message gives it.
    pub(super) fn publish_text(
        &mut self,
        part: &Value,
        seq: u64,
        record: &RecordRef,
        observed_at: Option<&str>,
        out: &mut Vec<IngestMessage>,
    ) {
        let Some(part_id) = str_at(part, &["id"]) else {
            return;
        };
        let message = str_at(part, &["messageID"])
            .and_then(|m| self.messages.get(m))
            .cloned();
        let text = raw_str_at(part, &["text"]).unwrap_or("");
        // The runtime's own times first; the hook's clock only when the runtime gave none.
        let when = iso(part, &["time", "end"])
            .or_else(|| iso(part, &["time", "start"]))
            .or_else(|| message.as_ref().and_then(|m| m.created_at.clone()))
            .or_else(|| observed_at.map(str::to_string));
        let loop_pos = message.as_ref().and_then(|m| m.loop_pos);
        if str_at(part, &["type"]) == Some("reasoning") {
            let readable = !text.trim().is_empty();
            let summarized = at(part, &["metadata", "openai"]).is_some();
            let value = ReasoningValue {
                mode: match (readable, summarized) {
                    (false, _) => ReasoningMode::Unavailable,
                    (true, true) => ReasoningMode::Summary,
                    (true, false) => ReasoningMode::Full,
                },
                text: readable.then(|| TextValue::capped(text, TEXT_LIMIT)),
            };
            let item = Item {
                session: self.sref(),
                key: format!("part:{part_id}"),
                loop_position: loop_pos.or(self.running),
                at: when,
                semantic: Semantic::new(
                    Role::AgentReasoning,
                    SemanticValue::Reasoning(value),
                    EvidenceStrength::Structural,
                ),
                records: vec![record.clone()],
            };
            self.publish_item(item, out);
            return;
        }
        if text.trim().is_empty() {
            return;
        }
        let slot = TextSlot {
            part_id: part_id.to_string(),
            message_id: str_at(part, &["messageID"]).map(str::to_string),
            seq,
            value: TextValue::capped(text, TEXT_LIMIT),
            at: when,
            records: vec![record.clone()],
        };
        let synthetic = bool_at(part, &["synthetic"]) == Some(true)
            || bool_at(part, &["ignored"]) == Some(true);
        let Some(message) = message else {
            // A part whose message was never seen: its speaker is unknown.
            self.publish_text_item(
                &slot,
                Role::RuntimeUnknown,
                EvidenceStrength::Heuristic,
                None,
                None,
                out,
            );
            return;
        };
        let fixed_role = if synthetic {
            Some(Role::RuntimeContext)
        } else {
            match message.speaker {
                Speaker::Request => Some(Role::HumanRequest),
                Speaker::Steering => Some(Role::HumanSteering),
                Speaker::Assistant if message.compaction => Some(Role::RuntimeCompactionSummary),
                Speaker::Assistant => None,
            }
        };
        if let Some(role) = fixed_role {
            self.publish_text_item(
                &slot,
                role,
                EvidenceStrength::Structural,
                loop_pos,
                None,
                out,
            );
            return;
        }
        self.agent_text(slot, loop_pos, out);
    }

    /// Assistant text: commentary while its loop runs; the final answer when it is the last
    /// text of an ended loop.
    pub(super) fn agent_text(
        &mut self,
        slot: TextSlot,
        loop_pos: Option<u32>,
        out: &mut Vec<IngestMessage>,
    ) {
        let Some(pos) = loop_pos.filter(|p| self.loop_ref(*p).is_some()) else {
            self.publish_text_item(
                &slot,
                Role::AgentCommentary,
                EvidenceStrength::Structural,
                loop_pos,
                None,
                out,
            );
            return;
        };
        let Some(lp) = self.loop_mut(pos) else { return };
        let is_last = lp.last_text.as_ref().is_none_or(|l| slot.seq >= l.seq);
        if is_last {
            lp.last_text = Some(slot.clone());
            if lp.end.is_some() {
                self.promote(pos, out);
                return;
            }
        }
        self.publish_text_item(
            &slot,
            Role::AgentCommentary,
            EvidenceStrength::Structural,
            Some(pos),
            None,
            out,
        );
    }
}
