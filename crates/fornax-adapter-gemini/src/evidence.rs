//! File-mutation evidence: only the adapter can pair a `write_file`/`replace` call's target
//! with its outcome, so it publishes that evidence itself. Exit codes, test summaries and git
//! outcomes are derived by core sensors from the items.

use fornax_types::evidence::FileOperation;
use fornax_types::kit::{EditSensor, FileEdit};
use fornax_types::{CollectionMethod, Evidence, Provider, RecordRef, SessionRef};

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
    pub fn into_evidence(self) -> Option<Evidence> {
        let mut edit = FileEdit::new(self.session.clone(), self.path, self.operation, self.tool);
        edit.succeeded = self.succeeded;
        edit.call_id = Some(self.call_id.to_string());
        edit.error = self.error;
        edit.lines_added = self.lines.map(|l| l.0);
        edit.lines_removed = self.lines.map(|l| l.1);
        edit.item_key = Some(self.item_key);
        edit.loop_position = self.loop_position;
        edit.at = self.at;
        edit.records = vec![self.record];
        edit.discriminator = "toolCall".to_string();
        edit.into_evidence(&EditSensor {
            provider: Provider::Gemini,
            sensor_name: "gemini.file_mutation",
            collector_version: self.adapter_version,
            method: CollectionMethod::FilePoll,
            tamper_boundary: TAMPER_BOUNDARY,
        })
    }
}
