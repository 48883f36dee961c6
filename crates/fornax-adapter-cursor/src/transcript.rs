//! The JSONL agent transcript (`agent-transcripts/<id>/<id>.jsonl`, Cursor 2.x–3.x): one
//! message per line, `{"role": "user"|"assistant", "message": {"content": [blocks]}}`, a
//! `{"type": "turn_ended", "status"}` line after a turn in some builds and a
//! `{"type": "metadata", "metadata": {"overview"}}` line in others. No ids, no timestamps and
//! no tool results: keys derive from record positions, and tool output is declared
//! unavailable.

use fornax_types::kit::json::{discriminator, kind_of, str_at, text_at};
use fornax_types::{
    AgentAdapter, CapabilityProbe, EvidenceStrength, IngestMessage, LoopOutcome, NativeRecord,
    NormalizationOutcome, Provider, Role, RuntimeCapabilities,
};
use serde_json::Value;

use crate::capabilities;
use crate::conversation::{user_query, At, Conversation};
use crate::layout;
use crate::ADAPTER_VERSION;

const CHECKPOINT_FORMAT: u32 = 1;

/// Normalizes the lines of one JSONL agent transcript.
#[derive(Debug, Default)]
pub struct CursorTranscriptAdapter {
    conv: Conversation,
}

/// A block's text, whether the block is a string or `{text}`.
fn block_text(block: &Value) -> Option<&str> {
    block.as_str().or_else(|| text_at(block, "text"))
}

impl CapabilityProbe for CursorTranscriptAdapter {
    fn probe(&self) -> RuntimeCapabilities {
        capabilities::jsonl_transcript()
    }
}

impl AgentAdapter for CursorTranscriptAdapter {
    fn provider(&self) -> Provider {
        Provider::Cursor
    }

    fn adapter_version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn normalize(&mut self, hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome {
        let v = native.value;
        if !v.is_object() {
            return NormalizationOutcome::Unrecognized {
                discriminator: kind_of(v).to_string(),
            };
        }
        let mut out = Vec::new();
        self.conv.identify(
            layout::place(native.location, hint),
            native.record,
            capabilities::jsonl_transcript,
            &mut out,
        );
        let reason = match (str_at(v, "role"), str_at(v, "type")) {
            (Some(role), _) => match self.message(hint, native, role, &mut out) {
                Ok(reason) => reason,
                Err(tag) => {
                    return NormalizationOutcome::Unrecognized {
                        discriminator: discriminator(&tag),
                    }
                }
            },
            (None, Some("turn_ended")) => {
                let outcome = match str_at(v, "status") {
                    Some("success" | "completed") => LoopOutcome::Completed,
                    Some("aborted" | "cancelled") => LoopOutcome::Interrupted,
                    _ => LoopOutcome::Failed,
                };
                self.conv
                    .close(hint, Some(outcome), native.record, None, &mut out);
                "turn end without an open loop"
            }
            (None, Some("metadata")) => {
                if let Some(overview) = v.get("metadata").and_then(|m| text_at(m, "overview")) {
                    self.conv.name(overview, native.record, &mut out);
                }
                "metadata line without an overview"
            }
            (None, Some(other)) => {
                return NormalizationOutcome::Unrecognized {
                    discriminator: discriminator(other),
                }
            }
            (None, None) => {
                return NormalizationOutcome::Unrecognized {
                    discriminator: "<no role or type>".into(),
                }
            }
        };
        if out.is_empty() {
            NormalizationOutcome::Ignored { reason }
        } else {
            NormalizationOutcome::Messages(out)
        }
    }

    fn finish(&mut self) -> Vec<IngestMessage> {
        self.conv.finish("")
    }

    fn checkpoint(&self) -> Option<Value> {
        fornax_types::kit::checkpoint::save(CHECKPOINT_FORMAT, &self.conv)
    }

    fn resume(&mut self, snapshot: &Value) -> bool {
        match fornax_types::kit::checkpoint::load(CHECKPOINT_FORMAT, snapshot) {
            Some(conv) => {
                self.conv = conv;
                true
            }
            None => false,
        }
    }
}

impl CursorTranscriptAdapter {
    /// One message line. `Err` carries the discriminator of a role Cursor does not write.
    fn message(
        &mut self,
        hint: &str,
        native: &NativeRecord<'_>,
        role: &str,
        out: &mut Vec<IngestMessage>,
    ) -> Result<&'static str, String> {
        let v = native.value;
        let content = v.get("message").and_then(|m| m.get("content"));
        let blocks: Vec<&Value> = match content {
            Some(Value::Array(b)) => b.iter().collect(),
            Some(text @ Value::String(_)) => vec![text],
            _ => Vec::new(),
        };
        let pos = native.record.position;
        let ts = text_at(v, "timestamp").map(str::to_string);
        match role {
            "user" => {
                let text: Vec<&str> = blocks
                    .iter()
                    .filter(|b| matches!(str_at(b, "type"), None | Some("text")))
                    .filter_map(|b| block_text(b))
                    .collect();
                let text = user_query(&text.join("\n")).to_string();
                if text.is_empty() {
                    return Ok("user line with no text (a tool result block, which Cursor's transcripts do not hold as output)");
                }
                self.conv.prompt(
                    hint,
                    format!("prompt:r{pos}"),
                    &text,
                    At::one(native.record, &ts, out),
                );
                Ok("user line")
            }
            "assistant" => {
                let last_tool = blocks
                    .iter()
                    .rposition(|b| matches!(str_at(b, "type"), Some("tool_use" | "tool_call")));
                for (i, block) in blocks.iter().enumerate() {
                    let kind = str_at(block, "type").unwrap_or("text");
                    match kind {
                        "text" => {
                            if let Some(text) = block_text(block).filter(|t| !t.trim().is_empty()) {
                                let may_end = last_tool.is_none_or(|t| t < i);
                                self.conv.agent_text(
                                    hint,
                                    format!("msg:r{pos}:{i}"),
                                    text,
                                    may_end,
                                    At::one(native.record, &ts, out),
                                );
                            }
                        }
                        "thinking" | "reasoning" => {
                            if let Some(text) =
                                text_at(block, "thinking").or_else(|| block_text(block))
                            {
                                self.conv.reasoning(
                                    hint,
                                    format!("think:r{pos}:{i}"),
                                    text,
                                    EvidenceStrength::Structural,
                                    At::one(native.record, &ts, out),
                                );
                            }
                        }
                        "tool_use" | "tool_call" => {
                            let name = text_at(block, "name").unwrap_or("tool");
                            let input = block.get("input").cloned().unwrap_or(Value::Null);
                            self.conv.tool_call(
                                hint,
                                format!("call:r{pos}:{i}"),
                                name,
                                &input,
                                At::one(native.record, &ts, out),
                            );
                        }
                        _ => {
                            // A block kind Cursor has not been seen to write: its text is kept as
                            // an unknown runtime fact rather than dropped.
                            if let Some(text) = block_text(block).filter(|t| !t.trim().is_empty()) {
                                self.conv.runtime(
                                    hint,
                                    format!("unknown:r{pos}:{i}"),
                                    Role::RuntimeUnknown,
                                    text,
                                    EvidenceStrength::Heuristic,
                                    At::one(native.record, &ts, out),
                                );
                            }
                        }
                    }
                }
                Ok("assistant line with no text or calls")
            }
            other => Err(format!("role:{other}")),
        }
    }
}
