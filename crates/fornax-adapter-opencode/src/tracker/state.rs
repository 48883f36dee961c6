//! Per-session state and the publication rule shared by every emitter: a fact already
//! published unchanged under its key is not published again.

use std::collections::VecDeque;
use std::hash::{DefaultHasher, Hash, Hasher};

use fornax_types::{IngestMessage, Item, Provider, RecordRef, Session, SessionRef};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::loops::LoopState;
use super::Transport;
use crate::bounded::Bounded;
use crate::json::i64_at;
use crate::tools::FileTarget;
use fornax_types::kit::time::iso_from_millis;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(super) enum Speaker {
    /// A user message that opened a loop.
    Request,
    /// A user message sent while a loop was running.
    Steering,
    Assistant,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct MessageState {
    pub(super) speaker: Speaker,
    pub(super) loop_pos: Option<u32>,
    /// A compaction summary written by the model on the runtime's behalf.
    pub(super) compaction: bool,
    pub(super) created_at: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct Pending {
    pub(super) part: Value,
    pub(super) record: RecordRef,
    pub(super) observed_at: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct PartState {
    /// Order of first sight inside the session: decides which text is a loop's last.
    pub(super) seq: u64,
    pub(super) message_id: Option<String>,
    /// The latest version of a text or reasoning part not published yet (still streaming, or
    /// waiting for its message's role).
    pub(super) pending: Option<Pending>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct CallState {
    pub(super) tool: String,
    pub(super) loop_pos: Option<u32>,
    /// Files named by the call's input, for results that do not name them again.
    pub(super) targets: Vec<FileTarget>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(super) struct SessionState {
    pub(super) id: String,
    pub(super) transport: Transport,
    pub(super) capabilities_sent: bool,
    pub(super) identity: Option<RecordRef>,
    /// The Session last published, and whether a session document (not just an id) backed it.
    pub(super) session: Option<Session>,
    pub(super) documented: bool,
    pub(super) runtime_version: Option<String>,
    pub(super) next_seq: u64,
    pub(super) next_loop: u32,
    pub(super) running: Option<u32>,
    pub(super) loops: VecDeque<LoopState>,
    pub(super) messages: Bounded<MessageState>,
    pub(super) parts: Bounded<PartState>,
    pub(super) calls: Bounded<CallState>,
    /// Digest of the last publication per item key, loop and evidence id.
    pub(super) published: Bounded<u64>,
}

pub(super) fn digest<T: Serialize>(value: &T) -> u64 {
    let mut h = DefaultHasher::new();
    serde_json::to_string(value)
        .unwrap_or_default()
        .hash(&mut h);
    h.finish()
}

pub(super) fn iso(v: &Value, path: &[&str]) -> Option<String> {
    i64_at(v, path).and_then(iso_from_millis)
}

impl SessionState {
    pub(super) fn sref(&self) -> SessionRef {
        SessionRef::new(Provider::Opencode, self.id.clone())
    }

    pub(super) fn loop_ref(&self, pos: u32) -> Option<&LoopState> {
        self.loops.iter().find(|l| l.position == pos)
    }

    pub(super) fn loop_mut(&mut self, pos: u32) -> Option<&mut LoopState> {
        self.loops.iter_mut().find(|l| l.position == pos)
    }

    /// Publishes `value` unless the same fact was the last one published under `key`.
    pub(super) fn publish<T: Serialize + Clone>(
        &mut self,
        key: &str,
        value: &T,
        out: &mut Vec<IngestMessage>,
        wrap: fn(T) -> IngestMessage,
    ) {
        let d = digest(value);
        if self.published.get(key) == Some(&d) {
            return;
        }
        self.published.insert(key.to_string(), d);
        out.push(wrap(value.clone()));
    }

    pub(super) fn part_seq(&mut self, part_id: &str, message_id: Option<&str>) -> u64 {
        if let Some(p) = self.parts.get_mut(part_id) {
            if p.message_id.is_none() {
                p.message_id = message_id.map(str::to_string);
            }
            return p.seq;
        }
        let seq = self.next_seq;
        self.next_seq = self.next_seq.saturating_add(1);
        self.parts.insert(
            part_id.to_string(),
            PartState {
                seq,
                message_id: message_id.map(str::to_string),
                pending: None,
            },
        );
        seq
    }

    pub(super) fn publish_item(&mut self, item: Item, out: &mut Vec<IngestMessage>) {
        // The fact, not its witnesses: a second sighting of the same text adds nothing.
        let d = digest(&(&item.loop_position, &item.at, &item.semantic));
        if self.published.get(&item.key) == Some(&d) {
            return;
        }
        self.published.insert(item.key.clone(), d);
        out.push(IngestMessage::Item(item));
    }
}
