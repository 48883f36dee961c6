//! The query surface is bounded inside SQLite: a statement that would build one huge value
//! fails at once with a clear error, instead of building the value and being cut afterwards.
//!
//! This binary's tests allocate little besides these queries, so the process's peak resident
//! size (`VmHWM`) measures them.

use std::time::{Duration, Instant};

use fornax_store::{QueryLimits, Store, StoreError};

/// Peak resident size of this process in KiB (Linux), if known.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

#[test]
fn huge_values_fail_fast_with_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fornax.db");
    drop(Store::open(&db).unwrap());
    let store = Store::open_read_only(&db).unwrap();
    let before = peak_rss_kib();
    for sql in [
        "SELECT zeroblob(400000000)",
        "SELECT printf('%.*c', 900000000, 'x')",
        "SELECT length(replace(hex(zeroblob(100000000)), '0', 'ab'))",
        "SELECT randomblob(300000000)",
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000000) \
         SELECT group_concat('xxxxxxxxxxxxxxxx', '') FROM n",
    ] {
        let started = Instant::now();
        let result = store.query(sql, QueryLimits::default());
        let elapsed = started.elapsed();
        let message = match result {
            Err(StoreError::Query(m)) => m,
            Err(other) => panic!("{sql}: expected a query error, got {other}"),
            Ok(r) => panic!("{sql}: expected an error, got {} rows", r.rows.len()),
        };
        assert!(
            message.contains("larger than the query limit"),
            "{sql}: unclear error {message:?}"
        );
        // The recursive statement works up to the limit first; a single huge value is refused
        // before it is built.
        let bound = if sql.contains("RECURSIVE") {
            Duration::from_secs(3)
        } else {
            Duration::from_millis(100)
        };
        assert!(elapsed < bound, "{sql}: took {elapsed:?}");
    }
    if let (Some(before), Some(after)) = (before, peak_rss_kib()) {
        assert!(
            after.saturating_sub(before) < 50 * 1024,
            "peak resident size grew by {} KiB",
            after - before
        );
    }
    // An ordinary statement still works on the same connection afterwards, and a value under
    // the limit is returned whole.
    let r = store
        .query("SELECT length(zeroblob(1000000))", QueryLimits::default())
        .unwrap();
    assert_eq!(r.rows[0][0], serde_json::json!(1_000_000));
}

#[test]
fn the_time_bound_interrupts_a_long_statement() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fornax.db");
    drop(Store::open(&db).unwrap());
    let store = Store::open_read_only(&db).unwrap();
    let limits = QueryLimits {
        timeout: Duration::from_millis(200),
        ..QueryLimits::default()
    };
    let started = Instant::now();
    let result = store.query(
        "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT max(i) FROM n",
        limits,
    );
    let elapsed = started.elapsed();
    match result {
        Err(StoreError::Query(m)) => assert!(m.contains("time limit"), "{m}"),
        Err(other) => panic!("expected a time-limit error, got {other}"),
        Ok(r) => panic!("expected a time-limit error, got {} rows", r.rows.len()),
    }
    assert!(elapsed < Duration::from_secs(2), "took {elapsed:?}");
}

#[test]
fn printf_and_format_still_format() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fornax.db");
    drop(Store::open(&db).unwrap());
    let store = Store::open_read_only(&db).unwrap();
    let r = store
        .query(
            "SELECT printf('%05.1f|%s|%d|%.3c', 3.14159, 'a', 7, 'z'), format('%q', 'it''s'), \
             printf(NULL), printf('%s', NULL)",
            QueryLimits::default(),
        )
        .unwrap();
    assert_eq!(
        r.rows[0],
        vec![
            serde_json::json!("003.1|a|7|zzz"),
            serde_json::json!("it''s"),
            serde_json::Value::Null,
            serde_json::json!(""),
        ]
    );
}
