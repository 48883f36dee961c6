//! The redactor over real agent transcripts and hook logs from the shared corpus (read in
//! place, never copied): every document is redacted without panicking, a second pass changes
//! nothing, and no token format is "found" in data that holds none.
//!
//! Skips (with a line saying so) when the shared folder is absent.

#![allow(clippy::print_stdout)]
// The test reads the shared corpus from disk; the crate itself does no I/O (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::path::{Path, PathBuf};

use fornax_redact::{RedactionCounts, Redactor, SecretKind};
use serde_json::Value;

/// `shared/corpus` beside the workspace root, found by walking up from this crate.
fn corpus_dir() -> Option<PathBuf> {
    let mut dir = Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf();
    loop {
        let candidate = dir.join("shared").join("corpus");
        if candidate.is_dir() {
            return Some(candidate);
        }
        let sibling = dir.parent()?.join("shared").join("corpus");
        if sibling.is_dir() {
            return Some(sibling);
        }
        dir = dir.parent()?.to_path_buf();
    }
}

fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path
                .extension()
                .is_some_and(|e| e == "json" || e == "jsonl")
            {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Every JSON document in a file: a whole-file document, JSON lines, or concatenated objects.
fn documents(text: &str) -> Vec<Value> {
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        return vec![v];
    }
    let lines: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    if !lines.is_empty() {
        return lines;
    }
    serde_json::Deserializer::from_str(text)
        .into_iter::<Value>()
        .flatten()
        .collect()
}

#[test]
fn corpus_is_redacted_idempotently_without_inventing_tokens() {
    let Some(dir) = corpus_dir() else {
        println!("shared corpus not found; skipping");
        return;
    };
    let redactor = Redactor::new();
    let mut counts = RedactionCounts::default();
    let (mut docs, mut bytes) = (0usize, 0usize);
    for path in files(&dir) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        bytes += text.len();
        for mut doc in documents(&text) {
            docs += 1;
            redactor.redact_json(&mut doc, &mut counts);
            let once = doc.clone();
            let mut again = RedactionCounts::default();
            redactor.redact_json(&mut doc, &mut again);
            assert_eq!(
                doc,
                once,
                "second pass changed a document of {}",
                path.display()
            );
            assert!(again.is_empty(), "{}: {again:?}", path.display());
        }
    }
    println!("corpus: {docs} documents, {bytes} bytes, redactions {counts:?}");
    // The corpus was scanned for live credentials before it was shared and holds none: a token
    // format matching here would be a false positive.
    for kind in [
        SecretKind::PrivateKey,
        SecretKind::AwsAccessKeyId,
        SecretKind::GithubToken,
        SecretKind::GitlabToken,
        SecretKind::SlackToken,
        SecretKind::StripeKey,
        SecretKind::OpenaiKey,
        SecretKind::AnthropicKey,
        SecretKind::GoogleApiKey,
        SecretKind::NpmToken,
        SecretKind::PypiToken,
        SecretKind::Jwt,
    ] {
        assert_eq!(
            counts.get(kind),
            0,
            "{kind} found in the corpus: {counts:?}"
        );
    }
}
