//! File-mutation evidence: only the adapter can pair a `write`/`edit` call's target with its
//! result, so it publishes that evidence itself. Exit codes, test summaries and git outcomes
//! are derived by core sensors from the items.

use fornax_types::evidence::FileOperation;
use fornax_types::kit::{EditSensor, FileEdit};
use fornax_types::{CollectionMethod, Evidence, Provider, RecordRef, SessionRef};

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
    pub fn into_evidence(self) -> Option<Evidence> {
        // `write` creates or overwrites; Pi does not record which, so it reads as a creation.
        let operation = if self.target.tool == "edit" {
            FileOperation::Update
        } else {
            FileOperation::Create
        };
        let mut edit = FileEdit::new(
            self.session.clone(),
            self.target.path.clone(),
            operation,
            self.target.tool.clone(),
        );
        edit.succeeded = !self.failed;
        edit.call_id = Some(self.call_id.to_string());
        edit.error = self.error;
        edit.lines_added = self.lines.map(|l| l.0);
        edit.lines_removed = self.lines.map(|l| l.1);
        edit.item_key = Some(self.item_key);
        edit.loop_position = self.loop_position;
        edit.at = self.at;
        edit.records = self.records;
        edit.discriminator = "message:toolResult".to_string();
        edit.into_evidence(&EditSensor {
            provider: Provider::Pi,
            sensor_name: "pi.file_mutation",
            collector_version: self.adapter_version,
            method: CollectionMethod::FilePoll,
            tamper_boundary: TAMPER_BOUNDARY,
        })
    }
}
