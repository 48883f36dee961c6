//! The hook transport: one Cursor hook payload per event, as `fornax hook cursor` spools it.
//! Payloads are snake_case and name their event (`hook_event_name`) and conversation
//! (`conversation_id`, also the transcript's file name); `generation_id` names the agent turn
//! a prompt started. Seen in real payloads: `beforeSubmitPrompt` (`prompt`, `attachments`),
//! `beforeShellExecution` (`command`, `cwd`, `sandbox`), `afterFileEdit` (`file_path`,
//! `edits[{old_string, new_string}]`), `sessionEnd`; the others are mapped as Cursor
//! documents them and declared accordingly.
//!
//! Hook payloads carry no call id: a shell or MCP call is keyed by its turn, its fingerprint
//! and its rank among the same calls of that turn, so the `after` event answers the `before`
//! one. No loops are published (a turn's start is not always hooked); items take their loop
//! from the transcript when both are read.

use fornax_types::evidence::FileOperation;
use fornax_types::kit::json::{discriminator, fingerprint64, kind_of, text_at, u64_at};
use fornax_types::kit::{checkpoint, BoundedMap, EditSensor, FileEdit};
use fornax_types::{
    AgentAdapter, CapabilityProbe, CollectionMethod, EvidenceStrength, IngestMessage, Item,
    NativeRecord, NormalizationOutcome, Provider, ReasoningMode, ReasoningValue, RecordRef, Role,
    RuntimeCapabilities, Semantic, SemanticValue, Session, SessionRef, ToolOutputValue,
};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::capabilities;
use crate::conversation::{call_semantic, capped};
use crate::ADAPTER_VERSION;

const CHECKPOINT_FORMAT: u32 = 1;
const TABLE_CAP: usize = 4096;

/// Events Cursor documents whose facts other events (or nothing Fornax reads) carry.
fn ignored(event: &str) -> Option<&'static str> {
    Some(match event {
        "beforeReadFile" => "file read permission check",
        "beforeTabFileRead" | "afterTabFileEdit" => "Tab completion, not the agent",
        "preToolUse" | "postToolUse" | "postToolUseFailure" => {
            "generic tool hook; shell, MCP and edit hooks carry the same calls"
        }
        "workspaceOpen" => "workspace bookkeeping",
        _ => return None,
    })
}

const EVENTS: &[&str] = &[
    "sessionStart",
    "sessionEnd",
    "beforeSubmitPrompt",
    "beforeShellExecution",
    "afterShellExecution",
    "beforeMCPExecution",
    "afterMCPExecution",
    "afterFileEdit",
    "afterAgentResponse",
    "afterAgentThought",
    "stop",
    "subagentStart",
    "subagentStop",
    "preCompact",
];

/// Whether `v` is a Cursor hook payload: an event name and a conversation id.
pub fn is_cursor_hook(v: &Value) -> bool {
    text_at(v, "hook_event_name").is_some() && text_at(v, "conversation_id").is_some()
}

/// Normalizes spooled Cursor hook payloads.
#[derive(Debug)]
pub struct CursorHookAdapter {
    st: HookState,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct HookState {
    announced: BoundedMap<()>,
    /// Keys of calls a before-hook opened, oldest first, by turn and call fingerprint.
    pending: BoundedMap<Vec<String>>,
    /// How many calls of each turn and fingerprint were seen (the rank in a key).
    counts: BoundedMap<u32>,
    /// The latest agent response of each conversation, to become its final answer at stop.
    responses: BoundedMap<(String, String)>,
}

impl Default for CursorHookAdapter {
    fn default() -> Self {
        CursorHookAdapter {
            st: HookState {
                announced: BoundedMap::new(TABLE_CAP),
                pending: BoundedMap::new(TABLE_CAP),
                counts: BoundedMap::new(TABLE_CAP),
                responses: BoundedMap::new(TABLE_CAP),
            },
        }
    }
}

struct Hook<'a> {
    p: &'a Value,
    session: SessionRef,
    record: &'a RecordRef,
    turn: String,
}

impl Hook<'_> {
    fn item(&self, key: String, semantic: Semantic) -> IngestMessage {
        IngestMessage::Item(Item {
            session: self.session.clone(),
            key,
            loop_position: None,
            at: None,
            semantic,
            records: vec![self.record.clone()],
        })
    }

    fn text(
        &self,
        key: String,
        role: Role,
        text: &str,
        strength: EvidenceStrength,
    ) -> IngestMessage {
        self.item(
            key,
            Semantic::new(role, SemanticValue::Text(capped(text)), strength),
        )
    }
}

impl CapabilityProbe for CursorHookAdapter {
    fn probe(&self) -> RuntimeCapabilities {
        capabilities::hooks()
    }
}

impl AgentAdapter for CursorHookAdapter {
    fn provider(&self) -> Provider {
        Provider::Cursor
    }

