//! The transcript adapter's bounded cross-record state, per session: what was published about
//! the session, the loop in progress, calls awaiting their outputs and the uuid chain.
//!
//! Everything here serializes, so the adapter can checkpoint and resume at an appended offset.

use std::collections::VecDeque;

use fornax_types::{
    Delegation, EvidenceStrength, IngestMessage, Item, Loop, LoopEnd, LoopOutcome, RecordRef, Role,
    Semantic, SemanticValue, Session, SessionRef, TextValue, Usage,
};
use serde::{Deserialize, Serialize};

use crate::bounded::Bounded;
use crate::common::PAIRING_CAP;

/// Distinct API messages whose usage one loop remembers individually; older ones are folded
/// into a running total (they cannot reappear once a newer message has started).
const USAGE_MESSAGES_CAP: usize = 256;

/// Uuids of non-message lines remembered since the last message line.
const SINCE_MESSAGE_CAP: usize = 64;

/// What has been published about a session (re-published when a field is first learned).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Published {
    pub identity_record: RecordRef,
    pub cwd: Option<String>,
    pub created_at: Option<String>,
    pub runtime_version: Option<String>,
    pub name: Option<String>,
    /// Whether `name` came from a user-set title (which an AI title never overrides).
    pub name_is_custom: bool,
    pub delegated_from: Option<Delegation>,
}

/// Attributes a line may reveal about its session.
#[derive(Debug, Default)]
pub(crate) struct Attributes {
    pub cwd: Option<String>,
    pub created_at: Option<String>,
    pub runtime_version: Option<String>,
    pub delegated_from: Option<Delegation>,
}

/// A tool call awaiting its output.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct PendingCall {
    pub name: String,
    pub loop_position: Option<u32>,
    /// `file_path` of a file tool's input.
    pub file_path: Option<String>,
    /// Lines of a `Write`'s `content`.
    pub content_lines: Option<u64>,
    /// `subagent_type` of a delegation's input.
    #[serde(default)]
    pub agent_type: Option<String>,
}

/// Token usage of one loop, counted once per API message (`message.id`): a message split over
/// several lines repeats its usage, and the last line holds the final count.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct UsageLedger {
    folded: Usage,
    by_message: VecDeque<(String, Usage)>,
}

impl UsageLedger {
    pub fn record(&mut self, message_id: &str, usage: Usage) {
        if let Some(slot) = self.by_message.iter_mut().find(|(id, _)| id == message_id) {
            slot.1 = usage;
            return;
        }
        self.by_message.push_back((message_id.to_string(), usage));
        while self.by_message.len() > USAGE_MESSAGES_CAP {
            if let Some((_, old)) = self.by_message.pop_front() {
                self.folded.accumulate(&old);
            }
        }
    }

    pub fn total(&self) -> Option<Usage> {
        let mut total = self.folded;
        for (_, u) in &self.by_message {
            total.accumulate(u);
        }
        (!total.is_empty()).then_some(total)
    }
}

/// The last agent text of a loop after its last tool call: the final answer if the loop ends.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct LastText {
    pub key: String,
    pub text: TextValue,
    pub records: Vec<RecordRef>,
    pub at: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct OpenLoop {
    pub position: u32,
    pub native_id: Option<String>,
    pub start_record: RecordRef,
    pub started_at: Option<String>,
    pub runtime_version: Option<String>,
    pub model: Option<String>,
    pub usage: UsageLedger,
    /// Usage as last published, so `finish` republishes only what changed.
    pub published_usage: Option<Usage>,
    pub last_text: Option<LastText>,
    /// The text promoted to final answer when the loop ended (demoted again if the runtime
    /// makes the agent continue).
    #[serde(default)]
    pub final_text: Option<LastText>,
    /// The agent still owes a response: a tool call or tool result is in flight, or no reply
    /// has come yet.
    pub busy: bool,
    /// The runtime writes stop reasons in this loop (2.1.x); when it does not (2.0.x, early
    /// 2.1.x), loop ends are inferred.
    pub stops_known: bool,
}

