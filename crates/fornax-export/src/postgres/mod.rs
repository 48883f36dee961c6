//! `fornax sync postgres://…`: mirrors sessions, loops, items (texts optional) and findings
//! (with each loop's token usage) into PostgreSQL for a team's shared view.
//!
//! * Idempotent: upserts keyed by (machine, provider, native id); a row is rewritten only when
//!   a column changed, so the rows-written count is what really changed.
//! * Incremental: a watermark per table (the largest local row id of items, findings and
//!   sessions mirrored), committed in the same transaction as the rows; a killed push resumes
//!   from the last committed batch. Sessions and loops change in place, so they are re-read
//!   for every session that new items or findings touch.
//! * Nothing leaves unredacted: rows are read from the store, which holds only redacted text.
//! * A read-only role (`fornax_reader` by default) may read every table and view.

use std::collections::BTreeSet;
use std::time::SystemTime;

use fornax_store::Store;
use tokio_postgres::{Client, NoTls, Transaction};

use crate::ExportError;

/// The schema, as documented in `docs/sync.md`.
pub const SCHEMA_SQL: &str = include_str!("schema.sql");

#[derive(Debug, Clone)]
pub struct SyncOptions {
    /// Label of this machine on every row (and the key that keeps machines apart).
    pub machine: String,
    /// Label of the person on every row.
    pub user: String,
    /// Mirror item texts (off by default: metadata only).
    pub texts: bool,
    /// Rows read per table per transaction.
    pub batch: usize,
    /// A role granted read access to every table and view (`None`: no grant).
    pub reader_role: Option<String>,
}

impl Default for SyncOptions {
    fn default() -> Self {
        SyncOptions {
            machine: "localhost".into(),
            user: "unknown".into(),
            texts: false,
            batch: 1000,
            reader_role: Some("fornax_reader".into()),
        }
    }
}

/// Rows written (inserted or changed) per table, and the batches committed.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct SyncReport {
    pub sessions: u64,
    pub loops: u64,
    pub items: u64,
    pub findings: u64,
    pub batches: u64,
    /// The reader role could not be granted (not enough privilege); the mirror works anyway.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reader_role_skipped: Option<String>,
}

impl SyncReport {
    pub fn rows(&self) -> u64 {
        self.sessions + self.loops + self.items + self.findings
    }
}

/// Mirrors everything not yet mirrored for `opts.machine`.
pub fn sync(store: &Store, url: &str, opts: &SyncOptions) -> Result<SyncReport, ExportError> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| ExportError::io("tokio runtime", e))?;
    rt.block_on(run(store, url, opts))
}

async fn run(store: &Store, url: &str, opts: &SyncOptions) -> Result<SyncReport, ExportError> {
    let pg = |source| ExportError::Postgres {
        url: redact_url(url),
        source,
    };
    let (mut client, conn) = tokio_postgres::connect(url, NoTls).await.map_err(pg)?;
    tokio::spawn(async move {
        // The connection's error surfaces on the next query; nothing to do here.
        let _ = conn.await;
    });
    client.batch_execute(SCHEMA_SQL).await.map_err(pg)?;
    let mut report = SyncReport::default();
    if let Some(role) = &opts.reader_role {
        if let Err(e) = grant_reader(&client, role).await {
            report.reader_role_skipped = Some(e.to_string());
        }
    }
    let mut marks = watermarks(&client, &opts.machine).await.map_err(pg)?;
    let batch = opts.batch.max(1);
    loop {
        let items = store.mirror_items_after(marks.items, batch, opts.texts)?;
        let findings = store.mirror_findings_after(marks.findings, batch)?;
        let mut new_sessions = store.mirror_sessions_after(marks.sessions)?;
        new_sessions.truncate(batch);
        if items.is_empty() && findings.is_empty() && new_sessions.is_empty() {
            break;
        }
        let touched: BTreeSet<i64> = new_sessions
            .iter()
            .copied()
            .chain(items.iter().map(|i| i.session_id))
            .chain(findings.iter().map(|f| f.session_id))
            .collect();
        let tx = client.transaction().await.map_err(pg)?;
        for sid in &touched {
            let (s, l) = write_session(&tx, store, *sid, opts).await?;
            report.sessions += s;
            report.loops += l;
        }
        report.items += write_items(&tx, &items, opts).await.map_err(pg)?;
        report.findings += write_findings(&tx, &findings, opts).await.map_err(pg)?;
        if let Some(last) = items.last() {
            marks.items = last.id;
        }
        if let Some(last) = findings.last() {
            marks.findings = last.id;
        }
        if let Some(last) = new_sessions.last() {
            marks.sessions = *last;
        }
        save_watermarks(&tx, &opts.machine, &marks)
            .await
            .map_err(pg)?;
        tx.commit().await.map_err(pg)?;
        report.batches += 1;
    }
    Ok(report)
}

#[derive(Debug, Default, Clone, Copy)]
struct Marks {
    items: i64,
    findings: i64,
    sessions: i64,
}

