//! What `findings`, `sessions`, `search` and `show` print, through the real binary, on a home
//! built from the end-to-end fixtures (every provider, live and imported): snapshots at 80
//! and 160 columns, with and without color; every filter's bad values; `--limit` hints in the
//! terminal only; `--json` complete and versioned.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;

/// "Now" for every command here, so that relative times are stable.
const NOW: &str = "2026-04-25T12:00:00Z";

fn fixtures() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The sessions are read from a copy of the fixtures in a temporary folder: its path has the
/// same length on every machine, so a wrapped line wraps the same way wherever the checkout is.
fn data() -> &'static Path {
    static DATA: OnceLock<tempfile::TempDir> = OnceLock::new();
    DATA.get_or_init(|| {
        let data = tempfile::tempdir().unwrap();
        std::fs::create_dir(data.path().join("e2e")).unwrap();
        for entry in std::fs::read_dir(fixtures().join("e2e")).unwrap() {
            let from = entry.unwrap().path();
            std::fs::copy(
                &from,
                data.path().join("e2e").join(from.file_name().unwrap()),
            )
            .unwrap();
        }
        data
    })
    .path()
}

fn home() -> &'static Path {
    static HOME: OnceLock<tempfile::TempDir> = OnceLock::new();
    HOME.get_or_init(|| {
        let home = tempfile::tempdir().unwrap();
        let hooks =
            std::fs::read_to_string(fixtures().join("e2e-live/claude.hooks.ndjson")).unwrap();
        for line in hooks.lines() {
            pipe(
                home.path(),
                &["hook", "claude"],
                format!("{line}\n").as_bytes(),
            );
        }
        pipe(
            home.path(),
            &["hook", "opencode"],
            &std::fs::read(fixtures().join("e2e-live/opencode.ndjson")).unwrap(),
        );
        let out = fornax(home.path(), 100)
            .args(["scan", "--json"])
            .arg(data().join("e2e"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        home
    })
    .path()
}

fn fornax(home: &Path, columns: usize) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_fornax"));
    // Hooks spool and `fornax scan` stores, in one order: a daemon started by a hook would
    // store the live sessions whenever it gets to them.
    c.env("FORNAX_HOME", home)
        .env("FORNAX_DAEMON_AUTOSTART", "0")
        .env("FORNAX_NOW", NOW)
        .env("TZ", "UTC")
        .env("COLUMNS", columns.to_string())
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("FORNAX_WORKSPACE");
    c
}

fn pipe(home: &Path, args: &[&str], input: &[u8]) {
    use std::io::Write;
    let mut child = fornax(home, 100)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    assert!(child.wait_with_output().unwrap().status.success());
}

fn run(columns: usize, args: &[&str]) -> Output {
    fornax(home(), columns).args(args).output().unwrap()
}

