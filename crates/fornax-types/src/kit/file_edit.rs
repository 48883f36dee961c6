//! FileDiff evidence from an agent's own file tools: the one kind of evidence an adapter
//! publishes itself, because only it can pair an edit tool's target with its result. Every
//! adapter builds it the same way through [`FileEdit`].

use crate::evidence::{FileDiffPayload, FileOperation};
use crate::{
    ClockSource, CollectionMethod, Evidence, EvidencePayload, EvidenceSource, Freshness, Provider,
    RecordRef, SessionRef, TrustClass,
};

/// Longest error text kept in a failed attempt's payload.
pub const ERROR_LIMIT: usize = 500;

/// Who observed the edit and how: the same for every edit an adapter reports through one
/// transport.
#[derive(Debug, Clone)]
pub struct EditSensor {
    pub provider: Provider,
    /// `<provider>.file_mutation`, or a transport-specific name.
    pub sensor_name: &'static str,
    pub collector_version: &'static str,
    pub method: CollectionMethod,
    /// Where the report's bytes come from and who could have changed them.
    pub tamper_boundary: &'static str,
}

/// One attempt of a file tool, as the runtime reported it.
#[derive(Debug, Clone)]
pub struct FileEdit {
    pub session: SessionRef,
    pub path: String,
    pub operation: FileOperation,
    pub succeeded: bool,
    /// The runtime's tool name (`edit`, `create`, `Write`, ...).
    pub tool: String,
    pub call_id: Option<String>,
    pub error: Option<String>,
    pub lines_added: Option<u64>,
    pub lines_removed: Option<u64>,
    /// The tool-output item this evidence is about.
    pub item_key: Option<String>,
    pub loop_position: Option<u32>,
    /// The runtime's timestamp of the result.
    pub at: Option<String>,
    pub records: Vec<RecordRef>,
    /// The native shape, for the provenance breadcrumb (`tool.execution_complete`, ...).
    pub discriminator: String,
}

impl FileEdit {
    /// A successful or failed attempt on `path`; counts, ids and place are set by the caller.
    pub fn new(
        session: SessionRef,
        path: impl Into<String>,
        operation: FileOperation,
        tool: impl Into<String>,
    ) -> Self {
        FileEdit {
            session,
            path: path.into(),
            operation,
            succeeded: true,
            tool: tool.into(),
            call_id: None,
            error: None,
            lines_added: None,
            lines_removed: None,
            item_key: None,
            loop_position: None,
            at: None,
            records: Vec::new(),
            discriminator: String::new(),
        }
    }

    /// The evidence, keyed by call (or item) and path so that a second witness of the same
    /// attempt replaces it. `None` for an empty path.
    pub fn into_evidence(self, sensor: &EditSensor) -> Option<Evidence> {
        if self.path.trim().is_empty() {
            return None;
        }
        let payload = FileDiffPayload {
            path: self.path.clone(),
            operation: self.operation,
            succeeded: self.succeeded,
            tool: self.tool.clone(),
            call_id: self.call_id.clone(),
            error: self.error.as_deref().map(shorten),
            lines_added: self.lines_added,
            lines_removed: self.lines_removed,
        };
        let anchor = self
            .call_id
            .as_deref()
            .or(self.item_key.as_deref())
            .unwrap_or("record");
        let clock = if self.at.is_some() {
            ClockSource::RuntimeRecord
        } else {
            ClockSource::RecordOrderOnly
        };
        Some(Evidence {
            id: format!("file:{anchor}:{}", self.path),
            session: self.session,
            payload: EvidencePayload::FileDiff(payload),
            source: EvidenceSource {
                sensor_name: sensor.sensor_name.to_string(),
                trust_class: TrustClass::AgentAdjacent,
                collection_method: sensor.method,
                collector_version: sensor.collector_version.to_string(),
                freshness: Freshness {
                    clock,
                    caveat: None,
                },
                tamper_boundary: sensor.tamper_boundary.to_string(),
                collected_at: None,
                provider: sensor.provider.clone(),
            },
            provenance: format!(
                "{}:{}:{}:{}",
                sensor.provider, sensor.collector_version, self.discriminator, self.tool
            ),
            extension: None,
            item_key: self.item_key,
            loop_position: self.loop_position,
            at: self.at,
            records: self.records,
        })
    }
}

/// An error text cut to [`ERROR_LIMIT`] bytes on a character boundary.
fn shorten(text: &str) -> String {
    let t = text.trim();
    if t.len() <= ERROR_LIMIT {
        return t.to_string();
    }
    let mut end = ERROR_LIMIT;
    while !t.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &t[..end])
}

/// Added and removed lines of a unified diff (`+`/`-` lines, headers excluded).
pub fn unified_diff_counts(diff: &str) -> (u64, u64) {
    let (mut added, mut removed) = (0u64, 0u64);
    for line in diff.lines() {
        if line.starts_with("+++") || line.starts_with("---") {
            continue;
        }
        match line.as_bytes().first() {
            Some(b'+') => added += 1,
            Some(b'-') => removed += 1,
            _ => {}
        }
    }
    (added, removed)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sensor() -> EditSensor {
        EditSensor {
            provider: Provider::Pi,
            sensor_name: "pi.file_mutation",
            collector_version: "0.1.0",
            method: CollectionMethod::FilePoll,
            tamper_boundary: "the runtime's own session file",
        }
    }

    #[test]
    fn evidence_is_canonical_and_keyed_by_call_and_path() {
        let mut edit = FileEdit::new(
            SessionRef::new(Provider::Pi, "s"),
            "src/a.rs",
            FileOperation::Update,
            "edit",
        );
        edit.call_id = Some("c1".into());
        edit.lines_added = Some(2);
        edit.lines_removed = Some(1);
        edit.discriminator = "toolResult".into();
        let ev = edit.into_evidence(&sensor()).unwrap();
        assert_eq!(ev.id, "file:c1:src/a.rs");
        let content = ev.payload.content_json().unwrap();
        let back = EvidencePayload::from_parts(ev.kind().as_str(), &content).unwrap();
        assert_eq!(back, ev.payload);
        let diff = ev.payload.file_diff().unwrap();
        assert_eq!(diff.lines_added, Some(2));
        assert_eq!(diff.lines_removed, Some(1));
        assert_eq!(ev.source.freshness.clock, ClockSource::RecordOrderOnly);
        assert_eq!(ev.provenance, "pi:0.1.0:toolResult:edit");
    }

    #[test]
    fn failures_keep_a_short_reason_and_empty_paths_give_nothing() {
        let mut edit = FileEdit::new(
            SessionRef::new(Provider::Pi, "s"),
            "a",
            FileOperation::Update,
            "edit",
        );
        edit.succeeded = false;
        edit.error = Some("x".repeat(2000));
        let ev = edit.into_evidence(&sensor()).unwrap();
        let error = ev.payload.file_diff().unwrap().error.as_deref().unwrap();
        assert!(error.len() <= ERROR_LIMIT + 3);
        let empty = FileEdit::new(
            SessionRef::new(Provider::Pi, "s"),
            " ",
            FileOperation::Create,
            "write",
        );
        assert!(empty.into_evidence(&sensor()).is_none());
    }

    #[test]
    fn diff_counts_skip_headers() {
        let diff = "--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n-old\n+new\n+more\n same\n";
        assert_eq!(unified_diff_counts(diff), (2, 1));
    }
}