async fn watermarks(client: &Client, machine: &str) -> Result<Marks, tokio_postgres::Error> {
    let mut m = Marks::default();
    for row in client
        .query(
            "SELECT tbl, last_id FROM fornax.watermark WHERE machine = $1",
            &[&machine],
        )
        .await?
    {
        let tbl: String = row.get(0);
        let id: i64 = row.get(1);
        match tbl.as_str() {
            "item" => m.items = id,
            "finding" => m.findings = id,
            "session" => m.sessions = id,
            _ => {}
        }
    }
    Ok(m)
}

async fn save_watermarks(
    tx: &Transaction<'_>,
    machine: &str,
    m: &Marks,
) -> Result<(), tokio_postgres::Error> {
    for (tbl, id) in [
        ("item", m.items),
        ("finding", m.findings),
        ("session", m.sessions),
    ] {
        tx.execute(
            "INSERT INTO fornax.watermark (machine, tbl, last_id) VALUES ($1, $2, $3)
             ON CONFLICT (machine, tbl) DO UPDATE SET last_id = excluded.last_id, updated_at = now()
             WHERE fornax.watermark.last_id IS DISTINCT FROM excluded.last_id",
            &[&machine, &tbl, &id],
        )
        .await?;
    }
    Ok(())
}

async fn write_session(
    tx: &Transaction<'_>,
    store: &Store,
    sid: i64,
    opts: &SyncOptions,
) -> Result<(u64, u64), ExportError> {
    let pg = |source| ExportError::Postgres {
        url: "(sync transaction)".into(),
        source,
    };
    let row = store.session_row(sid)?;
    let sessions = tx
        .execute(
            "INSERT INTO fornax.session (machine, provider, native_id, user_label, parent_native_id,
                 cwd, name, created_at, last_activity, runtime_version, loops, items)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
             ON CONFLICT (machine, provider, native_id) DO UPDATE SET
                 user_label = excluded.user_label, parent_native_id = excluded.parent_native_id,
                 cwd = excluded.cwd, name = excluded.name, created_at = excluded.created_at,
                 last_activity = excluded.last_activity, runtime_version = excluded.runtime_version,
                 loops = excluded.loops, items = excluded.items
             WHERE (fornax.session.user_label, fornax.session.parent_native_id, fornax.session.cwd,
                    fornax.session.name, fornax.session.created_at, fornax.session.last_activity,
                    fornax.session.runtime_version, fornax.session.loops, fornax.session.items)
                 IS DISTINCT FROM
                   (excluded.user_label, excluded.parent_native_id, excluded.cwd, excluded.name,
                    excluded.created_at, excluded.last_activity, excluded.runtime_version,
                    excluded.loops, excluded.items)",
            &[
                &opts.machine,
                &row.provider,
                &row.native_id,
                &opts.user,
                &row.parent_native_id,
                &row.cwd,
                &row.name,
                &time(row.created_at.as_deref()),
                &time(row.last_activity.as_deref()),
                &row.runtime_version,
                &row.loops,
                &row.items,
            ],
        )
        .await
        .map_err(pg)?;
    let mut loops = 0;
    for l in store.loops_of(sid)? {
        loops += tx
            .execute(
                "INSERT INTO fornax.loop (machine, provider, session_native_id, position, user_label,
                     native_id, started_at, ended_at, outcome, model, input_tokens,
                     cached_input_tokens, output_tokens, reasoning_output_tokens)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
                 ON CONFLICT (machine, provider, session_native_id, position) DO UPDATE SET
                     user_label = excluded.user_label, native_id = excluded.native_id,
                     started_at = excluded.started_at, ended_at = excluded.ended_at,
                     outcome = excluded.outcome, model = excluded.model,
                     input_tokens = excluded.input_tokens,
                     cached_input_tokens = excluded.cached_input_tokens,
                     output_tokens = excluded.output_tokens,
                     reasoning_output_tokens = excluded.reasoning_output_tokens
                 WHERE (fornax.loop.user_label, fornax.loop.native_id, fornax.loop.started_at,
                        fornax.loop.ended_at, fornax.loop.outcome, fornax.loop.model,
                        fornax.loop.input_tokens, fornax.loop.cached_input_tokens,
                        fornax.loop.output_tokens, fornax.loop.reasoning_output_tokens)
                     IS DISTINCT FROM
                       (excluded.user_label, excluded.native_id, excluded.started_at,
                        excluded.ended_at, excluded.outcome, excluded.model,
                        excluded.input_tokens, excluded.cached_input_tokens,
                        excluded.output_tokens, excluded.reasoning_output_tokens)",
                &[
                    &opts.machine,
                    &row.provider,
                    &row.native_id,
                    &l.position,
                    &opts.user,
                    &l.native_id,
                    &time(l.started_at.as_deref()),
                    &time(l.ended_at.as_deref()),
                    &l.outcome,
                    &l.model,
                    &l.input_tokens,
                    &l.cached_input_tokens,
                    &l.output_tokens,
                    &l.reasoning_output_tokens,
                ],
            )
            .await
            .map_err(pg)?;
    }
    Ok((sessions, loops))
}

