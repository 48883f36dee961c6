//! The `cli` type adapter: spawns `executionTarget.command` without a shell.
//!
//! * argv: the command, `executionTarget.args`, then the arguments translated by rule: each
//!   argument becomes `--key value`; `true` a bare `--key`; `false` and `null` are omitted;
//!   arrays repeat the flag; objects pass as JSON. `argMap` renames a flag (`"-k"`) or makes an
//!   argument positional (`{"positional": true}`, appended last in schema order).
//! * working directory: `executionTarget.cwd` (relative to the workspace when one is bound,
//!   else to the caller's directory), defaulting to the workspace root, else the caller's dir.
//! * environment: cleared, then a fixed allow-list inherited from Fornax's own environment
//!   ([`INHERITED_ENV`] plus the type adapter's `inheritEnv`), then the type adapter's `env`,
//!   then `executionTarget.env`, then `FORNAX_CAPABILITY_ID`.
//! * bounds: a timeout (the whole process group is killed) and a cap per output stream.
//! * result: exit 0 → `data` is stdout parsed as JSON, else the trimmed text; non-zero →
//!   failure with stderr in the message and the status in `meta.exitCode`.

use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant, SystemTime};

use serde_json::{json, Value};

use crate::adapters::TypeSettings;
use crate::envelope::Envelope;
use crate::exec::ResolvedRun;

/// Variables a child inherits from Fornax's environment by default.
pub const INHERITED_ENV: [&str; 18] = [
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TZ",
    "TMPDIR",
    "TEMP",
    "TMP",
    "SYSTEMROOT",
    "CARGO_HOME",
    "RUSTUP_HOME",
    "RUSTUP_TOOLCHAIN",
    "GOPATH",
    "GOROOT",
    "VIRTUAL_ENV",
];

/// How much of stderr a failure message quotes.
const STDERR_IN_MESSAGE: usize = 2000;

/// What Fornax observed of one process it ran.
#[derive(Debug, Clone, PartialEq)]
pub struct ProcessRecord {
    pub argv: Vec<String>,
    pub cwd: PathBuf,
    /// `None` when killed by a signal, timed out or never started.
    pub exit_code: Option<i64>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub started_at: SystemTime,
    pub duration_ms: u64,
    pub stdout: String,
    pub stderr: String,
    pub stdout_truncated: bool,
    pub stderr_truncated: bool,
    /// Set when the process could not be started at all.
    pub spawn_error: Option<String>,
    /// Which confinements the process ran under (`None`: it was not confined at all).
    pub confinement: Option<fornax_sandbox::Report>,
}

impl ProcessRecord {
    /// A process that never started, with the reason.
    pub fn not_started(argv: Vec<String>, cwd: &Path, why: String) -> ProcessRecord {
        ProcessRecord {
            argv,
            cwd: cwd.to_path_buf(),
            exit_code: None,
            signal: None,
            timed_out: false,
            started_at: SystemTime::now(),
            duration_ms: 0,
            stdout: String::new(),
            stderr: String::new(),
            stdout_truncated: false,
            stderr_truncated: false,
            spawn_error: Some(why),
            confinement: None,
        }
    }

    pub fn succeeded(&self) -> bool {
        self.spawn_error.is_none() && !self.timed_out && self.exit_code == Some(0)
    }

    pub fn command_line(&self) -> String {
        self.argv.join(" ")
    }
}

/// How capability processes are confined: the launcher that re-executes as the confinement
/// helper, and what the program may never read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Confiner {
    /// The `fornax` binary (it runs `fornax __confine SPEC`).
    pub launcher: PathBuf,
    /// Paths the program may not read (the user's secrets, `FORNAX_HOME`).
    pub denied: Vec<PathBuf>,
}

