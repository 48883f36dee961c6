//! The prompt history and thread index Codex keeps beside its rollouts, read by their own
//! adapter ([`CodexHistoryAdapter`], `codex-history`):
//!
//! * `~/.codex/history.jsonl`: one row `{session_id, ts, text}` per prompt the human submitted
//!   (`ts` in Unix seconds), across every session;
//! * `~/.codex/session_index.jsonl`: one row `{id, thread_name, updated_at}` per rename of a
//!   thread; the last row of an id holds its current title.
//!
//! Each row names its session, so each publishes that session (a title row with its name). A
//! prompt becomes a `human.request` item of its session outside any loop, keyed by its time
//! and text: the history row has no message id to pair it with the rollout's witness of the
//! same prompt, so it stays a separate item, and it survives when the rollout is gone.
//! Capabilities are not announced from here: the rollout's declaration for the same
//! transport is the one that counts.

use fornax_types::kit::{time::iso_from_epoch, BoundedMap};
use fornax_types::{
    AgentAdapter, CapabilityProbe, EvidenceStrength, IngestMessage, Item, NativeRecord,
    NormalizationOutcome, Provider, Role, RuntimeCapabilities, Semantic, SemanticValue, Session,
    SessionRef, SignalAvailability, SignalClass, SourceKind, TextValue,
};
use serde_json::{Map, Value};

use crate::adapter::ADAPTER_VERSION;
use crate::text::{fingerprint, MESSAGE_TEXT_LIMIT};

/// Sessions already published by one adapter (one history file names many).
const ANNOUNCED_CAP: usize = 4096;

/// Reads `history.jsonl` and `session_index.jsonl` rows.
#[derive(Debug)]
pub struct CodexHistoryAdapter {
    announced: BoundedMap<()>,
}

impl Default for CodexHistoryAdapter {
    fn default() -> Self {
        CodexHistoryAdapter {
            announced: BoundedMap::new(ANNOUNCED_CAP),
        }
    }
}

/// The two row shapes, told apart by their fields.
enum Row<'a> {
    Prompt {
        session: &'a str,
        ts: &'a Value,
        text: &'a str,
    },
    Title {
        session: &'a str,
        name: &'a str,
    },
}

fn row(obj: &Map<String, Value>) -> Option<Row<'_>> {
    let text = |k: &str| {
        obj.get(k)
            .and_then(Value::as_str)
            .filter(|s| !s.trim().is_empty())
    };
    if let (Some(session), Some(ts), Some(body)) = (
        text("session_id"),
        obj.get("ts").filter(|t| t.is_number()),
        obj.get("text").and_then(Value::as_str),
    ) {
        return Some(Row::Prompt {
            session,
            ts,
            text: body,
        });
    }
    if let (Some(session), Some(name)) = (text("id"), text("thread_name")) {
        return Some(Row::Title { session, name });
    }
    None
}

/// Whether `v` is a row of `history.jsonl` or `session_index.jsonl`: exactly the fields Codex
/// writes there (so a rollout line or another agent's record never matches).
pub fn is_history_row(v: &Value) -> bool {
    let Some(obj) = v.as_object() else {
        return false;
    };
    let only = |keys: &[&str]| obj.keys().all(|k| keys.contains(&k.as_str()));
    match row(obj) {
        Some(Row::Prompt { .. }) => only(&["session_id", "ts", "text"]),
        Some(Row::Title { .. }) => only(&["id", "thread_name", "updated_at"]),
        None => false,
    }
}

impl CapabilityProbe for CodexHistoryAdapter {
    fn probe(&self) -> RuntimeCapabilities {
        use SignalAvailability::{Available, Unsupported};
        let none = "the prompt history holds only what the human typed";
        RuntimeCapabilities::new(Provider::Codex, SourceKind::File)
            .declare(
                SignalClass::SessionLifecycle,
                Available,
                "each row names its session (history session_id, index id); no start or end",
            )
            .declare(
                SignalClass::HumanInput,
                Available,
                "history.jsonl: the text of every submitted prompt and when (Unix seconds)",
            )
            .declare(SignalClass::LoopLifecycle, Unsupported, none)
            .declare(SignalClass::FinalResponse, Unsupported, none)
            .declare(SignalClass::AgentCommentary, Unsupported, none)
            .declare(SignalClass::Reasoning, Unsupported, none)
            .declare(SignalClass::ToolInvocation, Unsupported, none)
            .declare(SignalClass::ToolOutput, Unsupported, none)
            .declare(SignalClass::ProcessResult, Unsupported, none)
            .declare(SignalClass::FileMutation, Unsupported, none)
            .declare(SignalClass::SubagentLifecycle, Unsupported, none)
    }
}

impl AgentAdapter for CodexHistoryAdapter {
    fn provider(&self) -> Provider {
        Provider::Codex
    }

