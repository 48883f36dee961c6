//! The table walk: every entry is recognised from its example invocation, has a prose name,
//! and every entry with a parser of its own has real output fixtures under
//! `tests/fixtures/tools/<id>/` that its parser reads as their provenance note says.

// These tests read their fixtures from disk; the crate itself does no I/O (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::path::PathBuf;

use fornax_types::shell::parse_invocations;

use super::*;
use crate::commands::effective_invocations;

/// Entries whose parser predates the fixtures and whose tool could not be run here (no
/// package for it in the registries this machine reaches), with no public output of that
/// tool found yet to take a fixture from. The list may only shrink: an entry that gains
/// fixtures must leave it.
const AWAITING_FIXTURE: &[&str] = &["gradle", "detekt", "swift-test"];

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/tools")
}

/// The entry an example command line runs (the first invocation the table recognises,
/// including vcs entries).
fn entry_of(command: &str) -> Option<&'static Tool> {
    effective_invocations(&parse_invocations(command))
        .iter()
        .find_map(|inv| {
            let program = base_name(&inv.program);
            let argv: Vec<&str> = inv.argv.iter().map(String::as_str).collect();
            let args = Args {
                program,
                argv: &argv,
            };
            BY_PROGRAM
                .get(program)?
                .iter()
                .find(|t| (t.recognise)(&args).is_some())
                .copied()
        })
}

#[test]
fn every_entry_is_recognised_named_and_has_fixtures() {
    let mut failures = Vec::new();
    let mut ids = std::collections::HashSet::new();
    for tool in TOOLS {
        if !ids.insert(tool.id) {
            failures.push(format!("{}: duplicate id", tool.id));
        }
        match entry_of(tool.example) {
            Some(t) if t.id == tool.id => {}
            other => failures.push(format!(
                "{}: example `{}` is recognised as {:?}",
                tool.id,
                tool.example,
                other.map(|t| t.id)
            )),
        }
        if tool.prose.is_empty() && tool.kind != ToolKind::Package {
            failures.push(format!("{}: no prose name", tool.id));
        }
        let has_parser = !matches!(tool.output, Output::ExitStatus);
        let dir = fixtures().join(tool.id);
        if !has_parser {
            continue;
        }
        let Ok(entries) = std::fs::read_dir(&dir) else {
            if !AWAITING_FIXTURE.contains(&tool.id) {
                failures.push(format!("{}: no fixtures in {}", tool.id, dir.display()));
            }
            continue;
        };
        if AWAITING_FIXTURE.contains(&tool.id) {
            failures.push(format!(
                "{}: has fixtures now; take it off AWAITING_FIXTURE",
                tool.id
            ));
        }
        let mut outputs = 0;
        let mut provenance = false;
        for e in entries.flatten() {
            let path = e.path();
            let name = path
                .file_name()
                .and_then(|n| n.to_str())
                .unwrap_or("")
                .to_string();
            if name == "PROVENANCE.md" {
                let text = std::fs::read_to_string(&path).unwrap_or_default();
                provenance = text.contains("version") && text.len() > 80;
                continue;
            }
            if !name.ends_with(".txt") {
                continue;
            }
            outputs += 1;
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            if let Err(e) = check_fixture(tool, &name, &text) {
                failures.push(format!("{}/{name}: {e}", tool.id));
            }
        }
        if outputs == 0 {
            failures.push(format!("{}: no output fixture", tool.id));
        }
        if !provenance {
            failures.push(format!(
                "{}: PROVENANCE.md missing or says no version",
                tool.id
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A fixture's name says what its parser must read: `*-pass*` a clean result, `*-fail*` a
/// failure, `*-notstarted*` a start failure.
fn check_fixture(tool: &Tool, name: &str, text: &str) -> Result<(), String> {
    let expect_fail = name.contains("fail");
    let expect_pass = name.contains("pass");
    if name.contains("notstarted") {
        return match startup::could_not_start(text, None) {
            Some(_) => Ok(()),
            None => Err("not read as a start failure".into()),
        };
    }
    match tool.output {
        Output::Tests { parse, runner } => {
            let r = parse(text).ok_or("the parser did not recognise it")?;
            if r.runner != runner {
                return Err(format!("runner {} (table says {runner})", r.runner));
            }
            if expect_fail && !r.has_failures() {
                return Err(format!("read as no failure: {}", r.describe()));
            }
            if expect_pass && !r.is_clean_pass() {
                return Err(format!("read as not passing: {}", r.describe()));
            }
            if r.scopes.is_empty() && !name.contains("noscopes") {
                return Err("no per-scope result read".into());
            }
            // Whatever else a generic parser would say, this tool's own parser answers first.
            let first = parse_tests(text, Some(tool)).ok_or("parse_tests lost it")?;
            if first.runner != runner {
                return Err(format!("parse_tests gave {}", first.runner));
            }
            Ok(())
        }
        Output::Check(p) => {
            let r = p(text);
            match (&r, expect_fail, expect_pass) {
                (Some(r), true, _) if r.failed() => Ok(()),
                (Some(r), _, true) if !r.failed() => Ok(()),
                // Tools that print nothing on success leave a pass to the exit status.
                (None, _, true) => Ok(()),
                _ => Err(format!("read as {r:?}")),
            }
        }
        Output::Git => {
            let ops = crate::gitout::parse_all("git commit -m x && git push", text);
            (!ops.is_empty())
                .then_some(())
                .ok_or_else(|| "no git outcome read".into())
        }
        Output::Script => {
            let header = parse::script_header(text);
            let missing = startup::could_not_start(text, None);
            (header.is_some() || missing.is_some())
                .then_some(())
                .ok_or_else(|| "neither a script header nor a missing script".into())
        }
        Output::ExitStatus => Ok(()),
    }
}

#[test]
fn prose_names_resolve_to_entries() {
    for (name, id) in prose_names() {
        assert!(by_id(id).is_some(), "{name} -> {id}");
        assert_eq!(name.to_ascii_lowercase(), *name, "{name} is not lower case");
    }
    assert!(prose_names()
        .iter()
        .any(|(n, id)| *n == "cargo test" && *id == "cargo-test"));
    assert_eq!(family_of("nextest"), family_of("cargo"));
    assert_eq!(family_of("gradle"), family_of("junit"));
}
