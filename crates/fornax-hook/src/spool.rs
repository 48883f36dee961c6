//! The spool's write side: an append-only NDJSON file of live payloads (hook and plugin events).
//!
//! Live transports never talk to SQLite. They append one envelope line per native payload:
//!
//! ```json
//! {"fornax_spool":1,"adapter":"claude-hook","received_at":"2026-11-29T10:00:00.123Z","payload":{...}}
//! ```
//!
//! `fornax_ingest::spool` reads it back (and re-exports everything here). Writers hold an
//! exclusive lock while appending, and first terminate a torn last line so a crash mid-write
//! never corrupts the next event.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;

/// Key that marks a spool envelope.
pub const SPOOL_MARKER: &str = "fornax_spool";

/// Default cap on one spool file; beyond it new events are refused (and counted by the caller).
pub const DEFAULT_SPOOL_LIMIT: u64 = 256 * 1024 * 1024;

#[derive(Debug, thiserror::Error)]
pub enum SpoolError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("spool {path} is full ({size} bytes, limit {limit})")]
    Full {
        path: PathBuf,
        size: u64,
        limit: u64,
    },
}

fn io(path: &Path) -> impl Fn(std::io::Error) -> SpoolError + '_ {
    move |source| SpoolError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The spool file for a day: `<dir>/events-YYYY-MM-DD.ndjson`.
pub fn spool_file(dir: &Path, day: &str) -> PathBuf {
    dir.join(format!("events-{day}.ndjson"))
}

/// Bytes held by the spool files in `dir` (0 when it does not exist).
pub fn spool_bytes(dir: &Path) -> u64 {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

/// Builds one envelope line (with its newline). `payload` must be a JSON text; it is embedded
/// as is, so the record's bytes keep the native bytes.
pub fn envelope_line(adapter: &str, received_at: &str, payload_json: &str) -> String {
    let mut s = String::with_capacity(payload_json.len() + 96);
    s.push_str("{\"");
    s.push_str(SPOOL_MARKER);
    s.push_str("\":1,\"adapter\":");
    s.push_str(&Value::String(adapter.to_string()).to_string());
    s.push_str(",\"received_at\":");
    s.push_str(&Value::String(received_at.to_string()).to_string());
    s.push_str(",\"payload\":");
    s.push_str(payload_json.trim());
    s.push_str("}\n");
    s
}

/// Appends lines to a spool file under an exclusive lock, fsyncs, and returns the new size.
pub fn append(path: &Path, lines: &[String], limit: u64, sync: bool) -> Result<u64, SpoolError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    let mut file = OpenOptions::new()
        .create(true)
        .read(true)
        .append(true)
        .open(path)
        .map_err(io(path))?;
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = file.set_permissions(std::fs::Permissions::from_mode(0o600));
    }
    file.lock().map_err(io(path))?;
    let result = append_locked(&mut file, path, lines, limit, sync);
    let _ = file.unlock();
    result
}

fn append_locked(
    file: &mut File,
    path: &Path,
    lines: &[String],
    limit: u64,
    sync: bool,
) -> Result<u64, SpoolError> {
    let size = file.metadata().map_err(io(path))?.len();
    let adding: u64 = lines.iter().map(|l| l.len() as u64).sum();
    if size + adding > limit {
        return Err(SpoolError::Full {
            path: path.to_path_buf(),
            size,
            limit,
        });
    }
    let mut out = Vec::with_capacity(adding as usize + 1);
    if size > 0 {
        // A writer that died mid-line left a torn tail: close it so our line stays whole.
        let mut last = [0u8; 1];
        file.seek(SeekFrom::Start(size - 1)).map_err(io(path))?;
        file.read_exact(&mut last).map_err(io(path))?;
        if last[0] != b'\n' {
            out.push(b'\n');
        }
    }
    for l in lines {
        out.extend_from_slice(l.as_bytes());
    }
    file.write_all(&out).map_err(io(path))?;
    if sync {
        file.sync_data().map_err(io(path))?;
    }
    Ok(size + out.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn torn_tail_is_closed_before_appending() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.ndjson");
        std::fs::write(&path, b"{\"torn\":").unwrap();
        let line = envelope_line("claude-hook", "t", "{\"a\":1}");
        append(
            &path,
            std::slice::from_ref(&line),
            DEFAULT_SPOOL_LIMIT,
            true,
        )
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, format!("{{\"torn\":\n{line}"));
        let v: Value = serde_json::from_str(line.trim()).unwrap();
        assert_eq!(v[SPOOL_MARKER], 1);
        assert_eq!(v["adapter"], "claude-hook");
        assert_eq!(v["payload"]["a"], 1);
    }

    #[test]
    fn envelope_bytes_are_stable() {
        assert_eq!(
            envelope_line("claude-hook", "2026-01-01T00:00:00.000Z", " {\"a\": 1}\n"),
            "{\"fornax_spool\":1,\"adapter\":\"claude-hook\",\"received_at\":\"2026-01-01T00:00:00.000Z\",\"payload\":{\"a\": 1}}\n"
        );
    }

    #[test]
    fn full_spool_refuses() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.ndjson");
        let line = envelope_line("claude-hook", "t", "{}");
        assert!(matches!(
            append(&path, &[line], 10, false),
            Err(SpoolError::Full { .. })
        ));
    }
}