/// A loop just ended by a stop reason, kept so that further lines of the same API message
/// (2.1.x repeats the final stop reason on every line of a split message) rejoin it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct ClosedLoop {
    pub message_id: String,
    pub open: OpenLoop,
    pub outcome: LoopOutcome,
    pub promote: Option<EvidenceStrength>,
}

/// A runtime-injected prompt (slash command, expanded skill prompt, hook feedback) that starts
/// agent work without a human request: the start of an implicit loop if the agent answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Opener {
    pub record: RecordRef,
    pub at: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct SessionState {
    pub published: Option<Published>,
    pub caps_sent: bool,
    pub next_loop: u32,
    pub open: Option<OpenLoop>,
    #[serde(default)]
    pub closed: Option<ClosedLoop>,
    pub opener: Option<Opener>,
    pub calls: Bounded<PendingCall>,
    pub uuids: Bounded<()>,
    pub last_message_uuid: Option<String>,
    pub since_message: VecDeque<String>,
}

impl Default for SessionState {
    fn default() -> Self {
        SessionState {
            published: None,
            caps_sent: false,
            next_loop: 0,
            open: None,
            closed: None,
            opener: None,
            calls: Bounded::new(PAIRING_CAP),
            uuids: Bounded::new(PAIRING_CAP),
            last_message_uuid: None,
            since_message: VecDeque::new(),
        }
    }
}

/// How a loop ended and whether its last text becomes the final answer.
pub(crate) struct Ending<'a> {
    pub outcome: LoopOutcome,
    pub record: &'a RecordRef,
    pub at: Option<&'a str>,
    /// `Some(strength)` promotes the last text to `agent.final_answer` with that strength.
    pub promote: Option<EvidenceStrength>,
    /// The API message whose stop reason ended the loop, when one did.
    pub message_id: Option<&'a str>,
}

impl SessionState {
    pub fn repair(&mut self) {
        self.calls.repair(PAIRING_CAP);
        self.uuids.repair(PAIRING_CAP);
        while self.since_message.len() > SINCE_MESSAGE_CAP {
            self.since_message.pop_front();
        }
    }

    /// Records the line's place in the uuid chain. Returns whether its parent is a known line
    /// that is no longer the tip of the conversation (a rewind: the user went back and
    /// branched).
    pub fn chain(&mut self, uuid: Option<&str>, parent: Option<&str>, is_message: bool) -> bool {
        let rewind = parent.is_some_and(|p| {
            self.uuids.contains(p)
                && self.last_message_uuid.as_deref() != Some(p)
                && !self.since_message.iter().any(|u| u == p)
        });
        if let Some(uuid) = uuid {
            self.uuids.insert(uuid.to_string(), ());
            if is_message {
                self.last_message_uuid = Some(uuid.to_string());
                self.since_message.clear();
            } else {
                self.since_message.push_back(uuid.to_string());
                while self.since_message.len() > SINCE_MESSAGE_CAP {
                    self.since_message.pop_front();
                }
            }
        }
        rewind
    }

    /// Publishes the session the first time, and again when a line reveals an attribute not
    /// known yet.
    pub fn observe(
        &mut self,
        session: &SessionRef,
        record: &RecordRef,
        attrs: Attributes,
    ) -> Option<Session> {
        let changed = match &mut self.published {
            None => {
                self.published = Some(Published {
                    identity_record: record.clone(),
                    cwd: attrs.cwd,
                    created_at: attrs.created_at,
                    runtime_version: attrs.runtime_version,
                    name: None,
                    name_is_custom: false,
                    delegated_from: attrs.delegated_from,
                });
                true
            }
            Some(p) => {
                let mut changed = false;
                fill(&mut p.cwd, attrs.cwd, &mut changed);
                fill(&mut p.created_at, attrs.created_at, &mut changed);
                fill(&mut p.runtime_version, attrs.runtime_version, &mut changed);
                match (&mut p.delegated_from, attrs.delegated_from) {
                    (slot @ None, Some(d)) => {
                        *slot = Some(d);
                        changed = true;
                    }
                    // The agent type may only appear on later lines of a subagent file.
                    (Some(known), Some(d))
                        if known.agent_type.is_none() && d.agent_type.is_some() =>
                    {
                        known.agent_type = d.agent_type;
                        changed = true;
                    }
                    _ => {}
                }
                changed
            }
        };
        changed.then(|| self.session(session)).flatten()
    }

