//! The canonical layer: Sessions, Loops and Items.
//!
//! Semantics follow the Trace Index contract: every [`Item`] publishes one [`Semantic`] fact
//! `{role, value, evidence_strength}` and cites the physical records it was derived from.
//! Runtime-specific fields stay in the records; they become canonical only through a role's
//! typed value.

use serde::{Deserialize, Serialize};

use crate::{Provider, RecordRef};

/// Identity of a session: the runtime and the runtime's own session id.
///
/// Sessions merge by this pair only, whichever sources support them.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SessionRef {
    pub provider: Provider,
    pub native_id: String,
}

impl SessionRef {
    pub fn new(provider: Provider, native_id: impl Into<String>) -> Self {
        SessionRef {
            provider,
            native_id: native_id.into(),
        }
    }
}

/// A session, published only once structural identity evidence exists.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// The runtime and its own id for this session.
    #[serde(flatten)]
    pub id: SessionRef,
    /// The record that proved the identity.
    pub identity_record: RecordRef,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
    /// Native id of the session this one was forked (branched, resumed into) from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forked_from: Option<String>,
    /// Set when this session is a subagent run on behalf of another session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub delegated_from: Option<Delegation>,
    /// The runtime's version as the runtime wrote it (first seen).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_version: Option<String>,
}

/// Link from a subagent session to the session (and call) that started it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delegation {
    /// Native id of the parent session.
    pub parent_native_id: String,
    /// The parent's tool-call id that spawned this session, when the runtime records it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// The runtime's id of the subagent (for example Claude Code's `agent_id`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_type: Option<String>,
}

/// One unit of work: a human request and everything the agent did for it.
///
/// A Loop may be published more than once as it progresses (started, then ended with usage);
/// consumers upsert by `(session, position)`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Loop {
    pub session: SessionRef,
    /// 0-based order of the loop inside its session.
    pub position: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub native_id: Option<String>,
    pub start_record: RecordRef,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<LoopEnd>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub usage: Option<Usage>,
    /// The runtime version in force for this loop, when the runtime states it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_version: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LoopEnd {
    pub record: RecordRef,
    pub outcome: LoopOutcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended_at: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LoopOutcome {
    Completed,
    Interrupted,
    Failed,
}

/// Token usage of a loop. `None` means the runtime did not say; it is never read as zero.
///
/// Invariants (checked by [`Usage::validate`]): `cached_input_tokens <= input_tokens` (input
/// counts every prompt token, cached or not) and `reasoning_output_tokens <= output_tokens`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cached_input_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_output_tokens: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UsageError {
    #[error("cached input tokens ({cached}) exceed input tokens ({input})")]
    CachedExceedsInput { cached: u64, input: u64 },
    #[error("reasoning output tokens ({reasoning}) exceed output tokens ({output})")]
    ReasoningExceedsOutput { reasoning: u64, output: u64 },
}

impl Usage {
    pub fn validate(&self) -> Result<(), UsageError> {
        if let (Some(cached), Some(input)) = (self.cached_input_tokens, self.input_tokens) {
            if cached > input {
                return Err(UsageError::CachedExceedsInput { cached, input });
            }
        }
        if let (Some(reasoning), Some(output)) = (self.reasoning_output_tokens, self.output_tokens)
        {
            if reasoning > output {
                return Err(UsageError::ReasoningExceedsOutput { reasoning, output });
            }
        }
        Ok(())
    }

    /// Adds another observation. A field stays `None` only while no observation stated it.
    pub fn accumulate(&mut self, other: &Usage) {
        fn add(a: &mut Option<u64>, b: Option<u64>) {
            if let Some(b) = b {
                *a = Some(a.unwrap_or(0).saturating_add(b));
            }
        }
        add(&mut self.input_tokens, other.input_tokens);
        add(&mut self.cached_input_tokens, other.cached_input_tokens);
        add(&mut self.output_tokens, other.output_tokens);
        add(
            &mut self.reasoning_output_tokens,
            other.reasoning_output_tokens,
        );
    }

    pub fn is_empty(&self) -> bool {
        *self == Usage::default()
    }
}

