//! Labeled end-to-end verdict cases: native sessions of every runtime (Claude Code transcripts
//! with 2.1.x subagent files and 1.0.x inline sidechains, Codex envelope and legacy rollouts, Pi,
//! Gemini, opencode plugin streams, Claude Code and Cursor hook streams, Copilot CLI event logs,
//! Cursor JSONL transcripts) go through the real binary the way
//! a user's data does (`fornax hook` per event, `fornax scan`), and every labeled claim must reach
//! one of its acceptable verdicts while no labeled non-claim gets a finding.
//!
//! Matching follows `verify-bench/score.py`: a label matches findings of its session (native id,
//! an alternative id, or a source path ending with the label's file) whose claim text contains the
//! quote or is contained in it (NFKC, case-folded, whitespace collapsed, backticks and asterisks
//! dropped, typographic quotes folded); the same subject and the closest length are preferred,
//! and each finding serves one label where possible. A claim a subagent made
//! (`attributed_to: "subagent"`) must be found in the subagent's own session.
//!
//! The cases and how they are written: `tests/verdicts/README.md`.

// The test reports its score for a person reading the output.
#![allow(clippy::print_stderr)]

use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;
use unicode_normalization::UnicodeNormalization;

/// Labels whose verdict depends on work this set is still waiting for, with the reason. A label
/// listed here may miss; every other label must reach an acceptable verdict.
const PENDING: &[(&str, &str)] = &[];

const VERDICTS: [&str; 5] = [
    "VERIFIED",
    "CONTRADICTED",
    "UNVERIFIED",
    "REVIEW",
    "UNAVAILABLE",
];

fn cases_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/verdicts")
}

fn fornax(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
    // The hooks spool and `fornax scan` stores them (no daemon started by a hook).
    c.env("FORNAX_HOME", home)
        .env("FORNAX_DAEMON_AUTOSTART", "0")
        .env("NO_COLOR", "1")
        .env_remove("FORNAX_WORKSPACE");
    c
}

fn feed(home: &Path, args: &[&str], input: &[u8]) {
    let mut child = fornax(home)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn fornax");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write stdin");
    let out = child.wait_with_output().expect("wait");
    assert!(
        out.status.success(),
        "fornax {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    let mut entries: Vec<_> = std::fs::read_dir(from)
        .expect("read dir")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        let dest = to.join(p.file_name().expect("name"));
        if p.is_dir() {
            copy_tree(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).expect("copy");
        }
    }
}

fn files_named(dir: &Path, suffix: &str, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .expect("read dir")
        .map(|e| e.expect("entry").path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            files_named(&p, suffix, out);
        } else if p.to_string_lossy().ends_with(suffix) {
            out.push(p);
        }
    }
}

/// Runs the set through the binary as the verify-bench README describes and returns
/// `fornax findings --json`.
fn run_set(set: &Path, home: &Path) -> Vec<Value> {
    let bench_dir = set.to_string_lossy().to_string();
    let mut hooks = Vec::new();
    files_named(&set.join("sessions"), ".hooks.ndjson", &mut hooks);
    for f in hooks {
        let text = std::fs::read_to_string(&f)
            .expect("hook stream")
            .replace("${BENCH_DIR}", &bench_dir);
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            feed(home, &["hook", "claude"], format!("{line}\n").as_bytes());
        }
    }
    // Cursor runs its hook command once per event too; the payload names its own event.
    let mut cursor = Vec::new();
    files_named(&set.join("sessions"), ".cursor.ndjson", &mut cursor);
    for f in cursor {
        let text = std::fs::read_to_string(&f).expect("cursor hook stream");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            feed(home, &["hook", "cursor"], format!("{line}\n").as_bytes());
        }
    }
    let mut plugin = Vec::new();
    files_named(&set.join("sessions"), ".opencode.ndjson", &mut plugin);
    for f in plugin {
        let text = std::fs::read_to_string(&f)
            .expect("plugin stream")
            .replace("${BENCH_DIR}", &bench_dir);
        feed(home, &["hook", "opencode"], text.as_bytes());
    }
    let scan = fornax(home)
        .arg("scan")
        .arg(set.join("sessions"))
        .output()
        .expect("scan");
    assert!(
        scan.status.success(),
        "scan: {}",
        String::from_utf8_lossy(&scan.stderr)
    );
    let out = fornax(home)
        .args(["findings", "--json"])
        .output()
        .expect("findings");
    assert!(
        out.status.success(),
        "findings: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).expect("findings json");
    match v {
        Value::Array(a) => a,
        Value::Object(mut o) => match o.remove("findings") {
            Some(Value::Array(a)) => a,
            _ => Vec::new(),
        },
        _ => Vec::new(),
    }
}

// --- matching, as score.py does it -------------------------------------------------------------

const MIN_CONTAINED_LEN: usize = 10;

