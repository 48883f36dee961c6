//! `fornax scan [PATH...]`
//!
//! One writer per home: with a daemon running, the pass is handed to it (it holds the store)
//! and its progress shown here; without one, the scan takes the store-writer lock, waiting
//! (`--wait`) for another writer to finish. The exit code says whether every source was read.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use fornax_ingest::{IngestOptions, Ingestor, Progress, ScanSummary};
use fornax_live::protocol::{Request, Response, ScanRequest};
use fornax_store::{LockHolder, LockWait, StoreError};
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
    /// How long to wait for another fornax writing to this home (a scan, a re-check) before
    /// giving up; 0 gives up at once.
    #[arg(long, value_name = "SECS", default_value_t = 300)]
    pub wait: u64,
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

/// Scans `paths` in this process (waiting up to [`Store::DEFAULT_WAIT`] for the store).
pub fn scan(
    ctx: &Context,
    paths: &[PathBuf],
    verify: bool,
    max_record: Option<usize>,
    progress: bool,
) -> Result<ScanSummary, CliError> {
    scan_here(
        ctx,
        paths,
        verify,
        max_record,
        progress,
        fornax_store::Store::DEFAULT_WAIT,
    )
}

/// Tells the user once that the store is busy and whom the scan waits for.
fn waiting_note(wait: Duration) -> impl FnMut(Option<&LockHolder>) {
    move |holder| {
        let who = holder.map(|h| format!(" ({h})")).unwrap_or_default();
        output::note(&format!(
            "another fornax is writing to this home{who}; waiting up to {}s for it (--wait SECS)",
            wait.as_secs()
        ));
    }
}

fn scan_here(
    ctx: &Context,
    paths: &[PathBuf],
    verify: bool,
    max_record: Option<usize>,
    progress: bool,
    wait: Duration,
) -> Result<ScanSummary, CliError> {
    let registry = crate::registry::registry();
    ctx.ensure_home()?;
    let mut note = waiting_note(wait);
    let opened = fornax_store::Store::open_with(
        &ctx.db_path(),
        "scan",
        LockWait {
            timeout: wait,
            on_wait: Some(&mut note),
        },
    );
    let mut store = match opened {
        Ok(store) => store,
        Err(e @ StoreError::Locked { .. }) => {
            return Err(CliError::from(e).with_hint(
                "wait for it to finish, give it longer with --wait SECS, or start the daemon (`fornax daemon start`) so scans are handed to it",
            ))
        }
        Err(e) => return Err(e.into()),
    };
    let started_at = fornax_ingest::clock::now_rfc3339();
    let mut options = IngestOptions {
        verify,
        exclude: ctx.config.capture.excluded(),
        archive: ctx.config.archive.enabled(),
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
            ingestor.scan_paths(paths, &mut bar);
        } else {
            ingestor.scan_paths(paths, &mut ());
        }
        // Closed spool segments whose every event is now stored are deleted.
        if paths.iter().any(|p| p == &ctx.spool_dir()) {
            ingestor.retire_spool(
                &ctx.spool_dir(),
                &fornax_ingest::clock::today(),
                &mut fornax_ingest::NoArchive,
            )?;
        }
        ingestor.finish()?
    };
    // The summary names files and native shapes: it is stored redacted, like everything else.
    let summary_json = fornax_redact::Redactor::new().redact(
        serde_json::to_value(&summary).unwrap_or_default(),
        &mut fornax_redact::RedactionCounts::default(),
    );
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
    let wait = Duration::from_secs(args.wait);
    let summary = match handed_to_daemon(ctx, &paths, &args, wait)? {
        Some(summary) => summary,
        None => scan_here(
            ctx,
            &paths,
            !args.no_verify,
            args.max_record_bytes,
            true,
            wait,
        )?,
    };
    if ctx.json {
        output::json(&summary);
    } else {
        print_summary(&summary);
    }
    let failed = summary.errors.len();
    if failed > 0 {
        output::error(
            &format!(
                "{failed} source{} failed (named above); the rest was stored",
                if failed == 1 { "" } else { "s" }
            ),
            None,
        );
        return Err(CliError::Exit(1));
    }
    Ok(())
}

