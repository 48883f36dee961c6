//! The physical layer: where native bytes came from.
//!
//! Raw bytes never travel past this layer: a [`Record`] names its bytes (source, position, byte
//! range, fingerprint) so they can be re-read and checked later, but it never holds them.

use std::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::Provider;

/// Stable identifier of a [`Source`], chosen by whoever frames it (for a file: derived from its
/// canonical path; for a hook stream: derived from provider and session).
///
/// Shared, not copied: every [`RecordRef`] of a source cites the same id, so a clone is a
/// reference count, and a long session's items do not each hold their source's path.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SourceId(Arc<str>);

impl SourceId {
    pub fn new(id: impl Into<String>) -> Self {
        SourceId(Arc::from(id.into()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether both ids share one allocation (interned by the same reader).
    pub fn is_shared_with(&self, other: &SourceId) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Serialize for SourceId {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for SourceId {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(SourceId::new)
    }
}

/// Hands out one shared [`SourceId`] per distinct id, so records read back from storage cite
/// their source without a copy each.
#[derive(Debug, Default)]
pub struct SourceIds {
    seen: std::collections::HashSet<SourceId>,
}

impl SourceIds {
    /// The shared id equal to `id` (the first one seen is kept).
    pub fn intern(&mut self, id: &SourceId) -> SourceId {
        if let Some(shared) = self.seen.get(id) {
            return shared.clone();
        }
        self.seen.insert(id.clone());
        id.clone()
    }
}

impl fmt::Display for SourceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// How a source delivers records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// A file the runtime writes (transcript, rollout, session file). Records have byte ranges.
    File,
    /// Payloads delivered to a hook command, one per invocation.
    HookStream,
    /// Lines forwarded by an in-process plugin of the runtime.
    PluginStream,
}

impl SourceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            SourceKind::File => "file",
            SourceKind::HookStream => "hook_stream",
            SourceKind::PluginStream => "plugin_stream",
        }
    }
}

/// One native input.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    pub id: SourceId,
    pub provider: Provider,
    pub kind: SourceKind,
    /// Where the bytes live: an absolute path for files, `hook:<provider>:<session>` for streams.
    pub locator: String,
}

/// A reference to one record: the source and the record's position in it (0-based).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RecordRef {
    pub source: SourceId,
    pub position: u64,
}

impl RecordRef {
    pub fn new(source: SourceId, position: u64) -> Self {
        RecordRef { source, position }
    }
}

impl fmt::Display for RecordRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}#{}", self.source, self.position)
    }
}

/// Half-open byte range `[start, end)` of a record inside a file source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ByteRange {
    pub start: u64,
    pub end: u64,
}

impl ByteRange {
    pub fn len(&self) -> u64 {
        self.end.saturating_sub(self.start)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// BLAKE3 digest of a record's exact bytes (without its line terminator).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Fingerprint(pub [u8; 32]);

impl Fingerprint {
    pub fn of(bytes: &[u8]) -> Self {
        Fingerprint(*blake3::hash(bytes).as_bytes())
    }

    pub fn to_hex(&self) -> String {
        let mut s = String::with_capacity(64);
        for b in self.0 {
            s.push(char::from_digit((b >> 4) as u32, 16).unwrap_or('0'));
            s.push(char::from_digit((b & 0xf) as u32, 16).unwrap_or('0'));
        }
        s
    }

    pub fn from_hex(hex: &str) -> Option<Self> {
        if hex.len() != 64 {
            return None;
        }
        let mut out = [0u8; 32];
        for (i, chunk) in hex.as_bytes().chunks(2).enumerate() {
            let hi = (chunk[0] as char).to_digit(16)?;
            let lo = (chunk[1] as char).to_digit(16)?;
            out[i] = (hi * 16 + lo) as u8;
        }
        Some(Fingerprint(out))
    }
}

impl fmt::Debug for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Fingerprint({})", self.to_hex())
    }
}

impl Serialize for Fingerprint {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_hex())
    }
}

impl<'de> Deserialize<'de> for Fingerprint {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Fingerprint::from_hex(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("invalid fingerprint {s:?}")))
    }
}

/// One complete native payload.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    pub source: SourceId,
    pub position: u64,
    /// Present for file sources only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub byte_range: Option<ByteRange>,
    pub fingerprint: Fingerprint,
    /// The runtime's own timestamp, only when the runtime wrote one into the record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub runtime_timestamp: Option<String>,
}

impl Record {
    pub fn reference(&self) -> RecordRef {
        RecordRef::new(self.source.clone(), self.position)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_ids_serialize_as_plain_strings_and_intern_to_one_allocation() {
        let id = SourceId::new("/home/dev/.claude/projects/a/s.jsonl");
        let json = serde_json::to_string(&RecordRef::new(id.clone(), 3)).unwrap();
        assert_eq!(
            json,
            r#"{"source":"/home/dev/.claude/projects/a/s.jsonl","position":3}"#
        );
        let back: RecordRef = serde_json::from_str(&json).unwrap();
        assert_eq!(back.source, id);
        assert!(!back.source.is_shared_with(&id));
        let mut ids = SourceIds::default();
        let first = ids.intern(&id);
        let second = ids.intern(&back.source);
        assert!(second.is_shared_with(&first));
        assert!(!ids.intern(&SourceId::new("other")).is_shared_with(&first));
    }

    #[test]
    fn fingerprint_hex_round_trips() {
        let fp = Fingerprint::of(b"{\"type\":\"user\"}");
        let hex = fp.to_hex();
        assert_eq!(hex.len(), 64);
        assert_eq!(Fingerprint::from_hex(&hex), Some(fp));
        assert_eq!(Fingerprint::from_hex("zz"), None);
    }

    #[test]
    fn record_serializes_without_absent_fields() {
        let r = Record {
            source: SourceId::new("s1"),
            position: 3,
            byte_range: None,
            fingerprint: Fingerprint::of(b"x"),
            runtime_timestamp: None,
        };
        let json = serde_json::to_value(&r).unwrap();
        assert!(json.get("byte_range").is_none());
        assert!(json.get("runtime_timestamp").is_none());
        assert_eq!(serde_json::from_value::<Record>(json).unwrap(), r);
    }
}
