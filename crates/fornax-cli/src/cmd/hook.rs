//! `fornax hook <agent>`: the live entry points.
//!
//! A hook runs inside the agent's own loop, so it must be fast and harmless: it reads the
//! payload, appends it to the spool (fsync) and exits 0 with nothing on stdout. A watchdog
//! ends the process at a hard deadline; panics are caught; every failure is swallowed after a
//! line in the hook log.

use std::io::{BufRead, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};
use fornax_ingest::spool;

use crate::home::{create_private_dir, Context};

/// Hard deadline of a one-shot hook.
const HOOK_DEADLINE: Duration = Duration::from_secs(3);
/// Largest payload a hook accepts.
const MAX_PAYLOAD: u64 = 64 * 1024 * 1024;

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Agent {
    /// One Claude Code hook payload on stdin.
    Claude,
    /// The opencode plugin's NDJSON stream on stdin (long-lived).
    Opencode,
}

#[derive(Debug, Args)]
pub struct HookArgs {
    pub agent: Agent,
}

fn log(home: &std::path::Path, message: &str) {
    let _ = create_private_dir(home);
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(home.join("hook.log"))
    {
        let _ = writeln!(f, "{} {message}", fornax_ingest::clock::now_rfc3339());
    }
}

/// Runs a hook with every guard on, always returning success to the agent.
pub fn guarded(home: Option<PathBuf>, args: &HookArgs) -> ExitCode {
    let home = home.unwrap_or_else(crate::home::default_home);
    if matches!(args.agent, Agent::Claude) {
        let log_home = home.clone();
        std::thread::spawn(move || {
            std::thread::sleep(HOOK_DEADLINE);
            log(
                &log_home,
                "hook deadline reached; exiting without recording",
            );
            std::process::exit(0);
        });
    }
    std::panic::set_hook(Box::new(|_| {}));
    let agent = args.agent;
    let result = std::panic::catch_unwind(|| match agent {
        Agent::Claude => claude(&home),
        Agent::Opencode => opencode(&home),
    });
    match result {
        Ok(Ok(())) => {}
        Ok(Err(e)) => log(&home, &format!("hook {agent:?} failed: {e:#}")),
        Err(_) => log(&home, &format!("hook {agent:?} panicked")),
    }
    ExitCode::SUCCESS
}

fn spool_path(home: &std::path::Path) -> PathBuf {
    spool::spool_file(&home.join("spool"), &fornax_ingest::clock::today())
}

/// The fields of a Claude Code hook payload the hook itself acts on.
#[derive(serde::Deserialize)]
struct HookHead {
    #[serde(default)]
    hook_event_name: Option<serde_json::Value>,
    #[serde(default)]
    session_id: Option<serde_json::Value>,
    #[serde(default)]
    stop_hook_active: Option<serde_json::Value>,
}

fn claude(home: &std::path::Path) -> anyhow::Result<()> {
    let mut input = String::new();
    std::io::stdin()
        .take(MAX_PAYLOAD)
        .read_to_string(&mut input)?;
    let payload = input.trim();
    if payload.is_empty() {
        return Ok(());
    }
    // Keep the agent's bytes; only read the few fields the hook acts on.
    let head: HookHead = serde_json::from_str(payload)?;
    let line = spool::envelope_line("claude-hook", &fornax_ingest::clock::now_rfc3339(), payload);
    create_private_dir(home)?;
    spool::append(&spool_path(home), &[line], spool::DEFAULT_SPOOL_LIMIT, true)?;
    let is_stop = head.hook_event_name.as_ref().and_then(|v| v.as_str()) == Some("Stop");
    if is_stop && intervention_enabled(home) {
        if let Some(session) = head.session_id.as_ref().and_then(|v| v.as_str()) {
            decide(
                home,
                session,
                head.stop_hook_active
                    .as_ref()
                    .and_then(|v| v.as_bool())
                    .unwrap_or(false),
            )?;
        }
        return Ok(());
    }
    fornax_daemon::poke(home);
    Ok(())
}

/// Asks the daemon whether this Stop must be blocked and, if so, prints Claude Code's block
/// decision (the only case in which a hook writes to stdout).
fn decide(home: &std::path::Path, session: &str, stop_hook_active: bool) -> anyhow::Result<()> {
    let req = serde_json::json!({"op": "decide", "session_id": session, "stop_hook_active": stop_hook_active});
    let Ok(answer) = fornax_daemon::request(home, &req, Duration::from_millis(2500)) else {
        return Ok(());
    };
    if answer["decision"] == "block" {
        let decision = serde_json::json!({"decision": "block", "reason": answer["reason"]});
        let mut out = std::io::stdout().lock();
        writeln!(out, "{decision}")?;
    }
    Ok(())
}

fn intervention_enabled(home: &std::path::Path) -> bool {
    Context::new(Some(home.to_path_buf()), false)
        .map(|c| c.config.intervene.enabled)
        .unwrap_or(false)
}

fn opencode(home: &std::path::Path) -> anyhow::Result<()> {
    create_private_dir(home)?;
    let stdin = std::io::stdin();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(_) => break,
        };
        let trimmed = line.trim();
        if trimmed.is_empty() {
            continue;
        }
        if serde_json::from_str::<serde::de::IgnoredAny>(trimmed).is_err() {
            log(
                home,
                "opencode plugin sent a line that is not JSON; dropped",
            );
            continue;
        }
        let env = spool::envelope_line(
            "opencode-plugin",
            &fornax_ingest::clock::now_rfc3339(),
            trimmed,
        );
        match spool::append(&spool_path(home), &[env], spool::DEFAULT_SPOOL_LIMIT, true) {
            Ok(_) => {
                fornax_daemon::poke(home);
            }
            Err(e) => log(home, &format!("opencode event not spooled: {e}")),
        }
    }
    Ok(())
}
