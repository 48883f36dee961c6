//! The adapter itself: the `AgentAdapter` implementation and the dispatch of each record to
//! the handler of its generation and type.

use fornax_types::{
    AgentAdapter, CapabilityProbe, EvidenceStrength, IngestMessage, Item, NativeRecord,
    NormalizationOutcome, Provider, RecordRef, Role, RuntimeCapabilities, Semantic, SemanticValue,
    SessionRef, TextValue,
};
use serde_json::{json, Value};

use crate::messages::MessageWitness;
use crate::sniff::{is_legacy_header, ENVELOPE_TYPES};
use crate::state::{Scope, State, Stream, CHECKPOINT_SCHEMA};
use crate::text::{content_text, discriminator, str_of, timestamp};

/// This implementation's version, stamped on capabilities and evidence.
pub(crate) const ADAPTER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// Translates Codex rollout records (legacy flat files and every envelope generation) into
/// canonical messages. One adapter instance reads one rollout file, in order.
#[derive(Debug, Default)]
pub struct CodexAdapter {
    pub(crate) st: State,
    /// The session id to use until the rollout states its own (derived from the file stem).
    pub(crate) hint_id: String,
}

/// What a handler did with a record.
pub(crate) enum Handled {
    /// Messages (possibly none) were pushed to the context.
    Done,
    Ignored(&'static str),
    Unrecognized(String),
}

/// The record being normalized and the messages derived from it so far.
pub(crate) struct Ctx<'a> {
    pub record: &'a RecordRef,
    /// The runtime's timestamp of this line, when it wrote one.
    pub at: Option<String>,
    /// The native discriminator, for provenance breadcrumbs.
    pub tag: String,
    pub out: Vec<IngestMessage>,
}

impl Ctx<'_> {
    /// A key for a fact with no native id: derived from the record position.
    pub(crate) fn positional_key(&self, prefix: &str) -> String {
        format!("{prefix}:@{}", self.record.position)
    }
}

impl CapabilityProbe for CodexAdapter {
    fn probe(&self) -> RuntimeCapabilities {
        crate::capabilities::declaration()
    }
}

impl AgentAdapter for CodexAdapter {
    fn provider(&self) -> Provider {
        Provider::Codex
    }

    fn adapter_version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn normalize(&mut self, session_hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome {
        self.hint_id = session_id_from_hint(session_hint);
        let mut cx = Ctx {
            record: native.record,
            at: None,
            tag: String::new(),
            out: Vec::new(),
        };
        match self.dispatch(native.value, &mut cx) {
            Handled::Done => NormalizationOutcome::Messages(cx.out),
            // A handler may have published before deciding the rest is not for it.
            Handled::Ignored(_) | Handled::Unrecognized(_) if !cx.out.is_empty() => {
                NormalizationOutcome::Messages(cx.out)
            }
            Handled::Ignored(reason) => NormalizationOutcome::Ignored { reason },
            Handled::Unrecognized(tag) => NormalizationOutcome::Unrecognized {
                discriminator: discriminator(&tag),
            },
        }
    }

    fn finish(&mut self) -> Vec<IngestMessage> {
        // A loop still open is published with the usage seen so far; it stays open so that
        // records appended later continue it.
        self.st
            .current
            .iter()
            .map(|l| IngestMessage::Loop(l.lp.clone()))
            .collect()
    }

    fn checkpoint(&self) -> Option<Value> {
        let state = serde_json::to_value(&self.st).ok()?;
        Some(json!({"schema": CHECKPOINT_SCHEMA, "state": state}))
    }

    fn resume(&mut self, snapshot: &Value) -> bool {
        if snapshot.get("schema").and_then(Value::as_u64) != Some(u64::from(CHECKPOINT_SCHEMA)) {
            return false;
        }
        match snapshot
            .get("state")
            .map(|s| serde_json::from_value::<State>(s.clone()))
        {
            Some(Ok(state)) => {
                self.st = state;
                true
            }
            _ => false,
        }
    }
}

/// Rollout files are named `rollout-<timestamp>-<uuid>.jsonl`; the uuid is the session id.
fn session_id_from_hint(hint: &str) -> String {
    let stem = hint.trim_end_matches(".jsonl");
    if let Some(tail) = stem
        .len()
        .checked_sub(36)
        .and_then(|start| stem.get(start..))
    {
        let is_uuid = tail.char_indices().all(|(i, c)| match i {
            8 | 13 | 18 | 23 => c == '-',
            _ => c.is_ascii_hexdigit(),
        });
        if is_uuid {
            return tail.to_string();
        }
    }
    hint.to_string()
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "<json null>",
        Value::Bool(_) => "<json bool>",
        Value::Number(_) => "<json number>",
        Value::String(_) => "<json string>",
        Value::Array(_) => "<json array>",
        Value::Object(_) => "<json object>",
    }
}

