#![allow(clippy::print_stdout)] // a corpus test reports what it saw
//! `fornax scan` over the shared corpus of real agent data (skipped when it is absent): no
//! panic, a session for every JSONL session file, no unrecognized shape, a second scan that
//! changes nothing, and an appended line that adds exactly its items.

use std::path::{Path, PathBuf};
use std::process::Command;

fn shared() -> Option<PathBuf> {
    if let Ok(d) = std::env::var("FORNAX_SHARED_DIR") {
        return Some(PathBuf::from(d)).filter(|p| p.join("corpus").is_dir());
    }
    // The nearest `shared/corpus` above the workspace (its sibling in CI).
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(2)
        .map(|dir| dir.join("shared"))
        .find(|p| p.join("corpus").is_dir())
}

fn copy_tree(from: &Path, to: &Path) {
    for entry in walkdir(from) {
        let rel = entry.strip_prefix(from).unwrap();
        let dest = to.join(rel);
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&entry, &dest).unwrap();
    }
}

fn walkdir(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walkdir(&p));
        } else {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// Corpus files that are not a session's own file: one record cut out of a transcript (the
/// `__observed__` samples, which may name no session), and a workflow run's journal (its
/// agents' transcripts hold their sessions).
fn holds_no_session(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy())
        .unwrap_or_default();
    name.contains("__observed__") || name.ends_with("__journal.jsonl")
}

fn fornax(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
    c.env("FORNAX_HOME", home).env("NO_COLOR", "1");
    c
}

fn scan(home: &Path, data: &Path) -> serde_json::Value {
    let out = fornax(home)
        .args(["scan", "--json"])
        .arg(data)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "scan failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn query(home: &Path, sql: &str) -> Vec<Vec<serde_json::Value>> {
    let out = fornax(home)
        .args(["query", "--json", sql])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    serde_json::from_value(v["rows"].clone()).unwrap()
}

