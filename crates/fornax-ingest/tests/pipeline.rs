//! The pipeline on real files and a real SQLite store, with a small adapter written here.

use std::io::Write;
use std::path::Path;

use fornax_ingest::{spool, IngestOptions, Ingestor, Registry, ScanSummary};
use fornax_store::{QueryLimits, Store};
use fornax_types::*;
use serde_json::{json, Value};

/// Lines `{"toy": 1, "sid": "...", "text": "..."}`; each becomes an agent final answer.
#[derive(Default)]
struct Toy {
    seen: u64,
}

impl CapabilityProbe for Toy {
    fn probe(&self) -> RuntimeCapabilities {
        RuntimeCapabilities::new(Provider::Other("toy".into()), SourceKind::File)
    }
}

impl AgentAdapter for Toy {
    fn provider(&self) -> Provider {
        Provider::Other("toy".into())
    }
    fn adapter_version(&self) -> &'static str {
        "0.0.1"
    }
    fn normalize(&mut self, _hint: &str, native: &NativeRecord<'_>) -> NormalizationOutcome {
        let v = native.value;
        if v.get("future").is_some() {
            return NormalizationOutcome::Unrecognized {
                discriminator: "future".into(),
            };
        }
        let (Some(sid), Some(text)) = (
            v.get("sid").and_then(Value::as_str),
            v.get("text").and_then(Value::as_str),
        ) else {
            return NormalizationOutcome::Ignored {
                reason: "no sid or text",
            };
        };
        self.seen += 1;
        let session = SessionRef::new(self.provider(), sid);
        NormalizationOutcome::Messages(vec![
            IngestMessage::Session(Session {
                id: session.clone(),
                identity_record: native.record.clone(),
                cwd: None,
                name: None,
                created_at: None,
                forked_from: None,
                delegated_from: None,
                runtime_version: Some("1.0".into()),
            }),
            IngestMessage::Item(Item {
                session,
                key: format!("n{}", self.seen),
                loop_position: Some(0),
                at: None,
                semantic: Semantic::new(
                    Role::AgentFinalAnswer,
                    SemanticValue::Text(TextValue::full(text)),
                    EvidenceStrength::Structural,
                ),
                records: vec![native.record.clone()],
            }),
        ])
    }
    fn checkpoint(&self) -> Option<Value> {
        Some(json!({"seen": self.seen}))
    }
    fn resume(&mut self, state: &Value) -> bool {
        match state.get("seen").and_then(Value::as_u64) {
            Some(n) => {
                self.seen = n;
                true
            }
            None => false,
        }
    }
}

fn registry() -> Registry {
    Registry::new(vec![AdapterDescriptor {
        name: "toy",
        provider: Provider::Other("toy".into()),
        transport: SourceKind::File,
        framing: Framing::JsonLines,
        sniff: |v| v.get("toy").is_some(),
        create: || Box::new(Toy::default()),
        default_roots: &[],
        file_suffixes: &[".jsonl"],
        tree: None,
    }])
}

fn scan(store: &mut Store, registry: &Registry, root: &Path) -> ScanSummary {
    let files = fornax_ingest::discover(&[root.to_path_buf()], registry);
    let mut ing = Ingestor::new(
        store,
        registry,
        IngestOptions {
            max_record_bytes: 4096,
            ..IngestOptions::default()
        },
    );
    ing.ingest_files(&files, &mut ());
    ing.finish().unwrap()
}

fn count(store: &Store, table: &str) -> i64 {
    store
        .query(
            &format!("SELECT COUNT(*) FROM {table}"),
            QueryLimits::default(),
        )
        .unwrap()
        .rows[0][0]
        .as_i64()
        .unwrap()
}

fn line(sid: &str, text: &str) -> String {
    format!("{}\n", json!({"toy": 1, "sid": sid, "text": text}))
}

#[test]
fn new_unchanged_appended_rebuilt() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    let file = data.join("s.jsonl");
    std::fs::write(
        &file,
        format!("{}{}", line("s1", "first"), line("s1", "second")),
    )
    .unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    let reg = registry();

    let s = scan(&mut store, &reg, &data);
    assert_eq!((s.sources.new, s.records, s.items), (1, 2, 2));

    let s = scan(&mut store, &reg, &data);
    assert_eq!((s.sources.unchanged, s.records, s.bytes_read), (1, 0, 0));

    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap();
    f.write_all(line("s1", "third").as_bytes()).unwrap();
    drop(f);
    let s = scan(&mut store, &reg, &data);
    assert_eq!((s.sources.appended, s.records, s.items), (1, 1, 1));
    assert_eq!(count(&store, "item"), 3);
    // The adapter resumed from its checkpoint: keys continue, nothing duplicated.
    let r = store
        .query("SELECT key FROM item ORDER BY seq", QueryLimits::default())
        .unwrap();
    assert_eq!(
        r.rows
            .iter()
            .map(|r| r[0].as_str().unwrap().to_string())
            .collect::<Vec<_>>(),
        ["n1", "n2", "n3"]
    );

    std::fs::write(&file, line("s1", "rewritten")).unwrap();
    let s = scan(&mut store, &reg, &data);
    assert_eq!(s.sources.rebuilt, 1);
    assert_eq!(count(&store, "item"), 1);
    assert_eq!(count(&store, "record"), 1);
}

