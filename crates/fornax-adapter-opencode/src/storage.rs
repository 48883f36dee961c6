//! The import transport: opencode's storage documents, one at a time, in this order per
//! session: the session document, its messages in id order, then each message's parts in id
//! order. The JSON tree and `opencode.db` rows (read elsewhere) give the same documents.

use fornax_types::{
    AgentAdapter, CapabilityProbe, IngestMessage, NativeRecord, NormalizationOutcome, Provider,
    RuntimeCapabilities,
};
use serde_json::{json, Value};

use crate::documents::{classify, Doc};
use crate::json::{at, str_at};
use crate::outcome::{outcome, CHECKPOINT_VERSION};
use crate::tracker::{Ctx, Handled, Tracker, Transport};
use crate::ADAPTER_VERSION;

/// Translates storage documents. Stateful across documents of a session (message roles and
/// loops are known before the parts that need them).
#[derive(Debug, Clone)]
pub struct OpencodeStorageAdapter {
    tracker: Tracker,
}

impl Default for OpencodeStorageAdapter {
    fn default() -> Self {
        OpencodeStorageAdapter {
            tracker: Tracker::new(Transport::Storage),
        }
    }
}

impl CapabilityProbe for OpencodeStorageAdapter {
    fn probe(&self) -> RuntimeCapabilities {
        crate::capabilities::storage()
    }
}

/// Early trees left ids to the location: a part under `part/<message>/` without `messageID`, a
/// message under `message/<session>/` without `sessionID`. Gives them back, so the part joins
/// its message's loop; `None` when nothing is missing.
fn restore_ids(doc: &Value, member: &str) -> Option<Value> {
    let (field, top) = match classify(doc) {
        Ok(Doc::Part) => ("messageID", "part"),
        Ok(Doc::Message) => ("sessionID", "message"),
        _ => return None,
    };
    if str_at(doc, &[field]).is_some() {
        return None;
    }
    let folder = crate::tree::folder_of(member, top)?;
    let mut doc = doc.clone();
    doc.as_object_mut()?
        .insert(field.to_string(), Value::String(folder));
    Some(doc)
}

impl AgentAdapter for OpencodeStorageAdapter {
    fn provider(&self) -> Provider {
        Provider::Opencode
    }

    fn adapter_version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn normalize(&mut self, session_hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome {
        let restored = native.member.and_then(|m| restore_ids(native.value, m));
        let doc = restored.as_ref().unwrap_or(native.value);
        let mut out = Vec::new();
        let handled = match classify(doc) {
            Ok(Doc::Session) => {
                let ctx = Ctx {
                    record: native.record,
                    observed_at: None,
                    discriminator: "session",
                };
                self.tracker.session_document(doc, &ctx, &mut out)
            }
            Ok(Doc::Message) => {
                let ctx = Ctx {
                    record: native.record,
                    observed_at: None,
                    discriminator: "message",
                };
                let sid = self
                    .tracker
                    .resolve_session(str_at(doc, &["sessionID"]), session_hint);
                self.tracker.message(&sid, doc, &ctx, &mut out)
            }
            Ok(Doc::Part) => {
                let discriminator = match str_at(doc, &["type"]) {
                    Some("tool") => "part.tool",
                    Some("text") => "part.text",
                    Some("reasoning") => "part.reasoning",
                    _ => "part",
                };
                let ctx = Ctx {
                    record: native.record,
                    observed_at: None,
                    discriminator,
                };
                // Early parts carry no sessionID: their message knows the session.
                let from_message =
                    str_at(doc, &["messageID"]).and_then(|m| self.tracker.session_of_message(m));
                let sid = self.tracker.resolve_session(
                    str_at(doc, &["sessionID"]).or(from_message.as_deref()),
                    session_hint,
                );
                self.tracker.part(&sid, doc, false, &ctx, &mut out)
            }
            Ok(Doc::Project) => Handled::Ignored("project document"),
            Ok(Doc::Share) => Handled::Ignored("share link document"),
            Ok(Doc::SessionDiff) => {
                Handled::Ignored("session diff summary; per-call file changes come from tool parts")
            }
            Ok(Doc::Todo) => Handled::Ignored("todo list"),
            Ok(Doc::EmptyList) => Handled::Ignored("empty list document"),
            Err(discriminator) => Handled::Unknown(discriminator),
        };
        outcome(handled, out)
    }

    fn finish(&mut self) -> Vec<IngestMessage> {
        self.tracker.finish()
    }

    fn checkpoint(&self) -> Option<Value> {
        let tracker = serde_json::to_value(&self.tracker).ok()?;
        Some(json!({"v": CHECKPOINT_VERSION, "transport": "storage", "tracker": tracker}))
    }

    fn resume(&mut self, state: &Value) -> bool {
        if at(state, &["v"]).and_then(Value::as_u64) != Some(CHECKPOINT_VERSION)
            || str_at(state, &["transport"]) != Some("storage")
        {
            return false;
        }
        let Some(tracker) = at(state, &["tracker"]) else {
            return false;
        };
        match Tracker::deserialize_for(tracker, Transport::Storage) {
            Some(t) => {
                self.tracker = t;
                true
            }
            None => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn ids_missing_from_early_trees_come_back_from_the_location() {
        let part = json!({"id": "p_user_1", "type": "text", "text": "Hello"});
        let restored = restore_ids(&part, "part/m_user_small/001.json").unwrap();
        assert_eq!(restored["messageID"], "m_user_small");
        let message = json!({"id": "msg_1", "role": "user", "time": {"created": 1}});
        let restored = restore_ids(&message, "message/ses_1/msg_1.json").unwrap();
        assert_eq!(restored["sessionID"], "ses_1");
        let complete = json!({"id": "prt_1", "messageID": "msg_1", "type": "text"});
        assert!(restore_ids(&complete, "part/msg_1/prt_1.json").is_none());
        assert!(
            restore_ids(&part, "part/prt_1.json").is_none(),
            "flat legacy layout"
        );
    }
}
