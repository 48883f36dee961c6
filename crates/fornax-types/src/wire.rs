//! The wire: one versioned message type for everything that flows from capture to the store.
//!
//! A [`WireMessage`] is a JSON object with the wire version `v`, a `type` tag and the fields of
//! the message itself, flattened:
//!
//! ```json
//! {"v":1,"type":"item","session":{"provider":"codex","native_id":"0199..."},"key":"r12", ...}
//! ```
//!
//! Readers reject a `v` they do not know instead of guessing.
//!
//! # Message types
//!
//! ## `source`
//! A [`Source`]: `{"type":"source","id","provider","kind":"file|hook_stream|plugin_stream","locator"}`.
//!
//! ## `record`
//! A [`Record`]: `{"type":"record","source","position","byte_range"?:{"start","end"},
//! "fingerprint":"<64 hex>","runtime_timestamp"?}`. Never the bytes themselves.
//!
//! ## `capabilities`
//! A [`RuntimeCapabilities`]: `{"type":"capabilities","schema_version":1,"provider",
//! "transport"?,"signals":{"<class>":{"availability","detail"?}},"notes":{...}}`.
//!
//! ## `session`
//! A [`Session`]: `{"type":"session","provider","native_id","identity_record":{"source",
//! "position"},"cwd"?,"name"?,"created_at"?,"forked_from"?,"delegated_from"?,"runtime_version"?}`.
//!
//! ## `loop`
//! A [`Loop`]: `{"type":"loop","session":{"provider","native_id"},"position","native_id"?,
//! "start_record","started_at"?,"end"?:{"record","outcome","ended_at"?},"model"?,"usage"?,
//! "runtime_version"?}`. Published again as it progresses; upsert by `(session, position)`.
//!
//! ## `item`
//! An [`Item`]: `{"type":"item","session","key","loop_position"?,"at"?,"semantic":{"role",
//! "value":{"kind",...},"evidence_strength"},"records":[...]}`. Upsert by `(session, key)`.
//!
//! ## `evidence`
//! An [`Evidence`]: `{"type":"evidence","id","session","kind","payload","source","provenance",
//! "extension"?,"item_key"?,"loop_position"?,"at"?,"records"?}`.
//!
//! ## `usage`
//! A [`UsageFact`]: `{"type":"usage","session","key","loop_position"?,"at"?,"model"?,
//! "tokens":{"input","output","cache_creation","cache_read","reasoning"?},"reported_cost_usd"?,
//! "record"}`. Upsert by `(provider, key)`: the same call seen in two files counts once.
//!
//! ## `claim`
//! A [`Claim`]: `{"type":"claim","id","session","item_key","subject","text","target"}`.
//!
//! ## `finding`
//! A [`Finding`]: `{"type":"finding","claim_id","session","verdict","reason","evidence",
//! "rule"}`.

use serde::{Deserialize, Serialize};

use crate::{
    Claim, Evidence, Finding, Item, Loop, Provider, Record, RuntimeCapabilities, Session, Source,
    UsageFact,
};

/// Version of the wire format written by this binary.
pub const WIRE_VERSION: u32 = 1;

/// Everything that may flow from capture towards the store.
///
/// Variants differ in size; messages are produced and consumed one at a time, never stored in
/// bulk, so boxing the large ones would only add allocations on the hot path.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum IngestMessage {
    Source(Source),
    Record(Record),
    Capabilities(RuntimeCapabilities),
    Session(Session),
    Loop(Loop),
    Item(Item),
    Evidence(Evidence),
    Usage(UsageFact),
    Claim(Claim),
    Finding(Finding),
}