/// One canonical fact on a session's timeline.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Item {
    pub session: SessionRef,
    /// Unique within the session and chosen by the adapter. Publishing an item again with the
    /// same key replaces it (this is how a second witness of the same fact is added).
    pub key: String,
    /// The loop this item belongs to, when one was open.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_position: Option<u32>,
    /// The runtime's timestamp for this fact, when it wrote one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    pub semantic: Semantic,
    /// The records this fact was derived from (at least one).
    pub records: Vec<RecordRef>,
}

/// `{role, value, evidence_strength}`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Semantic {
    pub role: Role,
    pub value: SemanticValue,
    pub evidence_strength: EvidenceStrength,
}

impl Semantic {
    pub fn new(role: Role, value: SemanticValue, evidence_strength: EvidenceStrength) -> Self {
        Semantic {
            role,
            value,
            evidence_strength,
        }
    }

    /// Whether the value's shape is the one the role promises.
    pub fn is_consistent(&self) -> bool {
        use Role::*;
        matches!(
            (self.role, &self.value),
            (
                HumanRequest
                    | HumanSteering
                    | AgentCommentary
                    | AgentFinalAnswer
                    | RuntimeInstructions
                    | RuntimeContext
                    | RuntimeState
                    | RuntimeNotice
                    | RuntimeCompactionSummary
                    | RuntimeUnknown
                    | SubagentReport,
                SemanticValue::Text(_)
            ) | (AgentReasoning, SemanticValue::Reasoning(_))
                | (AgentToolCall, SemanticValue::ToolCall(_))
                | (AgentToolCallShell, SemanticValue::ShellCall(_))
                | (AgentDelegation, SemanticValue::Delegation(_))
                | (ToolOutput, SemanticValue::ToolOutput(_))
                | (
                    SubagentActivity | SubagentReport,
                    SemanticValue::Subagent(_)
                )
        )
    }
}

/// Structural: read from the runtime's discriminated structure. Heuristic: inferred from a text
/// convention or position. When a fact combines several judgements the weakest wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceStrength {
    Heuristic,
    Structural,
}

impl EvidenceStrength {
    /// The weaker of two strengths.
    pub fn weakest(self, other: EvidenceStrength) -> EvidenceStrength {
        self.min(other)
    }
}

/// Every Trace Index semantic role.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Role {
    #[serde(rename = "human.request")]
    HumanRequest,
    #[serde(rename = "human.steering")]
    HumanSteering,
    #[serde(rename = "agent.commentary")]
    AgentCommentary,
    #[serde(rename = "agent.final_answer")]
    AgentFinalAnswer,
    #[serde(rename = "agent.reasoning")]
    AgentReasoning,
    #[serde(rename = "agent.tool_call")]
    AgentToolCall,
    #[serde(rename = "agent.tool_call.shell")]
    AgentToolCallShell,
    #[serde(rename = "agent.delegation")]
    AgentDelegation,
    #[serde(rename = "tool.output")]
    ToolOutput,
    #[serde(rename = "subagent.activity")]
    SubagentActivity,
    #[serde(rename = "subagent.report")]
    SubagentReport,
    #[serde(rename = "runtime.instructions")]
    RuntimeInstructions,
    #[serde(rename = "runtime.context")]
    RuntimeContext,
    #[serde(rename = "runtime.state")]
    RuntimeState,
    #[serde(rename = "runtime.notice")]
    RuntimeNotice,
    #[serde(rename = "runtime.compaction_summary")]
    RuntimeCompactionSummary,
    #[serde(rename = "runtime.unknown")]
    RuntimeUnknown,
}

