//! The text agent transcript (`agent-transcripts/<id>.txt`, Cursor builds of 2025 and early
//! 2026), framed one line per record. Blocks start with a line `user:` or `assistant:`; the
//! human's text is wrapped in `<user_query>`; reasoning is `[Thinking] <title>` followed by
//! one paragraph (older builds, so its extent is heuristic) or `<think>` … `</think>` (2026);
//! a tool call is `[Tool call] <Name>` with two-space-indented `key: value` lines; a result is
//! only the marker `[Tool result] <Name>`: its body was never stored, so no output, exit code
//! or confirmed edit can be read here and the declaration says so.
//!
//! Facts are published as their lines arrive: a paragraph, prompt or call grows by
//! re-publishing its item under the key of its first line, so appended lines and a resumed
//! read give the same items as one pass.

use fornax_types::kit::json::kind_of;
use fornax_types::{
    AgentAdapter, CapabilityProbe, EvidenceStrength, IngestMessage, NativeRecord,
    NormalizationOutcome, Provider, RuntimeCapabilities,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::capabilities;
use crate::conversation::{user_query, At, Conversation, TEXT_LIMIT};
use crate::layout;
use crate::ADAPTER_VERSION;

const CHECKPOINT_FORMAT: u32 = 1;

/// Whether a line opens a text transcript: its first block header.
pub fn is_text_transcript_line(v: &Value) -> bool {
    v.as_str()
        .is_some_and(|l| matches!(l.trim_end(), "user:" | "assistant:"))
}

/// What the lines being read belong to.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
enum Mode {
    /// Before the first block.
    #[default]
    Outside,
    /// A `user:` block: the prompt as written so far.
    User {
        key: String,
        raw: String,
        opened: bool,
    },
    /// An `assistant:` block between facts.
    Assistant,
    /// Agent text: one paragraph run, blank lines kept inside it.
    Text {
        key: String,
        text: String,
        blanks: usize,
    },
    /// `[Thinking] <title>`, then (after a blank line) its body paragraph.
    Thinking {
        key: String,
        text: String,
        gap: bool,
    },
    /// `<think>` … `</think>`.
    Think { key: String, text: String },
    /// `[Tool call] <Name>` and its argument lines.
    Call {
        key: String,
        name: String,
        args: Map<String, Value>,
        last: Option<String>,
    },
}

/// Normalizes the lines of one text agent transcript.
#[derive(Debug, Default)]
pub struct CursorTextAdapter {
    conv: Conversation,
    mode: Mode,
}

#[derive(Serialize, Deserialize)]
struct Snapshot {
    conv: Conversation,
    mode: Mode,
}

fn grow(text: &mut String, line: &str) {
    if text.len() < TEXT_LIMIT * 2 {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(line);
    }
}

impl CapabilityProbe for CursorTextAdapter {
    fn probe(&self) -> RuntimeCapabilities {
        capabilities::text_transcript()
    }
}

impl AgentAdapter for CursorTextAdapter {
    fn provider(&self) -> Provider {
        Provider::Cursor
    }

    fn adapter_version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn normalize(&mut self, hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome {
        let Some(line) = native.value.as_str() else {
            return NormalizationOutcome::Unrecognized {
                discriminator: kind_of(native.value).to_string(),
            };
        };
        let mut out = Vec::new();
        self.conv.identify(
            layout::place(native.location, hint),
            native.record,
            capabilities::text_transcript,
            &mut out,
        );
        let reason = self.line(hint, native, line.trim_end_matches('\r'), &mut out);
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
        fornax_types::kit::checkpoint::save(
            CHECKPOINT_FORMAT,
            &Snapshot {
                conv: self.conv.clone(),
                mode: self.mode.clone(),
            },
        )
    }

    fn resume(&mut self, snapshot: &Value) -> bool {
        match fornax_types::kit::checkpoint::load::<Snapshot>(CHECKPOINT_FORMAT, snapshot) {
            Some(s) => {
                self.conv = s.conv;
                self.mode = s.mode;
                true
            }
            None => false,
        }
    }
}

impl CursorTextAdapter {
    fn line(
        &mut self,
        hint: &str,
        native: &NativeRecord<'_>,
        line: &str,
        out: &mut Vec<IngestMessage>,
    ) -> &'static str {
        let pos = native.record.position;
        let here = native.record;
        match line {
            "user:" => {
                self.mode = Mode::User {
                    key: format!("prompt:r{pos}"),
                    raw: String::new(),
                    opened: false,
                };
                return "block header";
            }
            "assistant:" => {
                self.mode = Mode::Assistant;
                return "block header";
            }
            _ => {}
        }
        let blank = line.trim().is_empty();
        let mode = std::mem::take(&mut self.mode);
        self.mode = match mode {
            Mode::Outside => {
                self.mode = Mode::Outside;
                return "text before the first block";
            }
            Mode::User {
                key,
                mut raw,
                mut opened,
            } => {
                grow(&mut raw, line);
                let query = user_query(&raw);
                if !query.is_empty() && !query.starts_with("<user_query>") {
                    let at = At::one(here, &None, out);
                    if opened {
                        self.conv.prompt_text(hint, key.clone(), query, at);
                    } else {
                        self.conv.prompt(hint, key.clone(), query, at);
                        opened = true;
                    }
                }
                Mode::User { key, raw, opened }
            }
            Mode::Call {
                key,
                name,
                mut args,
                last,
            } if line.starts_with("  ") && !blank => {
                let arg = line.trim_start();
                let last = match arg.split_once(": ") {
                    Some((k, v)) if !k.contains(' ') => {
                        args.insert(k.to_string(), Value::String(v.to_string()));
                        Some(k.to_string())
                    }
                    _ => {
                        // A continuation of the previous argument's value.
                        if let Some(Value::String(v)) = last.as_ref().and_then(|k| args.get_mut(k))
                        {
                            v.push('\n');
                            v.push_str(arg);
                        }
                        last
                    }
                };
                let input = Value::Object(args.clone());
                self.conv
                    .tool_call(hint, key.clone(), &name, &input, At::one(here, &None, out));
                Mode::Call {
                    key,
                    name,
                    args,
                    last,
                }
            }
            Mode::Think { key, mut text } => match line.find("</think>") {
                Some(end) => {
                    grow(&mut text, &line[..end]);
                    self.publish_thinking(
                        hint,
                        &key,
                        &text,
                        EvidenceStrength::Structural,
                        here,
                        out,
                    );
                    let rest = line[end + "</think>".len()..].trim();
                    if rest.is_empty() {
                        Mode::Assistant
                    } else {
                        self.text_line(hint, Mode::Assistant, rest, pos, here, out)
                    }
                }
                None => {
                    grow(&mut text, line);
                    self.publish_thinking(
                        hint,
                        &key,
                        &text,
                        EvidenceStrength::Structural,
                        here,
                        out,
                    );
                    Mode::Think { key, text }
                }
            },
            Mode::Thinking { key, text, gap } if blank && !gap => Mode::Thinking {
                key,
                text,
                gap: true,
            },
            Mode::Thinking {
                key,
                mut text,
                gap: true,
            } if !blank && !is_marker(line) => {
                // The one paragraph after an older `[Thinking]` title is its body.
                grow(&mut text, line);
                self.publish_thinking(hint, &key, &text, EvidenceStrength::Heuristic, here, out);
                Mode::Assistant
            }
            other => {
                if blank {
                    match other {
                        Mode::Text { key, text, blanks } => Mode::Text {
                            key,
                            text,
                            blanks: blanks + 1,
                        },
                        Mode::Call { .. } | Mode::Thinking { .. } => Mode::Assistant,
                        keep => keep,
                    }
                } else {
                    self.text_line(hint, other, line, pos, here, out)
                }
            }
        };
        "line with nothing new to publish"
    }

    fn publish_thinking(
        &mut self,
        hint: &str,
        key: &str,
        text: &str,
        strength: EvidenceStrength,
        here: &fornax_types::RecordRef,
        out: &mut Vec<IngestMessage>,
    ) {
        if !text.trim().is_empty() {
            self.conv.reasoning(
                hint,
                key.to_string(),
                text.trim(),
                strength,
                At::one(here, &None, out),
            );
        }
    }

    /// A non-blank line inside an assistant block that is not an argument line.
    fn text_line(
        &mut self,
        hint: &str,
        mode: Mode,
        line: &str,
        pos: u64,
        here: &fornax_types::RecordRef,
        out: &mut Vec<IngestMessage>,
    ) -> Mode {
        if let Some(rest) = line.strip_prefix("[Thinking]") {
            let key = format!("think:r{pos}");
            let text = rest.trim().to_string();
            self.publish_thinking(hint, &key, &text, EvidenceStrength::Heuristic, here, out);
            return Mode::Thinking {
                key,
                text,
                gap: false,
            };
        }
        if let Some(rest) = line.trim_start().strip_prefix("<think>") {
            let key = format!("think:r{pos}");
            return match rest.find("</think>") {
                Some(end) => {
                    self.publish_thinking(
                        hint,
                        &key,
                        &rest[..end],
                        EvidenceStrength::Structural,
                        here,
                        out,
                    );
                    Mode::Assistant
                }
                None => {
                    let text = rest.to_string();
                    self.publish_thinking(
                        hint,
                        &key,
                        &text,
                        EvidenceStrength::Structural,
                        here,
                        out,
                    );
                    Mode::Think { key, text }
                }
            };
        }
        if let Some(name) = line.strip_prefix("[Tool call]") {
            let key = format!("call:r{pos}");
            let name = name.trim().to_string();
            let args = Map::new();
            self.conv.tool_call(
                hint,
                key.clone(),
                &name,
                &Value::Object(args.clone()),
                At::one(here, &None, out),
            );
            return Mode::Call {
                key,
                name,
                args,
                last: None,
            };
        }
        if line.starts_with("[Tool result]") {
            return Mode::Assistant;
        }
        let (key, mut text) = match mode {
            Mode::Text {
                key,
                mut text,
                blanks,
            } => {
                for _ in 0..blanks.min(2) {
                    text.push('\n');
                }
                (key, text)
            }
            _ => (format!("text:r{pos}"), String::new()),
        };
        grow(&mut text, line);
        self.conv.agent_text(
            hint,
            key.clone(),
            text.trim(),
            true,
            At::one(here, &None, out),
        );
        Mode::Text {
            key,
            text,
            blanks: 0,
        }
    }
}

fn is_marker(line: &str) -> bool {
    line.starts_with("[Tool call]")
        || line.starts_with("[Tool result]")
        || line.starts_with("[Thinking]")
        || line.trim_start().starts_with("<think>")
}
