//! `fornax daemon run|start|stop|status`

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use fornax_live::protocol::{DaemonStatus, Request, Response, StopReport, StoreState};
use fornax_live::Home;
use serde_json::json;

use crate::error::CliError;
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct DaemonArgs {
    #[command(subcommand)]
    pub action: DaemonAction,
}

#[derive(Debug, Subcommand)]
pub enum DaemonAction {
    /// Run in the foreground until SIGTERM/SIGINT (logging to stderr too when it is a terminal).
    Run {
        /// Leave the caller's session first (how `start` and hooks start it).
        #[arg(long, hide = true)]
        detached: bool,
    },
    /// Start in the background (no-op if already running).
    Start,
    /// Stop after storing everything received; says what it stored and what remains.
    Stop,
    /// Report whether it runs and ingests, its pid, socket, spool and store state.
    Status,
}

/// The running daemon's status, if one answers.
pub fn status(home: &Path) -> Option<DaemonStatus> {
    match fornax_live::client::request(home, &Request::Status, Duration::from_secs(2)) {
        Ok(Response::Status(s)) => Some(s),
        _ => None,
    }
}

/// A status as `--json` shows it: the daemon's own fields, plus `running` and `ingesting`.
pub fn status_json(s: &DaemonStatus) -> serde_json::Value {
    let mut v = serde_json::to_value(s).unwrap_or_default();
    if let Some(obj) = v.as_object_mut() {
        obj.insert("running".into(), true.into());
        obj.insert("ingesting".into(), s.ingesting().into());
    }
    v
}

/// One line saying whether the daemon really stores what it receives.
pub fn describe_store(s: &DaemonStatus) -> String {
    let detail = s.store.detail.as_deref().unwrap_or("");
    match s.store.state {
        StoreState::Ok => "ingesting".to_string(),
        StoreState::Waiting => format!("NOT ingesting yet: waiting for the store ({detail})"),
        StoreState::Unavailable => format!("NOT ingesting: cannot write to the store ({detail})"),
    }
}

/// Whether a process still runs (an exited one waiting to be reaped does not). Read from
/// procfs; where there is none, the pid file's removal is the signal.
fn alive(pid: u32) -> bool {
    match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
        // `pid (comm) S ...`: the state follows the last `)`.
        Ok(stat) => stat
            .rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X"),
        Err(_) => false,
    }
}

pub fn run(ctx: &Context, args: DaemonArgs) -> Result<(), CliError> {
    match args.action {
        DaemonAction::Run { detached } => {
            ctx.ensure_home()?;
            let mut roots = super::scan::scan_roots(ctx, &[])?;
            roots.retain(|r| r != &ctx.spool_dir());
            let config = fornax_daemon::DaemonConfig {
                home: ctx.home.clone(),
                roots,
                registry: crate::registry::registry(),
                options: fornax_ingest::IngestOptions {
                    // A final line without newline is taken once its file is quiet: a writer
                    // may still be finishing it.
                    tail_quiet: Some(Duration::from_secs(2)),
                    exclude: ctx.config.capture.excluded(),
                    archive: ctx.config.archive.enabled(),
                    ..fornax_ingest::IngestOptions::default()
                },
                poll_interval: Duration::from_secs(10),
                intervene: ctx.config.intervene.enabled,
                detach: detached,
            };
            fornax_daemon::run(config)?;
            Ok(())
        }
        DaemonAction::Start => start(ctx),
        DaemonAction::Stop => stop(ctx),
        DaemonAction::Status => {
            match status(&ctx.home) {
                Some(s) => report(ctx, &s, "running"),
                None => {
                    let home = Home::new(&ctx.home);
                    let spool = fornax_live::spool::spool_bytes(&home.spool_dir());
                    let v = json!({"running": false, "ingesting": false,
                        "socket": home.socket().display().to_string(), "spool_bytes": spool});
                    if ctx.json {
                        output::json(&v);
                    } else {
                        output::line(&format!(
                            "daemon is not running · spool {spool} bytes (stored by the next `fornax scan` or `fornax daemon start`)"
                        ));
                    }
                }
            }
            Ok(())
        }
    }
}

