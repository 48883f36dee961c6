//! User-written provider adapters in Rhai, sandboxed.
//!
//! The script defines `fn execute(resolved, ctx)` and returns an envelope map
//! (`#{ok: true, data: ..}` or `#{ok: false, error: #{message: ..}}`, optional `meta`).
//! `resolved` holds `capabilityId`, `args`, `defaults`, `executionTarget`, `workspace`,
//! `adapterType`, `providerAdapter`. `ctx` offers:
//!
//! * `ctx.delegate()` – run the type adapter with the prepared arguments;
//! * `ctx.delegate(args_map)` – with other arguments (translated by the type adapter's rule);
//! * `ctx.delegate_argv(array)` – with exactly these arguments after the fixed ones;
//! * `ctx.type_adapter` – the type adapter's name.
//!
//! A delegation returns the type adapter's envelope plus `stdout`, `stderr`, `exitCode`,
//! `timedOut`. Helpers: `parse_json(text)`, `to_json(value)`. `print`/`debug` go to
//! `meta.scriptLog`. A `meta.testSummary` that has the test-run summary shape becomes
//! test-summary evidence.
//!
//! The sandbox: no module imports, no `eval`, no file, network or process access (Rhai has
//! none built in, and none is registered); the only way out is the delegation, which runs the
//! capability's own type adapter at most 8 times. Operations, call depth, string, array and
//! map sizes are bounded, and so is the script's own time (time spent in delegations does
//! not count against it).

use std::cell::RefCell;
use std::rc::Rc;
use std::time::{Duration, Instant};

use rhai::{Array, Dynamic, Engine, EvalAltResult, Map as RhaiMap, Position, Scope, AST};
use serde_json::{json, Map, Value};

use crate::adapters::AdapterEntry;
use crate::envelope::Envelope;
use crate::exec::{run_type, AdapterContext, ProcessRecord, ResolvedRun, Services};
use crate::testrunners::TestRunSummary;

pub const MAX_OPERATIONS_CEILING: u64 = 50_000_000;
pub const TIMEOUT_CEILING_MS: u64 = 30_000;
const MAX_DELEGATIONS: usize = 8;
const MAX_LOG_LINES: usize = 100;

/// Bounds on one script run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScriptLimits {
    pub max_operations: u64,
    /// Wall-clock time of the script itself, excluding delegations.
    pub timeout_ms: u64,
}

impl Default for ScriptLimits {
    fn default() -> Self {
        ScriptLimits {
            max_operations: 1_000_000,
            timeout_ms: 2_000,
        }
    }
}

fn sandbox(limits: &ScriptLimits) -> Engine {
    let mut engine = Engine::new();
    engine.set_module_resolver(rhai::module_resolvers::DummyModuleResolver::new());
    engine.disable_symbol("eval");
    engine.set_max_operations(limits.max_operations);
    engine.set_max_call_levels(64);
    engine.set_max_expr_depths(64, 32);
    engine.set_max_string_size(16 * 1024 * 1024);
    engine.set_max_array_size(100_000);
    engine.set_max_map_size(100_000);
    engine.on_print(|_| {});
    engine.on_debug(|_, _, _| {});
    engine.register_fn(
        "parse_json",
        |text: &str| -> Result<Dynamic, Box<EvalAltResult>> {
            let value: Value = serde_json::from_str(text)
                .map_err(|e| runtime_error(format!("parse_json: {e}")))?;
            rhai::serde::to_dynamic(value)
        },
    );
    engine.register_fn(
        "to_json",
        |value: Dynamic| -> Result<String, Box<EvalAltResult>> {
            let v: Value = rhai::serde::from_dynamic(&value)?;
            Ok(v.to_string())
        },
    );
    engine
}

fn runtime_error(message: String) -> Box<EvalAltResult> {
    Box::new(EvalAltResult::ErrorRuntime(message.into(), Position::NONE))
}

/// Compiles a script and checks that it defines `execute(resolved, ctx)`.
pub fn check(source: &str) -> Result<(), String> {
    let engine = sandbox(&ScriptLimits::default());
    let ast = engine
        .compile(source)
        .map_err(|e| format!("does not compile: {e}"))?;
    has_entry(&ast)
}

fn has_entry(ast: &AST) -> Result<(), String> {
    if ast
        .iter_functions()
        .any(|f| f.name == "execute" && f.params.len() == 2)
    {
        Ok(())
    } else {
        Err("must define `fn execute(resolved, ctx)`".to_string())
    }
}

struct DelegateState {
    type_adapter: AdapterEntry,
    services: Services,
    run: ResolvedRun,
    processes: Vec<ProcessRecord>,
    delegated: Duration,
    calls: usize,
}

#[derive(Clone)]
struct ScriptCtx(Rc<RefCell<DelegateState>>);

