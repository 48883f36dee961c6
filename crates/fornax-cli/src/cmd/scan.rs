//! `fornax scan [PATH...]`

use std::io::IsTerminal;
use std::path::PathBuf;

use clap::Args;
use fornax_ingest::{IngestOptions, Ingestor, Progress, ScanSummary};
use indicatif::{ProgressBar, ProgressStyle};

use crate::error::CliError;
use crate::home::{expand_tilde, Context};
use crate::output;

#[derive(Debug, Args)]
pub struct ScanArgs {
    /// Files or directories to scan (default: every supported agent's default roots).
    pub paths: Vec<PathBuf>,
    /// Replace the default roots of one adapter or provider: `--root codex=/data/codex`.
    #[arg(long = "root", value_name = "NAME=DIR")]
    pub roots: Vec<String>,
    /// Index only; do not verify claims.
    #[arg(long)]
    pub no_verify: bool,
    /// Largest record to read, in bytes (longer ones are counted and skipped).
    #[arg(long, value_name = "BYTES")]
    pub max_record_bytes: Option<usize>,
}

struct Bar(Option<ProgressBar>);

impl Progress for Bar {
    fn start(&mut self, files: usize, bytes: u64) {
        if std::io::stderr().is_terminal() && files > 1 {
            let bar = ProgressBar::new(bytes);
            bar.set_style(
                ProgressStyle::with_template("{spinner} scanning {bar:30} {binary_bytes}/{binary_total_bytes} {binary_bytes_per_sec} {eta}")
                    .unwrap_or_else(|_| ProgressStyle::default_bar()),
            );
            self.0 = Some(bar);
        }
    }

    fn advance(&mut self, bytes: u64) {
        if let Some(b) = &self.0 {
            b.inc(bytes);
        }
    }

    fn finish(&mut self) {
        if let Some(b) = self.0.take() {
            b.finish_and_clear();
        }
    }
}

/// The roots a scan without paths covers: defaults, then config, then `--root` flags.
pub fn scan_roots(ctx: &Context, overrides: &[String]) -> Result<Vec<PathBuf>, CliError> {
    let registry = crate::registry::registry();
    let home = dirs::home_dir().unwrap_or_default();
    let mut per_adapter: Vec<(String, String, Vec<PathBuf>)> = registry
        .descriptors()
        .iter()
        .map(|d| {
            (
                d.name.to_string(),
                d.provider.as_str().to_string(),
                d.default_roots.iter().map(|r| home.join(r)).collect(),
            )
        })
        .collect();
    let mut apply = |name: &str, dirs: Vec<PathBuf>| -> bool {
        let mut hit = false;
        for (adapter, provider, roots) in per_adapter.iter_mut() {
            if adapter == name
                || provider == name
                || (name == "claude" && provider == "claude-code")
            {
                *roots = dirs.clone();
                hit = true;
            }
        }
        hit
    };
    for (name, dirs) in &ctx.config.roots {
        if !apply(name, dirs.iter().map(|d| expand_tilde(d)).collect()) {
            return Err(CliError::usage(format!(
                "config [roots] names unknown adapter {name:?}"
            )));
        }
    }
    for o in overrides {
        let Some((name, dir)) = o.split_once('=') else {
            return Err(CliError::usage(format!(
                "--root expects NAME=DIR, got {o:?}"
            )));
        };
        if !apply(name, vec![expand_tilde(dir)]) {
            return Err(CliError::usage(format!("--root names unknown adapter {name:?}"))
                .with_hint("names are adapters (claude-transcript, codex-rollout, ...) or providers (claude, codex, copilot, cursor, pi, opencode, gemini)"));
        }
    }
    let mut roots: Vec<PathBuf> = per_adapter
        .into_iter()
        .flat_map(|(_, _, r)| r)
        .filter(|r| r.exists())
        .collect();
    roots.push(ctx.spool_dir());
    roots.sort();
    roots.dedup();
    Ok(roots)
}