fn start(ctx: &Context) -> Result<(), CliError> {
    if let Some(s) = status(&ctx.home) {
        report(ctx, &s, "already running");
        return Ok(());
    }
    ctx.ensure_home()?;
    let home = Home::new(&ctx.home);
    let exe = std::env::current_exe()?;
    let log = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(home.daemon_err())?;
    // The daemon leaves this session itself (`--detached`), like one a hook starts.
    Command::new(exe)
        .arg("--home")
        .arg(&ctx.home)
        .args(["daemon", "run", "--detached"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::from(log))
        .spawn()?;
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut up = None;
    while Instant::now() < deadline {
        if let Some(s) = status(&ctx.home) {
            up = Some(s);
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let Some(mut s) = up else {
        return Err(anyhow::anyhow!(
            "the daemon did not come up; see {}",
            home.daemon_err().display()
        )
        .into());
    };
    // Give its first pass a moment, so what is printed is the truth about ingesting.
    let settle = Instant::now() + Duration::from_secs(3);
    while s.store.state != StoreState::Ok && Instant::now() < settle {
        std::thread::sleep(Duration::from_millis(50));
        match status(&ctx.home) {
            Some(now) => s = now,
            None => break,
        }
    }
    report(ctx, &s, "started");
    if s.store.state == StoreState::Unavailable {
        return Err(CliError::Exit(1));
    }
    Ok(())
}

fn stop(ctx: &Context) -> Result<(), CliError> {
    let home = Home::new(&ctx.home);
    let answer =
        fornax_live::client::request(&ctx.home, &Request::Shutdown, Duration::from_secs(300));
    let report = match answer {
        Ok(Response::Stopping(r)) => r,
        Ok(other) => {
            return Err(anyhow::anyhow!("the daemon answered shutdown with {other:?}").into())
        }
        Err(fornax_live::client::ClientError::NotRunning(_)) => {
            if ctx.json {
                output::json(&json!({"running": false, "stopped": false}));
            } else {
                output::line("daemon is not running");
            }
            return Ok(());
        }
        Err(e) => return Err(anyhow::anyhow!("asking the daemon to stop: {e}").into()),
    };
    // It answered before exiting: wait until it is really gone.
    let deadline = Instant::now() + Duration::from_secs(30);
    while (alive(report.pid) || home.daemon_pid().exists()) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    if alive(report.pid) {
        return Err(anyhow::anyhow!(
            "the daemon (pid {}) acknowledged the stop but is still running",
            report.pid
        )
        .into());
    }
    print_stop(ctx, &report);
    Ok(())
}

fn print_stop(ctx: &Context, r: &StopReport) {
    if ctx.json {
        let mut v = serde_json::to_value(r).unwrap_or_default();
        if let Some(obj) = v.as_object_mut() {
            obj.insert("running".into(), false.into());
            obj.insert("stopped".into(), true.into());
        }
        output::json(&v);
        return;
    }
    if r.remaining_bytes == 0 {
        output::line(&format!(
            "daemon stopped: it stored {} records while it ran; nothing received is left unstored",
            r.stored_records
        ));
    } else {
        output::line(&format!(
            "daemon stopped: it stored {} records while it ran; {} bytes in {} spool segment{} are not stored yet{} (the next `fornax scan` stores them)",
            r.stored_records,
            r.remaining_bytes,
            r.remaining_segments,
            if r.remaining_segments == 1 { "" } else { "s" },
            r.reason.as_deref().map(|w| format!(": {w}")).unwrap_or_default(),
        ));
    }
}

fn report(ctx: &Context, s: &DaemonStatus, what: &str) {
    if ctx.json {
        output::json(&status_json(s));
    } else {
        output::line(&format!(
            "daemon {what}: pid {} · {} · socket {} · spool {} bytes ({} not stored yet) · up {}s",
            s.pid,
            describe_store(s),
            s.socket,
            s.spool_bytes,
            s.pending_bytes,
            s.uptime_s
        ));
    }
}