/// Runs the capability through the cli type adapter.
pub fn execute(
    run: &ResolvedRun,
    settings: &TypeSettings,
    confiner: Option<&Confiner>,
) -> (Envelope, ProcessRecord) {
    let cwd = working_dir(run);
    let argv = match build_argv(run) {
        Ok(argv) => argv,
        Err(e) => {
            let mut record = ProcessRecord::not_started(Vec::new(), &cwd, e);
            record.argv = vec![run
                .manifest
                .target_str("command")
                .unwrap_or_default()
                .to_string()];
            return (envelope(&record), record);
        }
    };
    let mut env = build_env(run, settings);
    let confinement = confiner.map(|c| confinement_for(run, c, &cwd));
    if let Some(c) = &confinement {
        env.retain(|(k, _)| !matches!(k.as_str(), "TMPDIR" | "TEMP" | "TMP"));
        for key in ["TMPDIR", "TEMP", "TMP"] {
            env.push((key.to_string(), c.scratch.display().to_string()));
        }
    }
    let record = spawn_and_wait(
        &argv,
        &cwd,
        &env,
        run.limits.timeout_ms,
        run.limits.max_output_bytes,
        confinement.as_ref(),
    );
    (envelope(&record), record)
}

/// The full argv: command, fixed args, translated flags, a provider's extra flags, then `--`
/// and the positional values. A value is never read as a flag: long flags carry their value
/// as `--key=value`, and positional values come after `--`.
pub fn build_argv(run: &ResolvedRun) -> Result<Vec<String>, String> {
    let m = &run.manifest;
    let mut argv = vec![m.target_str("command").unwrap_or_default().to_string()];
    if let Some(args) = m.execution_target.get("args").and_then(Value::as_array) {
        argv.extend(args.iter().filter_map(Value::as_str).map(str::to_string));
    }
    match &run.argv_override {
        Some(custom) => {
            argv.extend(custom.iter().cloned());
            argv.extend(run.extra_argv.iter().cloned());
        }
        None => {
            let (flags, positional) = translate_args(run)?;
            argv.extend(flags);
            argv.extend(run.extra_argv.iter().cloned());
            if !positional.is_empty() {
                argv.push("--".to_string());
                argv.extend(positional);
            }
        }
    }
    Ok(argv)
}

/// Arguments → (flags, positional values), in schema property order, then any remaining keys
/// in given order. A short flag (`-k`, from `argMap`) takes its value as the next word, so a
/// value that starts with `-` is refused for it.
pub fn translate_args(run: &ResolvedRun) -> Result<(Vec<String>, Vec<String>), String> {
    let m = &run.manifest;
    let mut order: Vec<&String> = Vec::new();
    if let Some(props) = m.args_schema.get("properties").and_then(Value::as_object) {
        order.extend(props.keys().filter(|k| run.args.contains_key(*k)));
    }
    order.extend(
        run.args
            .keys()
            .filter(|k| !order.contains(k))
            .collect::<Vec<_>>(),
    );
    let mut flags = Vec::new();
    let mut positional = Vec::new();
    for key in order {
        let value = &run.args[key];
        let mapping = m.arg_map.as_ref().and_then(|a| a.get(key));
        if mapping
            .and_then(|v| v.get("positional"))
            .is_some_and(|p| p == &Value::Bool(true))
        {
            push_values(value, &mut positional);
            continue;
        }
        let flag = mapping
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| format!("--{key}"));
        let items: Vec<&Value> = match value {
            Value::Array(items) => items.iter().collect(),
            other => vec![other],
        };
        for item in items {
            match item {
                Value::Bool(true) => flags.push(flag.clone()),
                Value::Bool(false) | Value::Null => {}
                other => {
                    let text = scalar(other);
                    if flag.starts_with("--") {
                        flags.push(format!("{flag}={text}"));
                    } else if text.starts_with('-') {
                        return Err(format!(
                            "argument {key:?}: the value {text:?} starts with '-' and would be read \
                             as a flag by {flag}"
                        ));
                    } else {
                        flags.push(flag.clone());
                        flags.push(text);
                    }
                }
            }
        }
    }
    Ok((flags, positional))
}

fn push_values(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Null | Value::Bool(false) => {}
        Value::Array(items) => items.iter().for_each(|i| push_values(i, out)),
        other => out.push(scalar(other)),
    }
}

