//! The read-only SQL surface: one statement, an authorizer that refuses writes and ATTACH,
//! and limits on rows, output size and time.
//!
//! The bounds hold inside SQLite, not only on what comes out: the connection's length limits
//! (`sqlite3_limit`) are lowered for the statement, so no single value (`zeroblob(N)`,
//! `printf('%.*c', N, 'x')`, a `group_concat`) can be built larger than the output bound, and
//! a progress handler interrupts the statement at its deadline. These are limits of the one
//! connection; SQLite's heap limits are process-wide (they would also stop a writer in the
//! same process) and are not used. SQLite's `printf`/`format` return NULL rather than an error
//! when their result would pass the length limit, so for a query they are replaced by one that
//! says so ([`bounded_printf`]).

use std::time::{Duration, Instant};

use rusqlite::functions::{Context, FunctionFlags};
use rusqlite::hooks::{AuthAction, AuthContext, Authorization};
use rusqlite::limits::Limit;
use rusqlite::types::{ToSqlOutput, Value, ValueRef};
use rusqlite::Connection;
use serde::Serialize;

use crate::{Store, StoreError};

#[derive(Debug, Clone, Copy)]
pub struct QueryLimits {
    pub max_rows: usize,
    pub max_output_bytes: usize,
    pub timeout: Duration,
}

impl Default for QueryLimits {
    fn default() -> Self {
        QueryLimits {
            max_rows: 1000,
            max_output_bytes: 4 * 1024 * 1024,
            timeout: Duration::from_secs(5),
        }
    }
}

