//! The `fornax cap ...` requests (the binary parses its command line into a [`CapCommand`])
//! and [`execute`], which returns a [`CommandOutput`] for the binary to print (this crate
//! never prints and knows no command-line parser).
//!
//! Exit codes: 0 on success; 1 when `cap run`'s result is not ok or `cap doctor` found errors.
//! Usage and lookup failures are `Err(CapError)`; the binary chooses their exit code.

use std::path::PathBuf;
use std::sync::Arc;

use fornax_types::{Evidence, Provider, Recheck, RecheckTrigger, SessionRef};
use serde_json::{json, Map, Value};

use crate::builtins::Handlers;
use crate::doctor::DoctorReport;
use crate::error::CapError;
use crate::exec::{RunOptions, Runtime};
use crate::history::{EvidenceSink, History};
use crate::id::Scope;
use crate::layout::{Layout, TOOLSPACE_ENV, WORKSPACE_ENV};
use crate::lifecycle::{self, Direction};
use crate::manifest::LifecycleState;
use crate::policy::{self, PolicyContext};
use crate::report::{
    ArgumentSpec, CapReport, InitReport, InspectReport, InspectedAdapters, LifecycleReport,
    ListReport, ListedCapability, RunReport, TrustListReport, TrustRecordState, TrustReport,
    TrustState, TrustedFile, UntrustReport,
};
use crate::scaffold;
use crate::trust::{TrustInput, TrustMode, TrustStore};

/// A `fornax cap ...` request, as the binary parsed it from its command line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CapCommand {
    /// List capabilities (only active ones unless --all).
    List {
        /// Include draft and reviewed capabilities.
        all: bool,
        /// Only this scope: global, toolspace or workspace.
        scope: Option<String>,
        /// Only capabilities mounted in this toolspace.
        toolspace: Option<String>,
    },
    /// Show a capability: effective manifest, origin, adapters and a policy dry run.
    Inspect {
        /// A full id, `MODULE CAPABILITY` or `MODULE.CAPABILITY`.
        target: Vec<String>,
        /// Toolspace for shorthand resolution (default: FORNAX_TOOLSPACE).
        toolspace: Option<String>,
    },
    /// Run a capability; exits non-zero when the result is not ok.
    Run {
        /// A full id, `MODULE CAPABILITY` or `MODULE.CAPABILITY`.
        target: Vec<String>,
        /// An argument, coerced to the type argsSchema declares (repeatable).
        args: Vec<String>,
        /// Arguments as one JSON object (--arg values override its keys).
        args_json: Option<String>,
        /// Run a draft or reviewed capability.
        any_lifecycle: bool,
        /// Tie the run's evidence to this session (`provider:native_id` or a native id).
        session: Option<String>,
        /// Toolspace for shorthand resolution (default: FORNAX_TOOLSPACE).
        toolspace: Option<String>,
        /// Run an untrusted workspace capability this once, without trusting it; its evidence
        /// is recorded as untrusted and no verdict rests on it.
        trust_once: bool,
    },
    /// Scaffold a draft capability, adapter or toolspace (never overwrites).
    Init { what: InitCommand },
    /// Move a capability towards active, rewriting its manifest.
    Promote {
        target: Vec<String>,
        /// reviewed or active.
        to: String,
    },
    /// Move a capability towards draft, rewriting its manifest.
    Demote {
        target: Vec<String>,
        /// reviewed or draft.
        to: String,
    },
    /// Report manifests, adapters, shadowing, orphans and policy problems.
    Doctor,
    /// Trust a workspace's capabilities, adapters and toolspaces as they are now: records each
    /// file's content hash in FORNAX_HOME; a file that changes is untrusted again.
    Trust {
        /// A workspace, its `.fornax/` folder, a folder inside it, or one file (default: the
        /// workspace).
        path: Option<PathBuf>,
        /// List the trusted files instead.
        list: bool,
    },
    /// Forget the trust given to a workspace (or one of its files).
    Untrust {
        /// A workspace or a file (default: the workspace).
        path: Option<PathBuf>,
    },
}