#[test]
fn scanning_the_corpus() {
    let Some(shared) = shared() else {
        println!("skipped: ../shared/corpus is absent");
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("corpus");
    for dir in ["claude-transcript", "codex-rollout", "pi-session", "gemini"] {
        copy_tree(&shared.join("corpus").join(dir), &data.join(dir));
    }
    let home = work.path().join("home");

    let first = scan(&home, &data);
    println!("first scan: {}", serde_json::to_string(&first).unwrap());
    assert_eq!(first["errors"], serde_json::json!([]));
    assert_eq!(
        first["unrecognized"],
        serde_json::json!({}),
        "every shape the adapters claim is recognized"
    );

    // Every JSONL session file is a source that supports at least one session.
    let supported: std::collections::BTreeSet<String> = query(
        &home,
        "SELECT s.locator FROM source s WHERE EXISTS (SELECT 1 FROM session_source ss WHERE ss.source_id = s.id)",
    )
    .into_iter()
    .map(|r| r[0].as_str().unwrap().to_string())
    .collect();
    for file in walkdir(&data)
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .filter(|p| !holds_no_session(p))
    {
        let canonical = std::fs::canonicalize(&file).unwrap().display().to_string();
        assert!(
            supported.contains(&canonical),
            "{} produced no session",
            file.display()
        );
    }

    let second = scan(&home, &data);
    let sources = &second["sources"];
    assert_eq!(sources["new"], 0);
    assert_eq!(sources["appended"], 0);
    assert_eq!(sources["rebuilt"], 0);
    assert_eq!(second["records"], 0);
    assert_eq!(second["items"], 0);
    assert_eq!(second["bytes_read"], 0, "an unchanged file is not read");

    // One appended Codex line adds exactly its item.
    let rollout = data.join("codex-rollout/agtrace__codex_session.jsonl");
    let before = query(&home, "SELECT COUNT(*) FROM item")[0][0]
        .as_i64()
        .unwrap();
    let line = serde_json::json!({
        "timestamp": "2030-01-01T00:00:00.000Z",
        "type": "event_msg",
        "payload": {"type": "user_message", "message": "one more thing: rename the flag", "images": []}
    });
    let mut text = std::fs::read_to_string(&rollout).unwrap();
    text.push_str(&format!("{line}\n"));
    std::fs::write(&rollout, text).unwrap();
    let third = scan(&home, &data);
    assert_eq!(third["sources"]["appended"], 1, "{third}");
    assert_eq!(third["records"], 1);
    let after = query(&home, "SELECT COUNT(*) FROM item")[0][0]
        .as_i64()
        .unwrap();
    assert_eq!(after, before + 1);
}

/// The Copilot CLI and Cursor samples, laid out where each agent keeps them (Cursor names a
/// conversation by its file's place): every file imports with nothing unrecognized, each
/// transcript and log supports a session, the chat store is read read-only, and a second
/// scan changes nothing.
#[test]
fn scanning_the_copilot_and_cursor_corpus() {
    let Some(shared) = shared() else {
        println!("skipped: ../shared/corpus is absent");
        return;
    };
    let corpus = shared.join("corpus");
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("data");
    let mut expected = Vec::new();
    for file in walkdir(&corpus.join("copilot-cli")) {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let stem = name.trim_end_matches(".jsonl").replace("__events", "");
        // The directory layout for most, the older flat one for the rest.
        let dest = if name.contains("jazzyalex") {
            data.join(format!(".copilot/session-state/{stem}.jsonl"))
        } else {
            data.join(format!(".copilot/session-state/{stem}/events.jsonl"))
        };
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&file, &dest).unwrap();
        expected.push(dest);
    }
    let transcripts = data.join(".cursor/projects/home-dev-app/agent-transcripts");
    let parent = "0b3e5c77-1a2d-4e9f-8c61-5d2f0a9b7e14";
    for (i, file) in walkdir(&corpus.join("cursor")).into_iter().enumerate() {
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        let id = format!("00000000-0000-4000-8000-{i:012}");
        let dest = if name.ends_with("cursor-subagent__parent.jsonl") {
            transcripts.join(format!("{parent}/{parent}.jsonl"))
        } else if name.ends_with("cursor-subagent__subagents__child.jsonl") {
            transcripts.join(format!("{parent}/subagents/child.jsonl"))
        } else if name.ends_with(".jsonl") {
            transcripts.join(format!("{id}/{id}.jsonl"))
        } else if name.ends_with(".txt") || name.ends_with("previous-session.md") {
            transcripts.join(format!("{id}.txt"))
        } else if name.ends_with("store.db") {
            data.join(format!(".cursor/chats/9f2c/{id}/store.db"))
        } else {
            // The hook audit log is a user's own markdown of hook payloads.
            continue;
        };
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&file, &dest).unwrap();
        if !name.ends_with("store.db") {
            expected.push(dest);
        }
    }
    let home = work.path().join("home");
    let first = scan(&home, &data);
    println!("first scan: {}", serde_json::to_string(&first).unwrap());
    assert_eq!(first["errors"], serde_json::json!([]));
    assert_eq!(first["unrecognized"], serde_json::json!({}));
    assert_eq!(
        first["malformed_records"], 1,
        "the one invalid line of the 1.0.43 sample"
    );
    let supported: std::collections::BTreeSet<String> = query(
        &home,
        "SELECT s.locator FROM source s WHERE EXISTS (SELECT 1 FROM session_source ss WHERE ss.source_id = s.id)",
    )
    .into_iter()
    .map(|r| r[0].as_str().unwrap().to_string())
    .collect();
    for file in &expected {
        let canonical = std::fs::canonicalize(file).unwrap().display().to_string();
        assert!(
            supported.contains(&canonical),
            "{} produced no session",
            file.display()
        );
    }
    let store = query(
        &home,
        "SELECT name FROM session WHERE provider = 'cursor' AND native_id = 'a1b2c3d4-e5f6-7890-abcd-ef1234567890'",
    );
    assert_eq!(store[0][0], "Test Session", "the chat store's metadata");
    let second = scan(&home, &data);
    assert_eq!(second["records"], 0, "{second}");
    assert_eq!(second["sources"]["new"], 0);
}

/// Every file of a directory: its name, size, a fingerprint of its bytes and its
/// modification time.
fn snapshot(dir: &Path) -> Vec<(String, u64, String, std::time::SystemTime)> {
    walkdir(dir)
        .into_iter()
        .map(|p| {
            let meta = std::fs::metadata(&p).unwrap();
            let bytes = std::fs::read(&p).unwrap();
            (
                p.file_name().unwrap().to_string_lossy().into_owned(),
                meta.len(),
                blake3::hash(&bytes).to_hex().to_string(),
                meta.modified().unwrap(),
            )
        })
        .collect()
}

