//! `fornax sync postgres://…`: mirror the store into a team's PostgreSQL. The client is the
//! `postgres` feature; a build without it keeps the command and says how to get it.

use clap::Args;

use crate::error::CliError;
use crate::home::Context;
#[cfg(feature = "postgres")]
use crate::output;

#[derive(Debug, Args)]
// Without the mirror the arguments are parsed (the command line stays the same) but not read.
#[cfg_attr(not(feature = "postgres"), allow(dead_code))]
pub struct SyncArgs {
    /// A PostgreSQL connection string (`postgres://user@host/db`, or `host=/socket/dir dbname=x`).
    #[arg(env = "FORNAX_SYNC_URL")]
    pub url: String,
    /// This machine's label on every row (default: the host name).
    #[arg(long)]
    pub machine: Option<String>,
    /// The person's label on every row (default: $USER).
    #[arg(long)]
    pub user: Option<String>,
    /// Mirror item texts too (already redacted); by default only metadata leaves.
    #[arg(long)]
    pub texts: bool,
    /// Rows per table per transaction.
    #[arg(long, default_value_t = 1000)]
    pub batch: usize,
    /// The read-only role granted SELECT on the mirror (for dashboards).
    #[arg(long, default_value = "fornax_reader")]
    pub reader_role: String,
    /// Keep following the local store, pushing every INTERVAL seconds.
    #[arg(long)]
    pub watch: bool,
    #[arg(long, default_value_t = 30)]
    pub interval: u64,
}

#[cfg(not(feature = "postgres"))]
pub fn run(_ctx: &Context, _args: SyncArgs) -> Result<(), CliError> {
    Err(
        CliError::usage("this fornax was built without the PostgreSQL mirror").with_hint(
            "reinstall with it: cargo install --path crates/fornax-cli --features postgres",
        ),
    )
}

#[cfg(feature = "postgres")]
pub fn run(ctx: &Context, args: SyncArgs) -> Result<(), CliError> {
    use fornax_export::postgres::{self, SyncOptions};
    use std::time::Duration;

    let opts = SyncOptions {
        machine: args.machine.clone().unwrap_or_else(hostname),
        user: args
            .user
            .clone()
            .or_else(|| std::env::var("USER").ok())
            .unwrap_or_else(|| "unknown".into()),
        texts: args.texts,
        batch: args.batch,
        reader_role: (!args.reader_role.is_empty()).then(|| args.reader_role.clone()),
    };
    loop {
        let store = ctx.open_store_read_only()?;
        let report = postgres::sync(&store, &args.url, &opts)?;
        drop(store);
        if ctx.json {
            output::json(&report);
        } else {
            output::line(&format!(
                "{}: {} rows written ({} sessions, {} loops, {} items, {} findings) in {} batches",
                postgres::redact_url(&args.url),
                report.rows(),
                report.sessions,
                report.loops,
                report.items,
                report.findings,
                report.batches
            ));
            if let Some(why) = &report.reader_role_skipped {
                output::warn(&format!("read-only role not granted: {why}"));
            }
        }
        if !args.watch {
            return Ok(());
        }
        std::thread::sleep(Duration::from_secs(args.interval.max(1)));
    }
}

#[cfg(feature = "postgres")]
fn hostname() -> String {
    std::fs::read_to_string("/etc/hostname")
        .ok()
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty())
        .or_else(|| std::env::var("HOSTNAME").ok())
        .unwrap_or_else(|| "localhost".into())
}
