//! Usage reads: token counts of model calls summed per bucket (day, month, hour, session),
//! provider and model, answered from the `usage` table and its indexes (never from the
//! native files).

use std::collections::BTreeMap;

use fornax_types::{Provider, TokenCounts, UsageGroup, LONG_CONTEXT_PROMPT_TOKENS};
use rusqlite::types::ValueRef;

use crate::{Store, StoreError};

/// What one bucket of a usage report spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsageGrain {
    /// `YYYY-MM-DD` (UTC).
    Day,
    /// `YYYY-MM` (UTC).
    Month,
    /// `YYYY-MM-DDTHH` (UTC), from which 5-hour blocks are built.
    Hour,
    /// The session's native id (a subagent's own session; its parent is in the group).
    Session,
}

/// Filters of a usage read. Dates are `YYYY-MM-DD`, inclusive, compared with the call's UTC day.
#[derive(Debug, Clone, Default)]
pub struct UsageQuery {
    pub since: Option<String>,
    pub until: Option<String>,
    pub provider: Option<String>,
    /// Text the session's working directory contains.
    pub project: Option<String>,
    /// Text the model name contains.
    pub model: Option<String>,
    /// Only this session (native id) and its subagents.
    pub session: Option<String>,
}

impl Store {
    /// Usage summed per bucket, provider and model (calls above the long-context prompt size
    /// apart), ordered by bucket.
    ///
    /// Answered from the hourly rollup (`usage_hour`, a few rows per session and hour) for
    /// every session whose rollup is current, and from the calls themselves for a session
    /// still owed its rebuild (`usage_pending`) or a store written before the rollup existed.
    /// SQLite only filters and reads the rows; the sums are made here (a `GROUP BY` sorted
    /// every row through a temporary B-tree). Buckets of calls are cut from timestamps in the
    /// canonical UTC form (`…Z`) by slicing, with `strftime` left for any other form; buckets
    /// of the rollup are cut from its hour, which is `strftime`'s own reading of each call.
    pub fn usage_groups(
        &self,
        grain: UsageGrain,
        q: &UsageQuery,
    ) -> Result<Vec<UsageGroup>, StoreError> {
        let mut sums = GroupSums::new(grain, &self.conn)?;
        if has_rollup(&self.conn)? {
            sums.read(Rows::Rollup, q)?;
            // Usually none: a writer rebuilds what it changed before it commits.
            if !pending_sessions(&self.conn)?.is_empty() {
                sums.read(Rows::PendingCalls, q)?;
            }
        } else {
            sums.read(Rows::AllCalls, q)?;
        }
        Ok(sums.finish())
    }
}

impl Store {
    /// Drops the usage rollup and queues every session with calls: reports read the calls
    /// until the next writer rebuilds it. A repair, and how the rollup is checked against the
    /// calls. Returns the number of sessions queued.
    pub fn queue_usage_rollup(&mut self) -> Result<u64, StoreError> {
        let tx = self.conn.transaction()?;
        tx.execute("DELETE FROM usage_hour", [])?;
        let n = tx.execute(
            "INSERT OR IGNORE INTO usage_pending (session_id) SELECT DISTINCT session_id FROM usage",
            [],
        )?;
        tx.commit()?;
        Ok(n as u64)
    }
}

/// Whether the store has the hourly rollup (a store opened read-only may predate it).
fn has_rollup(conn: &rusqlite::Connection) -> Result<bool, StoreError> {
    Ok(conn
        .prepare_cached(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'usage_pending'",
        )?
        .exists([])?)
}

/// Rebuilds the hourly rollup of every session in `usage_pending` from its calls and empties
/// the queue, inside the caller's transaction (the one that changed the calls, so the rollup
/// is committed with them). Returns the number of sessions rebuilt. A store without the
/// rollup is left alone.
///
/// A session's calls are read in their order of storage and summed with the same rules as a
/// report's (saturating, SQL's NULL for a sum of nothing), one session at a time, so memory is
/// bounded by one session's groups.
pub(crate) fn refresh_usage_rollup(conn: &rusqlite::Connection) -> Result<u64, StoreError> {
    if !has_rollup(conn)? {
        return Ok(0);
    }
    let pending = pending_sessions(conn)?;
    if pending.is_empty() {
        return Ok(0);
    }
    // One session at a time, each an index search: a join with the queue let SQLite walk the
    // whole `usage` index in session order instead (every call, at every source's commit).
    let mut clear = conn.prepare_cached("DELETE FROM usage_hour WHERE session_id = ?1")?;
    let mut calls = conn.prepare_cached(
        "SELECT u.at, u.provider, u.model, u.input_tokens, u.output_tokens,
                u.cache_creation_tokens, u.cache_read_tokens, u.reasoning_tokens,
                u.reported_cost_usd
         FROM usage u WHERE u.session_id = ?1 ORDER BY u.id",
    )?;
    let mut insert = conn.prepare_cached(
        "INSERT INTO usage_hour (session_id, hour, provider, model, long_context, calls,
             input_tokens, output_tokens, cache_creation_tokens, cache_read_tokens,
             reasoning_tokens, reported_cost_usd, reported_cost_exact, reported_calls, first_at,
             last_at)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
    )?;
    let mut other_form = conn.prepare_cached("SELECT strftime('%Y-%m-%dT%H', ?1)")?;
    type HourKey = (Option<String>, String, Option<String>, bool);
    for &sid in &pending {
        clear.execute([sid])?;
        let mut hours: BTreeMap<HourKey, Sums> = BTreeMap::new();
        let mut rows = calls.query([sid])?;
        while let Some(r) = rows.next()? {
            let at = text(r.get_ref(0)?);
            let hour = match at {
                None => None,
                Some(at) => match canonical_prefix(at, 13) {
                    Some(prefix) => Some(prefix.to_string()),
                    None => other_form.query_row([at], |r| r.get::<_, Option<String>>(0))?,
                },
            };
            let call = Call::from_row(r, 3, at)?;
            let key = (
                hour,
                text(r.get_ref(1)?).unwrap_or_default().to_string(),
                text(r.get_ref(2)?).map(str::to_string),
                call.long_context(),
            );
            hours.entry(key).or_default().add(call);
        }
        for ((hour, provider, model, long_context), s) in hours {
            insert.execute(rusqlite::params![
                sid,
                hour,
                provider,
                model,
                long_context,
                i64::try_from(s.calls).unwrap_or(i64::MAX),
                s.input,
                s.output,
                s.cache_creation,
                s.cache_read,
                s.reasoning,
                s.reported_cost.value(),
                s.reported_cost.exact_bytes(),
                i64::try_from(s.reported_calls).unwrap_or(i64::MAX),
                s.first_at,
                s.last_at,
            ])?;
        }
    }
    conn.prepare_cached("DELETE FROM usage_pending")?
        .execute([])?;
    Ok(pending.len() as u64)
}

