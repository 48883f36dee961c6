#![allow(clippy::print_stdout)] // the corpus test reports what it saw
//! Importing opencode's storage through the real binary: the JSON tree and `opencode.db` become
//! one ordered source per session, their claims are verified, unchanged sessions are not read
//! again, and bad documents or an unknown database schema are counted and named.
//!
//! The fixtures under `tests/fixtures/opencode` are written by `make.py` there.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

const SID: &str = "ses_4c2d1e0f9a8bQwErTyUiOpAsDf";
const SID2: &str = "ses_4c2d1e0f9a8cZxCvBnMaSdFgHj";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/opencode")
}

fn fornax(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
    c.env("FORNAX_HOME", home)
        .env("NO_COLOR", "1")
        .env_remove("FORNAX_WORKSPACE");
    c
}

/// Scans and returns the summary; the exit code says whether a source failed.
fn scan(home: &Path, path: &Path) -> Value {
    let out = fornax(home)
        .args(["scan", "--json"])
        .arg(path)
        .output()
        .unwrap();
    let summary: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&out.stderr)));
    let failed = !summary["errors"].as_array().unwrap().is_empty();
    assert_eq!(
        out.status.code(),
        Some(if failed { 1 } else { 0 }),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    summary
}

fn query(home: &Path, sql: &str) -> Vec<Vec<Value>> {
    let out = fornax(home)
        .args(["query", "--json", sql])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    serde_json::from_value(v["rows"].clone()).unwrap()
}

