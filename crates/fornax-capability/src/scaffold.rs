//! `cap init`: writes draft capabilities, adapters and toolspaces. Never overwrites.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::adapters::{ADAPTER_MANIFEST, DEFAULT_SCRIPT};
use crate::error::CapError;
use crate::id::{check_segment, CapabilityId, Scope};
use crate::layout::{Layout, Root};
use crate::manifest::SUPPORTED_ADAPTER_TYPES;
use crate::toolspace::TOOLSPACE_FILE;
use crate::trust::{TrustInput, TrustStore};

/// Writes a draft manifest for `id` where the registry will find it.
pub fn capability(layout: &Layout, id: &str) -> Result<PathBuf, CapError> {
    let parsed = CapabilityId::parse(id).map_err(|reason| CapError::InvalidId {
        id: id.to_string(),
        reason,
    })?;
    let root = match parsed.scope {
        Scope::Global => Root::Home,
        Scope::Workspace => Root::Workspace,
        Scope::Toolspace => {
            return Err(CapError::Usage(format!(
            "{id}: toolspace capabilities come from mounts; create the capability as global.* or \
                 workspace.* and add a moduleMounts entry to the toolspace's {TOOLSPACE_FILE}"
        )))
        }
    };
    let dir = layout.capabilities_dir(root).ok_or_else(no_workspace)?;
    let path = dir.join(format!("{}.{}.json", parsed.module, parsed.capability));
    let manifest = json!({
        "manifestVersion": 1,
        "id": id,
        "summary": format!("TODO: what {} does", parsed.capability),
        "provider": parsed.module,
        "adapterType": "cli",
        "executionTarget": {"command": "echo", "args": [parsed.capability]},
        "argsSchema": {"type": "object", "properties": {}, "additionalProperties": false},
        "outputModes": ["text"],
        "sideEffects": ["none"],
        "scope": parsed.scope.as_str(),
        "lifecycleState": "draft",
        "defaults": {},
        "policies": [],
        "owner": "TODO"
    });
    create_json(layout, &path, &manifest)?;
    Ok(path)
}

/// Writes a draft adapter folder. `kind` is `type` or `provider`.
pub fn adapter(
    layout: &Layout,
    name: &str,
    kind: &str,
    composes: &str,
    toolspace: Option<&str>,
) -> Result<Vec<PathBuf>, CapError> {
    check_segment(name).map_err(CapError::Usage)?;
    let builtin = SUPPORTED_ADAPTER_TYPES.contains(&name)
        || crate::exec::provider::builtin_providers()
            .iter()
            .any(|p| p.name() == name);
    if builtin && toolspace.is_none() {
        return Err(CapError::Usage(format!(
            "{name:?} is a built-in adapter; a folder adapter may shadow it only inside one toolspace (--toolspace TS)"
        )));
    }
    let base = match toolspace {
        Some(ts) => {
            check_segment(ts).map_err(CapError::Usage)?;
            toolspace_dir(layout, ts).join("adapters")
        }
        None => layout.adapters_dir(Root::Home).ok_or_else(no_workspace)?,
    };
    let dir = base.join(name);
    let mut written = Vec::new();
    match kind {
        "type" | "type-adapter" => {
            if !SUPPORTED_ADAPTER_TYPES.contains(&name) {
                return Err(CapError::Usage(format!(
                    "a type adapter is named after its type ({}); {name:?} is not one",
                    SUPPORTED_ADAPTER_TYPES.join(", ")
                )));
            }
            let mut manifest = json!({
                "kind": "type-adapter",
                "type": name,
                "lifecycleState": "draft",
                "summary": format!("Settings for the {name} type adapter"),
            });
            if name == "cli" {
                manifest["settings"] = json!({"timeoutMs": 60000, "maxOutputBytes": 1048576, "env": {}, "inheritEnv": []});
            }
            create_json(layout, &dir.join(ADAPTER_MANIFEST), &manifest)?;
            written.push(dir.join(ADAPTER_MANIFEST));
        }
        "provider" => {
            if !SUPPORTED_ADAPTER_TYPES.contains(&composes) {
                return Err(CapError::Usage(format!(
                    "--composes must be one of {}, got {composes:?}",
                    SUPPORTED_ADAPTER_TYPES.join(", ")
                )));
            }
            let manifest = json!({
                "kind": "provider",
                "name": name,
                "composes": composes,
                "lifecycleState": "draft",
                "summary": format!("TODO: what the {name} provider adapter normalizes"),
                "script": DEFAULT_SCRIPT,
            });
            let script_path = dir.join(DEFAULT_SCRIPT);
            if script_path.exists() {
                return Err(CapError::AlreadyExists { path: script_path });
            }
            create_json(layout, &dir.join(ADAPTER_MANIFEST), &manifest)?;
            create_file(layout, &script_path, SCRIPT_TEMPLATE)?;
            written.push(dir.join(ADAPTER_MANIFEST));
            written.push(script_path);
        }
        other => {
            return Err(CapError::Usage(format!(
                "--kind must be `type` or `provider`, got {other:?}"
            )))
        }
    }
    Ok(written)
}