async fn write_items(
    tx: &Transaction<'_>,
    items: &[fornax_store::MirrorItem],
    opts: &SyncOptions,
) -> Result<u64, tokio_postgres::Error> {
    let stmt = tx
        .prepare(
            "INSERT INTO fornax.item (machine, provider, session_native_id, key, user_label,
                 loop_position, at, role, kind, tool_name, call_id, exit_code, failed, body)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)
             ON CONFLICT (machine, provider, session_native_id, key) DO UPDATE SET
                 user_label = excluded.user_label, loop_position = excluded.loop_position,
                 at = excluded.at, role = excluded.role, kind = excluded.kind,
                 tool_name = excluded.tool_name, call_id = excluded.call_id,
                 exit_code = excluded.exit_code, failed = excluded.failed, body = excluded.body
             WHERE (fornax.item.user_label, fornax.item.loop_position, fornax.item.at,
                    fornax.item.role, fornax.item.kind, fornax.item.tool_name,
                    fornax.item.call_id, fornax.item.exit_code, fornax.item.failed,
                    fornax.item.body)
                 IS DISTINCT FROM
                   (excluded.user_label, excluded.loop_position, excluded.at, excluded.role,
                    excluded.kind, excluded.tool_name, excluded.call_id, excluded.exit_code,
                    excluded.failed, excluded.body)",
        )
        .await?;
    let mut n = 0;
    for i in items {
        n += tx
            .execute(
                &stmt,
                &[
                    &opts.machine,
                    &i.provider,
                    &i.session_native_id,
                    &i.key,
                    &opts.user,
                    &i.loop_position,
                    &time(i.at.as_deref()),
                    &i.role,
                    &i.kind,
                    &i.tool_name,
                    &i.call_id,
                    &i.exit_code,
                    &i.failed,
                    &i.text.as_deref().map(strip_nul),
                ],
            )
            .await?;
    }
    Ok(n)
}

async fn write_findings(
    tx: &Transaction<'_>,
    findings: &[fornax_store::MirrorFinding],
    opts: &SyncOptions,
) -> Result<u64, tokio_postgres::Error> {
    let stmt = tx
        .prepare(
            "INSERT INTO fornax.finding (machine, provider, session_native_id, claim_key,
                 user_label, local_id, item_key, loop_position, subject, claim, at, verdict,
                 rationale, evidence, rule, computed_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
             ON CONFLICT (machine, provider, session_native_id, claim_key) DO UPDATE SET
                 user_label = excluded.user_label, local_id = excluded.local_id,
                 item_key = excluded.item_key, loop_position = excluded.loop_position,
                 subject = excluded.subject, claim = excluded.claim, at = excluded.at,
                 verdict = excluded.verdict, rationale = excluded.rationale,
                 evidence = excluded.evidence, rule = excluded.rule,
                 computed_at = excluded.computed_at
             WHERE fornax.finding.local_id < excluded.local_id",
        )
        .await?;
    let mut n = 0;
    for f in findings {
        n += tx
            .execute(
                &stmt,
                &[
                    &opts.machine,
                    &f.provider,
                    &f.session_native_id,
                    &f.claim_key,
                    &opts.user,
                    &f.id,
                    &f.item_key,
                    &f.loop_position,
                    &f.subject,
                    &f.claim.as_deref().map(strip_nul),
                    &time(f.at.as_deref()),
                    &f.verdict,
                    &strip_nul(&f.rationale),
                    &f.evidence,
                    &f.rule,
                    &time(Some(&f.computed_at)),
                ],
            )
            .await?;
    }
    Ok(n)
}

async fn grant_reader(client: &Client, role: &str) -> Result<(), tokio_postgres::Error> {
    let ident = format!("\"{}\"", role.replace('"', "\"\""));
    let literal = role.replace('\'', "''");
    client
        .batch_execute(&format!(
            "DO $$ BEGIN
               IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{literal}') THEN
                 CREATE ROLE {ident} NOLOGIN;
               END IF;
             END $$;
             GRANT USAGE ON SCHEMA fornax TO {ident};
             GRANT SELECT ON ALL TABLES IN SCHEMA fornax TO {ident};"
        ))
        .await
}

/// An agent's timestamp as a time, or `None` when it does not parse (kept out, not failed).
fn time(iso: Option<&str>) -> Option<SystemTime> {
    let ts: jiff::Timestamp = iso?.parse().ok()?;
    Some(SystemTime::from(ts))
}

/// PostgreSQL text cannot hold NUL.
fn strip_nul(s: &str) -> String {
    s.replace('\0', "")
}

/// The URL with any password replaced, for error messages.
pub fn redact_url(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme), Some(at)) if at > scheme => {
            let userinfo = &url[scheme + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_never_reach_messages() {
        assert_eq!(
            redact_url("postgres://me:secret@db/x"),
            "postgres://me:***@db/x"
        );
        assert_eq!(redact_url("postgres://db/x"), "postgres://db/x");
    }

    #[test]
    fn bad_times_are_left_out() {
        assert!(time(Some("yesterday")).is_none());
        assert!(time(Some("2025-01-02T03:04:05Z")).is_some());
    }
}
