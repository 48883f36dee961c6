//! What a scan did: the summary `fornax scan` prints, also carried over the daemon's socket
//! when the daemon runs a scan's pass (so both sides share this one type).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How many sources a pass found in each state.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SourceCounts {
    pub new: u64,
    pub appended: u64,
    pub unchanged: u64,
    pub rebuilt: u64,
    /// Skipped sources by reason.
    pub skipped: BTreeMap<String, u64>,
}

/// What one scan (or one daemon pass) did.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ScanSummary {
    pub sources: SourceCounts,
    pub bytes_read: u64,
    /// Documents of trees and databases read to be placed (unchanged tree files are not).
    pub documents_placed: u64,
    pub records: u64,
    pub sessions_touched: u64,
    pub sessions_new: u64,
    /// Loops, items and evidence rows this pass added to the store (a fact seen again, through
    /// another source or a rebuild, updates its row and is not counted twice).
    pub loops: u64,
    pub items: u64,
    pub evidence: u64,
    pub malformed_records: u64,
    pub oversized_records: u64,
    /// Lines holding several JSON values back to back, recovered.
    pub recovered_concatenations: u64,
    /// Lone UTF-16 surrogate escapes replaced by U+FFFD so their records could be read (the
    /// records keep their raw bytes).
    pub repaired_escapes: u64,
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
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unreadable_evidence: Vec<String>,
    /// Files and directories not read, each with the reason (the first
    /// [`ScanSummary::MAX_NAMED`]; `skipped_files_total` counts them all).
    pub skipped_files: Vec<SkippedFile>,
    pub skipped_files_total: u64,
    /// Per-source errors (the source's transaction was rolled back; other sources went on).
    pub errors: Vec<FileError>,
    /// Time spent in redaction and verification, for the performance report.
    pub redaction_ms: u64,
    pub verification_ms: u64,
    pub elapsed_ms: u64,
    /// `daemon` when a running daemon did this pass for `fornax scan`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub via: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub daemon_pid: Option<u32>,
}

impl ScanSummary {
    /// How many skipped files a summary names (the rest are counted).
    pub const MAX_NAMED: usize = 1000;

    /// Names a file or directory that was not read, and why.
    pub fn skip_file(&mut self, path: impl Into<String>, reason: impl Into<String>) {
        self.skipped_files_total += 1;
        if self.skipped_files.len() < Self::MAX_NAMED {
            self.skipped_files.push(SkippedFile {
                path: path.into(),
                reason: reason.into(),
            });
        }
    }

    /// A source that could not be skipped: counted by reason and named.
    pub fn skip_source(&mut self, path: impl Into<String>, reason: &str) {
        *self.sources.skipped.entry(reason.to_string()).or_insert(0) += 1;
        self.skip_file(path, reason);
    }
}

/// A file or directory a scan did not read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SkippedFile {
    pub path: String,
    pub reason: String,
}

/// A source whose ingestion failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileError {
    pub path: String,
    pub error: String,
}
