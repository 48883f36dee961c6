//! Property-based fuzzing on stable Rust, with `proptest`: each target in `tests/` feeds
//! generated and mutated inputs to one boundary of Fornax (line and value framing, the spool
//! reader, every adapter's `normalize` from real seeds, redaction, claim extraction, the read-only
//! SQL surface) and checks that it neither panics nor breaks its stated invariant.
//!
//! How long each target runs is set by `FORNAX_FUZZ_SECS` (`bench/fuzz.sh` sets it: ten minutes
//! each by hand) or, exactly, by `FORNAX_FUZZ_ROUNDS` rounds of 256 cases; without either a
//! target runs a small fixed number of cases, so `cargo test --workspace` stays quick.
//! `FORNAX_FUZZ_SEED` makes a run repeatable (round `r` draws from seed + `r`): CI sets it with
//! a number of rounds, so that its verdict on a commit is the same on every machine; without it
//! every run explores new cases. A failing case is shrunk, reported, and
//! written to `regressions/<target>.txt`, which every later run replays first: a case once found
//! stays a regression test.
//!
//! # Invariants
//!
//! * Test-only: no crate depends on this one (a tidy test checks it).
//! * A target never needs the network, and reads the shared corpus only to add seeds (it skips
//!   the corpus cleanly when it is absent).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use proptest::strategy::Strategy;
use proptest::test_runner::{
    Config, FileFailurePersistence, RngSeed, TestCaseError, TestError, TestRunner,
};
use serde_json::Value;

/// Cases per round; a timed run repeats rounds until its time is up.
const ROUND: u32 = 256;
/// Cases of an untimed run (the regular test suite).
const QUICK: u32 = 64;

/// How long a target runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Budget {
    /// A quick fixed number of cases (the regular test suite).
    Quick,
    /// Rounds until this much time has passed (`FORNAX_FUZZ_SECS`).
    Time(Duration),
    /// Exactly this many rounds (`FORNAX_FUZZ_ROUNDS`, which wins over a time).
    Rounds(u64),
}

fn env_number(name: &str) -> Option<u64> {
    std::env::var(name)
        .ok()
        .and_then(|s| s.trim().parse::<u64>().ok())
}

/// The budget the environment sets.
pub fn budget() -> Budget {
    if let Some(rounds) = env_number("FORNAX_FUZZ_ROUNDS").filter(|r| *r > 0) {
        return Budget::Rounds(rounds);
    }
    match env_number("FORNAX_FUZZ_SECS").filter(|s| *s > 0) {
        Some(secs) => Budget::Time(Duration::from_secs(secs)),
        None => Budget::Quick,
    }
}

/// The seed of round `round`: `FORNAX_FUZZ_SEED` + `round`, else a fresh random one.
fn round_seed(round: u64) -> RngSeed {
    env_number("FORNAX_FUZZ_SEED").map_or(RngSeed::Random, |seed| {
        RngSeed::Fixed(seed.wrapping_add(round))
    })
}

/// Runs `test` on inputs from `strategy` for the target's budget, replaying
/// `regressions/<name>.txt` first and adding any new failure to it. Panics with the shrunk
/// input on the first failure.
pub fn run<S: Strategy>(
    name: &'static str,
    regressions: &'static str,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let budget = budget();
    let per_round = if budget == Budget::Quick {
        QUICK
    } else {
        ROUND
    };
    let started = Instant::now();
    let mut rounds = 0u64;
    let mut cases = 0u64;
    loop {
        let config = Config {
            cases: per_round,
            failure_persistence: Some(Box::new(FileFailurePersistence::Direct(regressions))),
            max_shrink_iters: 4096,
            rng_seed: round_seed(rounds),
            ..Config::default()
        };
        let mut runner = TestRunner::new(config);
        match runner.run(&strategy, &test) {
            Ok(()) => {}
            Err(TestError::Fail(reason, input)) => {
                panic!("fuzz target {name}: {reason}\nminimal input: {input:#?}")
            }
            Err(TestError::Abort(reason)) => panic!("fuzz target {name} aborted: {reason}"),
        }
        rounds += 1;
        cases += u64::from(per_round);
        let more = match budget {
            Budget::Quick => false,
            Budget::Time(limit) => started.elapsed() < limit,
            Budget::Rounds(limit) => rounds < limit,
        };
        if !more {
            break;
        }
    }
    eprintln_summary(name, rounds, cases, started.elapsed());
}

#[allow(clippy::print_stderr)] // a fuzz run says how much it did
fn eprintln_summary(name: &str, rounds: u64, cases: u64, took: Duration) {
    if budget() != Budget::Quick {
        eprintln!(
            "fuzz {name}: {cases} cases in {rounds} rounds, {:.1}s, 0 failures",
            took.as_secs_f64()
        );
    }
}

/// The shared corpus of real agent data, when it is there (seeds only; targets run without it).
pub fn corpus_dir() -> Option<PathBuf> {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .map(|a| a.join("shared/corpus"))
        .find(|d| d.is_dir())
}

