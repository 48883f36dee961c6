//! Schema and migrations.
//!
//! The schema version lives in `PRAGMA user_version`. Migrations are applied in order, each in
//! its own transaction; a database written by a newer Fornax is refused, never downgraded.

use rusqlite::Connection;

use crate::StoreError;

/// Every migration, in order. Index `i` migrates version `i` to `i + 1`.
pub(crate) const MIGRATIONS: &[&str] = &[V1, V2, V3, V4, V5, V6, V7, V8, V9, V10, V11];

pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

const V1: &str = r#"
CREATE TABLE source (
    id              INTEGER PRIMARY KEY,
    source_key      TEXT NOT NULL UNIQUE,
    provider        TEXT NOT NULL,
    kind            TEXT NOT NULL,
    locator         TEXT NOT NULL,
    adapter         TEXT NOT NULL,
    status          TEXT NOT NULL DEFAULT 'active',
    inode           INTEGER,
    size            INTEGER,
    mtime_ns        INTEGER,
    prefix_len      INTEGER,
    prefix_fp       BLOB,
    cursor          INTEGER NOT NULL DEFAULT 0,
    next_position   INTEGER NOT NULL DEFAULT 0,
    adapter_state   TEXT,
    session_hint    TEXT,
    malformed       INTEGER NOT NULL DEFAULT 0,
    oversized       INTEGER NOT NULL DEFAULT 0,
    defects         INTEGER NOT NULL DEFAULT 0,
    last_error      TEXT,
    updated_at      TEXT
);

CREATE TABLE record (
    id              INTEGER PRIMARY KEY,
    source_id       INTEGER NOT NULL REFERENCES source(id),
    position        INTEGER NOT NULL,
    byte_start      INTEGER,
    byte_end        INTEGER,
    fingerprint     BLOB NOT NULL,
    runtime_ts      TEXT,
    UNIQUE (source_id, position)
);

CREATE TABLE session (
    id                  INTEGER PRIMARY KEY,
    provider            TEXT NOT NULL,
    native_id           TEXT NOT NULL,
    cwd                 TEXT,
    name                TEXT,
    created_at          TEXT,
    forked_from         TEXT,
    parent_native_id    TEXT,
    parent_call_id      TEXT,
    agent_id            TEXT,
    agent_type          TEXT,
    runtime_version     TEXT,
    identity_record_id  INTEGER,
    last_activity       TEXT,
    UNIQUE (provider, native_id)
);
CREATE INDEX session_parent ON session(provider, parent_native_id);

CREATE TABLE session_source (
    session_id  INTEGER NOT NULL REFERENCES session(id),
    source_id   INTEGER NOT NULL REFERENCES source(id),
    PRIMARY KEY (session_id, source_id)
) WITHOUT ROWID;
CREATE INDEX session_source_by_source ON session_source(source_id);

CREATE TABLE capability (
    session_id  INTEGER NOT NULL REFERENCES session(id),
    transport   TEXT NOT NULL,
    source_id   INTEGER,
    body        TEXT NOT NULL,
    PRIMARY KEY (session_id, transport)
) WITHOUT ROWID;

CREATE TABLE loop (
    session_id      INTEGER NOT NULL REFERENCES session(id),
    position        INTEGER NOT NULL,
    native_id       TEXT,
    start_record_id INTEGER,
    started_at      TEXT,
    end_record_id   INTEGER,
    outcome         TEXT,
    ended_at        TEXT,
    model           TEXT,
    input_tokens    INTEGER,
    cached_input_tokens INTEGER,
    output_tokens   INTEGER,
    reasoning_output_tokens INTEGER,
    runtime_version TEXT,
    source_id       INTEGER,
    PRIMARY KEY (session_id, position)
) WITHOUT ROWID;

