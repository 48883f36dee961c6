//! Reading another program's SQLite database (for example opencode's `opencode.db`) as JSON
//! documents, as a [`DocumentDatabase`] describes them.
//!
//! The database is read without writing anything, to it or beside it: SQLite's read-only
//! mode still writes a WAL database's shared-memory index (`-shm`), so a database whose WAL
//! holds no frames is opened immutable, and one whose WAL holds frames (they are part of its
//! data) is read from a private copy of the two files. Its schema is checked against the
//! description before any row is read: a missing table or required column is an
//! [`StoreError::UnknownSchema`] naming the file and what is missing. All reads of one
//! [`ForeignDocuments`] happen in one read transaction, so a database being written meanwhile
//! is seen as one consistent snapshot.

use std::path::{Path, PathBuf};

use fornax_types::{DocumentDatabase, DocumentTable};
use rusqlite::types::ValueRef;
use rusqlite::{Connection, OpenFlags};
use serde_json::{Map, Value};

use crate::StoreError;

/// One table, checked: the columns to select, in order (key, then body, then fields present).
#[derive(Debug)]
struct Resolved {
    spec: &'static DocumentTable,
    /// `(column, field)` pairs present in this database.
    fields: Vec<(&'static str, &'static str)>,
    select: String,
}

/// A foreign database whose rows are read as documents.
#[derive(Debug)]
pub struct ForeignDocuments {
    conn: Connection,
    path: PathBuf,
    tables: Vec<Resolved>,
    /// The private copy read instead of a database whose WAL holds frames.
    _copy: Option<tempfile::TempDir>,
}

/// `path` as an SQLite URI path: every byte outside the unreserved set percent-encoded.
fn uri_path(path: &Path) -> String {
    use std::os::unix::ffi::OsStrExt;
    let mut out = String::new();
    for &b in path.as_os_str().as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// Size and modification time of a file, to see whether it changed while it was copied.
fn stamp(path: &Path) -> Option<(u64, std::time::SystemTime)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_os_string();
    p.push(suffix);
    PathBuf::from(p)
}