/// With a daemon running, asks it to run the pass (it holds the store) and shows its
/// progress. `None` when no daemon answers.
fn handed_to_daemon(
    ctx: &Context,
    paths: &[PathBuf],
    args: &ScanArgs,
    wait: Duration,
) -> Result<Option<ScanSummary>, CliError> {
    let probe = fornax_live::client::request(&ctx.home, &Request::Status, Duration::from_secs(2));
    if !matches!(probe, Ok(Response::Status(_))) {
        return Ok(None);
    }
    let absolute: Vec<PathBuf> = paths
        .iter()
        .map(|p| std::fs::canonicalize(p).unwrap_or_else(|_| p.clone()))
        .collect();
    let request = Request::Scan(ScanRequest {
        paths: absolute,
        verify: !args.no_verify,
        max_record_bytes: args.max_record_bytes.or(ctx.config.scan.max_record_bytes),
    });
    let mut bar = Bar(None);
    let mut started = false;
    let mut on_progress = |r: &Response| {
        if let Response::Progress(p) = r {
            if !started && p.files > 0 {
                started = true;
                bar.start(p.files as usize, p.bytes);
            }
            if let Some(b) = &bar.0 {
                b.set_position(p.bytes_done);
            }
        }
    };
    // The daemon waits for the store the way a scan here would, then streams progress.
    let timeout = wait.max(Duration::from_secs(30)) + Duration::from_secs(30);
    let answer = fornax_live::client::request_with(&ctx.home, &request, timeout, &mut on_progress);
    bar.finish();
    match answer {
        Ok(Response::Scanned(summary)) => Ok(Some(*summary)),
        Ok(Response::Error { message }) => {
            Err(anyhow::anyhow!("the daemon could not run the scan: {message}").into())
        }
        Ok(other) => Err(anyhow::anyhow!("the daemon answered the scan with {other:?}").into()),
        Err(e) => Err(anyhow::anyhow!("handing the scan to the daemon: {e}").into()),
    }
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
    // Wrapped to the width like every other line a person reads (a narrow terminal too).
    let stats = |text: &str| output::wrapped(text, "  ", "    ", output::plain);
    output::wrapped(
        &format!(
        "Scanned {} sources ({} new, {} appended, {} unchanged, {} rebuilt, {} skipped) in {:.2}s",
        src.new + src.appended + src.unchanged + src.rebuilt + skipped,
        src.new,
        src.appended,
        src.unchanged,
        src.rebuilt,
        skipped,
        s.elapsed_ms as f64 / 1000.0
    ),
        "",
        "  ",
        output::plain,
    );
    if skipped > 0 {
        output::line(&format!(
            "  skipped: {}",
            join_counts(src.skipped.iter().map(|(k, v)| (k, *v)))
        ));
    }
    print_skipped_files(s);
    stats(&format!(
        "records {} · sessions {} ({} new) · loops {} · items {} · evidence {} · claims {}",
        s.records, s.sessions_touched, s.sessions_new, s.loops, s.items, s.evidence, s.claims
    ));
    stats(&format!(
        "malformed records {} · oversized records {} · recovered concatenated lines {} · repaired escapes {}",
        s.malformed_records, s.oversized_records, s.recovered_concatenations, s.repaired_escapes
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

/// How many skipped files the summary names (`--json` names up to a thousand).
const NAMED_SKIPS: usize = 5;

/// Names the first few files and directories that were not read.
pub fn print_skipped_files(s: &ScanSummary) {
    if s.skipped_files_total == 0 {
        return;
    }
    output::line(&format!(
        "  not read ({} file{} or folder{}):",
        s.skipped_files_total,
        if s.skipped_files_total == 1 { "" } else { "s" },
        if s.skipped_files_total == 1 { "" } else { "s" },
    ));
    for f in s.skipped_files.iter().take(NAMED_SKIPS) {
        output::line(&format!("    {} ({})", f.path, f.reason));
    }
    let more = s.skipped_files_total.saturating_sub(NAMED_SKIPS as u64);
    if more > 0 {
        output::line(&output::dim(&format!(
            "    … and {more} more (`fornax scan --json` lists them)"
        )));
    }
}
