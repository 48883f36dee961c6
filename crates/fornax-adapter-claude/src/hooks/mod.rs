//! The hook transport: one JSON payload on a hook command's stdin per event.
//!
//! Each payload carries enough to publish its own facts, so a fresh adapter per hook process is
//! correct; state only adds loop positions, which are published only when this adapter (or the
//! checkpoint it resumed from) saw the session start, so that they count from 0 like the
//! transcript's. Events inside a subagent (those carrying `agent_id`) belong to the subagent
//! session `agent-<agent_id>`.

pub(crate) mod dump;
mod events;
mod handlers;
mod payload;

use fornax_types::{
    AgentAdapter, CapabilityProbe, Delegation, IngestMessage, Loop, LoopEnd, LoopOutcome,
    NativeRecord, NormalizationOutcome, Provider, RecordRef, RuntimeCapabilities, Session,
    SessionRef,
};
use std::collections::VecDeque;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bounded::Bounded;
use crate::capabilities;
use crate::common::{discriminator, get_str, get_text, ADAPTER_VERSION};

use events::{empty_reason, event_of, Event, Known};
use payload::Hook;

const SESSIONS_CAP: usize = 256;
const CHECKPOINT_FORMAT: u32 = 1;
/// Calls remembered per session: without `tool_use_id`, awaiting their result; with one, to
/// know a result's call was recorded.
const CALLS_CAP: usize = 64;

/// Normalizes Claude Code hook payloads.
#[derive(Debug)]
pub struct ClaudeHookAdapter {
    sessions: Bounded<HookSession>,
}

