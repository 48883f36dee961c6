//! Capability manifests (AXF field names), validated whole: every problem is listed, and a
//! manifest with any problem is never loaded.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::id::{CapabilityId, Scope};
use crate::schema;

/// The manifest version this build reads and writes.
pub const MANIFEST_VERSION: u64 = 1;

/// The adapter types this build can execute.
pub const SUPPORTED_ADAPTER_TYPES: [&str; 2] = ["internal", "cli"];

/// Declared side effects a manifest may list.
pub const KNOWN_SIDE_EFFECTS: [&str; 7] = [
    "none",
    "reads-files",
    "writes-files",
    "network",
    "process",
    "reads-history",
    "writes-history",
];

/// Output modes a manifest may list.
pub const KNOWN_OUTPUT_MODES: [&str; 2] = ["json", "text"];

const FIELDS: [&str; 16] = [
    "manifestVersion",
    "id",
    "summary",
    "provider",
    "adapterType",
    "providerAdapter",
    "executionTarget",
    "argsSchema",
    "outputModes",
    "sideEffects",
    "scope",
    "lifecycleState",
    "defaults",
    "policies",
    "owner",
    "argMap",
];

const REQUIRED: [&str; 12] = [
    "manifestVersion",
    "id",
    "summary",
    "provider",
    "adapterType",
    "executionTarget",
    "argsSchema",
    "outputModes",
    "sideEffects",
    "scope",
    "lifecycleState",
    "owner",
];

const CLI_TARGET_FIELDS: [&str; 8] = [
    "command",
    "args",
    "cwd",
    "env",
    "timeoutMs",
    "maxOutputBytes",
    "limits",
    "writablePaths",
];

/// Keys of `executionTarget.limits` (the confined process's resource bounds).
pub const LIMIT_FIELDS: [&str; 4] = ["memoryMb", "cpuSeconds", "fileSizeMb", "processes"];
const INTERNAL_TARGET_FIELDS: [&str; 1] = ["handler"];

/// Declared routing and review state. Ordered: draft < reviewed < active.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LifecycleState {
    Draft,
    Reviewed,
    Active,
}

impl LifecycleState {
    pub const ALL: [LifecycleState; 3] = [
        LifecycleState::Draft,
        LifecycleState::Reviewed,
        LifecycleState::Active,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            LifecycleState::Draft => "draft",
            LifecycleState::Reviewed => "reviewed",
            LifecycleState::Active => "active",
        }
    }

    pub fn parse(s: &str) -> Option<LifecycleState> {
        LifecycleState::ALL
            .into_iter()
            .find(|state| state.as_str() == s)
    }
}

impl fmt::Display for LifecycleState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A validated capability manifest.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CapabilityManifest {
    pub manifest_version: u64,
    pub id: String,
    pub summary: String,
    pub provider: String,
    pub adapter_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider_adapter: Option<String>,
    pub execution_target: Map<String, Value>,
    pub args_schema: Value,
    pub output_modes: Vec<String>,
    pub side_effects: Vec<String>,
    pub scope: Scope,
    pub lifecycle_state: LifecycleState,
    #[serde(default)]
    pub defaults: Map<String, Value>,
    #[serde(default)]
    pub policies: Vec<Value>,
    pub owner: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub arg_map: Option<Map<String, Value>>,
}

impl CapabilityManifest {
    /// Validates `value` and returns the manifest, or every problem found.
    pub fn from_value(value: &Value) -> Result<CapabilityManifest, Vec<String>> {
        let problems = validate(value);
        if !problems.is_empty() {
            return Err(problems);
        }
        CapabilityManifest::deserialize(value).map_err(|e| vec![e.to_string()])
    }

    pub fn parsed_id(&self) -> Option<CapabilityId> {
        CapabilityId::parse(&self.id).ok()
    }

    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    pub fn target_str(&self, key: &str) -> Option<&str> {
        self.execution_target.get(key).and_then(Value::as_str)
    }

    pub fn target_u64(&self, key: &str) -> Option<u64> {
        self.execution_target.get(key).and_then(Value::as_u64)
    }
}