#[test]
fn torn_lines_wait_for_their_newline() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.jsonl");
    let full = line("s1", "complete");
    let torn = line("s1", "torn");
    std::fs::write(&file, format!("{full}{}", &torn[..10])).unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    let reg = registry();
    let s = scan(&mut store, &reg, &file);
    assert_eq!((s.records, s.malformed_records), (1, 0));
    std::fs::write(&file, format!("{full}{torn}")).unwrap();
    let s = scan(&mut store, &reg, &file);
    assert_eq!((s.sources.appended, s.records), (1, 1));
    assert_eq!(count(&store, "item"), 2);
}

#[test]
fn bad_lines_are_counted_and_good_ones_kept() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.jsonl");
    let big = format!(
        "{}\n",
        json!({"toy": 1, "sid": "s1", "text": "x".repeat(10_000)})
    );
    let concatenated = format!("{}{}", line("s1", "a").trim_end(), line("s1", "b"));
    let future = format!("{}\n", json!({"toy": 1, "future": true}));
    let body = format!(
        "{}not json at all\n{big}{concatenated}\r\n{}{future}",
        line("s1", "before"),
        line("s1", "after"),
    );
    std::fs::write(&file, body).unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    let reg = registry();
    let s = scan(&mut store, &reg, &file);
    assert_eq!(s.malformed_records, 1);
    assert_eq!(s.oversized_records, 1);
    assert_eq!(s.recovered_concatenations, 1);
    assert_eq!(s.items, 4, "before, a, b, after");
    assert_eq!(s.unrecognized.get("toy:1.0:future"), Some(&1));
    let stats = store.doctor_stats().unwrap();
    assert_eq!(stats.drift.len(), 1);
}

#[test]
fn records_point_at_their_exact_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.jsonl");
    let body = format!("{}{}", line("s1", "one"), line("s1", "two"));
    std::fs::write(&file, &body).unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    scan(&mut store, &registry(), &file);
    let loc = store.record_location(2).unwrap();
    let bytes = &body.as_bytes()[loc.byte_start.unwrap() as usize..loc.byte_end.unwrap() as usize];
    assert_eq!(bytes, line("s1", "two").trim_end().as_bytes());
    assert_eq!(Fingerprint::of(bytes).to_hex(), loc.fingerprint);
}

#[test]
fn spool_envelopes_reach_their_named_adapter_once() {
    let dir = tempfile::tempdir().unwrap();
    let spool_dir = dir.path().join("spool");
    let path = spool::spool_file(&spool_dir, "2026-01-01");
    let payload = json!({"toy": 1, "sid": "s9", "text": "from a hook"}).to_string();
    spool::append(
        &path,
        &[spool::envelope_line("toy", "t", &payload)],
        spool::DEFAULT_SPOOL_LIMIT,
        true,
    )
    .unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    let reg = registry();
    let s = scan(&mut store, &reg, &spool_dir);
    assert_eq!((s.sources.new, s.items), (1, 1));
    spool::append(
        &path,
        &[spool::envelope_line("toy", "t", &payload)],
        spool::DEFAULT_SPOOL_LIMIT,
        true,
    )
    .unwrap();
    let s = scan(&mut store, &reg, &spool_dir);
    assert_eq!((s.sources.appended, s.records), (1, 1));
    assert_eq!(count(&store, "record"), 2);
}

#[test]
fn unrecognized_content_is_skipped_with_a_reason() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("other.jsonl");
    std::fs::write(&file, "{\"something\":\"else\"}\n").unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    let s = scan(&mut store, &registry(), &file);
    assert_eq!(s.sources.skipped.get("content not recognized"), Some(&1));
}

fn scan_with(
    store: &mut Store,
    registry: &Registry,
    root: &Path,
    tail_quiet: Option<std::time::Duration>,
) -> ScanSummary {
    let mut ing = Ingestor::new(
        store,
        registry,
        IngestOptions {
            max_record_bytes: 4096,
            tail_quiet,
            ..IngestOptions::default()
        },
    );
    ing.scan_paths(&[root.to_path_buf()], &mut ());
    ing.finish().unwrap()
}