impl Role {
    pub const ALL: [Role; 17] = [
        Role::HumanRequest,
        Role::HumanSteering,
        Role::AgentCommentary,
        Role::AgentFinalAnswer,
        Role::AgentReasoning,
        Role::AgentToolCall,
        Role::AgentToolCallShell,
        Role::AgentDelegation,
        Role::ToolOutput,
        Role::SubagentActivity,
        Role::SubagentReport,
        Role::RuntimeInstructions,
        Role::RuntimeContext,
        Role::RuntimeState,
        Role::RuntimeNotice,
        Role::RuntimeCompactionSummary,
        Role::RuntimeUnknown,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::HumanRequest => "human.request",
            Role::HumanSteering => "human.steering",
            Role::AgentCommentary => "agent.commentary",
            Role::AgentFinalAnswer => "agent.final_answer",
            Role::AgentReasoning => "agent.reasoning",
            Role::AgentToolCall => "agent.tool_call",
            Role::AgentToolCallShell => "agent.tool_call.shell",
            Role::AgentDelegation => "agent.delegation",
            Role::ToolOutput => "tool.output",
            Role::SubagentActivity => "subagent.activity",
            Role::SubagentReport => "subagent.report",
            Role::RuntimeInstructions => "runtime.instructions",
            Role::RuntimeContext => "runtime.context",
            Role::RuntimeState => "runtime.state",
            Role::RuntimeNotice => "runtime.notice",
            Role::RuntimeCompactionSummary => "runtime.compaction_summary",
            Role::RuntimeUnknown => "runtime.unknown",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|r| r.as_str() == s)
    }

    /// Text the agent wrote in its own voice: where claims come from.
    pub fn is_agent_voice(self) -> bool {
        matches!(
            self,
            Role::AgentCommentary | Role::AgentFinalAnswer | Role::SubagentReport
        )
    }
}

/// The typed value of a role.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SemanticValue {
    Text(TextValue),
    Reasoning(ReasoningValue),
    ToolCall(ToolCallValue),
    ShellCall(ShellCallValue),
    ToolOutput(ToolOutputValue),
    Delegation(Delegation),
    Subagent(SubagentValue),
}

impl SemanticValue {
    /// The main human-readable text of the value, if it has one.
    pub fn primary_text(&self) -> Option<&str> {
        match self {
            SemanticValue::Text(t) => Some(&t.text),
            SemanticValue::Reasoning(r) => r.text.as_ref().map(|t| t.text.as_str()),
            SemanticValue::ToolCall(c) => Some(&c.name),
            SemanticValue::ShellCall(c) => Some(&c.command),
            SemanticValue::ToolOutput(o) => o.text.as_ref().map(|t| t.text.as_str()),
            SemanticValue::Delegation(_) => None,
            SemanticValue::Subagent(s) => s.text.as_ref().map(|t| t.text.as_str()),
        }
    }
}

/// Text with its full length: `text` may be shortened (see [`TextValue::capped`]); `byte_len`
/// is always the length of the original.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TextValue {
    pub text: String,
    pub byte_len: u64,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

impl TextValue {
    pub fn full(text: impl Into<String>) -> Self {
        let text = text.into();
        TextValue {
            byte_len: text.len() as u64,
            text,
            truncated: false,
        }
    }

