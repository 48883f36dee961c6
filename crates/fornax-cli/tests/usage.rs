#![allow(clippy::print_stdout)] // the corpus test says when it skips
//! `fornax usage` counts a model call once whichever files carry it, and answers the same from
//! its hourly rollup as from the calls themselves.

mod support;

use std::path::Path;
use std::process::Command;

use support::{copy_tree, corpus, fornax};

/// The command's stdout; it must succeed.
fn stdout_of(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{cmd:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

/// `fornax scan --no-verify DATA` into `home`, with no daemon started.
fn scan(home: &Path, data: &Path) {
    stdout_of(
        fornax(home)
            .env("FORNAX_DAEMON_AUTOSTART", "0")
            .args(["scan", "--no-verify"])
            .arg(data),
    );
}

/// A Claude Code response split over two lines (same `message.id` and `requestId`, usage
/// repeated; the later line holds the final output count) and a second response.
const TRANSCRIPT: &str = concat!(
    r#"{"type":"user","sessionId":"s-1","uuid":"u1","timestamp":"2026-01-05T10:00:00.000Z","cwd":"/w/app","message":{"role":"user","content":"fix the bug"}}"#,
    "\n",
    r#"{"type":"assistant","sessionId":"s-1","uuid":"a1","parentUuid":"u1","requestId":"req_1","timestamp":"2026-01-05T10:00:01.000Z","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"Looking."}],"usage":{"input_tokens":10,"output_tokens":1,"cache_creation_input_tokens":100,"cache_read_input_tokens":1000}}}"#,
    "\n",
    r#"{"type":"assistant","sessionId":"s-1","uuid":"a2","parentUuid":"a1","requestId":"req_1","timestamp":"2026-01-05T10:00:02.000Z","message":{"id":"msg_1","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"ls"}}],"usage":{"input_tokens":10,"output_tokens":40,"cache_creation_input_tokens":100,"cache_read_input_tokens":1000}}}"#,
    "\n",
    r#"{"type":"assistant","sessionId":"s-1","uuid":"a3","parentUuid":"a2","requestId":"req_2","timestamp":"2026-01-05T10:00:05.000Z","message":{"id":"msg_2","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":"Done."}],"stop_reason":"end_turn","usage":{"input_tokens":5,"output_tokens":7,"cache_creation_input_tokens":0,"cache_read_input_tokens":1100}}}"#,
    "\n",
);

fn usage_totals(home: &Path, dir: &Path) -> serde_json::Value {
    scan(home, dir);
    let out = stdout_of(fornax(home).args(["usage", "--json"]));
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    v["totals"].clone()
}

#[test]
fn split_lines_and_copied_transcripts_count_each_call_once() {
    let tmp = tempfile::tempdir().unwrap();
    let one = tmp.path().join("one/projects/-w-app");
    std::fs::create_dir_all(&one).unwrap();
    std::fs::write(one.join("s-1.jsonl"), TRANSCRIPT).unwrap();
    let t = usage_totals(&tmp.path().join("h1"), &tmp.path().join("one"));
    assert_eq!(t["input_tokens"], 15);
    assert_eq!(
        t["output_tokens"], 47,
        "the split response's final count, once"
    );
    assert_eq!(t["cache_creation_tokens"], 100);
    assert_eq!(t["cache_read_tokens"], 2100);
    assert_eq!(t["calls"], 2);

    // The same transcript again under another name (a copied or resumed file): nothing added.
    let two = tmp.path().join("two/projects/-w-app");
    std::fs::create_dir_all(&two).unwrap();
    std::fs::write(two.join("s-1.jsonl"), TRANSCRIPT).unwrap();
    std::fs::write(two.join("s-1-copy.jsonl"), TRANSCRIPT).unwrap();
    let t2 = usage_totals(&tmp.path().join("h2"), &tmp.path().join("two"));
    assert_eq!(t2, t, "a call seen in two files is counted once");
}

/// Every report, with and without filters, as `fornax usage … --json` prints it.
fn every_report(home: &Path) -> Vec<(String, String)> {
    let reports: [&[&str]; 11] = [
        &[],
        &["daily", "--breakdown"],
        &["monthly"],
        &["session"],
        &["blocks"],
        &["daily", "--since", "2025-01-01", "--until", "2025-12-31"],
        &["session", "--provider", "codex"],
        &["monthly", "--model", "claude"],
        &["session", "--project", "/"],
        &["blocks", "--since", "2025-06-01"],
        &["daily", "--provider", "claude-code", "--breakdown"],
    ];
    reports
        .iter()
        .map(|args| {
            let out = stdout_of(fornax(home).arg("usage").args(*args).arg("--json"));
            (args.join(" "), String::from_utf8(out).unwrap())
        })
        .collect()
}

/// The reports a store answers from its rollup are byte for byte the ones it answers from
/// the calls (what every release before the rollup read), on the shared corpus's agents; and
/// a rollup rebuilt whole by the next writer answers the same again.
#[test]
fn every_report_is_the_same_from_the_rollup_and_from_the_calls() {
    let Some(corpus) = corpus() else {
        println!("skipped: ../shared/corpus is absent");
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("corpus");
    for dir in ["claude-transcript", "codex-rollout", "pi-session", "gemini"] {
        copy_tree(&corpus.join(dir), &data.join(dir));
    }
    let home = work.path().join("home");
    scan(&home, &data);
    let db = home.join("fornax.db");
    let count = |sql: &str| -> i64 {
        let out = stdout_of(fornax(&home).args(["query", sql, "--json"]));
        let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
        v["rows"][0][0].as_i64().unwrap()
    };
    let calls = count("SELECT COUNT(*) FROM usage");
    let rollup = count("SELECT COUNT(*) FROM usage_hour");
    assert!(calls > 100, "{calls} calls in the corpus");
    assert!(
        rollup > 0 && rollup < calls,
        "{rollup} rollup rows for {calls} calls"
    );
    assert_eq!(count("SELECT COUNT(*) FROM usage_pending"), 0);
    let from_rollup = every_report(&home);
    let sessions = count(
        "SELECT COUNT(*) FROM (SELECT DISTINCT session_id FROM usage_hour WHERE provider = 'codex')",
    );
    assert!(sessions > 0, "codex calls in the rollup");

    // The rollup gone and every session owed one: the reports come from the calls.
    {
        let mut store = fornax_store::Store::open(&db).unwrap();
        assert!(store.queue_usage_rollup().unwrap() > 0);
    }
    let from_calls = every_report(&home);
    for ((name, a), (_, b)) in from_rollup.iter().zip(&from_calls) {
        assert!(a.len() > 100, "usage {name}: {a}");
        assert_eq!(a, b, "usage {name}: rollup and calls differ");
    }

    // The next writer rebuilds it whole; the same reports again.
    scan(&home, &data);
    assert_eq!(count("SELECT COUNT(*) FROM usage_pending"), 0);
    assert_eq!(count("SELECT COUNT(*) FROM usage_hour"), rollup);
    assert_eq!(every_report(&home), from_rollup);
}