/// Every problem with `value` as a capability manifest (empty when valid).
pub fn validate(value: &Value) -> Vec<String> {
    let mut problems = Vec::new();
    let Some(obj) = value.as_object() else {
        return vec!["a manifest must be a JSON object".to_string()];
    };
    for key in obj.keys() {
        if !FIELDS.contains(&key.as_str()) && !key.starts_with("x-") {
            problems.push(format!(
                "unknown field {key:?} (known: {}; extensions start with `x-`)",
                FIELDS.join(", ")
            ));
        }
    }
    for key in REQUIRED {
        if !obj.contains_key(key) {
            problems.push(format!("missing required field {key:?}"));
        }
    }
    if let Some(v) = obj.get("manifestVersion") {
        match v.as_u64() {
            Some(MANIFEST_VERSION) => {}
            Some(n) => problems.push(format!(
                "manifestVersion {n} is not supported (this build reads {MANIFEST_VERSION})"
            )),
            None => problems.push(format!(
                "manifestVersion must be the integer {MANIFEST_VERSION}"
            )),
        }
    }
    let id = obj.get("id").map(|v| match v.as_str() {
        Some(s) => CapabilityId::parse(s).map_err(|e| format!("id {s:?}: {e}")),
        None => Err("id must be a string".to_string()),
    });
    if let Some(Err(e)) = &id {
        problems.push(e.clone());
    }
    for key in ["summary", "provider", "owner"] {
        if let Some(v) = obj.get(key) {
            non_empty_string(v, key, &mut problems);
        }
    }
    if let Some(v) = obj.get("scope") {
        match v.as_str().and_then(Scope::parse) {
            Some(scope) if v.as_str() == Some(scope.as_str()) => {
                if let Some(Ok(id)) = &id {
                    if id.scope != scope {
                        problems.push(format!(
                            "scope {:?} does not match the id, which is {:?}",
                            scope.as_str(),
                            id.scope.as_str()
                        ));
                    }
                }
            }
            _ => problems.push(
                "scope must be one of \"global\", \"toolspace-local\", \"workspace-local\""
                    .to_string(),
            ),
        }
    }
    if let Some(v) = obj.get("lifecycleState") {
        if v.as_str().and_then(LifecycleState::parse).is_none() {
            problems.push(
                "lifecycleState must be one of \"draft\", \"reviewed\", \"active\"".to_string(),
            );
        }
    }
    let adapter_type = obj.get("adapterType").map(Value::as_str);
    match adapter_type {
        Some(Some(t)) if SUPPORTED_ADAPTER_TYPES.contains(&t) => {}
        Some(Some(t)) => problems.push(format!(
            "adapterType {t:?} is not supported: this build executes only {} capabilities",
            SUPPORTED_ADAPTER_TYPES.join(" and ")
        )),
        Some(None) => problems.push("adapterType must be a string".to_string()),
        None => {}
    }
    if let Some(v) = obj.get("providerAdapter") {
        match v.as_str() {
            Some(name) => {
                if let Err(e) = crate::id::check_segment(name) {
                    problems.push(format!("providerAdapter: {e}"));
                }
            }
            None => problems.push("providerAdapter must be a string".to_string()),
        }
    }
    if let Some(target) = obj.get("executionTarget") {
        validate_target(target, adapter_type.flatten(), &mut problems);
    }
    if let Some(args_schema) = obj.get("argsSchema") {
        for p in schema::check_schema(args_schema) {
            problems.push(format!("argsSchema{p}"));
        }
    }
    string_list(
        obj.get("outputModes"),
        "outputModes",
        &KNOWN_OUTPUT_MODES,
        &mut problems,
    );
    string_list(
        obj.get("sideEffects"),
        "sideEffects",
        &KNOWN_SIDE_EFFECTS,
        &mut problems,
    );
    if let Some(v) = obj.get("defaults") {
        if !v.is_object() {
            problems.push("defaults must be an object of argument values".to_string());
        }
    }
    if let Some(v) = obj.get("policies") {
        for p in crate::policy::check_specs(v) {
            problems.push(format!("policies: {p}"));
        }
    }
    if let Some(v) = obj.get("argMap") {
        validate_arg_map(v, &mut problems);
    }
    problems
}

fn non_empty_string(v: &Value, key: &str, problems: &mut Vec<String>) {
    match v.as_str() {
        Some(s) if !s.trim().is_empty() => {}
        _ => problems.push(format!("{key} must be a non-empty string")),
    }
}

fn string_list(v: Option<&Value>, key: &str, known: &[&str], problems: &mut Vec<String>) {
    let Some(v) = v else { return };
    let Some(items) = v.as_array() else {
        problems.push(format!("{key} must be an array of strings"));
        return;
    };
    for item in items {
        match item.as_str() {
            Some(s) if known.contains(&s) => {}
            Some(s) => problems.push(format!(
                "{key}: unknown value {s:?} (known: {})",
                known.join(", ")
            )),
            None => problems.push(format!("{key} must contain only strings")),
        }
    }
}