fn scalar(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

pub fn working_dir(run: &ResolvedRun) -> PathBuf {
    let base = run.workspace.clone().unwrap_or_else(|| run.cwd.clone());
    match run.manifest.target_str("cwd") {
        Some(dir) if Path::new(dir).is_absolute() => PathBuf::from(dir),
        Some(dir) => base.join(dir),
        None => base,
    }
}

pub fn build_env(run: &ResolvedRun, settings: &TypeSettings) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = Vec::new();
    let mut set = |k: &str, v: String| {
        env.retain(|(key, _)| key != k);
        env.push((k.to_string(), v));
    };
    for name in INHERITED_ENV
        .iter()
        .copied()
        .chain(settings.inherit_env.iter().map(String::as_str))
    {
        if let Some(v) = std::env::var_os(name) {
            set(name, v.to_string_lossy().into_owned());
        }
    }
    for (k, v) in &settings.env {
        set(k, v.clone());
    }
    if let Some(target_env) = run
        .manifest
        .execution_target
        .get("env")
        .and_then(Value::as_object)
    {
        for (k, v) in target_env {
            if let Some(s) = v.as_str() {
                set(k, s.to_string());
            }
        }
    }
    set("FORNAX_CAPABILITY_ID", run.capability_id.clone());
    env
}

/// A run's confinement: its private directory (the helper's spec and status, the program's
/// scratch directory) and the spec. The directory is removed when the run is done.
#[derive(Debug)]
pub struct RunConfinement {
    dir: PathBuf,
    /// The program's `TMPDIR`, writable inside the confinement.
    pub scratch: PathBuf,
    launcher: PathBuf,
    spec: fornax_sandbox::Spec,
}

impl Drop for RunConfinement {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The confinement of one run: the workspace (else the working directory), its scratch
/// directory and `writablePaths` writable; the confiner's denied paths unreadable; network
/// only when `sideEffects` declares it; limits from `executionTarget.limits`.
fn confinement_for(run: &ResolvedRun, c: &Confiner, cwd: &Path) -> RunConfinement {
    let nanos = SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let name = format!("fornax-run-{}-{nanos}", std::process::id());
    let dir = std::env::temp_dir().join(&name);
    let scratch = run.scratch.clone().unwrap_or_else(|| dir.join("scratch"));
    let _ = std::fs::create_dir_all(&dir);
    let _ = std::fs::create_dir_all(&scratch);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
    }
    let base = run.workspace.clone().unwrap_or_else(|| cwd.to_path_buf());
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut writable = vec![base.clone(), scratch.clone()];
    if !cwd.starts_with(&base) {
        writable.push(cwd.to_path_buf());
    }
    for p in run
        .manifest
        .execution_target
        .get("writablePaths")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
    {
        let path = match (p.strip_prefix("~/"), &home) {
            (Some(rest), Some(h)) => h.join(rest),
            _ if Path::new(p).is_absolute() => PathBuf::from(p),
            _ => base.join(p),
        };
        writable.push(path);
    }
    let declared = run.manifest.execution_target.get("limits");
    let limit = |key: &str, default: u64| {
        declared
            .and_then(|l| l.get(key))
            .and_then(Value::as_u64)
            .unwrap_or(default)
    };
    let defaults = fornax_sandbox::Limits::default();
    let limits = fornax_sandbox::Limits {
        memory_mb: limit("memoryMb", defaults.memory_mb),
        cpu_seconds: limit(
            "cpuSeconds",
            defaults.cpu_seconds.max(run.limits.timeout_ms / 1000 * 2),
        ),
        file_size_mb: limit("fileSizeMb", defaults.file_size_mb),
        processes: limit("processes", defaults.processes),
    };
    let spec = fornax_sandbox::Spec {
        argv: Vec::new(),
        cwd: cwd.to_path_buf(),
        env: Vec::new(),
        writable,
        denied: c.denied.clone(),
        network: run.manifest.side_effects.iter().any(|s| s == "network"),
        limits,
        timeout_ms: run.limits.timeout_ms,
        status_path: dir.join("status.json"),
        cgroup_name: name,
    };
    RunConfinement {
        dir,
        scratch,
        launcher: c.launcher.clone(),
        spec,
    }
}

