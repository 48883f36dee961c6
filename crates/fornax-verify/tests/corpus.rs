//! Robustness over real agent data: every text in the shared corpus (when present) goes through
//! claim extraction, the test-summary parsers and the git-outcome parser without panicking, and
//! every claim quotes its text exactly. Skips cleanly when the corpus is absent.

#![allow(clippy::print_stdout)]
// The test reads the shared corpus from disk; the crate itself does no I/O (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::path::{Path, PathBuf};

use fornax_verify::{extract_from_text, gitout, testsummary};

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

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p
            .extension()
            .is_some_and(|x| x == "json" || x == "jsonl" || x == "ndjson")
        {
            out.push(p);
        }
    }
}

fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
        serde_json::Value::Object(o) => o.values().for_each(|x| strings(x, out)),
        _ => {}
    }
}

#[test]
fn corpus_texts_never_break_the_verifier() {
    let Some(dir) = corpus_dir() else {
        println!("shared corpus not found; skipping");
        return;
    };
    let mut paths = Vec::new();
    files(&dir, &mut paths);
    paths.sort();
    let (mut texts, mut claims, mut summaries, mut git) = (0usize, 0usize, 0usize, 0usize);
    for path in paths {
        let Ok(raw) = std::fs::read_to_string(&path) else {
            continue;
        };
        let mut values: Vec<serde_json::Value> = raw
            .lines()
            .filter_map(|l| serde_json::from_str(l.trim()).ok())
            .collect();
        if values.is_empty() {
            let stream = serde_json::Deserializer::from_str(&raw).into_iter::<serde_json::Value>();
            values.extend(stream.map_while(Result::ok));
        }
        let mut all = Vec::new();
        values.iter().for_each(|v| strings(v, &mut all));
        // Runtimes write the same text several times (UI and model witnesses): read it once.
        all.sort();
        all.dedup();
        for s in all.iter().filter(|s| s.len() >= 12 && s.len() <= 200_000) {
            texts += 1;
            // Agent prose is short; long strings are file contents and logs, which only the
            // output parsers read (claim extraction on them is slow in debug builds).
            if s.len() <= 4_000 {
                for c in extract_from_text(s) {
                    claims += 1;
                    let quote = c.span.slice(s);
                    assert!(!quote.is_empty(), "empty quote in {}", path.display());
                    assert!(s.contains(quote));
                }
            }
            summaries += usize::from(testsummary::parse(s).is_some());
            git += gitout::parse_all("git commit -m x && git push", s).len();
        }
    }
    println!(
        "corpus: {texts} texts, {claims} claims, {summaries} test summaries, {git} git outcomes"
    );
    assert!(texts > 0);
}