impl CodexAdapter {
    fn dispatch(&mut self, v: &Value, cx: &mut Ctx<'_>) -> Handled {
        let Some(obj) = v.as_object() else {
            return Handled::Unrecognized(json_kind(v).to_string());
        };
        cx.at = timestamp(obj.get("timestamp"));
        match obj.get("type") {
            Some(Value::String(t)) if ENVELOPE_TYPES.contains(&t.as_str()) => {
                let Some(payload) = obj.get("payload").filter(|p| p.is_object()) else {
                    return Handled::Ignored("envelope line whose payload is not an object");
                };
                cx.tag = t.clone();
                self.envelope(t, payload, cx)
            }
            Some(Value::String(t)) if obj.contains_key("payload") => {
                Handled::Unrecognized(t.clone())
            }
            Some(Value::String(t)) => {
                // A bare response item: the pre-envelope format (no per-line timestamp; some
                // hand-made drift shapes carry `created_at`).
                if cx.at.is_none() {
                    cx.at = timestamp(obj.get("created_at"));
                }
                cx.tag = format!("legacy:{t}");
                self.response_item(t, v, cx, "")
            }
            Some(other) => Handled::Unrecognized(format!("<type is a {}>", json_kind(other))),
            None => {
                if obj.get("record_type").and_then(Value::as_str) == Some("state") {
                    return Handled::Ignored("legacy state marker");
                }
                if is_legacy_header(obj) {
                    cx.tag = "legacy:header".into();
                    return self.legacy_header(v, cx);
                }
                let role = str_of(v, "role");
                let text = v
                    .get("content")
                    .or_else(|| v.get("message"))
                    .and_then(content_text);
                if let (Some(role), Some(text)) = (role, text) {
                    if cx.at.is_none() {
                        cx.at = timestamp(obj.get("created_at"));
                    }
                    cx.tag = "legacy:untyped_message".into();
                    let w = MessageWitness::new(Stream::Response, role, text);
                    return self.message(w, cx);
                }
                Handled::Unrecognized("<untyped object>".into())
            }
        }
    }

    fn envelope(&mut self, t: &str, payload: &Value, cx: &mut Ctx<'_>) -> Handled {
        match t {
            "session_meta" => self.session_meta(payload, cx),
            "turn_context" => self.turn_context(payload, cx),
            "compacted" => self.compacted(payload, cx),
            "response_item" => match str_of(payload, "type") {
                Some(it) => {
                    cx.tag = format!("response_item:{it}");
                    self.response_item(it, payload, cx, "response_item:")
                }
                None => Handled::Unrecognized("response_item:<no type>".into()),
            },
            "event_msg" => match str_of(payload, "type") {
                Some(et) => {
                    cx.tag = format!("event_msg:{et}");
                    self.event(et, payload, cx)
                }
                None => Handled::Unrecognized("event_msg:<no type>".into()),
            },
            "inter_agent_communication" => self.inter_agent_message(payload, cx),
            "world_state" => Handled::Ignored("world_state: snapshot of the context settings"),
            "inter_agent_communication_metadata" => {
                Handled::Ignored("inter-agent delivery metadata")
            }
            "token_usage_record" => {
                Handled::Ignored("token usage record (loop usage is summed from token_count)")
            }
            "realtime_item" => Handled::Ignored("realtime audio session item"),
            "security_risk_score" => Handled::Ignored("security risk score bookkeeping"),
            _ => Handled::Unrecognized(t.to_string()),
        }
    }

    // ---- shared helpers ----------------------------------------------------------------------

    pub(crate) fn session_ref(&self) -> SessionRef {
        match &self.st.session {
            Some(s) => s.id.clone(),
            None => SessionRef::new(Provider::Codex, self.hint_id.clone()),
        }
    }

    pub(crate) fn current_position(&self) -> Option<u32> {
        self.st.current.as_ref().map(|l| l.lp.position)
    }

    /// The scope new messages land in: the open loop, or outside any loop.
    pub(crate) fn scope_mut(&mut self) -> &mut Scope {
        match &mut self.st.current {
            Some(l) => &mut l.scope,
            None => {
                if self.st.outside.label.is_empty() {
                    self.st.outside.label = "x".into();
                }
                &mut self.st.outside
            }
        }
    }

    pub(crate) fn note_agent_activity(&mut self) {
        if let Some(l) = &mut self.st.current {
            l.has_agent_activity = true;
        }
    }

    pub(crate) fn new_item(
        &self,
        key: String,
        role: Role,
        value: SemanticValue,
        strength: EvidenceStrength,
        cx: &Ctx<'_>,
    ) -> Item {
        Item {
            session: self.session_ref(),
            key,
            loop_position: self.current_position(),
            at: cx.at.clone(),
            semantic: Semantic::new(role, value, strength),
            records: vec![cx.record.clone()],
        }
    }

    /// Publishes a short runtime text (notice, context, compaction summary) keyed by position.
    pub(crate) fn text_item(
        &mut self,
        prefix: &str,
        role: Role,
        text: &str,
        limit: usize,
        cx: &mut Ctx<'_>,
    ) -> Handled {
        let item = self.new_item(
            cx.positional_key(prefix),
            role,
            SemanticValue::Text(TextValue::capped(text, limit)),
            EvidenceStrength::Structural,
            cx,
        );
        cx.out.push(IngestMessage::Item(item));
        Handled::Done
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_id_comes_from_the_rollout_file_stem() {
        assert_eq!(
            session_id_from_hint(
                "rollout-2025-12-09T20-55-16-019b04ae-b1c6-7c72-a134-a4c2de66058c"
            ),
            "019b04ae-b1c6-7c72-a134-a4c2de66058c"
        );
        assert_eq!(session_id_from_hint("notes"), "notes");
        assert_eq!(
            session_id_from_hint("ééééééééééééééééééééééééééééééééééééé"),
            "ééééééééééééééééééééééééééééééééééééé"
        );
    }
}
