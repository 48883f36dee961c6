//! The per-endpoint cursor: the fingerprint of every span an endpoint accepted, saved after
//! every accepted request (write to a temporary file, then rename), so an interrupted export
//! resumes without sending accepted spans again.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::ids::hex;
use crate::ExportError;

#[derive(Debug, Serialize, Deserialize)]
struct Stored {
    target: String,
    /// span id (hex) → fingerprint of the span as sent (hex).
    sent: BTreeMap<String, String>,
}

#[derive(Debug)]
pub struct Cursor {
    path: PathBuf,
    stored: Stored,
}

impl Cursor {
    fn path_for(home: &Path, target: &str) -> PathBuf {
        let name = hex(&blake3::hash(target.as_bytes()).as_bytes()[..8]);
        home.join("export")
            .join("otlp")
            .join(format!("{name}.json"))
    }

    pub fn empty(home: &Path, target: &str) -> Cursor {
        Cursor {
            path: Self::path_for(home, target),
            stored: Stored {
                target: target.to_string(),
                sent: BTreeMap::new(),
            },
        }
    }

    pub fn load(home: &Path, target: &str) -> Result<Cursor, ExportError> {
        let mut c = Cursor::empty(home, target);
        match std::fs::read(&c.path) {
            Ok(bytes) => {
                c.stored = serde_json::from_slice(&bytes).map_err(|e| ExportError::Cursor {
                    path: c.path.clone(),
                    detail: e.to_string(),
                })?;
                Ok(c)
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(c),
            Err(e) => Err(ExportError::io(&c.path, e)),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn is_sent(&self, span_id: &[u8], fp: &[u8; 16]) -> bool {
        self.stored.sent.get(&hex(span_id)).map(String::as_str) == Some(hex(fp).as_str())
    }

    pub fn mark(&mut self, span_id: &[u8], fp: [u8; 16]) {
        self.stored.sent.insert(hex(span_id), hex(&fp));
    }

    pub fn len(&self) -> usize {
        self.stored.sent.len()
    }

    pub fn is_empty(&self) -> bool {
        self.stored.sent.is_empty()
    }

    pub fn save(&self) -> Result<(), ExportError> {
        let dir = self.path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir).map_err(|e| ExportError::io(dir, e))?;
        let tmp = self.path.with_extension("json.tmp");
        let body = serde_json::to_vec(&self.stored).map_err(|e| ExportError::Cursor {
            path: self.path.clone(),
            detail: e.to_string(),
        })?;
        std::fs::write(&tmp, body).map_err(|e| ExportError::io(&tmp, e))?;
        std::fs::rename(&tmp, &self.path).map_err(|e| ExportError::io(&self.path, e))
    }
}
