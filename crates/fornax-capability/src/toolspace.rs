//! Toolspaces: `toolspace.json` mount manifests that synthesize `toolspace.<ts>.<module>.<cap>`
//! capabilities from global or workspace ones.
//!
//! Inheritance, from least to most specific (source capability → toolspace → module mount):
//! * `lifecycleState`: the least mature of the three (a toolspace or a mount can hold a
//!   capability back, never push it past its source);
//! * `policies`: merged by name, the more specific layer's parameters win;
//! * `defaults`: merged key by key, the more specific layer wins.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::id::{check_segment, CapabilityId, Scope};
use crate::manifest::{CapabilityManifest, LifecycleState, MANIFEST_VERSION};
use crate::policy;

/// File name of a toolspace's mount manifest.
pub const TOOLSPACE_FILE: &str = "toolspace.json";

const FIELDS: [&str; 8] = [
    "manifestVersion",
    "toolspace",
    "summary",
    "owner",
    "lifecycleState",
    "defaults",
    "policies",
    "moduleMounts",
];
const MOUNT_FIELDS: [&str; 6] = [
    "module",
    "source",
    "capabilities",
    "defaults",
    "policies",
    "lifecycleState",
];

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolspaceManifest {
    pub manifest_version: u64,
    pub toolspace: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifecycle_state: Option<LifecycleState>,
    #[serde(default)]
    pub defaults: Map<String, Value>,
    #[serde(default)]
    pub policies: Vec<Value>,
    pub module_mounts: Vec<ModuleMount>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ModuleMount {
    /// The module name inside the toolspace; defaults to the source's module.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub module: Option<String>,
    /// `global.<module>` or `workspace.<module>`.
    pub source: String,
    /// Capability names of the source module, or `["*"]` for all of them.
    pub capabilities: Vec<String>,
    #[serde(default)]
    pub defaults: Map<String, Value>,
    #[serde(default)]
    pub policies: Vec<Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lifecycle_state: Option<LifecycleState>,
}

impl ModuleMount {
    /// `(scope, module)` of the source.
    pub fn source_parts(&self) -> Option<(Scope, &str)> {
        let (scope, module) = self.source.split_once('.')?;
        let scope = match scope {
            "global" => Scope::Global,
            "workspace" => Scope::Workspace,
            _ => return None,
        };
        check_segment(module).ok()?;
        Some((scope, module))
    }

    pub fn module_name(&self) -> &str {
        self.module
            .as_deref()
            .or_else(|| self.source_parts().map(|(_, m)| m))
            .unwrap_or_default()
    }
}

/// Validates a toolspace manifest found in the folder `dir_name`.
pub fn parse(value: &Value, dir_name: &str) -> Result<ToolspaceManifest, Vec<String>> {
    let mut problems = Vec::new();
    let Some(obj) = value.as_object() else {
        return Err(vec![
            "a toolspace manifest must be a JSON object".to_string()
        ]);
    };
    unknown_fields(obj, &FIELDS, "", &mut problems);
    match obj.get("manifestVersion").and_then(Value::as_u64) {
        Some(MANIFEST_VERSION) => {}
        _ => problems.push(format!(
            "manifestVersion must be the integer {MANIFEST_VERSION}"
        )),
    }
    match obj.get("toolspace").and_then(Value::as_str) {
        Some(name) if name == dir_name => {}
        Some(name) => problems.push(format!(
            "toolspace {name:?} does not match its folder {dir_name:?}"
        )),
        None => problems.push("missing required string field \"toolspace\"".to_string()),
    }
    check_common(obj, "", &mut problems);
    match obj.get("moduleMounts").and_then(Value::as_array) {
        Some(mounts) => {
            for (i, mount) in mounts.iter().enumerate() {
                let at = format!("moduleMounts[{i}]");
                let Some(m) = mount.as_object() else {
                    problems.push(format!("{at} must be an object"));
                    continue;
                };
                unknown_fields(m, &MOUNT_FIELDS, &at, &mut problems);
                check_common(m, &at, &mut problems);
                if let Some(module) = m.get("module") {
                    match module.as_str().map(check_segment) {
                        Some(Ok(())) => {}
                        Some(Err(e)) => problems.push(format!("{at}.module: {e}")),
                        None => problems.push(format!("{at}.module must be a string")),
                    }
                }
                let source_ok = m.get("source").and_then(Value::as_str).is_some_and(|s| {
                    let probe = ModuleMount {
                        module: None,
                        source: s.to_string(),
                        capabilities: vec![],
                        defaults: Map::new(),
                        policies: vec![],
                        lifecycle_state: None,
                    };
                    probe.source_parts().is_some()
                });
                if !source_ok {
                    problems.push(format!(
                        "{at}.source must be \"global.<module>\" or \"workspace.<module>\""
                    ));
                }
                match m.get("capabilities").and_then(Value::as_array) {
                    Some(caps) if !caps.is_empty() => {
                        for c in caps {
                            match c.as_str() {
                                Some("*") => {}
                                Some(name) => {
                                    if let Err(e) = check_segment(name) {
                                        problems.push(format!("{at}.capabilities: {e}"));
                                    }
                                }
                                None => problems.push(format!("{at}.capabilities must list strings")),
                            }
                        }
                    }
                    _ => problems.push(format!(
                        "{at}.capabilities must be a non-empty array of capability names (or [\"*\"])"
                    )),
                }
            }
        }
        None => problems.push("missing required array \"moduleMounts\"".to_string()),
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    ToolspaceManifest::deserialize(value).map_err(|e| vec![e.to_string()])
}

fn unknown_fields(obj: &Map<String, Value>, known: &[&str], at: &str, problems: &mut Vec<String>) {
    for key in obj.keys() {
        if !known.contains(&key.as_str()) && !key.starts_with("x-") {
            let prefix = if at.is_empty() {
                String::new()
            } else {
                format!("{at}: ")
            };
            problems.push(format!(
                "{prefix}unknown field {key:?} (known: {})",
                known.join(", ")
            ));
        }
    }
}

fn check_common(obj: &Map<String, Value>, at: &str, problems: &mut Vec<String>) {
    let prefix = if at.is_empty() {
        String::new()
    } else {
        format!("{at}.")
    };
    if let Some(v) = obj.get("lifecycleState") {
        if v.as_str().and_then(LifecycleState::parse).is_none() {
            problems.push(format!(
                "{prefix}lifecycleState must be one of \"draft\", \"reviewed\", \"active\""
            ));
        }
    }
    if obj.get("defaults").is_some_and(|d| !d.is_object()) {
        problems.push(format!("{prefix}defaults must be an object"));
    }
    if let Some(p) = obj.get("policies") {
        for problem in policy::check_specs(p) {
            problems.push(format!("{prefix}policies: {problem}"));
        }
    }
}

/// A capability synthesized by a mount.
#[derive(Debug, Clone)]
pub struct Synthesized {
    pub manifest: CapabilityManifest,
    pub source_id: String,
    pub mount_index: usize,
}

/// Synthesizes the toolspace's capabilities. `sources` are the loaded global and workspace
/// capabilities. Any problem rejects the whole toolspace.
pub fn synthesize<'a>(
    ts: &ToolspaceManifest,
    sources: impl Fn(&str) -> Option<&'a CapabilityManifest>,
    modules: impl Fn(Scope, &str) -> Vec<String>,
) -> Result<Vec<Synthesized>, Vec<String>> {
    let mut problems = Vec::new();
    let mut out: Vec<Synthesized> = Vec::new();
    for (i, mount) in ts.module_mounts.iter().enumerate() {
        let Some((scope, module)) = mount.source_parts() else {
            continue;
        };
        let names: Vec<String> = if mount.capabilities.iter().any(|c| c == "*") {
            modules(scope, module)
        } else {
            mount.capabilities.clone()
        };
        if names.is_empty() {
            problems.push(format!(
                "moduleMounts[{i}]: source {:?} has no loaded capabilities",
                mount.source
            ));
        }
        for name in names {
            let source_id = CapabilityId {
                scope,
                toolspace: None,
                module: module.to_string(),
                capability: name.clone(),
            }
            .to_string();
            let Some(src) = sources(&source_id) else {
                problems.push(format!(
                    "moduleMounts[{i}]: {source_id} is not a loaded capability (missing or rejected)"
                ));
                continue;
            };
            let id = CapabilityId::toolspace(&ts.toolspace, mount.module_name(), &name).to_string();
            if out.iter().any(|s| s.manifest.id == id) {
                problems.push(format!("moduleMounts[{i}]: {id} is mounted twice"));
                continue;
            }
            out.push(Synthesized {
                manifest: derive(src, ts, mount, id),
                source_id,
                mount_index: i,
            });
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(problems)
    }
}

fn derive(
    src: &CapabilityManifest,
    ts: &ToolspaceManifest,
    mount: &ModuleMount,
    id: String,
) -> CapabilityManifest {
    let lifecycle_state = [
        Some(src.lifecycle_state),
        ts.lifecycle_state,
        mount.lifecycle_state,
    ]
    .into_iter()
    .flatten()
    .min()
    .unwrap_or(src.lifecycle_state);
    let mut defaults = src.defaults.clone();
    defaults.extend(ts.defaults.clone());
    defaults.extend(mount.defaults.clone());
    let policies = policy::merge(&[&src.policies, &ts.policies, &mount.policies]);
    CapabilityManifest {
        id,
        scope: Scope::Toolspace,
        lifecycle_state,
        defaults,
        policies,
        ..src.clone()
    }
}
