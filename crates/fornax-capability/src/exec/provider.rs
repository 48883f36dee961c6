//! Provider adapters: capability-specific wrappers composed over a type adapter. The executor
//! calls them with an [`AdapterContext`] that exposes the type adapter, so a provider can
//! pre-process, delegate and post-process.
//!
//! Built in: test runners that turn their output into one test-run summary (`cargo-test`,
//! `cargo-nextest`, `go-test-json`, `pytest-junit`, `jest-json`, `vitest-json`).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};

use crate::adapters::{AdapterEntry, AdapterImpl};
use crate::envelope::Envelope;
use crate::exec::{run_type, script, ProcessRecord, ResolvedRun, Services};
use crate::testrunners::{self, TestRunSummary};

/// A provider adapter compiled into the binary.
pub trait ProviderAdapter: Send + Sync {
    fn name(&self) -> &str;
    /// The type adapter it wraps (must equal the capability's `adapterType`).
    fn composes(&self) -> &str;
    fn summary(&self) -> &str;
    fn execute(&self, run: &ResolvedRun, ctx: &mut AdapterContext<'_>) -> Envelope;
}

/// What a provider adapter gets besides the run: the type adapter to delegate to, and places
/// to leave what it observed.
#[derive(Debug)]
pub struct AdapterContext<'a> {
    type_adapter: &'a AdapterEntry,
    services: &'a Services,
    /// Every process the delegations ran, in order.
    pub processes: Vec<ProcessRecord>,
    /// The test-run summary, when the provider produced one.
    pub test_summary: Option<TestRunSummary>,
}

impl<'a> AdapterContext<'a> {
    pub fn new(type_adapter: &'a AdapterEntry, services: &'a Services) -> Self {
        AdapterContext {
            type_adapter,
            services,
            processes: Vec::new(),
            test_summary: None,
        }
    }

    pub fn type_adapter(&self) -> &AdapterEntry {
        self.type_adapter
    }

    pub fn services(&self) -> &Services {
        self.services
    }

    /// Runs the type adapter on `run` and records the process it ran.
    pub fn delegate(&mut self, run: &ResolvedRun) -> Envelope {
        let (env, record) = run_type(self.type_adapter, run, self.services);
        self.processes.extend(record);
        env
    }

    pub fn last_process(&self) -> Option<&ProcessRecord> {
        self.processes.last()
    }
}

/// Dispatches to a built-in or a script provider adapter.
pub fn execute_provider(
    entry: &AdapterEntry,
    run: &ResolvedRun,
    ctx: &mut AdapterContext<'_>,
) -> Envelope {
    match &entry.imp {
        AdapterImpl::BuiltinProvider(p) => p.execute(run, ctx),
        AdapterImpl::Script { source, limits, .. } => {
            script::execute(&entry.name, source, limits, run, ctx)
        }
        AdapterImpl::Type(_) => Envelope::failure(format!(
            "{:?} is a type adapter, not a provider",
            entry.name
        )),
    }
}

/// The built-in provider adapters.
pub fn builtin_providers() -> Vec<Arc<dyn ProviderAdapter>> {
    use Format::*;
    [
        (
            "cargo-test",
            "cargo",
            Libtest,
            "cargo test (libtest human or JSON output) → test-run summary",
        ),
        (
            "cargo-nextest",
            "nextest",
            Nextest,
            "cargo nextest run (summary line or libtest JSON) → test-run summary",
        ),
        (
            "go-test-json",
            "go",
            GoJson,
            "go test -json events → test-run summary",
        ),
        (
            "pytest-junit",
            "pytest",
            PytestJunit,
            "pytest with --junitxml (added by the adapter) → test-run summary",
        ),
        (
            "jest-json",
            "jest",
            JestJson,
            "jest --json report → test-run summary",
        ),
        (
            "vitest-json",
            "vitest",
            JestJson,
            "vitest --reporter=json report → test-run summary",
        ),
    ]
    .into_iter()
    .map(|(name, runner, format, summary)| {
        Arc::new(TestRunner {
            name,
            runner,
            format,
            summary,
        }) as Arc<dyn ProviderAdapter>
    })
    .collect()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Libtest,
    Nextest,
    GoJson,
    PytestJunit,
    JestJson,
}