    fn adapter_version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn normalize(&mut self, _hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome {
        let Some(obj) = native.value.as_object() else {
            return NormalizationOutcome::Unrecognized {
                discriminator: "<not a JSON object>".into(),
            };
        };
        let Some(row) = row(obj) else {
            return NormalizationOutcome::Unrecognized {
                discriminator: "<history row without session_id/ts/text or id/thread_name>".into(),
            };
        };
        let session_of = |id: &str| Session {
            id: SessionRef::new(Provider::Codex, id),
            identity_record: native.record.clone(),
            cwd: None,
            name: None,
            created_at: None,
            forked_from: None,
            delegated_from: None,
            runtime_version: None,
        };
        let mut out = Vec::new();
        match row {
            Row::Title { session, name } => {
                // Every rename is published: the last one read is the current title.
                self.announced.insert_new(session, ());
                out.push(IngestMessage::Session(Session {
                    name: Some(name.to_string()),
                    ..session_of(session)
                }));
            }
            Row::Prompt { session, ts, text } => {
                if text.trim().is_empty() {
                    return NormalizationOutcome::Ignored {
                        reason: "prompt history row without text",
                    };
                }
                if self.announced.insert_new(session, ()) {
                    out.push(IngestMessage::Session(session_of(session)));
                }
                let at = iso_from_epoch(ts);
                let key = format!(
                    "history:{}:{:016x}",
                    ts.as_f64().map(|t| t.to_string()).unwrap_or_default(),
                    fingerprint(text)
                );
                out.push(IngestMessage::Item(Item {
                    session: SessionRef::new(Provider::Codex, session),
                    key,
                    loop_position: None,
                    at,
                    semantic: Semantic::new(
                        Role::HumanRequest,
                        SemanticValue::Text(TextValue::capped(text, MESSAGE_TEXT_LIMIT)),
                        EvidenceStrength::Structural,
                    ),
                    records: vec![native.record.clone()],
                }));
            }
        }
        NormalizationOutcome::Messages(out)
    }

    fn checkpoint(&self) -> Option<Value> {
        Some(serde_json::json!({"schema": 1, "announced": self.announced.keys()}))
    }

    fn resume(&mut self, state: &Value) -> bool {
        if state.get("schema").and_then(Value::as_u64) != Some(1) {
            return false;
        }
        let Some(ids) = state.get("announced").and_then(Value::as_array) else {
            return false;
        };
        self.announced = BoundedMap::new(ANNOUNCED_CAP);
        for id in ids.iter().filter_map(Value::as_str) {
            self.announced.insert_new(id, ());
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fornax_types::{RecordRef, SourceId};
    use serde_json::json;

    fn run(rows: &[Value]) -> Vec<NormalizationOutcome> {
        let mut a = CodexHistoryAdapter::default();
        let source = SourceId::new("h");
        rows.iter()
            .enumerate()
            .map(|(i, v)| {
                let r = RecordRef::new(source.clone(), i as u64);
                a.normalize("history", &NativeRecord::new(&r, v))
            })
            .collect()
    }

    #[test]
    fn prompts_and_titles() {
        let out = run(&[
            json!({"session_id": "s1", "ts": 1785015470, "text": "fix the flaky test"}),
            json!({"session_id": "s1", "ts": 1785015480, "text": "and commit it"}),
            json!({"id": "s1", "thread_name": "flaky test", "updated_at": "2026-07-25T21:40:00Z"}),
            json!({"session_id": "s1", "ts": 1785015490, "text": "  "}),
        ]);
        let msgs: Vec<IngestMessage> = out.iter().flat_map(|o| o.clone().messages()).collect();
        let sessions: Vec<&Session> = msgs
            .iter()
            .filter_map(|m| match m {
                IngestMessage::Session(s) => Some(s),
                _ => None,
            })
            .collect();
        assert_eq!(sessions.len(), 2, "announced once, then renamed");
        assert_eq!(sessions[1].name.as_deref(), Some("flaky test"));
        let items: Vec<&Item> = msgs
            .iter()
            .filter_map(|m| match m {
                IngestMessage::Item(i) => Some(i),
                _ => None,
            })
            .collect();
        assert_eq!(items.len(), 2);
        assert_eq!(items[0].semantic.role, Role::HumanRequest);
        assert_eq!(items[0].at.as_deref(), Some("2026-07-25T21:37:50.000Z"));
        assert_ne!(items[0].key, items[1].key);
        assert!(matches!(out[3], NormalizationOutcome::Ignored { .. }));
    }

    #[test]
    fn sniff_accepts_only_the_two_row_shapes() {
        assert!(is_history_row(
            &json!({"session_id": "s", "ts": 1, "text": "hi"})
        ));
        assert!(is_history_row(
            &json!({"id": "s", "thread_name": "t", "updated_at": "2026-01-01T00:00:00Z"})
        ));
        assert!(!is_history_row(
            &json!({"session_id": "s", "ts": 1, "text": "hi", "type": "user"})
        ));
        assert!(!is_history_row(
            &json!({"timestamp": "t", "type": "session_meta", "payload": {"id": "x"}})
        ));
        assert!(!is_history_row(&json!({"id": "x", "timestamp": "t"})));
    }
}