/// opencode 1.16's `opencode.db` in WAL mode, with its `-wal` and `-shm` beside it, in a
/// read-only directory: imported, and not one byte, file or time changed.
#[test]
fn the_opencode_1_16_database_is_read_without_writing_anything() {
    use std::os::unix::fs::PermissionsExt;
    let Some(shared) = shared() else {
        println!("skipped: ../shared/corpus is absent");
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let dir = work.path().join("opencode");
    std::fs::create_dir_all(&dir).unwrap();
    for suffix in ["", "-wal", "-shm"] {
        let from = shared
            .join("corpus/opencode")
            .join(format!("suhd550-dev__stunning-memory__opencode.db{suffix}"));
        let to = dir.join(format!("opencode.db{suffix}"));
        std::fs::copy(&from, &to).unwrap();
        std::fs::set_permissions(&to, std::fs::Permissions::from_mode(0o444)).unwrap();
    }
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o555)).unwrap();
    let before = snapshot(&dir);
    let home = work.path().join("home");
    let summary = scan(&home, &dir);
    let after = snapshot(&dir);
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    assert_eq!(summary["errors"], serde_json::json!([]), "{summary}");
    assert_eq!(summary["unrecognized"], serde_json::json!({}), "{summary}");
    assert_eq!(
        before, after,
        "the database, its WAL and its shared memory are untouched"
    );
    let rows = query(
        &home,
        "SELECT s.native_id, s.cwd, COUNT(i.id) FROM session s JOIN item i ON i.session_id = s.id WHERE s.provider = 'opencode' GROUP BY s.id",
    );
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0][0], "ses_04ca851f7ffevKrKMHW3RsPK1U");
    assert!(rows[0][2].as_i64().unwrap() > 50, "{rows:?}");
}

/// What `fornax show` prints for one session.
fn show(home: &Path, session: &str) -> String {
    let out = fornax(home)
        .env("COLUMNS", "400")
        .args(["show", session])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The 2026-12 drift samples, scanned as they are: each new fact shows on its session's
/// timeline.
#[test]
fn the_drift_samples_show_their_new_facts() {
    let Some(shared) = shared() else {
        println!("skipped: ../shared/corpus is absent");
        return;
    };
    let corpus = shared.join("corpus");
    let work = tempfile::tempdir().unwrap();
    let data = work.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    for (dir, name) in [
        ("claude-transcript", "noamsalit__Shepherd__89b8683f-b2ea-4874-934a-9cadbb6cb276.jsonl"),
        ("claude-transcript", "Juliusolsson05__agent-transcript-parser__observed__claude-record-frame-link__source.jsonl"),
        ("codex-rollout", "seokhyeonhong__motion-jepa__rollout-2026-08-06T16-45-32-019fd608-da80-7713-bcdd-bc47748af23d.jsonl"),
        ("codex-rollout", "seokhyeonhong__motion-jepa__.codex__session_index.jsonl"),
        ("codex-rollout", "seokhyeonhong__motion-jepa__.codex__history.jsonl"),
        ("codex-rollout", "Juliusolsson05__agent-transcript-parser__observed__codex-payload-thread-goal-updated__source.jsonl"),
        ("gemini", "victorbernardi__.shared-ai-memory__.gemini__tmp__00-pops-extractor__chats__session-2026-05-30T05-15-a2a-serv.jsonl"),
    ] {
        std::fs::copy(corpus.join(dir).join(name), data.join(name)).unwrap();
    }
    let home = work.path().join("home");
    scan(&home, &data);
    let claude = show(&home, "89b8683f-b2ea-4874-934a-9cadbb6cb276");
    for fact in [
        "environment: working directory /tmp/shp-schemas-tx.blIf90/work",
        "You are powered by the model claude-nonexistent-model-shp",
        "There's an issue with the selected model",
        "(failed)",
    ] {
        assert!(claude.contains(fact), "{fact:?} missing from:\n{claude}");
    }
    let frame = show(&home, "fixture-id-1");
    assert!(
        frame.contains("linked frame fixture text: https://example.invalid/fixture"),
        "{frame}"
    );
    let codex = show(&home, "019fd608-da80-7713-bcdd-bc47748af23d");
    for fact in [
        "MotionJEPA 활용처 확장",
        "thread settings: model gpt-5.6-sol",
        "permissions :danger-full-access",
    ] {
        assert!(codex.contains(fact), "{fact:?} missing from:\n{codex}");
    }
    let history = show(&home, "019f9b36-1e6d-7651-9801-5450483871e2");
    assert!(
        history.contains("motion-jepa"),
        "the thread's title: {history}"
    );
    assert!(
        history.contains("human.request"),
        "the prompt history: {history}"
    );
    let gemini = show(&home, "a2a-server@2026-05-30T05:15:29.354Z");
    assert!(gemini.contains("gemini"), "{gemini}");
}
