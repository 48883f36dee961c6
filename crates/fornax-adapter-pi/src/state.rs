//! Cross-record state of one Pi session file: bounded, and serializable so that normalizing
//! can resume at a cursor ([`AgentAdapter::checkpoint`](fornax_types::AgentAdapter::checkpoint)).

use std::collections::VecDeque;

use fornax_types::{Item, Loop, RecordRef, Session};
use serde::{Deserialize, Serialize};

/// Version of the checkpoint layout; a snapshot of another version is refused.
pub(crate) const CHECKPOINT_FORMAT: u32 = 1;

/// Calls remembered while their results are outstanding. Pi answers calls within the same
/// turn, so a few hundred is far more than a real session holds at once.
pub(crate) const PENDING_CALL_CAP: usize = 512;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct State {
    pub format: u32,
    /// The session as published (from the header), once known.
    pub session: Option<Session>,
    /// Whether capabilities were announced for the current session id.
    pub announced: Option<String>,
    /// How many loops were opened (the next loop's position).
    pub loops_opened: u32,
    /// The latest loop, open or ended.
    pub current: Option<OpenLoop>,
    /// The model in force (header `modelId`, `model_change`, last assistant `model`).
    pub model: Option<String>,
    pub pending: PendingCalls,
    /// For keys of id-less (v1) entries: the last record position and how many objects were
    /// handed over at it (a damaged line can hold two objects).
    pub last_position: Option<u64>,
    pub objects_at_position: u32,
}

impl Default for State {
    fn default() -> Self {
        State {
            format: CHECKPOINT_FORMAT,
            session: None,
            announced: None,
            loops_opened: 0,
            current: None,
            model: None,
            pending: PendingCalls::default(),
            last_position: None,
            objects_at_position: 0,
        }
    }
}

/// The latest loop and what is needed to end it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct OpenLoop {
    /// The loop as last published (usage accumulated so far).
    pub published: Loop,
    /// The loop's latest agent text, as last published.
    pub last_text: Option<Item>,
}

impl OpenLoop {
    pub fn is_running(&self) -> bool {
        self.published.end.is_none()
    }
}

/// What a file-writing call targets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct FileTarget {
    pub path: String,
    /// `write` or `edit`.
    pub tool: String,
}

/// A tool call whose result has not been seen yet.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct PendingCall {
    pub id: String,
    pub name: String,
    pub shell: bool,
    pub file: Option<FileTarget>,
    pub record: RecordRef,
    pub loop_position: Option<u32>,
}

/// A bounded first-in-first-out table of pending calls.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct PendingCalls {
    calls: VecDeque<PendingCall>,
}

impl PendingCalls {
    pub fn insert(&mut self, call: PendingCall) {
        self.calls.retain(|c| c.id != call.id);
        if self.calls.len() >= PENDING_CALL_CAP {
            self.calls.pop_front();
        }
        self.calls.push_back(call);
    }

    pub fn take(&mut self, id: &str) -> Option<PendingCall> {
        let index = self.calls.iter().position(|c| c.id == id)?;
        self.calls.remove(index)
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.calls.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fornax_types::SourceId;

    fn call(id: usize) -> PendingCall {
        PendingCall {
            id: format!("c{id}"),
            name: "read".into(),
            shell: false,
            file: None,
            record: RecordRef::new(SourceId::new("s"), id as u64),
            loop_position: None,
        }
    }

    #[test]
    fn pending_calls_are_bounded_and_oldest_go_first() {
        let mut table = PendingCalls::default();
        for i in 0..PENDING_CALL_CAP + 10 {
            table.insert(call(i));
        }
        assert_eq!(table.len(), PENDING_CALL_CAP);
        assert!(table.take("c0").is_none());
        assert!(table.take(&format!("c{}", PENDING_CALL_CAP + 9)).is_some());
    }
}