#[test]
fn a_final_line_without_newline_is_taken_once_quiet_and_never_twice() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.jsonl");
    let last = line("s1", "the end");
    std::fs::write(&file, format!("{}{}", line("s1", "start"), last.trim_end())).unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    let reg = registry();
    // A tailing reader that waits for quiet does not take it while it may still be written.
    let s = scan_with(
        &mut store,
        &reg,
        &file,
        Some(std::time::Duration::from_secs(3600)),
    );
    assert_eq!(s.records, 1);
    let s = scan_with(&mut store, &reg, &file, Some(std::time::Duration::ZERO));
    assert_eq!((s.sources.appended, s.records), (1, 1));
    // The writer finishes the line and writes another: one new record, no repeat.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap();
    f.write_all(format!("\n{}", line("s1", "after")).as_bytes())
        .unwrap();
    drop(f);
    let s = scan_with(&mut store, &reg, &file, Some(std::time::Duration::ZERO));
    assert_eq!((s.sources.appended, s.records), (1, 1));
    assert_eq!(count(&store, "record"), 3);
    assert_eq!(count(&store, "item"), 3);
}

#[test]
fn values_of_an_array_dump_are_records_at_their_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("chat.json");
    let values = [
        json!({"toy": 1, "sid": "s1", "text": "one"}),
        json!({"toy": 1, "sid": "s1", "text": "two \u{1F600}"}),
    ];
    let body = serde_json::to_string_pretty(&values).unwrap();
    std::fs::write(&file, &body).unwrap();
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    let reg = registry();
    let s = scan(&mut store, &reg, &file);
    assert_eq!((s.sources.new, s.records, s.items), (1, 2, 2), "{s:#?}");
    let loc = store.record_location(2).unwrap();
    let bytes = &body.as_bytes()[loc.byte_start.unwrap() as usize..loc.byte_end.unwrap() as usize];
    assert_eq!(serde_json::from_slice::<Value>(bytes).unwrap(), values[1]);
    assert_eq!(Fingerprint::of(bytes).to_hex(), loc.fingerprint);
    // Rewritten whole with one more element (as a Stop hook dumps it): rebuilt, not repeated.
    let more = [
        values[0].clone(),
        values[1].clone(),
        json!({"toy": 1, "sid": "s1", "text": "three"}),
    ];
    std::fs::write(&file, serde_json::to_string_pretty(&more).unwrap()).unwrap();
    let s = scan(&mut store, &reg, &file);
    assert_eq!(s.sources.rebuilt, 1);
    assert_eq!(count(&store, "record"), 3);
    assert_eq!(count(&store, "item"), 3);
    assert_eq!(scan(&mut store, &reg, &file).sources.unchanged, 1);
}

#[test]
fn retention_deletes_only_closed_segments_whose_events_are_stored() {
    let dir = tempfile::tempdir().unwrap();
    let spool_dir = dir.path().join("spool");
    let payload = json!({"toy": 1, "sid": "s9", "text": "from a hook"}).to_string();
    for day in ["2026-01-01", "2026-01-02"] {
        spool::append(
            &spool::spool_file(&spool_dir, day),
            &[spool::envelope_line("toy", "t", &payload)],
            spool::DEFAULT_SPOOL_LIMIT,
            true,
        )
        .unwrap();
    }
    let mut store = Store::open(&dir.path().join("f.db")).unwrap();
    let reg = registry();
    // Not stored yet: nothing is deleted.
    {
        let mut ing = Ingestor::new(&mut store, &reg, IngestOptions::default());
        let r = ing
            .retire_spool(&spool_dir, "2026-01-02", &mut fornax_ingest::NoArchive)
            .unwrap();
        assert_eq!(r.segments, 0);
    }
    let mut ing = Ingestor::new(&mut store, &reg, IngestOptions::default());
    ing.scan_paths(std::slice::from_ref(&spool_dir), &mut ());
    // "Today" is the 2nd: the 1st is closed and stored, the 2nd is open.
    let r = ing
        .retire_spool(&spool_dir, "2026-01-02", &mut fornax_ingest::NoArchive)
        .unwrap();
    ing.finish().unwrap();
    assert_eq!(r.segments, 1);
    assert!(!spool::spool_file(&spool_dir, "2026-01-01").exists());
    assert!(spool::spool_file(&spool_dir, "2026-01-02").exists());
    assert_eq!(
        count(&store, "record"),
        2,
        "the retired segment's records stay"
    );
    let retired = store
        .query(
            "SELECT COUNT(*) FROM source WHERE status = 'retired'",
            QueryLimits::default(),
        )
        .unwrap()
        .rows[0][0]
        .as_i64()
        .unwrap();
    assert_eq!(retired, 1);
    // A hook that writes that day's segment again starts a new source, leaving the old intact.
    spool::append(
        &spool::spool_file(&spool_dir, "2026-01-01"),
        &[spool::envelope_line("toy", "t", &payload)],
        spool::DEFAULT_SPOOL_LIMIT,
        true,
    )
    .unwrap();
    let s = scan(&mut store, &reg, &spool_dir);
    assert_eq!(s.sources.new, 1);
    assert_eq!(count(&store, "record"), 3);
}
