//! The first five minutes: help with examples, the verdicts explained, the effective config,
//! completions and a man page, and a demo that ends with what to run next.

use std::path::Path;
use std::process::{Command, Output};

fn fornax(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_fornax"))
        .env("FORNAX_HOME", home)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "100")
        .args(args)
        .output()
        .unwrap()
}

fn ok(home: &Path, args: &[&str]) -> String {
    let out = fornax(home, args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn help_has_examples_and_explains_the_verdicts() {
    let home = tempfile::tempdir().unwrap();
    let help = ok(home.path(), &["--help"]);
    assert!(
        help.contains("Examples:") && help.contains("fornax ui"),
        "{help}"
    );
    let findings = ok(home.path(), &["findings", "--help"]);
    assert!(findings.contains("fornax findings --verdict contradicted,review --since 2d"));

    let verdicts = ok(home.path(), &["help", "verdicts"]);
    let at = |v: &str| {
        verdicts
            .find(&format!(" {v}  "))
            .unwrap_or_else(|| panic!("{v}: {verdicts}"))
    };
    assert!(at("CONTRADICTED") < at("REVIEW"));
    assert!(at("REVIEW") < at("UNVERIFIED"));
    assert!(at("UNVERIFIED") < at("UNAVAILABLE"));
    assert!(at("UNAVAILABLE") < at("VERIFIED"));
    assert!(verdicts.contains("Absence of evidence is never a contradiction"));
    assert!(ok(home.path(), &["help", "filters"]).contains("yesterday"));
    assert!(ok(home.path(), &["help", "findings"]).contains("--verdict"));
    assert!(ok(home.path(), &["help", "cap", "run"]).contains("Usage"));

    let bad = fornax(home.path(), &["help", "nope"]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("verdicts, filters"));

    // Help needs no home and survives a broken config.
    std::fs::write(home.path().join("config.toml"), "[scan]\nbogus = 1\n").unwrap();
    assert!(ok(home.path(), &["help", "verdicts"]).contains("REVIEW"));
}

#[test]
fn config_shows_effective_values_and_where_they_come_from() {
    let home = tempfile::tempdir().unwrap();
    let path = ok(home.path(), &["config", "path"]);
    assert_eq!(
        path.trim(),
        home.path().join("config.toml").display().to_string()
    );
    let defaults: serde_json::Value =
        serde_json::from_str(&ok(home.path(), &["config", "--json"])).unwrap();
    assert_eq!(defaults["schema_version"], 1);
    assert_eq!(defaults["exists"], false);
    let keys = defaults["keys"].as_array().unwrap();
    assert!(keys
        .iter()
        .all(|k| k["set"] == false && !k["description"].as_str().unwrap().is_empty()));
    let text = ok(home.path(), &["config"]);
    assert!(text.contains("scan.text_cap = 262144"), "{text}");

    std::fs::write(
        home.path().join("config.toml"),
        "[scan]\ntext_cap = 1000\n[intervene]\nenabled = true\n",
    )
    .unwrap();
    let set: serde_json::Value =
        serde_json::from_str(&ok(home.path(), &["config", "--json"])).unwrap();
    let key = |name: &str| {
        set["keys"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["key"] == name)
            .unwrap()
            .clone()
    };
    assert_eq!(key("scan.text_cap")["value"], "1000");
    assert_eq!(key("scan.text_cap")["set"], true);
    assert_eq!(key("intervene.enabled")["value"], "true");
    assert_eq!(key("scan.max_record_bytes")["set"], false);

    std::fs::write(home.path().join("config.toml"), "[scan]\nbogus = 1\n").unwrap();
    let bad = fornax(home.path(), &["config"]);
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(
        err.contains("config.toml") && err.contains("bogus"),
        "{err}"
    );
}

#[test]
fn completions_and_a_man_page() {
    let home = tempfile::tempdir().unwrap();
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let script = ok(home.path(), &["completions", shell]);
        assert!(script.contains("findings"), "{shell}");
    }
    assert_eq!(
        fornax(home.path(), &["completions", "tcsh"]).status.code(),
        Some(2)
    );
    let man = ok(home.path(), &["man"]);
    assert!(man.contains(".TH fornax 1"), "{man}");
    assert!(man.contains("findings"));
}

#[test]
fn the_demo_ends_with_what_to_run_next() {
    let home = tempfile::tempdir().unwrap();
    let demo = ok(home.path(), &["demo"]);
    let next = demo.rfind("Next").expect("a Next section");
    let tail = &demo[next..];
    assert!(
        tail.contains("fornax scan") && tail.contains("fornax ui"),
        "{tail}"
    );
    assert!(demo.contains("✘ CONTRADICTED"), "{demo}");
    assert!(
        demo.contains("cargo 11 passed, 1 failed"),
        "the deciding fact, whole: {demo}"
    );
    assert!(!demo.contains("exit:out:"), "no evidence ids: {demo}");
}

#[test]
fn json_outputs_carry_a_schema_version() {
    let home = tempfile::tempdir().unwrap();
    let demo: serde_json::Value =
        serde_json::from_str(&ok(home.path(), &["demo", "--json"])).unwrap();
    assert_eq!(demo["schema_version"], 1);
    let doctor: serde_json::Value =
        serde_json::from_str(&ok(home.path(), &["doctor", "--json"])).unwrap();
    assert_eq!(doctor["schema_version"], 1);
}
