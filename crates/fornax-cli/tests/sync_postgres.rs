#![allow(clippy::print_stderr)] // a skipped check says why
#![cfg(feature = "postgres")] // `cargo test -p fornax-cli --features postgres --test sync_postgres`
//! `fornax sync` against a real PostgreSQL (`FORNAX_TEST_PG`, a throwaway cluster `.ci/run`
//! starts): a first push, a second push that writes nothing, an append that writes only the new
//! rows, two machines with the same session id, a killed push resumed, the team views, and the
//! read-only role.

#[path = "support/export_home.rs"]
mod export_home;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use export_home::{fornax, home, run_ok, scan, skip_or_fail};

/// A fresh database for one test, and its connection string.
fn database(name: &str) -> Option<String> {
    let Ok(base) = std::env::var("FORNAX_TEST_PG") else {
        skip_or_fail("FORNAX_TEST_PG is not set (.ci/run starts a throwaway PostgreSQL)");
        return None;
    };
    let db = format!("fornax_{name}_{}", std::process::id());
    block(async {
        let c = connect(&base).await;
        c.batch_execute(&format!("DROP DATABASE IF EXISTS {db}"))
            .await
            .unwrap();
        c.batch_execute(&format!("CREATE DATABASE {db}"))
            .await
            .unwrap();
    });
    Some(format!("{base} dbname={db}"))
}

fn block<F: std::future::Future>(f: F) -> F::Output {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
        .block_on(f)
}

async fn connect(url: &str) -> tokio_postgres::Client {
    let (c, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(async move {
        let _ = conn.await;
    });
    c
}

fn count(url: &str, sql: &str) -> i64 {
    block(async {
        let c = connect(url).await;
        c.query_one(sql, &[]).await.unwrap().get(0)
    })
}

fn sync(home: &Path, url: &str, args: &[&str]) -> serde_json::Value {
    let out = run_ok(
        fornax(home)
            .args(["--json", "sync", url, "--user", "ada"])
            .args(args),
    );
    serde_json::from_slice(&out).unwrap()
}

fn rows(report: &serde_json::Value) -> u64 {
    ["sessions", "loops", "items", "findings"]
        .iter()
        .map(|k| report[k].as_u64().unwrap())
        .sum()
}

fn local(home: &Path, sql: &str) -> i64 {
    let out = run_ok(fornax(home).args(["query", "--json", sql]));
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    v["rows"][0][0].as_i64().unwrap()
}

const LOCAL_SESSIONS: &str =
    "SELECT COUNT(*) FROM session WHERE id IN (SELECT session_id FROM item)";
const LOCAL_CURRENT_FINDINGS: &str = "SELECT COUNT(*) FROM current_finding";

#[test]
fn first_push_then_nothing_then_only_what_was_appended() {
    let Some(url) = database("append") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let full =
        std::fs::read_to_string(export_home::fixtures().join("claude-transcript.jsonl")).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    let cut = lines.len() / 2;
    let transcript = data.join("session.jsonl");
    std::fs::write(&transcript, format!("{}\n", lines[..cut].join("\n"))).unwrap();
    std::fs::copy(
        export_home::fixtures().join("codex-rollout.jsonl"),
        data.join("codex.jsonl"),
    )
    .unwrap();
    let home = dir.path().join("home");
    scan(&home, &data);

    let first = sync(&home, &url, &["--machine", "m1", "--texts"]);
    assert!(rows(&first) > 0, "{first}");
    assert_eq!(
        count(&url, "SELECT COUNT(*) FROM fornax.session"),
        local(&home, LOCAL_SESSIONS)
    );
    assert_eq!(
        count(&url, "SELECT COUNT(*) FROM fornax.item"),
        local(&home, "SELECT COUNT(*) FROM item")
    );
    assert_eq!(
        count(&url, "SELECT COUNT(*) FROM fornax.loop"),
        local(&home, "SELECT COUNT(*) FROM loop")
    );
    assert_eq!(
        count(&url, "SELECT COUNT(*) FROM fornax.finding"),
        local(&home, LOCAL_CURRENT_FINDINGS)
    );
    assert_eq!(
        count(
            &url,
            "SELECT COUNT(*) FROM fornax.item WHERE user_label <> 'ada' OR machine <> 'm1'"
        ),
        0,
        "every row carries its labels"
    );
    assert!(
        count(
            &url,
            "SELECT COUNT(*) FROM fornax.item WHERE body IS NOT NULL"
        ) > 0
    );

    let second = sync(&home, &url, &["--machine", "m1", "--texts"]);
    assert_eq!(rows(&second), 0, "nothing new, nothing written: {second}");
    assert_eq!(second["batches"], 0);

    let items_before = local(&home, "SELECT COUNT(*) FROM item");
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&transcript)
        .unwrap();
    use std::io::Write;
    writeln!(f, "{}", lines[cut..].join("\n")).unwrap();
    drop(f);
    scan(&home, &data);
    let new_items = local(&home, "SELECT COUNT(*) FROM item") - items_before;
    assert!(new_items > 0);
    let third = sync(&home, &url, &["--machine", "m1", "--texts"]);
    assert_eq!(third["items"].as_i64().unwrap(), new_items, "{third}");
    assert!(
        third["sessions"].as_u64().unwrap() <= 1,
        "only the grown session: {third}"
    );
    assert_eq!(
        count(&url, "SELECT COUNT(*) FROM fornax.item"),
        local(&home, "SELECT COUNT(*) FROM item")
    );
    assert_eq!(
        count(&url, "SELECT COUNT(*) FROM fornax.finding"),
        local(&home, LOCAL_CURRENT_FINDINGS)
    );
}

