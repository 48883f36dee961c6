//! `fornax export session ID --format md|html|jsonl` and `fornax export otlp`.

use std::io::Write;
use std::path::PathBuf;

use clap::{Args, Subcommand};
use fornax_export::files::{self, Format};
use fornax_export::otlp::{self, ContentPolicy, OtlpOptions, Target};

use crate::error::CliError;
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(subcommand)]
    pub what: ExportCommand,
}

#[derive(Debug, Subcommand)]
pub enum ExportCommand {
    /// One session (with its subagents) as Markdown, one self-contained HTML page, or JSONL.
    Session(SessionArgs),
    /// Sessions as OpenTelemetry traces (GenAI conventions) over OTLP/HTTP or to a file.
    Otlp(OtlpArgs),
}

#[derive(Debug, Args)]
pub struct SessionArgs {
    /// The agent's session id, a unique prefix of it, or `#<internal id>`.
    pub session: String,
    /// md, html or jsonl.
    #[arg(long, default_value = "md")]
    pub format: String,
    /// Write here instead of stdout.
    #[arg(long, short)]
    pub output: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct OtlpArgs {
    /// OTLP/HTTP endpoint (`http://host:4318`; `/v1/traces` is added to a bare host).
    #[arg(long, conflicts_with = "file", required_unless_present_any = ["file", "grpc"])]
    pub endpoint: Option<String>,
    /// Append length-delimited `ExportTraceServiceRequest` messages to this file instead.
    #[arg(long)]
    pub file: Option<PathBuf>,
    /// Send over OTLP/gRPC to this endpoint instead (`http://host:4317`; needs a build with
    /// the `grpc` feature).
    #[arg(long, conflicts_with_all = ["endpoint", "file"])]
    pub grpc: Option<String>,
    /// Only sessions active at or after this ISO time.
    #[arg(long)]
    pub since: Option<String>,
    /// Only this session (and its subagents).
    #[arg(long)]
    pub session: Option<String>,
    /// Ignore the endpoint's cursor and send every span again.
    #[arg(long)]
    pub full: bool,
    /// Leave tool arguments and results out of the spans.
    #[arg(long)]
    pub no_content: bool,
    /// Bytes kept of each tool argument or result.
    #[arg(long, default_value_t = 4096)]
    pub max_attr_bytes: usize,
    /// The resource's `service.name`.
    #[arg(long, default_value = "fornax")]
    pub service_name: String,
    /// A resource attribute KEY=VALUE (repeatable), for example
    /// `openinference.project.name=team` for Phoenix.
    #[arg(long, value_name = "KEY=VALUE")]
    pub resource: Vec<String>,
}

pub fn run(ctx: &Context, args: ExportArgs) -> Result<(), CliError> {
    match args.what {
        ExportCommand::Session(a) => session(ctx, a),
        ExportCommand::Otlp(a) => otlp(ctx, a),
    }
}

fn session(ctx: &Context, args: SessionArgs) -> Result<(), CliError> {
    let format: Format = args
        .format
        .parse()
        .map_err(|e: fornax_export::ExportError| CliError::usage(e.to_string()))?;
    let store = ctx.open_store_read_only()?;
    let id = store.resolve_session(&args.session)?;
    let export = fornax_export::load_session(&store, id)?;
    if export.unreadable_items > 0 {
        output::warn(&format!(
            "{} stored items could not be read back and were left out",
            export.unreadable_items
        ));
    }
    match &args.output {
        Some(path) => {
            let file = std::fs::File::create(path)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
            let mut w = std::io::BufWriter::new(file);
            files::write_session(&export, format, &mut w)
                .and_then(|_| w.flush())
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?;
        }
        None => {
            let stdout = std::io::stdout();
            let mut w = std::io::BufWriter::new(stdout.lock());
            match files::write_session(&export, format, &mut w).and_then(|_| w.flush()) {
                // A reader that stopped early (`| head`) is not a failure of the export.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {}
                other => other.map_err(|e| anyhow::anyhow!("stdout: {e}"))?,
            }
        }
    }
    Ok(())
}

fn otlp(ctx: &Context, args: OtlpArgs) -> Result<(), CliError> {
    let store = ctx.open_store_read_only()?;
    let target = match (&args.endpoint, &args.file, &args.grpc) {
        (Some(e), _, _) => Target::Http(e.clone()),
        (None, Some(f), _) => Target::File(f.clone()),
        (None, None, Some(g)) => grpc_target(g)?,
        (None, None, None) => {
            return Err(CliError::usage(
                "give --endpoint URL, --file PATH or --grpc URL",
            ))
        }
    };
    let session = match &args.session {
        Some(s) => Some(store.resolve_session(s)?),
        None => None,
    };
    let mut resource = Vec::new();
    for r in &args.resource {
        match r.split_once('=') {
            Some((k, v)) if !k.is_empty() => resource.push((k.to_string(), v.to_string())),
            _ => {
                return Err(CliError::usage(format!(
                    "--resource {r:?}: expected KEY=VALUE"
                )))
            }
        }
    }
    let opts = OtlpOptions {
        resource,
        since: args.since.clone(),
        session,
        full: args.full,
        content: ContentPolicy {
            include: !args.no_content,
            max_bytes: args.max_attr_bytes,
        },
        service_name: Some(args.service_name.clone()),
    };
    let report = otlp::export(&store, &ctx.home, &target, &opts)?;
    if ctx.json {
        output::json(&report);
    } else {
        output::line(&format!(
            "{}: {} sessions, {} spans built, {} sent in {} requests{}",
            report.target,
            report.sessions,
            report.spans_built,
            report.spans_sent,
            report.requests,
            if report.spans_rejected > 0 {
                format!(", {} rejected by the receiver", report.spans_rejected)
            } else {
                String::new()
            }
        ));
    }
    if report.spans_rejected > 0 {
        return Err(CliError::Exit(1));
    }
    Ok(())
}

#[cfg(feature = "grpc")]
fn grpc_target(url: &str) -> Result<Target, CliError> {
    Ok(Target::Grpc(url.to_string()))
}

#[cfg(not(feature = "grpc"))]
fn grpc_target(_url: &str) -> Result<Target, CliError> {
    Err(CliError::usage(
        "this fornax was built without OTLP/gRPC; rebuild with `--features grpc`, or use --endpoint (OTLP/HTTP)",
    ))
}
