//! `fornax usage` counts a model call once whichever files carry it.

use std::path::Path;
use std::process::Command;

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
    let fornax = || {
        let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
        c.env("FORNAX_HOME", home).env("NO_COLOR", "1");
        c
    };
    let scan = fornax()
        .args(["scan", "--no-verify"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        scan.status.success(),
        "{}",
        String::from_utf8_lossy(&scan.stderr)
    );
    let out = fornax().args(["usage", "--json"]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
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
