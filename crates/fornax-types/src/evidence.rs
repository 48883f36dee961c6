//! Evidence: what was observed, in a closed canonical shape, with its provenance.
//!
//! Every [`Evidence`] carries an [`EvidencePayload`]: a closed enum with one struct per
//! [`EvidenceKind`], each rejecting unknown fields. The payload is typed from the moment a
//! producer makes it to the moment a verifier reads it; it is only serialized at the edges (the
//! wire, the store), where [`EvidencePayload::from_parts`] reads it back once. Provider specific
//! data that fits no kind rides in an [`ExtensionEnvelope`](crate::ExtensionEnvelope).

use serde::{Deserialize, Serialize};

use crate::canonical::EvidenceStrength;
use crate::extension::ExtensionEnvelope;
use crate::{Provider, RecordRef, SessionRef};

/// The closed set of canonical evidence kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EvidenceKind {
    /// Exit status of a command the agent ran ([`ExitCodePayload`]).
    ExitCode,
    /// A test runner's summary parsed from output ([`TestSummaryPayload`]).
    TestSummary,
    /// A file created, changed or removed, or an attempt that failed ([`FileDiffPayload`]).
    FileDiff,
    /// A git outcome read from command output ([`GitOutcomePayload`]).
    GitOutcome,
    /// A tool call's success or failure as the runtime reported it ([`ToolResultPayload`]).
    ToolResult,
    /// A process Fornax ran itself ([`ProcessObservationPayload`]).
    ProcessObservation,
    /// A commit looked up in the repository on this machine ([`GitCommitCheckPayload`]).
    GitCommitCheck,
    /// A short excerpt of transcript text ([`TranscriptExcerptPayload`]).
    TranscriptExcerpt,
}

