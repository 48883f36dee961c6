#![allow(clippy::print_stderr)] // a skipped check says why
//! `fornax export session`: every session of the fixtures and the corpus exports as JSONL that
//! validates against `docs/schema/fornax-export-v1.schema.json`; Markdown and HTML show every
//! finding; the HTML page is one self-contained document that headless Chromium renders.

#[path = "support/export_home.rs"]
mod export_home;

use std::path::Path;
use std::process::Command;

use export_home::{fornax, home, run_ok, session_ids, skip_or_fail};

fn schema() -> jsonschema::Validator {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../docs/schema/fornax-export-v1.schema.json");
    let text = std::fs::read_to_string(&path).unwrap();
    jsonschema::validator_for(&serde_json::from_str(&text).unwrap()).unwrap()
}

fn export(home: &Path, id: &str, format: &str) -> String {
    String::from_utf8(run_ok(
        fornax(home).args(["export", "session", id, "--format", format]),
    ))
    .unwrap()
}

#[test]
fn every_session_exports_as_jsonl_valid_against_the_schema() {
    let (_dir, home) = home(true);
    let validator = schema();
    let ids = session_ids(&home);
    assert!(ids.len() >= 4, "the fixtures alone hold four sessions");
    let mut lines = 0;
    let mut findings = 0;
    for id in &ids {
        let text = export(&home, id, "jsonl");
        let mut types = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let errors: Vec<String> = validator
                .iter_errors(&v)
                .map(|e| format!("{} at {}", e, e.instance_path()))
                .collect();
            assert!(
                errors.is_empty(),
                "session {id} line {}: {}\n{line}",
                n + 1,
                errors.join("; ")
            );
            types.push(v["type"].as_str().unwrap().to_string());
            lines += 1;
        }
        assert_eq!(types[0], "export", "session {id}: the header comes first");
        assert_eq!(types[1], "session");
        findings += types.iter().filter(|t| *t == "finding").count();
        // Deterministic: the same data exports byte for byte the same.
        assert_eq!(text, export(&home, id, "jsonl"), "session {id}");
    }
    assert!(lines > ids.len() * 3);
    assert!(findings > 0, "the fixtures make claims that are judged");
}

#[test]
fn the_schema_rejects_what_is_not_an_export() {
    let validator = schema();
    for bad in [
        serde_json::json!({"type": "finding", "verdict": "PROBABLY"}),
        serde_json::json!({"type": "loop", "session": {"provider": "codex", "native_id": "x"}, "position": -1, "usage": {}}),
        serde_json::json!({"type": "export", "schema": "x", "version": 2, "root": {}}),
        serde_json::json!({"type": "item", "session": {"provider": "codex", "native_id": "x"}, "key": "k", "records": [],
            "semantic": {"role": "agent.guess", "value": {"kind": "text", "text": "", "byte_len": 0}, "evidence_strength": "structural"}}),
    ] {
        assert!(!validator.is_valid(&bad), "accepted {bad}");
    }
}

/// The findings of a session as (verdict, claim) pairs, from the JSON the CLI prints.
fn findings(home: &Path, id: &str) -> Vec<(String, String)> {
    export(home, id, "jsonl")
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["type"] == "finding")
        .map(|v| {
            (
                v["verdict"].as_str().unwrap().to_string(),
                v["claim"]["text"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

#[test]
fn markdown_and_html_show_every_finding() {
    let (_dir, home) = home(false);
    let mut seen = 0;
    for id in session_ids(&home) {
        let all = findings(&home, &id);
        let md = export(&home, &id, "md");
        let html = export(&home, &id, "html");
        assert!(md.starts_with("# "), "{md}");
        assert!(html.starts_with("<!DOCTYPE html>"));
        assert!(
            !html.contains("<script") && !html.contains("src=\"http"),
            "self-contained"
        );
        assert_eq!(
            html.matches("class=\"finding\"").count(),
            all.len(),
            "session {id}"
        );
        for (verdict, _) in &all {
            assert!(
                md.contains(&format!("**{verdict}**")),
                "session {id}: {verdict}"
            );
        }
        seen += all.len();
    }
    assert!(seen > 0);
}

fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|b| {
            Command::new(b)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

#[test]
fn the_html_page_renders_in_headless_chromium() {
    let Some(browser) = chromium() else {
        skip_or_fail("no chromium on PATH (Debian package `chromium`)");
        return;
    };
    let (dir, home) = home(false);
    let mut checked = 0;
    for id in session_ids(&home) {
        let all = findings(&home, &id);
        if all.is_empty() {
            continue;
        }
        let page = dir
            .path()
            .join(format!("{}.html", id.trim_start_matches('#')));
        run_ok(
            fornax(&home)
                .args(["export", "session", &id, "--format", "html", "-o"])
                .arg(&page),
        );
        let profile = dir.path().join("chromium-profile");
        let out = Command::new(browser)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--dump-dom",
            ])
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg(format!("file://{}", page.display()))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let dom = String::from_utf8_lossy(&out.stdout);
        // The rendered document holds one finding element per finding, each with its verdict.
        assert_eq!(dom.matches("class=\"finding\"").count(), all.len(), "{dom}");
        for (verdict, _) in &all {
            assert!(dom.contains(&format!("data-verdict=\"{verdict}\"")));
        }
        assert!(dom.contains("<section class=\"session\""));
        checked += 1;
    }
    assert!(checked > 0);
}