    fn adapter_version(&self) -> &'static str {
        ADAPTER_VERSION
    }

    fn normalize(&mut self, _hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome {
        let p = native.value;
        if !p.is_object() {
            return NormalizationOutcome::Unrecognized {
                discriminator: kind_of(p).to_string(),
            };
        }
        let Some(event) = text_at(p, "hook_event_name") else {
            return NormalizationOutcome::Unrecognized {
                discriminator: "<no hook_event_name>".into(),
            };
        };
        if let Some(reason) = ignored(event) {
            return NormalizationOutcome::Ignored { reason };
        }
        if !EVENTS.contains(&event) {
            return NormalizationOutcome::Unrecognized {
                discriminator: discriminator(event),
            };
        }
        let Some(conversation) = text_at(p, "conversation_id") else {
            return NormalizationOutcome::Ignored {
                reason: "hook payload without a conversation id",
            };
        };
        let hook = Hook {
            p,
            session: SessionRef::new(Provider::Cursor, conversation),
            record: native.record,
            turn: text_at(p, "generation_id")
                .map(str::to_string)
                .unwrap_or_else(|| format!("r{}", native.record.position)),
        };
        let mut out = Vec::new();
        if self.st.announced.insert_new(conversation, ()) {
            out.push(IngestMessage::Session(Session {
                id: hook.session.clone(),
                identity_record: native.record.clone(),
                cwd: p
                    .get("workspace_roots")
                    .and_then(|r| r.get(0))
                    .and_then(Value::as_str)
                    .map(str::to_string),
                name: None,
                created_at: None,
                forked_from: None,
                delegated_from: None,
                runtime_version: text_at(p, "cursor_version").map(str::to_string),
            }));
            out.push(IngestMessage::Capabilities(
                capabilities::hooks().stamped(conversation, ADAPTER_VERSION),
            ));
        }
        self.on_event(event, &hook, &mut out);
        NormalizationOutcome::Messages(out)
    }

    fn checkpoint(&self) -> Option<Value> {
        checkpoint::save(CHECKPOINT_FORMAT, &self.st)
    }

    fn resume(&mut self, snapshot: &Value) -> bool {
        match checkpoint::load::<HookState>(CHECKPOINT_FORMAT, snapshot) {
            Some(mut st) => {
                st.announced.repair(TABLE_CAP);
                st.pending.repair(TABLE_CAP);
                st.counts.repair(TABLE_CAP);
                st.responses.repair(TABLE_CAP);
                self.st = st;
                true
            }
            None => false,
        }
    }
}

impl CursorHookAdapter {
    fn on_event(&mut self, event: &str, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        let p = hook.p;
        let turn = hook.turn.clone();
        match event {
            "beforeSubmitPrompt" => {
                if let Some(prompt) = text_at(p, "prompt") {
                    out.push(hook.text(
                        format!("hook:{turn}:prompt"),
                        Role::HumanRequest,
                        prompt,
                        EvidenceStrength::Structural,
                    ));
                }
            }
            "beforeShellExecution" | "afterShellExecution" => {
                let Some(command) = text_at(p, "command") else {
                    return;
                };
                let input = json!({"command": command, "cwd": text_at(p, "cwd")});
                let before = event == "beforeShellExecution";
                let key = self.call_key(hook, "shell", command, before);
                out.push(hook.item(key.clone(), call_semantic("Shell", &input, None)));
                if !before {
                    out.push(hook.item(
                        format!("{key}:out"),
                        output(Some("Shell"), text_at(p, "output"), u64_at(p, "duration")),
                    ));
                }
            }
            "beforeMCPExecution" | "afterMCPExecution" => {
                let tool = text_at(p, "tool_name").unwrap_or("mcp");
                let input = p.get("tool_input").cloned().unwrap_or(Value::Null);
                let before = event == "beforeMCPExecution";
                let key = self.call_key(hook, "mcp", &format!("{tool}\u{0}{input}"), before);
                out.push(hook.item(key.clone(), call_semantic(tool, &input, None)));
                if !before {
                    let result = p.get("result_json").map(|r| match r {
                        Value::String(s) => s.clone(),
                        other => other.to_string(),
                    });
                    out.push(hook.item(
                        format!("{key}:out"),
                        output(Some(tool), result.as_deref(), u64_at(p, "duration")),
                    ));
                }
            }
            "afterFileEdit" => self.file_edit(hook, out),
            "afterAgentResponse" => {
                if let Some(text) = text_at(p, "text") {
                    let key = self.call_key(hook, "response", "", true);
                    out.push(hook.text(
                        key.clone(),
                        Role::AgentCommentary,
                        text,
                        EvidenceStrength::Structural,
                    ));
                    self.st
                        .responses
                        .insert(hook.session.native_id.clone(), (key, text.to_string()));
                }
            }
            "afterAgentThought" => {
                if let Some(text) = text_at(p, "text") {
                    let key = self.call_key(hook, "thought", "", true);
                    out.push(hook.item(
                        key,
                        Semantic::new(
                            Role::AgentReasoning,
                            SemanticValue::Reasoning(ReasoningValue {
                                mode: ReasoningMode::Full,
                                text: Some(capped(text)),
                            }),
                            EvidenceStrength::Structural,
                        ),
                    ));
                }
            }
            "stop" => {
                let status = text_at(p, "status").unwrap_or("unknown");
                if status == "completed" {
                    if let Some((key, text)) = self.st.responses.remove(&hook.session.native_id) {
                        out.push(hook.text(
                            key,
                            Role::AgentFinalAnswer,
                            &text,
                            EvidenceStrength::Heuristic,
                        ));
                    }
                }
                out.push(hook.text(
                    format!("hook:{turn}:stop"),
                    Role::RuntimeState,
                    &format!("turn ended ({status})"),
                    EvidenceStrength::Structural,
                ));
            }
            "sessionStart" | "sessionEnd" | "subagentStart" | "subagentStop" | "preCompact" => {
                let detail = text_at(p, "reason")
                    .or_else(|| text_at(p, "final_status"))
                    .or_else(|| text_at(p, "composer_mode"))
                    .or_else(|| text_at(p, "trigger"))
                    .or_else(|| text_at(p, "subagent_type"))
                    .unwrap_or("-");
                out.push(hook.text(
                    format!("hook:{turn}:{event}:r{}", hook.record.position),
                    Role::RuntimeState,
                    &format!("{event} ({detail})"),
                    EvidenceStrength::Structural,
                ));
            }
            _ => {}
        }
    }