fn validate_target(target: &Value, adapter_type: Option<&str>, problems: &mut Vec<String>) {
    let Some(obj) = target.as_object() else {
        problems.push("executionTarget must be an object".to_string());
        return;
    };
    let allowed: &[&str] = match adapter_type {
        Some("cli") => &CLI_TARGET_FIELDS,
        Some("internal") => &INTERNAL_TARGET_FIELDS,
        _ => return,
    };
    for key in obj.keys() {
        if !allowed.contains(&key.as_str()) {
            problems.push(format!(
                "executionTarget: unknown field {key:?} for adapterType {:?} (known: {})",
                adapter_type.unwrap_or_default(),
                allowed.join(", ")
            ));
        }
    }
    if adapter_type == Some("internal") {
        match obj.get("handler").and_then(Value::as_str) {
            Some(h) if !h.trim().is_empty() => {}
            _ => problems.push("executionTarget.handler must name an internal handler".to_string()),
        }
        return;
    }
    match obj.get("command").and_then(Value::as_str) {
        Some(c) if !c.trim().is_empty() => {}
        _ => problems.push("executionTarget.command must be a non-empty string".to_string()),
    }
    if let Some(args) = obj.get("args") {
        if !args
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_string))
        {
            problems.push("executionTarget.args must be an array of strings".to_string());
        }
    }
    if let Some(cwd) = obj.get("cwd") {
        if !cwd.is_string() {
            problems.push("executionTarget.cwd must be a string".to_string());
        }
    }
    if let Some(env) = obj.get("env") {
        if !env
            .as_object()
            .is_some_and(|m| m.values().all(Value::is_string))
        {
            problems.push("executionTarget.env must be an object of strings".to_string());
        }
    }
    for key in ["timeoutMs", "maxOutputBytes"] {
        if let Some(v) = obj.get(key) {
            if v.as_u64().is_none_or(|n| n == 0) {
                problems.push(format!("executionTarget.{key} must be a positive integer"));
            }
        }
    }
    if let Some(limits) = obj.get("limits") {
        match limits.as_object() {
            Some(l) => {
                for (key, v) in l {
                    if !LIMIT_FIELDS.contains(&key.as_str()) {
                        problems.push(format!(
                            "executionTarget.limits: unknown field {key:?} (known: {})",
                            LIMIT_FIELDS.join(", ")
                        ));
                    } else if v.as_u64().is_none_or(|n| n == 0) {
                        problems.push(format!(
                            "executionTarget.limits.{key} must be a positive integer"
                        ));
                    }
                }
            }
            None => problems.push("executionTarget.limits must be an object".to_string()),
        }
    }
    if let Some(paths) = obj.get("writablePaths") {
        if !paths
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_string))
        {
            problems.push("executionTarget.writablePaths must be an array of strings".to_string());
        }
    }
}

fn validate_arg_map(v: &Value, problems: &mut Vec<String>) {
    let Some(map) = v.as_object() else {
        problems.push("argMap must be an object".to_string());
        return;
    };
    for (arg, spec) in map {
        match spec {
            Value::String(flag) if !flag.is_empty() && !flag.contains(char::is_whitespace) => {}
            Value::Object(o)
                if o.len() == 1 && o.get("positional").is_some_and(|p| p == &Value::Bool(true)) => {
            }
            _ => problems.push(format!(
                "argMap.{arg} must be a flag string (e.g. \"-k\") or {{\"positional\": true}}"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn good() -> Value {
        json!({
            "manifestVersion": 1,
            "id": "workspace.tools.list",
            "summary": "List files",
            "provider": "coreutils",
            "adapterType": "cli",
            "executionTarget": {"command": "ls", "args": ["-1"]},
            "argsSchema": {"type": "object", "properties": {}},
            "outputModes": ["text"],
            "sideEffects": ["reads-files"],
            "scope": "workspace-local",
            "lifecycleState": "draft",
            "owner": "team"
        })
    }

    #[test]
    fn accepts_a_complete_manifest() {
        let m = CapabilityManifest::from_value(&good()).unwrap();
        assert_eq!(m.lifecycle_state, LifecycleState::Draft);
        assert_eq!(m.scope, Scope::Workspace);
    }

    #[test]
    fn lists_every_problem() {
        let mut v = good();
        let o = v.as_object_mut().unwrap();
        o.insert("adapterType".into(), json!("rpc"));
        o.insert("scope".into(), json!("global"));
        o.insert("lifecycleState".into(), json!("live"));
        o.insert("lifecyleState".into(), json!("active"));
        o.remove("owner");
        let problems = CapabilityManifest::from_value(&v).unwrap_err();
        let text = problems.join("\n");
        assert!(
            text.contains("adapterType \"rpc\" is not supported"),
            "{text}"
        );
        assert!(text.contains("scope \"global\" does not match"), "{text}");
        assert!(text.contains("lifecycleState must be"), "{text}");
        assert!(text.contains("unknown field \"lifecyleState\""), "{text}");
        assert!(text.contains("missing required field \"owner\""), "{text}");
        assert_eq!(problems.len(), 5, "{text}");
    }
}
