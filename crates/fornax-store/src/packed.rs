//! Large stored texts kept zstd-compressed in their own column (ADR 0013).
//!
//! A packed column (`text_store.body`, `source.adapter_state`) holds either the text itself
//! (SQLite TEXT, for values shorter than [`MIN_PACKED`] bytes and for rows an older release
//! wrote) or one zstd frame of its UTF-8 bytes (a BLOB). Every connection the store opens
//! has the SQL function `unpacked(x)`, which returns TEXT for either form; the view `text`
//! reads `text_store` through it, so the full-text index (whose external content is that
//! view), `fornax query` and every reader see plain text.
//!
//! # Invariants
//!
//! * A packed value decompresses to exactly the text that was stored: `unpacked(packed(t))`
//!   is `t`; a BLOB that does not decompress to UTF-8 is an error naming its size, never a
//!   different text.
//! * TEXT passes through unchanged, so rows written before packing existed read the same.

use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::types::{Value, ValueRef};
use rusqlite::Connection;

use std::sync::Arc;

use crate::archive::Packer;
use crate::packs::PackDicts;
use crate::StoreError;

/// Below this many bytes a text is kept as it is: a zstd frame's header and the lost
/// literal savings make compression of short texts a wash.
pub(crate) const MIN_PACKED: usize = 256;

/// The column value for `text`: itself when short, else its zstd frame.
pub(crate) fn pack(packer: &mut Packer, text: &str) -> Result<Value, StoreError> {
    if text.len() < MIN_PACKED {
        return Ok(Value::Text(text.to_string()));
    }
    Ok(Value::Blob(packer.compress(text.as_bytes())?))
}

/// The text a packed column holds (`None` for NULL); `dicts` reads frames packed with a
/// trained dictionary (`crate::packs`).
pub(crate) fn unpack(value: ValueRef<'_>, dicts: &PackDicts) -> Result<Option<String>, StoreError> {
    match value {
        ValueRef::Null => Ok(None),
        ValueRef::Text(t) => String::from_utf8(t.to_vec())
            .map(Some)
            .map_err(|e| damaged(t.len(), &e.to_string())),
        ValueRef::Blob(b) => {
            let bytes = decompress(b, dicts).map_err(|e| damaged(b.len(), &e))?;
            String::from_utf8(bytes)
                .map(Some)
                .map_err(|e| damaged(b.len(), &e.to_string()))
        }
        ValueRef::Integer(i) => Ok(Some(i.to_string())),
        ValueRef::Real(r) => Ok(Some(r.to_string())),
    }
}

/// Largest text a frame may say it holds.
const MAX_UNPACKED: u64 = 1 << 30;

thread_local! {
    /// One decompression context per thread, kept: setting one up costs more than
    /// decompressing a typical text (verification reads tool outputs one at a time).
    static DECOMPRESSOR: std::cell::RefCell<Option<zstd::bulk::Decompressor<'static>>> =
        const { std::cell::RefCell::new(None) };
}

fn decompress(frame: &[u8], dicts: &PackDicts) -> Result<Vec<u8>, String> {
    let size = match zstd::zstd_safe::get_frame_content_size(frame) {
        Ok(Some(n)) if n <= MAX_UNPACKED => n as usize,
        Ok(Some(n)) => return Err(format!("it says it holds {n} bytes")),
        Ok(None) | Err(_) => return Err("it is not a zstd frame with its size".into()),
    };
    if let Some(id) = zstd::zstd_safe::get_dict_id_from_frame(frame) {
        return dicts.decompress(id.get(), frame, size);
    }
    DECOMPRESSOR.with(|cell| {
        let mut slot = cell.borrow_mut();
        let ctx = match slot.as_mut() {
            Some(ctx) => ctx,
            None => slot.insert(zstd::bulk::Decompressor::new().map_err(|e| e.to_string())?),
        };
        ctx.decompress(frame, size).map_err(|e| e.to_string())
    })
}

fn damaged(len: usize, detail: &str) -> StoreError {
    StoreError::Archive {
        what: "unpack",
        detail: format!("a packed value of {len} bytes: {detail}"),
    }
}

/// Registers `unpacked(x)` on a connection (every connection the store opens), reading
/// dictionary frames with `dicts`.
pub(crate) fn register(conn: &Connection, dicts: &Arc<PackDicts>) -> rusqlite::Result<()> {
    let flags = FunctionFlags::SQLITE_UTF8
        | FunctionFlags::SQLITE_DETERMINISTIC
        | FunctionFlags::SQLITE_INNOCUOUS;
    let dicts = Arc::clone(dicts);
    conn.create_scalar_function("unpacked", 1, flags, move |ctx: &Context<'_>| {
        unpack(ctx.get_raw(0), &dicts).map_err(|e| rusqlite::Error::UserFunctionError(Box::new(e)))
    })
}