    /// A call's key: its turn, what it is and its rank among the same calls of the turn. An
    /// `after` event reuses the oldest key its `before` opened.
    fn call_key(&mut self, hook: &Hook<'_>, kind: &str, what: &str, opens: bool) -> String {
        let slot = format!(
            "{}|{}|{kind}|{:016x}",
            hook.session.native_id,
            hook.turn,
            fingerprint64(what.as_bytes())
        );
        if !opens {
            let reused = self
                .st
                .pending
                .get_mut(&slot)
                .and_then(|keys| (!keys.is_empty()).then(|| keys.remove(0)));
            if self.st.pending.get(&slot).is_some_and(Vec::is_empty) {
                self.st.pending.remove(&slot);
            }
            if let Some(key) = reused {
                return key;
            }
        }
        let rank = self.st.counts.get_or_insert_with(&slot, || 0);
        let key = format!(
            "hook:{}:{kind}:{:016x}:{rank}",
            hook.turn,
            fingerprint64(what.as_bytes())
        );
        *rank += 1;
        if opens && matches!(kind, "shell" | "mcp") {
            self.st
                .pending
                .get_or_insert_with(&slot, Vec::new)
                .push(key.clone());
        }
        key
    }

    /// `afterFileEdit`: the edit as a call and its FileDiff evidence. Line counts are those of
    /// the replaced and replacing texts; an edit whose every `old_string` is empty wrote a new
    /// file (or appended to an empty one).
    fn file_edit(&mut self, hook: &Hook<'_>, out: &mut Vec<IngestMessage>) {
        let Some(path) = text_at(hook.p, "file_path") else {
            return;
        };
        let edits: Vec<&Value> = hook
            .p
            .get("edits")
            .and_then(Value::as_array)
            .map(|e| e.iter().collect())
            .unwrap_or_default();
        let lines = |field: &str| -> u64 {
            edits
                .iter()
                .filter_map(|e| e.get(field).and_then(Value::as_str))
                .filter(|t| !t.is_empty())
                .map(|t| t.lines().count() as u64)
                .sum()
        };
        let creates = !edits.is_empty()
            && edits
                .iter()
                .all(|e| e.get("old_string").and_then(Value::as_str) == Some(""));
        let key = self.call_key(hook, "edit", path, true);
        let input = json!({"file_path": path, "edits": edits.len()});
        out.push(hook.item(key.clone(), call_semantic("edit_file", &input, None)));
        let mut edit = FileEdit::new(
            hook.session.clone(),
            path,
            if creates {
                FileOperation::Create
            } else {
                FileOperation::Update
            },
            "edit_file",
        );
        edit.lines_added = Some(lines("new_string"));
        edit.lines_removed = Some(lines("old_string"));
        edit.item_key = Some(key);
        edit.records = vec![hook.record.clone()];
        edit.discriminator = "afterFileEdit".into();
        let sensor = EditSensor {
            provider: Provider::Cursor,
            sensor_name: "cursor.file_mutation",
            collector_version: ADAPTER_VERSION,
            method: CollectionMethod::HookCallback,
            tamper_boundary: "Cursor's own report of an edit it applied, handed to a hook command \
                on stdin by the editor that made the edit",
        };
        if let Some(evidence) = edit.into_evidence(&sensor) {
            out.push(IngestMessage::Evidence(evidence));
        }
    }
}

fn output(tool: Option<&str>, text: Option<&str>, duration_ms: Option<u64>) -> Semantic {
    Semantic::new(
        Role::ToolOutput,
        SemanticValue::ToolOutput(ToolOutputValue {
            call_id: None,
            tool_name: tool.map(str::to_string),
            text: text.filter(|t| !t.is_empty()).map(capped),
            stderr: None,
            exit_code: None,
            failed: None,
            interrupted: None,
            duration_ms,
            runtime_truncated: None,
        }),
        EvidenceStrength::Structural,
    )
}
