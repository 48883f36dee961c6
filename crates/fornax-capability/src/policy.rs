//! Policies, evaluated before a capability executes. Errors short-circuit the run; warnings
//! ride along in `meta.policyWarnings`. An unknown policy name is an error; a known but
//! unimplemented one is a warning (it is declared, but this build does not enforce it).

use std::path::Path;

use serde_json::{json, Map, Value};

use crate::manifest::{CapabilityManifest, LifecycleState};

/// Policies this build enforces.
pub const IMPLEMENTED: [&str; 4] = [
    "require_workspace_binding",
    "require_active_lifecycle",
    "forbid_network",
    "limit_execution",
];

/// Policies this build recognizes but does not enforce yet.
pub const RECOGNIZED_UNIMPLEMENTED: [&str; 4] = [
    "require_human_approval",
    "rate_limit",
    "forbid_file_writes",
    "require_clean_worktree",
];

/// One declared policy: a name and its parameters.
#[derive(Debug, Clone, PartialEq)]
pub struct PolicySpec {
    pub name: String,
    pub params: Map<String, Value>,
}

impl PolicySpec {
    pub fn to_value(&self) -> Value {
        if self.params.is_empty() {
            Value::String(self.name.clone())
        } else {
            let mut obj = Map::new();
            obj.insert("name".to_string(), Value::String(self.name.clone()));
            obj.extend(self.params.clone());
            Value::Object(obj)
        }
    }
}

/// Structural problems with a `policies` value: an array whose entries are policy names or
/// objects with a string `name` and parameters.
pub fn check_specs(value: &Value) -> Vec<String> {
    let Some(items) = value.as_array() else {
        return vec![
            "must be an array of policy names or {\"name\": ..., params} objects".to_string(),
        ];
    };
    let mut problems = Vec::new();
    for (i, item) in items.iter().enumerate() {
        match item {
            Value::String(s) if !s.is_empty() => {}
            Value::Object(o)
                if o.get("name")
                    .and_then(Value::as_str)
                    .is_some_and(|n| !n.is_empty()) => {}
            _ => problems.push(format!(
                "entry {i} must be a policy name or an object with a \"name\""
            )),
        }
    }
    problems
}

/// Reads policy specs, skipping entries [`check_specs`] would reject.
pub fn parse_specs(values: &[Value]) -> Vec<PolicySpec> {
    values
        .iter()
        .filter_map(|v| match v {
            Value::String(name) => Some(PolicySpec {
                name: name.clone(),
                params: Map::new(),
            }),
            Value::Object(o) => {
                let name = o.get("name")?.as_str()?.to_string();
                let params = o
                    .iter()
                    .filter(|(k, _)| *k != "name")
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect();
                Some(PolicySpec { name, params })
            }
            _ => None,
        })
        .collect()
}

/// Merges layers of policies, least specific first: a later layer's policy of the same name
/// replaces the earlier one's parameters; order of first appearance is kept.
pub fn merge(layers: &[&[Value]]) -> Vec<Value> {
    let mut merged: Vec<PolicySpec> = Vec::new();
    for layer in layers {
        for spec in parse_specs(layer) {
            match merged.iter_mut().find(|m| m.name == spec.name) {
                Some(existing) => existing.params.extend(spec.params),
                None => merged.push(spec),
            }
        }
    }
    merged.iter().map(PolicySpec::to_value).collect()
}

/// How a name is known to this build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PolicyStatus {
    Implemented,
    Unimplemented,
    Unknown,
}

pub fn status(name: &str) -> PolicyStatus {
    if IMPLEMENTED.contains(&name) {
        PolicyStatus::Implemented
    } else if RECOGNIZED_UNIMPLEMENTED.contains(&name) {
        PolicyStatus::Unimplemented
    } else {
        PolicyStatus::Unknown
    }
}

/// Execution bounds handed to the type adapter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub timeout_ms: u64,
    pub max_output_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            timeout_ms: DEFAULT_TIMEOUT_MS,
            max_output_bytes: DEFAULT_MAX_OUTPUT_BYTES,
        }
    }
}

pub const DEFAULT_TIMEOUT_MS: u64 = 300_000;
pub const DEFAULT_MAX_OUTPUT_BYTES: u64 = 4 * 1024 * 1024;

/// What the policies need to know about the run.
#[derive(Debug)]
pub struct PolicyContext<'a> {
    pub manifest: &'a CapabilityManifest,
    pub workspace: Option<&'a Path>,
    pub limits: Limits,
}

/// The outcome of evaluating every policy.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PolicyReport {
    pub errors: Vec<String>,
    pub warnings: Vec<String>,
    /// Limits after `limit_execution` clamped them.
    pub limits: Option<Limits>,
}

/// Evaluates the manifest's (effective) policies against the run.
pub fn evaluate(ctx: &PolicyContext<'_>) -> PolicyReport {
    let mut report = PolicyReport {
        limits: Some(ctx.limits),
        ..PolicyReport::default()
    };
    for spec in parse_specs(&ctx.manifest.policies) {
        match status(&spec.name) {
            PolicyStatus::Unknown => report.errors.push(format!(
                "unknown policy {:?} (known: {})",
                spec.name,
                IMPLEMENTED
                    .iter()
                    .chain(RECOGNIZED_UNIMPLEMENTED.iter())
                    .copied()
                    .collect::<Vec<_>>()
                    .join(", ")
            )),
            PolicyStatus::Unimplemented => report.warnings.push(format!(
                "policy {:?} is recognized but not enforced by this build",
                spec.name
            )),
            PolicyStatus::Implemented => apply(&spec, ctx, &mut report),
        }
    }
    report
}