/// The sessions owed a rebuild of their rollup, in id order.
fn pending_sessions(conn: &rusqlite::Connection) -> Result<Vec<i64>, StoreError> {
    let mut stmt = conn.prepare_cached("SELECT session_id FROM usage_pending ORDER BY 1")?;
    let ids = stmt
        .query_map([], |r| r.get(0))?
        .collect::<Result<Vec<i64>, _>>()?;
    Ok(ids)
}

/// Which rows a usage read sums.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rows {
    /// The rollup of every session not owed a rebuild.
    Rollup,
    /// The calls of the sessions owed a rebuild.
    PendingCalls,
    /// Every call (a store without the rollup).
    AllCalls,
}

/// The groups of one usage read, filled from rollup rows and calls alike.
struct GroupSums<'c> {
    grain: UsageGrain,
    /// The `strftime` format of the grain and the width of its canonical prefix.
    format: &'static str,
    width: usize,
    conn: &'c rusqlite::Connection,
    groups: BTreeMap<GroupKey, Sums>,
}

impl<'c> GroupSums<'c> {
    fn new(grain: UsageGrain, conn: &'c rusqlite::Connection) -> Result<Self, StoreError> {
        let (format, width) = match grain {
            UsageGrain::Day => ("%Y-%m-%d", 10),
            UsageGrain::Month => ("%Y-%m", 7),
            UsageGrain::Hour => ("%Y-%m-%dT%H", 13),
            UsageGrain::Session => ("", 0),
        };
        Ok(GroupSums {
            grain,
            format,
            width,
            conn,
            groups: BTreeMap::new(),
        })
    }