/// Opens `path` so that nothing is written to it or beside it (see the module docs).
fn open_untouched(path: &Path) -> Result<(Connection, Option<tempfile::TempDir>), StoreError> {
    let wal = with_suffix(path, "-wal");
    let frames = stamp(&wal).is_some_and(|(len, _)| len > 0);
    if !frames {
        let uri = format!("file:{}?mode=ro&immutable=1", uri_path(path));
        let conn = Connection::open_with_flags(
            uri,
            OpenFlags::SQLITE_OPEN_READ_ONLY
                | OpenFlags::SQLITE_OPEN_URI
                | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|e| StoreError::open(path, e))?;
        return Ok((conn, None));
    }
    // The database and its WAL, copied as one consistent pair (a writer may checkpoint
    // meanwhile: the copy is retried until neither file changed under it).
    let io = |e: std::io::Error| StoreError::io(path, e);
    let dir = tempfile::Builder::new()
        .prefix("fornax-foreign-")
        .tempdir()
        .map_err(io)?;
    let copy = dir.path().join("copy.db");
    for _ in 0..3 {
        let before = (stamp(path), stamp(&wal));
        std::fs::copy(path, &copy).map_err(io)?;
        std::fs::copy(&wal, with_suffix(&copy, "-wal")).map_err(io)?;
        if (stamp(path), stamp(&wal)) == before {
            break;
        }
    }
    let conn = Connection::open_with_flags(
        &copy,
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .map_err(|e| StoreError::open(path, e))?;
    Ok((conn, Some(dir)))
}

fn quoted(name: &str) -> String {
    format!("\"{}\"", name.replace('"', "\"\""))
}

impl ForeignDocuments {
    /// Opens `path` read-only and checks its schema against `spec`.
    pub fn open(path: &Path, spec: &'static DocumentDatabase) -> Result<Self, StoreError> {
        let (conn, copy) = open_untouched(path)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        let unknown = |detail: String| StoreError::UnknownSchema {
            path: path.to_path_buf(),
            detail,
        };
        let mut tables = Vec::new();
        for table in spec.tables {
            let columns = table_columns(&conn, table.name)
                .map_err(|e| unknown(format!("cannot read the schema: {e}")))?;
            if columns.is_empty() {
                return Err(unknown(format!("no table `{}`", table.name)));
            }
            let needed = std::iter::once(table.key)
                .chain(table.body)
                .chain(table.required.iter().copied());
            for column in needed {
                if !columns.iter().any(|c| c == column) {
                    return Err(unknown(format!(
                        "table `{}` has no column `{column}` (it has: {})",
                        table.name,
                        columns.join(", ")
                    )));
                }
            }
            let fields: Vec<_> = table
                .fields
                .iter()
                .copied()
                .filter(|(c, _)| columns.iter().any(|have| have == c))
                .collect();
            let mut selected = vec![quoted(table.key)];
            selected.extend(table.body.map(quoted));
            selected.extend(fields.iter().map(|(c, _)| quoted(c)));
            let select = format!("SELECT {} FROM {}", selected.join(", "), quoted(table.name));
            tables.push(Resolved {
                spec: table,
                fields,
                select,
            });
        }
        // One snapshot for everything read through this handle.
        conn.execute_batch("BEGIN")?;
        Ok(ForeignDocuments {
            conn,
            path: path.to_path_buf(),
            tables,
            _copy: copy,
        })
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Calls `each(member, document bytes)` for every row of every table, where `member` is
    /// `<table>/<key>`. Rows whose key is not text or a number are skipped.
    pub fn for_each(&self, mut each: impl FnMut(String, Vec<u8>)) -> Result<(), StoreError> {
        for table in &self.tables {
            let mut stmt = self.conn.prepare(&table.select)?;
            let mut rows = stmt.query([])?;
            while let Some(row) = rows.next()? {
                let Some(key) = key_text(row.get_ref(0)?) else {
                    continue;
                };
                let doc = document(table, row)?;
                each(format!("{}/{key}", table.spec.name), doc);
            }
        }
        Ok(())
    }

    /// The document of one member (`<table>/<key>`), or `None` when the row is gone.
    pub fn document(&self, member: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let Some((name, key)) = member.split_once('/') else {
            return Ok(None);
        };
        let Some(table) = self.tables.iter().find(|t| t.spec.name == name) else {
            return Ok(None);
        };
        let sql = format!("{} WHERE {} = ?1", table.select, quoted(table.spec.key));
        let mut stmt = self.conn.prepare_cached(&sql)?;
        let mut rows = stmt.query([key])?;
        match rows.next()? {
            Some(row) => Ok(Some(document(table, row)?)),
            None => Ok(None),
        }
    }
}

fn table_columns(conn: &Connection, table: &str) -> rusqlite::Result<Vec<String>> {
    let mut stmt = conn.prepare(&format!("PRAGMA table_info({})", quoted(table)))?;
    let names = stmt.query_map([], |r| r.get::<_, String>(1))?;
    names.collect()
}

fn key_text(v: ValueRef<'_>) -> Option<String> {
    match v {
        ValueRef::Text(t) => Some(String::from_utf8_lossy(t).into_owned()),
        ValueRef::Integer(i) => Some(i.to_string()),
        _ => None,
    }
}

fn json_of(v: ValueRef<'_>) -> Option<Value> {
    match v {
        ValueRef::Null | ValueRef::Blob(_) => None,
        ValueRef::Integer(i) => Some(Value::from(i)),
        ValueRef::Real(f) => serde_json::Number::from_f64(f).map(Value::Number),
        ValueRef::Text(t) => Some(Value::String(String::from_utf8_lossy(t).into_owned())),
    }
}

/// Sets `field` (dotted: `time.created`) in `obj`, creating objects on the way; a non-object
/// in the way is replaced, as the column is the authority.
fn set_field(obj: &mut Map<String, Value>, field: &str, value: Value) {
    match field.split_once('.') {
        None => {
            obj.insert(field.to_string(), value);
        }
        Some((head, rest)) => {
            let slot = obj
                .entry(head.to_string())
                .or_insert_with(|| Value::Object(Map::new()));
            if !slot.is_object() {
                *slot = Value::Object(Map::new());
            }
            if let Value::Object(inner) = slot {
                set_field(inner, rest, value);
            }
        }
    }
}

/// Builds one row's document. A body that is not a JSON object is returned as its own bytes,
/// so the reader counts it as malformed rather than inventing a document.
fn document(table: &Resolved, row: &rusqlite::Row<'_>) -> Result<Vec<u8>, StoreError> {
    let mut next = 1;
    let mut obj = Map::new();
    if table.spec.body.is_some() {
        let raw = row.get_ref(next)?;
        next += 1;
        let text = match raw {
            ValueRef::Text(t) | ValueRef::Blob(t) => t,
            _ => b"",
        };
        match serde_json::from_slice::<Value>(text) {
            Ok(Value::Object(body)) => obj = body,
            _ => return Ok(text.to_vec()),
        }
    }
    for (offset, (_, field)) in table.fields.iter().enumerate() {
        if let Some(v) = json_of(row.get_ref(next + offset)?) {
            set_field(&mut obj, field, v);
        }
    }
    serde_json::to_vec(&Value::Object(obj)).map_err(|e| StoreError::json("foreign document", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    static SPEC: DocumentDatabase = DocumentDatabase {
        file_names: &["app.db"],
        tables: &[
            DocumentTable {
                name: "session",
                key: "id",
                body: None,
                fields: &[
                    ("id", "id"),
                    ("title", "title"),
                    ("time_created", "time.created"),
                ],
                required: &["title"],
            },
            DocumentTable {
                name: "part",
                key: "id",
                body: Some("data"),
                fields: &[("id", "id"), ("message_id", "messageID"), ("slug", "slug")],
                required: &["message_id"],
            },
        ],
    };

    fn make(dir: &Path, sql: &str) -> PathBuf {
        let path = dir.join("app.db");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(sql).unwrap();
        path
    }

    #[test]
    fn rows_become_documents_with_their_ids_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = make(
            dir.path(),
            "CREATE TABLE session (id TEXT PRIMARY KEY, title TEXT, time_created INTEGER);
             CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, data TEXT);
             INSERT INTO session VALUES ('s1', 'T', 5);
             INSERT INTO part VALUES ('p1', 'm1', '{\"type\":\"text\",\"text\":\"hi\"}');
             INSERT INTO part VALUES ('p2', 'm1', 'not json');",
        );
        let db = ForeignDocuments::open(&path, &SPEC).unwrap();
        let mut seen = Vec::new();
        db.for_each(|m, d| seen.push((m, String::from_utf8(d).unwrap())))
            .unwrap();
        assert_eq!(
            seen,
            vec![
                (
                    "session/s1".to_string(),
                    r#"{"id":"s1","title":"T","time":{"created":5}}"#.to_string()
                ),
                (
                    "part/p1".to_string(),
                    r#"{"type":"text","text":"hi","id":"p1","messageID":"m1"}"#.to_string()
                ),
                ("part/p2".to_string(), "not json".to_string()),
            ]
        );
        let one = db.document("part/p1").unwrap().unwrap();
        assert_eq!(one, seen[1].1.as_bytes());
        assert!(db.document("part/nope").unwrap().is_none());
        assert!(db.document("nosuch/p1").unwrap().is_none());
    }

    /// Every file beside `dir`'s database: name, bytes and modification time.
    fn files(dir: &Path) -> Vec<(String, Vec<u8>, std::time::SystemTime)> {
        let mut out: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| {
                let p = e.unwrap().path();
                let meta = std::fs::metadata(&p).unwrap();
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&p).unwrap(),
                    meta.modified().unwrap(),
                )
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn a_wal_database_is_read_whole_and_left_untouched() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("app.db");
        // A writer that keeps its WAL: the last row lives only in the `-wal` file.
        let writer = Connection::open(&path).unwrap();
        writer
            .execute_batch(
                "PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0;
                 CREATE TABLE session (id TEXT PRIMARY KEY, title TEXT, time_created INTEGER);
                 CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, data TEXT);
                 INSERT INTO session VALUES ('s1', 'in the WAL', 5);",
            )
            .unwrap();
        assert!(
            std::fs::metadata(dir.path().join("app.db-wal"))
                .unwrap()
                .len()
                > 0
        );
        let before = files(dir.path());
        let db = ForeignDocuments::open(&path, &SPEC).unwrap();
        let mut seen = Vec::new();
        db.for_each(|m, _| seen.push(m)).unwrap();
        assert_eq!(seen, ["session/s1"]);
        drop(db);
        assert_eq!(
            files(dir.path()),
            before,
            "nothing written beside the database"
        );

        // Once checkpointed and closed, the WAL is empty and the file is opened as it is.
        writer
            .execute_batch("PRAGMA wal_checkpoint(TRUNCATE);")
            .unwrap();
        drop(writer);
        let before = files(dir.path());
        let db = ForeignDocuments::open(&path, &SPEC).unwrap();
        assert!(db.document("session/s1").unwrap().is_some());
        drop(db);
        assert_eq!(files(dir.path()), before);
    }

    #[test]
    fn unknown_schemas_are_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = make(
            dir.path(),
            "CREATE TABLE session (id TEXT PRIMARY KEY, title TEXT);
             CREATE TABLE part (id TEXT PRIMARY KEY, data TEXT);",
        );
        let err = ForeignDocuments::open(&path, &SPEC)
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown schema"), "{err}");
        assert!(
            err.contains("table `part` has no column `message_id`"),
            "{err}"
        );
        assert!(err.contains("app.db"), "{err}");

        let other = tempfile::tempdir().unwrap();
        let path = make(other.path(), "CREATE TABLE unrelated (x);");
        let err = ForeignDocuments::open(&path, &SPEC)
            .unwrap_err()
            .to_string();
        assert!(err.contains("no table `session`"), "{err}");

        let garbage = other.path().join("garbage.db");
        std::fs::write(&garbage, b"this is not a database at all, just text").unwrap();
        let err = ForeignDocuments::open(&garbage, &SPEC)
            .unwrap_err()
            .to_string();
        assert!(err.contains("garbage.db"), "{err}");
    }

    #[test]
    fn never_writes() {
        let dir = tempfile::tempdir().unwrap();
        let path = make(
            dir.path(),
            "CREATE TABLE session (id TEXT PRIMARY KEY, title TEXT);
             CREATE TABLE part (id TEXT PRIMARY KEY, message_id TEXT, data TEXT);",
        );
        let before = std::fs::read(&path).unwrap();
        let db = ForeignDocuments::open(&path, &SPEC).unwrap();
        assert!(db.conn.execute("DELETE FROM session", []).is_err());
        drop(db);
        assert_eq!(std::fs::read(&path).unwrap(), before);
    }
}