/// One relation of the public schema.
#[derive(Debug, Clone, Serialize)]
pub struct Relation {
    pub name: String,
    pub description: String,
    pub columns: Vec<Column>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Column {
    pub name: String,
    #[serde(rename = "type")]
    pub sql_type: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct QueryResult {
    pub columns: Vec<String>,
    pub rows: Vec<Vec<serde_json::Value>>,
    /// Rows were cut at `max_rows` or `max_output_bytes`.
    pub truncated: bool,
}

/// Tables and views of the public schema, in the order `fornax schema` lists them.
pub const PUBLIC_RELATIONS: &[(&str, &str)] = &[
    (
        "session",
        "one row per agent session (provider, native_id, cwd, parent for subagents)",
    ),
    (
        "loop",
        "units of work inside a session, with outcome and token usage",
    ),
    (
        "item",
        "canonical timeline facts: role, kind, value (JSON), tool call/output columns",
    ),
    (
        "text",
        "deduplicated text bodies referenced by item.text_id",
    ),
    ("item_record", "which records witness which item"),
    (
        "record",
        "physical records: source, position, byte range, fingerprint",
    ),
    (
        "source",
        "native inputs (files, hook and plugin streams) and their cursors",
    ),
    ("session_source", "which sources support which session"),
    (
        "capability",
        "what each transport declared it can observe, per session",
    ),
    (
        "evidence",
        "observations with kind, payload (JSON) and provenance",
    ),
    ("claim", "claims extracted from agent text"),
    ("finding", "append-only verdict history per claim"),
    ("current_finding", "the latest finding per claim"),
    (
        "verify_pending",
        "sessions whose claims are owed a judgement (changed since their family was verified)",
    ),
    (
        "redaction",
        "redaction counts per session and kind (never the secrets)",
    ),
    (
        "drift",
        "unrecognized and ignored native shapes per provider, adapter and version",
    ),
    ("scan", "scan runs and their summaries"),
];

fn authorize(ctx: AuthContext<'_>) -> Authorization {
    match ctx.action {
        AuthAction::Select
        | AuthAction::Read { .. }
        | AuthAction::Function { .. }
        | AuthAction::Recursive => Authorization::Allow,
        AuthAction::Pragma {
            pragma_name: "table_info" | "table_xinfo" | "index_list",
            pragma_value: None,
        } => Authorization::Allow,
        _ => Authorization::Deny,
    }
}

fn to_json(v: ValueRef<'_>) -> serde_json::Value {
    match v {
        ValueRef::Null => serde_json::Value::Null,
        ValueRef::Integer(i) => i.into(),
        ValueRef::Real(f) => serde_json::Number::from_f64(f)
            .map(Into::into)
            .unwrap_or(serde_json::Value::Null),
        ValueRef::Text(t) => String::from_utf8_lossy(t).into_owned().into(),
        ValueRef::Blob(b) => {
            let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
            hex.into()
        }
    }
}

/// SQLite's names for its `printf` function.
const PRINTF_NAMES: [&str; 2] = ["printf", "format"];

/// Longest statement accepted, in bytes.
const MAX_SQL_BYTES: i32 = 100_000;

/// The connection limits a query runs under, given its output bound: `(limit, value)`.
fn statement_limits(limits: &QueryLimits) -> [(Limit, i32); 7] {
    let value_bytes = i32::try_from(limits.max_output_bytes).unwrap_or(i32::MAX);
    [
        // No string or blob (hence no row) larger than the whole output may have.
        (Limit::SQLITE_LIMIT_LENGTH, value_bytes.max(1)),
        (Limit::SQLITE_LIMIT_SQL_LENGTH, MAX_SQL_BYTES),
        (Limit::SQLITE_LIMIT_LIKE_PATTERN_LENGTH, 1_000),
        (Limit::SQLITE_LIMIT_COLUMN, 200),
        (Limit::SQLITE_LIMIT_EXPR_DEPTH, 200),
        (Limit::SQLITE_LIMIT_COMPOUND_SELECT, 100),
        (Limit::SQLITE_LIMIT_FUNCTION_ARG, 100),
    ]
}

/// SQLite's message for a value over `SQLITE_LIMIT_LENGTH`, said in our terms.
fn query_error(e: rusqlite::Error, limits: &QueryLimits) -> StoreError {
    match e {
        rusqlite::Error::SqliteFailure(f, _) if f.code == rusqlite::ErrorCode::TooBig => {
            StoreError::Query(format!(
                "a value or the statement is larger than the query limit ({} bytes per value, \
                 {MAX_SQL_BYTES} bytes of SQL)",
                limits.max_output_bytes
            ))
        }
        rusqlite::Error::SqliteFailure(f, _)
            if f.code == rusqlite::ErrorCode::OperationInterrupted =>
        {
            StoreError::Query(format!(
                "query exceeded its time limit of {:?}",
                limits.timeout
            ))
        }
        other => StoreError::Query(other.to_string()),
    }
}

/// SQLite's own `printf`, evaluated on a private in-memory connection under the same length
/// limit; a NULL from a non-NULL format means the result would have passed the limit, and is
/// turned into the `SQLITE_TOOBIG` error SQLite raises for every other oversized value.
fn bounded_printf(
    value_bytes: i32,
) -> Result<impl Fn(&Context<'_>) -> rusqlite::Result<Value> + Send + 'static, StoreError> {
    let inner = Connection::open_in_memory()?;
    inner.set_limit(Limit::SQLITE_LIMIT_LENGTH, value_bytes)?;
    Ok(move |ctx: &Context<'_>| {
        if ctx.is_empty() || ctx.get_raw(0) == ValueRef::Null {
            return Ok(Value::Null);
        }
        let placeholders: Vec<String> = (1..=ctx.len()).map(|i| format!("?{i}")).collect();
        let sql = format!("SELECT printf({})", placeholders.join(", "));
        let mut stmt = inner.prepare_cached(&sql)?;
        for i in 0..ctx.len() {
            stmt.raw_bind_parameter(i + 1, ToSqlOutput::Borrowed(ctx.get_raw(i)))?;
        }
        let mut rows = stmt.raw_query();
        let value: Value = match rows.next()? {
            Some(row) => row.get(0)?,
            None => Value::Null,
        };
        match value {
            Value::Null => Err(rusqlite::Error::SqliteFailure(
                rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_TOOBIG),
                Some("printf result larger than the query limit".into()),
            )),
            v => Ok(v),
        }
    })
}

impl Store {
    /// Runs one read-only statement, bounded in rows, bytes (of any one value, and of the
    /// output) and time.
    pub fn query(&self, sql: &str, limits: QueryLimits) -> Result<QueryResult, StoreError> {
        let trimmed = sql.trim().trim_end_matches(';').trim();
        if trimmed.is_empty() {
            return Err(StoreError::QueryRefused("empty statement".into()));
        }
        let mut previous = Vec::new();
        for (limit, value) in statement_limits(&limits) {
            previous.push((limit, self.conn.set_limit(limit, value)?));
        }
        let value_bytes = self.conn.limit(Limit::SQLITE_LIMIT_LENGTH)?;
        let flags = FunctionFlags::SQLITE_UTF8 | FunctionFlags::SQLITE_DETERMINISTIC;
        for name in PRINTF_NAMES {
            self.conn
                .create_scalar_function(name, -1, flags, bounded_printf(value_bytes)?)?;
        }
        self.conn.authorizer(Some(authorize));
        let deadline = Instant::now() + limits.timeout;
        self.conn
            .progress_handler(1_000, Some(move || Instant::now() > deadline));
        let result = self.run_query(trimmed, limits);
        self.conn.progress_handler(0, None::<fn() -> bool>);
        self.conn
            .authorizer(None::<fn(AuthContext<'_>) -> Authorization>);
        for name in PRINTF_NAMES {
            self.conn.remove_function(name, -1)?;
        }
        for (limit, value) in previous {
            self.conn.set_limit(limit, value)?;
        }
        result
    }

    fn run_query(&self, sql: &str, limits: QueryLimits) -> Result<QueryResult, StoreError> {
        let mut stmt = self.conn.prepare(sql).map_err(|e| match e {
            rusqlite::Error::SqliteFailure(f, msg)
                if f.code == rusqlite::ErrorCode::AuthorizationForStatementDenied =>
            {
                StoreError::QueryRefused(format!(
                    "only reading is allowed (no writes, ATTACH or PRAGMA){}",
                    msg.map(|m| format!(": {m}")).unwrap_or_default()
                ))
            }
            rusqlite::Error::MultipleStatement => {
                StoreError::QueryRefused("one statement at a time".into())
            }
            other => query_error(other, &limits),
        })?;
        if !stmt.readonly() {
            return Err(StoreError::QueryRefused("only reading is allowed".into()));
        }
        let columns: Vec<String> = stmt.column_names().iter().map(|s| s.to_string()).collect();
        let n = columns.len();
        let mut rows = stmt.query([]).map_err(|e| query_error(e, &limits))?;
        let mut out = Vec::new();
        let mut bytes = 0usize;
        let mut truncated = false;
        loop {
            let row = match rows.next() {
                Ok(Some(row)) => row,
                Ok(None) => break,
                Err(e) => return Err(query_error(e, &limits)),
            };
            if out.len() >= limits.max_rows {
                truncated = true;
                break;
            }
            let mut values = Vec::with_capacity(n);
            for i in 0..n {
                let v = to_json(
                    row.get_ref(i)
                        .map_err(|e| StoreError::Query(e.to_string()))?,
                );
                bytes += match &v {
                    serde_json::Value::String(s) => s.len(),
                    _ => 8,
                };
                values.push(v);
            }
            out.push(values);
            if bytes > limits.max_output_bytes {
                truncated = true;
                break;
            }
        }
        Ok(QueryResult {
            columns,
            rows: out,
            truncated,
        })
    }

    /// The public schema: each relation with a description and its columns.
    pub fn schema(&self) -> Result<Vec<Relation>, StoreError> {
        let mut out = Vec::new();
        for (name, description) in PUBLIC_RELATIONS {
            let mut stmt = self.conn.prepare(&format!("PRAGMA table_info({name})"))?;
            let columns = stmt
                .query_map([], |r| {
                    Ok(Column {
                        name: r.get(1)?,
                        sql_type: r.get(2)?,
                    })
                })?
                .collect::<Result<Vec<_>, _>>()?;
            out.push(Relation {
                name: name.to_string(),
                description: description.to_string(),
                columns,
            });
        }
        Ok(out)
    }
}
