//! The hook entry points: one Claude Code, Copilot CLI or Cursor event per process, or opencode's
//! NDJSON stream.

use std::io::{BufRead, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use crate::protocol::{Request, Response};
use crate::{client, clock, config, json, spool, Home};

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
    /// One GitHub Copilot CLI hook payload on stdin; the event is named on the command line
    /// (Copilot's payloads do not say which hook they are).
    Copilot,
    /// One Cursor hook payload on stdin; before-hooks get the permissive answer on stdout.
    Cursor,
}

impl Agent {
    /// The agent named on the command line (`claude`, `opencode`, `copilot`, `cursor`).
    pub fn from_name(name: &str) -> Option<Agent> {
        match name {
            "claude" => Some(Agent::Claude),
            "opencode" => Some(Agent::Opencode),
            "copilot" => Some(Agent::Copilot),
            "cursor" => Some(Agent::Cursor),
            _ => None,
        }
    }

    /// Whether the agent's hook command names the event as an argument.
    pub fn takes_event(self) -> bool {
        self == Agent::Copilot
    }
}

/// A Copilot CLI hook event name as the command line gives it: letters only, short.
fn valid_event(event: &str) -> bool {
    !event.is_empty() && event.len() <= 64 && event.bytes().all(|b| b.is_ascii_alphabetic())
}

#[derive(Debug, thiserror::Error)]
enum HookError {
    #[error("reading the payload: {0}")]
    Stdin(std::io::Error),
    /// Only the error's category and position: a log line never holds payload text.
    #[error("the payload is not JSON ({category} error at line {line}, column {column})")]
    Payload {
        category: &'static str,
        line: usize,
        column: usize,
    },
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

impl HookError {
    fn payload(e: &serde_json::Error) -> HookError {
        use serde_json::error::Category;
        HookError::Payload {
            category: match e.classify() {
                Category::Io => "read",
                Category::Syntax => "syntax",
                Category::Data => "data",
                Category::Eof => "truncated input",
            },
            line: e.line(),
            column: e.column(),
        }
    }
}

use crate::home::create_private_dir;

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
        .open(Home::new(home).hook_log())
    {
        let _ = writeln!(f, "{} {message}", clock::now_rfc3339());
    }
}

/// Runs a hook with every guard on, always returning success to the agent. `home` is the
/// `--home`/`FORNAX_HOME` choice, `None` for the default home.
pub fn guarded(home: Option<PathBuf>, agent: Agent) -> ExitCode {
    guarded_event(home, agent, None)
}

/// [`guarded`] for an agent whose hook command names its event (`fornax hook copilot
/// postToolUse`).
pub fn guarded_event(home: Option<PathBuf>, agent: Agent, event: Option<&str>) -> ExitCode {
    let home = home.unwrap_or_else(crate::default_home);
    if agent != Agent::Opencode {
        watchdog(&home);
    }
    std::panic::set_hook(Box::new(|_| {}));
    let result = std::panic::catch_unwind(|| match agent {
        Agent::Claude => claude(&home),
        Agent::Opencode => opencode(&home),
        Agent::Copilot => copilot(&home, event.unwrap_or("")),
        Agent::Cursor => cursor(&home),
    });
    match result {
        Ok(Ok(())) => {}
        Ok(Err(e)) => log(&home, &format!("hook {agent:?} failed: {e}")),
        Err(_) => log(&home, &format!("hook {agent:?} panicked")),
    }
    ExitCode::SUCCESS
}

/// Stack of the deadline thread: it sleeps, then writes one log line and exits.
const WATCHDOG_STACK: usize = 64 * 1024;

/// Ends the process, with success, once [`HOOK_DEADLINE`] has passed, whatever the hook is
/// blocked on (a stdin the agent never closes, a lock, a stalled disk). A small stack: the
/// default 2 MiB is mapped and set up in every hook process for a thread that only sleeps.
/// When no thread can be started the hook runs without a deadline rather than fail.
fn watchdog(home: &Path) {
    let log_home = home.to_path_buf();
    let started = std::thread::Builder::new()
        .stack_size(WATCHDOG_STACK)
        .spawn(move || {
            std::thread::sleep(HOOK_DEADLINE);
            log(
                &log_home,
                "hook deadline reached; exiting without recording",
            );
            std::process::exit(0);
        });
    if let Err(e) = started {
        log(
            home,
            &format!("no deadline thread ({e}); running without one"),
        );
    }
}