/// How long past the deadline the helper gets to end everything before it is killed itself.
const HELPER_GRACE_MS: u64 = 5000;

/// Spawns `argv` and waits, bounded by `timeout_ms`, keeping at most `cap` bytes per stream.
/// With a confinement the program runs under the confinement helper, which enforces the
/// deadline on the program and every descendant and reports what it applied.
pub fn spawn_and_wait(
    argv: &[String],
    cwd: &Path,
    env: &[(String, String)],
    timeout_ms: u64,
    cap: u64,
    confinement: Option<&RunConfinement>,
) -> ProcessRecord {
    let started_at = SystemTime::now();
    let start = Instant::now();
    let mut record = ProcessRecord {
        argv: argv.to_vec(),
        cwd: cwd.to_path_buf(),
        exit_code: None,
        signal: None,
        timed_out: false,
        started_at,
        duration_ms: 0,
        stdout: String::new(),
        stderr: String::new(),
        stdout_truncated: false,
        stderr_truncated: false,
        spawn_error: None,
        confinement: None,
    };
    let Some(program) = argv.first().filter(|p| !p.is_empty()) else {
        record.spawn_error = Some("no command to run".to_string());
        return record;
    };
    if !cwd.is_dir() {
        record.spawn_error = Some(format!(
            "working directory {} does not exist",
            cwd.display()
        ));
        return record;
    }
    let resolved = resolve_program(program, cwd, env);
    let mut command = match confinement {
        Some(c) => {
            let mut spec = c.spec.clone();
            spec.argv = std::iter::once(resolved.display().to_string())
                .chain(argv[1..].iter().cloned())
                .collect();
            spec.env = env.to_vec();
            let spec_path = c.dir.join("spec.json");
            if let Err(e) =
                std::fs::write(&spec_path, serde_json::to_vec(&spec).unwrap_or_default())
            {
                record.spawn_error = Some(format!("could not prepare the confinement: {e}"));
                return record;
            }
            let mut command = Command::new(&c.launcher);
            command
                .arg(fornax_sandbox::HELPER_ARG)
                .arg(&spec_path)
                .env_clear();
            command
        }
        None => {
            let mut command = Command::new(&resolved);
            command
                .args(&argv[1..])
                .env_clear()
                .envs(env.iter().map(|(k, v)| (k, v)));
            command
        }
    };
    command
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    let mut child = match command.spawn() {
        Ok(c) => c,
        Err(e) => {
            record.spawn_error = Some(format!("could not start {program:?}: {e}"));
            record.duration_ms = elapsed_ms(start);
            return record;
        }
    };
    let (tx, rx) = mpsc::channel();
    let readers = [
        child
            .stdout
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
        child
            .stderr
            .take()
            .map(|s| Box::new(s) as Box<dyn Read + Send>),
    ];
    for (index, stream) in readers.into_iter().enumerate() {
        if let Some(stream) = stream {
            let tx = tx.clone();
            thread::spawn(move || {
                let captured = read_capped(stream, cap);
                let _ = tx.send((index, captured));
            });
        }
    }
    drop(tx);
    let deadline = Duration::from_millis(match confinement {
        Some(_) => timeout_ms.saturating_add(HELPER_GRACE_MS),
        None => timeout_ms,
    });
    let mut pause = Duration::from_millis(1);
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() >= deadline => {
                record.timed_out = true;
                kill_group(&mut child);
                break child.wait().ok();
            }
            Ok(None) => {
                thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(20));
            }
            Err(e) => {
                record.spawn_error = Some(format!("lost track of {program:?}: {e}"));
                kill_group(&mut child);
                break None;
            }
        }
    };
    record.duration_ms = elapsed_ms(start);
    if let Some(status) = status {
        if !record.timed_out {
            record.exit_code = status.code().map(i64::from);
        }
        #[cfg(unix)]
        {
            use std::os::unix::process::ExitStatusExt;
            record.signal = status.signal();
        }
    }
    if let Some(c) = confinement {
        apply_helper_status(&mut record, c);
    }
    // The process is gone, but a grandchild may still hold the pipes open: give the readers a
    // moment, then end the group so the readers see end-of-file.
    let mut pending = 2;
    let mut waited_kill = false;
    while pending > 0 {
        match rx.recv_timeout(Duration::from_millis(if waited_kill { 1000 } else { 2000 })) {
            Ok((index, (text, truncated))) => {
                pending -= 1;
                if index == 0 {
                    record.stdout = text;
                    record.stdout_truncated = truncated;
                } else {
                    record.stderr = text;
                    record.stderr_truncated = truncated;
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) if !waited_kill => {
                kill_group(&mut child);
                waited_kill = true;
            }
            Err(_) => break,
        }
    }
    record
}

