//! `cap doctor` (and the capability section of `fornax doctor`): what loaded, what was rejected
//! and why, adapters by kind and provenance, missing adapters and handlers, orphaned toolspace
//! adapter folders, private adapters shadowing global ones, unknown or unimplemented policies.

use serde_json::{json, Value};

use crate::adapters::{AdapterKind, Provenance};
use crate::commands::CapEnv;
use crate::exec::Runtime;
use crate::policy::{self, PolicyStatus};
use crate::registry::Rejection;

#[derive(Debug, Clone, Default, PartialEq)]
pub struct DoctorReport {
    pub home: String,
    pub workspace: Option<String>,
    /// `{id, lifecycleState, origin}` per loaded capability.
    pub loaded: Vec<Value>,
    pub rejected_capabilities: Vec<Rejection>,
    /// Adapter entries (`AdapterEntry::to_json`).
    pub adapters: Vec<Value>,
    pub rejected_adapters: Vec<Rejection>,
    /// Capabilities or adapters whose adapters (or handlers) cannot be found.
    pub missing: Vec<Value>,
    /// `toolspaces/<ts>/adapters/` trees no toolspace mount declares.
    pub orphaned: Vec<Value>,
    pub shadowing: Vec<Value>,
    /// `{capability, policy, status}` for unknown (error) and unimplemented (warning) policies.
    pub policies: Vec<Value>,
    /// Which confinements a capability process gets on this machine, measured by running one
    /// (`None`: this build has no confinement helper).
    pub confinement: Option<fornax_sandbox::Report>,
}

impl DoctorReport {
    pub fn from_runtime(rt: &Runtime) -> DoctorReport {
        let mut r = DoctorReport {
            home: rt.layout.home.display().to_string(),
            workspace: rt
                .layout
                .workspace
                .as_ref()
                .map(|w| w.display().to_string()),
            confinement: rt
                .services
                .confiner
                .as_ref()
                .map(crate::exec::cli::probe_confinement),
            ..DoctorReport::default()
        };
        for cap in rt.registry.all() {
            r.loaded.push(json!({
                "id": cap.manifest.id,
                "lifecycleState": cap.manifest.lifecycle_state,
                "origin": cap.origin.to_json(),
            }));
            if let Err(problem) = rt.adapters_for(cap) {
                r.missing
                    .push(json!({"capability": cap.manifest.id, "problem": problem}));
            }
            if cap.manifest.adapter_type == "internal" {
                let handler = cap.manifest.target_str("handler").unwrap_or_default();
                if rt.services.handlers.get(handler).is_none() {
                    r.missing.push(json!({
                        "capability": cap.manifest.id,
                        "problem": format!("internal handler {handler:?} is not registered in this build"),
                    }));
                }
            }
            for spec in policy::parse_specs(&cap.manifest.policies) {
                let status = match policy::status(&spec.name) {
                    PolicyStatus::Implemented => continue,
                    PolicyStatus::Unimplemented => "unimplemented",
                    PolicyStatus::Unknown => "unknown",
                };
                r.policies.push(
                    json!({"capability": cap.manifest.id, "policy": spec.name, "status": status}),
                );
            }
        }
        r.rejected_capabilities = rt.registry.rejected.clone();
        r.rejected_adapters = rt.adapters.rejected.clone();
        for entry in rt.adapters.all() {
            r.adapters.push(entry.to_json());
            if entry.kind == AdapterKind::Provider {
                let ts = match &entry.provenance {
                    Provenance::Private { toolspace, .. } => Some(toolspace.as_str()),
                    _ => None,
                };
                if let Err(problem) = rt.adapters.lookup(&entry.type_name, AdapterKind::Type, ts) {
                    r.missing
                        .push(json!({"adapter": entry.name, "problem": problem}));
                }
            }
        }
        for ts in &rt.registry.toolspaces {
            let declared = ts
                .manifest
                .as_ref()
                .is_some_and(|m| !m.module_mounts.is_empty());
            if ts.has_adapters && !declared {
                let why = if !ts.has_manifest_file {
                    "no toolspace.json declares this toolspace"
                } else if ts.manifest.is_none() {
                    "its toolspace.json was rejected"
                } else {
                    "its toolspace.json mounts nothing"
                };
                r.orphaned.push(
                    json!({"toolspace": ts.name, "path": ts.dir.join("adapters"), "reason": why}),
                );
            }
        }
        for (ts, private) in &rt.adapters.private {
            for (name, entry) in private {
                let global = rt
                    .adapters
                    .global
                    .get(name)
                    .map(|g| g.provenance.describe())
                    .or_else(|| rt.adapters.conflicted.get(name).map(|l| l.join(" and ")));
                if let Some(global) = global {
                    r.shadowing.push(json!({
                        "toolspace": ts,
                        "adapter": name,
                        "private": entry.provenance.describe(),
                        "shadows": global,
                    }));
                }
            }
        }
        r
    }

    /// Errors: rejected manifests, missing adapters or handlers, unknown policies.
    pub fn has_errors(&self) -> bool {
        !self.rejected_capabilities.is_empty()
            || !self.rejected_adapters.is_empty()
            || !self.missing.is_empty()
            || self.policies.iter().any(|p| p["status"] == "unknown")
    }

    pub fn to_json(&self) -> Value {
        json!({
            "ok": !self.has_errors(),
            "home": self.home,
            "workspace": self.workspace,
            "capabilities": {
                "loaded": self.loaded,
                "rejected": self.rejected_capabilities.iter().map(Rejection::to_json).collect::<Vec<_>>(),
            },
            "adapters": {
                "loaded": self.adapters,
                "rejected": self.rejected_adapters.iter().map(Rejection::to_json).collect::<Vec<_>>(),
            },
            "missing": self.missing,
            "orphanedToolspaceAdapters": self.orphaned,
            "shadowing": self.shadowing,
            "policies": self.policies,
            "confinement": self.confinement.as_ref().map(|c| &c.items),
        })
    }
}

/// Runs the doctor over everything `env` can see.
pub fn doctor(env: &CapEnv) -> DoctorReport {
    DoctorReport::from_runtime(&env.runtime())
}