/// Tells the daemon about new spool data; when none answers, starts one (unless the config
/// says not to, or an attempt is recent). The event is in the spool either way.
fn notify(home: &Path) {
    if client::poke(home) {
        return;
    }
    start_daemon(home);
}

fn start_daemon(home: &Path) {
    use crate::autostart::Attempt;
    match crate::autostart::start_if_due(home) {
        Attempt::Spawned(pid) => log(home, &format!("no daemon was running; started one (pid {pid})")),
        Attempt::NoBinary => log(home, "no daemon is running and no `fornax` binary sits next to this hook to start one; events wait in the spool"),
        Attempt::Failed(why) => log(home, &format!("no daemon is running and starting one failed ({why}); events wait in the spool")),
        Attempt::Disabled | Attempt::TooSoon => {}
    }
}

fn spool_path(home: &Path) -> PathBuf {
    spool::spool_file(&Home::new(home).spool_dir(), &clock::today())
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
    #[serde(default)]
    cwd: Option<serde_json::Value>,
    last_assistant_message: Option<serde_json::Value>,
}

/// The payload on stdin (at most [`MAX_PAYLOAD`] bytes), its raw line breaks flattened and
/// trimmed: a pretty-printed payload must not break the spool's line framing, and in JSON its
/// line breaks can only be whitespace between tokens, so they become spaces and the value is
/// unchanged. Not valid UTF-8 is not JSON.
fn read_payload() -> Result<String, HookError> {
    let mut input = Vec::new();
    std::io::stdin()
        .take(MAX_PAYLOAD)
        .read_to_end(&mut input)
        .map_err(HookError::Stdin)?;
    json::flatten_line_breaks(&mut input);
    let payload = input.trim_ascii();
    let text = std::str::from_utf8(payload).map_err(|_| HookError::Payload {
        category: "encoding",
        line: 1,
        column: 0,
    })?;
    Ok(text.to_string())
}

fn claude(home: &Path) -> Result<(), HookError> {
    let input = read_payload()?;
    let payload = input.as_str();
    if payload.is_empty() {
        return Ok(());
    }
    // Keep the agent's bytes; only read the few fields the hook acts on.
    let head: HookHead = serde_json::from_str(payload).map_err(|e| HookError::payload(&e))?;
    if excluded_cwd(home, head.cwd.as_ref()) {
        return Ok(());
    }
    let line = spool::envelope_line("claude-hook", &clock::now_rfc3339(), payload);
    private_home(home)?;
    spool::append(&spool_path(home), &[line], spool::DEFAULT_SPOOL_LIMIT, true)?;
    let is_stop = head.hook_event_name.as_ref().and_then(|v| v.as_str()) == Some("Stop");
    if is_stop && intervention_enabled(home) {
        if let Some(session) = head.session_id.as_ref().and_then(|v| v.as_str()) {
            let ask = Ask {
                session,
                stop_hook_active: head
                    .stop_hook_active
                    .as_ref()
                    .and_then(|v| v.as_bool())
                    .unwrap_or(false),
                last_message: head
                    .last_assistant_message
                    .as_ref()
                    .and_then(|v| v.as_str()),
            };
            decide(home, &ask)?;
        }
        return Ok(());
    }
    notify(home);
    Ok(())
}

/// Asks the daemon whether this Stop must be blocked and, if so, prints Claude Code's block
/// decision (the only case in which a hook writes to stdout).
fn decide(home: &Path, ask: &Ask<'_>) -> Result<(), HookError> {
    if let Some(reason) = ask_decision(home, ask) {
        let decision = serde_json::json!({"decision": "block", "reason": reason});
        let mut out = std::io::stdout().lock();
        writeln!(out, "{decision}").map_err(HookError::Stdout)?;
    }
    Ok(())
}