/// What `cap init` scaffolds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InitCommand {
    /// A draft capability manifest (global.* under FORNAX_HOME, workspace.* in the workspace).
    Capability { id: String },
    /// A draft adapter folder.
    Adapter {
        /// A type adapter is named after its type (cli, internal); a provider has its own name.
        name: String,
        /// `type` or `provider`.
        kind: String,
        /// The type a provider adapter composes.
        composes: String,
        /// Make it private to this toolspace.
        toolspace: Option<String>,
    },
    /// A draft toolspace (in the workspace, or FORNAX_HOME without one).
    Toolspace { name: String },
}

/// What the commands need from the binary.
#[derive(Clone)]
pub struct CapEnv {
    pub fornax_home: PathBuf,
    /// `--workspace`.
    pub workspace: Option<PathBuf>,
    /// `FORNAX_WORKSPACE` (weaker than `--workspace`).
    pub workspace_env: Option<PathBuf>,
    /// `FORNAX_TOOLSPACE`: the default toolspace for shorthand resolution.
    pub toolspace: Option<String>,
    pub cwd: PathBuf,
    /// `--json`: the binary prints JSON. Commands return the JSON and the typed report either way.
    pub json: bool,
    pub history: Option<Arc<dyn History>>,
    /// Where MCP-started runs deliver evidence (CLI runs return it in [`CommandOutput`]).
    pub evidence_sink: Option<Arc<dyn EvidenceSink>>,
    /// Extra internal handlers; `None` means the built-in set.
    pub handlers: Option<Handlers>,
    /// How `cli` capability processes are confined (the binary supplies its helper).
    pub confiner: Option<crate::exec::Confiner>,
}

impl std::fmt::Debug for CapEnv {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CapEnv")
            .field("fornax_home", &self.fornax_home)
            .field("workspace", &self.workspace)
            .field("workspace_env", &self.workspace_env)
            .field("toolspace", &self.toolspace)
            .field("cwd", &self.cwd)
            .field("json", &self.json)
            .field("history", &self.history.is_some())
            .field("evidence_sink", &self.evidence_sink.is_some())
            .finish()
    }
}

impl CapEnv {
    /// A bare environment (no history, no overrides).
    pub fn new(fornax_home: impl Into<PathBuf>, cwd: impl Into<PathBuf>) -> CapEnv {
        CapEnv {
            fornax_home: fornax_home.into(),
            workspace: None,
            workspace_env: None,
            toolspace: None,
            cwd: cwd.into(),
            json: false,
            history: None,
            evidence_sink: None,
            handlers: None,
            confiner: None,
        }
    }

    /// The environment of this process: the working directory, `FORNAX_WORKSPACE` and
    /// `FORNAX_TOOLSPACE`.
    pub fn from_process(
        fornax_home: PathBuf,
        workspace_flag: Option<PathBuf>,
        json: bool,
        history: Option<Arc<dyn History>>,
    ) -> CapEnv {
        let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
        let non_empty = |v: std::ffi::OsString| (!v.is_empty()).then_some(v);
        CapEnv {
            workspace: workspace_flag,
            workspace_env: std::env::var_os(WORKSPACE_ENV)
                .and_then(non_empty)
                .map(PathBuf::from),
            toolspace: std::env::var(TOOLSPACE_ENV).ok().filter(|s| !s.is_empty()),
            json,
            history,
            ..CapEnv::new(fornax_home, cwd)
        }
    }

    pub fn layout(&self) -> Layout {
        Layout::discover(
            &self.fornax_home,
            self.workspace.as_deref(),
            self.workspace_env.as_deref(),
            &self.cwd,
        )
    }

    pub fn runtime(&self) -> Runtime {
        let mut rt = Runtime::with_handlers(
            self.layout(),
            self.history.clone(),
            self.handlers.clone().unwrap_or_else(Handlers::builtin),
        );
        rt.services.confiner = self.confiner.clone();
        rt
    }
}

/// What a command produced. The binary prints `json` (with `--json`) or renders `report`,
/// stores `evidence`, and exits with `exit_code`.
#[derive(Debug, Clone, PartialEq)]
pub struct CommandOutput {
    pub json: Value,
    pub report: CapReport,
    pub exit_code: i32,
    /// Evidence of processes a `cap run` spawned, for the binary to store.
    pub evidence: Vec<Evidence>,
    /// The run as a dated result of its own, when it is tied to a session.
    pub recheck: Option<Recheck>,
    /// Set when `cap run` refused an untrusted workspace capability (the binary may offer
    /// `--trust-once`).
    pub refused_untrusted: bool,
}

