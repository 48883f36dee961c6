//! The executor, following the contract's flow:
//!
//! 1. look up the type adapter by `adapterType` (toolspace-private first, then global);
//! 2. look up the provider adapter by `providerAdapter`, if set (same order);
//! 3. check that the provider `composes` the capability's `adapterType`;
//! 4. prepare arguments (defaults, coercion, validation) and evaluate policies: errors
//!    short-circuit with `meta.policyErrors`, warnings ride along in `meta.policyWarnings`;
//! 5. call the provider with a context exposing the type adapter, or the type adapter itself;
//! 6. attach `capabilityId`, `adapterType`, `providerAdapter`, durations and warnings to `meta`.
//!
//! Before all of that, a capability that is not `active` is refused unless the caller asked
//! for any lifecycle.

pub mod cli;
pub mod provider;
pub mod script;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Instant, SystemTime};

use fornax_types::{Evidence, SessionRef};
use serde_json::{json, Map, Value};

use crate::adapters::{AdapterEntry, AdapterImpl, AdapterKind, AdapterSet, TypeSettings};
use crate::builtins::{HandlerInput, Handlers};
use crate::envelope::Envelope;
use crate::error::CapError;
use crate::evidence;
use crate::history::History;
use crate::layout::Layout;
use crate::manifest::{CapabilityManifest, LifecycleState};
use crate::policy::{self, Limits, PolicyContext};
use crate::registry::{Capability, Registry};
use crate::testrunners::TestRunSummary;
use crate::trust::{RunTrust, TrustMode, TrustStore};

pub use cli::{Confiner, ProcessRecord};
pub use provider::{AdapterContext, ProviderAdapter};

/// Everything an adapter needs to execute one capability run.
#[derive(Debug, Clone)]
pub struct ResolvedRun {
    pub capability_id: String,
    /// The effective manifest.
    pub manifest: CapabilityManifest,
    /// Prepared arguments (defaulted, coerced, validated).
    pub args: Map<String, Value>,
    pub workspace: Option<PathBuf>,
    /// The caller's working directory.
    pub cwd: PathBuf,
    pub limits: Limits,
    /// Arguments a provider adapter appends after the translated ones.
    pub extra_argv: Vec<String>,
    /// When set, replaces the translated arguments entirely (a provider's own convention).
    pub argv_override: Option<Vec<String>>,
    /// A private directory for this run (writable by its confined processes, their `TMPDIR`,
    /// where a provider asks a runner for its report); removed when the run ends.
    pub scratch: Option<PathBuf>,
}

/// Services the type adapters call.
#[derive(Clone, Default)]
pub struct Services {
    pub handlers: Handlers,
    pub history: Option<Arc<dyn History>>,
    /// How `cli` processes are confined (`None`: they run unconfined, with a warning).
    pub confiner: Option<Confiner>,
}

impl std::fmt::Debug for Services {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Services")
            .field("handlers", &self.handlers)
            .field("history", &self.history.is_some())
            .finish()
    }
}

/// Runs a type adapter directly. Returns the envelope and the process it ran, if any.
pub fn run_type(
    entry: &AdapterEntry,
    run: &ResolvedRun,
    services: &Services,
) -> (Envelope, Option<ProcessRecord>) {
    let settings = match &entry.imp {
        AdapterImpl::Type(settings) => settings.clone(),
        _ => TypeSettings::default(),
    };
    match entry.type_name.as_str() {
        "internal" => (run_internal(run, services), None),
        "cli" => {
            let (env, record) = cli::execute(run, &settings, services.confiner.as_ref());
            (env, Some(record))
        }
        other => (
            Envelope::failure(format!("no type adapter engine for {other:?}")),
            None,
        ),
    }
}