/// A Stop to judge.
struct Ask<'a> {
    session: &'a str,
    stop_hook_active: bool,
    /// The final message the payload carries, when it does.
    last_message: Option<&'a str>,
}

/// The daemon's reason to block, when it has one. Whatever goes wrong, the turn is allowed:
/// a missed judgement is logged, never a delay past the deadline or a blocked agent.
fn ask_decision(home: &Path, ask: &Ask<'_>) -> Option<String> {
    let req = Request::Decide {
        session_id: ask.session.to_string(),
        stop_hook_active: ask.stop_hook_active,
        last_message: ask.last_message.map(str::to_string),
    };
    match client::request(home, &req, DECIDE_TIMEOUT) {
        Ok(Response::Decision { block }) => block,
        Ok(other) => {
            log(
                home,
                &format!(
                    "the daemon answered a Stop with {}; turn allowed",
                    answer_kind(&other)
                ),
            );
            None
        }
        Err(client::ClientError::NotRunning(_)) => {
            log(home, "no daemon to judge a Stop; turn allowed");
            start_daemon(home);
            None
        }
        Err(e) => {
            log(
                home,
                &format!(
                    "no decision on a Stop within {} ms ({e}); turn allowed",
                    DECIDE_TIMEOUT.as_millis()
                ),
            );
            None
        }
    }
}

fn answer_kind(r: &Response) -> &'static str {
    match r {
        Response::Ok => "ok",
        Response::Status(_) => "a status",
        Response::Stopping(_) => "stopping",
        Response::Decision { .. } => "a decision",
        Response::Progress(_) => "progress",
        Response::Scanned(_) => "a scan summary",
        Response::Busy => "busy",
        Response::Error { .. } => "an error",
    }
}

/// Intervention is on when the home's config says so; a config `fornax` would refuse means off.
fn intervention_enabled(home: &Path) -> bool {
    config::load(home)
        .map(|c| c.intervene.enabled)
        .unwrap_or(false)
}

/// Whether the event's working directory is one `[capture] exclude` names: such an event is
/// dropped before it reaches the spool (and is not logged: its path is the user's secret).
fn excluded_cwd(home: &Path, cwd: Option<&serde_json::Value>) -> bool {
    let Some(cwd) = cwd.and_then(|v| v.as_str()) else {
        return false;
    };
    config::load(home)
        .map(|c| config::is_excluded(&c.capture.excluded(), cwd))
        .unwrap_or(false)
}

/// A Copilot CLI hook: the payload is kept byte for byte inside `{"hookType", "input"}` (the
/// shape of the session log's own `hook.start` mirror), since only the command line says
/// which event it is. Copilot reads no answer from most hooks; nothing is printed.
fn copilot(home: &Path, event: &str) -> Result<(), HookError> {
    if !valid_event(event) {
        log(
            home,
            "copilot hook called without a valid event name; dropped",
        );
        return Ok(());
    }
    let input = read_payload()?;
    if input.is_empty() {
        return Ok(());
    }
    let value: serde_json::Value =
        serde_json::from_str(&input).map_err(|e| HookError::payload(&e))?;
    if !value.is_object() {
        log(home, "copilot hook payload is not a JSON object; dropped");
        return Ok(());
    }
    if excluded_cwd(home, value.get("cwd")) {
        return Ok(());
    }
    let wrapped = format!("{{\"hookType\":\"{event}\",\"input\":{input}}}");
    let line = spool::envelope_line("copilot-hook", &clock::now_rfc3339(), &wrapped);
    private_home(home)?;
    spool::append(&spool_path(home), &[line], spool::DEFAULT_SPOOL_LIMIT, true)?;
    notify(home);
    Ok(())
}

