//! The adapter's cross-record state: everything `checkpoint()` serializes.
//!
//! Every collection here is bounded: pairing tables keep the newest entries, per-loop
//! message and reasoning lists keep the last few dozen.

use std::collections::VecDeque;

use fornax_types::{Item, Loop, RecordRef, Session, TokenCounts, Usage};
use serde::{Deserialize, Serialize};

use crate::bounded::Bounded;
use crate::patch::FileChange;

/// Calls remembered while their outputs may still arrive.
pub(crate) const CALL_TABLE_CAP: usize = 4096;
/// Emitted tool outputs remembered so that later witnesses can join them.
pub(crate) const OUTPUT_TABLE_CAP: usize = 256;
/// Unified-exec processes still running, by session id.
pub(crate) const EXEC_SESSION_CAP: usize = 256;
/// Messages (and reasoning parts) per loop remembered for pairing witnesses.
pub(crate) const SCOPE_ENTRY_CAP: usize = 32;

/// Version of the checkpoint format.
pub(crate) const CHECKPOINT_SCHEMA: u32 = 1;

#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct State {
    /// The session, once its identity record was seen.
    pub session: Option<Session>,
    /// The `cli_version` in force (may change within one file).
    pub version: Option<String>,
    /// The model of the latest turn context.
    pub model: Option<String>,
    pub next_loop: u32,
    pub current: Option<LoopState>,
    /// The most recently closed loop (late usage reports still belong to it).
    pub last: Option<LoopState>,
    /// Items seen while no loop was open.
    pub outside: Scope,
    pub calls: Bounded<CallInfo, CALL_TABLE_CAP>,
    pub outputs: Bounded<Item, OUTPUT_TABLE_CAP>,
    /// Unified-exec session id → the `exec_command` call that started the process.
    pub exec_sessions: Bounded<String, EXEC_SESSION_CAP>,
    /// The last session-cumulative usage seen: Codex repeats a `token_count` with the same
    /// totals, and a repeat must not be summed twice.
    pub last_total: Option<Usage>,
    /// The last session-cumulative usage as disjoint token kinds: each `token_count`'s usage
    /// fact is the step from it.
    #[serde(default)]
    pub last_counts: Option<TokenCounts>,
}

/// One loop while it is open (or just closed).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct LoopState {
    pub lp: Loop,
    /// Opened or adopted by `task_started`: a later human message steers it.
    pub bound_to_task: bool,
    pub has_human: bool,
    pub has_agent_activity: bool,
    pub error_seen: bool,
    pub scope: Scope,
}

/// Per-loop (or outside-any-loop) counters and recent entries for witness pairing.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub(crate) struct Scope {
    pub label: String,
    pub next_msg: u32,
    pub next_rsn: u32,
    pub next_misc: u32,
    pub messages: VecDeque<Entry>,
    pub reasoning: VecDeque<Entry>,
}

impl Scope {
    pub(crate) fn new(label: impl Into<String>) -> Self {
        Scope {
            label: label.into(),
            ..Scope::default()
        }
    }

    pub(crate) fn push_message(&mut self, entry: Entry) {
        push_bounded(&mut self.messages, entry);
    }

    pub(crate) fn push_reasoning(&mut self, entry: Entry) {
        push_bounded(&mut self.reasoning, entry);
    }
}

fn push_bounded(list: &mut VecDeque<Entry>, entry: Entry) {
    if list.len() >= SCOPE_ENTRY_CAP {
        list.pop_front();
    }
    list.push_back(entry);
}

/// A published message or reasoning part and the witnesses it already has.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Entry {
    pub item: Item,
    /// Whitespace-insensitive fingerprint of the text.
    pub fp: u64,
    /// `user`, `assistant`, `developer`, `system`, or a reasoning mode.
    pub class: String,
    /// Bit set of witness streams already joined (see `Stream`).
    pub streams: u8,
}

/// Where a witness of a message comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stream {
    /// `event_msg` (what the UI showed).
    Event = 1,
    /// `response_item` (what the model saw) or a legacy bare item.
    Response = 2,
    /// `event_msg.item_completed` (2026).
    Completed = 4,
    /// `task_complete.last_agent_message`.
    TaskSummary = 8,
}

/// A tool call waiting for (or joined with) its output.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct CallInfo {
    pub key: String,
    pub tool_name: String,
    pub record: RecordRef,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_position: Option<u32>,
    /// The shell command, for shell calls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Files an apply_patch call touches.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub patch: Vec<FileChange>,
    /// For `write_stdin`: the unified-exec session it talks to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stdin_session: Option<String>,
}