fn run_internal(run: &ResolvedRun, services: &Services) -> Envelope {
    let name = run.manifest.target_str("handler").unwrap_or_default();
    let Some(handler) = services.handlers.get(name) else {
        return Envelope::failure(format!(
            "internal handler {name:?} is not registered in this build"
        ));
    };
    let input = HandlerInput {
        capability_id: &run.capability_id,
        args: &run.args,
        history: services.history.as_deref(),
        workspace: run.workspace.as_deref(),
    };
    let mut env = match handler(input) {
        Ok(data) => Envelope::success(data),
        Err(message) => Envelope::failure(message),
    };
    env.meta.insert("handler".to_string(), json!(name));
    env
}

/// How to run.
#[derive(Debug, Clone, Default)]
pub struct RunOptions {
    /// Arguments as given (strings from the command line are coerced).
    pub args: Map<String, Value>,
    /// Run even when the capability is not `active`.
    pub any_lifecycle: bool,
    /// Tie the evidence to this session.
    pub session: Option<SessionRef>,
    /// Whether an untrusted workspace capability may run (see [`crate::trust`]).
    pub trust: TrustMode,
}

/// The result of a run.
#[derive(Debug, Clone)]
pub struct RunOutcome {
    pub envelope: Envelope,
    /// Host-observed evidence of the processes that ran (empty when none did).
    pub evidence: Vec<Evidence>,
    /// The session the evidence is tied to, if one was given or matched.
    pub session: Option<SessionRef>,
    pub test_summary: Option<TestRunSummary>,
    /// The capability's provenance and whether the user trusted it.
    pub trust: RunTrust,
    /// Set when nothing ran because the capability is not trusted.
    pub refused_untrusted: bool,
    /// Every process that ran, in order (empty when nothing started).
    pub processes: Vec<ProcessRecord>,
}

impl RunOutcome {
    pub fn ok(&self) -> bool {
        self.envelope.ok
    }

    /// Did the capability run and produce a result (as opposed to being refused, failing
    /// its checks, or a program that could not start)?
    pub fn ran(&self) -> bool {
        !self.processes.is_empty() && self.processes.iter().all(|p| p.spawn_error.is_none())
    }
}

/// A loaded view of capabilities and adapters plus the services to run them.
#[derive(Debug, Clone)]
pub struct Runtime {
    pub layout: Layout,
    pub registry: Registry,
    pub adapters: AdapterSet,
    pub services: Services,
    /// The user's trust records (`$FORNAX_HOME/trust.json`).
    pub trust: TrustStore,
}

impl Runtime {
    pub fn load(layout: Layout, history: Option<Arc<dyn History>>) -> Runtime {
        Runtime::with_handlers(layout, history, Handlers::builtin())
    }

    /// Like [`Runtime::load`] with a custom internal handler registry.
    pub fn with_handlers(
        layout: Layout,
        history: Option<Arc<dyn History>>,
        handlers: Handlers,
    ) -> Runtime {
        let registry = Registry::load(&layout);
        let adapters = AdapterSet::load(&layout, &registry);
        let trust = TrustStore::load(&layout.home);
        Runtime {
            layout,
            registry,
            adapters,
            services: Services {
                handlers,
                history,
                confiner: None,
            },
            trust,
        }
    }

    /// The capability's provenance: every workspace file (its manifest, the toolspace that
    /// mounts it, the adapters it runs through) and whether the user trusted each.
    pub fn trust_of(&self, cap: &Capability) -> RunTrust {
        let mut inputs = cap.inputs.clone();
        if let Ok((type_adapter, provider)) = self.adapters_for(cap) {
            for a in [Some(type_adapter), provider].into_iter().flatten() {
                inputs.extend(a.inputs.iter().cloned());
            }
        }
        RunTrust::new(inputs, &self.trust)
    }

    pub fn resolve(
        &self,
        query: &[String],
        toolspace: Option<&str>,
    ) -> Result<&Capability, CapError> {
        self.registry.resolve(query, toolspace)
    }

