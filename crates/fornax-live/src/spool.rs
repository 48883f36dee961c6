//! The spool: append-only NDJSON segments of live payloads (hook and plugin events), one per
//! day, in `<home>/spool/events-YYYY-MM-DD.ndjson`.
//!
//! Live transports never talk to SQLite. A segment starts with a header line, then holds one
//! envelope line per native payload:
//!
//! ```json
//! {"fornax_spool_segment":1,"day":"2026-11-29","created_at":"2026-11-29T10:00:00.123Z"}
//! {"fornax_spool":1,"adapter":"claude-hook","received_at":"2026-11-29T10:00:00.123Z","payload":{...}}
//! ```
//!
//! Readers recognise a segment by its file name and its header (or, for segments written before
//! headers existed, by the envelope on its first line), never by sniffing its contents, so no
//! payload can hide a segment. Writers hold an exclusive lock while appending, first terminate a
//! torn last line (so a crash mid-write never corrupts the next event), and re-open a segment
//! that retention unlinked while they waited for the lock.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::json;

/// Key that marks an envelope line.
pub const SPOOL_MARKER: &str = "fornax_spool";
/// Key that marks a segment's header line.
pub const HEADER_MARKER: &str = "fornax_spool_segment";
/// Version of the envelope and header formats.
pub const FORMAT: u32 = 1;

/// Default cap on one segment; beyond it new events are refused (and logged by the caller).
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

/// The segment for a day: `<dir>/events-YYYY-MM-DD.ndjson`.
pub fn spool_file(dir: &Path, day: &str) -> PathBuf {
    dir.join(format!("events-{day}.ndjson"))
}

/// The day of a segment, from its file name (`events-YYYY-MM-DD.ndjson`).
pub fn segment_day(path: &Path) -> Option<&str> {
    let name = path.file_name()?.to_str()?;
    let day = name.strip_prefix("events-")?.strip_suffix(".ndjson")?;
    let b = day.as_bytes();
    let shaped = b.len() == 10
        && b[4] == b'-'
        && b[7] == b'-'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
    shaped.then_some(day)
}

/// Whether a file is a spool segment: its name is a segment's and its first line is a
/// segment header or (segments written before headers) an envelope, or it sits in a folder
/// named `spool`.
pub fn is_segment(path: &Path, first_line: &[u8]) -> bool {
    if segment_day(path).is_none() {
        return false;
    }
    let in_spool_dir = path
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|n| n == "spool");
    in_spool_dir
        || serde_json::from_slice::<Value>(first_line)
            .is_ok_and(|v| is_header(&v) || v.get(SPOOL_MARKER).is_some())
}

/// Bytes held by the segments in `dir` (0 when it does not exist).
pub fn spool_bytes(dir: &Path) -> u64 {
    segments(dir).iter().map(|s| s.bytes).sum()
}

/// One segment on disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub path: PathBuf,
    pub day: String,
    pub bytes: u64,
}

