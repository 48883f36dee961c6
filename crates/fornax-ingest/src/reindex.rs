//! Rebuilding the index from the archive alone (`fornax reindex`).
//!
//! Every source of an existing store is replayed, in the order it was first stored, from its
//! records' archived copies through the same record path a scan takes (adapter, redaction,
//! store), into a fresh store. A record keeps the fingerprint and place the scan recorded, and
//! each source keeps its cursor, so the next scan of a live file reads only what was appended.
//! The live sources are never opened: a deleted transcript is rebuilt like any other.

use fornax_redact::RedactionCounts;
use fornax_store::{ArchivedCopy, NativeRecordRow, Store};
use fornax_types::{ByteRange, Fingerprint, SourceId};
use serde_json::Value;

use crate::pipeline::{
    checkpoint, commit_source, finish, Commit, IngestError, Ingestor, Mode, RecordCtx, SourceTally,
    SPOOL_ADAPTER,
};

/// What a rebuild replayed.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Reindexed {
    pub sources: u64,
    pub records: u64,
    /// Sources whose adapter this binary does not have (left out; named).
    pub skipped: Vec<String>,
}

/// Why a rebuild stopped before replacing anything.
#[derive(Debug, thiserror::Error)]
pub enum ReindexError {
    #[error("record {position} of {source_key} has no usable archived copy ({status}); nothing was replaced")]
    Copy {
        source_key: String,
        position: u64,
        status: &'static str,
    },
    #[error("record {position} of {source_key}: its archived copy is not JSON: {detail}")]
    NotJson {
        source_key: String,
        position: u64,
        detail: String,
    },
    #[error(transparent)]
    Ingest(#[from] IngestError),
}

impl From<fornax_store::StoreError> for ReindexError {
    fn from(e: fornax_store::StoreError) -> Self {
        ReindexError::Ingest(e.into())
    }
}

impl Ingestor<'_> {
    /// Replays every source of `from` into this ingestor's (fresh) store. Stops at the first
    /// record whose copy is absent or damaged: a rebuild that would lose a record is refused.
    pub fn reindex_from(&mut self, from: &Store) -> Result<Reindexed, ReindexError> {
        let mut done = Reindexed::default();
        for source in from.archived_sources()? {
            let adapter_name = source.spec.adapter.clone();
            if adapter_name != SPOOL_ADAPTER && self.registry.by_name(&adapter_name).is_none() {
                done.skipped.push(source.spec.locator.clone());
                continue;
            }
            let mut reader = self.make_reader(&adapter_name);
            let options = self.options.clone();
            let redactor = self.redactor;
            let key = source.spec.key.clone();
            let hint = source.spec.session_hint.clone().unwrap_or_default();
            let location = match source.spec.kind.as_str() {
                "tree" | "database" | "dump" => None,
                _ => Some(source.spec.locator.clone()),
            };
            let mut writer = self.store.begin_source(&source.spec, false)?;
            let mut tally = SourceTally::default();
            let source_id = SourceId::new(key.clone());
            let mut redaction_time = std::time::Duration::ZERO;
            let mut ctx = RecordCtx {
                writer: &mut writer,
                tally: &mut tally,
                redactor,
                options: &options,
                reader: &mut reader,
                source: &source_id,
                hint: &hint,
                location: location.as_deref(),
                redaction_time: &mut redaction_time,
            };
            let mut bytes_read = 0u64;
            from.each_archived_record(source.id, |rec| -> Result<(), ReindexError> {
                let ArchivedCopy::Intact(bytes) = &rec.copy else {
                    return Err(ReindexError::Copy {
                        source_key: key.clone(),
                        position: rec.position,
                        status: rec.copy.status(),
                    });
                };
                let value: Value =
                    serde_json::from_slice(bytes).map_err(|e| ReindexError::NotJson {
                        source_key: key.clone(),
                        position: rec.position,
                        detail: e.to_string(),
                    })?;
                let byte_range = match (rec.byte_start, rec.byte_end) {
                    (Some(start), Some(end)) => Some(ByteRange { start, end }),
                    _ => None,
                };
                let fingerprint = Fingerprint(rec.fingerprint);
                let row = NativeRecordRow {
                    position: rec.position,
                    member: rec.member.as_deref(),
                    byte_range,
                    fingerprint: &fingerprint,
                    runtime_ts: rec.runtime_ts.as_deref(),
                    byte_len: Some(rec.byte_len),
                };
                bytes_read += rec.byte_len;
                ctx.stored(&row, &value)?;
                Ok(())
            })?;
            let state = checkpoint(ctx.reader);
            for msg in finish(&mut *ctx.reader) {
                ctx.apply(msg)?;
            }
            done.records += tally.records;
            let state = state.map(|v| redactor.redact(v, &mut RedactionCounts::default()));
            let commit = Commit {
                cursor: &source.cursor,
                next_position: source.next_position,
                adapter_state: state.as_ref(),
                adapter_name: &adapter_name,
                mode: Mode::New,
                bytes_read,
                redaction_time,
            };
            commit_source(writer, tally, commit, &mut self.summary, &mut self.touched)?;
            // A source's standing (missing, retired, forgotten) is a fact about it, kept.
            self.store
                .restore_source_status(&key, &source.status, source.retired_at.as_deref())?;
            done.sources += 1;
        }
        Ok(done)
    }
}