fn norm(text: &str) -> String {
    let folded: String = text
        .nfkc()
        .filter_map(|c| match c {
            '\u{2018}' | '\u{2019}' => Some('\''),
            '\u{201c}' | '\u{201d}' => Some('"'),
            '\u{2013}' | '\u{2014}' => Some('-'),
            '\u{a0}' => Some(' '),
            '`' | '*' => None,
            c => Some(c),
        })
        .collect();
    // `str.casefold` is lowercasing plus a few foldings (ß → ss) that no label here relies on.
    folded
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

fn norm_path(p: &str) -> String {
    let p = p.replace('\\', "/");
    let p = p.strip_prefix("file://").unwrap_or(&p);
    p.split('#')
        .next()
        .unwrap_or("")
        .split('?')
        .next()
        .unwrap_or("")
        .to_string()
}

#[derive(Debug)]
struct Found {
    index: usize,
    verdict: String,
    text: String,
    ntext: String,
    subject: String,
    native_id: Option<String>,
    sources: Vec<String>,
}

fn load(findings: &[Value]) -> Vec<Found> {
    findings
        .iter()
        .enumerate()
        .map(|(index, f)| {
            let claim = &f["claim"];
            let text = claim["text"].as_str().unwrap_or("").to_string();
            let native_id = f["session"]["native_id"]
                .as_str()
                .or_else(|| f["session_native_id"].as_str())
                .map(str::to_string);
            let sources = f["sources"]
                .as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| {
                            s.as_str()
                                .or_else(|| s["locator"].as_str())
                                .or_else(|| s["path"].as_str())
                                .map(norm_path)
                        })
                        .collect()
                })
                .unwrap_or_default();
            Found {
                index,
                verdict: f["verdict"].as_str().unwrap_or("").trim().to_uppercase(),
                ntext: norm(&text),
                text,
                subject: claim["subject"]
                    .as_str()
                    .unwrap_or("")
                    .trim()
                    .to_lowercase(),
                native_id,
                sources,
            }
        })
        .collect()
}

fn same_session(label: &Value, f: &Found) -> bool {
    let mut ids: Vec<String> = vec![label["session_native_id"]
        .as_str()
        .unwrap_or("")
        .to_lowercase()];
    if let Some(alt) = label["alt_session_ids"].as_array() {
        ids.extend(alt.iter().filter_map(Value::as_str).map(str::to_lowercase));
    }
    if let Some(n) = &f.native_id {
        if ids.contains(&n.to_lowercase()) {
            return true;
        }
    }
    let file = norm_path(label["file"].as_str().unwrap_or(""));
    let want = file.trim_start_matches(['.', '/']);
    f.sources
        .iter()
        .any(|s| s.ends_with(&format!("/{want}")) || s == want || s.ends_with(want))
}

fn text_match(nquote: &str, f: &Found) -> bool {
    if f.ntext.is_empty() || nquote.is_empty() {
        return false;
    }
    nquote.contains(f.ntext.as_str()) && f.ntext.chars().count() >= MIN_CONTAINED_LEN
        || f.ntext.contains(nquote)
}

fn candidates<'a>(label: &Value, found: &'a [Found]) -> Vec<&'a Found> {
    let nq = norm(label["quote"].as_str().unwrap_or(""));
    found
        .iter()
        .filter(|f| same_session(label, f) && text_match(&nq, f))
        .collect()
}

/// Each claim label's finding: the best candidate not taken by another label, labels with the
/// fewest candidates first.
fn assign<'a>(claims: &[Value], found: &'a [Found]) -> BTreeMap<String, &'a Found> {
    let mut cands: BTreeMap<String, Vec<&Found>> = BTreeMap::new();
    for l in claims {
        let subject = l["subject"].as_str().unwrap_or("").to_lowercase();
        let qlen = norm(l["quote"].as_str().unwrap_or("")).chars().count();
        let mut c = candidates(l, found);
        c.sort_by_key(|f| {
            (
                usize::from(f.subject != subject),
                f.ntext.chars().count().abs_diff(qlen),
                f.index,
            )
        });
        cands.insert(l["id"].as_str().unwrap_or("").to_string(), c);
    }
    let mut order: Vec<&String> = cands.keys().collect();
    order.sort_by_key(|id| (cands[*id].len(), (*id).clone()));
    let mut used = HashSet::new();
    let mut chosen = BTreeMap::new();
    for id in order {
        let options = &cands[id];
        let Some(first) = options.first() else {
            continue;
        };
        let pick = options
            .iter()
            .find(|f| !used.contains(&f.index))
            .unwrap_or(first);
        used.insert(pick.index);
        chosen.insert(id.clone(), *pick);
    }
    chosen
}