fn apply(spec: &PolicySpec, ctx: &PolicyContext<'_>, report: &mut PolicyReport) {
    let m = ctx.manifest;
    match spec.name.as_str() {
        "require_workspace_binding" if ctx.workspace.is_none() => {
            report.errors.push(
                "require_workspace_binding: no workspace is bound (no `.fornax/` above the \
                 working directory; pass --workspace or set FORNAX_WORKSPACE)"
                    .to_string(),
            );
        }
        "require_active_lifecycle" if m.lifecycle_state != LifecycleState::Active => {
            report.errors.push(format!(
                "require_active_lifecycle: {} is {}, not active (--any-lifecycle does not lift this policy)",
                m.id, m.lifecycle_state
            ));
        }
        // The process gets no network unless `sideEffects` declares it (the confinement's
        // own network namespace), so the policy only has to refuse such a declaration.
        "forbid_network" if m.side_effects.iter().any(|s| s == "network") => {
            report.errors.push(format!(
                "forbid_network: {} declares the \"network\" side effect",
                m.id
            ));
        }
        "limit_execution" => {
            let mut limits = report.limits.unwrap_or(ctx.limits);
            for (key, slot) in [
                ("timeoutMs", &mut limits.timeout_ms),
                ("maxOutputBytes", &mut limits.max_output_bytes),
            ] {
                match spec.params.get(key) {
                    None => {}
                    Some(v) => match v.as_u64() {
                        Some(n) if n > 0 => {
                            if *slot > n {
                                if m.target_u64(key).is_some_and(|declared| declared > n) {
                                    report.warnings.push(format!(
                                        "limit_execution: executionTarget.{key} {} clamped to {n}",
                                        m.target_u64(key).unwrap_or_default()
                                    ));
                                }
                                *slot = n;
                            }
                        }
                        _ => report.errors.push(format!(
                            "limit_execution: {key} must be a positive integer, got {v}"
                        )),
                    },
                }
            }
            for key in spec.params.keys() {
                if key != "timeoutMs" && key != "maxOutputBytes" {
                    report.errors.push(format!(
                        "limit_execution: unknown parameter {key:?} (known: timeoutMs, maxOutputBytes)"
                    ));
                }
            }
            report.limits = Some(limits);
        }
        _ => {}
    }
}

/// A JSON view of a report for `cap inspect` (dry run).
pub fn report_json(report: &PolicyReport) -> Value {
    json!({
        "errors": report.errors,
        "warnings": report.warnings,
        "limits": report.limits.map(|l| json!({"timeoutMs": l.timeout_ms, "maxOutputBytes": l.max_output_bytes})),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn manifest(policies: Value, state: &str, side_effects: Value) -> CapabilityManifest {
        CapabilityManifest::from_value(&json!({
            "manifestVersion": 1,
            "id": "global.t.t",
            "summary": "t",
            "provider": "t",
            "adapterType": "cli",
            "executionTarget": {"command": "true", "timeoutMs": 60000},
            "argsSchema": {"type": "object"},
            "outputModes": ["text"],
            "sideEffects": side_effects,
            "scope": "global",
            "lifecycleState": state,
            "owner": "t",
            "policies": policies
        }))
        .unwrap()
    }

    fn eval(m: &CapabilityManifest, workspace: Option<&Path>) -> PolicyReport {
        evaluate(&PolicyContext {
            manifest: m,
            workspace,
            limits: Limits::default(),
        })
    }

    #[test]
    fn unknown_is_error_unimplemented_is_warning() {
        let m = manifest(json!(["no_such_policy", "rate_limit"]), "active", json!([]));
        let r = eval(&m, None);
        assert_eq!(r.errors.len(), 1);
        assert!(r.errors[0].contains("unknown policy \"no_such_policy\""));
        assert_eq!(r.warnings.len(), 1);
        assert!(r.warnings[0].contains("rate_limit"));
    }

    #[test]
    fn enforced_policies() {
        let m = manifest(
            json!([
                "require_workspace_binding",
                "require_active_lifecycle",
                "forbid_network"
            ]),
            "draft",
            json!(["network"]),
        );
        let r = eval(&m, None);
        assert_eq!(r.errors.len(), 3, "{:?}", r.errors);
        let m = manifest(
            json!(["require_workspace_binding", "require_active_lifecycle"]),
            "active",
            json!([]),
        );
        assert!(eval(&m, Some(Path::new("/w"))).errors.is_empty());
    }

    #[test]
    fn limit_execution_clamps() {
        let m = manifest(
            json!([{"name": "limit_execution", "timeoutMs": 1000, "maxOutputBytes": 10}]),
            "active",
            json!([]),
        );
        let r = eval(&m, None);
        assert_eq!(
            r.limits,
            Some(Limits {
                timeout_ms: 1000,
                max_output_bytes: 10
            })
        );
        assert!(r.warnings.iter().any(|w| w.contains("clamped")));
        let m = manifest(
            json!([{"name": "limit_execution", "timeoutMs": -1}]),
            "active",
            json!([]),
        );
        assert_eq!(eval(&m, None).errors.len(), 1);
    }

    #[test]
    fn merge_prefers_the_more_specific_layer() {
        let a = [
            json!("forbid_network"),
            json!({"name": "limit_execution", "timeoutMs": 5}),
        ];
        let b = [
            json!({"name": "limit_execution", "timeoutMs": 9}),
            json!("rate_limit"),
        ];
        let merged = merge(&[&a, &b]);
        assert_eq!(
            merged,
            vec![
                json!("forbid_network"),
                json!({"name": "limit_execution", "timeoutMs": 9}),
                json!("rate_limit")
            ]
        );
    }
}