impl CommandOutput {
    fn new(json: Value, report: CapReport) -> Self {
        CommandOutput {
            json,
            report,
            exit_code: 0,
            evidence: Vec::new(),
            recheck: None,
            refused_untrusted: false,
        }
    }
}

/// Runs one `cap` command.
pub fn execute(cmd: CapCommand, env: &CapEnv) -> Result<CommandOutput, CapError> {
    match cmd {
        CapCommand::List {
            all,
            scope,
            toolspace,
        } => list(env, all, scope.as_deref(), toolspace.as_deref()),
        CapCommand::Inspect { target, toolspace } => {
            inspect(env, &target, toolspace.or(env.toolspace.clone()).as_deref())
        }
        CapCommand::Run {
            target,
            args,
            args_json,
            any_lifecycle,
            session,
            toolspace,
            trust_once,
        } => {
            let toolspace = toolspace.or(env.toolspace.clone());
            run(
                env,
                &target,
                &args,
                args_json.as_deref(),
                RunFlags {
                    any_lifecycle,
                    trust: if trust_once {
                        TrustMode::Once
                    } else {
                        TrustMode::RequireTrusted
                    },
                },
                session.as_deref(),
                toolspace.as_deref(),
            )
        }
        CapCommand::Init { what } => init(env, what),
        CapCommand::Promote { target, to } => change(env, &target, &to, Direction::Promote),
        CapCommand::Demote { target, to } => change(env, &target, &to, Direction::Demote),
        CapCommand::Trust { path, list: true } => {
            let _ = path;
            trust_list(env)
        }
        CapCommand::Trust { path, list: false } => trust(env, path.as_deref()),
        CapCommand::Untrust { path } => untrust(env, path.as_deref()),
        CapCommand::Doctor => {
            let report = DoctorReport::from_runtime(&env.runtime());
            let json = report.to_json();
            let errors = report.has_errors();
            let mut out = CommandOutput::new(json, CapReport::Doctor(Box::new(report)));
            out.exit_code = i32::from(errors);
            Ok(out)
        }
    }
}

fn list(
    env: &CapEnv,
    all: bool,
    scope: Option<&str>,
    toolspace: Option<&str>,
) -> Result<CommandOutput, CapError> {
    let scope = match scope {
        Some(s) => Some(Scope::parse(s).ok_or_else(|| {
            CapError::Usage(format!(
                "--scope must be global, toolspace or workspace, got {s:?}"
            ))
        })?),
        None => None,
    };
    let rt = env.runtime();
    let matches = |c: &&crate::registry::Capability| {
        scope.is_none_or(|s| c.id.scope == s) && toolspace.is_none_or(|t| c.toolspace() == Some(t))
    };
    let shown: Vec<_> = rt.registry.list(all).filter(matches).collect();
    let hidden = rt.registry.all().filter(matches).count() - shown.len();
    let items: Vec<Value> = shown
        .iter()
        .map(|c| {
            json!({
                "id": c.manifest.id,
                "summary": c.manifest.summary,
                "lifecycleState": c.manifest.lifecycle_state,
                "scope": c.manifest.scope,
                "adapterType": c.manifest.adapter_type,
                "providerAdapter": c.manifest.provider_adapter,
                "origin": c.origin.to_json(),
            })
        })
        .collect();
    let rejected = rt.registry.rejected.len();
    let report = ListReport {
        shown: shown
            .iter()
            .map(|c| ListedCapability {
                id: c.manifest.id.clone(),
                lifecycle: c.manifest.lifecycle_state,
                summary: c.manifest.summary.clone(),
            })
            .collect(),
        hidden,
        rejected,
    };
    Ok(CommandOutput::new(
        json!({"capabilities": items, "hidden": hidden, "rejected": rejected}),
        CapReport::List(report),
    ))
}

