//! Golden fixtures: native payloads written by us, pinned to the runtime version whose shape
//! they mirror, replayed in order through one adapter.
//!
//! Format (one JSON file per fixture):
//!
//! ```json
//! {
//!   "provider": "codex",
//!   "provider_runtime_version": "0.98.0",
//!   "description": "What real shape this captures and why it matters.",
//!   "sanitized": true,
//!   "historical_schema_drift_ticket": null,
//!   "adapter": "codex-rollout",
//!   "session_hint": "optional file stem",
//!   "native_events": [ { ... }, { ... } ]
//! }
//! ```
//!
//! `sanitized: true` is required; `adapter` (optional) names which of a crate's adapters the
//! fixture is for when the crate has several transports.

use std::path::{Path, PathBuf};

use fornax_types::{
    AgentAdapter, IngestMessage, NativeRecord, NormalizationOutcome, RecordRef, SourceId,
};
use serde::Deserialize;
use serde_json::{json, Value};

#[derive(Debug, Clone, Deserialize)]
pub struct Fixture {
    pub provider: String,
    pub provider_runtime_version: String,
    pub description: String,
    #[serde(default)]
    pub sanitized: Option<bool>,
    #[serde(default)]
    pub historical_schema_drift_ticket: Option<String>,
    #[serde(default)]
    pub adapter: Option<String>,
    #[serde(default)]
    pub session_hint: Option<String>,
    pub native_events: Vec<Value>,
}

#[derive(Debug)]
pub enum FixtureError {
    Io {
        path: PathBuf,
        error: std::io::Error,
    },
    Parse {
        path: PathBuf,
        error: serde_json::Error,
    },
    NotSanitized {
        path: PathBuf,
    },
    Empty {
        path: PathBuf,
    },
}

impl std::fmt::Display for FixtureError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FixtureError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            FixtureError::Parse { path, error } => {
                write!(f, "{}: not a fixture: {error}", path.display())
            }
            FixtureError::NotSanitized { path } => {
                write!(
                    f,
                    "{}: fixtures must declare \"sanitized\": true",
                    path.display()
                )
            }
            FixtureError::Empty { path } => write!(f, "{}: no native_events", path.display()),
        }
    }
}

impl std::error::Error for FixtureError {}

/// Loads every `*.json` fixture in `dir`, sorted by file name. A fixture that is not marked
/// sanitized, or has no events, is an error.
pub fn load_fixtures(dir: &Path) -> Result<Vec<(String, Fixture)>, FixtureError> {
    let entries = std::fs::read_dir(dir).map_err(|error| FixtureError::Io {
        path: dir.to_path_buf(),
        error,
    })?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).map_err(|error| FixtureError::Io {
            path: path.clone(),
            error,
        })?;
        let fixture: Fixture =
            serde_json::from_str(&text).map_err(|error| FixtureError::Parse {
                path: path.clone(),
                error,
            })?;
        if fixture.sanitized != Some(true) {
            return Err(FixtureError::NotSanitized { path });
        }
        if fixture.native_events.is_empty() {
            return Err(FixtureError::Empty { path });
        }
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        out.push((name, fixture));
    }
    Ok(out)
}

/// What one native event became.
#[derive(Debug, Clone)]
pub struct ReplayStep {
    pub outcome: NormalizationOutcome,
}

#[derive(Debug, Clone, Default)]
pub struct Replay {
    pub steps: Vec<ReplayStep>,
    /// Messages from `finish()`.
    pub finished: Vec<IngestMessage>,
}

impl Replay {
    /// Every message in order, including those from `finish()`.
    pub fn messages(&self) -> Vec<&IngestMessage> {
        let mut out = Vec::new();
        for s in &self.steps {
            if let NormalizationOutcome::Messages(m) = &s.outcome {
                out.extend(m.iter());
            }
        }
        out.extend(self.finished.iter());
        out
    }

    pub fn unrecognized(&self) -> Vec<&str> {
        self.steps
            .iter()
            .filter_map(|s| match &s.outcome {
                NormalizationOutcome::Unrecognized { discriminator } => {
                    Some(discriminator.as_str())
                }
                _ => None,
            })
            .collect()
    }

    /// A stable JSON rendering for snapshot tests: one entry per native event.
    pub fn to_snapshot(&self) -> Value {
        let mut events = Vec::new();
        for (i, s) in self.steps.iter().enumerate() {
            let v = match &s.outcome {
                NormalizationOutcome::Messages(m) => json!({
                    "event": i,
                    "messages": m.iter().map(|m| serde_json::to_value(m).unwrap_or(Value::Null)).collect::<Vec<_>>(),
                }),
                NormalizationOutcome::Ignored { reason } => json!({"event": i, "ignored": reason}),
                NormalizationOutcome::Unrecognized { discriminator } => {
                    json!({"event": i, "unrecognized": discriminator})
                }
            };
            events.push(v);
        }
        let finished: Vec<Value> = self
            .finished
            .iter()
            .map(|m| serde_json::to_value(m).unwrap_or(Value::Null))
            .collect();
        json!({"events": events, "finished": finished})
    }
}

/// Replays a fixture's events in order through `adapter`, then calls `finish()`.
pub fn replay(adapter: &mut dyn AgentAdapter, fixture: &Fixture) -> Replay {
    let source = SourceId::new("fixture");
    let hint = fixture
        .session_hint
        .clone()
        .unwrap_or_else(|| "fixture-session".to_string());
    let mut replay = Replay::default();
    for (i, native) in fixture.native_events.iter().enumerate() {
        let record = RecordRef::new(source.clone(), i as u64);
        let outcome = adapter.normalize(&hint, &NativeRecord::new(&record, native));
        replay.steps.push(ReplayStep { outcome });
    }
    replay.finished = adapter.finish();
    replay
}

/// The folder of shared third-party samples: the nearest `shared/` holding a `corpus/` found
/// walking up from the workspace (`<workspace>/../shared` in CI; a checkout nested deeper, as
/// a second work tree is, finds the same folder further up). `FORNAX_SHARED_DIR` overrides.
/// Corpus tests skip cleanly when this is `None`.
pub fn shared_dir() -> Option<PathBuf> {
    if let Ok(dir) = std::env::var("FORNAX_SHARED_DIR") {
        let p = PathBuf::from(dir);
        return p.is_dir().then_some(p);
    }
    let manifest = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // crates/<crate> -> workspace root -> its ancestors.
    manifest
        .ancestors()
        .skip(2)
        .map(|dir| dir.join("shared"))
        .find(|candidate| candidate.join("corpus").is_dir())
}
