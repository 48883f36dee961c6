//! What the session-log adapter keeps across events: the session, the open loop, calls
//! waiting for their completion, subagents and hook runs. Bounded, and serializable for
//! `checkpoint`/`resume`.

use fornax_types::kit::BoundedMap;
use fornax_types::{RecordRef, TextValue, Usage};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Format of the checkpoint; bumped whenever this state changes shape.
pub(crate) const CHECKPOINT_FORMAT: u32 = 1;

/// Capacity of every table (calls, subagents, hook runs, announced sessions).
pub(crate) const TABLE_CAP: usize = 4096;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct State {
    /// The main session's id, once `session.start` named it.
    pub session: Option<String>,
    pub cwd: Option<String>,
    pub version: Option<String>,
    /// The model in force (start, model changes, automatic routing).
    pub model: Option<String>,
    /// Sessions (main and subagents) already published with their capabilities.
    pub announced: BoundedMap<()>,
    pub next_loop: u32,
    pub open: Option<OpenLoop>,
    /// Calls by `toolCallId`, until completed.
    pub calls: BoundedMap<Call>,
    /// Subagents by the `toolCallId` of the call that started them.
    pub children: BoundedMap<Child>,
    /// Hook runs by `hookInvocationId`, until they end.
    pub hooks: BoundedMap<String>,
}

impl Default for State {
    fn default() -> Self {
        State {
            session: None,
            cwd: None,
            version: None,
            model: None,
            announced: BoundedMap::new(TABLE_CAP),
            next_loop: 0,
            open: None,
            calls: BoundedMap::new(TABLE_CAP),
            children: BoundedMap::new(TABLE_CAP),
            hooks: BoundedMap::new(TABLE_CAP),
        }
    }
}

impl State {
    /// Restores the tables' capacity and consistency after a resume.
    pub(crate) fn repair(&mut self) {
        self.announced.repair(TABLE_CAP);
        self.calls.repair(TABLE_CAP);
        self.children.repair(TABLE_CAP);
        self.hooks.repair(TABLE_CAP);
    }
}

/// A loop: opened by the human's message, one or more assistant turns, closed by the next
/// message, the session's end or an abort.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct OpenLoop {
    pub position: u32,
    pub native_id: Option<String>,
    pub start: RecordRef,
    pub started_at: Option<String>,
    pub model: Option<String>,
    /// Output tokens the assistant messages state.
    pub message_output: Option<u64>,
    /// Usage from `assistant.usage` events, when the log has them (preferred).
    pub usage: Usage,
    /// A turn started and has not ended yet.
    pub turn_open: bool,
    /// Where the last turn ended.
    pub last_turn_end: Option<(RecordRef, Option<String>)>,
    /// The agent's last message or tool result in the loop (logs of builds that write no
    /// turn events end a loop there).
    pub last_activity: Option<(RecordRef, Option<String>)>,
    /// The latest agent text not followed by a tool request: the final answer if the loop
    /// ends here.
    pub last_text: Option<TextItem>,
}

impl OpenLoop {
    pub(crate) fn total_usage(&self) -> Option<Usage> {
        if !self.usage.is_empty() {
            return Some(self.usage);
        }
        self.message_output.map(|output| Usage {
            output_tokens: Some(output),
            ..Usage::default()
        })
    }
}

/// A published agent text, kept to be republished as a final answer.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct TextItem {
    pub session: String,
    pub key: String,
    pub text: TextValue,
    pub loop_position: Option<u32>,
    pub at: Option<String>,
    pub records: Vec<RecordRef>,
}

/// A requested or running call.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Call {
    pub tool: String,
    pub args: Value,
    /// The session the call belongs to (the main one, or a subagent's).
    pub session: String,
    pub loop_position: Option<u32>,
    pub at: Option<String>,
    pub records: Vec<RecordRef>,
    /// The key derived from the first hook that reported this call, when one did.
    pub hook_key: Option<String>,
    /// The key the call was published under, once it was.
    pub published: Option<String>,
}

impl Call {
    /// The key to publish under: the one already used, else the hook's, else the call id's.
    pub(crate) fn key(&self, call_id: &str) -> String {
        self.published
            .clone()
            .or_else(|| self.hook_key.clone())
            .unwrap_or_else(|| format!("call:{call_id}"))
    }
}

/// A subagent run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Child {
    pub native_id: String,
    pub agent_name: Option<String>,
    pub last_text: Option<TextItem>,
}