fn inspect(
    env: &CapEnv,
    target: &[String],
    toolspace: Option<&str>,
) -> Result<CommandOutput, CapError> {
    let rt = env.runtime();
    let cap = rt.resolve(target, toolspace)?;
    let m = &cap.manifest;
    let (type_json, provider_json, adapter_error) = match rt.adapters_for(cap) {
        Ok((t, p)) => (t.to_json(), p.map(|p| p.to_json()), None),
        Err(e) => (Value::Null, None, Some(e)),
    };
    let type_entry = rt.adapters_for(cap).ok().map(|(t, _)| t);
    let report = policy::evaluate(&PolicyContext {
        manifest: m,
        workspace: rt.layout.workspace.as_deref(),
        limits: rt.base_limits(m, type_entry),
    });
    let json = json!({
        "capability": m.to_value(),
        "origin": cap.origin.to_json(),
        "typeAdapter": type_json,
        "providerAdapter": provider_json,
        "adapterError": adapter_error,
        "policies": policy::report_json(&report),
    });
    let adapters = match &adapter_error {
        Some(e) => Err(e.to_string()),
        None => Ok(InspectedAdapters {
            type_adapter: m.adapter_type.clone(),
            type_adapter_path: type_json["provenance"]["path"].as_str().map(str::to_string),
            provider_adapter: provider_json.as_ref().map(|p| {
                (
                    p["name"].as_str().unwrap_or_default().to_string(),
                    p["provenance"]["path"].as_str().map(str::to_string),
                )
            }),
        }),
    };
    let required: Vec<&str> = m
        .args_schema
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    let args = m
        .args_schema
        .get("properties")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(name, schema)| ArgumentSpec {
            name: name.clone(),
            kind: schema
                .get("type")
                .and_then(Value::as_str)
                .map(str::to_string),
            required: required.contains(&name.as_str()),
            description: schema
                .get("description")
                .and_then(Value::as_str)
                .map(str::to_string),
        })
        .collect();
    let inspected = InspectReport {
        id: m.id.clone(),
        lifecycle: m.lifecycle_state,
        summary: m.summary.clone(),
        origin: cap.origin.clone(),
        provider: m.provider.clone(),
        owner: m.owner.clone(),
        adapters,
        side_effects: m.side_effects.clone(),
        policies: policy::parse_specs(&m.policies)
            .iter()
            .map(|p| p.name.clone())
            .collect(),
        policy_errors: report.errors.iter().map(ToString::to_string).collect(),
        policy_warnings: report.warnings.iter().map(ToString::to_string).collect(),
        args,
    };
    Ok(CommandOutput::new(
        json,
        CapReport::Inspect(Box::new(inspected)),
    ))
}

/// Parses `--args-json` and `--arg KEY=VALUE` into one argument map (values stay strings;
/// the schema coerces them).
pub fn parse_cli_args(
    args: &[String],
    args_json: Option<&str>,
) -> Result<Map<String, Value>, CapError> {
    let mut map = match args_json {
        Some(text) => match serde_json::from_str::<Value>(text) {
            Ok(Value::Object(m)) => m,
            Ok(_) => {
                return Err(CapError::Usage(
                    "--args-json must be a JSON object".to_string(),
                ))
            }
            Err(e) => {
                return Err(CapError::Usage(format!(
                    "--args-json is not valid JSON: {e}"
                )))
            }
        },
        None => Map::new(),
    };
    for arg in args {
        let (k, v) = arg
            .split_once('=')
            .ok_or_else(|| CapError::Usage(format!("--arg {arg:?} must be KEY=VALUE")))?;
        if k.is_empty() {
            return Err(CapError::Usage(format!("--arg {arg:?} has an empty key")));
        }
        map.insert(k.to_string(), Value::String(v.to_string()));
    }
    Ok(map)
}

fn resolve_session(env: &CapEnv, given: &str) -> Result<SessionRef, CapError> {
    if let Some(history) = &env.history {
        match history.resolve_session(given) {
            Ok(Some(s)) => return Ok(s),
            Ok(None) => {}
            Err(e) => return Err(CapError::Usage(format!("--session {given}: {e}"))),
        }
    }
    if let Some((provider, native)) = given.split_once(':') {
        let provider = Provider::parse(provider);
        if !matches!(provider, Provider::Other(_)) && !native.is_empty() {
            return Ok(SessionRef::new(provider, native));
        }
    }
    Err(CapError::Usage(format!(
        "--session {given}: no such session (use provider:native_id, e.g. codex:0199...)"
    )))
}