#[derive(Debug)]
struct TestRunner {
    name: &'static str,
    runner: &'static str,
    format: Format,
    summary: &'static str,
}

impl ProviderAdapter for TestRunner {
    fn name(&self) -> &str {
        self.name
    }

    fn composes(&self) -> &str {
        "cli"
    }

    fn summary(&self) -> &str {
        self.summary
    }

    fn execute(&self, run: &ResolvedRun, ctx: &mut AdapterContext<'_>) -> Envelope {
        // Pre-process: pytest writes its structured report to a file we name.
        let mut run = run.clone();
        let junit =
            (self.format == Format::PytestJunit).then(|| junit_path(run.scratch.as_deref()));
        if let Some(path) = &junit {
            run.extra_argv
                .push(format!("--junitxml={}", path.display()));
        }
        // Delegate.
        let delegated = ctx.delegate(&run);
        let Some(process) = ctx.last_process().cloned() else {
            return delegated;
        };
        // Post-process.
        let combined = format!("{}\n{}", process.stdout, process.stderr);
        let summary = match self.format {
            Format::Libtest => testrunners::parse_libtest(&combined),
            Format::Nextest => testrunners::parse_nextest(&combined),
            Format::GoJson => testrunners::parse_go_test_json(&process.stdout),
            Format::PytestJunit => {
                let xml = junit.as_ref().and_then(|p| std::fs::read_to_string(p).ok());
                if let Some(p) = &junit {
                    let _ = std::fs::remove_file(p);
                }
                xml.and_then(|x| testrunners::parse_junit_xml(&x, "pytest"))
                    .or_else(|| testrunners::parse_pytest_text(&process.stdout))
            }
            Format::JestJson => testrunners::parse_jest_json(&process.stdout, self.runner),
        };
        let Some(summary) = summary else {
            let mut env = delegated;
            env.warn(format!(
                "no {} test summary was recognized in the output",
                self.runner
            ));
            return env;
        };
        ctx.test_summary = Some(summary.clone());
        summary_envelope(delegated, &summary, &process)
    }
}

/// The envelope for a recognized test run: ok only when the process succeeded and no test
/// failed.
pub fn summary_envelope(
    delegated: Envelope,
    summary: &TestRunSummary,
    process: &ProcessRecord,
) -> Envelope {
    let summary_json = serde_json::to_value(summary).unwrap_or(Value::Null);
    let mut env = if summary.failed > 0 {
        let names = if summary.failures.is_empty() {
            String::new()
        } else {
            format!(
                ": {}",
                summary
                    .failures
                    .iter()
                    .take(10)
                    .cloned()
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        Envelope::failure(format!(
            "{} of {} tests failed ({}){names}",
            summary.failed, summary.total, summary.runner
        ))
    } else if !delegated.ok {
        Envelope::failure(
            delegated
                .error
                .clone()
                .unwrap_or_else(|| "the test run failed".to_string()),
        )
    } else if !process.succeeded() {
        Envelope::failure("the test runner did not exit cleanly")
    } else {
        Envelope::success(summary_json.clone())
    };
    env.meta = delegated.meta;
    env.meta.insert("testSummary".to_string(), summary_json);
    env.meta.insert(
        "rawOutputBytes".to_string(),
        json!(process.stdout.len() + process.stderr.len()),
    );
    env
}

/// Where pytest writes its report: the run's scratch directory (writable inside the
/// confinement), else the temporary directory.
fn junit_path(scratch: Option<&std::path::Path>) -> PathBuf {
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let name = format!("fornax-junit-{}-{nanos}.xml", std::process::id());
    match scratch {
        Some(dir) => dir.join(name),
        None => std::env::temp_dir().join(name),
    }
}