    /// Keeps at most `limit` bytes, as a head and a tail joined by an elision marker, so that
    /// both the start of an output and its closing summary survive.
    pub fn capped(text: &str, limit: usize) -> Self {
        if text.len() <= limit {
            return TextValue::full(text);
        }
        let half = limit / 2;
        let head_end = floor_char_boundary(text, half);
        let tail_start = ceil_char_boundary(text, text.len() - half);
        let elided = tail_start - head_end;
        let mut s = String::with_capacity(limit + 48);
        s.push_str(&text[..head_end]);
        s.push_str(&format!("\n[… {elided} bytes elided …]\n"));
        s.push_str(&text[tail_start..]);
        TextValue {
            text: s,
            byte_len: text.len() as u64,
            truncated: true,
        }
    }
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    while i > 0 && !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char_boundary(s: &str, mut i: usize) -> usize {
    while i < s.len() && !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReasoningMode {
    /// The model's reasoning as written.
    Full,
    /// A summary the runtime produced.
    Summary,
    /// Reasoning happened but its content is not readable (encrypted, omitted).
    Unavailable,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReasoningValue {
    pub mode: ReasoningMode,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<TextValue>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCallValue {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    pub name: String,
    /// The arguments as the runtime wrote them (already parsed when the runtime wrote a JSON
    /// string).
    #[serde(default, skip_serializing_if = "serde_json::Value::is_null")]
    pub arguments: serde_json::Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
}

/// A tool call that runs a shell command.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShellCallValue {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// The runtime's tool name (`Bash`, `shell`, `exec_command`, `bash`, ...).
    pub tool_name: String,
    pub command: String,
    /// `command` split into simple commands (see [`crate::shell::parse_invocations`]).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub invocations: Vec<Invocation>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_ms: Option<u64>,
}

/// One simple command inside a shell command line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Invocation {
    pub program: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub argv: Vec<String>,
    /// `NAME=value` assignments written before the program.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub env: Vec<String>,
    /// Directory set by a preceding `cd` in the same command line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Files this invocation's output is redirected into (`> f`, `>> f`, `&> f`), excluding
    /// `/dev/null` and descriptor duplications.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub redirects_to: Vec<String>,
    /// How this invocation connects to the next one (`&&`, `||`, `;`, `|`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub then: Option<Connector>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Connector {
    #[serde(rename = "&&")]
    And,
    #[serde(rename = "||")]
    Or,
    #[serde(rename = ";")]
    Seq,
    #[serde(rename = "|")]
    Pipe,
    #[serde(rename = "&")]
    Background,
}

/// An exit code and how sure we are of it: structural when the runtime wrote the number,
/// heuristic when it was derived (for example 0 assumed from a success without a code).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExitCode {
    pub code: i64,
    pub strength: EvidenceStrength,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolOutputValue {
    /// The call this output answers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_name: Option<String>,
    /// The output as the model saw it (for shell tools: stdout, or the combined stream).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<TextValue>,
    /// Standard error, when the runtime keeps it apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<TextValue>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<ExitCode>,
    /// The runtime marked the call as failed (`is_error`, `isError`, status `error`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// The runtime itself truncated the output before recording it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_truncated: Option<bool>,
}

/// A subagent's activity or report, linked to the subagent's session when known.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SubagentValue {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub child_session: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_type: Option<String>,
    /// started | completed | failed | ... as the runtime states it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<TextValue>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_invariants() {
        let ok = Usage {
            input_tokens: Some(10),
            cached_input_tokens: Some(4),
            output_tokens: Some(5),
            reasoning_output_tokens: Some(5),
        };
        assert!(ok.validate().is_ok());
        let bad = Usage {
            cached_input_tokens: Some(11),
            ..ok
        };
        assert!(matches!(
            bad.validate(),
            Err(UsageError::CachedExceedsInput { .. })
        ));
        let bad = Usage {
            reasoning_output_tokens: Some(6),
            ..ok
        };
        assert!(matches!(
            bad.validate(),
            Err(UsageError::ReasoningExceedsOutput { .. })
        ));
    }

    #[test]
    fn usage_missing_is_not_zero() {
        let mut u = Usage::default();
        u.accumulate(&Usage {
            output_tokens: Some(3),
            ..Usage::default()
        });
        assert_eq!(u.output_tokens, Some(3));
        assert_eq!(u.input_tokens, None);
        let json = serde_json::to_value(u).unwrap();
        assert!(json.get("input_tokens").is_none());
    }

    #[test]
    fn roles_have_trace_index_names() {
        for role in Role::ALL {
            let json = serde_json::to_string(&role).unwrap();
            assert_eq!(json, format!("\"{}\"", role.as_str()));
            assert_eq!(Role::parse(role.as_str()), Some(role));
        }
    }

    #[test]
    fn capped_text_keeps_head_and_tail() {
        let text = format!(
            "{}{}",
            "a".repeat(1000),
            "test result: FAILED. 1 passed; 2 failed"
        );
        let v = TextValue::capped(&text, 100);
        assert!(v.truncated);
        assert_eq!(v.byte_len, text.len() as u64);
        assert!(v.text.starts_with("aaaa"));
        assert!(v.text.ends_with("2 failed"));
        let short = TextValue::capped("é ok", 100);
        assert!(!short.truncated);
    }

    #[test]
    fn capped_text_respects_char_boundaries() {
        let text = "é".repeat(200);
        let v = TextValue::capped(&text, 51);
        assert!(v.truncated);
        assert!(v.text.contains("elided"));
    }

    #[test]
    fn consistency_rejects_mismatched_value() {
        let s = Semantic::new(
            Role::ToolOutput,
            SemanticValue::Text(TextValue::full("x")),
            EvidenceStrength::Structural,
        );
        assert!(!s.is_consistent());
        let s = Semantic::new(
            Role::AgentFinalAnswer,
            SemanticValue::Text(TextValue::full("done")),
            EvidenceStrength::Structural,
        );
        assert!(s.is_consistent());
    }

    #[test]
    fn weakest_strength_wins() {
        assert_eq!(
            EvidenceStrength::Structural.weakest(EvidenceStrength::Heuristic),
            EvidenceStrength::Heuristic
        );
    }
}
