//! The read-only SQL surface: whatever statement arrives, nothing is written and nothing
//! panics.

use fornax_store::{QueryLimits, Store};
use proptest::prelude::*;

fn statement() -> impl Strategy<Value = String> {
    let token = prop::sample::select(vec![
        "SELECT",
        "INSERT",
        "INTO",
        "UPDATE",
        "DELETE",
        "FROM",
        "DROP",
        "TABLE",
        "ATTACH",
        "DATABASE",
        "PRAGMA",
        "VACUUM",
        "CREATE",
        "TRIGGER",
        "WITH",
        "RECURSIVE",
        "AS",
        "VALUES",
        "item",
        "session",
        "source",
        "record",
        "text",
        "finding",
        "sqlite_master",
        "fts_pending",
        "*",
        "(",
        ")",
        ",",
        ";",
        "1",
        "'x'",
        "writable_schema",
        "=",
        "ON",
        "SET",
        "REPLACE",
        "load_extension('x')",
        "zeroblob(1000)",
        "randomblob(10)",
        "WHERE",
        "count(*)",
        "--",
        "/*",
        "*/",
        "\"",
        "user_version",
        "journal_mode",
        "BEGIN",
        "COMMIT",
        "ROLLBACK",
    ]);
    prop_oneof![
        prop::collection::vec(token, 1..14).prop_map(|t| t.join(" ")),
        "\\PC{0,80}",
    ]
}

fn snapshot(store: &Store) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    for sql in [
        "SELECT COUNT(*) FROM session",
        "SELECT COUNT(*) FROM item",
        "SELECT COUNT(*) FROM record",
        "SELECT COUNT(*) FROM source",
        "SELECT COUNT(*) FROM sqlite_master",
    ] {
        out.push(store.query(sql, QueryLimits::default()).unwrap().rows[0][0].clone());
    }
    out
}

#[test]
fn the_query_surface_never_writes() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("fornax.db");
    drop(Store::open(&db).unwrap());
    let store = Store::open_read_only(&db).unwrap();
    let before = snapshot(&store);
    let limits = QueryLimits {
        max_rows: 50,
        max_output_bytes: 64 * 1024,
        timeout: std::time::Duration::from_millis(200),
    };
    fornax_fuzz::run(
        "sql_authorizer",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/regressions/sql_authorizer.txt"
        ),
        statement(),
        |sql| {
            let _ = store.query(&sql, limits);
            prop_assert_eq!(snapshot(&store), before.clone(), "after {}", sql);
            Ok(())
        },
    );
    // A writable handle on the same file sees the same.
    let writer = Store::open(&db).unwrap();
    assert_eq!(snapshot(&writer), before);
}