impl EvidenceKind {
    pub const ALL: [EvidenceKind; 8] = [
        EvidenceKind::ExitCode,
        EvidenceKind::TestSummary,
        EvidenceKind::FileDiff,
        EvidenceKind::GitOutcome,
        EvidenceKind::ToolResult,
        EvidenceKind::ProcessObservation,
        EvidenceKind::GitCommitCheck,
        EvidenceKind::TranscriptExcerpt,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            EvidenceKind::ExitCode => "exit_code",
            EvidenceKind::TestSummary => "test_summary",
            EvidenceKind::FileDiff => "file_diff",
            EvidenceKind::GitOutcome => "git_outcome",
            EvidenceKind::ToolResult => "tool_result",
            EvidenceKind::ProcessObservation => "process_observation",
            EvidenceKind::GitCommitCheck => "git_commit_check",
            EvidenceKind::TranscriptExcerpt => "transcript_excerpt",
        }
    }

    pub fn parse(name: &str) -> Option<EvidenceKind> {
        EvidenceKind::ALL.into_iter().find(|k| k.as_str() == name)
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExitCodePayload {
    pub command: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// `None` when the runtime recorded no exit status at all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i64>,
    pub strength: EvidenceStrength,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interrupted: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed_out: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestSummaryPayload {
    /// Which runner's format was recognized (`cargo`, `pytest`, `go`, `jest`, ...).
    pub runner: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub skipped: Option<u64>,
    /// Tests excluded by a filter, when the runner reports it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filtered_out: Option<u64>,
    /// The run selected a subset of the suite (a filter, a package, a path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub filtered: Option<bool>,
    /// What the output showed per scope (test, file, package, module), failures first when
    /// the list is bounded.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<TestScopeResult>,
    /// More scopes were shown than were kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scopes_truncated: Option<bool>,
}

/// How one scope of a test run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TestOutcome {
    Passed,
    Failed,
    Skipped,
}

/// One scope a test runner reported on: a test, a file, a package or a module, as the runner
/// named it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TestScopeResult {
    pub unit: crate::judgement::ScopeUnit,
    pub name: String,
    pub outcome: TestOutcome,
    /// Tests that passed in the scope, when the runner counts them per scope.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passed: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FileOperation {
    Create,
    Update,
    Delete,
    Rename,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileDiffPayload {
    pub path: String,
    pub operation: FileOperation,
    /// `false` when the attempt failed (for example an edit whose old text was not found).
    pub succeeded: bool,
    /// The tool or mechanism (`Write`, `Edit`, `apply_patch`, `shell_redirect`, `sed -i`, ...).
    pub tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines_added: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines_removed: Option<u64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum GitOutcomeKind {
    CommitCreated,
    NothingToCommit,
    CommitFailed,
    /// A commit shown by `git log`, `git show` or `git branch -v`: it exists in the repository,
    /// whoever made it.
    CommitListed,
    PushUpdated,
    PushRejected,
    PushUpToDate,
    PushFailed,
}

impl GitOutcomeKind {
    /// The outcome in words ("commit created", "push rejected").
    pub fn words(self) -> &'static str {
        match self {
            GitOutcomeKind::CommitCreated => "commit created",
            GitOutcomeKind::NothingToCommit => "nothing to commit",
            GitOutcomeKind::CommitFailed => "commit failed",
            GitOutcomeKind::CommitListed => "commit listed",
            GitOutcomeKind::PushUpdated => "push updated",
            GitOutcomeKind::PushRejected => "push rejected",
            GitOutcomeKind::PushUpToDate => "push up to date",
            GitOutcomeKind::PushFailed => "push failed",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GitOutcomePayload {
    pub outcome: GitOutcomeKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    /// Short or full sha of the created commit, or the new tip of a push.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remote: Option<String>,
    /// The commit's subject line, when the output shows it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ToolResultPayload {
    pub tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
    pub failed: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProcessObservationPayload {
    /// The program and its arguments, as spawned (no shell).
    pub argv: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timed_out: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    /// The capability that ran it, when one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub capability_id: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GitCommitCheckPayload {
    pub sha: String,
    pub exists: bool,
    pub repository: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub full_sha: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TranscriptExcerptPayload {
    pub text: String,
}

/// The content of a piece of evidence: one closed shape per [`EvidenceKind`].
///
/// On the wire and in JSON it is `"kind": "<kind>", "payload": {...}`, flattened into the
/// [`Evidence`] that carries it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "payload", rename_all = "snake_case")]
pub enum EvidencePayload {
    ExitCode(ExitCodePayload),
    TestSummary(TestSummaryPayload),
    FileDiff(FileDiffPayload),
    GitOutcome(GitOutcomePayload),
    ToolResult(ToolResultPayload),
    ProcessObservation(ProcessObservationPayload),
    GitCommitCheck(GitCommitCheckPayload),
    TranscriptExcerpt(TranscriptExcerptPayload),
}

/// A stored or received payload that does not match its kind's canonical shape.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("payload is not a canonical {kind} payload: {message}")]
pub struct PayloadError {
    pub kind: String,
    pub message: String,
}

fn parse<T: serde::de::DeserializeOwned>(kind: &str, content: &str) -> Result<T, PayloadError> {
    serde_json::from_str(content).map_err(|e| PayloadError {
        kind: kind.to_string(),
        message: e.to_string(),
    })
}

impl EvidencePayload {
    pub fn kind(&self) -> EvidenceKind {
        match self {
            EvidencePayload::ExitCode(_) => EvidenceKind::ExitCode,
            EvidencePayload::TestSummary(_) => EvidenceKind::TestSummary,
            EvidencePayload::FileDiff(_) => EvidenceKind::FileDiff,
            EvidencePayload::GitOutcome(_) => EvidenceKind::GitOutcome,
            EvidencePayload::ToolResult(_) => EvidenceKind::ToolResult,
            EvidencePayload::ProcessObservation(_) => EvidenceKind::ProcessObservation,
            EvidencePayload::GitCommitCheck(_) => EvidenceKind::GitCommitCheck,
            EvidencePayload::TranscriptExcerpt(_) => EvidenceKind::TranscriptExcerpt,
        }
    }

    /// The runtime's id of the call the evidence is about, when it names one.
    pub fn call_id(&self) -> Option<&str> {
        match self {
            EvidencePayload::ExitCode(p) => p.call_id.as_deref(),
            EvidencePayload::TestSummary(p) => p.call_id.as_deref(),
            EvidencePayload::FileDiff(p) => p.call_id.as_deref(),
            EvidencePayload::GitOutcome(p) => p.call_id.as_deref(),
            EvidencePayload::ToolResult(p) => p.call_id.as_deref(),
            EvidencePayload::ProcessObservation(_)
            | EvidencePayload::GitCommitCheck(_)
            | EvidencePayload::TranscriptExcerpt(_) => None,
        }
    }

    pub fn exit_code(&self) -> Option<&ExitCodePayload> {
        match self {
            EvidencePayload::ExitCode(p) => Some(p),
            _ => None,
        }
    }

    pub fn test_summary(&self) -> Option<&TestSummaryPayload> {
        match self {
            EvidencePayload::TestSummary(p) => Some(p),
            _ => None,
        }
    }

    pub fn file_diff(&self) -> Option<&FileDiffPayload> {
        match self {
            EvidencePayload::FileDiff(p) => Some(p),
            _ => None,
        }
    }

    pub fn git_outcome(&self) -> Option<&GitOutcomePayload> {
        match self {
            EvidencePayload::GitOutcome(p) => Some(p),
            _ => None,
        }
    }

    pub fn process_observation(&self) -> Option<&ProcessObservationPayload> {
        match self {
            EvidencePayload::ProcessObservation(p) => Some(p),
            _ => None,
        }
    }

    pub fn git_commit_check(&self) -> Option<&GitCommitCheckPayload> {
        match self {
            EvidencePayload::GitCommitCheck(p) => Some(p),
            _ => None,
        }
    }

    /// Reads a payload kept as its kind's name and the JSON of its content (a store row).
    /// An unknown kind or a content that is not exactly that kind's shape is an error.
    pub fn from_parts(kind: &str, content: &str) -> Result<Self, PayloadError> {
        let kind_name = kind;
        let Some(kind) = EvidenceKind::parse(kind) else {
            return Err(PayloadError {
                kind: kind_name.to_string(),
                message: "unknown evidence kind".to_string(),
            });
        };
        Ok(match kind {
            EvidenceKind::ExitCode => EvidencePayload::ExitCode(parse(kind_name, content)?),
            EvidenceKind::TestSummary => EvidencePayload::TestSummary(parse(kind_name, content)?),
            EvidenceKind::FileDiff => EvidencePayload::FileDiff(parse(kind_name, content)?),
            EvidenceKind::GitOutcome => EvidencePayload::GitOutcome(parse(kind_name, content)?),
            EvidenceKind::ToolResult => EvidencePayload::ToolResult(parse(kind_name, content)?),
            EvidenceKind::ProcessObservation => {
                EvidencePayload::ProcessObservation(parse(kind_name, content)?)
            }
            EvidenceKind::GitCommitCheck => {
                EvidencePayload::GitCommitCheck(parse(kind_name, content)?)
            }
            EvidenceKind::TranscriptExcerpt => {
                EvidencePayload::TranscriptExcerpt(parse(kind_name, content)?)
            }
        })
    }

    /// The JSON of the content alone (what [`EvidencePayload::from_parts`] reads back).
    pub fn content_json(&self) -> Result<String, serde_json::Error> {
        match self {
            EvidencePayload::ExitCode(p) => serde_json::to_string(p),
            EvidencePayload::TestSummary(p) => serde_json::to_string(p),
            EvidencePayload::FileDiff(p) => serde_json::to_string(p),
            EvidencePayload::GitOutcome(p) => serde_json::to_string(p),
            EvidencePayload::ToolResult(p) => serde_json::to_string(p),
            EvidencePayload::ProcessObservation(p) => serde_json::to_string(p),
            EvidencePayload::GitCommitCheck(p) => serde_json::to_string(p),
            EvidencePayload::TranscriptExcerpt(p) => serde_json::to_string(p),
        }
    }

    /// Every free-text field of the payload, for the redaction boundary. Identifiers (call
    /// ids, shas), enums and numbers are not text.
    pub fn texts_mut(&mut self) -> Vec<&mut String> {
        fn opt(v: &mut Option<String>) -> impl Iterator<Item = &mut String> {
            v.as_mut().into_iter()
        }
        match self {
            EvidencePayload::ExitCode(p) => std::iter::once(&mut p.command)
                .chain(opt(&mut p.cwd))
                .collect(),
            EvidencePayload::TestSummary(p) => opt(&mut p.command).collect(),
            EvidencePayload::FileDiff(p) => std::iter::once(&mut p.path)
                .chain(std::iter::once(&mut p.tool))
                .chain(opt(&mut p.error))
                .collect(),
            EvidencePayload::GitOutcome(p) => opt(&mut p.command)
                .chain(opt(&mut p.branch))
                .chain(opt(&mut p.remote))
                .chain(opt(&mut p.summary))
                .collect(),
            EvidencePayload::ToolResult(p) => std::iter::once(&mut p.tool)
                .chain(opt(&mut p.error))
                .collect(),
            EvidencePayload::ProcessObservation(p) => {
                p.argv.iter_mut().chain(opt(&mut p.cwd)).collect()
            }
            EvidencePayload::GitCommitCheck(p) => std::iter::once(&mut p.repository)
                .chain(opt(&mut p.summary))
                .collect(),
            EvidencePayload::TranscriptExcerpt(p) => vec![&mut p.text],
        }
    }

    /// A one-line description for people (`` `cargo test` exited 101 ``, `pytest summary: 40
    /// passed, 1 failed`, `Edit wrote src/a.rs`).
    pub fn describe(&self) -> String {
        fn count(v: Option<u64>) -> String {
            v.map_or_else(|| "?".to_string(), |n| n.to_string())
        }
        match self {
            EvidencePayload::ExitCode(p) => match p.exit_code {
                Some(code) => format!("`{}` exited {code}", short(&p.command, 80)),
                None => format!("`{}` (no exit status recorded)", short(&p.command, 80)),
            },
            EvidencePayload::TestSummary(p) => format!(
                "{} summary: {} passed, {} failed{}",
                p.runner,
                count(p.passed),
                count(p.failed),
                if p.filtered == Some(true) {
                    " (filtered run)"
                } else {
                    ""
                }
            ),
            EvidencePayload::FileDiff(p) => format!(
                "{} {} {}",
                p.tool,
                match (p.succeeded, p.operation) {
                    (false, _) => "failed on",
                    (true, FileOperation::Delete) => "deleted",
                    (true, _) => "wrote",
                },
                p.path
            ),
            EvidencePayload::GitOutcome(p) => {
                let what = p.outcome.words();
                match &p.sha {
                    Some(sha) => format!("git {what} {sha}"),
                    None => format!("git {what}"),
                }
            }
            EvidencePayload::ToolResult(p) => format!(
                "{} {}",
                p.tool,
                if p.failed { "failed" } else { "succeeded" }
            ),
            EvidencePayload::ProcessObservation(p) => format!(
                "fornax ran `{}`: exit {}",
                short(&p.argv.join(" "), 80),
                p.exit_code
                    .map_or_else(|| "?".to_string(), |c| c.to_string())
            ),
            EvidencePayload::GitCommitCheck(p) => format!(
                "commit {} {} in {}",
                p.sha,
                if p.exists { "exists" } else { "not found" },
                p.repository
            ),
            EvidencePayload::TranscriptExcerpt(p) => format!("excerpt: {}", short(&p.text, 80)),
        }
    }
}

fn short(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        return s.to_string();
    }
    let mut out: String = s.chars().take(n).collect();
    out.push('…');
    out
}

/// How far to trust a piece of evidence.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TrustClass {
    /// The runtime's own account of what happened.
    AgentAdjacent,
    /// Fornax measured it itself.
    HostObserved,
    /// A system outside both the agent and the host.
    IndependentExternal,
    /// Confirmed by a person.
    HumanReviewed,
    /// The model's own internals.
    ModelInternal,
    /// Written before provenance was tracked.
    PreProvenance,
    /// Fornax ran it, from a workspace capability whose every file the user trusted by content
    /// hash: the agent could have written those files, the user vouched for this exact content.
    WorkspaceTrusted,
    /// Fornax ran it once, at the user's request, from a workspace capability nobody trusted:
    /// recorded, but never the basis of a verdict.
    WorkspaceUntrusted,
}

impl TrustClass {
    /// May a verdict rest on evidence of this class? Not on runs of capabilities the watched
    /// agent could have written and the user did not trust.
    pub fn may_decide_verdicts(self) -> bool {
        self != TrustClass::WorkspaceUntrusted
    }
}

/// How the evidence was collected (independent of trust).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CollectionMethod {
    /// A hook command the runtime invoked.
    HookCallback,
    /// An in-process plugin callback.
    PluginCallback,
    /// Reading a file the runtime writes (live tailing or import).
    FilePoll,
    /// Derived by a core sensor from canonical items.
    CanonicalDerivation,
    /// A process Fornax spawned and watched.
    ProcessObservation,
    /// Reading a repository on this machine.
    RepositoryRead,
    /// Written before provenance was tracked.
    PreProvenance,
}

/// Which clock a timestamp came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClockSource {
    /// The runtime wrote the timestamp into its record.
    RuntimeRecord,
    /// This machine's clock when Fornax observed it.
    HostClock,
    /// No timestamp exists; ordering is by record position only.
    RecordOrderOnly,
    PreProvenance,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Freshness {
    pub clock: ClockSource,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caveat: Option<String>,
}

/// Structured provenance. Holds identifiers only (no free text a secret could hide in), which
/// is why the redaction boundary does not walk it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EvidenceSource {
    #[serde(default = "pre_provenance_name")]
    pub sensor_name: String,
    #[serde(default = "pre_provenance_trust")]
    pub trust_class: TrustClass,
    #[serde(default = "pre_provenance_method")]
    pub collection_method: CollectionMethod,
    #[serde(default = "pre_provenance_name")]
    pub collector_version: String,
    #[serde(default = "pre_provenance_freshness")]
    pub freshness: Freshness,
    #[serde(default = "pre_provenance_boundary")]
    pub tamper_boundary: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collected_at: Option<String>,
    #[serde(default = "pre_provenance_provider")]
    pub provider: Provider,
}

/// Literal used for fields that predate provenance tracking.
pub const PRE_PROVENANCE: &str = "unknown (record predates provenance tracking)";

fn pre_provenance_name() -> String {
    PRE_PROVENANCE.to_string()
}
fn pre_provenance_trust() -> TrustClass {
    TrustClass::PreProvenance
}
fn pre_provenance_method() -> CollectionMethod {
    CollectionMethod::PreProvenance
}
fn pre_provenance_freshness() -> Freshness {
    Freshness {
        clock: ClockSource::PreProvenance,
        caveat: None,
    }
}
fn pre_provenance_boundary() -> String {
    "unknown (record predates tamper-boundary tracking)".to_string()
}
fn pre_provenance_provider() -> Provider {
    Provider::Other("unknown".to_string())
}

impl EvidenceSource {
    /// The honest value for evidence written without provenance.
    pub fn pre_provenance() -> Self {
        EvidenceSource {
            sensor_name: pre_provenance_name(),
            trust_class: pre_provenance_trust(),
            collection_method: pre_provenance_method(),
            collector_version: pre_provenance_name(),
            freshness: pre_provenance_freshness(),
            tamper_boundary: pre_provenance_boundary(),
            collected_at: None,
            provider: pre_provenance_provider(),
        }
    }

    pub fn is_pre_provenance(&self) -> bool {
        self.trust_class == TrustClass::PreProvenance
    }
}

/// One observation supporting or refuting claims.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Evidence {
    /// Unique within the session; chosen by the producer (deterministic, so that re-deriving
    /// evidence replaces rather than duplicates it).
    pub id: String,
    pub session: SessionRef,
    /// What was observed: `"kind"` and `"payload"` in JSON.
    #[serde(flatten)]
    pub payload: EvidencePayload,
    #[serde(default = "EvidenceSource::pre_provenance")]
    pub source: EvidenceSource,
    /// A short breadcrumb: `provider:adapter_version:native_discriminator`.
    #[serde(default)]
    pub provenance: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extension: Option<ExtensionEnvelope>,
    /// The canonical item this was derived from, when there is one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub item_key: Option<String>,
    /// The loop the observation happened in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_position: Option<u32>,
    /// The runtime's timestamp of the observation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub records: Vec<RecordRef>,
}

impl Evidence {
    pub fn kind(&self) -> EvidenceKind {
        self.payload.kind()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn payloads_are_closed() {
        let ok = r#"{"command": "cargo test", "exit_code": 0, "strength": "structural"}"#;
        let p = EvidencePayload::from_parts("exit_code", ok).unwrap();
        assert_eq!(p.kind(), EvidenceKind::ExitCode);
        let extra = r#"{"command": "cargo test", "strength": "structural", "vibes": 1}"#;
        let err = EvidencePayload::from_parts("exit_code", extra).unwrap_err();
        assert!(err.to_string().contains("vibes"), "{err}");
        assert!(EvidencePayload::from_parts("file_diff", r#"{"path": 3}"#).is_err());
        let unknown = EvidencePayload::from_parts("telepathy", "{}").unwrap_err();
        assert_eq!(unknown.kind, "telepathy");
    }

    #[test]
    fn parts_round_trip_for_every_kind() {
        let payloads = [
            EvidencePayload::ExitCode(ExitCodePayload {
                command: "make".into(),
                call_id: None,
                cwd: None,
                exit_code: Some(2),
                strength: EvidenceStrength::Heuristic,
                failed: Some(true),
                interrupted: None,
                timed_out: None,
                duration_ms: None,
            }),
            EvidencePayload::FileDiff(FileDiffPayload {
                path: "a.rs".into(),
                operation: FileOperation::Delete,
                succeeded: true,
                tool: "rm".into(),
                call_id: None,
                error: None,
                lines_added: None,
                lines_removed: None,
            }),
            EvidencePayload::TranscriptExcerpt(TranscriptExcerptPayload { text: "x".into() }),
        ];
        for p in payloads {
            let back =
                EvidencePayload::from_parts(p.kind().as_str(), &p.content_json().unwrap()).unwrap();
            assert_eq!(back, p);
        }
    }

    #[test]
    fn evidence_json_keeps_kind_and_payload_side_by_side() {
        let ev: Evidence = serde_json::from_value(json!({
            "id": "e1",
            "session": {"provider": "codex", "native_id": "s"},
            "kind": "exit_code",
            "payload": {"command": "ls", "strength": "heuristic"}
        }))
        .unwrap();
        assert!(ev.source.is_pre_provenance());
        assert_eq!(ev.source.collection_method, CollectionMethod::PreProvenance);
        assert!(ev.source.tamper_boundary.contains("predates"));
        assert_eq!(ev.kind(), EvidenceKind::ExitCode);
        let back = serde_json::to_value(&ev).unwrap();
        assert_eq!(back["kind"], "exit_code");
        assert_eq!(back["payload"]["command"], "ls");
        let bad = serde_json::from_value::<Evidence>(json!({
            "id": "e1",
            "session": {"provider": "codex", "native_id": "s"},
            "kind": "exit_code",
            "payload": {"command": "ls", "strength": "heuristic", "extra": true}
        }));
        assert!(bad.is_err());
    }

    #[test]
    fn partial_source_keeps_known_fields() {
        let src: EvidenceSource = serde_json::from_value(json!({
            "sensor_name": "exit_status",
            "trust_class": "agent_adjacent"
        }))
        .unwrap();
        assert_eq!(src.sensor_name, "exit_status");
        assert_eq!(src.trust_class, TrustClass::AgentAdjacent);
        assert_eq!(src.freshness.clock, ClockSource::PreProvenance);
    }
}