    fn read(&mut self, which: Rows, q: &UsageQuery) -> Result<(), StoreError> {
        let grain = self.grain;
        let bucket = if grain == UsageGrain::Session {
            "s.native_id"
        } else {
            "NULL" // cut from the time column below
        };
        let session_cols = if grain == UsageGrain::Session {
            "s.parent_native_id, s.cwd"
        } else {
            "NULL, NULL"
        };
        let (time, sums, table, day, only) = match which {
            Rows::Rollup => (
                "u.hour",
                "u.calls, u.reported_calls, u.first_at, u.last_at, u.long_context,
                 u.reported_cost_exact",
                "usage_hour",
                "substr(u.hour, 1, 10)",
                " AND u.session_id NOT IN (SELECT session_id FROM usage_pending)",
            ),
            Rows::PendingCalls | Rows::AllCalls => (
                "u.at",
                "NULL, NULL, NULL, NULL, NULL, NULL",
                "usage",
                "strftime('%Y-%m-%d', u.at)",
                if which == Rows::PendingCalls {
                    " AND u.session_id IN (SELECT session_id FROM usage_pending)"
                } else {
                    ""
                },
            ),
        };
        let mut sql = format!(
            "SELECT {bucket}, {time}, u.provider, u.model, u.input_tokens, u.output_tokens,
                    u.cache_creation_tokens, u.cache_read_tokens, u.reasoning_tokens,
                    u.reported_cost_usd, {session_cols}, {sums}
             FROM {table} u JOIN session s ON s.id = u.session_id WHERE 1 = 1{only}"
        );
        let mut args: Vec<String> = Vec::new();
        let mut push = |sql: &mut String, clause: &str, value: String| {
            args.push(value);
            sql.push_str(&clause.replace("?", &format!("?{}", args.len())));
        };
        if let Some(since) = &q.since {
            push(&mut sql, &format!(" AND {day} >= ?"), since.clone());
        }
        if let Some(until) = &q.until {
            push(&mut sql, &format!(" AND {day} <= ?"), until.clone());
        }
        if let Some(p) = &q.provider {
            let p = Provider::parse(p).as_str().to_string();
            push(&mut sql, " AND u.provider = ?", p);
        }
        if let Some(p) = &q.project {
            push(
                &mut sql,
                " AND instr(COALESCE(s.cwd, ''), ?) > 0",
                p.clone(),
            );
        }
        if let Some(m) = &q.model {
            push(
                &mut sql,
                " AND instr(COALESCE(u.model, ''), ?) > 0",
                m.clone(),
            );
        }
        if let Some(id) = &q.session {
            push(
                &mut sql,
                " AND ? IN (s.native_id, COALESCE(s.parent_native_id, ''))",
                id.clone(),
            );
        }
        let mut stmt = self.conn.prepare(&sql)?;
        let mut rows = stmt.query(rusqlite::params_from_iter(args.iter()))?;
        // What SQLite makes of a timestamp in any other form than the canonical one.
        let mut other_form = self.conn.prepare_cached("SELECT strftime(?1, ?2)")?;
        // Rows of one group mostly follow each other (one session, one day, one model): the
        // current group's sums are kept aside and its key compared in place, without copying.
        let mut current: Option<(GroupKey, Sums)> = None;
        while let Some(r) = rows.next()? {
            let time = text(r.get_ref(1)?);
            let formatted: String;
            let bucket = match (grain, time) {
                (UsageGrain::Session, _) => text(r.get_ref(0)?).unwrap_or_default(),
                (_, None) => "",
                // `strftime`'s hour, so its prefixes are its day and month.
                (_, Some(hour)) if which == Rows::Rollup => hour.get(..self.width).unwrap_or(hour),
                (_, Some(at)) => match canonical_prefix(at, self.width) {
                    Some(prefix) => prefix,
                    None => {
                        formatted = other_form
                            .query_row(rusqlite::params![self.format, at], |r| {
                                r.get::<_, Option<String>>(0)
                            })?
                            .unwrap_or_default();
                        &formatted
                    }
                },
            };
            let provider = text(r.get_ref(2)?).unwrap_or_default();
            let model = text(r.get_ref(3)?);
            let call = if which == Rows::Rollup {
                Call {
                    calls: r.get::<_, i64>(12)?.max(0) as u64,
                    reported_calls: r.get::<_, i64>(13)?.max(0) as u64,
                    first_at: text(r.get_ref(14)?),
                    last_at: text(r.get_ref(15)?),
                    long_context: Some(r.get(16)?),
                    reported_cost: CostSum::from_columns(
                        r.get(9)?,
                        match r.get_ref(17)? {
                            ValueRef::Blob(b) => Some(b),
                            _ => None,
                        },
                    ),
                    ..Call::from_row(r, 4, None)?
                }
            } else {
                Call::from_row(r, 4, time)?
            };
            let long_context = call.long_context();
            let parent = text(r.get_ref(10)?);
            let project = text(r.get_ref(11)?);
            let same = current.as_ref().is_some_and(|(k, _)| {
                k.bucket == bucket
                    && k.provider == provider
                    && k.model.as_deref() == model
                    && k.long_context == long_context
                    && k.parent.as_deref() == parent
                    && k.project.as_deref() == project
            });
            if !same {
                if let Some((k, sums)) = current.take() {
                    self.groups.entry(k).or_default().merge(sums);
                }
                let key = GroupKey {
                    bucket: bucket.to_string(),
                    provider: provider.to_string(),
                    model: model.map(str::to_string),
                    long_context,
                    parent: parent.map(str::to_string),
                    project: project.map(str::to_string),
                };
                current = Some((key, Sums::default()));
            }
            current.as_mut().expect("set above").1.add(call);
        }
        if let Some((k, sums)) = current.take() {
            self.groups.entry(k).or_default().merge(sums);
        }
        Ok(())
    }

    fn finish(self) -> Vec<UsageGroup> {
        let n = |v: i64| v.max(0) as u64;
        self.groups
            .into_iter()
            .map(|(k, s)| UsageGroup {
                bucket: k.bucket,
                provider: k.provider,
                model: k.model,
                long_context: k.long_context,
                tokens: TokenCounts {
                    input: n(s.input),
                    output: n(s.output),
                    cache_creation: n(s.cache_creation),
                    cache_read: n(s.cache_read),
                    reasoning: s.reasoning.map(n),
                },
                calls: s.calls,
                reported_cost_usd: s.reported_cost.value(),
                reported_calls: s.reported_calls,
                first_at: s.first_at,
                last_at: s.last_at,
                parent: k.parent,
                project: k.project,
            })
            .collect()
    }
}

/// A text column borrowed from the row (NULL and non-text values are `None`).
fn text(v: ValueRef<'_>) -> Option<&str> {
    match v {
        ValueRef::Text(t) => std::str::from_utf8(t).ok(),
        _ => None,
    }
}