impl Default for ClaudeHookAdapter {
    fn default() -> Self {
        ClaudeHookAdapter {
            sessions: Bounded::new(SESSIONS_CAP),
        }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
struct HookSession {
    published: Option<Session>,
    caps_sent: bool,
    /// The session's start was observed, so loop positions count from 0.
    grounded: bool,
    next_loop: u32,
    open: Option<HookLoop>,
    /// The loop the last Stop closed: a Stop hook that blocks makes the agent continue, and
    /// the next Stop (`stop_hook_active`) closes the same loop again.
    #[serde(default)]
    last_closed: Option<HookLoop>,
    /// Which tool events this capture holds for the session.
    #[serde(default)]
    seen: Seen,
    /// What was last declared for a capture whose hook configuration is unknown (a hook log).
    #[serde(default)]
    declared: Option<Seen>,
    /// Calls without `tool_use_id` awaiting their result, oldest first: `(pairing key, item
    /// key suffix)`.
    #[serde(default)]
    unanswered: VecDeque<(String, String)>,
    /// `tool_use_id`s of calls recorded, newest last.
    #[serde(default)]
    called: VecDeque<String>,
}

/// Tool events seen in a session's capture.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Seen {
    pub(crate) pre: bool,
    pub(crate) post: bool,
    pub(crate) failure: bool,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct HookLoop {
    position: u32,
    native_id: Option<String>,
    start_record: RecordRef,
    started_at: Option<String>,
}

#[derive(Serialize, Deserialize)]
struct Checkpoint {
    format: u32,
    sessions: Bounded<HookSession>,
}

impl ClaudeHookAdapter {
    /// Publishes the main session and, for a subagent event, the subagent session; each with
    /// its capabilities once.
    fn announce(&mut self, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        if let Some(parent) = &hook.parent {
            let name = get_text(hook.p, "session_title");
            self.publish(parent, hook, None, name, out);
        }
        if let Some(delegation) = &hook.subagent {
            let delegated = (!delegation.parent_native_id.is_empty()).then(|| delegation.clone());
            let session = hook.session.clone();
            self.publish(&session, hook, delegated, None, out);
        }
    }

    fn publish(
        &mut self,
        session: &SessionRef,
        hook: &Hook<'_>,
        delegated: Option<Delegation>,
        name: Option<&str>,
        out: &mut Vec<IngestMessage>,
    ) {
        let st = self
            .sessions
            .get_or_insert_with(&session.native_id, HookSession::default);
        let next = match &st.published {
            None => Some(Session {
                id: session.clone(),
                identity_record: hook.record.clone(),
                cwd: hook.cwd.map(str::to_string),
                name: name.map(str::to_string),
                created_at: None,
                forked_from: None,
                delegated_from: delegated,
                runtime_version: None,
            }),
            Some(known) => {
                let mut s = known.clone();
                if s.cwd.is_none() {
                    s.cwd = hook.cwd.map(str::to_string);
                }
                if let Some(name) = name {
                    s.name = Some(name.to_string());
                }
                match (&mut s.delegated_from, delegated) {
                    (None, d) => s.delegated_from = d,
                    (Some(known), Some(d)) if known.agent_type.is_none() => {
                        known.agent_type = d.agent_type
                    }
                    _ => {}
                }
                (s != *known).then_some(s)
            }
        };
        if let Some(s) = next {
            st.published = Some(s.clone());
            out.push(IngestMessage::Session(s));
        }
        if !st.caps_sent {
            st.caps_sent = true;
            let caps = if hook.logged {
                st.declared = Some(st.seen);
                capabilities::hook_log(&st.seen)
            } else {
                capabilities::hooks()
            };
            out.push(IngestMessage::Capabilities(
                caps.stamped(&session.native_id, ADAPTER_VERSION),
            ));
        }
    }

    /// A hook log's capabilities follow what it holds: declared again when that changes.
    fn redeclare(&mut self, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        if !hook.logged {
            return;
        }
        let st = self.state(&hook.session.native_id);
        if st.declared != Some(st.seen) {
            st.declared = Some(st.seen);
            out.push(IngestMessage::Capabilities(
                capabilities::hook_log(&st.seen).stamped(&hook.session.native_id, ADAPTER_VERSION),
            ));
        }
    }

    fn note_seen(&mut self, event: Event, hook: &Hook<'_>) {
        let st = self.state(&hook.session.native_id);
        match event {
            Event::PreToolUse => st.seen.pre = true,
            Event::PostToolUse => st.seen.post = true,
            Event::PostToolUseFailure => st.seen.failure = true,
            _ => {}
        }
    }

    fn state(&mut self, native_id: &str) -> &mut HookSession {
        self.sessions
            .get_or_insert_with(native_id, HookSession::default)
    }

    /// The open loop's position, when positions are grounded.
    fn loop_position(&mut self, hook: &Hook<'_>) -> Option<u32> {
        let st = self.state(&hook.session.native_id);
        st.open.as_ref().filter(|_| st.grounded).map(|l| l.position)
    }

    fn end_loop(&mut self, hook: &Hook<'_>, outcome: LoopOutcome, out: &mut Vec<IngestMessage>) {
        let st = self.state(&hook.session.native_id);
        if !st.grounded {
            return;
        }
        if let Some(open) = st.open.take() {
            let end = LoopEnd {
                record: hook.record.clone(),
                outcome,
                ended_at: hook.at.clone(),
            };
            out.push(IngestMessage::Loop(hook_loop(
                &hook.session,
                &open,
                Some(end),
            )));
            st.last_closed = (outcome == LoopOutcome::Completed).then_some(open);
        }
    }
}

fn hook_loop(session: &SessionRef, open: &HookLoop, end: Option<LoopEnd>) -> Loop {
    Loop {
        session: session.clone(),
        position: open.position,
        native_id: open.native_id.clone(),
        start_record: open.start_record.clone(),
        started_at: open.started_at.clone(),
        end,
        model: None,
        usage: None,
        runtime_version: None,
    }
}

impl CapabilityProbe for ClaudeHookAdapter {
    fn probe(&self) -> RuntimeCapabilities {
        capabilities::hooks()
    }
}

impl AgentAdapter for ClaudeHookAdapter {
    fn provider(&self) -> Provider {
        Provider::ClaudeCode
    }

    fn adapter_version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn normalize(&mut self, session_hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome {
        let p = native.value;
        if !p.is_object() {
            return NormalizationOutcome::Unrecognized {
                discriminator: "<not a JSON object>".into(),
            };
        }
        let Some(name) = get_str(p, "hook_event_name") else {
            return NormalizationOutcome::Unrecognized {
                discriminator: "<no hook_event_name>".into(),
            };
        };
        let event = match event_of(name) {
            Some(Known::Mapped(event)) => event,
            Some(Known::Unmapped(reason)) => return NormalizationOutcome::Ignored { reason },
            None => {
                return NormalizationOutcome::Unrecognized {
                    discriminator: discriminator(name),
                }
            }
        };
        let mut hook = Hook::resolve(p, native.record, name, session_hint);
        // From a hook log (a dump) rather than a live hook: its order may be reconstructed.
        hook.logged = native.member.is_some();
        let mut out = Vec::new();
        self.note_seen(event, &hook);
        self.announce(&hook, &mut out);
        self.on_event(event, &hook, &mut out);
        self.redeclare(&hook, &mut out);
        if hook.logged && dump::logged_time(p).is_none() {
            // Where this payload sits was reconstructed from the files' order (module `dump`).
            for msg in &mut out {
                if let IngestMessage::Item(item) = msg {
                    item.semantic.evidence_strength = fornax_types::EvidenceStrength::Heuristic;
                }
            }
        }
        if out.is_empty() {
            NormalizationOutcome::Ignored {
                reason: empty_reason(event),
            }
        } else {
            NormalizationOutcome::Messages(out)
        }
    }

    fn checkpoint(&self) -> Option<Value> {
        serde_json::to_value(Checkpoint {
            format: CHECKPOINT_FORMAT,
            sessions: self.sessions.clone(),
        })
        .ok()
    }

    fn resume(&mut self, state: &Value) -> bool {
        match Checkpoint::deserialize(state) {
            Ok(cp) if cp.format == CHECKPOINT_FORMAT => {
                let mut sessions = cp.sessions;
                sessions.repair(SESSIONS_CAP);
                self.sessions = sessions;
                true
            }
            _ => false,
        }
    }
}
