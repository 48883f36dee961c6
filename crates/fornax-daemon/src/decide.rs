//! Opt-in intervention: when the agent ends a turn with a claim the evidence contradicts,
//! answer the Stop hook with a block decision citing the evidence — at most once per claim.
//!
//! The claims judged are those of the turn that just ended: the claims found in the Stop
//! payload's final message when the hook sent it (so the first Stop of a session is judged
//! even before any transcript is read), else those of the session's latest loop. The reason
//! is a plain sentence for the agent: what it said, what was observed; never row ids or
//! evidence keys.

use std::collections::BTreeSet;
use std::path::Path;

use fornax_store::{FindingFilter, FindingRow, Store};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    pub reason: String,
}

/// A Stop to judge.
#[derive(Debug, Clone, Copy)]
pub struct Stop<'a> {
    /// The agent's session id (or anything `Store::resolve_session` accepts).
    pub session: &'a str,
    /// The final message the Stop payload carried.
    pub last_message: Option<&'a str>,
}

/// Longest claim quoted back to the agent.
const QUOTE_CHARS: usize = 160;

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

fn claim_text(f: &FindingRow) -> &str {
    f.claim["text"].as_str().unwrap_or("").trim()
}

/// Whitespace-insensitive: the stored claim text and the payload's message may wrap lines
/// differently.
fn squash(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The contradicted findings of the turn that just ended.
fn turn_findings<'f>(
    findings: &'f [FindingRow],
    last_message: Option<&str>,
) -> Vec<&'f FindingRow> {
    if let Some(message) = last_message.map(squash).filter(|m| !m.is_empty()) {
        let said: Vec<&FindingRow> = findings
            .iter()
            .filter(|f| {
                let claim = squash(claim_text(f));
                !claim.is_empty() && message.contains(&claim)
            })
            .collect();
        // The latest loop holding one of the message's claims is this turn's.
        let latest = said.iter().filter_map(|f| f.loop_position).max();
        if !said.is_empty() {
            return said
                .into_iter()
                .filter(|f| f.loop_position == latest)
                .collect();
        }
    }
    let latest = findings.iter().filter_map(|f| f.loop_position).max();
    findings
        .iter()
        .filter(|f| f.loop_position == latest)
        .collect()
}

fn quote(text: &str) -> String {
    let squashed = squash(text);
    if squashed.chars().count() <= QUOTE_CHARS {
        return squashed;
    }
    let cut: String = squashed.chars().take(QUOTE_CHARS).collect();
    format!("{}…", cut.trim_end())
}

/// A rationale without its bracketed references (evidence keys, timeline positions): the
/// agent reads words, not the index's ids.
fn plain(rationale: &str) -> String {
    let mut out = String::new();
    let mut depth = 0usize;
    for c in rationale.chars() {
        match c {
            '[' | '(' => depth += 1,
            ']' | ')' => depth = depth.saturating_sub(1),
            _ if depth == 0 => out.push(c),
            _ => {}
        }
    }
    squash(&out).trim_end_matches(['.', ' ']).to_string()
}

/// One sentence: what the agent said, then what was observed (the evidence's own words: the
/// command and its exit, the test summary), never the index's ids.
pub fn sentence(f: &FindingRow) -> String {
    let evidence: Vec<&str> = f
        .evidence
        .iter()
        .map(|e| e.description.as_str())
        .filter(|d| !d.is_empty() && *d != "evidence no longer stored")
        .collect();
    let observed = if evidence.is_empty() {
        let rationale = plain(&f.rationale());
        if rationale.is_empty() {
            "the session's own records say otherwise".to_string()
        } else {
            format!("Fornax observed otherwise: {rationale}")
        }
    } else {
        evidence.join(" and ")
    };
    format!("You said \"{}\", but {observed}.", quote(claim_text(f)))
}

/// Decides whether a Stop must be blocked. Callers never ask for a Stop that follows a block
/// (`stop_hook_active`): the agent is already continuing because of one.
pub fn decide_stop(home: &Path, store: &Store, stop: &Stop<'_>) -> Option<Decision> {
    let id = store.resolve_session(stop.session).ok()?;
    let findings = store
        .findings(&FindingFilter {
            session: Some(id),
            verdict: Some("CONTRADICTED".into()),
        })
        .ok()?;
    let mut ledger = load_ledger(home);
    let mut reasons = Vec::new();
    for f in turn_findings(&findings, stop.last_message) {
        let key = format!("{}|{}|{}", stop.session, f.item_key, claim_text(f));
        if !ledger.insert(key) {
            continue;
        }
        reasons.push(sentence(f));
    }
    if reasons.is_empty() {
        return None;
    }
    save_ledger(home, &ledger);
    Some(Decision {
        reason: format!(
            "{} Check it again and say what is really true before you finish.",
            reasons.join(" ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rationales_lose_their_references() {
        assert_eq!(
            plain("The latest run `cargo test` at timeline position 3 [exit:out:toolu_1] failed: exit 101 (structural)."),
            "The latest run `cargo test` at timeline position 3 failed: exit 101"
        );
        assert_eq!(quote(&"word ".repeat(100)).chars().count(), QUOTE_CHARS);
    }
}