/// Writes a draft toolspace with no mounts.
pub fn toolspace(layout: &Layout, name: &str) -> Result<PathBuf, CapError> {
    check_segment(name).map_err(CapError::Usage)?;
    let path = toolspace_dir(layout, name).join(TOOLSPACE_FILE);
    let manifest = json!({
        "manifestVersion": 1,
        "toolspace": name,
        "summary": format!("TODO: what the {name} toolspace is for"),
        "owner": "TODO",
        "lifecycleState": "draft",
        "defaults": {},
        "policies": [],
        "moduleMounts": []
    });
    create_json(layout, &path, &manifest)?;
    Ok(path)
}

/// An existing toolspace folder of that name, else a new one in the workspace (or home when
/// no workspace is bound).
fn toolspace_dir(layout: &Layout, name: &str) -> PathBuf {
    let roots = layout.roots();
    for root in roots.iter().rev() {
        if let Some(dir) = layout.toolspaces_dir(*root).map(|d| d.join(name)) {
            if dir.is_dir() {
                return dir;
            }
        }
    }
    let root = if layout.workspace.is_some() {
        Root::Workspace
    } else {
        Root::Home
    };
    layout
        .toolspaces_dir(root)
        .unwrap_or_else(|| layout.home.join("toolspaces"))
        .join(name)
}

fn no_workspace() -> CapError {
    CapError::Usage(
        "no workspace is bound: create a `.fornax/` directory, pass --workspace or set FORNAX_WORKSPACE".to_string(),
    )
}

fn create_json(layout: &Layout, path: &Path, value: &Value) -> Result<(), CapError> {
    let mut text = serde_json::to_string_pretty(value).unwrap_or_default();
    text.push('\n');
    create_file(layout, path, &text)
}

/// Creates `path` with `text`, failing if anything is already there. A file scaffolded into the
/// workspace is trusted as written: the user asked for it and Fornax wrote every byte.
fn create_file(layout: &Layout, path: &Path, text: &str) -> Result<(), CapError> {
    use std::io::Write;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| CapError::io(parent, e))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                CapError::AlreadyExists {
                    path: path.to_path_buf(),
                }
            } else {
                CapError::io(path, e)
            }
        })?;
    file.write_all(text.as_bytes())
        .map_err(|e| CapError::io(path, e))?;
    let in_workspace = layout
        .root_dir(Root::Workspace)
        .is_some_and(|marker| path.starts_with(marker));
    if in_workspace {
        let mut store = TrustStore::load(&layout.home);
        store.trust(
            &[TrustInput::new(path, Root::Workspace, text.as_bytes())],
            &crate::time::rfc3339(std::time::SystemTime::now()),
        );
        store.save()?;
    }
    Ok(())
}

const SCRIPT_TEMPLATE: &str = r#"// Provider adapter (Rhai, sandboxed: no files, network or processes of its own).
// Pre-process, delegate to the type adapter, post-process, and return an envelope:
//   #{ ok: true, data: ... }  or  #{ ok: false, error: #{ message: "..." } }
fn execute(resolved, ctx) {
    let result = ctx.delegate(resolved.args);
    if !result.ok {
        return result;
    }
    #{ ok: true, data: result.data, meta: #{ wrappedBy: resolved.providerAdapter } }
}
"#;
