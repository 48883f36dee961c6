//! One conversation's timeline, whichever transcript generation it is read from: prompts open
//! loops, agent text, thinking and tool calls fill them, a turn end (or the next prompt)
//! closes them. The JSONL and the text transcript adapters both drive this; it keeps the
//! state they share, bounded and serializable.

use fornax_types::kit::json::text_at;
use fornax_types::{
    shell::parse_invocations, Delegation, EvidenceStrength, IngestMessage, Item, Loop, LoopEnd,
    LoopOutcome, Provider, ReasoningMode, ReasoningValue, RecordRef, Role, RuntimeCapabilities,
    Semantic, SemanticValue, Session, SessionRef, ShellCallValue, TextValue, ToolCallValue,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::layout::Place;
use crate::ADAPTER_VERSION;

/// Longest text kept on an item (head and tail survive).
pub(crate) const TEXT_LIMIT: usize = 64 * 1024;

/// Cursor's shell tools, across generations (`run_terminal_cmd` before 2026, `Shell` after).
const SHELL_TOOLS: &[&str] = &["shell", "run_terminal_cmd", "bash", "terminal"];

pub(crate) fn capped(text: &str) -> TextValue {
    TextValue::capped(text, TEXT_LIMIT)
}

/// A tool call's semantic: a shell call when the tool runs a command, else a generic call.
pub(crate) fn call_semantic(name: &str, input: &Value, call_id: Option<&str>) -> Semantic {
    if SHELL_TOOLS.contains(&name.to_ascii_lowercase().as_str()) {
        if let Some(command) = text_at(input, "command") {
            return Semantic::new(
                Role::AgentToolCallShell,
                SemanticValue::ShellCall(ShellCallValue {
                    call_id: call_id.map(str::to_string),
                    tool_name: name.to_string(),
                    command: command.to_string(),
                    invocations: parse_invocations(command),
                    cwd: text_at(input, "working_directory")
                        .or_else(|| text_at(input, "cwd"))
                        .map(str::to_string),
                    timeout_ms: None,
                }),
                EvidenceStrength::Structural,
            );
        }
    }
    Semantic::new(
        Role::AgentToolCall,
        SemanticValue::ToolCall(ToolCallValue {
            call_id: call_id.map(str::to_string),
            name: name.to_string(),
            arguments: input.clone(),
            cwd: None,
        }),
        EvidenceStrength::Structural,
    )
}

/// The human's request inside a prompt: what `<user_query>` wraps, when it does.
pub(crate) fn user_query(text: &str) -> &str {
    match (text.find("<user_query>"), text.rfind("</user_query>")) {
        (Some(open), Some(close)) if close > open => {
            text[open + "<user_query>".len()..close].trim()
        }
        _ => text.trim(),
    }
}

/// A published agent text, kept to become the loop's final answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct TextItem {
    key: String,
    text: TextValue,
    records: Vec<RecordRef>,
    loop_position: Option<u32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Turn {
    position: u32,
    start: RecordRef,
    started_at: Option<String>,
    /// The latest agent text not followed by a tool call.
    last_text: Option<TextItem>,
}

/// The conversation's bounded state.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct Conversation {
    place: Option<Place>,
    announced: bool,
    next_loop: u32,
    open: Option<Turn>,
}

/// Where facts of one record go.
pub(crate) struct At<'a> {
    pub records: Vec<RecordRef>,
    pub at: Option<String>,
    pub out: &'a mut Vec<IngestMessage>,
}

impl<'a> At<'a> {
    /// Facts of `record` (written at `at`, when the runtime said), into `out`.
    pub(crate) fn one(
        record: &RecordRef,
        at: &Option<String>,
        out: &'a mut Vec<IngestMessage>,
    ) -> At<'a> {
        At {
            records: vec![record.clone()],
            at: at.clone(),
            out,
        }
    }
}

