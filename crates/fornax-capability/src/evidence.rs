//! Host-observed evidence of a capability run: one `process_observation` per process Fornax
//! spawned and watched, plus a `test_summary` when a test-runner provider produced a summary.

use fornax_types::evidence::{ProcessObservationPayload, TestSummaryPayload};
use fornax_types::{
    ClockSource, CollectionMethod, Evidence, EvidencePayload, EvidenceSource, Freshness, Provider,
    SessionRef, TrustClass,
};
use std::time::{Duration, UNIX_EPOCH};

use crate::exec::ProcessRecord;
use crate::testrunners::TestRunSummary;

/// The sensor name on capability-run evidence.
pub const SENSOR_NAME: &str = "capability-run";

/// The session evidence is filed under when no session was given or matched. `Evidence`
/// requires a session; runs outside any agent session are grouped here.
pub fn unattached_session() -> SessionRef {
    SessionRef::new(Provider::Fornax, "capability-runs")
}

fn source(collected_at: String) -> EvidenceSource {
    EvidenceSource {
        sensor_name: SENSOR_NAME.to_string(),
        trust_class: TrustClass::HostObserved,
        collection_method: CollectionMethod::ProcessObservation,
        collector_version: concat!("fornax-capability/", env!("CARGO_PKG_VERSION")).to_string(),
        freshness: Freshness {
            clock: ClockSource::HostClock,
            caveat: None,
        },
        tamper_boundary: "process spawned and observed by Fornax on this host".to_string(),
        collected_at: Some(collected_at),
        provider: Provider::Fornax,
    }
}

/// Evidence for the processes of one run. Ids are derived from the capability, the start time
/// and the argv, so re-recording the same run replaces rather than duplicates.
pub fn for_run(
    capability_id: &str,
    session: Option<&SessionRef>,
    processes: &[ProcessRecord],
    summary: Option<&TestRunSummary>,
) -> Vec<Evidence> {
    let session = session.cloned().unwrap_or_else(unattached_session);
    let mut out = Vec::new();
    for (i, p) in processes.iter().enumerate() {
        let started = crate::time::rfc3339(p.started_at);
        let finished = crate::time::rfc3339(p.started_at + Duration::from_millis(p.duration_ms));
        let nanos = p
            .started_at
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let run_key = format!("{capability_id}:{nanos}:{i}");
        let payload = ProcessObservationPayload {
            argv: p.argv.clone(),
            cwd: Some(p.cwd.display().to_string()),
            exit_code: p.exit_code,
            timed_out: Some(p.timed_out),
            duration_ms: Some(p.duration_ms),
            capability_id: Some(capability_id.to_string()),
        };
        let base = Evidence {
            id: format!("cap-run:{run_key}:process"),
            session: session.clone(),
            payload: EvidencePayload::ProcessObservation(payload),
            source: source(finished),
            provenance: format!(
                "fornax:capability/{}:{capability_id}",
                env!("CARGO_PKG_VERSION")
            ),
            extension: None,
            item_key: None,
            loop_position: None,
            at: Some(started),
            records: Vec::new(),
        };
        let last = i + 1 == processes.len();
        if let (true, Some(s)) = (last, summary) {
            let payload = TestSummaryPayload {
                runner: s.runner.clone(),
                command: Some(p.command_line()),
                call_id: None,
                passed: Some(s.passed),
                failed: Some(s.failed),
                skipped: Some(s.skipped),
                filtered_out: s.filtered_out,
                filtered: None,
            };
            out.push(base.clone());
            out.push(Evidence {
                id: format!("cap-run:{run_key}:test-summary"),
                payload: EvidencePayload::TestSummary(payload),
                ..base
            });
        } else {
            out.push(base);
        }
    }
    out
}