impl ScriptCtx {
    fn delegate_with(
        &mut self,
        change: impl FnOnce(&mut ResolvedRun),
    ) -> Result<Dynamic, Box<EvalAltResult>> {
        let mut state = self
            .0
            .try_borrow_mut()
            .map_err(|_| runtime_error("delegate: context busy".to_string()))?;
        if state.calls >= MAX_DELEGATIONS {
            return Err(runtime_error(format!(
                "delegate: at most {MAX_DELEGATIONS} delegations per run"
            )));
        }
        state.calls += 1;
        let mut run = state.run.clone();
        change(&mut run);
        let start = Instant::now();
        let (env, record) = run_type(&state.type_adapter, &run, &state.services);
        state.delegated += start.elapsed();
        let mut value = env.to_json();
        if let Some(r) = &record {
            value["stdout"] = json!(r.stdout);
            value["stderr"] = json!(r.stderr);
            value["exitCode"] = json!(r.exit_code);
            value["timedOut"] = json!(r.timed_out);
        }
        state.processes.extend(record);
        rhai::serde::to_dynamic(value)
    }
}

/// Runs the script provider adapter `name` (its `source` as read and checked at load time).
pub fn execute(
    name: &str,
    source: &str,
    limits: &ScriptLimits,
    run: &ResolvedRun,
    ctx: &mut AdapterContext<'_>,
) -> Envelope {
    let fail = |msg: String| Envelope::failure(format!("provider adapter {name:?}: {msg}"));
    let mut engine = sandbox(limits);
    let log: Rc<RefCell<Vec<String>>> = Rc::default();
    let (print_sink, debug_sink) = (log.clone(), log.clone());
    engine.on_print(move |s| push_log(&print_sink, s.to_string()));
    engine.on_debug(move |s, _, pos| push_log(&debug_sink, format!("{s} @ {pos}")));
    let state = Rc::new(RefCell::new(DelegateState {
        type_adapter: ctx.type_adapter().clone(),
        services: ctx.services().clone(),
        run: run.clone(),
        processes: Vec::new(),
        delegated: Duration::ZERO,
        calls: 0,
    }));
    let started = Instant::now();
    let budget = Duration::from_millis(limits.timeout_ms);
    let progress_state = state.clone();
    engine.on_progress(move |_| {
        let delegated = progress_state
            .try_borrow()
            .map(|s| s.delegated)
            .unwrap_or(Duration::ZERO);
        (started.elapsed().saturating_sub(delegated) > budget)
            .then(|| Dynamic::from("script time limit exceeded"))
    });
    engine.register_type_with_name::<ScriptCtx>("Context");
    engine.register_fn("delegate", |ctx: &mut ScriptCtx| ctx.delegate_with(|_| {}));
    engine.register_fn("delegate", |ctx: &mut ScriptCtx, args: RhaiMap| {
        let args: Map<String, Value> = rhai::serde::from_dynamic(&Dynamic::from_map(args))?;
        ctx.delegate_with(move |run| run.args = args)
    });
    engine.register_fn("delegate_argv", |ctx: &mut ScriptCtx, argv: Array| {
        let argv: Vec<String> = argv.into_iter().map(|v| v.to_string()).collect();
        ctx.delegate_with(move |run| run.argv_override = Some(argv))
    });
    engine.register_get("type_adapter", |ctx: &mut ScriptCtx| {
        ctx.0
            .try_borrow()
            .map(|s| s.type_adapter.name.clone())
            .unwrap_or_default()
    });

    let ast = match engine.compile(source) {
        Ok(ast) => ast,
        Err(e) => return fail(format!("script does not compile: {e}")),
    };
    if let Err(e) = has_entry(&ast) {
        return fail(format!("script {e}"));
    }
    let resolved = json!({
        "capabilityId": run.capability_id,
        "args": run.args,
        "defaults": run.manifest.defaults,
        "executionTarget": run.manifest.execution_target,
        "workspace": run.workspace,
        "adapterType": run.manifest.adapter_type,
        "providerAdapter": run.manifest.provider_adapter,
    });
    let resolved = match rhai::serde::to_dynamic(resolved) {
        Ok(d) => d,
        Err(e) => return fail(format!("cannot pass the run to the script: {e}")),
    };
    let result = engine.call_fn::<Dynamic>(
        &mut Scope::new(),
        &ast,
        "execute",
        (resolved, ScriptCtx(state.clone())),
    );
    ctx.processes
        .extend(std::mem::take(&mut state.borrow_mut().processes));
    let mut env = match result {
        Ok(value) => match rhai::serde::from_dynamic::<Value>(&value) {
            Ok(v) => Envelope::from_json(&v),
            Err(e) => fail(format!("script returned something that is not JSON: {e}")),
        },
        Err(e) => fail(format!("script failed: {e}")),
    };
    if let Some(summary) = env
        .meta
        .get("testSummary")
        .and_then(|s| serde_json::from_value::<TestRunSummary>(s.clone()).ok())
    {
        ctx.test_summary = Some(summary);
    }
    let lines = std::mem::take(&mut *log.borrow_mut());
    if !lines.is_empty() {
        env.meta.insert("scriptLog".to_string(), json!(lines));
    }
    env
}

fn push_log(log: &Rc<RefCell<Vec<String>>>, line: String) {
    if let Ok(mut lines) = log.try_borrow_mut() {
        if lines.len() < MAX_LOG_LINES {
            lines.push(line);
        }
    }
}
