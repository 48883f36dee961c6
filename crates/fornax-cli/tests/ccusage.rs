#![allow(clippy::print_stdout)] // a comparison test reports what it compared
//! `fornax usage` side by side with ccusage (`ccusage@20.0.24`, installed from npm into a
//! temporary folder) on the same Claude Code transcripts: the shared corpus's session files and
//! a generated corpus (`bench/gen_corpus.py`), laid out as a Claude config folder, TZ=UTC,
//! `--offline`. Per day and per session, token totals must be equal and cost within 1% when
//! Fornax is given the same prices (an override file). Skips when npm is absent, except under
//! `CI=true`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const CCUSAGE: &str = "ccusage@20.0.24";

/// The rates ccusage 20.0.24 prices these families at offline (USD per million tokens), so the
/// comparison checks arithmetic and de-duplication, not price lists.
const SAME_PRICES: &str = r#"{"version":"ccusage-20.0.24","models":[
 {"family":"opus-4-6","match":["claude-opus-4-6"],"input":5,"output":25,"cache_creation":6.25,"cache_read":0.5},
 {"family":"opus-4-5","match":["claude-opus-4-5"],"input":5,"output":25,"cache_creation":6.25,"cache_read":0.5},
 {"family":"sonnet-4-5","match":["claude-sonnet-4-5"],"input":3,"output":15,"cache_creation":3.75,"cache_read":0.3,
  "long_context":{"threshold":200000,"input":6,"output":22.5,"cache_creation":7.5,"cache_read":0.6}},
 {"family":"haiku-4-5","match":["claude-haiku-4-5"],"input":1,"output":5,"cache_creation":1.25,"cache_read":0.1}]}"#;

fn shared() -> Option<PathBuf> {
    if let Ok(d) = std::env::var("FORNAX_SHARED_DIR") {
        return Some(PathBuf::from(d)).filter(|p| p.join("corpus").is_dir());
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(2)
        .map(|dir| dir.join("shared"))
        .find(|p| p.join("corpus").is_dir())
}

fn ci() -> bool {
    std::env::var("CI").is_ok_and(|v| v == "true")
}

fn skip(why: &str) {
    assert!(
        !ci(),
        "under CI=true the ccusage comparison must run: {why}"
    );
    println!("skipped: {why}");
}

/// Named rule "compact spelling only": ccusage finds usage lines by their text in Claude Code's
/// own compact JSON (`"type":"assistant"`), so a transcript re-serialized with spaces after the
/// separators (one corpus file went through a redaction tool) counts nothing in ccusage, while
/// Fornax parses the JSON and counts it. Such files are left out of the comparison.
fn compact_spelling(path: &Path) -> bool {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    !text.contains("\"type\": \"assistant\"")
}

/// The session id a transcript states (its first `sessionId`), unless it is a subagent's file.
fn main_session_id(path: &Path) -> Option<String> {
    let text = std::fs::read_to_string(path).ok()?;
    let mut id = None;
    for line in text.lines() {
        let Ok(v) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        if v.get("isSidechain").and_then(Value::as_bool) == Some(true) {
            return None;
        }
        if id.is_none() {
            id = v
                .get("sessionId")
                .and_then(Value::as_str)
                .map(str::to_string);
        }
    }
    id
}

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// A Claude config folder: the corpus's main-session transcripts as `projects/corpus-N/<id>.jsonl`
/// (each session in a project of its own, so no two share a file name) and the generated
/// corpus's projects tree as it was written.
fn build_claude_home(shared: &Path, root: &Path) -> usize {
    let projects = root.join("projects");
    let mut n = 0;
    let mut corpus = Vec::new();
    files(&shared.join("corpus/claude-transcript"), &mut corpus);
    corpus.sort();
    for (i, f) in corpus.iter().enumerate() {
        if f.extension().and_then(|e| e.to_str()) != Some("jsonl") {
            continue;
        }
        let Some(id) = main_session_id(f) else {
            continue;
        };
        if !compact_spelling(f) {
            println!("left out (rule: compact spelling only): {}", f.display());
            continue;
        }
        let dir = projects.join(format!("corpus-{i}"));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(f, dir.join(format!("{id}.jsonl"))).unwrap();
        n += 1;
    }
    let gen = root.join("gen");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/gen_corpus.py");
    let made = Command::new("python3")
        .arg(&script)
        .args(["--size", "6MiB", "--seed", "7", "--quiet", "--out"])
        .arg(&gen)
        .status();
    match made {
        Ok(s) if s.success() => {
            let from = gen.join("home/.claude/projects");
            let mut generated = Vec::new();
            files(&from, &mut generated);
            for f in generated {
                let dest = projects.join(f.strip_prefix(&from).unwrap());
                std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
                std::fs::rename(&f, &dest).unwrap();
                n += 1;
            }
        }
        other => {
            assert!(!ci(), "bench/gen_corpus.py failed: {other:?}");
            println!("generated corpus left out: python3 unavailable ({other:?})");
        }
    }
    n
}

/// Token kinds and cost of one report row.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Row {
    input: u64,
    output: u64,
    cache_creation: u64,
    cache_read: u64,
    cost: f64,
}

impl Row {
    fn tokens(&self) -> [u64; 4] {
        [
            self.input,
            self.output,
            self.cache_creation,
            self.cache_read,
        ]
    }
}

fn u(v: &Value, k: &str) -> u64 {
    v.get(k).and_then(Value::as_u64).unwrap_or(0)
}