-- Text bodies, deduplicated by BLAKE3 of their content.
CREATE TABLE text (
    id      INTEGER PRIMARY KEY,
    hash    BLOB NOT NULL UNIQUE,
    body    TEXT NOT NULL,
    indexed INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE item (
    id              INTEGER PRIMARY KEY,
    session_id      INTEGER NOT NULL REFERENCES session(id),
    key             TEXT NOT NULL,
    seq             INTEGER NOT NULL,
    loop_position   INTEGER,
    at              TEXT,
    role            TEXT NOT NULL,
    strength        TEXT NOT NULL,
    kind            TEXT NOT NULL,
    text_id         INTEGER REFERENCES text(id),
    value           TEXT NOT NULL,
    tool_name       TEXT,
    call_id         TEXT,
    exit_code       INTEGER,
    failed          INTEGER,
    source_id       INTEGER,
    UNIQUE (session_id, key)
);
CREATE INDEX item_by_seq ON item(session_id, seq);
CREATE INDEX item_by_text ON item(text_id);

CREATE TABLE item_record (
    item_id     INTEGER NOT NULL,
    record_id   INTEGER NOT NULL,
    PRIMARY KEY (item_id, record_id)
) WITHOUT ROWID;
CREATE INDEX item_record_by_record ON item_record(record_id);

CREATE TABLE evidence (
    id              INTEGER PRIMARY KEY,
    session_id      INTEGER NOT NULL REFERENCES session(id),
    evidence_key    TEXT NOT NULL,
    kind            TEXT NOT NULL,
    payload         TEXT NOT NULL,
    source          TEXT NOT NULL,
    trust_class     TEXT NOT NULL,
    provenance      TEXT NOT NULL,
    extension       TEXT,
    item_key        TEXT,
    loop_position   INTEGER,
    at              TEXT,
    records         TEXT,
    derived         INTEGER NOT NULL DEFAULT 0,
    source_id       INTEGER,
    UNIQUE (session_id, evidence_key)
);

CREATE TABLE claim (
    id              INTEGER PRIMARY KEY,
    session_id      INTEGER NOT NULL REFERENCES session(id),
    claim_key       TEXT NOT NULL,
    item_key        TEXT NOT NULL,
    loop_position   INTEGER,
    subject         TEXT NOT NULL,
    text            TEXT NOT NULL,
    target          TEXT NOT NULL,
    at              TEXT,
    UNIQUE (session_id, claim_key)
);

-- Append-only: a new row only when a claim's judgement changes; the latest row is current.
CREATE TABLE finding (
    id              INTEGER PRIMARY KEY,
    session_id      INTEGER NOT NULL REFERENCES session(id),
    claim_key       TEXT NOT NULL,
    verdict         TEXT NOT NULL,
    rationale       TEXT NOT NULL,
    evidence        TEXT NOT NULL,
    rule            TEXT NOT NULL,
    computed_at     TEXT NOT NULL
);
CREATE INDEX finding_by_claim ON finding(session_id, claim_key, id);

CREATE TABLE redaction (
    session_id  INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    count       INTEGER NOT NULL,
    PRIMARY KEY (session_id, kind)
) WITHOUT ROWID;

CREATE TABLE drift (
    provider        TEXT NOT NULL,
    adapter         TEXT NOT NULL,
    runtime_version TEXT NOT NULL,
    outcome         TEXT NOT NULL,
    discriminator   TEXT NOT NULL,
    count           INTEGER NOT NULL,
    last_seen       TEXT NOT NULL,
    PRIMARY KEY (provider, adapter, runtime_version, outcome, discriminator)
) WITHOUT ROWID;

CREATE TABLE scan (
    id          INTEGER PRIMARY KEY,
    started_at  TEXT NOT NULL,
    finished_at TEXT,
    summary     TEXT
);

CREATE VIRTUAL TABLE text_fts USING fts5(body, content='text', content_rowid='id', tokenize='trigram');

CREATE VIEW current_finding AS
    SELECT f.* FROM finding f
    WHERE f.id = (SELECT MAX(f2.id) FROM finding f2
                  WHERE f2.session_id = f.session_id AND f2.claim_key = f.claim_key);
"#;

/// Multi-document sources (document trees, foreign databases): where each record sits inside
/// the source, and the last seen state of every tree or database as a whole.
const V2: &str = r#"
ALTER TABLE record ADD COLUMN member TEXT;

CREATE TABLE tree_state (
    tree_key    TEXT PRIMARY KEY,
    fingerprint BLOB NOT NULL,
    updated_at  TEXT NOT NULL
);

-- What was learned of each document of a tree, valid while its size, mtime and inode hold.
CREATE TABLE tree_member (
    tree_key    TEXT NOT NULL,
    member      TEXT NOT NULL,
    size        INTEGER NOT NULL,
    mtime_ns    INTEGER NOT NULL,
    inode       INTEGER NOT NULL,
    fingerprint BLOB NOT NULL,
    oversized   INTEGER NOT NULL,
    placed      INTEGER NOT NULL,
    rank        INTEGER,
    doc_id      TEXT,
    grp         TEXT,
    parent      TEXT,
    sort_key    TEXT,
    PRIMARY KEY (tree_key, member)
) WITHOUT ROWID;
"#;

// Full-text indexing is deferred: a searchable text (`text.indexed = 1`) not yet in the FTS5
// index has a row in `fts_pending`, and `Store::flush_search_index` indexes those in batches
// (at the end of a scan, or on the next open when a scan died), so the FTS5 index is not
// flushed and re-merged at every source's commit. A separate table keeps the flush from
// rewriting `text` rows (and their bodies).
//
// `item_seq` answers the `MAX(seq)` every source's transaction starts with from the index
// instead of a scan of every item (which made a cold scan quadratic in the number of items).
const V3: &str = r#"
CREATE TABLE fts_pending (text_id INTEGER PRIMARY KEY);
CREATE INDEX item_seq ON item(seq);
"#;

// Runs Fornax performed itself and tied to a session (`verify --recheck`, MCP `cap_run`,
// `cap run`): dated results of their own, shown beside the findings they speak to. A finding
// keeps the verdict its claim had when it was made; a re-check never rewrites it.
const V4: &str = r#"
CREATE TABLE recheck (
    id              INTEGER PRIMARY KEY,
    session_id      INTEGER NOT NULL REFERENCES session(id),
    capability_id   TEXT NOT NULL,
    trigger         TEXT NOT NULL,
    started_at      TEXT NOT NULL,
    finished_at     TEXT NOT NULL,
    outcome         TEXT NOT NULL,
    summary         TEXT NOT NULL,
    subjects        TEXT NOT NULL,
    trust_class     TEXT NOT NULL,
    manifest_hash   TEXT,
    evidence        TEXT NOT NULL
);
CREATE INDEX recheck_by_session ON recheck(session_id, finished_at);
"#;

/// Change detection and retention of file sources:
///
/// * `open_tail`: the source's last record is a final line without its newline (ingested once
///   the file was quiet, or by a scan); the cursor stands after it, and a later append that
///   only completes the line adds nothing.
/// * `block_fps`: BLAKE3 (16 bytes) of every 1 MiB block of the bytes before the cursor, so a
///   file that changed without simply growing is checked whole (a rewrite anywhere is
///   noticed) while an append rehashes only its last block.
/// * `retired_at`: a spool segment deleted by retention once everything in it was stored; its
///   records stay, and `record verify` says why their bytes are gone.
const V5: &str = r#"
ALTER TABLE source ADD COLUMN open_tail INTEGER NOT NULL DEFAULT 0;
ALTER TABLE source ADD COLUMN block_fps BLOB;
ALTER TABLE source ADD COLUMN retired_at TEXT;
"#;

// Usage per model call (`fornax usage`): one row per `(provider, key)`, so a call seen in two
// files (a resumed or copied session, a transcript and its hooks) counts once. Token kinds are
// disjoint (`input` excludes both cache kinds; reasoning is part of output). `at` is RFC 3339
// UTC as the runtime wrote it, indexed for the day and month reports.
const V6: &str = r#"
CREATE TABLE usage (
    id                      INTEGER PRIMARY KEY,
    provider                TEXT NOT NULL,
    key                     TEXT NOT NULL,
    session_id              INTEGER NOT NULL REFERENCES session(id),
    loop_position           INTEGER,
    at                      TEXT,
    model                   TEXT,
    input_tokens            INTEGER NOT NULL,
    output_tokens           INTEGER NOT NULL,
    cache_creation_tokens   INTEGER NOT NULL,
    cache_read_tokens       INTEGER NOT NULL,
    reasoning_tokens        INTEGER,
    reported_cost_usd       REAL,
    record_id               INTEGER,
    source_id               INTEGER NOT NULL,
    UNIQUE (provider, key)
);
CREATE INDEX usage_by_at ON usage(at);
CREATE INDEX usage_by_session ON usage(session_id);
"#;

// Typed judgement rows and resumable verification.
//
// `claim.assertion` keeps what a claim asserts beyond its target (scope, quantity, actor) and
// `finding.reason` the typed reason its rationale is rendered from; rows a release before them
// wrote keep NULL there and their stored sentence in `finding.rationale`.
//
// `verify_pending` holds the sessions whose claims are owed a judgement: a source's transaction
// adds the sessions it touched, and the verification write that judged a family removes them in
// its own transaction, so a pass that dies in between leaves them for the next pass. Every
// session is owed one now: the verifier that reads these rows is new.
const V7: &str = r#"
ALTER TABLE claim ADD COLUMN assertion TEXT;
ALTER TABLE finding ADD COLUMN reason TEXT;
CREATE TABLE verify_pending (session_id INTEGER PRIMARY KEY);
INSERT INTO verify_pending (session_id) SELECT id FROM session;
"#;

// The archive (ADR 0011): every record's bytes after redaction, zstd-compressed, keyed by the
// BLAKE3 of those redacted bytes, so identical records (a copied or rewritten file) are kept
// once. A record row names its copy in `archived` (NULL when the archive is off, or for rows a
// release before it wrote) and keeps the native record's length in `byte_len`; its
// `fingerprint` stays the BLAKE3 of the raw bytes, which is what a live source is checked
// against. A rowid table, not WITHOUT ROWID: a copy is often larger than the ~1 KB an index
// page keeps in place, and spilling each into overflow pages left a third of them unused.
const V8: &str = r#"
CREATE TABLE archive_blob (
    hash        BLOB NOT NULL UNIQUE,
    raw_len     INTEGER NOT NULL,
    body        BLOB NOT NULL
);
ALTER TABLE record ADD COLUMN archived BLOB;
ALTER TABLE record ADD COLUMN byte_len INTEGER;
"#;

// Packed texts (ADR 0013): text bodies and adapter checkpoints of 256 bytes or more are kept
// as one zstd frame each (`crate::packed`). `text` becomes a view over `text_store` that reads
// bodies through `unpacked()`, so the FTS5 index (external content `text`), `fornax query` and
// every reader keep seeing plain text; rows are packed in place, with the same ids, so the
// FTS5 index stays valid as it is. `archive_dict` holds the archive's trained zstd
// dictionaries, one per provider (`crate::dictionary`); copies written before one existed
// stay as they are.
const V9: &str = r#"
ALTER TABLE text RENAME TO text_store;
CREATE VIEW text (id, hash, body, indexed) AS
    SELECT id, hash, unpacked(body), indexed FROM text_store;
UPDATE text_store SET body = packed(body) WHERE typeof(body) = 'text' AND length(CAST(body AS BLOB)) >= 256;
UPDATE source SET adapter_state = packed(adapter_state)
    WHERE typeof(adapter_state) = 'text' AND length(CAST(adapter_state AS BLOB)) >= 256;
CREATE TABLE archive_dict (
    provider    TEXT NOT NULL UNIQUE,
    dict_id     INTEGER UNIQUE,
    body        BLOB NOT NULL
);
"#;

// The usage rollup (`fornax usage` reads thousands of rows, not every call): the calls of
// `usage` summed per session, UTC hour, provider, model and prompt size (above or below the
// long-context threshold), with every token kind, the runtime's own cost (also as the exact
// fixed-point sum its value is rounded from, so sums of sums do not depend on their order) and
// the first and last call's time. It is derived, never authored: the transaction that changes
// a session's calls queues the session in `usage_pending` and rebuilds its rows from `usage`
// before it commits (`refresh_usage_rollup`). `put_usage`, the only statement that inserts or
// replaces calls, queues its session itself (a trigger on every call's upsert cost about 6 µs
// a call at ingest); a trigger queues the session of any deleted call, whatever path deletes
// it. A reader sums the rollup for every other session and the calls themselves for a queued
// one, so a report is right even while a rebuild is owed. `hour` is SQLite's
// `strftime('%Y-%m-%dT%H', at)` (NULL where it reads no time), so days, months and 5-hour
// blocks cut from it fall exactly where the calls' own timestamps put them. (Not `INSERT OR
// IGNORE` in the trigger: a trigger's conflict clause yields to its outer statement's.) Every
// session with calls is owed its rows here; the next writer to open the store builds them.
const V10: &str = r#"
CREATE TABLE usage_hour (
    session_id              INTEGER NOT NULL,
    hour                    TEXT,
    provider                TEXT NOT NULL,
    model                   TEXT,
    long_context            INTEGER NOT NULL,
    calls                   INTEGER NOT NULL,
    input_tokens            INTEGER NOT NULL,
    output_tokens           INTEGER NOT NULL,
    cache_creation_tokens   INTEGER NOT NULL,
    cache_read_tokens       INTEGER NOT NULL,
    reasoning_tokens        INTEGER,
    reported_cost_usd       REAL,
    reported_cost_exact     BLOB,
    reported_calls          INTEGER NOT NULL,
    first_at                TEXT,
    last_at                 TEXT
);
CREATE INDEX usage_hour_by_session ON usage_hour(session_id);
CREATE TABLE usage_pending (session_id INTEGER PRIMARY KEY);
CREATE TRIGGER usage_pending_delete AFTER DELETE ON usage BEGIN
    INSERT INTO usage_pending (session_id) SELECT OLD.session_id
        WHERE NOT EXISTS (SELECT 1 FROM usage_pending WHERE session_id = OLD.session_id);
END;
INSERT OR IGNORE INTO usage_pending (session_id) SELECT DISTINCT session_id FROM usage;
"#;

// Packed items and evidence (ADR 0014): `item` and `evidence` become views over `item_store`
// and `evidence_store` that read `value`, `payload`, `records` and `source` through `unpacked()`
// (`crate::packs`), so `fornax query` and every reader keep seeing JSON; rows are packed in
// place with the same ids (values of 256 bytes or more, without a dictionary: the column
// dictionaries in `pack_dict` are trained by the next writer). The index `item_seq` goes:
// the next sequence number is kept in `counter` instead of read from `MAX(seq)`.
const V11: &str = r#"
ALTER TABLE item RENAME TO item_store;
CREATE VIEW item (id, session_id, key, seq, loop_position, at, role, strength, kind, text_id,
        value, tool_name, call_id, exit_code, failed, source_id) AS
    SELECT id, session_id, key, seq, loop_position, at, role, strength, kind, text_id,
        unpacked(value), tool_name, call_id, exit_code, failed, source_id FROM item_store;
ALTER TABLE evidence RENAME TO evidence_store;
CREATE VIEW evidence (id, session_id, evidence_key, kind, payload, source, trust_class,
        provenance, extension, item_key, loop_position, at, records, derived, source_id) AS
    SELECT id, session_id, evidence_key, kind, unpacked(payload), unpacked(source), trust_class,
        provenance, extension, item_key, loop_position, at, unpacked(records), derived, source_id
    FROM evidence_store;
DROP INDEX item_seq;
CREATE TABLE counter (name TEXT PRIMARY KEY, value INTEGER NOT NULL) WITHOUT ROWID;
INSERT INTO counter (name, value) SELECT 'item_seq', COALESCE(MAX(seq), 0) FROM item_store;
CREATE TABLE pack_dict (
    kind        TEXT NOT NULL UNIQUE,
    dict_id     INTEGER UNIQUE,
    body        BLOB NOT NULL
);
UPDATE item_store SET value = packed(value)
    WHERE typeof(value) = 'text' AND length(CAST(value AS BLOB)) >= 256;
UPDATE evidence_store SET payload = packed(payload)
    WHERE typeof(payload) = 'text' AND length(CAST(payload AS BLOB)) >= 256;
UPDATE evidence_store SET records = packed(records)
    WHERE typeof(records) = 'text' AND length(CAST(records AS BLOB)) >= 256;
UPDATE evidence_store SET source = packed(source)
    WHERE typeof(source) = 'text' AND length(CAST(source AS BLOB)) >= 256;
"#;

/// Brings the schema to [`SCHEMA_VERSION`]. Callers hold the store-writer lock; each step also
/// takes SQLite's write lock first (`BEGIN IMMEDIATE`) and reads the version again inside its
/// transaction, so a step another connection already applied is never applied twice.
///
/// Registers the packed-column functions (`crate::packed`) on `conn` first, reading
/// dictionary frames with `dicts`: the views `text`, `item` and `evidence` and the steps to
/// schemas 9 and 11 use them.
pub(crate) fn migrate_with(
    conn: &mut Connection,
    dicts: &std::sync::Arc<crate::packs::PackDicts>,
) -> Result<(), StoreError> {
    crate::packed::register_writer(conn, dicts)?;
    loop {
        let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
        let current: u32 = tx.query_row("PRAGMA user_version", [], |r| r.get(0))?;
        if current > SCHEMA_VERSION {
            return Err(StoreError::NewerSchema {
                found: current,
                supported: SCHEMA_VERSION,
            });
        }
        let Some(sql) = MIGRATIONS.get(current as usize) else {
            return Ok(());
        };
        tx.execute_batch(sql)?;
        tx.pragma_update(None, "user_version", current + 1)?;
        tx.commit()?;
    }
}

/// [`migrate_with`] for a connection that reads no dictionary frames.
#[cfg(test)]
pub(crate) fn migrate(conn: &mut Connection) -> Result<(), StoreError> {
    migrate_with(conn, &Default::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A home written by an earlier release (schema 3, no re-checks, no usage) upgrades in
    /// place: its rows are kept and the re-check and usage tables are there.
    #[test]
    fn a_previous_release_database_upgrades() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("fornax.db");
        {
            let mut conn = Connection::open(&path).unwrap();
            let tx = conn.transaction().unwrap();
            for sql in &MIGRATIONS[..3] {
                tx.execute_batch(sql).unwrap();
            }
            tx.pragma_update(None, "user_version", 3u32).unwrap();
            tx.execute(
                "INSERT INTO session (provider, native_id, cwd) VALUES ('codex', 's-old', '/w')",
                [],
            )
            .unwrap();
            tx.commit().unwrap();
        }
        let mut conn = Connection::open(&path).unwrap();
        migrate(&mut conn).unwrap();
        let version: u32 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        let kept: String = conn
            .query_row("SELECT native_id FROM session", [], |r| r.get(0))
            .unwrap();
        assert_eq!(kept, "s-old");
        let rechecks: i64 = conn
            .query_row("SELECT COUNT(*) FROM recheck", [], |r| r.get(0))
            .unwrap();
        assert_eq!(rechecks, 0);
        let usage: i64 = conn
            .query_row("SELECT COUNT(*) FROM usage", [], |r| r.get(0))
            .unwrap();
        assert_eq!(usage, 0);
    }

    /// A home written by the previous release (schema 4) gains the usage table and keeps its
    /// re-checks.
    #[test]
    fn a_schema_4_database_gains_usage() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("fornax.db");
        {
            let mut conn = Connection::open(&path).unwrap();
            let tx = conn.transaction().unwrap();
            for sql in &MIGRATIONS[..4] {
                tx.execute_batch(sql).unwrap();
            }
            tx.pragma_update(None, "user_version", 4u32).unwrap();
            tx.execute(
                "INSERT INTO session (provider, native_id) VALUES ('claude_code', 's4')",
                [],
            )
            .unwrap();
            tx.commit().unwrap();
        }
        let mut conn = Connection::open(&path).unwrap();
        migrate(&mut conn).unwrap();
        conn.execute(
            "INSERT INTO usage (provider, key, session_id, input_tokens, output_tokens,
                 cache_creation_tokens, cache_read_tokens, source_id)
             VALUES ('claude_code', 'm:r', 1, 1, 2, 3, 4, 1)",
            [],
        )
        .unwrap();
        let dup = conn.execute(
            "INSERT INTO usage (provider, key, session_id, input_tokens, output_tokens,
                 cache_creation_tokens, cache_read_tokens, source_id)
             VALUES ('claude_code', 'm:r', 1, 1, 2, 3, 4, 1)",
            [],
        );
        assert!(dup.is_err(), "a call is stored once per provider and key");
    }

    /// A home written by the previous release (schema 7) gains the archive: its records keep
    /// their rows, with no copy (`archived` NULL), and new records can name one.
    #[test]
    fn a_schema_7_database_gains_the_archive() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("fornax.db");
        {
            let mut conn = Connection::open(&path).unwrap();
            let tx = conn.transaction().unwrap();
            for sql in &MIGRATIONS[..7] {
                tx.execute_batch(sql).unwrap();
            }
            tx.pragma_update(None, "user_version", 7u32).unwrap();
            tx.execute(
                "INSERT INTO source (source_key, provider, kind, locator, adapter)
                 VALUES ('file:/t.jsonl', 'claude_code', 'file', '/t.jsonl', 'claude-transcript')",
                [],
            )
            .unwrap();
            tx.execute(
                "INSERT INTO record (source_id, position, byte_start, byte_end, fingerprint)
                 VALUES (1, 0, 0, 10, x'00')",
                [],
            )
            .unwrap();
            tx.commit().unwrap();
        }
        let mut conn = Connection::open(&path).unwrap();
        migrate(&mut conn).unwrap();
        let version: u32 = conn
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap();
        assert_eq!(version, SCHEMA_VERSION);
        let (archived, len): (Option<Vec<u8>>, Option<i64>) = conn
            .query_row("SELECT archived, byte_len FROM record", [], |r| {
                Ok((r.get(0)?, r.get(1)?))
            })
            .unwrap();
        assert_eq!((archived, len), (None, None));
        conn.execute(
            "INSERT INTO archive_blob (hash, raw_len, body) VALUES (x'01', 2, x'02')",
            [],
        )
        .unwrap();
        assert!(conn
            .execute(
                "INSERT INTO archive_blob (hash, raw_len, body) VALUES (x'01', 2, x'02')",
                [],
            )
            .is_err());
    }
}
