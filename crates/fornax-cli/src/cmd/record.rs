//! `fornax record inspect|verify ID`

use std::io::{Read, Seek, SeekFrom};

use clap::{Args, Subcommand};
use serde::Serialize;

use crate::error::CliError;
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct RecordArgs {
    #[command(subcommand)]
    pub action: RecordAction,
}

#[derive(Debug, Subcommand)]
pub enum RecordAction {
    /// Re-read a record's bytes from its source after checking its fingerprint.
    Inspect { id: i64 },
    /// Check a record against its source: verified, source_missing, source_short, hash_mismatch.
    Verify { id: i64 },
}

#[derive(Debug, Serialize)]
struct Check {
    id: i64,
    status: &'static str,
    locator: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    member: Option<String>,
    byte_start: Option<i64>,
    byte_end: Option<i64>,
    fingerprint: String,
}

fn matches(loc: &fornax_store::RecordLocation, bytes: Vec<u8>) -> (&'static str, Option<Vec<u8>>) {
    if fornax_types::Fingerprint::of(&bytes).to_hex() == loc.fingerprint {
        ("verified", Some(bytes))
    } else {
        ("hash_mismatch", None)
    }
}

/// A database row's document, rebuilt the way ingestion read it.
fn check_row(loc: &fornax_store::RecordLocation, member: &str) -> (&'static str, Option<Vec<u8>>) {
    let registry = crate::registry::registry();
    let Some(spec) = registry
        .by_name(&loc.adapter)
        .and_then(|d| d.tree)
        .and_then(|t| t.database)
    else {
        return ("adapter_unavailable", None);
    };
    if !std::path::Path::new(&loc.locator).exists() {
        return ("source_missing", None);
    }
    match fornax_store::ForeignDocuments::open(std::path::Path::new(&loc.locator), spec)
        .and_then(|db| db.document(member))
    {
        Ok(Some(bytes)) => matches(loc, bytes),
        Ok(None) => ("source_short", None),
        Err(_) => ("source_unreadable", None),
    }
}

pub(crate) fn check(loc: &fornax_store::RecordLocation) -> (&'static str, Option<Vec<u8>>) {
    let path = match (&loc.member, loc.kind.as_str()) {
        (Some(member), "database") => return check_row(loc, member),
        (Some(member), _) => std::path::Path::new(&loc.locator).join(member),
        (None, _) => std::path::PathBuf::from(&loc.locator),
    };
    let (Some(start), Some(end)) = (loc.byte_start, loc.byte_end) else {
        return ("no_byte_range", None);
    };
    let Ok(mut file) = std::fs::File::open(&path) else {
        return ("source_missing", None);
    };
    let len = file.metadata().map(|m| m.len()).unwrap_or(0);
    if (end as u64) > len {
        return ("source_short", None);
    }
    let mut bytes = vec![0u8; (end - start) as usize];
    if file.seek(SeekFrom::Start(start as u64)).is_err() || file.read_exact(&mut bytes).is_err() {
        return ("source_short", None);
    }
    matches(loc, bytes)
}

pub fn run(ctx: &Context, args: RecordArgs) -> Result<(), CliError> {
    let store = ctx.open_store_read_only()?;
    let (id, inspect) = match args.action {
        RecordAction::Inspect { id } => (id, true),
        RecordAction::Verify { id } => (id, false),
    };
    let loc = store.record_location(id)?;
    let (status, bytes) = check(&loc);
    let report = Check {
        id,
        status,
        locator: loc.locator.clone(),
        member: loc.member.clone(),
        byte_start: loc.byte_start,
        byte_end: loc.byte_end,
        fingerprint: loc.fingerprint.clone(),
    };
    if inspect {
        let Some(bytes) = bytes else {
            return Err(
                anyhow::anyhow!("record {id} cannot be shown: {status} ({})", loc.locator).into(),
            );
        };
        if ctx.json {
            output::json(&serde_json::json!({
                "record": report,
                "text": String::from_utf8_lossy(&bytes),
            }));
        } else {
            output::line(&String::from_utf8_lossy(&bytes));
        }
        return Ok(());
    }
    if ctx.json {
        output::json(&report);
    } else {
        let place = match (&loc.member, loc.byte_start, loc.byte_end) {
            (Some(m), Some(start), Some(end)) => {
                format!("{}/{m} bytes {start}..{end}", loc.locator)
            }
            (Some(m), _, _) => format!("{} row {m}", loc.locator),
            (None, start, end) => format!(
                "{} bytes {}..{}",
                loc.locator,
                start.unwrap_or(0),
                end.unwrap_or(0)
            ),
        };
        output::line(&format!("record {id}: {status} ({place})"));
    }
    if status == "verified" {
        Ok(())
    } else {
        Err(CliError::Exit(1))
    }
}
