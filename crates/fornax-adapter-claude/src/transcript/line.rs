//! One transcript line in context: which session it belongs to (main or subagent), its
//! envelope fields, and the helpers that turn its facts into canonical items.

use fornax_types::{
    Delegation, EvidenceStrength, IngestMessage, Item, Provider, RecordRef, Role, Semantic,
    SemanticValue, SessionRef,
};
use serde_json::Value;

use super::state::{Attributes, LastText, Opener, SessionState};
use crate::capabilities;
use crate::common::{capped, get_bool, get_text, timestamp, ADAPTER_VERSION};

pub(crate) struct Line<'a> {
    pub v: &'a Value,
    pub record: &'a RecordRef,
    pub session: SessionRef,
    /// The line states its session (`sessionId`, or `isSidechain` with `agentId`); otherwise
    /// the caller's hint is used and no Session is published.
    pub structural: bool,
    /// Set for a subagent (sidechain) session.
    pub delegated: Option<Delegation>,
    pub subagent: bool,
    pub at: Option<String>,
    pub uuid: Option<&'a str>,
    pub parent_uuid: Option<&'a str>,
    pub cwd: Option<&'a str>,
    pub version: Option<&'a str>,
}

impl<'a> Line<'a> {
    /// Resolves the session of a line. A sidechain line with an `agentId` belongs to the
    /// subagent session `agent-<agentId>`, linked to the `sessionId` that delegated it.
    pub fn resolve(v: &'a Value, record: &'a RecordRef, hint: &str) -> Self {
        let session_id = get_text(v, "sessionId").or_else(|| get_text(v, "session_id"));
        let agent_id = get_text(v, "agentId");
        let sidechain = get_bool(v, "isSidechain") == Some(true);
        let (native_id, structural, delegated, subagent) = match (sidechain, agent_id) {
            (true, Some(agent)) => {
                let native = format!("agent-{agent}");
                let delegated = session_id
                    .filter(|s| *s != native)
                    .map(|parent| Delegation {
                        parent_native_id: parent.to_string(),
                        call_id: None,
                        agent_id: Some(agent.to_string()),
                        agent_type: get_text(v, "agentType")
                            .or_else(|| get_text(v, "attributionAgent"))
                            .map(str::to_string),
                    });
                (native, true, delegated, true)
            }
            _ => match session_id {
                Some(s) => (s.to_string(), true, None, false),
                None => (hint.to_string(), false, None, false),
            },
        };
        Line {
            v,
            record,
            session: SessionRef::new(Provider::ClaudeCode, native_id),
            structural,
            delegated,
            subagent,
            at: timestamp(v),
            uuid: get_text(v, "uuid"),
            parent_uuid: get_text(v, "parentUuid"),
            cwd: get_text(v, "cwd"),
            version: get_text(v, "version"),
        }
    }

    /// A line of an inline sidechain (see [`super::sidechain`]): it belongs to the sidechain's
    /// own session, delegated from the parent.
    pub fn in_sidechain(
        v: &'a Value,
        record: &'a RecordRef,
        native_id: String,
        delegated: Delegation,
    ) -> Self {
        let mut line = Line::resolve(v, record, &native_id);
        line.session = SessionRef::new(Provider::ClaudeCode, native_id);
        line.structural = true;
        line.delegated = Some(delegated);
        line.subagent = true;
        line
    }

    /// A key derived from the line's uuid (or, without one, its record position).
    pub fn key(&self, prefix: &str, index: usize) -> String {
        match self.uuid {
            Some(uuid) => format!("{prefix}:{uuid}:{index}"),
            None => format!("{prefix}:r{}:{index}", self.record.position),
        }
    }

    pub fn item(
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

    /// A text item in the current loop.
    pub fn text_item(
        &self,
        st: &SessionState,
        key: String,
        role: Role,
        text: &str,
        strength: EvidenceStrength,
    ) -> IngestMessage {
        let loop_position = st.open.as_ref().map(|o| o.position);
        self.item(
            key,
            loop_position,
            Semantic::new(role, SemanticValue::Text(capped(text)), strength),
        )
    }

    pub fn last_text(&self, key: String, text: &str) -> LastText {
        LastText {
            key,
            text: capped(text),
            records: vec![self.record.clone()],
            at: self.at.clone(),
        }
    }

    pub fn opener(&self) -> Opener {
        Opener {
            record: self.record.clone(),
            at: self.at.clone(),
        }
    }

    /// Publishes the session (first sight, or a newly learned attribute) and its capabilities
    /// once, when the line states its identity.
    pub fn announce(&self, st: &mut SessionState, out: &mut Vec<IngestMessage>) {
        if !self.structural {
            return;
        }
        let attrs = Attributes {
            cwd: self.cwd.map(str::to_string),
            created_at: self.at.clone(),
            runtime_version: self.version.map(str::to_string),
            delegated_from: self.delegated.clone(),
        };
        if let Some(session) = st.observe(&self.session, self.record, attrs) {
            out.push(IngestMessage::Session(session));
        }
        if !st.caps_sent {
            st.caps_sent = true;
            out.push(IngestMessage::Capabilities(
                capabilities::transcript().stamped(&self.session.native_id, ADAPTER_VERSION),
            ));
        }
    }
}
