//! The transcript transport: Claude Code's JSONL session files, one line per record.
//!
//! Main sessions live in `~/.claude/projects/<dashed-cwd>/<sessionId>.jsonl`; subagents in
//! `agent-<id>.jsonl` beside it (2.0.x) or `<sessionId>/subagents/agent-<id>.jsonl` (2.1.x), or
//! inline in the parent's file (1.0.x, see [`sidechain`]): each subagent is a session of its
//! own, delegated from the parent.
//! Every line type Claude Code writes is either projected or `Ignored` with a reason; only a
//! type this adapter has never seen is `Unrecognized`.

mod assistant;
mod line;
mod runtime_lines;
mod sidechain;
mod state;
mod text_kind;
mod user;

use fornax_types::{
    AgentAdapter, CapabilityProbe, IngestMessage, NativeRecord, NormalizationOutcome, Provider,
    RuntimeCapabilities, SessionRef,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::bounded::Bounded;
use crate::capabilities;
use crate::common::{discriminator, get_str, get_text, ADAPTER_VERSION};
use line::Line;
use state::{loop_message, SessionState};

/// Sessions whose state one adapter keeps (a transcript file holds one, plus the occasional
/// line of another; subagents have their own files).
const SESSIONS_CAP: usize = 64;

const CHECKPOINT_FORMAT: u32 = 1;

/// Normalizes Claude Code transcript lines (JSONL, or the same lines as a JSON array).
#[derive(Debug)]
pub struct ClaudeTranscriptAdapter {
    sessions: Bounded<SessionState>,
    sidechains: sidechain::InlineSidechains,
}

impl Default for ClaudeTranscriptAdapter {
    fn default() -> Self {
        ClaudeTranscriptAdapter {
            sessions: Bounded::new(SESSIONS_CAP),
            sidechains: sidechain::InlineSidechains::default(),
        }
    }
}

#[derive(Serialize, Deserialize)]
struct Checkpoint {
    format: u32,
    sessions: Bounded<SessionState>,
    /// Absent in checkpoints written before inline sidechains were told apart.
    #[serde(default)]
    sidechains: sidechain::InlineSidechains,
}

/// How a line type is handled.
enum LineKind {
    User,
    Assistant,
    System,
    Attachment,
    /// An envelope that only proves identity (its content is bookkeeping).
    IdentityOnly(&'static str),
    /// A bookkeeping line (2.1.2xx) with one fact worth showing on the timeline, published
    /// as `runtime.state`; ignored with the reason when the fact is missing.
    State(&'static str),
    Title {
        custom: bool,
    },
    Ignored(&'static str),
    Unknown,
}

impl LineKind {
    fn of(ty: &str) -> LineKind {
        match ty {
            "user" => LineKind::User,
            "assistant" => LineKind::Assistant,
            "system" => LineKind::System,
            "attachment" => LineKind::Attachment,
            "progress" => LineKind::IdentityOnly(
                "progress of a running tool or hook; its result arrives as a tool_result",
            ),
            "queue-operation" => LineKind::IdentityOnly(
                "prompt queue bookkeeping; the prompt itself arrives as a user line or attachment",
            ),
            "custom-title" => LineKind::Title { custom: true },
            "ai-title" => LineKind::Title { custom: false },
            "file-history-snapshot" => LineKind::Ignored("file backup bookkeeping for undo"),
            "file-history-delta" => LineKind::State("file backup bookkeeping without a path"),
            "summary" => {
                LineKind::Ignored("title summary keyed by leafUuid; may describe another session")
            }
            "last-prompt" => {
                LineKind::Ignored("resume bookkeeping repeating a prompt already recorded")
            }
            "permission-mode" | "mode" => LineKind::Ignored("permission or input mode bookkeeping"),
            "agent-name" => LineKind::Ignored("agent display name bookkeeping"),
            "worktree-state" | "relocated" => LineKind::Ignored("worktree bookkeeping"),
            "pr-link" => LineKind::IdentityOnly("link bookkeeping"),
            "frame-link" => LineKind::State("frame link without a URL"),
            "bridge-session" | "atis-latch" => LineKind::Ignored("remote session bookkeeping"),
            "started" | "result" | "launched" => LineKind::Ignored(
                "background or workflow agent bookkeeping; the agent's work is in its own transcript",
            ),
            "cost-state" => LineKind::State("session cost bookkeeping without a total"),
            "tag" => LineKind::Ignored("session tag bookkeeping"),
            "tool_use" | "tool_result" => LineKind::Ignored(
                "flat tool line of an early or drifted shape without a call id to pair",
            ),
            _ => LineKind::Unknown,
        }
    }
}

impl ClaudeTranscriptAdapter {
    fn state(&mut self, native_id: &str) -> &mut SessionState {
        self.sessions
            .get_or_insert_with(native_id, SessionState::default)
    }
}

impl CapabilityProbe for ClaudeTranscriptAdapter {
    fn probe(&self) -> RuntimeCapabilities {
        capabilities::transcript()
    }
}

impl AgentAdapter for ClaudeTranscriptAdapter {
    fn provider(&self) -> Provider {
        Provider::ClaudeCode
    }

    fn adapter_version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn normalize(&mut self, session_hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome {
        let v = native.value;
        if !v.is_object() {
            return NormalizationOutcome::Unrecognized {
                discriminator: "<not a JSON object>".into(),
            };
        }
        let Some(ty) = get_str(v, "type") else {
            return NormalizationOutcome::Unrecognized {
                discriminator: "<no type>".into(),
            };
        };
        let kind = LineKind::of(ty);
        match kind {
            LineKind::Unknown => {
                return NormalizationOutcome::Unrecognized {
                    discriminator: discriminator(ty),
                }
            }
            LineKind::Ignored(reason) => return NormalizationOutcome::Ignored { reason },
            _ => {}
        }
        let line = match self.sidechains.resolve(v) {
            Some((native_id, delegated)) => {
                Line::in_sidechain(v, native.record, native_id, delegated)
            }
            None => Line::resolve(v, native.record, session_hint),
        };
        if matches!(kind, LineKind::Assistant) {
            self.sidechains.note_calls(v);
        }
        let st = self.state(&line.session.native_id);
        let mut out = Vec::new();
        line.announce(st, &mut out);
        let reason = match kind {
            LineKind::User => user::on_user(st, &line, &mut out),
            LineKind::Assistant => assistant::on_assistant(st, &line, &mut out),
            LineKind::System => runtime_lines::on_system(st, &line, &mut out),
            LineKind::Attachment => runtime_lines::on_attachment(st, &line, &mut out),
            LineKind::IdentityOnly(reason) => {
                if line.uuid.is_some() {
                    st.chain(line.uuid, line.parent_uuid, false);
                }
                reason
            }
            LineKind::State(reason) => {
                if let Some(text) = runtime_lines::bookkeeping_fact(ty, v) {
                    out.push(line.text_item(
                        st,
                        line.key("state", 0),
                        fornax_types::Role::RuntimeState,
                        &text,
                        fornax_types::EvidenceStrength::Structural,
                    ));
                }
                reason
            }
            LineKind::Title { custom } => {
                let field = if custom { "customTitle" } else { "aiTitle" };
                if let Some(session) = get_text(v, field)
                    .filter(|_| line.structural)
                    .and_then(|name| st.title(&line.session, name, custom))
                {
                    out.push(IngestMessage::Session(session));
                }
                "session title already known"
            }
            LineKind::Ignored(reason) => reason,
            LineKind::Unknown => "unknown",
        };
        if out.is_empty() {
            NormalizationOutcome::Ignored { reason }
        } else {
            NormalizationOutcome::Messages(out)
        }
    }

    /// Republishes open loops whose usage grew since last published (end still unknown).
    fn finish(&mut self) -> Vec<IngestMessage> {
        let mut out = Vec::new();
        for native_id in self.sessions.keys() {
            let Some(st) = self.sessions.get_mut(&native_id) else {
                continue;
            };
            if let Some(open) = st.open.as_mut() {
                let total = open.usage.total();
                if total.is_some() && total != open.published_usage {
                    open.published_usage = total;
                    let session = SessionRef::new(Provider::ClaudeCode, native_id);
                    out.push(IngestMessage::Loop(loop_message(&session, open, None)));
                }
            }
        }
        out
    }

    fn checkpoint(&self) -> Option<Value> {
        serde_json::to_value(Checkpoint {
            format: CHECKPOINT_FORMAT,
            sessions: self.sessions.clone(),
            sidechains: self.sidechains.clone(),
        })
        .ok()
    }

    fn resume(&mut self, state: &Value) -> bool {
        match Checkpoint::deserialize(state) {
            Ok(cp) if cp.format == CHECKPOINT_FORMAT => {
                let mut sessions = cp.sessions;
                sessions.repair(SESSIONS_CAP);
                for key in sessions.keys() {
                    if let Some(st) = sessions.get_mut(&key) {
                        st.repair();
                    }
                }
                self.sessions = sessions;
                let mut sidechains = cp.sidechains;
                sidechains.repair();
                self.sidechains = sidechains;
                true
            }
            _ => false,
        }
    }
}
