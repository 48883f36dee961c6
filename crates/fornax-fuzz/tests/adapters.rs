//! Every adapter's `normalize`, on real records (the adapters' golden fixtures, and the shared
//! corpus when it is there) mutated into the shapes drift produces: no panic, no failure, and a
//! checkpoint that resumes.

use fornax_types::{AdapterDescriptor, NativeRecord, RecordRef, SourceId};
use proptest::prelude::*;
use serde_json::Value;

fn descriptors() -> Vec<AdapterDescriptor> {
    let mut all = Vec::new();
    all.extend(fornax_adapter_claude::descriptors());
    all.extend(fornax_adapter_codex::descriptors());
    all.extend(fornax_adapter_pi::descriptors());
    all.extend(fornax_adapter_gemini::descriptors());
    all.extend(fornax_adapter_opencode::descriptors());
    all
}

/// Seeds for every adapter: fixtures of all adapters (an adapter must survive another's
/// records too) and corpus records.
fn seeds() -> Vec<Value> {
    let crates = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    for name in ["claude", "codex", "pi", "gemini", "opencode"] {
        out.extend(fornax_fuzz::fixture_events(
            &crates.join(format!("fornax-adapter-{name}/tests/fixtures")),
        ));
    }
    for sub in [
        "claude-transcript",
        "claude-hooks",
        "codex-rollout",
        "pi-session",
        "gemini",
        "opencode",
    ] {
        out.extend(fornax_fuzz::corpus_records(sub, 200));
    }
    assert!(
        !out.is_empty(),
        "no seeds: the adapters' fixtures are missing"
    );
    out
}

#[test]
fn every_adapter_normalizes_mutated_real_records() {
    let seeds = seeds();
    let descriptors = descriptors();
    fornax_fuzz::run(
        "adapter_normalize",
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/regressions/adapter_normalize.txt"
        ),
        prop::collection::vec(fornax_fuzz::mutate::mutated(seeds), 1..6),
        |records| {
            let source = SourceId::new("fuzz");
            for d in &descriptors {
                let mut long = (d.create)();
                for (i, v) in records.iter().enumerate() {
                    let record = RecordRef::new(source.clone(), i as u64);
                    // A fresh adapter per record (as one hook process per event) and a
                    // long-lived one, with and without a document location.
                    let _ = (d.create)().normalize("hint", &NativeRecord::new(&record, v));
                    let mut native = NativeRecord::new(&record, v);
                    if i % 2 == 1 {
                        native.member = Some("part/msg_1/prt_1.json");
                    }
                    let _ = long.normalize("hint", &native);
                    if let Some(state) = long.checkpoint() {
                        let mut resumed = (d.create)();
                        prop_assert!(
                            resumed.resume(&state),
                            "{} cannot resume its own checkpoint",
                            d.name
                        );
                    }
                }
                let _ = long.finish();
                let _ = (d.sniff)(&records[0]);
                if let Some(tree) = d.tree {
                    let docs: Vec<_> = records
                        .iter()
                        .filter_map(|v| (tree.place)("x.json", Some(v)))
                        .collect();
                    for g in (tree.plan)(&docs) {
                        prop_assert!(g.members.iter().all(|&i| i < docs.len()));
                    }
                }
            }
            Ok(())
        },
    );
}
