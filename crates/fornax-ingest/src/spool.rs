//! The spool: an append-only NDJSON file of live payloads (hook and plugin events).
//!
//! Live transports never talk to SQLite. They append one envelope line per native payload:
//!
//! ```json
//! {"fornax_spool":1,"adapter":"claude-hook","received_at":"2026-11-29T10:00:00.123Z","payload":{...}}
//! ```
//!
//! and the spool file is then ingested like any other file source: with a cursor committed in
//! the same transaction as the data, so every event is stored exactly once whatever crashes
//! in between. The write side (envelope lines, file naming, locked and fsynced appends) lives in
//! `fornax_hook::spool`, so that the hook binary stays small; it is re-exported here.

use serde_json::Value;

pub use fornax_hook::spool::{
    append, envelope_line, spool_bytes, spool_file, SpoolError, DEFAULT_SPOOL_LIMIT, SPOOL_MARKER,
};

/// A parsed spool envelope.
#[derive(Debug)]
pub struct Envelope<'a> {
    pub adapter: &'a str,
    pub received_at: Option<&'a str>,
    pub payload: &'a Value,
}

/// Reads an envelope, if `value` is one.
pub fn as_envelope(value: &Value) -> Option<Envelope<'_>> {
    let obj = value.as_object()?;
    obj.get(SPOOL_MARKER)?;
    Some(Envelope {
        adapter: obj.get("adapter")?.as_str()?,
        received_at: obj.get("received_at").and_then(Value::as_str),
        payload: obj.get("payload")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The read side understands what the hook's write side appends (the torn-tail handling
    /// itself is tested beside the writer, in `fornax-hook`).
    #[test]
    fn appended_envelopes_read_back() {
        let line = envelope_line("claude-hook", "t", "{\"a\":1}");
        let v: Value = serde_json::from_str(line.trim()).unwrap();
        let env = as_envelope(&v).unwrap();
        assert_eq!(env.adapter, "claude-hook");
        assert_eq!(env.received_at, Some("t"));
        assert_eq!(env.payload["a"], 1);
        assert!(as_envelope(&serde_json::json!({"adapter": "x", "payload": {}})).is_none());
    }
}
