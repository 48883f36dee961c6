//! `cap promote|demote`: the only code that changes a lifecycle state. It rewrites the file the
//! capability comes from, after re-validating the result; nothing is ever promoted implicitly.
//!
//! A toolspace capability's state lives on its module mount; since a mount can only hold a
//! capability back, promoting it past its source (or the toolspace's own state) is refused
//! with the name of what holds it back.

use std::path::Path;

use serde_json::{json, Value};

use crate::error::CapError;
use crate::manifest::{self, LifecycleState};
use crate::registry::{Capability, Origin, Registry};
use crate::toolspace;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Direction {
    Promote,
    Demote,
}

/// Changes `cap`'s lifecycle to `to`. Returns a JSON description of the change and the bytes
/// written (so a file the user trusted can stay trusted: Fornax wrote the change itself).
pub fn change(
    registry: &Registry,
    cap: &Capability,
    to: LifecycleState,
    direction: Direction,
) -> Result<(Value, Vec<u8>), CapError> {
    let id = cap.manifest.id.clone();
    let from = cap.manifest.lifecycle_state;
    let refuse = |reason: String| CapError::Lifecycle {
        id: id.clone(),
        reason,
    };
    match direction {
        Direction::Promote if to <= from => {
            return Err(refuse(format!(
                "it is {from}; promote moves towards active (draft → reviewed → active)"
            )))
        }
        Direction::Demote if to >= from => {
            return Err(refuse(format!(
                "it is {from}; demote moves towards draft (active → reviewed → draft)"
            )))
        }
        _ => {}
    }
    let written;
    let path = match &cap.origin {
        Origin::Builtin => {
            return Err(refuse(
                "built-in capabilities are compiled into the binary".to_string(),
            ))
        }
        Origin::File { path, .. } => {
            let mut value = read(path)?;
            value["lifecycleState"] = json!(to);
            let problems = manifest::validate(&value);
            if !problems.is_empty() {
                return Err(CapError::InvalidManifest {
                    path: path.display().to_string(),
                    problems,
                });
            }
            written = write(path, &value)?;
            path.clone()
        }
        Origin::Mount {
            toolspace: ts,
            path,
            mount,
            source,
            ..
        } => {
            let source_state = registry.get(source).map(|s| s.manifest.lifecycle_state);
            let mut value = read(path)?;
            let ts_state = value
                .get("lifecycleState")
                .and_then(Value::as_str)
                .and_then(LifecycleState::parse);
            if let Some(s) = source_state.filter(|s| *s < to) {
                return Err(refuse(format!(
                    "its source {source} is {s}; promote the source first"
                )));
            }
            if let Some(s) = ts_state.filter(|s| *s < to) {
                return Err(refuse(format!(
                    "toolspace {ts} is {s} (toolspace.json lifecycleState)"
                )));
            }
            let Some(entry) = value
                .get_mut("moduleMounts")
                .and_then(|m| m.get_mut(*mount))
                .and_then(Value::as_object_mut)
            else {
                return Err(refuse(format!(
                    "{} no longer has moduleMounts[{mount}]",
                    path.display()
                )));
            };
            entry.insert("lifecycleState".to_string(), json!(to));
            if let Err(problems) = toolspace::parse(&value, ts) {
                return Err(CapError::InvalidManifest {
                    path: path.display().to_string(),
                    problems,
                });
            }
            written = write(path, &value)?;
            path.clone()
        }
    };
    Ok((
        json!({"id": id, "from": from, "to": to, "path": path}),
        written,
    ))
}

fn read(path: &Path) -> Result<Value, CapError> {
    let text = std::fs::read_to_string(path).map_err(|e| CapError::io(path, e))?;
    serde_json::from_str(&text).map_err(|e| CapError::InvalidManifest {
        path: path.display().to_string(),
        problems: vec![format!("not valid JSON: {e}")],
    })
}

/// Writes pretty JSON through a temporary file and a rename, so readers never see half a file.
pub(crate) fn write(path: &Path, value: &Value) -> Result<Vec<u8>, CapError> {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, &text).map_err(|e| CapError::io(&tmp, e))?;
    std::fs::rename(&tmp, path).map_err(|e| CapError::io(path, e))?;
    Ok(text.into_bytes())
}