/// What a Cursor hook answers when it lets the agent go on: before-hooks read a permission
/// (`allow`) or `continue: true`; the others accept an empty object.
pub fn cursor_permissive_answer(event: &str) -> &'static str {
    match event {
        "beforeShellExecution"
        | "beforeMCPExecution"
        | "beforeReadFile"
        | "preToolUse"
        | "beforeTabFileRead" => "{\"permission\":\"allow\"}",
        "beforeSubmitPrompt" => "{\"continue\":true}",
        _ => "{}",
    }
}

/// A Cursor hook: spool the payload, then answer on stdout, permissively unless intervention
/// is on and the daemon finds a contradicted claim at a `stop`, which is answered with a
/// follow-up message citing the evidence (Cursor sends it to the agent as the next prompt).
fn cursor(home: &Path) -> Result<(), HookError> {
    let input = read_payload()?;
    let head: Option<serde_json::Value> = serde_json::from_str(&input).ok();
    let field = |k: &str| head.as_ref().and_then(|h| h.get(k));
    let event = field("hook_event_name")
        .and_then(|v| v.as_str())
        .unwrap_or("")
        .to_string();
    let mut answer = cursor_permissive_answer(&event).to_string();
    let recorded = (|| -> Result<(), HookError> {
        if !head.as_ref().is_some_and(|h| h.is_object()) {
            if !input.is_empty() {
                log(home, "cursor hook payload is not a JSON object; dropped");
            }
            return Ok(());
        }
        let roots = field("workspace_roots").and_then(|r| r.get(0));
        if excluded_cwd(home, field("cwd").or(roots)) {
            return Ok(());
        }
        let line = spool::envelope_line("cursor-hook", &clock::now_rfc3339(), &input);
        private_home(home)?;
        spool::append(&spool_path(home), &[line], spool::DEFAULT_SPOOL_LIMIT, true)?;
        if event == "stop" && intervention_enabled(home) {
            if let Some(session) = field("conversation_id").and_then(|v| v.as_str()) {
                // A stop that follows an automatic follow-up never blocks again.
                let looping = field("loop_count")
                    .and_then(|v| v.as_u64())
                    .is_some_and(|n| n > 0);
                let ask = Ask {
                    session,
                    stop_hook_active: looping,
                    last_message: None,
                };
                if let Some(reason) = ask_decision(home, &ask) {
                    answer = serde_json::json!({ "followup_message": reason }).to_string();
                }
            }
            return Ok(());
        }
        notify(home);
        Ok(())
    })();
    // The answer is printed whatever became of the recording: Cursor waits for it.
    let mut out = std::io::stdout().lock();
    writeln!(out, "{answer}").map_err(HookError::Stdout)?;
    recorded
}

fn opencode(home: &Path) -> Result<(), HookError> {
    private_home(home)?;
    // The plugin's child runs in opencode's working directory. In a project `[capture]
    // exclude` names, the stream is still read to its end (opencode must never wait on a full
    // pipe) and nothing of it is kept.
    let excluded = std::env::current_dir().ok().is_some_and(|dir| {
        let dir = serde_json::Value::String(dir.to_string_lossy().into_owned());
        excluded_cwd(home, Some(&dir))
    });
    let mut stdin = std::io::stdin().lock();
    let mut line = Vec::new();
    loop {
        line.clear();
        match stdin.read_until(b'\n', &mut line) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
        if excluded {
            continue;
        }
        // One line of the stream is one payload: a stray CR stays out of the spool's framing.
        json::flatten_line_breaks(&mut line);
        let trimmed = line.trim_ascii();
        if trimmed.is_empty() {
            continue;
        }
        let text = match std::str::from_utf8(trimmed) {
            Ok(t) if serde_json::from_str::<serde::de::IgnoredAny>(t).is_ok() => t,
            _ => {
                log(
                    home,
                    "opencode plugin sent a line that is not JSON; dropped",
                );
                continue;
            }
        };
        let env = spool::envelope_line("opencode-plugin", &clock::now_rfc3339(), text);
        match spool::append(&spool_path(home), &[env], spool::DEFAULT_SPOOL_LIMIT, true) {
            Ok(_) => {
                notify(home);
            }
            Err(e) => log(home, &format!("opencode event not spooled: {e}")),
        }
    }
    Ok(())
}
