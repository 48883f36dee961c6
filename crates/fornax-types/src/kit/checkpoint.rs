//! A versioned envelope for an adapter's checkpoint: `{"format": N, "state": ...}`.
//!
//! An adapter bumps its format whenever the shape of its state changes; a snapshot of another
//! format (or one that no longer parses) is refused, and the pipeline then re-reads the source
//! from its start, which is slower but never wrong.

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{json, Value};

/// Serializes `state` under `format`. `None` when the state does not serialize.
pub fn save<S: Serialize>(format: u32, state: &S) -> Option<Value> {
    let state = serde_json::to_value(state).ok()?;
    Some(json!({"format": format, "state": state}))
}

/// The state of a snapshot taken by [`save`] with the same `format`, or `None`.
pub fn load<S: DeserializeOwned>(format: u32, snapshot: &Value) -> Option<S> {
    if snapshot.get("format").and_then(Value::as_u64) != Some(u64::from(format)) {
        return None;
    }
    S::deserialize(snapshot.get("state")?).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, PartialEq, serde::Serialize, serde::Deserialize)]
    struct State {
        seen: Vec<String>,
    }

    #[test]
    fn round_trip_and_refusals() {
        let st = State {
            seen: vec!["a".into()],
        };
        let snap = save(3, &st).unwrap();
        assert_eq!(load::<State>(3, &snap), Some(st));
        assert_eq!(load::<State>(4, &snap), None, "another format");
        assert_eq!(load::<State>(3, &json!({"format": 3, "state": 7})), None);
        assert_eq!(load::<State>(3, &Value::Null), None);
    }
}