impl IngestMessage {
    /// The wire tag of this message.
    pub fn type_name(&self) -> &'static str {
        match self {
            IngestMessage::Source(_) => "source",
            IngestMessage::Record(_) => "record",
            IngestMessage::Capabilities(_) => "capabilities",
            IngestMessage::Session(_) => "session",
            IngestMessage::Loop(_) => "loop",
            IngestMessage::Item(_) => "item",
            IngestMessage::Evidence(_) => "evidence",
            IngestMessage::Usage(_) => "usage",
            IngestMessage::Claim(_) => "claim",
            IngestMessage::Finding(_) => "finding",
        }
    }

    /// The provider this message speaks for, when it names one.
    pub fn provider(&self) -> Option<&Provider> {
        match self {
            IngestMessage::Source(s) => Some(&s.provider),
            IngestMessage::Record(_) => None,
            IngestMessage::Capabilities(c) => Some(&c.provider),
            IngestMessage::Session(s) => Some(&s.id.provider),
            IngestMessage::Loop(l) => Some(&l.session.provider),
            IngestMessage::Item(i) => Some(&i.session.provider),
            IngestMessage::Evidence(e) => Some(&e.session.provider),
            IngestMessage::Usage(u) => Some(&u.session.provider),
            IngestMessage::Claim(c) => Some(&c.session.provider),
            IngestMessage::Finding(f) => Some(&f.session.provider),
        }
    }
}

/// A message with its wire version.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct WireMessage {
    pub v: u32,
    #[serde(flatten)]
    pub message: IngestMessage,
}

impl WireMessage {
    pub fn new(message: IngestMessage) -> Self {
        WireMessage {
            v: WIRE_VERSION,
            message,
        }
    }

    pub fn to_json(&self) -> String {
        // Serializing these types cannot fail: every map key is a string.
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<Self, serde_json::Error> {
        serde_json::from_str(text)
    }
}

impl<'de> Deserialize<'de> for WireMessage {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut value = serde_json::Value::deserialize(d)?;
        let obj = value
            .as_object_mut()
            .ok_or_else(|| serde::de::Error::custom("wire message is not a JSON object"))?;
        let v = obj
            .remove("v")
            .and_then(|v| v.as_u64())
            .ok_or_else(|| serde::de::Error::custom("wire message has no version `v`"))?;
        if v != u64::from(WIRE_VERSION) {
            return Err(serde::de::Error::custom(format!(
                "wire version {v} is not supported (this binary reads version {WIRE_VERSION})"
            )));
        }
        let message = IngestMessage::deserialize(value).map_err(serde::de::Error::custom)?;
        Ok(WireMessage {
            v: WIRE_VERSION,
            message,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::*;

    fn session() -> Session {
        Session {
            id: SessionRef::new(Provider::Codex, "abc"),
            identity_record: RecordRef::new(SourceId::new("src"), 0),
            cwd: Some("/work/x".into()),
            name: None,
            created_at: None,
            forked_from: None,
            delegated_from: None,
            runtime_version: Some("0.98.0".into()),
        }
    }

    #[test]
    fn session_round_trips_with_version() {
        let msg = WireMessage::new(IngestMessage::Session(session()));
        let json = msg.to_json();
        assert!(json.starts_with("{\"v\":1,\"type\":\"session\""), "{json}");
        assert_eq!(WireMessage::from_json(&json).unwrap(), msg);
    }

    #[test]
    fn unknown_version_is_refused_loudly() {
        let json = WireMessage::new(IngestMessage::Session(session())).to_json();
        let json = json.replacen("\"v\":1", "\"v\":7", 1);
        let err = WireMessage::from_json(&json).unwrap_err().to_string();
        assert!(err.contains("wire version 7"), "{err}");
    }

    #[test]
    fn item_round_trips() {
        let item = Item {
            session: SessionRef::new(Provider::ClaudeCode, "s"),
            key: "u1".into(),
            loop_position: Some(0),
            at: None,
            semantic: Semantic::new(
                Role::AgentToolCallShell,
                SemanticValue::ShellCall(ShellCallValue {
                    call_id: Some("toolu_1".into()),
                    tool_name: "Bash".into(),
                    command: "cargo test".into(),
                    invocations: shell::parse_invocations("cargo test"),
                    cwd: None,
                    timeout_ms: None,
                }),
                EvidenceStrength::Structural,
            ),
            records: vec![RecordRef::new(SourceId::new("f"), 4)],
        };
        let msg = WireMessage::new(IngestMessage::Item(item));
        assert_eq!(WireMessage::from_json(&msg.to_json()).unwrap(), msg);
    }
}
