//! File-mutation evidence: only the adapter can pair a `write_file`/`replace` call's target
//! with its outcome, so it publishes that evidence itself. Exit codes, test summaries and git
//! outcomes are derived by core sensors from the items.

use fornax_types::evidence::{FileDiffPayload, FileOperation};
use fornax_types::{
    ClockSource, CollectionMethod, Evidence, EvidencePayload, EvidenceSource, Freshness, Provider,
    RecordRef, SessionRef, TrustClass,
};

/// Where the evidence's bytes come from, and who could have changed them.
const TAMPER_BOUNDARY: &str =
    "Gemini CLI's own chat file under ~/.gemini/tmp/<project-hash>/chats: \
    written by the agent runtime, and writable by anyone with access to the user's home directory";

/// Everything the file-mutation evidence of one tool call needs.
#[derive(Debug)]
pub(crate) struct FileMutation<'a> {
    pub session: &'a SessionRef,
    pub call_id: &'a str,
    pub tool: &'a str,
    pub path: &'a str,
    pub operation: FileOperation,
    pub succeeded: bool,
    pub error: Option<String>,
    pub lines: Option<(u64, u64)>,
    pub item_key: String,
    pub loop_position: Option<u32>,
    pub at: Option<String>,
    pub record: RecordRef,
    pub adapter_version: &'static str,
}

impl FileMutation<'_> {
    pub fn into_evidence(self) -> Evidence {
        let payload = FileDiffPayload {
            path: self.path.to_string(),
            operation: self.operation,
            succeeded: self.succeeded,
            tool: self.tool.to_string(),
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
            id: format!("file:{}:{}", self.call_id, self.path),
            session: self.session.clone(),
            payload: EvidencePayload::FileDiff(payload),
            source: EvidenceSource {
                sensor_name: "gemini.file_mutation".into(),
                trust_class: TrustClass::AgentAdjacent,
                collection_method: CollectionMethod::FilePoll,
                collector_version: self.adapter_version.into(),
                freshness: Freshness {
                    clock,
                    caveat: None,
                },
                tamper_boundary: TAMPER_BOUNDARY.into(),
                collected_at: None,
                provider: Provider::Gemini,
            },
            provenance: format!("gemini:{}:toolCall:{}", self.adapter_version, self.tool),
            extension: None,
            item_key: Some(self.item_key),
            loop_position: self.loop_position,
            at: self.at,
            records: vec![self.record],
        }
    }
}