impl Conversation {
    /// Learns the conversation's identity from the layout, once; publishes its session and
    /// `caps` when it is known.
    pub(crate) fn identify(
        &mut self,
        place: Option<Place>,
        record: &RecordRef,
        caps: impl Fn() -> RuntimeCapabilities,
        out: &mut Vec<IngestMessage>,
    ) {
        if self.place.is_none() {
            self.place = place;
        }
        let Some(place) = &self.place else {
            return;
        };
        if self.announced {
            return;
        }
        self.announced = true;
        out.push(IngestMessage::Session(Session {
            id: SessionRef::new(Provider::Cursor, place.native_id.clone()),
            identity_record: record.clone(),
            cwd: None,
            name: None,
            created_at: None,
            forked_from: None,
            delegated_from: place.parent.as_ref().map(|parent| Delegation {
                parent_native_id: parent.clone(),
                call_id: None,
                agent_id: place.agent.clone(),
                agent_type: None,
            }),
            runtime_version: None,
        }));
        out.push(IngestMessage::Capabilities(
            caps().stamped(&place.native_id, ADAPTER_VERSION),
        ));
    }

    /// The session facts go to: the layout's, else the hint (items then stand without a
    /// published session, as the hint proves nothing).
    pub(crate) fn session(&self, hint: &str) -> SessionRef {
        match &self.place {
            Some(p) => SessionRef::new(Provider::Cursor, p.native_id.clone()),
            None => SessionRef::new(Provider::Cursor, hint),
        }
    }

    /// Renames the session (Cursor's `metadata.overview`).
    pub(crate) fn name(&self, name: &str, record: &RecordRef, out: &mut Vec<IngestMessage>) {
        if let Some(p) = &self.place {
            out.push(IngestMessage::Session(Session {
                id: SessionRef::new(Provider::Cursor, p.native_id.clone()),
                identity_record: record.clone(),
                cwd: None,
                name: Some(name.to_string()),
                created_at: None,
                forked_from: None,
                delegated_from: None,
                runtime_version: None,
            }));
        }
    }

    fn position(&self) -> Option<u32> {
        self.open.as_ref().map(|t| t.position)
    }

    fn item(&self, hint: &str, key: String, semantic: Semantic, at: &At<'_>) -> Item {
        Item {
            session: self.session(hint),
            key,
            loop_position: self.position(),
            at: at.at.clone(),
            semantic,
            records: at.records.clone(),
        }
    }

    fn loop_message(&self, hint: &str, turn: &Turn, end: Option<LoopEnd>) -> Loop {
        Loop {
            session: self.session(hint),
            position: turn.position,
            native_id: None,
            start_record: turn.start.clone(),
            started_at: turn.started_at.clone(),
            end,
            model: None,
            usage: None,
            runtime_version: None,
        }
    }

    /// A prompt: the previous loop is over (its last text is its final answer), a new one
    /// starts.
    pub(crate) fn prompt(&mut self, hint: &str, key: String, text: &str, at: At<'_>) {
        if self.open.is_some() {
            self.close(hint, None, &at.records[0].clone(), at.at.clone(), at.out);
        }
        let turn = Turn {
            position: self.next_loop,
            start: at.records[0].clone(),
            started_at: at.at.clone(),
            last_text: None,
        };
        self.next_loop = self.next_loop.saturating_add(1);
        at.out
            .push(IngestMessage::Loop(self.loop_message(hint, &turn, None)));
        self.open = Some(turn);
        let semantic = Semantic::new(
            Role::HumanRequest,
            SemanticValue::Text(capped(text)),
            EvidenceStrength::Structural,
        );
        let item = self.item(hint, key, semantic, &at);
        at.out.push(IngestMessage::Item(item));
    }

    /// A prompt's text again, as it grew (the text transcript hands it over line by line).
    pub(crate) fn prompt_text(&mut self, hint: &str, key: String, text: &str, at: At<'_>) {
        let semantic = Semantic::new(
            Role::HumanRequest,
            SemanticValue::Text(capped(text)),
            EvidenceStrength::Structural,
        );
        let item = self.item(hint, key, semantic, &at);
        at.out.push(IngestMessage::Item(item));
    }