/// The first `width` bytes of a timestamp in the canonical UTC form
/// (`2026-03-14T09:26:53.589Z`, a valid date and time): exactly what SQLite's `strftime` makes of
/// it for `%Y-%m-%d` (10), `%Y-%m` (7) and `%Y-%m-%dT%H` (13). `None` for any other text, which
/// is then left to `strftime` itself.
fn canonical_prefix(at: &str, width: usize) -> Option<&str> {
    let b = at.as_bytes();
    if b.len() < 20 || b.len() > 30 || b.last() != Some(&b'Z') {
        return None;
    }
    let digit = |i: usize| b[i].is_ascii_digit();
    let shape = (0..19).all(|i| match i {
        4 | 7 => b[i] == b'-',
        10 => b[i] == b'T',
        13 | 16 => b[i] == b':',
        _ => digit(i),
    });
    // `…:SSZ`, or `…:SS.` with 1 to 9 digits before the `Z`.
    let fraction = b.len() == 20 || (b[19] == b'.' && b.len() > 21 && (20..b.len() - 1).all(digit));
    if !shape || !fraction {
        return None;
    }
    let num = |i: usize, n: usize| {
        b[i..i + n]
            .iter()
            .fold(0u32, |v, d| v * 10 + u32::from(d - b'0'))
    };
    let (year, month, day) = (num(0, 4), num(5, 2), num(8, 2));
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let days = match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return None,
    };
    let valid = (1..=days).contains(&day) && num(11, 2) < 24 && num(14, 2) < 60 && num(17, 2) < 60;
    valid.then(|| &at[..width])
}

/// What a usage row is grouped by, in the order of the report.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
struct GroupKey {
    bucket: String,
    provider: String,
    model: Option<String>,
    long_context: bool,
    parent: Option<String>,
    project: Option<String>,
}

/// One model call's numbers, or a rollup row's (several calls already summed), borrowed from
/// its row.
struct Call<'a> {
    input: i64,
    output: i64,
    cache_creation: i64,
    cache_read: i64,
    reasoning: Option<i64>,
    reported_cost: CostSum,
    calls: u64,
    /// Calls whose runtime reported a cost (for one call: whether it did).
    reported_calls: u64,
    first_at: Option<&'a str>,
    last_at: Option<&'a str>,
    /// Known for a rollup row; computed from the tokens for one call.
    long_context: Option<bool>,
}

impl<'a> Call<'a> {
    /// One call from the token columns starting at `first` (input, output, cache creation,
    /// cache read, reasoning, reported cost) and its timestamp.
    fn from_row(
        r: &rusqlite::Row<'_>,
        first: usize,
        at: Option<&'a str>,
    ) -> rusqlite::Result<Self> {
        let reported_cost_usd: Option<f64> = r.get(first + 5)?;
        Ok(Call {
            input: r.get(first)?,
            output: r.get(first + 1)?,
            cache_creation: r.get(first + 2)?,
            cache_read: r.get(first + 3)?,
            reasoning: r.get(first + 4)?,
            reported_cost: reported_cost_usd.map_or(CostSum::Nothing, CostSum::of),
            calls: 1,
            reported_calls: u64::from(reported_cost_usd.is_some()),
            first_at: at,
            last_at: at,
            long_context: None,
        })
    }

    /// Whether the call's prompt is above the long-context size (a rollup row's calls all are
    /// or all are not).
    fn long_context(&self) -> bool {
        self.long_context.unwrap_or_else(|| {
            self.input
                .saturating_add(self.cache_creation)
                .saturating_add(self.cache_read)
                > LONG_CONTEXT_PROMPT_TOKENS as i64
        })
    }
}

/// The sums of a group, with SQL's rules: a sum over no non-NULL value is NULL (`None`).
#[derive(Debug, Default)]
struct Sums {
    input: i64,
    output: i64,
    cache_creation: i64,
    cache_read: i64,
    reasoning: Option<i64>,
    calls: u64,
    reported_cost: CostSum,
    reported_calls: u64,
    first_at: Option<String>,
    last_at: Option<String>,
}

impl Sums {
    fn add(&mut self, c: Call<'_>) {
        self.input = self.input.saturating_add(c.input);
        self.output = self.output.saturating_add(c.output);
        self.cache_creation = self.cache_creation.saturating_add(c.cache_creation);
        self.cache_read = self.cache_read.saturating_add(c.cache_read);
        if let Some(r) = c.reasoning {
            self.reasoning = Some(self.reasoning.unwrap_or(0).saturating_add(r));
        }
        self.calls += c.calls;
        self.reported_cost = self.reported_cost.plus(c.reported_cost);
        self.reported_calls += c.reported_calls;
        if let Some(at) = c.first_at {
            if self.first_at.as_deref().is_none_or(|f| at < f) {
                replace(&mut self.first_at, at);
            }
        }
        if let Some(at) = c.last_at {
            if self.last_at.as_deref().is_none_or(|l| at > l) {
                replace(&mut self.last_at, at);
            }
        }
    }

    fn merge(&mut self, o: Sums) {
        self.input = self.input.saturating_add(o.input);
        self.output = self.output.saturating_add(o.output);
        self.cache_creation = self.cache_creation.saturating_add(o.cache_creation);
        self.cache_read = self.cache_read.saturating_add(o.cache_read);
        if let Some(r) = o.reasoning {
            self.reasoning = Some(self.reasoning.unwrap_or(0).saturating_add(r));
        }
        self.calls += o.calls;
        self.reported_cost = self.reported_cost.plus(o.reported_cost);
        self.reported_calls += o.reported_calls;
        if let Some(f) = o.first_at {
            if self
                .first_at
                .as_deref()
                .is_none_or(|mine| f.as_str() < mine)
            {
                self.first_at = Some(f);
            }
        }
        if let Some(l) = o.last_at {
            if self.last_at.as_deref().is_none_or(|mine| l.as_str() > mine) {
                self.last_at = Some(l);
            }
        }
    }
}

