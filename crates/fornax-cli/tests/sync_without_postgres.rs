//! A build without the `postgres` feature keeps `fornax sync` and says how to get the mirror,
//! instead of failing on an unknown command.
#![cfg(not(feature = "postgres"))]

use std::process::Command;

#[test]
fn sync_names_the_feature_it_needs() {
    let home = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_fornax"))
        .env("FORNAX_HOME", home.path())
        .env("NO_COLOR", "1")
        .env("FORNAX_DAEMON_AUTOSTART", "0")
        .args(["sync", "postgres://reader@127.0.0.1:1/mirror"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.contains("built without the PostgreSQL mirror") && err.contains("--features postgres"),
        "{err}"
    );
}