    /// The agent's text; `may_end` when nothing in the same message follows it.
    pub(crate) fn agent_text(
        &mut self,
        hint: &str,
        key: String,
        text: &str,
        may_end: bool,
        at: At<'_>,
    ) {
        let semantic = Semantic::new(
            Role::AgentCommentary,
            SemanticValue::Text(capped(text)),
            EvidenceStrength::Structural,
        );
        let item = self.item(hint, key.clone(), semantic, &at);
        let kept = TextItem {
            key,
            text: capped(text),
            records: item.records.clone(),
            loop_position: item.loop_position,
        };
        at.out.push(IngestMessage::Item(item));
        if let Some(turn) = self.open.as_mut() {
            turn.last_text = may_end.then_some(kept);
        }
    }

    pub(crate) fn tool_call(
        &mut self,
        hint: &str,
        key: String,
        name: &str,
        input: &Value,
        at: At<'_>,
    ) {
        let item = self.item(hint, key, call_semantic(name, input, None), &at);
        at.out.push(IngestMessage::Item(item));
        if let Some(turn) = self.open.as_mut() {
            turn.last_text = None;
        }
    }

    pub(crate) fn reasoning(
        &mut self,
        hint: &str,
        key: String,
        text: &str,
        strength: EvidenceStrength,
        at: At<'_>,
    ) {
        let value = ReasoningValue {
            mode: ReasoningMode::Full,
            text: Some(capped(text)),
        };
        let semantic = Semantic::new(
            Role::AgentReasoning,
            SemanticValue::Reasoning(value),
            strength,
        );
        let item = self.item(hint, key, semantic, &at);
        at.out.push(IngestMessage::Item(item));
    }

    pub(crate) fn runtime(
        &mut self,
        hint: &str,
        key: String,
        role: Role,
        text: &str,
        strength: EvidenceStrength,
        at: At<'_>,
    ) {
        let semantic = Semantic::new(role, SemanticValue::Text(capped(text)), strength);
        let item = self.item(hint, key, semantic, &at);
        at.out.push(IngestMessage::Item(item));
    }

    /// Ends the open loop: with the runtime's outcome when it wrote one, else (the next
    /// prompt) without. A completed or open-ended loop's last text is its final answer,
    /// heuristic: Cursor marks no final message.
    pub(crate) fn close(
        &mut self,
        hint: &str,
        outcome: Option<LoopOutcome>,
        record: &RecordRef,
        at: Option<String>,
        out: &mut Vec<IngestMessage>,
    ) {
        let Some(turn) = self.open.take() else {
            return;
        };
        if matches!(outcome, None | Some(LoopOutcome::Completed)) {
            if let Some(text) = &turn.last_text {
                out.push(IngestMessage::Item(Item {
                    session: self.session(hint),
                    key: text.key.clone(),
                    loop_position: text.loop_position,
                    at: None,
                    semantic: Semantic::new(
                        Role::AgentFinalAnswer,
                        SemanticValue::Text(text.text.clone()),
                        EvidenceStrength::Heuristic,
                    ),
                    records: text.records.clone(),
                }));
            }
        }
        let end = outcome.map(|outcome| LoopEnd {
            record: record.clone(),
            outcome,
            ended_at: at,
        });
        if end.is_some() {
            out.push(IngestMessage::Loop(self.loop_message(hint, &turn, end)));
        }
    }

    /// The open loop as it stands, when reading stops for now.
    pub(crate) fn finish(&self, hint: &str) -> Vec<IngestMessage> {
        self.open
            .iter()
            .map(|turn| IngestMessage::Loop(self.loop_message(hint, turn, None)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn queries_and_shell_calls() {
        assert_eq!(user_query("<user_query>\nrun ls\n</user_query>"), "run ls");
        assert_eq!(
            user_query("<timestamp>x</timestamp>\n<user_query>\nhi\n</user_query>"),
            "hi"
        );
        assert_eq!(user_query("plain"), "plain");
        let s = call_semantic("Shell", &json!({"command": "npm test"}), None);
        assert_eq!(s.role, Role::AgentToolCallShell);
        let s = call_semantic("ReadFile", &json!({"path": "a"}), None);
        assert_eq!(s.role, Role::AgentToolCall);
    }
}
