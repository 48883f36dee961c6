//! Workspace tidy checks: architecture invariants that are cheaper to check than to review.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .unwrap()
        .to_path_buf()
}

struct Crate {
    name: String,
    dir: PathBuf,
    deps: Vec<String>,
    dev_deps: Vec<String>,
}

fn dep_names(table: Option<&toml::Value>) -> Vec<String> {
    table
        .and_then(|t| t.as_table())
        .map(|t| t.keys().cloned().collect())
        .unwrap_or_default()
}

fn crates() -> Vec<Crate> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(workspace_root().join("crates")).unwrap() {
        let dir = entry.unwrap().path();
        let manifest = dir.join("Cargo.toml");
        if !manifest.exists() {
            continue;
        }
        let value: toml::Value =
            toml::from_str(&std::fs::read_to_string(&manifest).unwrap()).unwrap();
        let name = value["package"]["name"].as_str().unwrap().to_string();
        let mut deps = dep_names(value.get("dependencies"));
        deps.extend(dep_names(value.get("build-dependencies")));
        let dev_deps = dep_names(value.get("dev-dependencies"));
        out.push(Crate {
            name,
            dir,
            deps,
            dev_deps,
        });
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    assert!(
        out.len() >= 8,
        "expected the workspace's crates, found {}",
        out.len()
    );
    out
}

fn is_adapter(name: &str) -> bool {
    name.starts_with("fornax-adapter-") && name != "fornax-adapter-conformance"
}

/// Returns the violations instead of asserting, so the checks themselves can be tested.
fn dependency_violations(crates: &[(String, Vec<String>, Vec<String>)]) -> Vec<String> {
    let mut v = Vec::new();
    for (name, deps, dev_deps) in crates {
        if is_adapter(name) {
            for d in deps {
                if !matches!(d.as_str(), "fornax-types" | "serde" | "serde_json") {
                    v.push(format!(
                        "{name}: adapters depend only on fornax-types and serde, not {d}"
                    ));
                }
            }
        }
        if name != "fornax-store"
            && (deps
                .iter()
                .chain(dev_deps)
                .any(|d| d == "rusqlite" || d == "libsqlite3-sys"))
        {
            v.push(format!("{name}: only fornax-store may touch SQLite"));
        }
        if name == "fornax-live" {
            // Every hook process loads this crate's whole tree: keep it to these.
            for d in deps {
                if !matches!(
                    d.as_str(),
                    "serde" | "serde_json" | "thiserror" | "dirs" | "toml"
                ) {
                    v.push(format!(
                        "{name}: the live protocol is loaded by every hook process; it may not depend on {d}"
                    ));
                }
            }
        }
        // Export reads the store's results; nothing upstream of the store may lean on it.
        if name != "fornax-cli" && deps.iter().any(|d| d == "fornax-export") {
            v.push(format!(
                "{name}: only the binary depends on fornax-export (data flows out, never back)"
            ));
        }
        if deps.iter().chain(dev_deps).any(|d| d == "fornax-fuzz") {
            v.push(format!(
                "{name}: nothing depends on the fuzz targets' crate"
            ));
        }
        if deps.iter().any(|d| d == "fornax-adapter-conformance") {
            v.push(format!(
                "{name}: the conformance crate is test-only (dev-dependency)"
            ));
        }
        if name != "fornax-cli" && !is_adapter(name) && name != "fornax-adapter-conformance" {
            for d in deps.iter().filter(|d| is_adapter(d)) {
                v.push(format!(
                    "{name}: core crates never depend on a concrete adapter ({d})"
                ));
            }
        }
    }
    v
}