/// A sum of the costs runtimes reported, the same whatever order its terms come in (a report
/// read from the rollup adds them in other groupings than one read from the calls).
///
/// Each cost is held exactly as a fixed-point integer of 2^-90 USD (every cost from about
/// 4·10^-12 USD up is exactly representable, smaller ones are cut to that unit), so sums are
/// integer sums and the value shown is the exact sum rounded once. A sum that leaves the range
/// (2^36 USD and more, which no bill reaches but an agent can write) falls back to adding
/// floats, in whatever order they come.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
enum CostSum {
    /// No call reported a cost (SQL's NULL).
    #[default]
    Nothing,
    Exact(i128),
    Float(f64),
}

impl CostSum {
    const UNIT: f64 = (1u128 << 90) as f64;
    const LIMIT: f64 = (1u64 << 36) as f64;

    fn of(cost: f64) -> CostSum {
        if cost.is_finite() && cost.abs() < Self::LIMIT {
            // Exact: a power-of-two scale, and the product is below 2^126.
            CostSum::Exact((cost * Self::UNIT) as i128)
        } else {
            CostSum::Float(cost)
        }
    }

    fn plus(self, other: CostSum) -> CostSum {
        match (self, other) {
            (CostSum::Nothing, o) => o,
            (s, CostSum::Nothing) => s,
            (CostSum::Exact(a), CostSum::Exact(b)) => match a.checked_add(b) {
                Some(sum) => CostSum::Exact(sum),
                None => CostSum::Float(a as f64 / Self::UNIT + b as f64 / Self::UNIT),
            },
            (a, b) => CostSum::Float(a.value().unwrap_or(0.0) + b.value().unwrap_or(0.0)),
        }
    }

    fn value(self) -> Option<f64> {
        match self {
            CostSum::Nothing => None,
            // The integer is rounded to the nearest float once; the division is exact.
            CostSum::Exact(v) => Some(v as f64 / Self::UNIT),
            CostSum::Float(v) => Some(v),
        }
    }

    /// The exact sum as the rollup keeps it (16 bytes, little-endian), beside its value.
    fn exact_bytes(self) -> Option<Vec<u8>> {
        match self {
            CostSum::Exact(v) => Some(v.to_le_bytes().to_vec()),
            _ => None,
        }
    }

    /// The sum a rollup row keeps: exact where it has the bytes, else its value.
    fn from_columns(value: Option<f64>, exact: Option<&[u8]>) -> CostSum {
        match (exact.and_then(|b| <[u8; 16]>::try_from(b).ok()), value) {
            (Some(b), _) => CostSum::Exact(i128::from_le_bytes(b)),
            (None, Some(v)) => CostSum::Float(v),
            (None, None) => CostSum::Nothing,
        }
    }
}