/// The segments in `dir`, oldest day first.
pub fn segments(dir: &Path) -> Vec<Segment> {
    let mut out: Vec<Segment> = std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter_map(|e| {
                    let path = e.path();
                    let day = segment_day(&path)?.to_string();
                    let bytes = e.metadata().ok()?.len();
                    Some(Segment { path, day, bytes })
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort_by(|a, b| a.day.cmp(&b.day));
    out
}

/// The header line (with its newline) of a new segment.
pub fn header_line(day: &str, created_at: &str) -> String {
    format!(
        "{{\"{HEADER_MARKER}\":{FORMAT},\"day\":{},\"created_at\":{}}}\n",
        Value::String(day.to_string()),
        Value::String(created_at.to_string())
    )
}

/// Builds one envelope line (with its newline). `payload_json` must be one JSON text on one
/// line (see [`json::flatten_line_breaks`]); it is embedded as is, so the record's bytes keep
/// the native bytes.
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

/// Appends lines to a segment under an exclusive lock, fsyncs, and returns the new size. A new
/// segment starts with its header.
pub fn append(path: &Path, lines: &[String], limit: u64, sync: bool) -> Result<u64, SpoolError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    // Retention may unlink a closed segment while we wait for its lock: then open it again
    // (a new file), so the lines never go to an unlinked inode.
    for _ in 0..8 {
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
        if unlinked(&file) {
            let _ = file.unlock();
            continue;
        }
        let result = append_locked(&mut file, path, lines, limit, sync);
        let _ = file.unlock();
        return result;
    }
    Err(SpoolError::Io {
        path: path.to_path_buf(),
        source: std::io::Error::other("the segment kept being removed while appending"),
    })
}

fn unlinked(file: &File) -> bool {
    use std::os::unix::fs::MetadataExt;
    file.metadata().map(|m| m.nlink() == 0).unwrap_or(false)
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
    let mut out = Vec::with_capacity(adding as usize + 128);
    if size == 0 {
        let day = segment_day(path).unwrap_or("unknown");
        out.extend_from_slice(header_line(day, &crate::clock::now_rfc3339()).as_bytes());
    } else {
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

/// A parsed envelope, borrowed from its line's value.
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

/// Whether `value` is a segment header.
pub fn is_header(value: &Value) -> bool {
    value.get(HEADER_MARKER).is_some()
}

/// One line of a segment, read back.
#[derive(Debug, Clone, PartialEq)]
pub enum SpoolLine {
    Header { day: Option<String> },
    Event(Event),
}

/// An envelope's contents.
#[derive(Debug, Clone, PartialEq)]
pub struct Event {
    pub adapter: String,
    pub received_at: Option<String>,
    pub payload: Value,
}

/// Why a segment line could not be read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LineError {
    #[error("not JSON")]
    NotJson,
    #[error("JSON, but neither a segment header nor an envelope")]
    NotSpool,
}

/// Reads one line of a segment (without its newline): the line and how many lone surrogate
/// escapes were repaired to read it (see [`json::parse`]).
pub fn read_line(bytes: &[u8]) -> Result<(SpoolLine, u32), LineError> {
    let parsed = json::parse(bytes).map_err(|_| LineError::NotJson)?;
    let mut value = parsed.value;
    if is_header(&value) {
        let day = value.get("day").and_then(Value::as_str).map(str::to_string);
        return Ok((SpoolLine::Header { day }, parsed.repaired));
    }
    let (adapter, received_at) = match as_envelope(&value) {
        Some(env) => (env.adapter.to_string(), env.received_at.map(str::to_string)),
        None => return Err(LineError::NotSpool),
    };
    let payload = value
        .as_object_mut()
        .and_then(|o| o.remove("payload"))
        .unwrap_or(Value::Null);
    Ok((
        SpoolLine::Event(Event {
            adapter,
            received_at,
            payload,
        }),
        parsed.repaired,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_segment_starts_with_its_header_and_a_torn_tail_is_closed() {
        let dir = tempfile::tempdir().unwrap();
        let path = spool_file(dir.path(), "2026-01-02");
        let line = envelope_line("claude-hook", "t", "{\"a\":1}");
        append(
            &path,
            std::slice::from_ref(&line),
            DEFAULT_SPOOL_LIMIT,
            true,
        )
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let first = text.lines().next().unwrap();
        assert!(matches!(
            read_line(first.as_bytes()),
            Ok((SpoolLine::Header { day: Some(ref d) }, 0)) if d == "2026-01-02"
        ));
        assert!(is_segment(&path, first.as_bytes()));
        // A writer died mid-line: the next append closes the torn line first.
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"torn\":").unwrap();
        append(
            &path,
            std::slice::from_ref(&line),
            DEFAULT_SPOOL_LIMIT,
            true,
        )
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.ends_with(&format!("{{\"torn\":\n{line}")), "{text}");
        let (read, _) = read_line(line.trim().as_bytes()).unwrap();
        let SpoolLine::Event(event) = read else {
            panic!("an event")
        };
        assert_eq!(event.adapter, "claude-hook");
        assert_eq!(event.payload["a"], 1);
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
        let path = dir.path().join("events-2026-01-01.ndjson");
        let line = envelope_line("claude-hook", "t", "{}");
        assert!(matches!(
            append(&path, &[line], 10, false),
            Err(SpoolError::Full { .. })
        ));
    }

    #[test]
    fn segments_are_known_by_name_and_header() {
        let dir = tempfile::tempdir().unwrap();
        let elsewhere = dir.path().join("events-2026-01-01.ndjson");
        let header = header_line("2026-01-01", "t");
        let envelope = envelope_line("x", "t", "{}");
        assert!(is_segment(&elsewhere, header.trim().as_bytes()));
        assert!(is_segment(&elsewhere, envelope.trim().as_bytes()));
        assert!(!is_segment(&elsewhere, b"{\"a\":1}"));
        assert!(!is_segment(
            &dir.path().join("notes.ndjson"),
            header.trim().as_bytes()
        ));
        // In a spool folder the name is enough: a poisoned first line hides nothing.
        let spool = dir.path().join("spool").join("events-2026-01-01.ndjson");
        assert!(is_segment(&spool, b"  \"tool_input\": {"));
        assert_eq!(segment_day(Path::new("events-2026-13-xx.ndjson")), None);
        assert_eq!(
            segment_day(Path::new("events-2026-12-31.ndjson")),
            Some("2026-12-31")
        );
    }

    #[test]
    fn lines_read_back_with_repairs_counted() {
        let line = envelope_line("claude-hook", "t", r#"{"prompt":"cut \ud83d"}"#);
        let (read, repaired) = read_line(line.trim().as_bytes()).unwrap();
        assert_eq!(repaired, 1);
        let SpoolLine::Event(e) = read else {
            panic!("an event")
        };
        assert_eq!(e.payload["prompt"], "cut \u{FFFD}");
        assert_eq!(read_line(b"{\"a\":1}"), Err(LineError::NotSpool));
        assert_eq!(read_line(b"  \"x\": 1,"), Err(LineError::NotJson));
    }

    #[test]
    fn an_append_never_lands_in_an_unlinked_segment() {
        let dir = tempfile::tempdir().unwrap();
        let path = spool_file(dir.path(), "2026-01-03");
        let line = envelope_line("x", "t", "{}");
        append(
            &path,
            std::slice::from_ref(&line),
            DEFAULT_SPOOL_LIMIT,
            false,
        )
        .unwrap();
        // Retention holds the lock and unlinks the segment while a writer waits.
        let held = OpenOptions::new().read(true).open(&path).unwrap();
        held.lock().unwrap();
        let writer = {
            let path = path.clone();
            let line = line.clone();
            std::thread::spawn(move || append(&path, &[line], DEFAULT_SPOOL_LIMIT, false))
        };
        std::thread::sleep(std::time::Duration::from_millis(100));
        std::fs::remove_file(&path).unwrap();
        held.unlock().unwrap();
        writer.join().unwrap().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text.lines().count(),
            2,
            "a fresh segment: header and the line"
        );
    }
}
