//! The real opencode samples under `shared/corpus/opencode` (when present): storage trees walked
//! in the importer's order, and dumps of concatenated pretty-printed storage objects regrouped
//! into that order. No panic, no Unrecognized, a session per session document.
#![allow(clippy::print_stdout)]
// The test reads the shared corpus from disk; the crate itself does no I/O (clippy.toml).
#![allow(clippy::disallowed_methods, clippy::disallowed_types)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use fornax_adapter_conformance::{check_adapter, shared_dir};
use fornax_adapter_opencode::OpencodeStorageAdapter;
use fornax_types::{
    AgentAdapter, IngestMessage, NativeRecord, NormalizationOutcome, RecordRef, SourceId,
};
use serde_json::Value;

fn corpus() -> Option<PathBuf> {
    let dir = shared_dir()?.join("corpus").join("opencode");
    dir.is_dir().then_some(dir)
}

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_slice(&std::fs::read(path).ok()?).ok()
}

fn json_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(json_files(&path));
        } else if path.extension().is_some_and(|e| e == "json") {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn id_of(v: &Value) -> &str {
    v.get("id").and_then(Value::as_str).unwrap_or_default()
}

/// Directories named `storage` that hold a `session` folder.
fn storage_trees(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(root) else {
        return out;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            if path.file_name().is_some_and(|n| n == "storage") && path.join("session").is_dir() {
                out.push(path);
            } else {
                out.extend(storage_trees(&path));
            }
        }
    }
    out.sort();
    out
}

/// One session's documents in the importer's order: session, its messages by file name (the
/// id), then each message's parts by file name. Parts are matched by `messageID`, else by the
/// folder they sit in.
fn walk_tree(storage: &Path) -> Vec<(String, Value)> {
    let mut parts: BTreeMap<String, Vec<(PathBuf, Value)>> = BTreeMap::new();
    for path in json_files(&storage.join("part")) {
        let Some(v) = read_json(&path) else { continue };
        let folder = path
            .parent()
            .and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned());
        let key = v
            .get("messageID")
            .and_then(Value::as_str)
            .map(str::to_string)
            .or(folder)
            .unwrap_or_default();
        parts.entry(key).or_default().push((path, v));
    }
    let mut out = Vec::new();
    for session_path in json_files(&storage.join("session")) {
        let Some(session) = read_json(&session_path) else {
            continue;
        };
        let sid = id_of(&session).to_string();
        out.push((sid.clone(), session));
        let messages: Vec<Value> = json_files(&storage.join("message").join(&sid))
            .iter()
            .filter_map(|p| read_json(p))
            .collect();
        for m in &messages {
            out.push((sid.clone(), m.clone()));
        }
        for m in &messages {
            for (_, p) in parts.remove(id_of(m)).unwrap_or_default() {
                out.push((sid.clone(), p));
            }
        }
    }
    out
}

/// A dump's objects regrouped: other documents first, then per session document its messages
/// and their parts, each by id.
fn order_dump(objects: Vec<Value>) -> Vec<(String, Value)> {
    let mut sessions = Vec::new();
    let mut messages: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    let mut parts: BTreeMap<String, Vec<Value>> = BTreeMap::new();
    let mut out = Vec::new();
    for o in objects {
        let field = |k: &str| o.get(k).and_then(Value::as_str).map(str::to_string);
        if o.get("role").is_some() {
            messages
                .entry(field("sessionID").unwrap_or_default())
                .or_default()
                .push(o);
        } else if let (Some(message), Some(_)) = (field("messageID"), field("type")) {
            parts.entry(message).or_default().push(o);
        } else if id_of(&o).starts_with("ses_") {
            sessions.push(o);
        } else {
            out.push((String::new(), o));
        }
    }
    for session in sessions {
        let sid = id_of(&session).to_string();
        out.push((sid.clone(), session));
        let mut ms = messages.remove(&sid).unwrap_or_default();
        ms.sort_by(|a, b| id_of(a).cmp(id_of(b)));
        for m in &ms {
            out.push((sid.clone(), m.clone()));
        }
        for m in &ms {
            let mut ps = parts.remove(id_of(m)).unwrap_or_default();
            ps.sort_by(|a, b| id_of(a).cmp(id_of(b)));
            out.extend(ps.into_iter().map(|p| (sid.clone(), p)));
        }
    }
    out
}

fn split_dump(path: &Path) -> Vec<Value> {
    let bytes = std::fs::read(path).unwrap_or_default();
    serde_json::Deserializer::from_slice(&bytes)
        .into_iter::<Value>()
        .map_while(Result::ok)
        .collect()
}

#[derive(Default, Debug)]
struct Counts {
    documents: usize,
    session_documents: BTreeSet<String>,
    sessions: BTreeSet<String>,
    loops: BTreeSet<(String, u32)>,
    ended_loops: BTreeSet<(String, u32)>,
    items: BTreeMap<(String, String), String>,
    evidence: BTreeSet<(String, String)>,
    exit_codes: usize,
    ignored: BTreeMap<&'static str, usize>,
    unrecognized: Vec<String>,
}

