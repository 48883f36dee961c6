//! Files people share: Markdown, one self-contained HTML page, and canonical JSONL whose every
//! line validates against the versioned JSON Schema in `docs/schema/`.

mod html;
mod jsonl;
mod markdown;
mod timeline;

use std::io::Write;
use std::str::FromStr;

use crate::{ExportError, SessionExport};

pub use jsonl::{SCHEMA_ID, SCHEMA_VERSION};

/// The shapes `fornax export session` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Html,
    Jsonl,
}

impl FromStr for Format {
    type Err = ExportError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "md" | "markdown" => Ok(Format::Markdown),
            "html" => Ok(Format::Html),
            "jsonl" | "ndjson" => Ok(Format::Jsonl),
            other => Err(ExportError::Format(other.to_string())),
        }
    }
}

impl Format {
    pub fn extension(self) -> &'static str {
        match self {
            Format::Markdown => "md",
            Format::Html => "html",
            Format::Jsonl => "jsonl",
        }
    }
}

/// Writes one session (with its subagents) in `format`.
pub fn write_session(
    export: &SessionExport,
    format: Format,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    match format {
        Format::Markdown => markdown::write(export, out),
        Format::Html => html::write(export, out),
        Format::Jsonl => jsonl::write(export, out),
    }
}
