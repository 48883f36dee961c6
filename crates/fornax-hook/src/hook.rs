//! The hook entry points: one Claude Code event per process, or opencode's NDJSON stream.

use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use crate::{client, clock, config, spool};

/// Hard deadline of a one-shot hook.
pub const HOOK_DEADLINE: Duration = Duration::from_secs(3);
/// Largest payload a hook accepts.
pub const MAX_PAYLOAD: u64 = 64 * 1024 * 1024;
/// How long a Stop hook waits for the daemon's decision.
const DECIDE_TIMEOUT: Duration = Duration::from_millis(2500);

/// Which agent is calling.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    /// One Claude Code hook payload on stdin.
    Claude,
    /// The opencode plugin's NDJSON stream on stdin (long-lived).
    Opencode,
}

impl Agent {
    /// The agent named on the command line (`claude`, `opencode`).
    pub fn from_name(name: &str) -> Option<Agent> {
        match name {
            "claude" => Some(Agent::Claude),
            "opencode" => Some(Agent::Opencode),
            _ => None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
enum HookError {
    #[error("reading the payload: {0}")]
    Stdin(std::io::Error),
    #[error("{0}")]
    Payload(serde_json::Error),
    #[error("creating {path}: {source}")]
    Home {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error(transparent)]
    Spool(#[from] spool::SpoolError),
    #[error("writing the decision: {0}")]
    Stdout(std::io::Error),
}

/// Creates `dir` private to the user (0700) when it does not exist yet.
pub fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if !dir.exists() {
        std::fs::create_dir_all(dir)?;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

fn private_home(home: &Path) -> Result<(), HookError> {
    create_private_dir(home).map_err(|source| HookError::Home {
        path: home.to_path_buf(),
        source,
    })
}

/// Appends one line to `<home>/hook.log`, ignoring every failure.
fn log(home: &Path, message: &str) {
    let _ = create_private_dir(home);
    if let Ok(mut f) = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(home.join("hook.log"))
    {
        let _ = writeln!(f, "{} {message}", clock::now_rfc3339());
    }
}

/// Runs a hook with every guard on, always returning success to the agent. `home` is the
/// `--home`/`FORNAX_HOME` choice, `None` for the default home.
pub fn guarded(home: Option<PathBuf>, agent: Agent) -> ExitCode {
    let home = home.unwrap_or_else(config::default_home);
    if agent == Agent::Claude {
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
    let result = std::panic::catch_unwind(|| match agent {
        Agent::Claude => claude(&home),
        Agent::Opencode => opencode(&home),
    });
    match result {
        Ok(Ok(())) => {}
        Ok(Err(e)) => log(&home, &format!("hook {agent:?} failed: {e}")),
        Err(_) => log(&home, &format!("hook {agent:?} panicked")),
    }
    ExitCode::SUCCESS
}

fn spool_path(home: &Path) -> PathBuf {
    spool::spool_file(&home.join("spool"), &clock::today())
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

fn claude(home: &Path) -> Result<(), HookError> {
    let mut input = String::new();
    std::io::stdin()
        .take(MAX_PAYLOAD)
        .read_to_string(&mut input)
        .map_err(HookError::Stdin)?;
    let payload = input.trim();
    if payload.is_empty() {
        return Ok(());
    }
    // Keep the agent's bytes; only read the few fields the hook acts on.
    let head: HookHead = serde_json::from_str(payload).map_err(HookError::Payload)?;
    let line = spool::envelope_line("claude-hook", &clock::now_rfc3339(), payload);
    private_home(home)?;
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
    client::poke(home);
    Ok(())
}

/// Asks the daemon whether this Stop must be blocked and, if so, prints Claude Code's block
/// decision (the only case in which a hook writes to stdout).
fn decide(home: &Path, session: &str, stop_hook_active: bool) -> Result<(), HookError> {
    let req = serde_json::json!({"op": "decide", "session_id": session, "stop_hook_active": stop_hook_active});
    let Ok(answer) = client::request(home, &req, DECIDE_TIMEOUT) else {
        return Ok(());
    };
    if answer["decision"] == "block" {
        let decision = serde_json::json!({"decision": "block", "reason": answer["reason"]});
        let mut out = std::io::stdout().lock();
        writeln!(out, "{decision}").map_err(HookError::Stdout)?;
    }
    Ok(())
}

/// Intervention is on when the home's config says so; a config `fornax` would refuse means off.
fn intervention_enabled(home: &Path) -> bool {
    config::load(home)
        .map(|c| c.intervene.enabled)
        .unwrap_or(false)
}

fn opencode(home: &Path) -> Result<(), HookError> {
    private_home(home)?;
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
        let env = spool::envelope_line("opencode-plugin", &clock::now_rfc3339(), trimmed);
        match spool::append(&spool_path(home), &[env], spool::DEFAULT_SPOOL_LIMIT, true) {
            Ok(_) => {
                client::poke(home);
            }
            Err(e) => log(home, &format!("opencode event not spooled: {e}")),
        }
    }
    Ok(())
}
