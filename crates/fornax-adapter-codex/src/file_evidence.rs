//! File mutation evidence from apply_patch: which files a patch created, changed, moved or
//! removed, and whether it applied.
//!
//! Ids are `file:<call_id>:<path>` so that every witness of the same patch (the call's patch
//! text with its output, `patch_apply_end`, a `FileChange` item) replaces rather than
//! duplicates the evidence. Absolute paths from change maps are matched back to the patch's
//! relative paths for that reason.

use fornax_types::evidence::FileDiffPayload;
use fornax_types::{
    ClockSource, CollectionMethod, Evidence, EvidencePayload, EvidenceSource, Freshness,
    IngestMessage, Item, Provider, TrustClass,
};

use crate::adapter::{CodexAdapter, Ctx, ADAPTER_VERSION};
use crate::patch::FileChange;
use crate::state::CallInfo;

const TAMPER_BOUNDARY: &str = "Codex writes its rollout file itself; any process that can write the user's ~/.codex/sessions can alter a record before Fornax reads it.";

impl CodexAdapter {
    /// Publishes one FileDiff per changed file. `call` is the call the output answers, when
    /// it was seen (its record is cited too).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn file_diffs(
        &self,
        call_id: &str,
        call: &CallInfo,
        changes: &[FileChange],
        succeeded: bool,
        error: Option<String>,
        output: &Item,
        cx: &mut Ctx<'_>,
    ) {
        let mut records = vec![call.record.clone()];
        records.extend(
            output
                .records
                .iter()
                .filter(|r| **r != call.record)
                .cloned(),
        );
        self.publish_diffs(call_id, changes, succeeded, error, output, records, cx);
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn publish_diffs(
        &self,
        call_id: &str,
        changes: &[FileChange],
        succeeded: bool,
        error: Option<String>,
        output: &Item,
        records: Vec<fornax_types::RecordRef>,
        cx: &mut Ctx<'_>,
    ) {
        for change in changes {
            let payload = FileDiffPayload {
                path: change
                    .move_to
                    .clone()
                    .unwrap_or_else(|| change.path.clone()),
                operation: change.operation,
                succeeded,
                tool: "apply_patch".to_string(),
                call_id: Some(call_id.to_string()),
                error: if succeeded { None } else { error.clone() },
                lines_added: change.lines_added,
                lines_removed: change.lines_removed,
            };
            cx.out.push(IngestMessage::Evidence(Evidence {
                id: format!("file:{call_id}:{}", change.path),
                session: self.session_ref(),
                payload: EvidencePayload::FileDiff(payload),
                source: evidence_source(output.at.is_some()),
                provenance: format!("codex:{ADAPTER_VERSION}:{}", cx.tag),
                extension: None,
                item_key: Some(output.key.clone()),
                loop_position: output.loop_position,
                at: output.at.clone(),
                records: records.clone(),
            }));
        }
    }

    /// Paths of a change map (absolute) rewritten to the call's patch paths (relative) where
    /// one names the same file.
    pub(crate) fn align_paths(
        &self,
        call_id: &str,
        mut changes: Vec<FileChange>,
    ) -> Vec<FileChange> {
        let Some(call) = self.st.calls.get(call_id) else {
            return changes;
        };
        for change in &mut changes {
            let matched = call.patch.iter().find(|p| {
                change.path == p.path
                    || change
                        .path
                        .ends_with(&format!("/{}", p.path.trim_start_matches("./")))
            });
            if let Some(p) = matched {
                change.path = p.path.clone();
                if change.move_to.is_some() && p.move_to.is_some() {
                    change.move_to = p.move_to.clone();
                }
            }
        }
        changes
    }
}

fn evidence_source(timestamped: bool) -> EvidenceSource {
    let freshness = if timestamped {
        Freshness {
            clock: ClockSource::RuntimeRecord,
            caveat: None,
        }
    } else {
        Freshness {
            clock: ClockSource::RecordOrderOnly,
            caveat: Some("pre-envelope rollouts write no per-line timestamp".to_string()),
        }
    };
    EvidenceSource {
        sensor_name: "codex.file_mutation".to_string(),
        trust_class: TrustClass::AgentAdjacent,
        collection_method: CollectionMethod::FilePoll,
        collector_version: ADAPTER_VERSION.to_string(),
        freshness,
        tamper_boundary: TAMPER_BOUNDARY.to_string(),
        collected_at: None,
        provider: Provider::Codex,
    }
}
