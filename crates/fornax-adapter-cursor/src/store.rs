//! The cursor-agent CLI's chat store, `store.db` (SQLite): a `meta` table whose value is
//! hex-encoded JSON (`agentId`, `name`, `mode`, `createdAt`, `lastUsedModel`,
//! `latestRootBlobId`) and a `blobs` table of the conversation's content-addressed blobs. The
//! database is read through the store, read-only and schema-checked (ADR 0006); one database
//! is one chat. The blobs' encoding is not documented, so they are counted, not read: the
//! declaration says the chat's messages are unavailable from this source.

use fornax_types::kit::json::{kind_of, text_at};
use fornax_types::kit::time::iso_from_epoch;
use fornax_types::{
    AgentAdapter, CapabilityProbe, DocumentDatabase, DocumentTable, DocumentTree, EvidenceStrength,
    IngestMessage, Item, NativeRecord, NormalizationOutcome, Provider, Role, RuntimeCapabilities,
    Semantic, SemanticValue, Session, SessionRef, TreeDoc, TreeGroup,
};
use serde_json::Value;

use crate::capabilities;
use crate::conversation::capped;
use crate::ADAPTER_VERSION;

/// The one group a chat store holds.
const CHAT: &str = "chat";

pub(crate) static STORE_DB: DocumentDatabase = DocumentDatabase {
    file_names: &["store.db"],
    tables: &[
        DocumentTable {
            name: "meta",
            key: "key",
            body: None,
            fields: &[("key", "key"), ("value", "value")],
            required: &["value"],
        },
        DocumentTable {
            name: "blobs",
            key: "id",
            body: None,
            fields: &[("id", "id")],
            required: &["data"],
        },
    ],
};

pub(crate) const TREE: DocumentTree = DocumentTree {
    root_marker: &[],
    database: Some(&STORE_DB),
    place,
    plan,
};

/// Every row belongs to the one chat: metadata first, then blobs by id.
fn place(member: &str, _value: Option<&Value>) -> Option<TreeDoc> {
    let (table, key) = member.split_once('/')?;
    let rank = match table {
        "meta" => 0,
        "blobs" => 1,
        _ => return None,
    };
    Some(TreeDoc {
        rank,
        id: Some(key.to_string()),
        group: Some(CHAT.to_string()),
        parent: None,
        sort_key: key.to_string(),
    })
}

fn plan(docs: &[TreeDoc]) -> Vec<TreeGroup> {
    let mut members: Vec<usize> = (0..docs.len())
        .filter(|&i| docs[i].group.as_deref() == Some(CHAT))
        .collect();
    members.sort_by(|&a, &b| {
        (docs[a].rank, &docs[a].sort_key).cmp(&(docs[b].rank, &docs[b].sort_key))
    });
    if members.is_empty() {
        return Vec::new();
    }
    vec![TreeGroup {
        name: CHAT.to_string(),
        members,
    }]
}

/// `7b22…` → the bytes; `None` for an odd length or a non-hex digit.
fn unhex(text: &str) -> Option<Vec<u8>> {
    let t = text.trim().as_bytes();
    if !t.len().is_multiple_of(2) {
        return None;
    }
    t.chunks(2)
        .map(|pair| {
            let digit = |c: u8| (c as char).to_digit(16);
            Some((digit(pair[0])? * 16 + digit(pair[1])?) as u8)
        })
        .collect()
}

/// The JSON a `meta` value holds: hex-encoded (as written), or plain JSON text.
fn meta_json(value: &str) -> Option<Value> {
    let bytes = unhex(value).unwrap_or_else(|| value.as_bytes().to_vec());
    serde_json::from_slice::<Value>(&bytes)
        .ok()
        .filter(Value::is_object)
}

/// Whether a document is a row of a cursor-agent chat store.
pub fn is_store_row(v: &Value) -> bool {
    (text_at(v, "key").is_some() && text_at(v, "value").is_some_and(|m| meta_json(m).is_some()))
        || (v.as_object().is_some_and(|o| o.len() == 1) && text_at(v, "id").is_some())
}

/// Normalizes the rows of one chat store.
#[derive(Debug, Default)]
pub struct CursorStoreAdapter {
    announced: bool,
}

impl CapabilityProbe for CursorStoreAdapter {
    fn probe(&self) -> RuntimeCapabilities {
        capabilities::chat_store()
    }
}