#[test]
fn two_machines_keep_the_same_session_id_apart_and_the_views_see_both() {
    let Some(url) = database("machines") else {
        return;
    };
    let (_dir, home) = home(false);
    sync(&home, &url, &["--machine", "laptop"]);
    let other = sync(&home, &url, &["--machine", "desktop"]);
    assert!(
        rows(&other) > 0,
        "the second machine's rows are its own: {other}"
    );
    let sessions = local(&home, LOCAL_SESSIONS);
    assert_eq!(
        count(&url, "SELECT COUNT(*) FROM fornax.session"),
        2 * sessions
    );
    assert_eq!(
        count(&url, "SELECT COUNT(DISTINCT native_id) FROM fornax.session"),
        sessions
    );
    assert_eq!(
        count(
            &url,
            "SELECT COUNT(DISTINCT machine) FROM fornax.team_findings"
        ),
        2
    );
    assert_eq!(
        count(&url, "SELECT COUNT(*) FROM fornax.team_findings"),
        2 * local(&home, LOCAL_CURRENT_FINDINGS)
    );
    let usage = count(
        &url,
        "SELECT COALESCE(SUM(output_tokens), 0)::bigint FROM fornax.usage_per_person_week WHERE user_label = 'ada'",
    );
    assert_eq!(
        usage,
        2 * local(&home, "SELECT COALESCE(SUM(output_tokens), 0) FROM loop")
    );
    assert!(usage > 0, "the fixtures state token usage");
    // Without --texts no item text leaves the machine.
    assert_eq!(
        count(
            &url,
            "SELECT COUNT(*) FROM fornax.item WHERE body IS NOT NULL"
        ),
        0
    );
}

#[test]
fn the_reader_role_reads_and_cannot_write() {
    let Some(url) = database("reader") else {
        return;
    };
    let (_dir, home) = home(false);
    sync(&home, &url, &["--machine", "m"]);
    block(async {
        let c = connect(&url).await;
        c.batch_execute("SET ROLE fornax_reader").await.unwrap();
        let n: i64 = c
            .query_one("SELECT COUNT(*) FROM fornax.team_findings", &[])
            .await
            .unwrap()
            .get(0);
        assert!(n > 0);
        let err = c
            .batch_execute("DELETE FROM fornax.finding")
            .await
            .unwrap_err();
        assert!(
            err.as_db_error().is_some_and(
                |e| e.code() == &tokio_postgres::error::SqlState::INSUFFICIENT_PRIVILEGE
            ),
            "{err:?}"
        );
    });
}