#[test]
fn labeled_verdict_cases() {
    let labels: Value = serde_json::from_str(
        &std::fs::read_to_string(cases_dir().join("labels.json")).expect("labels.json"),
    )
    .expect("labels parse");
    let claims = labels["claims"].as_array().expect("claims").clone();
    let non_claims = labels["non_claims"].as_array().expect("non_claims").clone();

    // The set itself: big enough to mean something, and every quote is in its file.
    let contradicted = claims
        .iter()
        .filter(|c| c["expected_verdict"] == "CONTRADICTED")
        .count();
    assert!(claims.len() >= 80, "{} claims", claims.len());
    assert!(contradicted >= 20, "{contradicted} CONTRADICTED labels");
    assert!(non_claims.len() >= 20, "{} non-claims", non_claims.len());
    for l in claims.iter().chain(&non_claims) {
        let file = cases_dir().join(l["file"].as_str().expect("file"));
        let text = std::fs::read_to_string(&file).expect("label file");
        let quote = l["quote"].as_str().expect("quote");
        assert!(
            text.contains(quote),
            "{}: quote not in {}",
            l["id"],
            file.display()
        );
    }

    let tmp = tempfile::tempdir().expect("tempdir");
    let set = tmp.path().join("set");
    let home = tmp.path().join("home");
    copy_tree(&cases_dir().join("sessions"), &set.join("sessions"));
    let findings = run_set(&set, &home);
    let found = load(&findings);
    let chosen = assign(&claims, &found);

    let pending: BTreeMap<&str, &str> = PENDING.iter().copied().collect();
    let mut confusion: BTreeMap<(String, String), usize> = BTreeMap::new();
    let mut acceptable_ok = 0;
    let mut extracted = 0;
    let (mut c_tp, mut c_fp, mut c_expected, mut c_hit) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    let mut now_passing = Vec::new();
    for l in &claims {
        let id = l["id"].as_str().unwrap_or("");
        let expected = l["expected_verdict"].as_str().unwrap_or("");
        let acceptable: Vec<&str> = l["acceptable_verdicts"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_else(|| vec![expected]);
        let f = chosen.get(id);
        let got = match f {
            Some(f) if VERDICTS.contains(&f.verdict.as_str()) => f.verdict.clone(),
            Some(_) => "OTHER".to_string(),
            None => "MISSING".to_string(),
        };
        extracted += usize::from(f.is_some());
        *confusion
            .entry((expected.to_string(), got.clone()))
            .or_insert(0) += 1;
        let mut ok = acceptable.contains(&got.as_str());
        if got == "CONTRADICTED" {
            if ok {
                c_tp += 1;
            } else {
                c_fp += 1;
            }
        }
        if expected == "CONTRADICTED" {
            c_expected += 1;
            c_hit += usize::from(got == "CONTRADICTED");
        }
        let mut problem = (!ok).then(|| {
            format!(
                "{id} {} expected {acceptable:?}, got {got}{}: {:?} ({})",
                l["subject"].as_str().unwrap_or(""),
                f.map(|f| format!(" as {} {:?}", f.subject, f.text))
                    .unwrap_or_default(),
                l["quote"].as_str().unwrap_or(""),
                l["file"].as_str().unwrap_or("")
            )
        });
        if ok && l["attributed_to"] == "subagent" {
            let parent = l["session_native_id"].as_str().unwrap_or("");
            if f.and_then(|f| f.native_id.as_deref()) == Some(parent) {
                ok = false;
                problem = Some(format!(
                    "{id}: a subagent's claim was attributed to the parent session {parent}: {:?}",
                    l["quote"].as_str().unwrap_or("")
                ));
            }
        }
        acceptable_ok += usize::from(ok);
        match (problem, pending.get(id)) {
            (Some(p), None) => failures.push(p),
            (None, Some(_)) => now_passing.push(id.to_string()),
            (Some(p), Some(why)) => eprintln!("pending ({why}): {p}"),
            _ => {}
        }
    }
    let mut false_extractions = 0;
    for l in &non_claims {
        let id = l["id"].as_str().unwrap_or("");
        let hits = candidates(l, &found);
        if hits.is_empty() {
            if pending.contains_key(id) {
                now_passing.push(id.to_string());
            }
            continue;
        }
        false_extractions += 1;
        c_fp += hits.iter().filter(|h| h.verdict == "CONTRADICTED").count();
        if !pending.contains_key(id) {
            failures.push(format!(
                "{id}: a non-claim got findings {:?}: {:?}",
                hits.iter()
                    .map(|h| (h.verdict.as_str(), h.text.as_str()))
                    .collect::<Vec<_>>(),
                l["quote"].as_str().unwrap_or("")
            ));
        }
    }

    let n = claims.len() as f64;
    let precision = if c_tp + c_fp == 0 {
        1.0
    } else {
        c_tp as f64 / (c_tp + c_fp) as f64
    };
    let recall = if c_expected == 0 {
        1.0
    } else {
        c_hit as f64 / c_expected as f64
    };
    eprintln!("confusion (expected -> got): {confusion:?}");
    if !now_passing.is_empty() {
        eprintln!("pending labels that now pass (take them off PENDING): {now_passing:?}");
    }
    eprintln!(
        "SCORE acceptable_accuracy={:.3} contradicted_precision={precision:.3} contradicted_recall={recall:.3} extraction_recall={:.3} false_extractions={false_extractions}",
        acceptable_ok as f64 / n,
        extracted as f64 / n,
    );
    assert!(
        failures.is_empty(),
        "{} of {} labels miss:\n{}",
        failures.len(),
        claims.len() + non_claims.len(),
        failures.join("\n")
    );
}
