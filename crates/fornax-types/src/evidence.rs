//! Evidence: what was observed, in a closed canonical shape, with its provenance.
//!
//! Every [`Evidence`] has an [`EvidenceKind`] and a payload that must validate against that
//! kind's closed struct (`deny_unknown_fields`), see [`validate_canonical_payload`]. Provider
//! specific data that fits no kind rides in an [`ExtensionEnvelope`](crate::ExtensionEnvelope).

use serde::de::DeserializeOwned;
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
    PushUpdated,
    PushRejected,
    PushUpToDate,
    PushFailed,
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

/// A payload that does not match its kind's canonical shape.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("payload is not a canonical {kind} payload: {message}")]
pub struct PayloadError {
    pub kind: &'static str,
    pub message: String,
}

fn check<T: DeserializeOwned>(
    kind: EvidenceKind,
    payload: &serde_json::Value,
) -> Result<(), PayloadError> {
    T::deserialize(payload)
        .map(|_| ())
        .map_err(|e| PayloadError {
            kind: kind.as_str(),
            message: e.to_string(),
        })
}

/// Checks that `payload` is exactly the closed shape of `kind`.
pub fn validate_canonical_payload(
    kind: EvidenceKind,
    payload: &serde_json::Value,
) -> Result<(), PayloadError> {
    match kind {
        EvidenceKind::ExitCode => check::<ExitCodePayload>(kind, payload),
        EvidenceKind::TestSummary => check::<TestSummaryPayload>(kind, payload),
        EvidenceKind::FileDiff => check::<FileDiffPayload>(kind, payload),
        EvidenceKind::GitOutcome => check::<GitOutcomePayload>(kind, payload),
        EvidenceKind::ToolResult => check::<ToolResultPayload>(kind, payload),
        EvidenceKind::ProcessObservation => check::<ProcessObservationPayload>(kind, payload),
        EvidenceKind::GitCommitCheck => check::<GitCommitCheckPayload>(kind, payload),
        EvidenceKind::TranscriptExcerpt => check::<TranscriptExcerptPayload>(kind, payload),
    }
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
    pub kind: EvidenceKind,
    pub payload: serde_json::Value,
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
    /// Parses the payload into its typed struct.
    pub fn payload_as<T: DeserializeOwned>(&self) -> Option<T> {
        T::deserialize(&self.payload).ok()
    }

    pub fn validate(&self) -> Result<(), PayloadError> {
        validate_canonical_payload(self.kind, &self.payload)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn payloads_are_closed() {
        let ok = json!({"command": "cargo test", "exit_code": 0, "strength": "structural"});
        assert!(validate_canonical_payload(EvidenceKind::ExitCode, &ok).is_ok());
        let extra = json!({"command": "cargo test", "strength": "structural", "vibes": 1});
        let err = validate_canonical_payload(EvidenceKind::ExitCode, &extra).unwrap_err();
        assert!(err.to_string().contains("vibes"), "{err}");
        let wrong = json!({"path": 3});
        assert!(validate_canonical_payload(EvidenceKind::FileDiff, &wrong).is_err());
    }

    #[test]
    fn evidence_without_source_reads_as_pre_provenance() {
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
