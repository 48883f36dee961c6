//! Loops: opened by a user message, ended by the assistant's terminal finish or idleness, with
//! their token usage and the promotion of the last assistant text to the final answer.

use fornax_types::{
    EvidenceStrength, IngestMessage, Loop, LoopEnd, LoopOutcome, RecordRef, Role, SessionRef,
    TextValue, TokenCounts, Usage, UsageFact,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::state::SessionState;
use super::{MAX_LOOPS, MAX_USAGE_ENTRIES};
use crate::bounded::Bounded;
use crate::json::{at, str_at, u64_at};

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct TextSlot {
    pub(super) part_id: String,
    pub(super) message_id: Option<String>,
    pub(super) seq: u64,
    pub(super) value: TextValue,
    pub(super) at: Option<String>,
    pub(super) records: Vec<RecordRef>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct LoopState {
    pub(super) position: u32,
    pub(super) user_message: Option<String>,
    pub(super) start_record: RecordRef,
    pub(super) started_at: Option<String>,
    pub(super) model: Option<String>,
    /// Tokens per assistant message (each message.updated restates its message's total).
    pub(super) usage: Bounded<Usage>,
    /// Tokens of messages forgotten from `usage`.
    pub(super) folded: Option<Usage>,
    pub(super) last_assistant: Option<String>,
    pub(super) last_finish: Option<String>,
    pub(super) last_error: Option<String>,
    pub(super) session_error: Option<String>,
    /// The assistant message whose terminal finish ended the loop.
    pub(super) terminal_message: Option<String>,
    pub(super) end: Option<LoopEnd>,
    pub(super) last_text: Option<TextSlot>,
    pub(super) final_text: Option<TextSlot>,
}

impl LoopState {
    pub(super) fn total_usage(&self) -> Option<Usage> {
        let mut total = self.folded;
        for u in self.usage.values() {
            total.get_or_insert_with(Usage::default).accumulate(u);
        }
        total
    }

    pub(super) fn outcome(&self) -> LoopOutcome {
        match self.last_error.as_deref().or(self.session_error.as_deref()) {
            Some("MessageAbortedError") => LoopOutcome::Interrupted,
            Some(_) => LoopOutcome::Failed,
            None if self.last_finish.as_deref().is_some_and(is_terminal_finish) => {
                LoopOutcome::Completed
            }
            None => LoopOutcome::Interrupted,
        }
    }
}

pub(super) fn is_terminal_finish(finish: &str) -> bool {
    !matches!(finish, "tool-calls" | "unknown")
}

/// Tokens of one assistant message. opencode's `tokens.input` excludes cache reads and writes,
/// so prompt tokens are the three added; `None` while the message has reported nothing.
pub(super) fn message_usage(info: &Value) -> Option<Usage> {
    let tokens = at(info, &["tokens"])?;
    let input = u64_at(tokens, &["input"]);
    let read = u64_at(tokens, &["cache", "read"]);
    let write = u64_at(tokens, &["cache", "write"]);
    let output = u64_at(tokens, &["output"]);
    let reasoning = u64_at(tokens, &["reasoning"]);
    let finished = at(info, &["time", "completed"]).is_some() || at(info, &["finish"]).is_some();
    let reported = [input, read, write, output, reasoning]
        .iter()
        .any(|n| n.is_some_and(|n| n > 0));
    if !finished && !reported {
        return None;
    }
    let input_tokens = match (input, read, write) {
        (None, None, None) => None,
        _ => Some(
            input
                .unwrap_or(0)
                .saturating_add(read.unwrap_or(0))
                .saturating_add(write.unwrap_or(0)),
        ),
    };
    Some(Usage {
        input_tokens,
        cached_input_tokens: read,
        output_tokens: output,
        // Providers differ on whether reasoning is inside output; keep it only when it fits.
        reasoning_output_tokens: reasoning.filter(|r| output.is_some_and(|o| *r <= o)),
    })
}

/// The usage fact of one assistant message, keyed by its id (a later update of the message,
/// or the same message in the database and the plugin stream, replaces it). opencode bills
/// reasoning apart from output; here reasoning is a part of output, so output is their sum.
pub(super) fn message_usage_fact(
    info: &Value,
    session: SessionRef,
    msg_id: &str,
    loop_position: Option<u32>,
    record: &RecordRef,
) -> Option<UsageFact> {
    message_usage(info)?;
    let n = |path: &[&str]| u64_at(info, path).unwrap_or(0);
    let reasoning = u64_at(info, &["tokens", "reasoning"]);
    let tokens = TokenCounts {
        input: n(&["tokens", "input"]),
        output: n(&["tokens", "output"]).saturating_add(reasoning.unwrap_or(0)),
        cache_creation: n(&["tokens", "cache", "write"]),
        cache_read: n(&["tokens", "cache", "read"]),
        reasoning,
    };
    if tokens.is_zero() {
        return None;
    }
    Some(UsageFact {
        session,
        key: format!("message:{msg_id}"),
        loop_position,
        at: super::state::iso(info, &["time", "created"]),
        model: str_at(info, &["modelID"]).map(str::to_string),
        tokens,
        reported_cost_usd: info
            .get("cost")
            .and_then(Value::as_f64)
            .filter(|c| c.is_finite() && *c >= 0.0),
        record: record.clone(),
    })
}

impl SessionState {
    pub(super) fn open_loop(
        &mut self,
        user_message: &str,
        record: &RecordRef,
        started_at: Option<String>,
        model: Option<&str>,
    ) -> u32 {
        let pos = self.next_loop;
        self.next_loop = self.next_loop.saturating_add(1);
        self.loops.push_back(LoopState {
            position: pos,
            user_message: Some(user_message.to_string()),
            start_record: record.clone(),
            started_at,
            model: model.map(str::to_string),
            usage: Bounded::new(MAX_USAGE_ENTRIES),
            folded: None,
            last_assistant: None,
            last_finish: None,
            last_error: None,
            session_error: None,
            terminal_message: None,
            end: None,
            last_text: None,
            final_text: None,
        });
        while self.loops.len() > MAX_LOOPS {
            self.loops.pop_front();
        }
        self.running = Some(pos);
        pos
    }

    pub(super) fn publish_loop(&mut self, pos: u32, out: &mut Vec<IngestMessage>) {
        let Some(lp) = self.loop_ref(pos) else { return };
        let lp = Loop {
            session: self.sref(),
            position: lp.position,
            native_id: lp.user_message.clone(),
            start_record: lp.start_record.clone(),
            started_at: lp.started_at.clone(),
            end: lp.end.clone(),
            model: lp.model.clone(),
            usage: lp.total_usage(),
            runtime_version: self.runtime_version.clone(),
        };
        self.publish(&format!("loop:{pos}"), &lp, out, IngestMessage::Loop);
    }

    pub(super) fn end_loop(
        &mut self,
        pos: u32,
        record: &RecordRef,
        ended_at: Option<String>,
        out: &mut Vec<IngestMessage>,
    ) {
        if self.running == Some(pos) {
            self.running = None;
        }
        let Some(lp) = self.loop_mut(pos) else { return };
        lp.end = Some(LoopEnd {
            record: record.clone(),
            outcome: lp.outcome(),
            ended_at,
        });
        self.publish_loop(pos, out);
        self.promote(pos, out);
    }

    /// Publishes the loop's last text as its final answer (returning a previous holder to
    /// commentary).
    pub(super) fn promote(&mut self, pos: u32, out: &mut Vec<IngestMessage>) {
        let Some(lp) = self.loop_mut(pos) else { return };
        let Some(last) = lp.last_text.clone() else {
            return;
        };
        let end_record = lp.end.as_ref().map(|e| e.record.clone());
        let structural = last.message_id.is_some() && last.message_id == lp.terminal_message;
        let demoted = lp
            .final_text
            .take()
            .filter(|old| old.part_id != last.part_id);
        lp.final_text = Some(last.clone());
        if let Some(old) = demoted {
            self.publish_text_item(
                &old,
                Role::AgentCommentary,
                EvidenceStrength::Structural,
                Some(pos),
                None,
                out,
            );
        }
        let strength = if structural {
            EvidenceStrength::Structural
        } else {
            EvidenceStrength::Heuristic
        };
        self.publish_text_item(
            &last,
            Role::AgentFinalAnswer,
            strength,
            Some(pos),
            end_record,
            out,
        );
    }
}