/// Registers `packed(x)` too, which the migration to packed columns uses on rows an older
/// release wrote (writable connections only).
pub(crate) fn register_writer(conn: &Connection, dicts: &Arc<PackDicts>) -> rusqlite::Result<()> {
    register(conn, dicts)?;
    let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
    let packer = std::sync::Mutex::new(Packer::default());
    conn.create_scalar_function("packed", 1, flags, move |ctx: &Context<'_>| {
        let text = match ctx.get_raw(0) {
            ValueRef::Text(t) => std::str::from_utf8(t)
                .map_err(|e| rusqlite::Error::UserFunctionError(Box::new(e)))?
                .to_string(),
            other => return Ok(Value::from(other)),
        };
        let mut packer = packer.lock().unwrap_or_else(|p| p.into_inner());
        pack(&mut packer, &text).map_err(|e| rusqlite::Error::UserFunctionError(Box::new(e)))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_texts_read_back_exactly() {
        let conn = Connection::open_in_memory().unwrap();
        register_writer(&conn, &Default::default()).unwrap();
        let long = "cargo test --workspace: ok. é ✓ ".repeat(40);
        for text in ["", "short", long.as_str()] {
            let (kind, back): (String, String) = conn
                .query_row(
                    "SELECT typeof(packed(?1)), unpacked(packed(?1))",
                    [text],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .unwrap();
            assert_eq!(back, text);
            let expected = if text.len() < MIN_PACKED {
                "text"
            } else {
                "blob"
            };
            assert_eq!(kind, expected);
        }
        let null: Option<String> = conn
            .query_row("SELECT unpacked(NULL)", [], |r| r.get(0))
            .unwrap();
        assert_eq!(null, None);
    }

    #[test]
    fn a_damaged_blob_is_an_error_not_a_text() {
        let conn = Connection::open_in_memory().unwrap();
        register(&conn, &Default::default()).unwrap();
        let err = conn
            .query_row("SELECT unpacked(x'00112233')", [], |r| {
                r.get::<_, String>(0)
            })
            .unwrap_err();
        assert!(err.to_string().contains("4 bytes"), "{err}");
    }
    use crate::packs::BACK_TO_V10;
    use crate::{QueryLimits, SourceCursor, SourceSpec, Store};
    use fornax_redact::{RedactionCounts, Redactor};
    use fornax_types::*;

    fn item(key: &str, pos: u64, role: Role, text: &str) -> IngestMessage {
        IngestMessage::Item(Item {
            session: SessionRef::new(Provider::Codex, "sess-pack"),
            key: key.into(),
            loop_position: Some(0),
            at: Some(format!("2026-01-01T00:00:{pos:02}Z")),
            semantic: Semantic::new(
                role,
                SemanticValue::Text(TextValue::full(text)),
                EvidenceStrength::Structural,
            ),
            records: vec![RecordRef::new(SourceId::new("src"), pos)],
        })
    }

    /// Writes a session of short and long texts (answers, reasoning, a tool output) with the
    /// archive off (`add_record`: no copies), and an adapter checkpoint.
    fn write_fixture(store: &mut Store) {
        let texts = [
            (Role::HumanRequest, "fix the ledger rounding".to_string()),
            (
                Role::AgentReasoning,
                "Ledger rounding: the café total is off by one cent; ".repeat(12),
            ),
            (
                Role::ToolOutput,
                "test ledger::round ... ok\ntest ledger::carry ... FAILED\n".repeat(30),
            ),
            (
                Role::AgentFinalAnswer,
                format!(
                    "Fixed the ledger rounding. Ünïcode ✓ {}",
                    "and more. ".repeat(40)
                ),
            ),
        ];
        let spec = SourceSpec::codex_file("src");
        let redactor = Redactor::new();
        let mut w = store.begin_source(&spec, false).unwrap();
        for (i, (role, text)) in texts.iter().enumerate() {
            let i = i as u64;
            w.add_record(
                i,
                Some(ByteRange {
                    start: i * 100,
                    end: i * 100 + 99,
                }),
                &Fingerprint::of(text.as_bytes()),
                None,
            )
            .unwrap();
            let message = item(&format!("k{i}"), i, *role, text);
            w.apply(&redactor.redact(message, &mut RedactionCounts::default()))
                .unwrap();
        }
        let state = serde_json::json!({"calls": vec!["call_ledger_0001"; 40]});
        w.finish(
            &SourceCursor {
                offset: 400,
                ..Default::default()
            },
            4,
            Some(&redactor.redact(state, &mut RedactionCounts::default())),
            0,
            0,
            0,
            "now",
        )
        .unwrap();
        store.flush_search_index().unwrap();
    }

    /// Everything a reader sees of the texts: search hits (indexed, short and tool-output
    /// searches), `show`, `query` on `text`, and the checkpoint.
    fn observed(store: &Store) -> String {
        let mut out = String::new();
        for (term, outputs) in [
            ("ledger roun", false),
            ("café", false),
            ("ünïcode", false),
            ("on", false),
            ("carry ... FAILED", true),
            ("LEDGER", false),
        ] {
            let hits = store.search(term, 50, outputs).unwrap();
            out += &format!("{term}: {}\n", serde_json::to_string(&hits).unwrap());
        }
        let id = store
            .query("SELECT id FROM session", QueryLimits::default())
            .unwrap()
            .rows[0][0]
            .as_i64()
            .unwrap();
        out += &serde_json::to_string(&store.session_detail(id).unwrap()).unwrap();
        let q = store
            .query(
                "SELECT id, hash, body, indexed FROM text ORDER BY id",
                QueryLimits::default(),
            )
            .unwrap();
        out += &serde_json::to_string(&q.rows).unwrap();
        out += &format!(
            "{:?}",
            store.source_state("src").unwrap().unwrap().adapter_state
        );
        out
    }

    fn fts_is_consistent(conn: &Connection) {
        conn.execute(
            // Without a rank: the index holds searchable texts only, not every row of `text`.
            "INSERT INTO text_fts (text_fts) VALUES ('integrity-check')",
            [],
        )
        .unwrap();
    }

    fn kinds(conn: &Connection) -> Vec<String> {
        let mut stmt = conn
            .prepare("SELECT typeof(body) FROM text_store ORDER BY id")
            .unwrap();
        let rows = stmt.query_map([], |r| r.get(0)).unwrap();
        rows.collect::<Result<_, _>>().unwrap()
    }

    /// A home written by the previous schema (8: plain bodies in the table `text`) upgrades to
    /// packed texts with the same ids, a consistent full-text index and the same search hits,
    /// `show`, `query` results and checkpoint. The archive is off throughout: texts are kept
    /// in SQLite either way.
    #[test]
    fn a_schema_8_home_packs_its_texts_and_reads_the_same() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("fornax.db");
        let mut store = Store::open(&path).unwrap();
        write_fixture(&mut store);
        let fresh = observed(&store);
        assert!(fresh.contains("Ledger rounding: the café"), "{fresh}");
        assert!(
            !fresh.contains(": []"),
            "every search finds something: {fresh}"
        );
        drop(store);

        // The same home as schema 8 wrote it.
        {
            let conn = Connection::open(&path).unwrap();
            register(&conn, &Default::default()).unwrap();
            assert_eq!(kinds(&conn), ["text", "blob", "blob", "blob"]);
            conn.execute_batch(&format!(
                "{BACK_TO_V10}
                     DROP VIEW text;
                     ALTER TABLE text_store RENAME TO text;
                     UPDATE text SET body = unpacked(body);
                     DROP TABLE archive_dict;
                     UPDATE source SET adapter_state = unpacked(adapter_state);
                     DROP TRIGGER usage_pending_delete;
                     DROP TABLE usage_pending;
                     DROP TABLE usage_hour;
                     PRAGMA user_version = 8;"
            ))
            .unwrap();
            fts_is_consistent(&conn);
            let plain: i64 = conn
                .query_row(
                    "SELECT COUNT(*) FROM text WHERE typeof(body) = 'text'",
                    [],
                    |r| r.get(0),
                )
                .unwrap();
            assert_eq!(plain, 4);
        }

        let store = Store::open(&path).unwrap();
        assert_eq!(observed(&store), fresh);
        drop(store);
        let conn = Connection::open(&path).unwrap();
        register(&conn, &Default::default()).unwrap();
        assert_eq!(kinds(&conn), ["text", "blob", "blob", "blob"]);
        let state: String = conn
            .query_row("SELECT typeof(adapter_state) FROM source", [], |r| r.get(0))
            .unwrap();
        assert_eq!(state, "blob");
        fts_is_consistent(&conn);
    }
}