fn ccusage_rows(v: &Value, list: &str, key: &str) -> BTreeMap<String, Row> {
    v[list]
        .as_array()
        .unwrap_or_else(|| panic!("ccusage output has no {list}: {v}"))
        .iter()
        .map(|r| {
            (
                r[key].as_str().unwrap().to_string(),
                Row {
                    input: u(r, "inputTokens"),
                    output: u(r, "outputTokens"),
                    cache_creation: u(r, "cacheCreationTokens"),
                    cache_read: u(r, "cacheReadTokens"),
                    cost: r["totalCost"].as_f64().unwrap_or(0.0),
                },
            )
        })
        .collect()
}

fn fornax_row(r: &Value) -> Row {
    Row {
        input: u(r, "input_tokens"),
        output: u(r, "output_tokens"),
        cache_creation: u(r, "cache_creation_tokens"),
        cache_read: u(r, "cache_read_tokens"),
        cost: r["cost_usd"].as_f64().unwrap(),
    }
}

fn run_json(cmd: &mut Command) -> Value {
    let out = cmd.output().expect("the command starts");
    assert!(
        out.status.success(),
        "{cmd:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!(
            "{cmd:?} printed no JSON ({e}): {}",
            String::from_utf8_lossy(&out.stdout)
        )
    })
}

fn assert_close(what: &str, ours: &Row, theirs: &Row) {
    assert_eq!(
        ours.tokens(),
        theirs.tokens(),
        "{what}: tokens [input, output, cache write, cache read] differ"
    );
    let tolerance = 0.01 * theirs.cost.abs().max(1e-9);
    assert!(
        (ours.cost - theirs.cost).abs() <= tolerance.max(1e-6),
        "{what}: cost {} vs ccusage {}",
        ours.cost,
        theirs.cost
    );
}

#[test]
fn usage_matches_ccusage_per_day_and_per_session() {
    let Some(shared) = shared() else {
        return skip("no shared corpus");
    };
    if Command::new("npm").arg("--version").output().is_err() {
        return skip("npm is not installed");
    }
    let tmp = tempfile::tempdir().unwrap();
    let npm_dir = tmp.path().join("npm");
    let installed = Command::new("npm")
        .args(["install", "--no-audit", "--no-fund", "--silent", "--prefix"])
        .arg(&npm_dir)
        .arg(CCUSAGE)
        .status()
        .unwrap();
    if !installed.success() {
        return skip(&format!("npm could not install {CCUSAGE}"));
    }
    let ccusage = npm_dir.join("node_modules/.bin/ccusage");
    let claude = tmp.path().join("claude");
    let files = build_claude_home(&shared, &claude);
    assert!(files > 5, "the comparison home holds {files} transcripts");

    let home = tmp.path().join("fornax");
    std::fs::create_dir_all(&home).unwrap();
    std::fs::write(home.join("prices.json"), SAME_PRICES).unwrap();
    let fornax = || {
        let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
        c.env("FORNAX_HOME", &home).env("NO_COLOR", "1");
        c
    };
    let scanned = fornax()
        .args(["scan", "--no-verify"])
        .arg(claude.join("projects"))
        .output()
        .unwrap();
    assert!(
        scanned.status.success(),
        "{}",
        String::from_utf8_lossy(&scanned.stderr)
    );
    let theirs = |report: &str| {
        run_json(
            Command::new(&ccusage)
                .args([report, "--json", "--offline"])
                .env("CLAUDE_CONFIG_DIR", &claude)
                .env("TZ", "UTC"),
        )
    };

    // Per day.
    let ours_daily = run_json(fornax().args(["usage", "daily", "--json"]));
    let ours: BTreeMap<String, Row> = ours_daily["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["key"].as_str().unwrap().to_string(), fornax_row(r)))
        .collect();
    let daily = ccusage_rows(&theirs("daily"), "daily", "period");
    assert!(!daily.is_empty());
    assert_eq!(
        ours.keys().collect::<Vec<_>>(),
        daily.keys().collect::<Vec<_>>(),
        "the same days have usage"
    );
    for (day, theirs) in &daily {
        assert_close(&format!("day {day}"), &ours[day], theirs);
    }

    // Per session. ccusage names a session by its file; Fornax by the session id the lines
    // state, which is the file's name here (subagent files are named `agent-<id>`, the
    // subagent session's id). Rule "subagents roll up": Fornax adds a subagent's usage to its
    // parent's row and lists it under `subagents`, so a parent's own usage is its row less them.
    let ours_sessions = run_json(fornax().args(["usage", "session", "--json"]));
    let mut own: BTreeMap<String, Row> = BTreeMap::new();
    for r in ours_sessions["rows"].as_array().unwrap() {
        let mut parent = fornax_row(r);
        for s in r["subagents"].as_array().into_iter().flatten() {
            let sub = fornax_row(s);
            parent.input -= sub.input;
            parent.output -= sub.output;
            parent.cache_creation -= sub.cache_creation;
            parent.cache_read -= sub.cache_read;
            parent.cost -= sub.cost;
            own.insert(s["key"].as_str().unwrap().to_string(), sub);
        }
        own.insert(r["key"].as_str().unwrap().to_string(), parent);
    }
    let sessions = ccusage_rows(&theirs("session"), "session", "period");
    assert!(!sessions.is_empty());
    for (id, theirs) in &sessions {
        let ours = own
            .get(id)
            .unwrap_or_else(|| panic!("ccusage session {id} is not a Fornax session"));
        assert_close(&format!("session {id}"), ours, theirs);
    }
    println!(
        "compared {} days and {} sessions over {files} transcripts",
        daily.len(),
        sessions.len()
    );
}