/// Sets `slot` to `value`, reusing its buffer.
fn replace(slot: &mut Option<String>, value: &str) {
    match slot {
        Some(s) => {
            s.clear();
            s.push_str(value);
        }
        None => *slot = Some(value.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `GROUP BY` this module replaced: the sums must be the same, row for row.
    fn reference(store: &Store, grain: UsageGrain, where_sql: &str) -> Vec<UsageGroup> {
        let bucket = match grain {
            UsageGrain::Day => "strftime('%Y-%m-%d', u.at)",
            UsageGrain::Month => "strftime('%Y-%m', u.at)",
            UsageGrain::Hour => "strftime('%Y-%m-%dT%H', u.at)",
            UsageGrain::Session => "s.native_id",
        };
        let (cols, group) = if grain == UsageGrain::Session {
            ("s.parent_native_id, s.cwd", ", 15, 16")
        } else {
            ("NULL, NULL", "")
        };
        let sql = format!(
            "SELECT {bucket}, u.provider, u.model,
                    (u.input_tokens + u.cache_creation_tokens + u.cache_read_tokens) > {LONG_CONTEXT_PROMPT_TOKENS},
                    SUM(u.input_tokens), SUM(u.output_tokens), SUM(u.cache_creation_tokens),
                    SUM(u.cache_read_tokens), SUM(u.reasoning_tokens), COUNT(*),
                    SUM(u.reported_cost_usd), COUNT(u.reported_cost_usd), MIN(u.at), MAX(u.at), {cols}
             FROM usage u JOIN session s ON s.id = u.session_id WHERE 1 = 1 {where_sql}
             GROUP BY 1, 2, 3, 4{group} ORDER BY 1, 2, 3, 4{group}"
        );
        let mut stmt = store.conn.prepare(&sql).unwrap();
        let n = |v: Option<i64>| v.map_or(0, |v| v.max(0) as u64);
        stmt.query_map([], |r| {
            Ok(UsageGroup {
                bucket: r.get::<_, Option<String>>(0)?.unwrap_or_default(),
                provider: r.get(1)?,
                model: r.get(2)?,
                long_context: r.get(3)?,
                tokens: TokenCounts {
                    input: n(r.get(4)?),
                    output: n(r.get(5)?),
                    cache_creation: n(r.get(6)?),
                    cache_read: n(r.get(7)?),
                    reasoning: r.get::<_, Option<i64>>(8)?.map(|v| v.max(0) as u64),
                },
                calls: n(r.get(9)?),
                reported_cost_usd: r.get(10)?,
                reported_calls: n(r.get(11)?),
                first_at: r.get(12)?,
                last_at: r.get(13)?,
                parent: r.get(14)?,
                project: r.get(15)?,
            })
        })
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
    }

    fn store_with_calls() -> (tempfile::TempDir, Store) {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("fornax.db")).unwrap();
        insert_calls(&store.conn);
        queue(&store, "SELECT DISTINCT session_id FROM usage");
        (dir, store)
    }

    /// Three sessions (one a subagent) and 120 calls in every timestamp form.
    fn insert_calls(conn: &rusqlite::Connection) {
        conn.execute_batch(
            "INSERT INTO session (id, provider, native_id, cwd, parent_native_id) VALUES
                   (1, 'claude_code', 'main', '/work/app', NULL),
                   (2, 'claude_code', 'agent-1', '/work/app', 'main'),
                   (3, 'codex', 'rollout', '/work/lib', NULL);",
        )
        .unwrap();
        // Timestamps in every form a runtime may write, canonical or not (an offset, a space,
        // no fraction, an impossible date, a leap day, text, NULL), calls of one group apart.
        let ats = [
            Some("2026-03-14T09:26:53.589Z"),
            Some("2026-03-14T23:59:59Z"),
            Some("2026-03-15T01:30:00+02:00"),
            Some("2026-03-15 08:00:00"),
            Some("2026-02-30T10:00:00.000Z"),
            Some("2024-02-29T12:00:00.123456Z"),
            Some("2026-03-14T10:75:00Z"),
            Some("yesterday Z"),
            None,
            Some("2026-04-01T00:00:00.5Z"),
        ];
        let models = [Some("claude-sonnet-4-5"), Some("gpt-5-codex"), None];
        let mut stmt = conn
            .prepare(
                "INSERT INTO usage (provider, key, session_id, at, model, input_tokens,
                    output_tokens, cache_creation_tokens, cache_read_tokens, reasoning_tokens,
                    reported_cost_usd, source_id)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, 1)",
            )
            .unwrap();
        for i in 0..120_i64 {
            let session = 1 + i % 3;
            let provider = if session == 3 { "codex" } else { "claude_code" };
            let input = if i % 7 == 0 { 250_000 } else { 100 + i };
            stmt.execute(rusqlite::params![
                provider,
                format!("k{i}"),
                session,
                ats[(i as usize * 7) % ats.len()],
                models[(i as usize / 2) % models.len()],
                input,
                10 + i,
                i % 5,
                1000 * (i % 4),
                (i % 3 == 0).then_some(i),
                (i % 4 == 0).then_some(0.25 * (i % 8) as f64),
            ])
            .unwrap();
        }
    }

    /// A home written before the rollup existed: read as it was (from its calls), then opened
    /// by a writer, which migrates it and builds the rollup, and read again: the same answers.
    #[test]
    fn a_home_from_before_the_rollup_gets_it_and_the_same_answers() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("fornax.db");
        // Schema 9: the release before the rollup.
        let before = 9;
        {
            let mut conn = rusqlite::Connection::open(&path).unwrap();
            crate::packed::register_writer(&conn, &Default::default()).unwrap();
            let tx = conn.transaction().unwrap();
            for sql in &crate::schema::MIGRATIONS[..before] {
                tx.execute_batch(sql).unwrap();
            }
            tx.pragma_update(None, "user_version", before as u32)
                .unwrap();
            insert_calls(&tx);
            tx.commit().unwrap();
        }
        // A handle that does not migrate: what the previous release read.
        let old = Store {
            conn: rusqlite::Connection::open(&path).unwrap(),
            path: path.clone(),
            writer: None,
            dicts: Default::default(),
            packs: Default::default(),
        };
        assert!(!has_rollup(&old.conn).unwrap());
        let (as_it_was, reference_answers) = answers(&old);
        assert_eq!(as_it_was, reference_answers);
        drop(old);
        let store = Store::open(&path).unwrap();
        assert_eq!(
            count(&store, "usage_pending"),
            0,
            "built when the writer opened it"
        );
        assert!(count(&store, "usage_hour") > 0);
        let (now, _) = answers(&store);
        assert_eq!(now, as_it_was);
    }

    #[test]
    fn sums_match_the_group_by_for_every_grain_and_filter() {
        let (_dir, store) = store_with_calls();
        let grains = [
            UsageGrain::Day,
            UsageGrain::Month,
            UsageGrain::Hour,
            UsageGrain::Session,
        ];
        for grain in grains {
            let ours = store.usage_groups(grain, &UsageQuery::default()).unwrap();
            assert_eq!(ours, reference(&store, grain, ""), "{grain:?}");
            assert!(
                ours.len() > 3,
                "{grain:?}: the calls fall in several groups"
            );
            let q = UsageQuery {
                since: Some("2026-03-14".into()),
                project: Some("/work/app".into()),
                ..UsageQuery::default()
            };
            let filtered = store.usage_groups(grain, &q).unwrap();
            let sql = "AND strftime('%Y-%m-%d', u.at) >= '2026-03-14' AND instr(COALESCE(s.cwd, ''), '/work/app') > 0";
            assert_eq!(
                filtered,
                reference(&store, grain, sql),
                "{grain:?} filtered"
            );
        }
        let day = store
            .usage_groups(UsageGrain::Day, &UsageQuery::default())
            .unwrap();
        let buckets: std::collections::BTreeSet<&str> =
            day.iter().map(|g| g.bucket.as_str()).collect();
        // strftime's own readings of the forms that are not sliced.
        for b in [
            "",
            "2026-03-02",
            "2026-03-14",
            "2026-03-15",
            "2024-02-29",
            "2026-04-01",
        ] {
            assert!(buckets.contains(b), "{b:?} in {buckets:?}");
        }
    }

    /// Every grain under several filters, from `usage_groups` and from the reference.
    fn answers(store: &Store) -> (Vec<Vec<UsageGroup>>, Vec<Vec<UsageGroup>>) {
        let grains = [
            UsageGrain::Day,
            UsageGrain::Month,
            UsageGrain::Hour,
            UsageGrain::Session,
        ];
        let filters: [(UsageQuery, &str); 5] = [
            (UsageQuery::default(), ""),
            (
                UsageQuery {
                    since: Some("2026-03-14".into()),
                    project: Some("/work/app".into()),
                    ..UsageQuery::default()
                },
                "AND strftime('%Y-%m-%d', u.at) >= '2026-03-14' AND instr(COALESCE(s.cwd, ''), '/work/app') > 0",
            ),
            (
                UsageQuery {
                    until: Some("2026-03-14".into()),
                    model: Some("sonnet".into()),
                    ..UsageQuery::default()
                },
                "AND strftime('%Y-%m-%d', u.at) <= '2026-03-14' AND instr(COALESCE(u.model, ''), 'sonnet') > 0",
            ),
            (
                UsageQuery {
                    provider: Some("codex".into()),
                    ..UsageQuery::default()
                },
                "AND u.provider = 'codex'",
            ),
            (
                UsageQuery {
                    session: Some("main".into()),
                    ..UsageQuery::default()
                },
                "AND 'main' IN (s.native_id, COALESCE(s.parent_native_id, ''))",
            ),
        ];
        let mut ours = Vec::new();
        let mut theirs = Vec::new();
        for grain in grains {
            for (q, sql) in &filters {
                ours.push(store.usage_groups(grain, q).unwrap());
                theirs.push(reference(store, grain, sql));
            }
        }
        (ours, theirs)
    }

    fn count(store: &Store, table: &str) -> i64 {
        store
            .conn
            .query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get(0))
            .unwrap()
    }

    /// What a writer does for the sessions whose calls it inserted or replaced.
    fn queue(store: &Store, sessions: &str) {
        store
            .conn
            .execute_batch(&format!(
                "INSERT OR IGNORE INTO usage_pending (session_id) {sessions}"
            ))
            .unwrap();
    }

    fn refresh(store: &Store) -> u64 {
        let tx = store.conn.unchecked_transaction().unwrap();
        let n = refresh_usage_rollup(&tx).unwrap();
        tx.commit().unwrap();
        n
    }

    /// The rollup answers exactly what the calls answer, before it is built (every session
    /// pending), once built, and after calls are replaced, moved between groups, removed and
    /// added (only the touched sessions pending, the others from the rollup). A deleted call
    /// queues its session itself (a trigger); inserted and replaced ones are queued here as
    /// the writer queues them.
    #[test]
    fn the_rollup_answers_what_the_calls_answer() {
        let (_dir, store) = store_with_calls();
        assert_eq!(
            count(&store, "usage_pending"),
            3,
            "every session is owed its rollup"
        );
        let (ours, theirs) = answers(&store);
        assert_eq!(ours, theirs, "from the calls");
        assert_eq!(refresh(&store), 3);
        assert_eq!(count(&store, "usage_pending"), 0);
        let rollup_rows = count(&store, "usage_hour");
        assert!(
            (3..120).contains(&rollup_rows),
            "{rollup_rows} rollup rows for 120 calls"
        );
        let (from_rollup, _) = answers(&store);
        assert_eq!(from_rollup, theirs, "from the rollup");
        // A rescan's replacement (new counts, a model learnt late), a forgotten call and a new
        // one: in session 1 and 3 only.
        store
            .conn
            .execute_batch(
                "UPDATE usage SET input_tokens = 300000, model = 'claude-opus-4-5'
                     WHERE key IN ('k0', 'k3');
                 UPDATE usage SET output_tokens = output_tokens + 7 WHERE key = 'k9';
                 DELETE FROM usage WHERE key IN ('k6', 'k2');
                 INSERT INTO usage (provider, key, session_id, at, model, input_tokens,
                     output_tokens, cache_creation_tokens, cache_read_tokens, source_id)
                 VALUES ('codex', 'k-new', 3, '2026-03-14T09:59:59.999Z', 'gpt-5-codex', 1, 2, 3, 4, 1);",
            )
            .unwrap();
        queue(
            &store,
            "SELECT session_id FROM usage WHERE key IN ('k0', 'k3', 'k9', 'k-new')",
        );
        let pending: Vec<i64> = store
            .conn
            .prepare("SELECT session_id FROM usage_pending ORDER BY 1")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert_eq!(pending, vec![1, 3]);
        let (mixed, theirs) = answers(&store);
        assert_eq!(
            mixed, theirs,
            "pending sessions from their calls, others from the rollup"
        );
        assert_eq!(refresh(&store), 2);
        let (rebuilt, _) = answers(&store);
        assert_eq!(rebuilt, theirs, "after the rebuild");
        // Every call of a session gone: so are its rollup rows.
        store
            .conn
            .execute("DELETE FROM usage WHERE session_id = 2", [])
            .unwrap();
        refresh(&store);
        let left: i64 = store
            .conn
            .query_row(
                "SELECT COUNT(*) FROM usage_hour WHERE session_id = 2",
                [],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(left, 0);
        assert_eq!(answers(&store).0, answers(&store).1);
    }

    /// Counts an agent wrote to overflow a sum are saturated, in the rollup as in a report:
    /// the rebuild does not fail (it runs inside the ingest's transaction).
    #[test]
    fn absurd_counts_saturate_in_the_rollup() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("fornax.db")).unwrap();
        store
            .conn
            .execute_batch(&format!(
                "INSERT INTO session (id, provider, native_id) VALUES (1, 'codex', 'x');
                 INSERT INTO usage (provider, key, session_id, at, model, input_tokens,
                     output_tokens, cache_creation_tokens, cache_read_tokens, source_id)
                 VALUES ('codex', 'a', 1, '2026-01-01T00:00:00Z', 'm', {max}, {max}, 0, 0, 1),
                        ('codex', 'b', 1, '2026-01-01T00:10:00Z', 'm', {max}, 1, 0, 0, 1);",
                max = i64::MAX
            ))
            .unwrap();
        queue(&store, "VALUES (1)");
        assert_eq!(refresh(&store), 1);
        let day = store
            .usage_groups(UsageGrain::Day, &UsageQuery::default())
            .unwrap();
        assert_eq!(day.len(), 1);
        assert_eq!(day[0].tokens.input, i64::MAX as u64);
        assert_eq!(day[0].tokens.output, i64::MAX as u64);
        assert_eq!(day[0].calls, 2);
    }

    /// Reported costs sum to the same value in any order and grouping (floats do not:
    /// `(0.1 + 0.2) + 0.3 != 0.1 + (0.2 + 0.3)`), and a cost no bill reaches is still added.
    #[test]
    fn reported_costs_sum_the_same_in_any_order() {
        let costs: Vec<f64> = (1..=500)
            .map(|i| f64::from(i) * 0.000_173_1 + 1.0 / f64::from(i))
            .collect();
        let sum = |it: &mut dyn Iterator<Item = &f64>| {
            it.fold(CostSum::Nothing, |s, &c| s.plus(CostSum::of(c)))
        };
        let forward = sum(&mut costs.iter());
        let backward = sum(&mut costs.iter().rev());
        let grouped = costs
            .chunks(7)
            .map(|c| sum(&mut c.iter()))
            .rev()
            .fold(CostSum::Nothing, CostSum::plus);
        assert_eq!(forward.value(), backward.value());
        assert_eq!(forward.value(), grouped.value());
        let floats: f64 = costs.iter().sum();
        assert!((forward.value().unwrap() - floats).abs() < 1e-9);
        let tenths = [0.1, 0.2, 0.3];
        let (left, right) = ((0.1 + 0.2) + 0.3, 0.1 + (0.2 + 0.3));
        assert_ne!(left, right, "a float sum depends on order");
        assert_eq!(
            sum(&mut tenths.iter()).value(),
            sum(&mut tenths.iter().rev()).value()
        );
        assert_eq!(CostSum::Nothing.value(), None);
        let huge = CostSum::of(1e300).plus(CostSum::of(2.5));
        assert_eq!(huge.value(), Some(1e300));
        let exact = CostSum::of(0.25).plus(CostSum::of(0.5));
        assert_eq!(exact.value(), Some(0.75));
        assert_eq!(
            CostSum::from_columns(Some(0.75), exact.exact_bytes().as_deref()),
            exact
        );
    }

    #[test]
    fn only_valid_canonical_timestamps_are_sliced() {
        assert_eq!(
            canonical_prefix("2026-03-14T09:26:53.589Z", 10),
            Some("2026-03-14")
        );
        assert_eq!(
            canonical_prefix("2026-03-14T09:26:53Z", 13),
            Some("2026-03-14T09")
        );
        assert_eq!(canonical_prefix("2024-02-29T00:00:00Z", 7), Some("2024-02"));
        for other in [
            "2026-02-29T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-03-14T24:00:00Z",
            "2026-03-14T09:26:53+00:00",
            "2026-03-14 09:26:53Z",
            "2026-03-14T09:26:53.Z",
            "2026-03-14T09:26:53.5x9Z",
            "2026-03-14",
            "",
            "ZZZZZZZZZZZZZZZZZZZZZ",
            "2026-03-14T09:26:53.1234567890123Z",
        ] {
            assert_eq!(canonical_prefix(other, 10), None, "{other:?}");
        }
    }
}
