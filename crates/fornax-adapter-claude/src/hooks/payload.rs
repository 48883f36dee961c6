//! One hook payload in context: whose event it is (main session or subagent), its time, and
//! keys for facts that carry no native id.

use fornax_types::{
    Delegation, EvidenceStrength, IngestMessage, Item, Provider, RecordRef, Role, Semantic,
    SemanticValue, SessionRef,
};
use serde_json::Value;

use crate::common::{capped, digest, get_text, timestamp};

/// One payload in context.
pub(super) struct Hook<'a> {
    pub(super) p: &'a Value,
    pub(super) record: &'a RecordRef,
    pub(super) event: &'a str,
    /// The main session the payload names (`session_id`).
    pub(super) parent: Option<SessionRef>,
    /// Where this event's facts go: the subagent when `agent_id` is set, else the main session
    /// (or the caller's hint when the payload names none).
    pub(super) session: SessionRef,
    pub(super) subagent: Option<Delegation>,
    pub(super) at: Option<String>,
    pub(super) cwd: Option<&'a str>,
    /// Read from a hook log (a logging script's dump), not received live.
    pub(super) logged: bool,
}

impl<'a> Hook<'a> {
    pub(super) fn resolve(p: &'a Value, record: &'a RecordRef, event: &'a str, hint: &str) -> Self {
        let parent = get_text(p, "session_id").map(|s| SessionRef::new(Provider::ClaudeCode, s));
        let agent_id = get_text(p, "agent_id");
        let subagent = agent_id.map(|agent| Delegation {
            parent_native_id: parent
                .as_ref()
                .map(|s| s.native_id.clone())
                .unwrap_or_default(),
            call_id: None,
            agent_id: Some(agent.to_string()),
            agent_type: get_text(p, "agent_type").map(str::to_string),
        });
        let session = match (agent_id, &parent) {
            (Some(agent), _) => SessionRef::new(Provider::ClaudeCode, format!("agent-{agent}")),
            (None, Some(parent)) => parent.clone(),
            (None, None) => SessionRef::new(Provider::ClaudeCode, hint),
        };
        Hook {
            p,
            record,
            event,
            parent,
            session,
            subagent,
            at: timestamp(p),
            cwd: get_text(p, "cwd"),
            logged: false,
        }
    }

    /// A key for a fact whose payload carries no native id: the record position and a digest
    /// of the payload (positions alone may restart in a process per hook).
    pub(super) fn fallback_key(&self, prefix: &str) -> String {
        let body = serde_json::to_string(self.p).unwrap_or_default();
        format!(
            "{prefix}:r{}:{}",
            self.record.position,
            digest(&[self.event, &body])
        )
    }

    pub(super) fn item(
        &self,
        key: String,
        loop_position: Option<u32>,
        semantic: Semantic,
    ) -> IngestMessage {
        IngestMessage::Item(Item {
            session: self.session.clone(),
            key,
            loop_position,
            at: self.at.clone(),
            semantic,
            records: vec![self.record.clone()],
        })
    }

    pub(super) fn text(
        &self,
        key: String,
        loop_position: Option<u32>,
        role: Role,
        text: &str,
        strength: EvidenceStrength,
    ) -> IngestMessage {
        self.item(
            key,
            loop_position,
            Semantic::new(role, SemanticValue::Text(capped(text)), strength),
        )
    }
}
