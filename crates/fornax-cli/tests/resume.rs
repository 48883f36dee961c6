//! A killed scan leaves nothing unjudged: a real `fornax scan` is SIGKILLed at moments spread
//! over an uninterrupted scan's duration (with random jitter), and the next scan must reach
//! exactly the findings of the uninterrupted run, with no session still owed a judgement.
//!
//! The sessions are the labeled verdict cases' native files (`tests/verdicts/sessions`),
//! without their hook and plugin streams (those reach the store through the live transports).

// The test reports its seed and how many kills left claims owed, for a person reading it.
#![allow(clippy::print_stderr)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const TRIALS: u32 = 24;

fn fornax(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
    c.env("FORNAX_HOME", home)
        .env("NO_COLOR", "1")
        .env_remove("FORNAX_WORKSPACE")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    c
}

fn copy_sessions(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read dir") {
        let p = entry.expect("entry").path();
        let name = p.file_name().expect("name").to_string_lossy().to_string();
        if name.ends_with(".hooks.ndjson") || name.ends_with(".opencode.ndjson") {
            continue;
        }
        if p.is_dir() {
            copy_sessions(&p, &to.join(&name));
        } else {
            std::fs::copy(&p, to.join(&name)).expect("copy");
        }
    }
}

fn scan(home: &Path, data: &Path) {
    let out = fornax(home).arg("scan").arg(data).output().expect("scan");
    assert!(
        out.status.success(),
        "scan failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

type Judged = BTreeSet<(String, String, String, String, String)>;

/// Every current finding: session, claim text, subject, verdict, rule.
fn findings(home: &Path) -> Judged {
    let out = fornax(home)
        .args(["findings", "--json"])
        .stdout(Stdio::piped())
        .output()
        .expect("findings");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    v["findings"]
        .as_array()
        .expect("findings array")
        .iter()
        .map(|f| {
            let s = |v: &serde_json::Value| v.as_str().unwrap_or("").to_string();
            (
                s(&f["session"]["native_id"]),
                s(&f["claim"]["text"]),
                s(&f["claim"]["subject"]),
                s(&f["verdict"]),
                s(&f["rule"]),
            )
        })
        .collect()
}

/// How many sessions are still owed a judgement (`None`: no database yet).
fn pending(home: &Path) -> Option<i64> {
    let out = fornax(home)
        .args(["query", "SELECT COUNT(*) FROM verify_pending", "--json"])
        .stdout(Stdio::piped())
        .output()
        .expect("query");
    if !out.status.success() {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).ok()?;
    v["rows"][0][0].as_i64()
}

/// A small xorshift generator: the jitter differs from run to run, and the seed is printed so
/// a failing run can be repeated with `FORNAX_KILL_SEED`.
fn seed() -> u64 {
    std::env::var("FORNAX_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_nanos() as u64)
                | 1
        })
}

fn next(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

#[test]
fn a_scan_killed_at_any_moment_converges_to_the_uninterrupted_findings() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let data = tmp.path().join("data");
    copy_sessions(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/verdicts/sessions"),
        &data,
    );

    let reference_home = tmp.path().join("reference");
    let started = Instant::now();
    scan(&reference_home, &data);
    let duration = started.elapsed();
    let reference = findings(&reference_home);
    assert!(
        reference.len() > 50,
        "the reference run judges the set: {}",
        reference.len()
    );
    assert_eq!(pending(&reference_home), Some(0));

    let mut state = seed();
    eprintln!("kill seed {state}, uninterrupted scan {duration:?}");
    let mut interrupted_with_claims_owed = 0;
    for trial in 0..TRIALS {
        let home: PathBuf = tmp.path().join(format!("trial-{trial}"));
        // One moment in each equal slice of the scan's duration, jittered inside the slice.
        let slice = duration.as_micros() as u64 / u64::from(TRIALS);
        let at = slice * u64::from(trial) + next(&mut state) % slice.max(1);
        let mut child = fornax(&home)
            .arg("scan")
            .arg(&data)
            .spawn()
            .expect("spawn scan");
        std::thread::sleep(Duration::from_micros(at));
        // SIGKILL: no chance to clean up.
        let _ = child.kill();
        let _ = child.wait();
        if pending(&home).is_some_and(|n| n > 0) {
            interrupted_with_claims_owed += 1;
        }
        scan(&home, &data);
        let got = findings(&home);
        assert_eq!(
            got.symmetric_difference(&reference).collect::<Vec<_>>(),
            Vec::<&(String, String, String, String, String)>::new(),
            "trial {trial}: killed after {at}µs, the next scan differs from the uninterrupted run"
        );
        assert_eq!(pending(&home), Some(0), "trial {trial}: claims still owed");
    }
    eprintln!(
        "{interrupted_with_claims_owed} of {TRIALS} kills left claims owed a judgement for the next scan"
    );
    assert!(
        interrupted_with_claims_owed > 0,
        "no kill landed between a committed source and its judgement; the test proves nothing"
    );
}
