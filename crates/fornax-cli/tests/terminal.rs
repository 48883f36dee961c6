//! The terminal outputs `listing.rs` does not cover, through the real binary with NO_COLOR and
//! a fixed clock: the demo, `help verdicts`, `search` and `show` at 80 and 160 columns; and the
//! filters of `usage`, each refusing a bad value with exit 2 and the forms it accepts.

use std::path::Path;
use std::process::{Command, Output};

const NOW: &str = "2026-04-25T12:00:00Z";

fn fixtures() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

fn fornax(home: &Path, columns: usize, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fornax"))
        .env("FORNAX_HOME", home)
        .env("FORNAX_NOW", NOW)
        .env("TZ", "UTC")
        .env("COLUMNS", columns.to_string())
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("FORNAX_WORKSPACE")
        .args(args)
        .output()
        .unwrap()
}

fn stdout(home: &Path, columns: usize, args: &[&str]) -> String {
    let out = fornax(home, columns, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(!text.contains('\u{1b}'), "NO_COLOR: {args:?}\n{text}");
    text
}

fn widest(text: &str) -> usize {
    text.lines().map(|l| l.chars().count()).max().unwrap_or(0)
}

/// The demo with what changes from run to run (its throwaway home, the scan's duration, which
/// a narrow terminal wraps onto the next line) made stable.
fn demo(columns: usize) -> String {
    let home = tempfile::tempdir().unwrap();
    let text = stdout(home.path(), columns, &["demo"]);
    assert!(widest(&text) <= columns, "{columns} columns:\n{text}");
    let mut out = String::new();
    for line in text.lines() {
        if line.starts_with("(throwaway home ") {
            out.push_str("(throwaway home [TMP]; removed on exit)");
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    let marker = "skipped) in";
    let at = out.find(marker).expect("the scan's summary") + marker.len();
    let rest = &out[at..];
    let end = rest
        .find(|c: char| !(c.is_whitespace() || c.is_ascii_digit() || c == '.'))
        .expect("a duration");
    assert_eq!(&rest[end..end + 1], "s", "a duration in seconds: {rest}");
    format!("{} [DURATION]{}", &out[..at], &rest[end + 1..])
}

#[test]
fn the_demo_at_80_and_160_columns() {
    insta::assert_snapshot!("demo_80", demo(80));
    insta::assert_snapshot!("demo_160", demo(160));
}

#[test]
fn the_verdicts_explained_at_80_and_160_columns() {
    let home = tempfile::tempdir().unwrap();
    let narrow = stdout(home.path(), 80, &["help", "verdicts"]);
    assert!(widest(&narrow) <= 80, "{narrow}");
    insta::assert_snapshot!("verdicts_80", narrow);
    let wide = stdout(home.path(), 160, &["help", "verdicts"]);
    assert!(widest(&wide) <= 160, "{wide}");
    insta::assert_snapshot!("verdicts_160", wide);
}

#[test]
fn search_and_show_at_160_columns() {
    let home = tempfile::tempdir().unwrap();
    stdout(
        home.path(),
        100,
        &["scan", "--json", fixtures().join("e2e").to_str().unwrap()],
    );
    // Whether a source path wraps depends on where the checkout is: one form for all.
    let fixed = |t: String| {
        t.replace(&fixtures().display().to_string(), "[FIXTURES]")
            .replace("  source\n    [FIXTURES]", "  source [FIXTURES]")
    };
    let search = fixed(stdout(home.path(), 160, &["search", "tests pass"]));
    assert!(widest(&search) <= 160, "{search}");
    insta::assert_snapshot!("search_160", search);
    let show = fixed(stdout(home.path(), 160, &["show", "5b7c1f0e"]));
    assert!(widest(&show) <= 160, "{show}");
    insta::assert_snapshot!("show_160", show);
}

/// `usage` refuses what would otherwise print an empty report that looks true.
#[test]
fn usage_filters_refuse_bad_values() {
    let home = tempfile::tempdir().unwrap();
    let cases: &[(&[&str], &str, &str)] = &[
        (
            &["--since", "yesterdy"],
            "--since: \"yesterdy\"",
            "2026-03-14",
        ),
        (
            &["--until", "2026-02-30"],
            "--until: \"2026-02-30\"",
            "20260314",
        ),
        (
            &["--since", "2026-03-02", "--until", "2026-03-01"],
            "--since 2026-03-02 is after --until 2026-03-01",
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
        (&["--model", " "], "--model is empty", "model's name"),
    ];
    for report in [&[][..], &["monthly"], &["session"], &["blocks"]] {
        for (flags, message, accepted) in cases {
            let mut args = vec!["usage"];
            args.extend_from_slice(report);
            args.extend_from_slice(flags);
            let out = fornax(home.path(), 100, &args);
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
    // The same values, well formed, are accepted (an alias included) and the home is read.
    stdout(
        home.path(),
        100,
        &["scan", "--json", fixtures().join("e2e").to_str().unwrap()],
    );
    let out = fornax(
        home.path(),
        100,
        &[
            "usage",
            "--since",
            "2026-03-01",
            "--until",
            "2026-03-01",
            "--provider",
            "claude",
            "--json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
