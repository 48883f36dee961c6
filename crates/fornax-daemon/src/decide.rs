//! Opt-in intervention: when the agent ends a turn with a claim the evidence contradicts,
//! answer the Stop hook with a block decision citing the evidence — at most once per claim.

use std::collections::BTreeSet;
use std::path::Path;

use fornax_store::{FindingFilter, Store};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub reason: String,
}

fn ledger_path(home: &Path) -> std::path::PathBuf {
    home.join("interventions.json")
}

fn load_ledger(home: &Path) -> BTreeSet<String> {
    std::fs::read_to_string(ledger_path(home))
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or_default()
}

fn save_ledger(home: &Path, ledger: &BTreeSet<String>) {
    let tmp = home.join("interventions.json.tmp");
    if let Ok(text) = serde_json::to_string(ledger) {
        if std::fs::write(&tmp, text).is_ok() {
            let _ = std::fs::rename(&tmp, ledger_path(home));
        }
    }
}

/// Decides whether a Stop of `session` must be blocked. `stop_hook_active` (Claude is already
/// continuing because of a hook) always means no.
pub fn decide_stop(
    home: &Path,
    store: &Store,
    session: &str,
    stop_hook_active: bool,
) -> Option<Decision> {
    if stop_hook_active {
        return None;
    }
    let id = store.resolve_session(session).ok()?;
    let findings = store
        .findings(&FindingFilter {
            session: Some(id),
            verdict: Some("CONTRADICTED".into()),
        })
        .ok()?;
    let latest_loop = findings.iter().filter_map(|f| f.loop_position).max();
    let mut ledger = load_ledger(home);
    let mut reasons = Vec::new();
    for f in &findings {
        if f.loop_position != latest_loop {
            continue;
        }
        let key = format!(
            "{}|{}|{}",
            session,
            f.item_key,
            f.claim["text"].as_str().unwrap_or("")
        );
        if !ledger.insert(key) {
            continue;
        }
        let evidence: Vec<String> = f.evidence.iter().map(|e| e.description.clone()).collect();
        reasons.push(format!(
            "You said \"{}\", but {} ({}).",
            f.claim["text"].as_str().unwrap_or("").trim(),
            f.rationale().trim_end_matches('.'),
            evidence.join("; ")
        ));
    }
    if reasons.is_empty() {
        return None;
    }
    save_ledger(home, &ledger);
    Some(Decision { reason: format!("Fornax found a claim the session's own evidence contradicts. {} Re-check before finishing.", reasons.join(" ")) })
}