    /// Sets the session's title. A user-set title wins over an AI title.
    pub fn title(&mut self, session: &SessionRef, name: &str, custom: bool) -> Option<Session> {
        let p = self.published.as_mut()?;
        if (p.name_is_custom && !custom) || p.name.as_deref() == Some(name) {
            return None;
        }
        p.name = Some(name.to_string());
        p.name_is_custom |= custom;
        self.session(session)
    }

    fn session(&self, session: &SessionRef) -> Option<Session> {
        let p = self.published.as_ref()?;
        Some(Session {
            id: session.clone(),
            identity_record: p.identity_record.clone(),
            cwd: p.cwd.clone(),
            name: p.name.clone(),
            created_at: p.created_at.clone(),
            forked_from: None,
            delegated_from: p.delegated_from.clone(),
            runtime_version: p.runtime_version.clone(),
        })
    }

    /// Opens the next loop. Starts at the pending runtime opener when there is one.
    pub fn open_loop(
        &mut self,
        session: &SessionRef,
        record: &RecordRef,
        at: Option<&str>,
        native_id: Option<&str>,
        version: Option<&str>,
        use_opener: bool,
    ) -> IngestMessage {
        self.closed = None;
        let opener = self.opener.take().filter(|_| use_opener);
        let (start_record, started_at) = match opener {
            Some(o) => (o.record, o.at),
            None => (record.clone(), at.map(str::to_string)),
        };
        let open = OpenLoop {
            position: self.next_loop,
            native_id: native_id.map(str::to_string),
            start_record,
            started_at,
            runtime_version: version.map(str::to_string),
            model: None,
            usage: UsageLedger::default(),
            published_usage: None,
            last_text: None,
            final_text: None,
            busy: true,
            stops_known: false,
        };
        self.next_loop = self.next_loop.saturating_add(1);
        let msg = IngestMessage::Loop(loop_message(session, &open, None));
        self.open = Some(open);
        msg
    }

    /// Ends the open loop, if any, appending the promoted final answer and the ended loop to
    /// `out`. A final answer replaces an item with the same key already in `out`.
    pub fn end_loop(
        &mut self,
        session: &SessionRef,
        ending: Ending<'_>,
        out: &mut Vec<IngestMessage>,
    ) {
        let Some(mut open) = self.open.take() else {
            return;
        };
        self.opener = None;
        if let (LoopOutcome::Completed, Some(strength), Some(last)) =
            (ending.outcome, ending.promote, open.last_text.take())
        {
            // A later text of the same message supersedes an answer already promoted.
            if let Some(prev) = open
                .final_text
                .replace(last.clone())
                .filter(|p| p.key != last.key)
            {
                out.push(commentary(session, open.position, prev));
            }
            let mut records = last.records;
            if !records.contains(ending.record) {
                records.push(ending.record.clone());
            }
            let item = Item {
                session: session.clone(),
                key: last.key,
                loop_position: Some(open.position),
                at: last.at,
                semantic: Semantic::new(
                    Role::AgentFinalAnswer,
                    SemanticValue::Text(last.text),
                    strength,
                ),
                records,
            };
            let existing = out
                .iter()
                .position(|m| matches!(m, IngestMessage::Item(i) if i.key == item.key));
            match existing {
                Some(i) => out[i] = IngestMessage::Item(item),
                None => out.push(IngestMessage::Item(item)),
            }
        }
        let end = LoopEnd {
            record: ending.record.clone(),
            outcome: ending.outcome,
            ended_at: ending.at.map(str::to_string),
        };
        open.published_usage = open.usage.total();
        out.push(IngestMessage::Loop(loop_message(session, &open, Some(end))));
        self.closed = ending.message_id.map(|id| ClosedLoop {
            message_id: id.to_string(),
            open,
            outcome: ending.outcome,
            promote: ending.promote,
        });
    }

