//! The redactor over real agent transcripts and hook logs from the shared corpus (read in
//! place, never copied): every document is redacted without panicking, a second pass changes
//! nothing, no token format is "found" in data that holds none, and every replacement it
//! makes is one of those listed in `tests/corpora/shared-corpus-replacements.tsv` (each a
//! real secret, reviewed), shown there by its redacted context only.
//!
//! Skips (with a line saying so) when the shared folder is absent, except under `CI=true`.

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

/// The shared corpus, or `None` (with a line saying so) when it is absent outside CI.
fn corpus_or_skip() -> Option<PathBuf> {
    let dir = corpus_dir();
    if dir.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "the shared corpus must be present under CI"
        );
        println!("shared corpus not found; skipping");
    }
    dir
}

/// Every string of `before` that `after` (the same document redacted) changed, with its path.
fn changed_strings(before: &Value, after: &Value, path: &str, out: &mut Vec<(String, String)>) {
    match (before, after) {
        (Value::String(a), Value::String(b)) if a != b => out.push((path.to_string(), b.clone())),
        (Value::Array(a), Value::Array(b)) => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                changed_strings(x, y, &format!("{path}[{i}]"), out);
            }
        }
        (Value::Object(a), Value::Object(b)) => {
            for ((ka, x), (kb, y)) in a.iter().zip(b) {
                if ka != kb {
                    out.push((format!("{path}.<key>"), kb.clone()));
                }
                changed_strings(x, y, &format!("{path}.{ka}"), out);
            }
        }
        _ => {}
    }
}

/// Each placeholder of a redacted string with 40 characters of redacted text either side.
fn placeholders_in_context(redacted: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(p) = redacted[from..].find("[REDACTED:").map(|p| p + from) {
        let Some(end) = redacted[p..].find(']').map(|e| p + e + 1) else {
            break;
        };
        let kind = redacted[p + "[REDACTED:".len()..end - 1].to_string();
        let before: String = redacted[..p]
            .chars()
            .rev()
            .take(40)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        let after: String = redacted[end..].chars().take(40).collect();
        let context =
            format!("{before}{}{after}", &redacted[p..end]).replace(['\n', '\t', '\r'], " ");
        out.push((kind, context));
        from = end;
    }
    out
}

#[test]
fn every_replacement_in_the_shared_corpus_is_a_listed_secret() {
    let Some(dir) = corpus_or_skip() else {
        return;
    };
    let redactor = Redactor::new();
    let mut found = Vec::new();
    for path in files(&dir) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let name = path
            .strip_prefix(&dir)
            .unwrap_or(&path)
            .display()
            .to_string();
        for (n, doc) in documents(&text).into_iter().enumerate() {
            let mut redacted = doc.clone();
            let mut counts = RedactionCounts::default();
            redactor.redact_json(&mut redacted, &mut counts);
            if counts.is_empty() {
                continue;
            }
            let mut changed = Vec::new();
            changed_strings(&doc, &redacted, "", &mut changed);
            for (json_path, value) in changed {
                for (kind, context) in placeholders_in_context(&value) {
                    found.push(format!("{name}\t{n}\t{json_path}\t{kind}\t{context}"));
                }
            }
        }
    }
    let listed_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpora/shared-corpus-replacements.tsv");
    let listed = std::fs::read_to_string(&listed_path).unwrap_or_default();
    let expected: Vec<&str> = listed
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .collect();
    println!("shared corpus: {} replacements", found.len());
    assert_eq!(
        found.iter().map(String::as_str).collect::<Vec<_>>(),
        expected,
        "replacements in the shared corpus differ from {} (each listed one must be a real \
         secret; review any new one before listing it)",
        listed_path.display()
    );
}

#[test]
fn corpus_is_redacted_idempotently_without_inventing_tokens() {
    let Some(dir) = corpus_or_skip() else {
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
        SecretKind::ApiToken,
        SecretKind::Jwt,
    ] {
        assert_eq!(
            counts.get(kind),
            0,
            "{kind} found in the corpus: {counts:?}"
        );
    }
}