/// The `native_events` of every golden fixture under `dir` (the adapters' own fixtures).
pub fn fixture_events(dir: &Path) -> Vec<Value> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    let mut paths: Vec<PathBuf> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            out.extend(fixture_events(&p));
            continue;
        }
        let Ok(text) = std::fs::read_to_string(&p) else {
            continue;
        };
        if let Ok(v) = serde_json::from_str::<Value>(&text) {
            if let Some(events) = v.get("native_events").and_then(Value::as_array) {
                out.extend(events.iter().cloned());
            }
        }
    }
    out
}

/// Up to `limit` JSON records from the corpus files under `sub`: lines of JSONL files, elements
/// of JSON arrays, or whole JSON documents.
pub fn corpus_records(sub: &str, limit: usize) -> Vec<Value> {
    let mut out = Vec::new();
    let Some(dir) = corpus_dir().map(|d| d.join(sub)) else {
        return out;
    };
    let mut files = Vec::new();
    collect_files(&dir, &mut files);
    files.sort();
    for f in files {
        if out.len() >= limit {
            break;
        }
        let Ok(text) = std::fs::read_to_string(&f) else {
            continue;
        };
        match serde_json::from_str::<Value>(&text) {
            Ok(Value::Array(items)) => out.extend(items.into_iter().take(64)),
            Ok(doc) => out.push(doc),
            Err(_) => out.extend(
                text.lines()
                    .filter_map(|l| serde_json::from_str::<Value>(l).ok())
                    .take(64),
            ),
        }
    }
    out.truncate(limit);
    out
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_files(&p, out);
        } else if p.metadata().map(|m| m.len() < 8 << 20).unwrap_or(false) {
            out.push(p);
        }
    }
}

pub mod mutate {
    //! Mutations of a JSON seed: the odd shapes real data drifts into (a field removed, a value
    //! of another type, a string cut short, a huge or hostile string, nesting), applied at a
    //! random path.

    use proptest::prelude::*;
    use serde_json::{Map, Value};

    /// One mutation, applied at the `path`-th node met walking the value.
    #[derive(Debug, Clone)]
    pub enum Op {
        Remove,
        Replace(Value),
        Truncate(usize),
        Duplicate,
        Wrap,
    }

    fn leaf() -> impl Strategy<Value = Value> {
        prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            // Quarters: exact in binary, so a value's text reads back as the same number.
            any::<i32>().prop_map(|n| Value::from(f64::from(n) / 4.0)),
            "\\PC{0,24}".prop_map(Value::String),
            Just(Value::String("\u{FFFD}\u{0}\u{202E}\n\r\t\"\\".into())),
            Just(Value::String("x".repeat(70_000))),
            Just(Value::String(
                "Exit code 137\ntest result: FAILED. 1 passed; 9 failed".into()
            )),
        ]
    }

    /// Any small JSON value.
    pub fn value() -> impl Strategy<Value = Value> {
        leaf().prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map("[a-z_]{1,12}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect::<Map<_, _>>())),
            ]
        })
    }

    pub fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            Just(Op::Remove),
            value().prop_map(Op::Replace),
            (0usize..16).prop_map(Op::Truncate),
            Just(Op::Duplicate),
            Just(Op::Wrap),
        ]
    }

    /// `seed` with up to four mutations at random places.
    pub fn mutated(seeds: Vec<Value>) -> impl Strategy<Value = Value> {
        let n = seeds.len().max(1);
        (0..n, prop::collection::vec((any::<usize>(), op()), 0..4)).prop_map(move |(i, ops)| {
            let mut v = seeds.get(i).cloned().unwrap_or(Value::Null);
            for (at, op) in ops {
                let count = nodes(&v);
                apply(&mut v, at % count.max(1), &op, &mut 0);
            }
            v
        })
    }

    fn nodes(v: &Value) -> usize {
        1 + match v {
            Value::Array(a) => a.iter().map(nodes).sum(),
            Value::Object(o) => o.values().map(nodes).sum(),
            _ => 0,
        }
    }

    /// Applies `op` to the `target`-th node (pre-order). True once applied.
    fn apply(v: &mut Value, target: usize, op: &Op, seen: &mut usize) -> bool {
        if *seen == target {
            match op {
                Op::Remove => *v = Value::Null,
                Op::Replace(x) => *v = x.clone(),
                Op::Truncate(n) => {
                    if let Value::String(s) = v {
                        let mut end = (*n).min(s.len());
                        while !s.is_char_boundary(end) {
                            end -= 1;
                        }
                        s.truncate(end);
                    }
                }
                Op::Duplicate => {
                    let copy = v.clone();
                    *v = Value::Array(vec![copy.clone(), copy]);
                }
                Op::Wrap => {
                    let copy = v.clone();
                    let mut m = Map::new();
                    m.insert("value".into(), copy);
                    *v = Value::Object(m);
                }
            }
            return true;
        }
        *seen += 1;
        match v {
            Value::Array(items) => items.iter_mut().any(|x| apply(x, target, op, seen)),
            Value::Object(map) => {
                // Removing a key is a different mutation from nulling it.
                let keys: Vec<String> = map.keys().cloned().collect();
                for k in keys {
                    if *seen == target && matches!(op, Op::Remove) {
                        map.remove(&k);
                        return true;
                    }
                    if let Some(x) = map.get_mut(&k) {
                        if apply(x, target, op, seen) {
                            return true;
                        }
                    }
                }
                false
            }
            _ => false,
        }
    }
}
