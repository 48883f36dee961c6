//! File-mutation evidence: only the adapter can pair a `write`/`edit` call's target with its
//! result, so it publishes that evidence itself. Exit codes, test summaries and git outcomes
//! are derived by core sensors from the items.

use fornax_types::evidence::{FileDiffPayload, FileOperation};
use fornax_types::{
    ClockSource, CollectionMethod, Evidence, EvidencePayload, EvidenceSource, Freshness, Provider,
    RecordRef, SessionRef, TrustClass,
};

use crate::state::FileTarget;

/// Where the evidence's bytes come from, and who could have changed them.
const TAMPER_BOUNDARY: &str = "Pi's own session file under ~/.pi/agent/sessions: written by the \
    agent runtime, and writable by anyone with access to the user's home directory";

/// Everything the file-mutation evidence of one tool result needs.
#[derive(Debug)]
pub(crate) struct FileMutation<'a> {
    pub session: &'a SessionRef,
    pub call_id: &'a str,
    pub target: &'a FileTarget,
    pub failed: bool,
    pub error: Option<String>,
    /// `+`/`-` line counts of the edit's diff, when Pi stored one.
    pub lines: Option<(u64, u64)>,
    pub item_key: String,
    pub loop_position: Option<u32>,
    pub at: Option<String>,
    pub records: Vec<RecordRef>,
    pub adapter_version: &'static str,
}

impl FileMutation<'_> {
    pub fn into_evidence(self) -> Evidence {
        // `write` creates or overwrites; Pi does not record which, so it reads as a creation.
        let operation = if self.target.tool == "edit" {
            FileOperation::Update
        } else {
            FileOperation::Create
        };
        let payload = FileDiffPayload {
            path: self.target.path.clone(),
            operation,
            succeeded: !self.failed,
            tool: self.target.tool.clone(),
            call_id: Some(self.call_id.to_string()),
            error: self.error,
            lines_added: self.lines.map(|l| l.0),
            lines_removed: self.lines.map(|l| l.1),
        };
        let clock = if self.at.is_some() {
            ClockSource::RuntimeRecord
        } else {
            ClockSource::RecordOrderOnly
        };
        Evidence {
            id: format!("file:{}:{}", self.call_id, self.target.path),
            session: self.session.clone(),
            payload: EvidencePayload::FileDiff(payload),
            source: EvidenceSource {
                sensor_name: "pi.file_mutation".into(),
                trust_class: TrustClass::AgentAdjacent,
                collection_method: CollectionMethod::FilePoll,
                collector_version: self.adapter_version.into(),
                freshness: Freshness {
                    clock,
                    caveat: None,
                },
                tamper_boundary: TAMPER_BOUNDARY.into(),
                collected_at: None,
                provider: Provider::Pi,
            },
            provenance: format!(
                "pi:{}:message:toolResult:{}",
                self.adapter_version, self.target.tool
            ),
            extension: None,
            item_key: Some(self.item_key),
            loop_position: self.loop_position,
            at: self.at,
            records: self.records,
        }
    }
}
