//! The result shape every adapter honours: `{ok: true, data, meta}` or
//! `{ok: false, error: {message}, meta}`.

use serde_json::{json, Map, Value};

#[derive(Debug, Clone, PartialEq)]
pub struct Envelope {
    pub ok: bool,
    /// `Value::Null` on failure.
    pub data: Value,
    /// Set exactly when `ok` is false.
    pub error: Option<String>,
    pub meta: Map<String, Value>,
}

impl Envelope {
    pub fn success(data: Value) -> Self {
        Envelope {
            ok: true,
            data,
            error: None,
            meta: Map::new(),
        }
    }

    pub fn failure(message: impl Into<String>) -> Self {
        Envelope {
            ok: false,
            data: Value::Null,
            error: Some(message.into()),
            meta: Map::new(),
        }
    }

    pub fn with_meta(mut self, key: &str, value: Value) -> Self {
        self.meta.insert(key.to_string(), value);
        self
    }

    /// Appends to `meta.warnings`.
    pub fn warn(&mut self, warning: impl Into<String>) {
        let list = self
            .meta
            .entry("warnings")
            .or_insert_with(|| Value::Array(Vec::new()));
        if !list.is_array() {
            *list = Value::Array(Vec::new());
        }
        if let Value::Array(items) = list {
            items.push(Value::String(warning.into()));
        }
    }

    pub fn to_json(&self) -> Value {
        if self.ok {
            json!({"ok": true, "data": self.data, "meta": self.meta})
        } else {
            json!({
                "ok": false,
                "error": {"message": self.error.clone().unwrap_or_default()},
                "meta": self.meta,
            })
        }
    }

    /// Reads an envelope back from JSON (for script adapters, which return plain maps).
    /// Anything that is not a well-formed envelope becomes a failure that says why.
    pub fn from_json(value: &Value) -> Envelope {
        let Some(obj) = value.as_object() else {
            return Envelope::failure(format!(
                "adapter returned {} instead of an envelope",
                kind(value)
            ));
        };
        let meta = obj
            .get("meta")
            .and_then(Value::as_object)
            .cloned()
            .unwrap_or_default();
        let envelope = match obj.get("ok") {
            Some(Value::Bool(true)) => {
                Envelope::success(obj.get("data").cloned().unwrap_or(Value::Null))
            }
            Some(Value::Bool(false)) => {
                let message = obj
                    .get("error")
                    .and_then(|e| {
                        e.get("message")
                            .and_then(Value::as_str)
                            .or_else(|| e.as_str())
                    })
                    .unwrap_or("adapter reported failure without a message");
                Envelope::failure(message)
            }
            _ => Envelope::failure("adapter returned an envelope without a boolean `ok`"),
        };
        Envelope { meta, ..envelope }
    }
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}
