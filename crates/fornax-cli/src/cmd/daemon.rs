//! `fornax daemon run|start|stop|status`

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
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
    /// Run in the foreground until SIGTERM/SIGINT.
    Run,
    /// Start in the background (no-op if already running).
    Start,
    /// Stop after everything received is stored.
    Stop,
    /// Report whether it runs, its pid, socket, spool size and uptime.
    Status,
}

fn status(ctx: &Context) -> Option<serde_json::Value> {
    fornax_daemon::request(&ctx.home, &json!({"op": "status"}), Duration::from_secs(2)).ok()
}

pub fn run(ctx: &Context, args: DaemonArgs) -> Result<(), CliError> {
    match args.action {
        DaemonAction::Run => {
            ctx.ensure_home()?;
            let mut roots = super::scan::scan_roots(ctx, &[])?;
            roots.retain(|r| r != &ctx.spool_dir());
            let config = fornax_daemon::DaemonConfig {
                home: ctx.home.clone(),
                roots,
                registry: crate::registry::registry(),
                options: fornax_ingest::IngestOptions::default(),
                poll_interval: Duration::from_secs(10),
                intervene: ctx.config.intervene.enabled,
            };
            fornax_daemon::run(config)?;
            Ok(())
        }
        DaemonAction::Start => {
            if let Some(s) = status(ctx) {
                report(ctx, &s, "already running");
                return Ok(());
            }
            ctx.ensure_home()?;
            let exe = std::env::current_exe()?;
            let log = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(ctx.home.join("daemon.err"))?;
            {
                use std::os::unix::process::CommandExt;
                Command::new(exe)
                    .arg("--home")
                    .arg(&ctx.home)
                    .args(["daemon", "run"])
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::from(log))
                    .process_group(0)
                    .spawn()?;
            }
            let deadline = Instant::now() + Duration::from_secs(10);
            while Instant::now() < deadline {
                if let Some(s) = status(ctx) {
                    report(ctx, &s, "started");
                    return Ok(());
                }
                std::thread::sleep(Duration::from_millis(20));
            }
            Err(anyhow::anyhow!(
                "the daemon did not come up; see {}",
                ctx.home.join("daemon.err").display()
            )
            .into())
        }
        DaemonAction::Stop => {
            match fornax_daemon::request(
                &ctx.home,
                &json!({"op": "shutdown"}),
                Duration::from_secs(300),
            ) {
                Ok(_) => {
                    let sock = fornax_daemon::socket_path(&ctx.home);
                    let deadline = Instant::now() + Duration::from_secs(30);
                    while sock.exists() && Instant::now() < deadline {
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    if ctx.json {
                        output::json(&json!({"running": false, "stopped": true}));
                    } else {
                        output::line("daemon stopped (everything received is stored)");
                    }
                }
                Err(_) => {
                    if ctx.json {
                        output::json(&json!({"running": false, "stopped": false}));
                    } else {
                        output::line("daemon is not running");
                    }
                }
            }
            Ok(())
        }
        DaemonAction::Status => {
            match status(ctx) {
                Some(s) => report(ctx, &s, "running"),
                None => {
                    let spool: u64 = fornax_ingest::spool::spool_bytes(&ctx.spool_dir());
                    let v = json!({"running": false, "socket": fornax_daemon::socket_path(&ctx.home).display().to_string(), "spool_bytes": spool});
                    if ctx.json {
                        output::json(&v);
                    } else {
                        output::line(&format!("daemon is not running · spool {spool} bytes"));
                    }
                }
            }
            Ok(())
        }
    }
}

fn report(ctx: &Context, s: &serde_json::Value, what: &str) {
    if ctx.json {
        output::json(s);
    } else {
        output::line(&format!(
            "daemon {what}: pid {} · socket {} · spool {} bytes · up {}s",
            s["pid"],
            s["socket"].as_str().unwrap_or(""),
            s["spool_bytes"],
            s["uptime_s"]
        ));
    }
}