    /// The type adapter and the provider adapter (if any) a capability runs with.
    pub fn adapters_for(
        &self,
        cap: &Capability,
    ) -> Result<(&AdapterEntry, Option<&AdapterEntry>), String> {
        let m = &cap.manifest;
        let ts = cap.toolspace();
        let type_adapter = self
            .adapters
            .lookup(&m.adapter_type, AdapterKind::Type, ts)?;
        let provider = match &m.provider_adapter {
            Some(name) => {
                let p = self.adapters.lookup(name, AdapterKind::Provider, ts)?;
                if p.type_name != m.adapter_type {
                    return Err(format!(
                        "provider adapter {name:?} composes {:?}, but {} has adapterType {:?}",
                        p.type_name, m.id, m.adapter_type
                    ));
                }
                Some(p)
            }
            None => None,
        };
        Ok((type_adapter, provider))
    }

    /// Limits before policies: defaults, then the type adapter's settings, then the manifest's.
    pub fn base_limits(
        &self,
        manifest: &CapabilityManifest,
        type_adapter: Option<&AdapterEntry>,
    ) -> Limits {
        let mut limits = Limits::default();
        if let Some(AdapterImpl::Type(s)) = type_adapter.map(|t| &t.imp) {
            limits.timeout_ms = s.timeout_ms.unwrap_or(limits.timeout_ms);
            limits.max_output_bytes = s.max_output_bytes.unwrap_or(limits.max_output_bytes);
        }
        limits.timeout_ms = manifest
            .target_u64("timeoutMs")
            .unwrap_or(limits.timeout_ms);
        limits.max_output_bytes = manifest
            .target_u64("maxOutputBytes")
            .unwrap_or(limits.max_output_bytes);
        limits
    }

