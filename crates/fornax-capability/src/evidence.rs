//! Host-observed evidence of a capability run: one `process_observation` per process Fornax
//! spawned and watched, plus a `test_summary` when a test-runner provider produced a summary.

use fornax_types::evidence::{ProcessObservationPayload, TestSummaryPayload};
use fornax_types::{
    ClaimSubject, ClockSource, CollectionMethod, Evidence, EvidencePayload, EvidenceSource,
    Freshness, Provider, Recheck, RecheckOutcome, RecheckTrigger, SessionRef, TrustClass,
};
use std::time::{Duration, UNIX_EPOCH};

use crate::exec::ProcessRecord;
use crate::testrunners::TestRunSummary;
use crate::trust::RunTrust;

/// The sensor name on capability-run evidence.
pub const SENSOR_NAME: &str = "capability-run";

/// The session evidence is filed under when no session was given or matched. `Evidence`
/// requires a session; runs outside any agent session are grouped here.
pub fn unattached_session() -> SessionRef {
    SessionRef::new(Provider::Fornax, "capability-runs")
}

fn source(collected_at: String, trust: &RunTrust) -> EvidenceSource {
    let tamper_boundary = match (trust.evidence_class(), &trust.fingerprint) {
        (TrustClass::HostObserved, _) | (_, None) => {
            "process spawned and observed by Fornax on this host, from a capability the user defined"
                .to_string()
        }
        (TrustClass::WorkspaceTrusted, Some(f)) => format!(
            "process spawned and observed by Fornax on this host, from workspace capability files              the user trusted by content hash ({f}); the agent could have written those files"
        ),
        (_, Some(f)) => format!(
            "process spawned by Fornax from workspace capability files nobody trusted ({f}), run              once at the user's request; the agent could have written what it ran"
        ),
    };
    EvidenceSource {
        sensor_name: SENSOR_NAME.to_string(),
        trust_class: trust.evidence_class(),
        collection_method: CollectionMethod::ProcessObservation,
        collector_version: concat!("fornax-capability/", env!("CARGO_PKG_VERSION")).to_string(),
        freshness: Freshness {
            clock: ClockSource::HostClock,
            caveat: None,
        },
        tamper_boundary,
        collected_at: Some(collected_at),
        provider: Provider::Fornax,
    }
}

/// Evidence for the processes of one run. Ids are derived from the capability, the start time
/// and the argv, so re-recording the same run replaces rather than duplicates. Its trust class
/// is the capability's ([`RunTrust::evidence_class`]); `at` is when the process ended (the
/// moment the observation was complete), so only claims made after that can rest on it.
pub fn for_run(
    capability_id: &str,
    session: Option<&SessionRef>,
    processes: &[ProcessRecord],
    summary: Option<&TestRunSummary>,
    trust: &RunTrust,
) -> Vec<Evidence> {
    let session = session.cloned().unwrap_or_else(unattached_session);
    let mut out = Vec::new();
    for (i, p) in processes.iter().enumerate() {
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
            source: source(finished.clone(), trust),
            provenance: match &trust.fingerprint {
                Some(f) => format!(
                    "fornax:capability/{}:{capability_id}@{f}",
                    env!("CARGO_PKG_VERSION")
                ),
                None => format!(
                    "fornax:capability/{}:{capability_id}",
                    env!("CARGO_PKG_VERSION")
                ),
            },
            extension: None,
            item_key: None,
            loop_position: None,
            at: Some(finished),
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
                scopes: Vec::new(),
                scopes_truncated: None,
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

/// Why a process that ran produced no result: its program or toolchain could not start (a
/// shell's 126/127, rustup's missing toolchain, cargo's unknown subcommand). Such a run is
/// "could not run", never a failing run.
pub fn could_not_start(p: &ProcessRecord) -> Option<String> {
    let program = p.argv.first().map(String::as_str).unwrap_or("?");
    if let Some(e) = &p.spawn_error {
        return Some(e.clone());
    }
    let stderr = p.stderr.to_ascii_lowercase();
    let signatures = [
        "command not found",
        "is not installed",
        "no such command",
        "toolchain '",
        "not recognized as an internal or external command",
    ];
    if let Some(sig) = signatures.iter().find(|s| stderr.contains(*s)) {
        if p.exit_code != Some(0) {
            return Some(format!("`{program}` could not start its toolchain ({sig})"));
        }
    }
    match p.exit_code {
        Some(126) => Some(format!(
            "`{program}` could not execute a program (exit 126)"
        )),
        Some(127) => Some(format!("`{program}` could not find a program (exit 127)")),
        _ => None,
    }
}

/// The re-check a run makes, when it ran (or could not start) and is tied to a session. Its
/// summary is built from observed facts only (counts, exit status), never from raw output.
pub fn recheck_of(
    capability_id: &str,
    outcome: &crate::RunOutcome,
    trigger: RecheckTrigger,
) -> Option<Recheck> {
    if outcome.refused_untrusted {
        return None;
    }
    let session = outcome.session.clone()?;
    let first = outcome.processes.first()?;
    let last = outcome.processes.last()?;
    let started_at = crate::time::rfc3339(first.started_at);
    let finished_at =
        crate::time::rfc3339(last.started_at + Duration::from_millis(last.duration_ms));
    let cannot = outcome.processes.iter().find_map(could_not_start);
    let (result, summary) = match (&outcome.test_summary, cannot) {
        (None, Some(why)) => (RecheckOutcome::CouldNotRun, why),
        (Some(s), _) if s.failed > 0 => (
            RecheckOutcome::Fails,
            format!("{} of {} tests failed ({})", s.failed, s.total, s.runner),
        ),
        (Some(s), _) => {
            let counts = format!(
                "{} passed, {} failed, {} skipped ({})",
                s.passed, s.failed, s.skipped, s.runner
            );
            if last.succeeded() {
                (RecheckOutcome::Passes, counts)
            } else {
                (
                    RecheckOutcome::Fails,
                    format!("{counts}, but {}", process_status(last)),
                )
            }
        }
        (None, None) if last.succeeded() => (RecheckOutcome::Passes, process_status(last)),
        (None, None) => (RecheckOutcome::Fails, process_status(last)),
    };
    let subjects = if outcome.test_summary.is_some() {
        vec![ClaimSubject::TestResult]
    } else {
        Vec::new()
    };
    Some(Recheck {
        session,
        capability_id: capability_id.to_string(),
        trigger,
        started_at,
        finished_at,
        outcome: result,
        summary,
        subjects,
        trust_class: outcome.trust.evidence_class(),
        manifest_hash: outcome.trust.fingerprint.clone(),
        evidence: outcome.evidence.iter().map(|e| e.id.clone()).collect(),
    })
}

fn process_status(p: &ProcessRecord) -> String {
    let program = p.argv.first().map(String::as_str).unwrap_or("?");
    if p.timed_out {
        format!("`{program}` timed out after {} ms", p.duration_ms)
    } else if let Some(code) = p.exit_code {
        format!("`{program}` exited {code}")
    } else if let Some(sig) = p.signal {
        format!("`{program}` was killed by signal {sig}")
    } else {
        format!("`{program}` ended without an exit status")
    }
}
