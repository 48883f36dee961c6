//! `fornax reindex`: rebuilds the index from the archive alone (a new adapter version, a
//! schema change), without reading the agents' files.
//!
//! The new index is built beside the old one (`fornax.db.reindex`), verified, and only then
//! moved over it, under the store-writer lock held throughout: a rebuild that fails or is
//! killed leaves the old index as it was.

use std::path::{Path, PathBuf};

use clap::Args;
use fornax_ingest::{IngestOptions, Ingestor};
use fornax_store::{LockWait, Store, WriterLock};

use crate::error::CliError;
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct ReindexArgs {
    /// Seconds to wait for another writer to finish.
    #[arg(long, default_value_t = 60)]
    pub wait: u64,
}

fn with_suffix(path: &Path, suffix: &str) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(suffix);
    PathBuf::from(p)
}

/// Removes a database file and its companions (a rebuild's leftovers).
fn remove_db(path: &Path) -> Result<(), CliError> {
    for suffix in ["", "-wal", "-shm", ".lock"] {
        let p = with_suffix(path, suffix);
        match std::fs::remove_file(&p) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(anyhow::anyhow!("cannot remove {}: {e}", p.display()).into()),
        }
    }
    Ok(())
}

pub fn run(ctx: &Context, args: ReindexArgs) -> Result<(), CliError> {
    let db = ctx.db_path();
    if !db.exists() {
        return Err(fornax_store::StoreError::Missing(db).into());
    }
    if super::daemon::status(&ctx.home).is_some() {
        return Err(anyhow::anyhow!(
            "the daemon is running on {}: stop it (`fornax daemon stop`) before reindexing",
            ctx.home.display()
        )
        .into());
    }
    let _lock = WriterLock::acquire(
        &db,
        "reindex",
        LockWait::up_to(std::time::Duration::from_secs(args.wait)),
    )?;
    let old = Store::open(&db)?;
    let stats = old.archive_stats()?;
    if stats.records_unarchived > 0 {
        return Err(CliError::from(anyhow::anyhow!(
            "{} of {} records have no archived copy (stored with the archive off, or by an older release): a rebuild from the archive would lose them; nothing was changed",
            stats.records_unarchived,
            stats.records_unarchived + stats.records_archived
        ))
        .with_hint("`mv fornax.db fornax.db.old && fornax scan` rebuilds from the agents' files still on disk"));
    }
    let fresh = with_suffix(&db, ".reindex");
    remove_db(&fresh)?;
    let registry = crate::registry::registry();
    let (replayed, summary) = {
        let mut new = Store::open(&fresh)?;
        let options = IngestOptions {
            exclude: ctx.config.capture.excluded(),
            ..IngestOptions::default()
        };
        let mut ingestor = Ingestor::new(&mut new, &registry, options);
        let replayed = match ingestor.reindex_from(&old) {
            Ok(r) => r,
            Err(e) => {
                drop(ingestor);
                drop(new);
                let _ = remove_db(&fresh);
                return Err(anyhow::anyhow!("reindex stopped: {e}").into());
            }
        };
        let summary = ingestor.finish()?;
        new.checkpoint()?;
        (replayed, summary)
    };
    drop(old);
    // The old index goes only now, replaced in one rename; its WAL belongs to it.
    for suffix in ["-wal", "-shm"] {
        let _ = std::fs::remove_file(with_suffix(&db, suffix));
    }
    std::fs::rename(&fresh, &db)
        .map_err(|e| anyhow::anyhow!("cannot move {} to {}: {e}", fresh.display(), db.display()))?;
    remove_db(&fresh)?;
    Store::open(&db)?.make_private();
    if ctx.json {
        output::json(&serde_json::json!({
            "sources": replayed.sources,
            "records": replayed.records,
            "skipped": replayed.skipped,
            "summary": summary,
        }));
    } else {
        output::line(&format!(
            "reindexed {} sources, {} records from the archive · {} items, {} findings judged",
            replayed.sources,
            replayed.records,
            summary.items,
            summary.findings.values().sum::<i64>()
        ));
        for locator in &replayed.skipped {
            output::warn(&format!(
                "{locator}: its adapter is not in this build; left out"
            ));
        }
    }
    Ok(())
}
