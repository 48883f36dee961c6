//! `fornax query SQL` and `fornax schema`

use std::time::Duration;

use clap::Args;
use fornax_store::QueryLimits;

use crate::error::CliError;
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct QueryArgs {
    /// One read-only SQL statement.
    pub sql: String,
    #[arg(long, default_value_t = 1000)]
    pub max_rows: usize,
    #[arg(long, default_value_t = 5000)]
    pub timeout_ms: u64,
}

pub fn run(ctx: &Context, args: QueryArgs) -> Result<(), CliError> {
    let store = ctx.open_store_read_only()?;
    let limits = QueryLimits {
        max_rows: args.max_rows,
        timeout: Duration::from_millis(args.timeout_ms),
        ..QueryLimits::default()
    };
    let result = match store.query(&args.sql, limits) {
        Ok(r) => r,
        Err(e @ fornax_store::StoreError::QueryRefused(_)) => {
            return Err(
                CliError::usage(e.to_string()).with_hint("`fornax schema` lists what can be read")
            )
        }
        Err(e) => return Err(e.into()),
    };
    if ctx.json {
        output::json(&result);
        return Ok(());
    }
    let rows: Vec<Vec<String>> = result
        .rows
        .iter()
        .map(|r| {
            r.iter()
                .map(|v| match v {
                    serde_json::Value::String(s) => output::clip(s, 80),
                    serde_json::Value::Null => "NULL".into(),
                    other => other.to_string(),
                })
                .collect()
        })
        .collect();
    let headers: Vec<&str> = result.columns.iter().map(String::as_str).collect();
    output::table(&headers, &rows);
    if result.truncated {
        output::warn(&format!("output truncated at {} rows", result.rows.len()));
    }
    Ok(())
}

pub fn schema(ctx: &Context) -> Result<(), CliError> {
    let store = ctx.open_store()?;
    let schema = store.schema()?;
    if ctx.json {
        output::json(&serde_json::json!({ "relations": schema }));
        return Ok(());
    }
    for rel in schema {
        output::heading(&format!("{}  {}", rel.name, output::dim(&rel.description)));
        let cols: Vec<String> = rel
            .columns
            .iter()
            .map(|c| {
                if c.sql_type.is_empty() {
                    c.name.clone()
                } else {
                    format!("{} {}", c.name, c.sql_type)
                }
            })
            .collect();
        output::line(&format!("  {}", cols.join(", ")));
    }
    Ok(())
}