    /// Reopens the loop a stop reason just ended, for work the runtime makes the agent continue
    /// (a blocking Stop hook's feedback): the continuation belongs to the same loop.
    /// The answer it had given is commentary again (returned for republishing).
    pub fn reopen_closed(&mut self, session: &SessionRef) -> Option<IngestMessage> {
        if self.open.is_some() {
            return None;
        }
        let mut open = self.closed.take()?.open;
        let demoted = open
            .final_text
            .take()
            .map(|t| commentary(session, open.position, t));
        self.open = Some(open);
        demoted
    }

    /// Reopens the loop a stop reason just ended when another line of the same API message
    /// arrives, returning how it ended; the line then ends it again (no new loop, no new Loop
    /// start).
    pub fn rejoin(
        &mut self,
        message_id: Option<&str>,
    ) -> Option<(LoopOutcome, Option<EvidenceStrength>)> {
        if self.open.is_some() {
            return None;
        }
        match (&self.closed, message_id) {
            (Some(c), Some(id)) if c.message_id == id => {
                let closed = self.closed.take()?;
                self.open = Some(closed.open);
                Some((closed.outcome, closed.promote))
            }
            _ => None,
        }
    }
}

/// A text republished as commentary (it is no longer the loop's final answer).
fn commentary(session: &SessionRef, position: u32, text: LastText) -> IngestMessage {
    IngestMessage::Item(Item {
        session: session.clone(),
        key: text.key,
        loop_position: Some(position),
        at: text.at,
        semantic: Semantic::new(
            Role::AgentCommentary,
            SemanticValue::Text(text.text),
            EvidenceStrength::Structural,
        ),
        records: text.records,
    })
}

fn fill<T>(slot: &mut Option<T>, value: Option<T>, changed: &mut bool) {
    if slot.is_none() && value.is_some() {
        *slot = value;
        *changed = true;
    }
}

pub(crate) fn loop_message(session: &SessionRef, open: &OpenLoop, end: Option<LoopEnd>) -> Loop {
    Loop {
        session: session.clone(),
        position: open.position,
        native_id: open.native_id.clone(),
        start_record: open.start_record.clone(),
        started_at: open.started_at.clone(),
        end,
        model: open.model.clone(),
        usage: open.usage.total(),
        runtime_version: open.runtime_version.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_is_counted_once_per_message() {
        let mut ledger = UsageLedger::default();
        let u = |o| Usage {
            output_tokens: Some(o),
            ..Usage::default()
        };
        ledger.record("m1", u(8));
        ledger.record("m1", u(436));
        ledger.record("m2", u(10));
        assert_eq!(ledger.total().unwrap().output_tokens, Some(446));
        for i in 0..1000 {
            ledger.record(&format!("x{i}"), u(1));
        }
        assert_eq!(ledger.total().unwrap().output_tokens, Some(1446));
        assert!(ledger.by_message.len() <= USAGE_MESSAGES_CAP);
    }

    #[test]
    fn rewinds_are_branches_from_known_non_tip_lines() {
        let mut st = SessionState::default();
        assert!(!st.chain(Some("u1"), None, true));
        assert!(!st.chain(Some("a1"), Some("u1"), true));
        assert!(!st.chain(Some("s1"), Some("a1"), false));
        assert!(!st.chain(Some("u2"), Some("s1"), true));
        assert!(st.chain(Some("u3"), Some("u1"), true));
        assert!(!st.chain(Some("u4"), Some("unknown"), true));
    }
}