pub fn scan(
    ctx: &Context,
    paths: &[PathBuf],
    verify: bool,
    max_record: Option<usize>,
    progress: bool,
) -> Result<ScanSummary, CliError> {
    let registry = crate::registry::registry();
    let mut store = ctx.open_store()?;
    let started_at = fornax_ingest::clock::now_rfc3339();
    let files = fornax_ingest::discover(paths, &registry);
    let mut options = IngestOptions {
        verify,
        ..IngestOptions::default()
    };
    if let Some(m) = max_record.or(ctx.config.scan.max_record_bytes) {
        options.max_record_bytes = m;
    }
    if let Some(c) = ctx.config.scan.text_cap {
        options.text_cap = c;
    }
    let summary = {
        let mut ingestor = Ingestor::new(&mut store, &registry, options);
        let mut bar = Bar(None);
        if progress {
            ingestor.ingest_files(&files, &mut bar);
        } else {
            ingestor.ingest_files(&files, &mut ());
        }
        ingestor.finish()?
    };
    let summary_json = serde_json::to_value(&summary).unwrap_or_default();
    store.record_scan(
        &started_at,
        &fornax_ingest::clock::now_rfc3339(),
        &summary_json,
    )?;
    store.make_private();
    Ok(summary)
}

pub fn run(ctx: &Context, args: ScanArgs) -> Result<(), CliError> {
    for p in &args.paths {
        if !p.exists() {
            return Err(CliError::usage(format!(
                "no such file or directory: {}",
                p.display()
            )));
        }
    }
    let mut paths = if args.paths.is_empty() {
        scan_roots(ctx, &args.roots)?
    } else {
        args.paths.clone()
    };
    // Whatever hooks and plugins delivered is always part of a scan.
    if ctx.spool_dir().is_dir() && !paths.contains(&ctx.spool_dir()) {
        paths.push(ctx.spool_dir());
    }
    let summary = scan(ctx, &paths, !args.no_verify, args.max_record_bytes, true)?;
    if ctx.json {
        output::json(&summary);
    } else {
        print_summary(&summary);
    }
    Ok(())
}

fn join_counts<'a>(counts: impl Iterator<Item = (&'a String, u64)>) -> String {
    counts
        .map(|(k, v)| format!("{k} {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

pub fn print_summary(s: &ScanSummary) {
    let src = &s.sources;
    let skipped: u64 = src.skipped.values().sum();
    output::line(&format!(
        "Scanned {} sources ({} new, {} appended, {} unchanged, {} rebuilt, {} skipped) in {:.2}s",
        src.new + src.appended + src.unchanged + src.rebuilt + skipped,
        src.new,
        src.appended,
        src.unchanged,
        src.rebuilt,
        skipped,
        s.elapsed_ms as f64 / 1000.0
    ));
    if skipped > 0 {
        output::line(&format!(
            "  skipped: {}",
            join_counts(src.skipped.iter().map(|(k, v)| (k, *v)))
        ));
    }
    output::line(&format!(
        "  records {} · sessions {} ({} new) · loops {} · items {} · evidence {} · claims {}",
        s.records, s.sessions_touched, s.sessions_new, s.loops, s.items, s.evidence, s.claims
    ));
    output::line(&format!(
        "  malformed records {} · oversized records {} · recovered concatenated lines {}",
        s.malformed_records, s.oversized_records, s.recovered_concatenations
    ));
    let redacted: u64 = s.redactions.values().sum();
    if redacted > 0 {
        output::line(&format!(
            "  redactions {redacted} ({})",
            join_counts(s.redactions.iter().map(|(k, v)| (k, *v)))
        ));
    }
    if !s.findings.is_empty() {
        let parts: Vec<String> = s
            .findings
            .iter()
            .map(|(v, n)| format!("{} {n}", output::verdict(v)))
            .collect();
        output::line(&format!("Findings: {}", parts.join(" · ")));
    }
    if !s.unrecognized.is_empty() {
        output::heading("Unrecognized shapes (provider:version:discriminator)");
        for (k, n) in &s.unrecognized {
            output::line(&format!("  {k}  {n}"));
        }
    }
    if !s.ignored.is_empty() {
        let total: u64 = s.ignored.values().sum();
        output::line(&output::dim(&format!(
            "  {total} records deliberately ignored ({} kinds; --json lists them)",
            s.ignored.len()
        )));
    }
    for e in &s.errors {
        output::warn(&format!("{}: {}", e.path, e.error));
    }
}
