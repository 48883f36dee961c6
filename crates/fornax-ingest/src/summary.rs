//! What a scan did, for the summary the CLI prints.

use std::collections::BTreeMap;

use serde::Serialize;

#[derive(Debug, Clone, Default, Serialize)]
pub struct SourceCounts {
    pub new: u64,
    pub appended: u64,
    pub unchanged: u64,
    pub rebuilt: u64,
    /// Skipped sources by reason.
    pub skipped: BTreeMap<String, u64>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct ScanSummary {
    pub sources: SourceCounts,
    pub bytes_read: u64,
    /// Documents of trees and databases read to be placed (unchanged tree files are not).
    pub documents_placed: u64,
    pub records: u64,
    pub sessions_touched: u64,
    pub sessions_new: u64,
    pub loops: u64,
    pub items: u64,
    pub evidence: u64,
    pub malformed_records: u64,
    pub oversized_records: u64,
    /// Lines holding several JSON values back to back, recovered.
    pub recovered_concatenations: u64,
    /// `provider:runtime_version:discriminator` → count.
    pub unrecognized: BTreeMap<String, u64>,
    /// `provider:reason` → count.
    pub ignored: BTreeMap<String, u64>,
    pub redactions: BTreeMap<String, u64>,
    pub claims: u64,
    /// Current findings per verdict over the sessions this scan touched.
    pub findings: BTreeMap<String, i64>,
    /// Stored evidence that verification could not read (named by session and evidence key);
    /// it was left out of the judgement.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub unreadable_evidence: Vec<String>,
    /// Per-file errors (the file's transaction was rolled back; other files went on).
    pub errors: Vec<FileError>,
    /// Time spent in redaction and verification, for the performance report.
    pub redaction_ms: u64,
    pub verification_ms: u64,
    pub elapsed_ms: u64,
}

#[derive(Debug, Clone, Serialize)]
pub struct FileError {
    pub path: String,
    pub error: String,
}
