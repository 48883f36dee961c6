//! Labeled extraction cases: agent text in, structured claims out.
//!
//! Every file under `tests/claims/` is a list of cases: a text as one provider's agent would
//! write it (a final answer, mid-loop commentary or a subagent's report) and the claims it must
//! give, each with its subject, a distinctive part of its quote, what it names (command, path,
//! sha, remote, branch, tool), its scope, its quantity and whose work it is about. A case with
//! no claims is a non-claim: the text must give nothing at all. All texts are written for these
//! tests. The counts are printed (`--nocapture`) so that a change's effect can be read.

// This test reads its labeled cases from disk; the crate itself does no I/O (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]
#![allow(clippy::print_stdout)]

use std::collections::BTreeMap;
use std::path::Path;

use fornax_types::{
    Claim, ClaimActor, ClaimQuantity, ClaimScope, EvidenceStrength, Item, Provider, RecordRef,
    Role, ScopeUnit, Semantic, SemanticValue, SessionRef, SourceId, TextValue,
};
use serde::Deserialize;

#[derive(Debug, Deserialize)]
struct CaseFile {
    case: Vec<Case>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    id: String,
    /// Which agent's text shape this is (documentation of coverage; extraction is the same).
    provider: String,
    /// `final`, `commentary` or `subagent`.
    #[serde(default = "final_voice")]
    voice: String,
    text: String,
    #[serde(default)]
    claims: Vec<Expected>,
    /// Parts of a claim-bearing text that must not be (part of) any claim's quote.
    #[serde(default)]
    not_claims: Vec<String>,
}

fn final_voice() -> String {
    "final".into()
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Expected {
    subject: String,
    /// A part of the claim's quote (the quote must contain it).
    quote: String,
    command: Option<String>,
    path: Option<String>,
    sha: Option<String>,
    remote: Option<String>,
    branch: Option<String>,
    tool: Option<String>,
    /// `whole` (default) or `<unit>:<name>` with unit test, file, package, module, service, suite.
    #[serde(default = "whole")]
    scope: String,
    /// `unqualified` (default), `all`, `at_least:N`, `all_of:N` or `none_failed`.
    #[serde(default = "unqualified")]
    quantity: String,
    /// `agent` (default) or `other:<who>`.
    #[serde(default = "agent")]
    actor: String,
}

fn whole() -> String {
    "whole".into()
}
fn unqualified() -> String {
    "unqualified".into()
}
fn agent() -> String {
    "agent".into()
}

fn scope_str(scope: &ClaimScope) -> String {
    match scope {
        ClaimScope::Whole => "whole".into(),
        ClaimScope::Named { unit, name } => {
            let unit = match unit {
                ScopeUnit::Test => "test",
                ScopeUnit::File => "file",
                ScopeUnit::Package => "package",
                ScopeUnit::Module => "module",
                ScopeUnit::Service => "service",
                ScopeUnit::Suite => "suite",
            };
            format!("{unit}:{name}")
        }
    }
}

fn quantity_str(q: &ClaimQuantity) -> String {
    match q {
        ClaimQuantity::Unqualified => "unqualified".into(),
        ClaimQuantity::All => "all".into(),
        ClaimQuantity::AtLeast { count } => format!("at_least:{count}"),
        ClaimQuantity::AllOf { count } => format!("all_of:{count}"),
        ClaimQuantity::NoneFailed => "none_failed".into(),
    }
}

fn actor_str(a: &ClaimActor) -> String {
    match a {
        ClaimActor::Agent => "agent".into(),
        ClaimActor::Other { who } => format!("other:{who}"),
    }
}

fn item(case: &Case) -> Item {
    let role = match case.voice.as_str() {
        "commentary" => Role::AgentCommentary,
        "subagent" => Role::SubagentReport,
        _ => Role::AgentFinalAnswer,
    };
    let provider = match case.provider.as_str() {
        "codex" => Provider::Codex,
        "pi" => Provider::Pi,
        "opencode" => Provider::Opencode,
        "gemini" => Provider::Gemini,
        _ => Provider::ClaudeCode,
    };
    Item {
        session: SessionRef::new(provider, "labeled"),
        key: case.id.clone(),
        loop_position: Some(0),
        at: None,
        semantic: Semantic::new(
            role,
            SemanticValue::Text(TextValue::full(case.text.clone())),
            EvidenceStrength::Structural,
        ),
        records: vec![RecordRef::new(SourceId::new("labeled"), 0)],
    }
}

/// What differs between an expected claim and an extracted one (empty: they agree).
fn differences(e: &Expected, c: &Claim) -> Vec<String> {
    let mut d = Vec::new();
    if c.subject.as_str() != e.subject {
        d.push(format!(
            "subject {} (want {})",
            c.subject.as_str(),
            e.subject
        ));
    }
    let target = [
        ("command", &e.command, &c.target.command),
        ("path", &e.path, &c.target.path),
        ("sha", &e.sha, &c.target.sha),
        ("remote", &e.remote, &c.target.remote),
        ("branch", &e.branch, &c.target.branch),
        ("tool", &e.tool, &c.target.tool),
    ];
    for (name, want, got) in target {
        if want.is_some() && want != got {
            d.push(format!("{name} {got:?} (want {want:?})"));
        }
    }
    let checks = [
        ("scope", scope_str(&c.scope), &e.scope),
        ("quantity", quantity_str(&c.quantity), &e.quantity),
        ("actor", actor_str(&c.actor), &e.actor),
    ];
    for (name, got, want) in checks {
        if &got != want {
            d.push(format!("{name} {got} (want {want})"));
        }
    }
    d
}

/// Pairs expected claims with extracted ones (each used once) and describes every mismatch;
/// also says how many expected claims were found exactly right.
fn check(case: &Case, claims: &[Claim]) -> (Vec<String>, usize) {
    let mut problems = Vec::new();
    let mut right = 0;
    let mut used = vec![false; claims.len()];
    for e in &case.claims {
        let candidates: Vec<usize> = (0..claims.len())
            .filter(|&i| !used[i] && claims[i].text.contains(&e.quote))
            .collect();
        let exact = candidates
            .iter()
            .copied()
            .find(|&i| differences(e, &claims[i]).is_empty());
        let same_subject = candidates
            .iter()
            .copied()
            .find(|&i| claims[i].subject.as_str() == e.subject);
        match exact.or(same_subject).or(candidates.first().copied()) {
            Some(i) => {
                used[i] = true;
                let d = differences(e, &claims[i]);
                right += usize::from(d.is_empty());
                if !d.is_empty() {
                    problems.push(format!("{} {:?}: {}", e.subject, e.quote, d.join(", ")));
                }
            }
            None => problems.push(format!("missing {} {:?}", e.subject, e.quote)),
        }
    }
    for (i, c) in claims.iter().enumerate() {
        if !used[i] {
            problems.push(format!("extra {} {:?}", c.subject.as_str(), c.text));
        }
    }
    for n in &case.not_claims {
        if let Some(c) = claims.iter().find(|c| c.text.contains(n.as_str())) {
            problems.push(format!(
                "non-claim {n:?} is in {} {:?}",
                c.subject.as_str(),
                c.text
            ));
        }
    }
    (problems, right)
}

fn load() -> Vec<(String, Case)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/claims");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let parsed: CaseFile =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .to_string();
        cases.extend(parsed.case.into_iter().map(|c| (name.clone(), c)));
    }
    cases
}