#[test]
fn dependency_invariants_hold() {
    let all: Vec<(String, Vec<String>, Vec<String>)> = crates()
        .into_iter()
        .map(|c| (c.name, c.deps, c.dev_deps))
        .collect();
    let violations = dependency_violations(&all);
    assert!(
        violations.is_empty(),
        "architecture invariants broken:\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_dependency_check_catches_each_kind_of_violation() {
    let bad = vec![
        (
            "fornax-adapter-x".to_string(),
            vec!["fornax-store".to_string()],
            vec![],
        ),
        (
            "fornax-verify".to_string(),
            vec!["rusqlite".to_string()],
            vec![],
        ),
        (
            "fornax-ingest".to_string(),
            vec!["fornax-adapter-conformance".to_string()],
            vec![],
        ),
        (
            "fornax-daemon".to_string(),
            vec!["fornax-adapter-claude".to_string()],
            vec![],
        ),
        (
            "fornax-live".to_string(),
            vec!["serde".to_string(), "clap".to_string()],
            vec![],
        ),
        (
            "fornax-store".to_string(),
            vec![],
            vec!["fornax-fuzz".to_string()],
        ),
        (
            "fornax-verify".to_string(),
            vec!["fornax-export".to_string()],
            vec![],
        ),
    ];
    let v = dependency_violations(&bad);
    assert_eq!(v.len(), 7, "{v:#?}");
}

#[test]
fn every_crate_states_its_job() {
    for c in crates() {
        let lib = c.dir.join("src/lib.rs");
        let main = c.dir.join("src/main.rs");
        let root = if lib.exists() { lib } else { main };
        let text = std::fs::read_to_string(&root).unwrap();
        assert!(
            text.trim_start().starts_with("//!"),
            "{} must open with a //! doc stating its job and invariants",
            root.display()
        );
    }
}

#[test]
fn architecture_names_every_crate() {
    let arch = std::fs::read_to_string(workspace_root().join("ARCHITECTURE.md")).unwrap();
    let missing: Vec<String> = crates()
        .into_iter()
        .map(|c| c.name)
        .filter(|n| !arch.contains(&format!("`{n}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "ARCHITECTURE.md does not describe: {missing:?}"
    );
}

#[test]
fn readme_provider_table_covers_every_adapter() {
    let readme = std::fs::read_to_string(workspace_root().join("README.md")).unwrap();
    let mut providers: BTreeMap<String, ()> = BTreeMap::new();
    for c in crates().into_iter().filter(|c| is_adapter(&c.name)) {
        providers.insert(c.name.trim_start_matches("fornax-adapter-").to_string(), ());
    }
    for p in providers.keys() {
        assert!(
            readme.to_lowercase().contains(p.as_str()),
            "README's provider table lacks {p}"
        );
    }
}

/// Crates that must not touch files, the network, processes, the environment or the clock.
fn is_pure(name: &str) -> bool {
    matches!(name, "fornax-types" | "fornax-verify" | "fornax-redact") || is_adapter(name)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn pure_crates_ban_io_through_clippy() {
    let canonical =
        std::fs::read_to_string(workspace_root().join("crates/fornax-types/clippy.toml"))
            .expect("crates/fornax-types/clippy.toml holds the pure crates' bans");
    for needle in [
        "std::fs::File",
        "std::fs::read_to_string",
        "std::net::TcpStream",
        "std::process::Command",
        "std::env::var",
        "std::time::Instant::now",
        "std::time::SystemTime::now",
    ] {
        assert!(
            canonical.contains(needle),
            "clippy.toml no longer bans {needle}"
        );
    }
    for c in crates().into_iter().filter(|c| is_pure(&c.name)) {
        let own = std::fs::read_to_string(c.dir.join("clippy.toml")).unwrap_or_default();
        assert_eq!(
            own, canonical,
            "{} must carry the pure crates' clippy.toml (a copy of fornax-types')",
            c.name
        );
        // The library itself never opts out; tests that read fixtures may (a unit-test
        // module in a `tests.rs` file, or an integration test).
        let mut files = Vec::new();
        rust_files(&c.dir.join("src"), &mut files);
        for f in files.into_iter().filter(|f| !f.ends_with("tests.rs")) {
            let text = std::fs::read_to_string(&f).unwrap();
            assert!(
                !text.contains("clippy::disallowed_"),
                "{} allows a banned call in a pure crate",
                f.display()
            );
        }
    }
}

/// The crates a path in `source` starts from (`std` in `std::io::Write`, not `io`).
fn path_roots(source: &str) -> Vec<String> {
    let bytes = source.as_bytes();
    let mut roots = Vec::new();
    let mut at = 0;
    while let Some(found) = source[at..].find("::") {
        let end = at + found;
        let mut start = end;
        while start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
            start -= 1;
        }
        let after_path = start >= 2 && &source[start - 2..start] == "::";
        let word = &source[start..end];
        if !after_path && word.starts_with(|c: char| c.is_ascii_lowercase() || c == '_') {
            roots.push(word.to_string());
        }
        at = end + 2;
    }
    roots
}

/// `fornax-hook` is a second binary of this package, so the manifest cannot keep it on
/// `fornax-live` alone: its source does. What it links is what starts in every hook.
#[test]
fn the_hook_binary_uses_fornax_live_alone() {
    let path = workspace_root().join("crates/fornax-cli/src/bin/fornax-hook.rs");
    let source = std::fs::read_to_string(&path).unwrap();
    let allowed = ["std", "fornax_live", "super", "self", "crate"];
    let foreign: Vec<String> = path_roots(&source)
        .into_iter()
        .filter(|r| !allowed.contains(&r.as_str()))
        .collect();
    assert!(
        foreign.is_empty() && !source.contains("extern crate"),
        "{} may use std and fornax_live only, found {foreign:?}",
        path.display()
    );
    let roots = path_roots("use std::io::Write;\nlet x = serde_json::from_str(a::b::c)?;");
    assert_eq!(
        roots,
        ["std", "serde_json", "a"],
        "the check sees every path's root"
    );
}
