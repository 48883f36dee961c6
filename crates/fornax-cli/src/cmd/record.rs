//! `fornax record inspect|verify ID`: `inspect` prints a record redacted and bounded
//! (`--max-bytes`); its raw bytes only with `--raw`, with a warning. When the live source no
//! longer holds the record's bytes, `inspect` shows its archived copy (redacted when it was
//! stored) and says so; `verify` checks both: the live source against the raw fingerprint, and
//! the archived copy against its own key.

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
    /// Re-read a record from its source after checking its fingerprint, redacted (from the
    /// archive when the source no longer holds it).
    Inspect {
        id: i64,
        /// Print the bytes as the source holds them, secrets included (warned on stderr).
        #[arg(long)]
        raw: bool,
        /// Print at most this many bytes of the record (0: all of it).
        #[arg(long, default_value_t = DEFAULT_MAX_BYTES)]
        max_bytes: usize,
    },
    /// Check a record against its source: verified, source_missing, source_short, hash_mismatch,
    /// or retired (a spool segment deleted by retention once everything in it was stored); and
    /// whether its archived copy is intact, damaged, missing or not_archived.
    Verify { id: i64 },
}

/// How much of a record `inspect` prints unless asked for more.
const DEFAULT_MAX_BYTES: usize = 64 * 1024;

/// What `inspect` prints of a record.
struct Shown {
    text: String,
    /// Secrets replaced (0 for `--raw`).
    redactions: u64,
    /// Bytes of the full text, before the cut.
    total: usize,
    /// The text was cut at `--max-bytes`.
    truncated: bool,
}

/// A record's bytes as `inspect` shows them: redacted unless `raw`, then cut at `max_bytes`
/// (after redaction, so a cut never leaves part of a secret). A JSON record is redacted as
/// JSON; when nothing in it is a secret, its bytes are shown as they are.
fn shown(bytes: &[u8], raw: bool, max_bytes: usize) -> Shown {
    let source = String::from_utf8_lossy(bytes);
    let mut counts = fornax_redact::RedactionCounts::default();
    let text = if raw {
        source.into_owned()
    } else {
        let redactor = fornax_redact::Redactor::new();
        match serde_json::from_slice::<serde_json::Value>(bytes) {
            Ok(mut value) => {
                redactor.redact_json(&mut value, &mut counts);
                if counts.is_empty() {
                    source.into_owned()
                } else {
                    value.to_string()
                }
            }
            Err(_) => redactor
                .redact_text(&source, &mut counts)
                .unwrap_or_else(|| source.into_owned()),
        }
    };
    let total = text.len();
    let mut cut = if max_bytes == 0 {
        total
    } else {
        max_bytes.min(total)
    };
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    Shown {
        text: text[..cut].to_string(),
        redactions: counts.total(),
        total,
        truncated: cut < total,
    }
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
    /// The archived copy: intact, damaged, missing, or not_archived.
    archive: &'static str,
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
    if loc.retired_at.is_some() {
        // Retention deleted the spool segment once all it held was stored.
        return ("retired", None);
    }
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
        RecordAction::Inspect { id, raw, max_bytes } => (id, Some((raw, max_bytes))),
        RecordAction::Verify { id } => (id, None),
    };
    let loc = store.record_location(id)?;
    let (status, bytes) = check(&loc);
    let archived = store.archived_copy(id)?;
    let report = Check {
        archive: archived.status(),
        id,
        status,
        locator: loc.locator.clone(),
        member: loc.member.clone(),
        byte_start: loc.byte_start,
        byte_end: loc.byte_end,
        fingerprint: loc.fingerprint.clone(),
    };
    if let Some((raw, max_bytes)) = inspect {
        let (bytes, from_archive) = match (bytes, archived) {
            (Some(bytes), _) => (bytes, false),
            (None, fornax_store::ArchivedCopy::Intact(copy)) => (copy, true),
            (None, copy) => {
                return Err(anyhow::anyhow!(
                    "record {id} cannot be shown: {status} ({}), archive copy {}",
                    loc.locator,
                    copy.status()
                )
                .into())
            }
        };
        if from_archive {
            output::warn(&format!(
                "record {id}: its source is {status}; shown from the archive (the copy was redacted when it was stored)"
            ));
        } else if raw {
            output::warn(&format!(
                "record {id} is shown as its source holds it, unredacted: it may hold secrets"
            ));
        }
        let shown = shown(&bytes, raw, max_bytes);
        if ctx.json {
            output::json(&serde_json::json!({
                "record": report,
                "from": if from_archive { "archive" } else { "source" },
                "text": shown.text,
                "raw": raw,
                "redactions": shown.redactions,
                "bytes": shown.total,
                "truncated": shown.truncated,
            }));
        } else {
            output::line(&shown.text);
        }
        if shown.truncated {
            output::warn(&format!(
                "record {id} cut at {} of {} bytes (--max-bytes N shows more, 0 all of it)",
                shown.text.len(),
                shown.total
            ));
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
        output::line(&format!("  archive copy: {}", report.archive));
        if let Some(when) = &loc.retired_at {
            output::line(&format!(
                "  the spool segment was retired by retention at {when}, after everything in it was stored; its bytes are no longer kept"
            ));
        }
    }
    let archive_sound = matches!(report.archive, "intact" | "not_archived");
    if status == "verified" && archive_sound {
        Ok(())
    } else {
        Err(CliError::Exit(1))
    }
}