/// Stdout of a successful run, with the fixture paths made stable.
fn stdout(columns: usize, args: &[&str]) -> String {
    let out = run(columns, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .replace(&data().display().to_string(), "[FIXTURES]")
}

/// Search output with its hits sorted: equally relevant hits come in the order their texts were
/// stored, and a scan stores the spooled live sessions and the files concurrently.
fn hits_in_a_fixed_order(text: &str) -> String {
    let mut blocks: Vec<&str> = text.trim_end().split("\n\n").collect();
    let header = blocks.remove(0);
    blocks.sort_unstable();
    format!("{header}\n\n{}\n", blocks.join("\n\n"))
}

fn json(args: &[&str]) -> serde_json::Value {
    let mut all = args.to_vec();
    all.push("--json");
    serde_json::from_str(&stdout(100, &all)).unwrap()
}

fn widest(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

#[test]
fn findings_at_80_and_160_columns() {
    let narrow = stdout(80, &["findings"]);
    assert!(widest(&narrow) <= 80, "{narrow}");
    insta::assert_snapshot!("findings_80", narrow);
    let wide = stdout(160, &["findings"]);
    assert!(widest(&wide) <= 160, "{wide}");
    insta::assert_snapshot!("findings_160", wide);
}

#[test]
fn sessions_at_80_and_160_columns() {
    let narrow = stdout(80, &["sessions"]);
    assert!(widest(&narrow) <= 80, "{narrow}");
    insta::assert_snapshot!("sessions_80", narrow);
    insta::assert_snapshot!("sessions_160", stdout(160, &["sessions"]));
}

#[test]
fn search_and_show_at_80_columns() {
    insta::assert_snapshot!(
        "search_80",
        hits_in_a_fixed_order(&stdout(80, &["search", "tests pass"]))
    );
    let show = stdout(80, &["show", "5b7c1f0e"]);
    assert!(widest(&show) <= 80, "{show}");
    insta::assert_snapshot!("show_80", show);
}

#[test]
fn the_deciding_fact_is_never_cut() {
    // The reason a verdict was reached, word for word, whatever the width.
    let reason = "summary (cargo 11 passed, 1 failed)";
    for columns in [40, 80, 160] {
        let out = stdout(columns, &["findings", "--verdict", "contradicted"]);
        let flat = out.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(flat.contains(reason), "{columns} columns:\n{out}");
    }
}

#[test]
fn evidence_ids_only_with_verbose() {
    let plain = stdout(100, &["findings", "5b7c1f0e"]);
    assert!(!plain.contains("exit:out:toolu_02"), "{plain}");
    assert!(!plain.contains("(structural)"), "{plain}");
    let verbose = stdout(100, &["findings", "5b7c1f0e", "--verbose"]);
    assert!(verbose.contains("exit:out:toolu_02"), "{verbose}");
    assert!(verbose.contains("rule "), "{verbose}");
}

#[test]
fn colors_follow_no_color() {
    let colored = fornax(home(), 80)
        .env_remove("NO_COLOR")
        .env("CLICOLOR_FORCE", "1")
        .args(["findings", "--limit", "2"])
        .output()
        .unwrap();
    let colored = String::from_utf8(colored.stdout).unwrap();
    assert!(colored.contains("\u{1b}["), "forced color has escape codes");
    insta::assert_snapshot!("findings_80_color", colored);
    let no_color = fornax(home(), 80)
        .env("CLICOLOR_FORCE", "1")
        .args(["findings", "--limit", "2"])
        .output()
        .unwrap();
    let no_color = String::from_utf8(no_color.stdout).unwrap();
    assert!(!no_color.contains('\u{1b}'), "NO_COLOR wins: {no_color}");
    assert_eq!(no_color, stdout(80, &["findings", "--limit", "2"]));
}

#[test]
fn most_urgent_first_with_a_summary_line() {
    let out = stdout(100, &["findings"]);
    let first = out.lines().next().unwrap();
    assert_eq!(first, "7 findings · ✘ 6 contradicted · ✔ 1 verified");
    let verdicts: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().nth(1))
        .filter(|w| ["CONTRADICTED", "VERIFIED"].contains(w))
        .collect();
    let mut sorted = verdicts.clone();
    sorted.sort_by_key(|v| *v != "CONTRADICTED");
    assert_eq!(verdicts, sorted);
}

#[test]
fn limits_hint_in_the_terminal_and_json_stays_complete() {
    let out = stdout(100, &["findings", "--limit", "2"]);
    assert!(out.contains("5 more — use --limit 7"), "{out}");
    let out = stdout(100, &["sessions", "--limit", "3"]);
    assert!(out.contains("3 more — use --limit 6"), "{out}");
    assert_eq!(
        out.lines()
            .filter(|l| l.contains("claude-code")
                || l.contains("codex")
                || l.contains("gemini")
                || l.contains(" pi ")
                || l.contains("opencode"))
            .count(),
        3
    );
    let out = stdout(100, &["search", "test", "--limit", "1"]);
    assert!(out.contains("more match — use --limit"), "{out}");

    let all = json(&["findings"]);
    assert_eq!(all["schema_version"], 1);
    assert_eq!(all["findings"].as_array().unwrap().len(), 7);
    assert_eq!(all["total"], 7);
    assert!(!all.to_string().contains("more —"));
    assert_eq!(json(&["sessions"])["sessions"].as_array().unwrap().len(), 6);
    assert_eq!(
        json(&["findings", "--limit", "2"])["findings"]
            .as_array()
            .unwrap()
            .len(),
        2
    );
}

#[test]
fn filters_narrow_every_listing() {
    let codex = json(&["findings", "--provider", "codex"]);
    assert!(codex["findings"]
        .as_array()
        .unwrap()
        .iter()
        .all(|f| f["session"]["provider"] == "codex"));
    assert_eq!(codex["total"], 1);
    let recent = json(&["sessions", "--since", "2026-03-01", "--until", "2026-03-31"]);
    let ids: Vec<&str> = recent["sessions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["native_id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids,
        [
            "5b7c1f0e-2d4a-4c55-9a1e-0f3b6c2d8e11",
            "ses_3a1b2c3d4e5fAbCdEfGhIjKlMn"
        ]
    );
    let week = json(&["sessions", "--since", "1w"]);
    assert_eq!(
        week["total"], 1,
        "only the gemini session is from the last week"
    );
    let ledger = json(&["search", "tests pass", "--project", "ledger"]);
    assert!(ledger["hits"]
        .as_array()
        .unwrap()
        .iter()
        .all(|h| h["session"] == "5b7c1f0e-2d4a-4c55-9a1e-0f3b6c2d8e11"));
    let verified = json(&["sessions", "--verdict", "verified"]);
    assert_eq!(verified["total"], 1);
}

#[test]
fn a_session_argument_and_the_latest_alias() {
    let by_arg = json(&["findings", "5b7c1f0e"]);
    let by_flag = json(&["findings", "--session", "5b7c1f0e"]);
    assert_eq!(by_arg, by_flag);
    assert_eq!(by_arg["total"], 2);
    let latest = json(&["show", "latest"]);
    assert_eq!(
        latest["session"]["native_id"], "8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5f6e",
        "the gemini session has the most recent activity"
    );
    let latest_findings = json(&["findings", "latest"]);
    assert_eq!(latest_findings["total"], 1);
}

/// Every filter of every listing refuses a bad value with exit 2 and the accepted forms.
#[test]
fn every_filter_refuses_bad_values() {
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["--since", "yesterdy"],
            "invalid --since \"yesterdy\"",
            "2026-03-14",
        ),
        (&["--since=-2d"], "invalid --since \"-2d\"", "30m, 12h, 2d"),
        (
            &["--until", "soon"],
            "invalid --until \"soon\"",
            "yesterday",
        ),
        (
            &["--until", "2026-02-30"],
            "invalid --until \"2026-02-30\"",
            "a date",
        ),
        (
            &["--since", "today", "--until", "yesterday"],
            "--since today is not before --until yesterday",
            "earlier --since",
        ),
        (
            &["--provider", "nope"],
            "unknown provider \"nope\"",
            "claude-code, codex",
        ),
        (
            &["--project", ""],
            "--project is empty",
            "working directory",
        ),
        (
            &["--verdict", "MAYBE"],
            "unknown verdict \"MAYBE\"",
            "CONTRADICTED",
        ),
        (
            &["--verdict", "verified,nope"],
            "unknown verdict \"nope\"",
            "REVIEW",
        ),
        (
            &["--limit", "0"],
            "invalid --limit \"0\"",
            "positive number",
        ),
        (&["--limit", "ten"], "invalid --limit \"ten\"", "`all`"),
    ];
    for command in [&["findings"][..], &["sessions"], &["search", "tests"]] {
        for (flags, message, accepted) in cases {
            let mut args = command.to_vec();
            args.extend_from_slice(flags);
            let out = run(100, &args);
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains(message), "{args:?}: {err}");
            assert!(
                err.contains("hint:") && err.contains(accepted),
                "{args:?}: {err}"
            );
            assert!(out.stdout.is_empty(), "{args:?}");
        }
    }
}