fn copy_dir(from: &Path, to: &Path) {
    for entry in walk(from) {
        let dest = to.join(entry.strip_prefix(from).unwrap());
        std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
        std::fs::copy(&entry, &dest).unwrap();
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Verdicts of the test claims, per session.
fn test_verdicts(home: &Path) -> Vec<(String, String)> {
    let out = fornax(home).args(["findings", "--json"]).output().unwrap();
    assert!(out.status.success());
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["claim"]["subject"] == "test_result")
        .map(|f| {
            (
                f["session"]["native_id"].as_str().unwrap().to_string(),
                f["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

fn record_check(home: &Path, id: i64) -> Value {
    let out = fornax(home)
        .args(["record", "verify", "--json", &id.to_string()])
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

fn items_of(home: &Path, sid: &str) -> i64 {
    query(
        home,
        &format!(
            "SELECT COUNT(*) FROM item i JOIN session s ON s.id = i.session_id WHERE s.native_id = '{sid}'"
        ),
    )[0][0]
        .as_i64()
        .unwrap()
}

#[test]
fn a_storage_tree_is_one_ordered_source_per_session() {
    let work = tempfile::tempdir().unwrap();
    let home = work.path().join("home");
    // Found from a parent folder, as `fornax scan ~/.local/share/opencode` would.
    let data = work.path().join("opencode");
    copy_dir(&fixtures().join("storage"), &data.join("storage"));

    let first = scan(&home, &data);
    assert_eq!(first["errors"], json!([]), "{first:#}");
    assert_eq!(first["unrecognized"], json!({}), "{first:#}");
    assert_eq!(first["sources"]["new"], 2, "{first:#}");
    assert_eq!(
        first["sources"]["skipped"]["document outside any session"], 1,
        "the project document belongs to no session: {first:#}"
    );
    assert_eq!(first["records"], 15);
    assert_eq!(
        first["documents_placed"], 16,
        "every .json document: {first:#}"
    );
    assert_eq!(
        test_verdicts(&home),
        vec![(SID.to_string(), "CONTRADICTED".to_string())]
    );
    // Each source is the session's documents in reading order: session, messages, parts.
    let members: Vec<String> = query(
        &home,
        &format!(
            "SELECT r.member FROM record r JOIN source s ON s.id = r.source_id
             WHERE s.source_key LIKE '%#{SID}' ORDER BY r.position"
        ),
    )
    .into_iter()
    .map(|r| r[0].as_str().unwrap().to_string())
    .collect();
    assert_eq!(
        members,
        vec![
            format!("session/7f3e2d1c0b9a/{SID}.json"),
            format!("message/{SID}/msg_b10000000001AaBbCcDdEeFf.json"),
            format!("message/{SID}/msg_b10000000002GgHhIiJjKkLl.json"),
            "part/msg_b10000000001AaBbCcDdEeFf/prt_b20000000001.json".to_string(),
            "part/msg_b10000000002GgHhIiJjKkLl/prt_b20000000002.json".to_string(),
            "part/msg_b10000000002GgHhIiJjKkLl/prt_b20000000003.json".to_string(),
            "part/msg_b10000000002GgHhIiJjKkLl/prt_b20000000004.json".to_string(),
            "part/msg_b10000000002GgHhIiJjKkLl/prt_b20000000005.json".to_string(),
            format!("todo/{SID}.json"),
        ]
    );

    // Unchanged: nothing is read.
    let second = scan(&home, &data);
    assert_eq!(second["records"], 0, "{second:#}");
    assert_eq!(second["bytes_read"], 0);
    assert_eq!(second["sources"]["unchanged"], 1);

    // One part of the second session changes: only that session is read again.
    let items_before = items_of(&home, SID);
    let part = data.join("storage/part/msg_b10000000004SsTtUuVvWwXx/prt_b20000000008.json");
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&part).unwrap()).unwrap();
    doc["text"] = json!("The last release added the bearing helpers and a CLI flag.");
    std::fs::write(&part, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let third = scan(&home, &data);
    assert_eq!(third["sources"]["rebuilt"], 1, "{third:#}");
    assert_eq!(third["sources"]["unchanged"], 1, "{third:#}");
    assert_eq!(third["records"], 6);
    assert_eq!(
        third["documents_placed"], 1,
        "only the changed file is read to be placed again"
    );
    assert_eq!(items_of(&home, SID), items_before);
    let hits = fornax(&home)
        .args(["search", "--json", "a CLI flag"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&hits.stdout).contains(SID2));

    // A broken document is counted; the documents around it are kept.
    let broken = data.join("storage/part/msg_b10000000002GgHhIiJjKkLl/prt_b20000000009.json");
    std::fs::write(&broken, b"{\"id\": \"prt_b20000000009\", \"type\": \"te").unwrap();
    let fourth = scan(&home, &data);
    assert_eq!(fourth["malformed_records"], 1, "{fourth:#}");
    assert_eq!(fourth["documents_placed"], 1);
    assert_eq!(fourth["sources"]["rebuilt"], 1, "{fourth:#}");
    assert_eq!(items_of(&home, SID), items_before);
    assert_eq!(
        test_verdicts(&home),
        vec![(SID.to_string(), "CONTRADICTED".to_string())]
    );

    // A removed document leaves its session's source.
    std::fs::remove_file(data.join(format!("storage/todo/{SID}.json"))).unwrap();
    let fifth = scan(&home, &data);
    assert_eq!(fifth["sources"]["rebuilt"], 1, "{fifth:#}");
    assert_eq!(fifth["documents_placed"], 0);
    assert!(query(
        &home,
        "SELECT member FROM record WHERE member LIKE 'todo/%'"
    )
    .is_empty());

    // Every record points back at its document's bytes.
    let id = query(
        &home,
        "SELECT r.id FROM record r WHERE r.member LIKE '%prt_b20000000003.json'",
    )[0][0]
        .as_i64()
        .unwrap();
    let check = record_check(&home, id);
    assert_eq!(check["status"], "verified", "{check:#}");
    let tool = data.join("storage/part/msg_b10000000002GgHhIiJjKkLl/prt_b20000000003.json");
    let text = std::fs::read_to_string(&tool).unwrap();
    assert!(text.contains("\"exit\": 1"));
    std::fs::write(&tool, text.replace("\"exit\": 1", "\"exit\": 0")).unwrap();
    assert_eq!(record_check(&home, id)["status"], "hash_mismatch");
}

#[test]
fn a_forgotten_session_of_a_tree_is_not_imported_again() {
    let work = tempfile::tempdir().unwrap();
    let home = work.path().join("home");
    let data = work.path().join("opencode");
    copy_dir(&fixtures().join("storage"), &data.join("storage"));
    scan(&home, &data);
    assert!(items_of(&home, SID) > 0);

    let out = fornax(&home)
        .args(["forget", SID, "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(items_of(&home, SID), 0);

    // The forgotten session goes on in opencode (a part changes) beside the other session:
    // the scan reads the tree again, and still leaves the forgotten one out.
    let part = data.join("storage/part/msg_b10000000002GgHhIiJjKkLl/prt_b20000000002.json");
    let mut doc: Value = serde_json::from_slice(&std::fs::read(&part).unwrap()).unwrap();
    doc["text"] = json!("Another line written after the session was forgotten.");
    std::fs::write(&part, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    let after = scan(&home, &data);
    assert_eq!(after["sources"]["new"], 0, "{after:#}");
    assert_eq!(after["sources"]["rebuilt"], 0, "{after:#}");
    assert_eq!(items_of(&home, SID), 0, "{after:#}");
    assert!(items_of(&home, SID2) > 0);
    let hits = fornax(&home)
        .args([
            "search",
            "--json",
            "written after the session was forgotten",
        ])
        .output()
        .unwrap();
    assert!(
        !String::from_utf8_lossy(&hits.stdout).contains(SID),
        "{hits:?}"
    );
}

#[test]
fn opencode_db_is_read_like_the_tree() {
    let work = tempfile::tempdir().unwrap();
    let home = work.path().join("home");
    let db = work.path().join("opencode.db");
    std::fs::copy(fixtures().join("opencode.db"), &db).unwrap();
    let before = std::fs::read(&db).unwrap();

    let first = scan(&home, &db);
    assert_eq!(first["errors"], json!([]), "{first:#}");
    assert_eq!(first["unrecognized"], json!({}), "{first:#}");
    assert_eq!(first["sources"]["new"], 2, "{first:#}");
    assert_eq!(
        first["records"], 14,
        "sessions, messages and parts: {first:#}"
    );
    assert_eq!(
        test_verdicts(&home),
        vec![(SID.to_string(), "CONTRADICTED".to_string())]
    );
    assert_eq!(std::fs::read(&db).unwrap(), before, "read-only");

    // Ids come back from the columns, so parts join their messages' loops.
    assert_eq!(
        query(
            &home,
            &format!(
                "SELECT COUNT(*) FROM loop l JOIN session s ON s.id = l.session_id WHERE s.native_id = '{SID}'"
            )
        )[0][0],
        json!(1)
    );
    let id = query(
        &home,
        "SELECT r.id FROM record r WHERE r.member = 'part/prt_b20000000004'",
    )[0][0]
        .as_i64()
        .unwrap();
    let check = record_check(&home, id);
    assert_eq!(check["status"], "verified", "{check:#}");
    assert_eq!(check["member"], "part/prt_b20000000004");

    let second = scan(&home, &db);
    assert_eq!(second["records"], 0, "{second:#}");
    assert_eq!(second["sources"]["unchanged"], 1);
}

#[test]
fn an_unknown_database_schema_is_named_not_guessed() {
    let work = tempfile::tempdir().unwrap();
    let home = work.path().join("home");
    let db = work.path().join("opencode.db");
    std::fs::copy(fixtures().join("opencode-future.db"), &db).unwrap();
    let summary = scan(&home, &db);
    let errors = summary["errors"].as_array().unwrap();
    assert_eq!(errors.len(), 1, "{summary:#}");
    let message = errors[0]["error"].as_str().unwrap();
    assert!(message.contains("unknown schema"), "{message}");
    assert!(
        message.contains("table `part` has no column `message_id`"),
        "{message}"
    );
    assert!(message.contains("opencode.db"), "{message}");
    assert_eq!(summary["records"], 0);

    // Not a database at all: also an error naming the file, and the scan goes on.
    std::fs::write(&db, b"definitely not SQLite").unwrap();
    let summary = scan(&home, &db);
    assert_eq!(
        summary["errors"].as_array().unwrap().len(),
        1,
        "{summary:#}"
    );
}

fn shared() -> Option<PathBuf> {
    if let Ok(d) = std::env::var("FORNAX_SHARED") {
        return Some(PathBuf::from(d)).filter(|p| p.join("corpus").is_dir());
    }
    // The nearest `shared/corpus` above the workspace (its sibling in CI).
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(2)
        .map(|dir| dir.join("shared"))
        .find(|p| p.join("corpus").is_dir())
}

/// Where a storage object lives in opencode's tree, from its fields.
fn tree_path(doc: &Value) -> Option<String> {
    let s = |k: &str| doc.get(k).and_then(Value::as_str);
    let id = s("id")?;
    if s("role").is_some() {
        Some(format!("message/{}/{id}.json", s("sessionID")?))
    } else if s("messageID").is_some() && s("type").is_some() {
        Some(format!("part/{}/{id}.json", s("messageID")?))
    } else if doc.get("worktree").is_some() {
        Some(format!("project/{id}.json"))
    } else if s("directory").is_some() {
        Some(format!(
            "session/{}/{id}.json",
            s("projectID").unwrap_or("global")
        ))
    } else {
        None
    }
}

#[test]
fn real_storage_dumps_import_as_trees() {
    let Some(shared) = shared() else {
        println!("skipped: ../shared/corpus is absent");
        return;
    };
    let corpus = shared.join("corpus/opencode");
    if !corpus.is_dir() {
        println!("skipped: no opencode corpus");
        return;
    }
    let work = tempfile::tempdir().unwrap();
    let home = work.path().join("home");
    let data = work.path().join("data");
    let mut sessions = 0;
    // The dumps are storage objects concatenated as pretty JSON: put them back into trees.
    for dump in walk(&corpus.join("storage-dumps")) {
        let bytes = std::fs::read(&dump).unwrap();
        let root = data.join(dump.file_stem().unwrap()).join("storage");
        for doc in serde_json::Deserializer::from_slice(&bytes).into_iter::<Value>() {
            let doc = doc.unwrap();
            let Some(rel) = tree_path(&doc) else { continue };
            sessions += usize::from(rel.starts_with("session/"));
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
        }
    }
    for tree in ["agent-sessions-storage_v2", "agent-sessions-storage_legacy"] {
        copy_dir(&corpus.join(tree), &data.join(tree));
        sessions += walk(&corpus.join(tree).join("storage/session")).len();
    }
    let summary = scan(&home, &data);
    println!(
        "opencode trees: {}",
        serde_json::to_string(&summary).unwrap()
    );
    assert_eq!(summary["errors"], json!([]));
    assert_eq!(summary["unrecognized"], json!({}), "{summary:#}");
    let stored = query(
        &home,
        "SELECT COUNT(*) FROM session WHERE provider = 'opencode'",
    )[0][0]
        .as_u64()
        .unwrap();
    println!("{sessions} session documents, {stored} sessions stored");
    assert_eq!(stored as usize, sessions);
    assert_eq!(
        summary["sources"]["new"].as_u64().unwrap() as usize,
        sessions
    );
    // Every session has loops and items; assistant text became agent text.
    let empty = query(
        &home,
        "SELECT COUNT(*) FROM session s WHERE NOT EXISTS (SELECT 1 FROM item i WHERE i.session_id = s.id)",
    )[0][0]
        .as_u64()
        .unwrap();
    assert_eq!(empty, 0);
    let second = scan(&home, &data);
    assert_eq!(second["records"], 0);
}