    /// Runs a capability through the contract's flow. Never panics; every failure is an
    /// `{ok: false}` envelope.
    pub fn run(&self, cap: &Capability, opts: &RunOptions) -> RunOutcome {
        let started = Instant::now();
        let started_at = SystemTime::now();
        let m = &cap.manifest;
        let mut warnings: Vec<String> = Vec::new();
        let mut policy_warnings: Vec<String> = Vec::new();
        let mut processes: Vec<ProcessRecord> = Vec::new();
        let mut test_summary = None;
        let mut adapter_provenance = Map::new();
        let mut exec_ms = None;
        let trust = self.trust_of(cap);
        let mut refused_untrusted = false;
        let scratch = Scratch::create();

        let envelope = 'run: {
            if m.lifecycle_state != LifecycleState::Active && !opts.any_lifecycle {
                break 'run Envelope::failure(format!(
                    "{} is {}; only active capabilities run (promote it with `fornax cap promote {} --to active`, \
                     or pass --any-lifecycle to try it)",
                    m.id, m.lifecycle_state, m.id
                ));
            }
            let (type_adapter, provider) = match self.adapters_for(cap) {
                Ok(found) => found,
                Err(e) => break 'run Envelope::failure(e),
            };
            if !trust.is_trusted() && opts.trust == TrustMode::RequireTrusted {
                refused_untrusted = true;
                break 'run Envelope::failure(trust.refusal(&m.id));
            }
            adapter_provenance.insert("type".to_string(), type_adapter.provenance.to_json());
            if let Some(p) = provider {
                adapter_provenance.insert("provider".to_string(), p.provenance.to_json());
            }
            for a in [Some(type_adapter), provider].into_iter().flatten() {
                if a.lifecycle != LifecycleState::Active {
                    warnings.push(format!(
                        "adapter {:?} is {}, not active",
                        a.name, a.lifecycle
                    ));
                }
            }
            let args = match crate::schema::prepare_args(&m.args_schema, &m.defaults, &opts.args) {
                Ok(args) => args,
                Err(problems) => {
                    break 'run Envelope::failure(format!(
                        "invalid arguments: {}",
                        problems.join("; ")
                    ))
                    .with_meta("argErrors", json!(problems))
                }
            };
            let report = policy::evaluate(&PolicyContext {
                manifest: m,
                workspace: self.layout.workspace.as_deref(),
                limits: self.base_limits(m, Some(type_adapter)),
            });
            policy_warnings = report.warnings.clone();
            if !report.errors.is_empty() {
                break 'run Envelope::failure(format!(
                    "policy check failed: {}",
                    report.errors.join("; ")
                ))
                .with_meta("policyErrors", json!(report.errors));
            }
            let run = ResolvedRun {
                capability_id: m.id.clone(),
                manifest: m.clone(),
                args,
                workspace: self.layout.workspace.clone(),
                cwd: self.layout.cwd.clone(),
                limits: report.limits.unwrap_or_default(),
                extra_argv: Vec::new(),
                argv_override: None,
                scratch: scratch.as_ref().map(|s| s.0.clone()),
            };
            let exec_start = Instant::now();
            let env = match provider {
                Some(p) => {
                    let mut ctx = AdapterContext::new(type_adapter, &self.services);
                    let env = provider::execute_provider(p, &run, &mut ctx);
                    processes = std::mem::take(&mut ctx.processes);
                    test_summary = ctx.test_summary.take();
                    env
                }
                None => {
                    let (env, record) = run_type(type_adapter, &run, &self.services);
                    processes.extend(record);
                    env
                }
            };
            exec_ms = Some(elapsed_ms(exec_start));
            env
        };

        let mut envelope = envelope;
        let meta = &mut envelope.meta;
        meta.insert("capabilityId".to_string(), json!(m.id));
        meta.insert("adapterType".to_string(), json!(m.adapter_type));
        meta.insert("providerAdapter".to_string(), json!(m.provider_adapter));
        meta.insert("lifecycleState".to_string(), json!(m.lifecycle_state));
        meta.insert("trust".to_string(), trust.to_json());
        if !adapter_provenance.is_empty() {
            meta.insert(
                "adapterProvenance".to_string(),
                Value::Object(adapter_provenance),
            );
        }
        meta.insert(
            "durations".to_string(),
            json!({"totalMs": elapsed_ms(started), "executionMs": exec_ms}),
        );
        meta.insert("policyWarnings".to_string(), json!(policy_warnings));
        let mut all_warnings: Vec<Value> = meta
            .get("warnings")
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default();
        all_warnings.extend(
            warnings
                .into_iter()
                .chain(policy_warnings)
                .map(Value::String),
        );
        meta.insert("warnings".to_string(), Value::Array(all_warnings));

        let session = opts.session.clone().or_else(|| {
            if processes.is_empty() {
                return None;
            }
            let history = self.services.history.as_ref()?;
            let place = self
                .layout
                .workspace
                .clone()
                .unwrap_or_else(|| self.layout.cwd.clone());
            history
                .session_at(&place, &crate::time::rfc3339(started_at))
                .ok()
                .flatten()
        });
        let evidence = evidence::for_run(
            &m.id,
            session.as_ref(),
            &processes,
            test_summary.as_ref(),
            &trust,
        );
        if let Some(s) = &session {
            envelope.meta.insert(
                "session".to_string(),
                json!({"provider": s.provider.as_str(), "nativeId": s.native_id}),
            );
        }
        if !evidence.is_empty() {
            envelope.meta.insert(
                "evidence".to_string(),
                json!(evidence.iter().map(|e| &e.id).collect::<Vec<_>>()),
            );
        }
        RunOutcome {
            envelope,
            evidence,
            session,
            test_summary,
            trust,
            refused_untrusted,
            processes,
        }
    }
}

fn elapsed_ms(start: Instant) -> u64 {
    u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX)
}

/// A run's private directory, removed when dropped.
#[derive(Debug)]
struct Scratch(PathBuf);

impl Scratch {
    fn create() -> Option<Scratch> {
        let nanos = SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let dir =
            std::env::temp_dir().join(format!("fornax-scratch-{}-{nanos}", std::process::id()));
        std::fs::create_dir(&dir).ok()?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
        }
        Some(Scratch(dir))
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