impl AgentAdapter for CursorStoreAdapter {
    fn provider(&self) -> Provider {
        Provider::Cursor
    }

    fn adapter_version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn normalize(&mut self, _hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome {
        let v = native.value;
        if !v.is_object() {
            return NormalizationOutcome::Unrecognized {
                discriminator: kind_of(v).to_string(),
            };
        }
        let table = native
            .member
            .and_then(|m| m.split_once('/'))
            .map(|(t, _)| t);
        match (table, text_at(v, "value")) {
            (Some("blobs"), _) | (None, None) if text_at(v, "id").is_some() => {
                NormalizationOutcome::Ignored {
                    reason:
                        "a conversation blob; its encoding is not documented, so it is not read",
                }
            }
            (_, Some(value)) => match meta_json(value) {
                Some(meta) => self.meta(&meta, native),
                None => NormalizationOutcome::Unrecognized {
                    discriminator: "meta:<value is neither hex JSON nor JSON>".into(),
                },
            },
            _ => NormalizationOutcome::Unrecognized {
                discriminator: "<row of an unknown table>".into(),
            },
        }
    }

    fn checkpoint(&self) -> Option<Value> {
        Some(serde_json::json!({"format": 1, "announced": self.announced}))
    }

    fn resume(&mut self, snapshot: &Value) -> bool {
        match (
            snapshot.get("format").and_then(Value::as_u64),
            snapshot.get("announced").and_then(Value::as_bool),
        ) {
            (Some(1), Some(announced)) => {
                self.announced = announced;
                true
            }
            _ => false,
        }
    }
}

impl CursorStoreAdapter {
    fn meta(&mut self, meta: &Value, native: &NativeRecord<'_>) -> NormalizationOutcome {
        let Some(agent) = text_at(meta, "agentId") else {
            return NormalizationOutcome::Ignored {
                reason: "chat metadata without an agent id",
            };
        };
        let session = SessionRef::new(Provider::Cursor, agent);
        let mut out = vec![IngestMessage::Session(Session {
            id: session.clone(),
            identity_record: native.record.clone(),
            cwd: None,
            name: text_at(meta, "name").map(str::to_string),
            created_at: meta.get("createdAt").and_then(iso_from_epoch),
            forked_from: None,
            delegated_from: None,
            runtime_version: None,
        })];
        if !self.announced {
            self.announced = true;
            out.push(IngestMessage::Capabilities(
                capabilities::chat_store().stamped(agent, ADAPTER_VERSION),
            ));
        }
        let mut facts = Vec::new();
        if let Some(model) = text_at(meta, "lastUsedModel") {
            facts.push(format!("last model: {model}"));
        }
        if let Some(mode) = text_at(meta, "mode") {
            facts.push(format!("mode: {mode}"));
        }
        if !facts.is_empty() {
            out.push(IngestMessage::Item(Item {
                session,
                key: "chat-store:meta".into(),
                loop_position: None,
                at: None,
                semantic: Semantic::new(
                    Role::RuntimeState,
                    SemanticValue::Text(capped(&format!(
                        "cursor-agent chat ({})",
                        facts.join(", ")
                    ))),
                    EvidenceStrength::Structural,
                ),
                records: vec![native.record.clone()],
            }));
        }
        NormalizationOutcome::Messages(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_json_meta() {
        let hex: String = br#"{"agentId":"a1","name":"n","createdAt":1775522590321}"#
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let meta = meta_json(&hex).unwrap();
        assert_eq!(meta["agentId"], "a1");
        assert!(meta_json("zz").is_none());
        assert!(meta_json("7b").is_none(), "odd JSON");
        assert!(is_store_row(&serde_json::json!({"key": "0", "value": hex})));
        assert!(is_store_row(&serde_json::json!({"id": "deadbeef"})));
        assert!(!is_store_row(
            &serde_json::json!({"key": "0", "value": "plain"})
        ));
    }

    #[test]
    fn one_chat_group_metadata_first() {
        let docs = vec![
            place("blobs/b2", None).unwrap(),
            place("meta/0", None).unwrap(),
            place("blobs/a1", None).unwrap(),
        ];
        assert!(place("other/x", None).is_none());
        let groups = plan(&docs);
        assert_eq!(groups.len(), 1);
        assert_eq!(groups[0].members, vec![1, 2, 0]);
    }
}