#[test]
fn a_killed_push_resumes_where_it_stopped() {
    let Some(url) = database("killed") else {
        return;
    };
    let (_dir, home) = home(true);
    // One row per table per transaction: long enough to be killed in the middle.
    let mut child = Command::new(env!("CARGO_BIN_EXE_fornax"))
        .env("FORNAX_HOME", &home)
        .args([
            "sync",
            &url,
            "--machine",
            "m",
            "--user",
            "ada",
            "--batch",
            "1",
        ])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut killed = false;
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            assert!(status.success());
            break;
        }
        let committed = block(async {
            let c = connect(&url).await;
            c.query_opt(
                "SELECT 1 FROM information_schema.tables WHERE table_schema = 'fornax' AND table_name = 'watermark'",
                &[],
            )
            .await
            .unwrap()
            .is_some()
                && c.query_one("SELECT COUNT(*) FROM fornax.watermark", &[])
                    .await
                    .unwrap()
                    .get::<_, i64>(0)
                    > 0
        });
        if committed {
            child.kill().unwrap(); // SIGKILL
            child.wait().unwrap();
            killed = true;
            break;
        }
        assert!(Instant::now() < deadline, "no batch committed in 60 s");
        std::thread::sleep(Duration::from_millis(20));
    }
    let items_local = local(&home, "SELECT COUNT(*) FROM item");
    let items_after_kill = count(&url, "SELECT COUNT(*) FROM fornax.item");
    if killed {
        assert!(
            items_after_kill < items_local,
            "the kill came before the end ({items_after_kill} of {items_local})"
        );
    } else {
        eprintln!("the push finished before it could be killed; resuming is still checked");
    }
    let resumed = sync(&home, &url, &["--machine", "m"]);
    assert_eq!(
        resumed["items"].as_i64().unwrap(),
        items_local - items_after_kill,
        "only the rows the killed push had not committed: {resumed}"
    );
    assert_eq!(count(&url, "SELECT COUNT(*) FROM fornax.item"), items_local);
    assert_eq!(
        count(&url, "SELECT COUNT(*) FROM fornax.finding"),
        local(&home, LOCAL_CURRENT_FINDINGS)
    );
    assert_eq!(
        count(&url, "SELECT COUNT(*) FROM fornax.session"),
        local(&home, LOCAL_SESSIONS)
    );
    let again = sync(&home, &url, &["--machine", "m"]);
    assert_eq!(rows(&again), 0, "{again}");
}

#[test]
fn watch_follows_the_local_store() {
    let Some(url) = database("watch") else { return };
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let full =
        std::fs::read_to_string(export_home::fixtures().join("claude-transcript.jsonl")).unwrap();
    let lines: Vec<&str> = full.lines().collect();
    let cut = lines.len() / 2;
    let transcript = data.join("session.jsonl");
    std::fs::write(&transcript, format!("{}\n", lines[..cut].join("\n"))).unwrap();
    let home = dir.path().join("home");
    scan(&home, &data);
    let mut child = Command::new(env!("CARGO_BIN_EXE_fornax"))
        .env("FORNAX_HOME", &home)
        .args(["sync", &url, "--machine", "w", "--watch", "--interval", "1"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let wait_for = |n: i64| {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let have = block(async {
                let c = connect(&url).await;
                match c.query_one("SELECT COUNT(*) FROM fornax.item", &[]).await {
                    Ok(r) => r.get::<_, i64>(0),
                    Err(_) => 0, // the schema is not there yet
                }
            });
            if have == n {
                return;
            }
            assert!(Instant::now() < deadline, "{have} of {n} items after 60 s");
            std::thread::sleep(Duration::from_millis(200));
        }
    };
    wait_for(local(&home, "SELECT COUNT(*) FROM item"));
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&transcript)
        .unwrap();
    use std::io::Write;
    writeln!(f, "{}", lines[cut..].join("\n")).unwrap();
    drop(f);
    scan(&home, &data);
    wait_for(local(&home, "SELECT COUNT(*) FROM item"));
    child.kill().unwrap();
    child.wait().unwrap();
}