/// What the helper observed replaces what the parent saw of the helper itself.
fn apply_helper_status(record: &mut ProcessRecord, c: &RunConfinement) {
    let status: Option<fornax_sandbox::Status> = std::fs::read(&c.spec.status_path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    let Some(status) = status else {
        if record.spawn_error.is_none() && !record.timed_out {
            record.spawn_error = Some(format!(
                "the confinement helper {} ended without a report ({})",
                c.launcher.display(),
                match (record.exit_code, record.signal) {
                    (Some(code), _) => format!("exit {code}"),
                    (None, Some(sig)) => format!("signal {sig}"),
                    _ => "no status".to_string(),
                }
            ));
        }
        record.exit_code = None;
        return;
    };
    record.exit_code = status.exit_code.map(i64::from);
    record.signal = status.signal;
    record.timed_out = record.timed_out || status.timed_out;
    if status.timed_out {
        record.exit_code = None;
    }
    if record.spawn_error.is_none() {
        record.spawn_error = status.spawn_error;
    }
    record.confinement = Some(status.confinement);
}

/// A program name with a slash is a path (relative to the working directory); a bare name is
/// looked up on the child's `PATH`, so the child's environment decides, not Fornax's.
fn resolve_program(program: &str, cwd: &Path, env: &[(String, String)]) -> PathBuf {
    if program.contains('/') {
        let p = Path::new(program);
        return if p.is_absolute() {
            p.to_path_buf()
        } else {
            cwd.join(p)
        };
    }
    let path = env
        .iter()
        .find(|(k, _)| k == "PATH")
        .map(|(_, v)| v.as_str())
        .unwrap_or_default();
    for dir in std::env::split_paths(path) {
        let candidate = dir.join(program);
        if candidate.is_file() {
            return candidate;
        }
    }
    PathBuf::from(program)
}

fn read_capped(mut stream: impl Read, cap: u64) -> (String, bool) {
    let mut kept = Vec::new();
    let mut truncated = false;
    let mut buf = [0u8; 8192];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => {
                let room = usize::try_from(cap)
                    .unwrap_or(usize::MAX)
                    .saturating_sub(kept.len());
                if n > room {
                    truncated = true;
                }
                kept.extend_from_slice(&buf[..n.min(room)]);
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
    }
    (String::from_utf8_lossy(&kept).into_owned(), truncated)
}

fn kill_group(child: &mut Child) {
    #[cfg(unix)]
    {
        if let Some(pid) = i32::try_from(child.id())
            .ok()
            .and_then(rustix::process::Pid::from_raw)
        {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
    }
    let _ = child.kill();
}

fn elapsed_ms(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// The envelope for a finished process.
pub fn envelope(record: &ProcessRecord) -> Envelope {
    let program = record.argv.first().cloned().unwrap_or_default();
    let mut env = if let Some(e) = &record.spawn_error {
        Envelope::failure(e.clone())
    } else if record.timed_out {
        Envelope::failure(with_stderr(
            format!("`{program}` timed out after {} ms", record.duration_ms),
            &record.stderr,
        ))
    } else if record.exit_code == Some(0) {
        let text = record.stdout.trim();
        let data =
            serde_json::from_str::<Value>(text).unwrap_or_else(|_| Value::String(text.to_string()));
        Envelope::success(data)
    } else {
        let status = match (record.exit_code, record.signal) {
            (Some(code), _) => format!("exited with status {code}"),
            (None, Some(sig)) => format!("was killed by signal {sig}"),
            (None, None) => "ended without an exit status".to_string(),
        };
        Envelope::failure(with_stderr(format!("`{program}` {status}"), &record.stderr))
    };
    env.meta
        .insert("exitCode".to_string(), json!(record.exit_code));
    if let Some(sig) = record.signal {
        env.meta.insert("signal".to_string(), json!(sig));
    }
    if record.timed_out {
        env.meta.insert("timedOut".to_string(), json!(true));
    }
    env.meta.insert("argv".to_string(), json!(record.argv));
    match &record.confinement {
        Some(report) => {
            env.meta
                .insert("confinement".to_string(), json!(report.items));
            for c in report.inactive() {
                env.warn(format!("not confined: {}: {}", c.name, c.detail));
            }
        }
        None => {
            env.meta.insert("confinement".to_string(), Value::Null);
            if record.spawn_error.is_none() {
                env.warn("the process ran unconfined (no confinement helper in this build)");
            }
        }
    }
    env.meta.insert("cwd".to_string(), json!(record.cwd));
    env.meta
        .insert("processMs".to_string(), json!(record.duration_ms));
    if !record.stderr.trim().is_empty() {
        env.meta.insert(
            "stderr".to_string(),
            json!(tail(record.stderr.trim(), STDERR_IN_MESSAGE)),
        );
    }
    for (flag, stream) in [
        (record.stdout_truncated, "stdout"),
        (record.stderr_truncated, "stderr"),
    ] {
        if flag {
            env.meta.insert(format!("{stream}Truncated"), json!(true));
            env.warn(format!(
                "{stream} exceeded the output cap and was truncated"
            ));
        }
    }
    env
}

fn with_stderr(message: String, stderr: &str) -> String {
    let stderr = stderr.trim();
    if stderr.is_empty() {
        message
    } else {
        format!("{message}: {}", tail(stderr, STDERR_IN_MESSAGE))
    }
}

/// The last `max` bytes of `text` (on a character boundary).
pub fn tail(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut start = text.len() - max;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    &text[start..]
}

/// Runs the launcher itself (`--version`) under the confinement and returns what applied: the
/// honest answer to "which confinements are active here".
pub fn probe_confinement(c: &Confiner) -> fornax_sandbox::Report {
    let cwd = std::env::temp_dir();
    let run = ResolvedRun {
        capability_id: "fornax.doctor.probe".to_string(),
        manifest: probe_manifest(c),
        args: serde_json::Map::new(),
        workspace: None,
        cwd: cwd.clone(),
        limits: crate::policy::Limits::default(),
        extra_argv: Vec::new(),
        argv_override: None,
        scratch: None,
    };
    let conf = confinement_for(&run, c, &cwd);
    let argv = vec![c.launcher.display().to_string(), "--version".to_string()];
    let env: Vec<(String, String)> = Vec::new();
    let record = spawn_and_wait(&argv, &cwd, &env, 10_000, 4096, Some(&conf));
    match record.confinement {
        Some(report) => report,
        None => fornax_sandbox::Report::unsupported(
            record
                .spawn_error
                .as_deref()
                .unwrap_or("the confinement helper reported nothing"),
        ),
    }
}

fn probe_manifest(c: &Confiner) -> crate::manifest::CapabilityManifest {
    crate::manifest::CapabilityManifest {
        manifest_version: 1,
        id: "global.fornax.probe".to_string(),
        summary: "confinement probe".to_string(),
        provider: "fornax".to_string(),
        adapter_type: "cli".to_string(),
        provider_adapter: None,
        execution_target: serde_json::json!({"command": c.launcher})
            .as_object()
            .cloned()
            .unwrap_or_default(),
        args_schema: serde_json::json!({"type": "object"}),
        output_modes: vec!["text".to_string()],
        side_effects: vec!["process".to_string()],
        scope: crate::id::Scope::Global,
        lifecycle_state: crate::manifest::LifecycleState::Active,
        defaults: serde_json::Map::new(),
        policies: Vec::new(),
        owner: "fornax".to_string(),
        arg_map: None,
    }
}