impl Counts {
    fn add(&mut self, msgs: &[IngestMessage]) {
        for m in msgs {
            match m {
                IngestMessage::Session(s) => {
                    self.sessions.insert(s.id.native_id.clone());
                }
                IngestMessage::Loop(l) => {
                    let key = (l.session.native_id.clone(), l.position);
                    if l.end.is_some() {
                        self.ended_loops.insert(key.clone());
                    }
                    self.loops.insert(key);
                }
                IngestMessage::Item(i) => {
                    if let fornax_types::SemanticValue::ToolOutput(o) = &i.semantic.value {
                        if o.exit_code.is_some()
                            && !self
                                .items
                                .contains_key(&(i.session.native_id.clone(), i.key.clone()))
                        {
                            self.exit_codes += 1;
                        }
                    }
                    self.items.insert(
                        (i.session.native_id.clone(), i.key.clone()),
                        i.semantic.role.as_str().to_string(),
                    );
                }
                IngestMessage::Evidence(e) => {
                    self.evidence
                        .insert((e.session.native_id.clone(), e.id.clone()));
                }
                _ => {}
            }
        }
    }

    fn roles(&self) -> BTreeMap<&str, usize> {
        let mut r = BTreeMap::new();
        for role in self.items.values() {
            *r.entry(role.as_str()).or_default() += 1;
        }
        r
    }
}

fn replay(label: &str, docs: &[(String, Value)], counts: &mut Counts) {
    let mut adapter = OpencodeStorageAdapter::default();
    let source = SourceId::new(label);
    for (i, (hint, doc)) in docs.iter().enumerate() {
        counts.documents += 1;
        if doc.get("projectID").is_some()
            || doc.get("directory").is_some() && doc.get("role").is_none()
        {
            counts.session_documents.insert(id_of(doc).to_string());
        }
        let record = RecordRef::new(source.clone(), i as u64);
        match adapter.normalize(hint, &NativeRecord::new(&record, doc)) {
            NormalizationOutcome::Messages(m) => counts.add(&m),
            NormalizationOutcome::Ignored { reason } => {
                *counts.ignored.entry(reason).or_default() += 1
            }
            NormalizationOutcome::Unrecognized { discriminator } => counts
                .unrecognized
                .push(format!("{label}#{i}: {discriminator}")),
        }
    }
    counts.add(&adapter.finish());
}

#[test]
fn corpus_storage_translates_without_unrecognized() {
    let Some(root) = corpus() else {
        println!("shared/corpus/opencode not found: corpus test skipped");
        return;
    };
    let mut counts = Counts::default();
    let mut finals_per_file = Vec::new();
    for tree in storage_trees(&root) {
        let docs = walk_tree(&tree);
        replay(&tree.display().to_string(), &docs, &mut counts);
    }
    let mut dumps: Vec<PathBuf> = json_files(&root.join("storage-dumps"));
    dumps.sort();
    for dump in dumps {
        let docs = order_dump(split_dump(&dump));
        assert!(!docs.is_empty(), "{}: nothing parsed", dump.display());
        let before = counts
            .roles()
            .get("agent.final_answer")
            .copied()
            .unwrap_or(0);
        replay(&dump.display().to_string(), &docs, &mut counts);
        let after = counts
            .roles()
            .get("agent.final_answer")
            .copied()
            .unwrap_or(0);
        finals_per_file.push((
            dump.file_name().map(|n| n.to_string_lossy().into_owned()),
            after - before,
        ));
        let natives: Vec<Value> = docs.into_iter().map(|(_, d)| d).collect();
        let report = check_adapter(OpencodeStorageAdapter::default, &natives);
        assert!(
            report.is_ok(),
            "{}: {:?}",
            dump.display(),
            report.violations
        );
    }
    println!("opencode corpus: {} documents", counts.documents);
    println!(
        "  session documents {}, sessions published {}",
        counts.session_documents.len(),
        counts.sessions.len()
    );
    println!(
        "  loops {} (ended {})",
        counts.loops.len(),
        counts.ended_loops.len()
    );
    println!(
        "  items {} by role {:?}",
        counts.items.len(),
        counts.roles()
    );
    println!(
        "  tool outputs with a structural exit code {}",
        counts.exit_codes
    );
    println!("  file_diff evidence {}", counts.evidence.len());
    println!("  ignored {:?}", counts.ignored);
    println!("  final answers per dump {finals_per_file:?}");
    assert!(
        counts.unrecognized.is_empty(),
        "unrecognized: {:?}",
        counts.unrecognized
    );
    for sid in &counts.session_documents {
        assert!(counts.sessions.contains(sid), "no Session for {sid}");
    }
    assert!(counts.documents > 100);
    assert!(counts.exit_codes > 0);
    assert!(
        finals_per_file.iter().all(|(_, n)| *n > 0),
        "{finals_per_file:?}"
    );
}