#[derive(Debug, Clone, Copy)]
struct RunFlags {
    any_lifecycle: bool,
    trust: TrustMode,
}

fn run(
    env: &CapEnv,
    target: &[String],
    args: &[String],
    args_json: Option<&str>,
    flags: RunFlags,
    session: Option<&str>,
    toolspace: Option<&str>,
) -> Result<CommandOutput, CapError> {
    let args = parse_cli_args(args, args_json)?;
    let session = session.map(|s| resolve_session(env, s)).transpose()?;
    let rt = env.runtime();
    let cap = rt.resolve(target, toolspace)?;
    let outcome = rt.run(
        cap,
        &RunOptions {
            args,
            any_lifecycle: flags.any_lifecycle,
            session,
            trust: flags.trust,
        },
    );
    let envelope = &outcome.envelope;
    let report = RunReport {
        ok: envelope.ok,
        data: envelope.data.clone(),
        error: envelope.error.clone(),
        warnings: envelope
            .meta
            .get("warnings")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|w| w.as_str().unwrap_or_default().to_string())
            .collect(),
    };
    let recheck = crate::evidence::recheck_of(&cap.manifest.id, &outcome, RecheckTrigger::Cli);
    Ok(CommandOutput {
        json: envelope.to_json(),
        report: CapReport::Run(report),
        exit_code: if outcome.ok() { 0 } else { 1 },
        evidence: outcome.evidence,
        recheck,
        refused_untrusted: outcome.refused_untrusted,
    })
}

fn init(env: &CapEnv, what: InitCommand) -> Result<CommandOutput, CapError> {
    let layout = env.layout();
    let paths = match what {
        InitCommand::Capability { id } => vec![scaffold::capability(&layout, &id)?],
        InitCommand::Adapter {
            name,
            kind,
            composes,
            toolspace,
        } => scaffold::adapter(&layout, &name, &kind, &composes, toolspace.as_deref())?,
        InitCommand::Toolspace { name } => vec![scaffold::toolspace(&layout, &name)?],
    };
    Ok(CommandOutput::new(
        json!({"created": paths}),
        CapReport::Init(InitReport { created: paths }),
    ))
}

fn change(
    env: &CapEnv,
    target: &[String],
    to: &str,
    direction: Direction,
) -> Result<CommandOutput, CapError> {
    let to = LifecycleState::parse(to).ok_or_else(|| {
        CapError::Usage(format!(
            "--to must be draft, reviewed or active, got {to:?}"
        ))
    })?;
    let rt = env.runtime();
    let cap = rt.resolve(target, env.toolspace.as_deref())?;
    let (change, written) = lifecycle::change(&rt.registry, cap, to, direction)?;
    // A file the user trusted stays trusted: the only change is the one Fornax just wrote.
    let changed_path = change["path"].as_str().map(PathBuf::from);
    let mut trust = TrustStore::load(&rt.layout.home);
    let retrust: Vec<TrustInput> = cap
        .inputs
        .iter()
        .filter(|i| {
            Some(&i.path) == changed_path.as_ref()
                || changed_path
                    .as_ref()
                    .is_some_and(|p| p.canonicalize().ok().as_ref() == Some(&i.path))
        })
        .filter(|i| trust.is_trusted(&i.path, &i.hash))
        .map(|i| TrustInput::new(&i.path, i.root, &written))
        .collect();
    if !retrust.is_empty() {
        trust.trust(
            &retrust,
            &crate::time::rfc3339(std::time::SystemTime::now()),
        );
        trust.save()?;
    }
    let field = |k: &str| change[k].as_str().unwrap_or_default().to_string();
    let report = LifecycleReport {
        direction,
        id: field("id"),
        from: field("from"),
        to: field("to"),
        path: field("path"),
    };
    Ok(CommandOutput::new(change, CapReport::Lifecycle(report)))
}

