//! Cross-record state of one Gemini chat: bounded, and serializable so that normalizing a
//! JSON Lines chat can resume at a cursor.

use std::collections::VecDeque;

use fornax_types::{Item, Loop, Session, Usage};
use serde::{Deserialize, Serialize};

/// Version of the checkpoint layout; a snapshot of another version is refused.
pub(crate) const CHECKPOINT_FORMAT: u32 = 1;

/// Message ids remembered (so that a re-appended or re-listed message does not open a second
/// loop or replace its fuller first copy).
pub(crate) const SEEN_USER_CAP: usize = 4096;
/// Gemini messages whose usage a loop remembers (a re-appended message replaces its usage
/// instead of adding to it).
pub(crate) const LOOP_MESSAGE_CAP: usize = 4096;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct State {
    pub format: u32,
    pub session: Option<Session>,
    /// `kind: "subagent"`: user messages are the parent agent's instructions.
    pub subagent: bool,
    /// The session id capabilities were announced for.
    pub announced: Option<String>,
    pub loops_opened: u32,
    pub current: Option<OpenLoop>,
    /// User message ids already seen, with the loop each opened or joined.
    pub seen_users: VecDeque<(String, u32)>,
    /// Message ids already normalized (any type).
    pub seen_messages: VecDeque<String>,
}

impl Default for State {
    fn default() -> Self {
        State {
            format: CHECKPOINT_FORMAT,
            session: None,
            subagent: false,
            announced: None,
            loops_opened: 0,
            current: None,
            seen_users: VecDeque::new(),
            seen_messages: VecDeque::new(),
        }
    }
}

impl State {
    pub fn seen_user(&self, id: &str) -> Option<u32> {
        self.seen_users
            .iter()
            .find(|(seen, _)| seen == id)
            .map(|(_, position)| *position)
    }

    pub fn seen_message(&self, id: &str) -> bool {
        self.seen_messages.iter().any(|seen| seen == id)
    }

    pub fn remember_message(&mut self, id: String) {
        if self.seen_message(&id) {
            return;
        }
        if self.seen_messages.len() >= SEEN_USER_CAP {
            self.seen_messages.pop_front();
        }
        self.seen_messages.push_back(id);
    }

    pub fn remember_user(&mut self, id: String, position: u32) {
        if self.seen_users.len() >= SEEN_USER_CAP {
            self.seen_users.pop_front();
        }
        self.seen_users.push_back((id, position));
    }
}

/// The latest loop and what is needed to end it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct OpenLoop {
    /// The loop as last published.
    pub published: Loop,
    /// The loop's latest agent text, as last published.
    pub last_text: Option<Item>,
    /// Usage per gemini message id; the loop's usage is their sum.
    pub usage_by_message: VecDeque<(String, Usage)>,
}

impl OpenLoop {
    pub fn new(published: Loop) -> Self {
        OpenLoop {
            published,
            last_text: None,
            usage_by_message: VecDeque::new(),
        }
    }

    pub fn is_running(&self) -> bool {
        self.published.end.is_none()
    }

    /// Records (or replaces) one message's usage and refreshes the loop's total.
    pub fn set_usage(&mut self, message_id: &str, usage: Usage) {
        match self
            .usage_by_message
            .iter_mut()
            .find(|(id, _)| id == message_id)
        {
            Some(entry) => entry.1 = usage,
            None => {
                if self.usage_by_message.len() >= LOOP_MESSAGE_CAP {
                    // Fold the oldest into the first remaining entry so totals stay right.
                    if let Some((_, oldest)) = self.usage_by_message.pop_front() {
                        if let Some(front) = self.usage_by_message.front_mut() {
                            front.1.accumulate(&oldest);
                        }
                    }
                }
                self.usage_by_message
                    .push_back((message_id.to_string(), usage));
            }
        }
        let mut total = Usage::default();
        for (_, u) in &self.usage_by_message {
            total.accumulate(u);
        }
        self.published.usage = (!total.is_empty()).then_some(total);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fornax_types::{Provider, RecordRef, SessionRef, SourceId};

    fn open() -> OpenLoop {
        OpenLoop::new(Loop {
            session: SessionRef::new(Provider::Gemini, "s"),
            position: 0,
            native_id: None,
            start_record: RecordRef::new(SourceId::new("f"), 0),
            started_at: None,
            end: None,
            model: None,
            usage: None,
            runtime_version: None,
        })
    }

    fn usage(n: u64) -> Usage {
        Usage {
            input_tokens: Some(n),
            output_tokens: Some(1),
            ..Usage::default()
        }
    }

    #[test]
    fn re_appended_messages_replace_their_usage() {
        let mut lp = open();
        lp.set_usage("m1", usage(10));
        lp.set_usage("m1", usage(12));
        lp.set_usage("m2", usage(5));
        assert_eq!(lp.published.usage.unwrap().input_tokens, Some(17));
    }

    #[test]
    fn usage_table_is_bounded_without_losing_totals() {
        let mut lp = open();
        for i in 0..LOOP_MESSAGE_CAP + 5 {
            lp.set_usage(&format!("m{i}"), usage(1));
        }
        assert_eq!(lp.usage_by_message.len(), LOOP_MESSAGE_CAP);
        assert_eq!(
            lp.published.usage.unwrap().input_tokens,
            Some((LOOP_MESSAGE_CAP + 5) as u64)
        );
    }

    #[test]
    fn seen_users_are_bounded() {
        let mut state = State::default();
        for i in 0..SEEN_USER_CAP + 3 {
            state.remember_user(format!("u{i}"), 0);
        }
        assert_eq!(state.seen_users.len(), SEEN_USER_CAP);
        assert_eq!(state.seen_user("u0"), None);
    }
}
