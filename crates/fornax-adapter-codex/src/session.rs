//! Session identity: `session_meta` (envelope) or the legacy header.
//!
//! The first identity record of a file names the session. Later `session_meta` lines with the
//! same id come from a resume (their `cli_version` applies to the loops that follow); lines
//! with another id are the inherited history a fork or a spawned thread copies in.

use fornax_types::{
    Delegation, EvidenceStrength, IngestMessage, Provider, Role, SemanticValue, Session,
    SessionRef, TextValue,
};
use serde_json::Value;

use crate::adapter::{CodexAdapter, Ctx, Handled, ADAPTER_VERSION};
use crate::text::{nonempty, timestamp, INSTRUCTIONS_LIMIT};
use fornax_types::CapabilityProbe;

impl CodexAdapter {
    pub(crate) fn session_meta(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let Some(id) = nonempty(p, "id").or_else(|| nonempty(p, "session_id")) else {
            return Handled::Ignored("session_meta without an id");
        };
        if let Some(known) = &self.st.session {
            if known.id.native_id != id {
                return Handled::Ignored("session_meta of an inherited history (fork or spawn)");
            }
            if let Some(version) = nonempty(p, "cli_version") {
                self.st.version = Some(version.to_string());
            }
            return Handled::Ignored("repeated session_meta (resume)");
        }
        let session = Session {
            id: SessionRef::new(Provider::Codex, id),
            identity_record: cx.record.clone(),
            cwd: nonempty(p, "cwd").map(str::to_string),
            name: None,
            created_at: timestamp(p.get("timestamp")).or_else(|| cx.at.clone()),
            forked_from: nonempty(p, "forked_from_id").map(str::to_string),
            delegated_from: delegation(p),
            runtime_version: nonempty(p, "cli_version").map(str::to_string),
        };
        self.publish_session(session, cx);
        let instructions = nonempty(p, "instructions").or_else(|| {
            p.get("base_instructions")
                .and_then(|b| b.as_str().or_else(|| nonempty(b, "text")))
        });
        self.instructions_item(instructions, cx);
        Handled::Done
    }

    /// `{id, timestamp, instructions, git?, ...}`: the first line of a pre-envelope rollout.
    pub(crate) fn legacy_header(&mut self, v: &Value, cx: &mut Ctx<'_>) -> Handled {
        let Some(id) = nonempty(v, "id") else {
            return Handled::Ignored("legacy header without an id");
        };
        if self.st.session.is_some() {
            return Handled::Ignored("legacy header after the session was identified");
        }
        let session = Session {
            id: SessionRef::new(Provider::Codex, id),
            identity_record: cx.record.clone(),
            cwd: nonempty(v, "cwd").map(str::to_string),
            name: None,
            created_at: timestamp(v.get("timestamp")),
            forked_from: None,
            delegated_from: None,
            runtime_version: nonempty(v, "cli_version").map(str::to_string),
        };
        cx.at = timestamp(v.get("timestamp"));
        self.publish_session(session, cx);
        self.instructions_item(nonempty(v, "instructions"), cx);
        Handled::Done
    }

    pub(crate) fn thread_name_updated(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let name = nonempty(p, "thread_name").or_else(|| nonempty(p, "name"));
        match (&mut self.st.session, name) {
            (Some(session), Some(name)) => {
                session.name = Some(name.to_string());
                cx.out.push(IngestMessage::Session(session.clone()));
                Handled::Done
            }
            _ => Handled::Ignored("thread name without a known session"),
        }
    }

    fn publish_session(&mut self, session: Session, cx: &mut Ctx<'_>) {
        self.st.version = session.runtime_version.clone();
        let caps = self.probe().stamped(&session.id.native_id, ADAPTER_VERSION);
        cx.out.push(IngestMessage::Session(session.clone()));
        cx.out.push(IngestMessage::Capabilities(caps));
        self.st.session = Some(session);
    }

    fn instructions_item(&mut self, text: Option<&str>, cx: &mut Ctx<'_>) {
        let Some(text) = text.filter(|t| !t.trim().is_empty()) else {
            return;
        };
        let item = self.new_item(
            "instructions:session".into(),
            Role::RuntimeInstructions,
            SemanticValue::Text(TextValue::capped(text, INSTRUCTIONS_LIMIT)),
            EvidenceStrength::Structural,
            cx,
        );
        cx.out.push(IngestMessage::Item(item));
    }
}

/// A subagent thread's link to its parent: `source.subagent.thread_spawn.parent_thread_id`
/// or a top-level `parent_thread_id` next to a subagent source. Review subagents of 0.77 name
/// no parent, so they get none.
fn delegation(p: &Value) -> Option<Delegation> {
    let subagent = p.get("source").and_then(|s| s.get("subagent"))?;
    let spawn = subagent.get("thread_spawn");
    let parent = spawn
        .and_then(|s| nonempty(s, "parent_thread_id"))
        .or_else(|| nonempty(p, "parent_thread_id"))?;
    let field = |key: &str| {
        spawn
            .and_then(|s| nonempty(s, key))
            .or_else(|| nonempty(p, key))
    };
    let kind = match subagent {
        Value::String(s) => Some(s.as_str()),
        Value::Object(obj) => obj.keys().next().map(String::as_str),
        _ => None,
    };
    Some(Delegation {
        parent_native_id: parent.to_string(),
        call_id: None,
        agent_id: field("agent_path")
            .or_else(|| field("agent_nickname"))
            .map(str::to_string),
        agent_type: field("agent_role").or(kind).map(str::to_string),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn delegation_from_thread_spawn() {
        let d = delegation(&json!({"source": {"subagent": {"thread_spawn": {"parent_thread_id": "p1", "depth": 1, "agent_path": "root/worker", "agent_role": "explorer"}}}})).unwrap();
        assert_eq!(d.parent_native_id, "p1");
        assert_eq!(d.agent_id.as_deref(), Some("root/worker"));
        assert_eq!(d.agent_type.as_deref(), Some("explorer"));
        let d =
            delegation(&json!({"parent_thread_id": "p2", "source": {"subagent": {"other": "x"}}}))
                .unwrap();
        assert_eq!(d.agent_type.as_deref(), Some("other"));
        assert!(delegation(&json!({"source": {"subagent": "review"}})).is_none());
        assert!(delegation(&json!({"source": "cli", "parent_thread_id": "p"})).is_none());
    }
}
