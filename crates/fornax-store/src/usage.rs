//! Usage reads: token counts of model calls summed per bucket (day, month, hour, session),
//! provider and model, answered from the `usage` table and its indexes (never from the
//! native files).

use fornax_types::{Provider, TokenCounts, UsageGroup, LONG_CONTEXT_PROMPT_TOKENS};

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
    pub fn usage_groups(
        &self,
        grain: UsageGrain,
        q: &UsageQuery,
    ) -> Result<Vec<UsageGroup>, StoreError> {
        let bucket = match grain {
            UsageGrain::Day => "strftime('%Y-%m-%d', u.at)",
            UsageGrain::Month => "strftime('%Y-%m', u.at)",
            UsageGrain::Hour => "strftime('%Y-%m-%dT%H', u.at)",
            UsageGrain::Session => "s.native_id",
        };
        let session_cols = if grain == UsageGrain::Session {
            "s.parent_native_id, s.cwd"
        } else {
            "NULL, NULL"
        };
        let mut sql = format!(
            "SELECT {bucket}, u.provider, u.model,
                    (u.input_tokens + u.cache_creation_tokens + u.cache_read_tokens) > {LONG_CONTEXT_PROMPT_TOKENS},
                    SUM(u.input_tokens), SUM(u.output_tokens), SUM(u.cache_creation_tokens),
                    SUM(u.cache_read_tokens), SUM(u.reasoning_tokens), COUNT(*),
                    SUM(u.reported_cost_usd), COUNT(u.reported_cost_usd), MIN(u.at), MAX(u.at),
                    {session_cols}
             FROM usage u JOIN session s ON s.id = u.session_id WHERE 1 = 1"
        );
        let mut args: Vec<String> = Vec::new();
        let mut push = |sql: &mut String, clause: &str, value: String| {
            args.push(value);
            sql.push_str(&clause.replace("?", &format!("?{}", args.len())));
        };
        if let Some(since) = &q.since {
            push(
                &mut sql,
                " AND strftime('%Y-%m-%d', u.at) >= ?",
                since.clone(),
            );
        }
        if let Some(until) = &q.until {
            push(
                &mut sql,
                " AND strftime('%Y-%m-%d', u.at) <= ?",
                until.clone(),
            );
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
        sql.push_str(" GROUP BY 1, 2, 3, 4");
        if grain == UsageGrain::Session {
            sql.push_str(", 15, 16");
        }
        sql.push_str(" ORDER BY 1, 2, 3, 4");
        let mut stmt = self.conn.prepare(&sql)?;
        let n = |v: Option<i64>| v.map_or(0, |v| v.max(0) as u64);
        let rows = stmt.query_map(rusqlite::params_from_iter(args.iter()), |r| {
            let reasoning: Option<i64> = r.get(8)?;
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
                    reasoning: reasoning.map(|v| v.max(0) as u64),
                },
                calls: n(r.get(9)?),
                reported_cost_usd: r.get(10)?,
                reported_calls: n(r.get(11)?),
                first_at: r.get(12)?,
                last_at: r.get(13)?,
                parent: r.get(14)?,
                project: r.get(15)?,
            })
        })?;
        Ok(rows.collect::<Result<_, _>>()?)
    }
}