#[test]
fn labeled_cases_give_exactly_their_claims() {
    let cases = load();
    let mut ids = BTreeMap::new();
    for (file, case) in &cases {
        assert!(
            ids.insert(case.id.clone(), file.clone()).is_none(),
            "duplicate case id {} ({file})",
            case.id
        );
        for e in &case.claims {
            assert!(
                case.text.contains(&e.quote),
                "{}: quote {:?} is not in the text",
                case.id,
                e.quote
            );
        }
    }
    let claims: usize = cases.iter().map(|(_, c)| c.claims.len()).sum();
    let non_claims = cases.iter().filter(|(_, c)| c.claims.is_empty()).count()
        + cases.iter().map(|(_, c)| c.not_claims.len()).sum::<usize>();
    let mut failing = Vec::new();
    let mut claims_right = 0;
    let mut false_extractions = 0;
    let mut non_claims_kept = 0;
    for (file, case) in &cases {
        let got = fornax_verify::extract_claims(&item(case));
        let (problems, right) = check(case, &got);
        claims_right += right;
        let quiet = |n: &str| !got.iter().any(|c| c.text.contains(n));
        non_claims_kept += usize::from(case.claims.is_empty() && got.is_empty())
            + case.not_claims.iter().filter(|n| quiet(n)).count();
        if !problems.is_empty() {
            false_extractions += problems.iter().filter(|p| p.starts_with("extra")).count();
            failing.push(format!(
                "[{file}] {}:\n    {}",
                case.id,
                problems.join("\n    ")
            ));
        }
    }
    println!(
        "{} cases: {claims} claims ({claims_right} exactly right), {non_claims} non-claims ({non_claims_kept} give nothing); {} cases fail ({false_extractions} extra claims)",
        cases.len(),
        failing.len()
    );
    assert!(
        failing.is_empty(),
        "{} of {} cases fail ({claims_right} of {claims} claims exactly right, {false_extractions} extra claims):\n{}",
        failing.len(),
        cases.len(),
        failing.join("\n")
    );
}
