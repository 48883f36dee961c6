//! A home built by scanning real data: the bundled e2e fixtures always, and the shared corpus
//! when it is present.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

pub fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/e2e")
}

pub fn corpus() -> Option<PathBuf> {
    if let Ok(d) = std::env::var("FORNAX_SHARED_DIR") {
        return Some(PathBuf::from(d).join("corpus")).filter(|p| p.is_dir());
    }
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .skip(2)
        .map(|dir| dir.join("shared/corpus"))
        .find(|p| p.is_dir())
}

pub fn fornax(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
    c.env("FORNAX_HOME", home).env("NO_COLOR", "1");
    c
}

pub fn run_ok(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().expect("fornax runs");
    assert!(
        out.status.success(),
        "{:?} failed: {}",
        cmd,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

pub fn scan(home: &Path, data: &Path) {
    run_ok(fornax(home).args(["scan", "--json"]).arg(data));
}

pub fn copy_tree(from: &Path, to: &Path) {
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
            copy_tree(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}

/// Row ids (as `#N`) of every indexed session.
pub fn session_ids(home: &Path) -> Vec<String> {
    let out = run_ok(fornax(home).args([
        "query",
        "--json",
        "SELECT id FROM session WHERE id IN (SELECT session_id FROM item) ORDER BY id",
    ]));
    let v: serde_json::Value = serde_json::from_slice(&out).unwrap();
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| format!("#{}", r[0]))
        .collect()
}

/// Copies the fixtures (and the corpus, when `with_corpus` and present) and scans them.
pub fn home(with_corpus: bool) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(data.join("fixtures")).unwrap();
    copy_tree(&fixtures(), &data.join("fixtures"));
    if with_corpus {
        if let Some(c) = corpus() {
            std::fs::create_dir_all(data.join("corpus")).unwrap();
            copy_tree(&c, &data.join("corpus"));
        }
    }
    let home = dir.path().join("home");
    scan(&home, &data);
    (dir, home)
}

/// Whether a required external tool may be missing: locally a test skips with the reason;
/// under CI it must not.
pub fn skip_or_fail(reason: &str) {
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!("required under CI=true: {reason}");
    }
    eprintln!("skipped: {reason}");
}