fn trust_target(env: &CapEnv, path: Option<&std::path::Path>) -> Result<PathBuf, CapError> {
    match path {
        Some(p) => Ok(p.to_path_buf()),
        None => env.layout().workspace.ok_or_else(|| {
            CapError::Usage(
                "no workspace here (no .fornax/ folder above the working directory); name one: \
                 `fornax cap trust PATH`"
                    .to_string(),
            )
        }),
    }
}

/// What a trusted file defines, for the user to review (`id: command args` for manifests).
fn describe_trusted(path: &std::path::Path) -> Option<String> {
    let value: Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    let id = value.get("id").and_then(Value::as_str)?;
    let target = value.get("executionTarget")?;
    let what = match target.get("command").and_then(Value::as_str) {
        Some(cmd) => {
            let args: Vec<&str> = target
                .get("args")
                .and_then(Value::as_array)
                .map(|a| a.iter().filter_map(Value::as_str).collect())
                .unwrap_or_default();
            format!(
                "runs {}",
                std::iter::once(cmd)
                    .chain(args)
                    .collect::<Vec<_>>()
                    .join(" ")
            )
        }
        None => format!(
            "handler {}",
            target.get("handler").and_then(Value::as_str).unwrap_or("?")
        ),
    };
    Some(format!("{id}: {what}"))
}

fn trust(env: &CapEnv, path: Option<&std::path::Path>) -> Result<CommandOutput, CapError> {
    let target = trust_target(env, path)?;
    let layout = env.layout();
    let files = crate::trust::files_to_trust(&target, &layout)?;
    let mut store = TrustStore::load(&layout.home);
    store.trust(&files, &crate::time::rfc3339(std::time::SystemTime::now()));
    store.save()?;
    let trusted: Vec<TrustedFile> = files
        .iter()
        .map(|f| TrustedFile {
            path: f.path.clone(),
            hash: f.hash.clone(),
            defines: describe_trusted(&f.path),
        })
        .collect();
    let items: Vec<Value> = trusted
        .iter()
        .map(|f| json!({"path": f.path, "hash": f.hash, "defines": f.defines}))
        .collect();
    let report = TrustReport {
        target,
        store: store.path().to_path_buf(),
        files: trusted,
    };
    Ok(CommandOutput::new(
        json!({"trusted": items, "store": store.path()}),
        CapReport::Trust(report),
    ))
}

fn untrust(env: &CapEnv, path: Option<&std::path::Path>) -> Result<CommandOutput, CapError> {
    let target = trust_target(env, path)?;
    let target = if target.is_absolute() {
        target
    } else {
        env.cwd.join(target)
    };
    let target = target.canonicalize().unwrap_or(target);
    let mut store = TrustStore::load(&env.fornax_home);
    let removed = store.untrust(&target);
    store.save()?;
    let removed: Vec<PathBuf> = removed.into_iter().map(|r| r.path).collect();
    Ok(CommandOutput::new(
        json!({ "untrusted": removed }),
        CapReport::Untrust(UntrustReport { target, removed }),
    ))
}

fn trust_list(env: &CapEnv) -> Result<CommandOutput, CapError> {
    let store = TrustStore::load(&env.fornax_home);
    let mut records = Vec::new();
    for r in store.records() {
        let now = std::fs::read(&r.path)
            .ok()
            .map(|b| crate::trust::content_hash(&b));
        let state = match &now {
            Some(h) if *h == r.hash => TrustState::Trusted,
            Some(_) => TrustState::Changed,
            None => TrustState::Missing,
        };
        records.push(TrustRecordState {
            path: r.path.clone(),
            hash: r.hash.clone(),
            trusted_at: r.trusted_at.clone(),
            state,
        });
    }
    let items: Vec<Value> = records
        .iter()
        .map(|r| {
            json!({"path": r.path, "hash": r.hash, "trustedAt": r.trusted_at, "state": r.state.as_str()})
        })
        .collect();
    Ok(CommandOutput::new(
        json!({"trusted": items, "problem": store.problem}),
        CapReport::TrustList(TrustListReport {
            records,
            problem: store.problem.clone(),
        }),
    ))
}
