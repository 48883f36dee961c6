//! Adapter discovery: built-in type adapters (`internal`, `cli`) and provider adapters (test
//! runners), plus adapter folders holding an `adapter.manifest.json`, either global
//! (`$FORNAX_HOME/adapters/`, `<workspace>/.fornax/adapters/`) or private to one toolspace
//! (`toolspaces/<ts>/adapters/`).
//!
//! Lookup per name: the capability's toolspace's private adapters first (when it is mounted),
//! then the global ones; otherwise an error that lists every place searched. A folder adapter
//! cannot take a built-in's name globally, and two global folders with one name make that name
//! unusable until one is removed (no last-wins); a private adapter may shadow a global one on
//! purpose (doctor reports it).

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde_json::{json, Map, Value};

use crate::exec::provider::{builtin_providers, ProviderAdapter};
use crate::exec::script::{self, ScriptLimits};
use crate::id::check_segment;
use crate::layout::{Layout, Root};
use crate::manifest::{LifecycleState, SUPPORTED_ADAPTER_TYPES};
use crate::registry::{subdirs, Registry, Rejection};
use crate::trust::TrustInput;

/// File name of an adapter folder's manifest.
pub const ADAPTER_MANIFEST: &str = "adapter.manifest.json";
/// Default script file of a provider adapter folder.
pub const DEFAULT_SCRIPT: &str = "adapter.rhai";

const TYPE_FIELDS: [&str; 5] = ["kind", "type", "lifecycleState", "summary", "settings"];
const PROVIDER_FIELDS: [&str; 7] = [
    "kind",
    "name",
    "composes",
    "lifecycleState",
    "summary",
    "script",
    "limits",
];
const SETTINGS_FIELDS: [&str; 4] = ["timeoutMs", "maxOutputBytes", "env", "inheritEnv"];
const LIMIT_FIELDS: [&str; 2] = ["maxOperations", "timeoutMs"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AdapterKind {
    Type,
    Provider,
}

impl AdapterKind {
    pub fn as_str(self) -> &'static str {
        match self {
            AdapterKind::Type => "type-adapter",
            AdapterKind::Provider => "provider",
        }
    }
}

/// Where an adapter came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Provenance {
    Builtin,
    Global {
        root: Root,
        dir: PathBuf,
    },
    Private {
        toolspace: String,
        root: Root,
        dir: PathBuf,
    },
}

impl Provenance {
    pub fn to_json(&self) -> Value {
        match self {
            Provenance::Builtin => json!({"kind": "builtin"}),
            Provenance::Global { root, dir } => {
                json!({"kind": "global", "root": root.as_str(), "path": dir})
            }
            Provenance::Private {
                toolspace,
                root,
                dir,
            } => {
                json!({"kind": "toolspace", "toolspace": toolspace, "root": root.as_str(), "path": dir})
            }
        }
    }

    pub fn describe(&self) -> String {
        match self {
            Provenance::Builtin => "built-in".to_string(),
            Provenance::Global { dir, .. } => dir.display().to_string(),
            Provenance::Private { toolspace, dir, .. } => {
                format!("toolspace {toolspace}: {}", dir.display())
            }
        }
    }
}

/// Settings a type-adapter folder can give the built-in engine of its type.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TypeSettings {
    pub timeout_ms: Option<u64>,
    pub max_output_bytes: Option<u64>,
    /// Set in the child's environment (after the inherited variables).
    pub env: BTreeMap<String, String>,
    /// Extra variable names inherited from Fornax's environment.
    pub inherit_env: Vec<String>,
}

/// How an adapter executes.
#[derive(Clone)]
pub enum AdapterImpl {
    /// A type adapter: the built-in engine of its type, with settings.
    Type(TypeSettings),
    /// A provider adapter compiled into the binary.
    BuiltinProvider(Arc<dyn ProviderAdapter>),
    /// A provider adapter written as a sandboxed Rhai script. `source` is the script as read
    /// (and hashed) at load time: what runs is what was checked.
    Script {
        path: PathBuf,
        source: Arc<str>,
        limits: ScriptLimits,
    },
}

impl fmt::Debug for AdapterImpl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AdapterImpl::Type(s) => f.debug_tuple("Type").field(s).finish(),
            AdapterImpl::BuiltinProvider(p) => {
                f.debug_tuple("BuiltinProvider").field(&p.name()).finish()
            }
            AdapterImpl::Script { path, limits, .. } => f
                .debug_struct("Script")
                .field("path", path)
                .field("limits", limits)
                .finish(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct AdapterEntry {
    /// The folder name: the type for type adapters, the adapter name for providers.
    pub name: String,
    pub kind: AdapterKind,
    /// For a type adapter its type; for a provider the type it composes.
    pub type_name: String,
    pub lifecycle: LifecycleState,
    pub summary: String,
    pub provenance: Provenance,
    pub imp: AdapterImpl,
    /// The files this adapter was read from, hashed as read (see [`crate::trust`]).
    pub inputs: Vec<TrustInput>,
}

impl AdapterEntry {
    /// The root its folder lies under, if it came from one.
    pub fn root(&self) -> Option<Root> {
        match &self.provenance {
            Provenance::Builtin => None,
            Provenance::Global { root, .. } | Provenance::Private { root, .. } => Some(*root),
        }
    }

    pub fn to_json(&self) -> Value {
        let mut v = json!({
            "name": self.name,
            "kind": self.kind.as_str(),
            "lifecycleState": self.lifecycle,
            "summary": self.summary,
            "provenance": self.provenance.to_json(),
        });
        let key = if self.kind == AdapterKind::Type {
            "type"
        } else {
            "composes"
        };
        v[key] = json!(self.type_name);
        if let AdapterImpl::Script { path, .. } = &self.imp {
            v["script"] = json!(path);
        }
        v
    }
}

/// Every adapter visible to a layout.
#[derive(Debug, Clone, Default)]
pub struct AdapterSet {
    pub global: BTreeMap<String, AdapterEntry>,
    /// toolspace → name → adapter.
    pub private: BTreeMap<String, BTreeMap<String, AdapterEntry>>,
    pub rejected: Vec<Rejection>,
    /// Global names defined by more than one folder: unusable until resolved.
    pub conflicted: BTreeMap<String, Vec<String>>,
    searched_global: Vec<PathBuf>,
}

impl AdapterSet {
    pub fn load(layout: &Layout, registry: &Registry) -> AdapterSet {
        let mut set = AdapterSet::default();
        for ty in SUPPORTED_ADAPTER_TYPES {
            set.global.insert(
                ty.to_string(),
                AdapterEntry {
                    name: ty.to_string(),
                    kind: AdapterKind::Type,
                    type_name: ty.to_string(),
                    lifecycle: LifecycleState::Active,
                    summary: match ty {
                        "internal" => "Runs a named Rust handler inside Fornax.".to_string(),
                        _ => "Spawns executionTarget.command without a shell; stdout as JSON or text.".to_string(),
                    },
                    provenance: Provenance::Builtin,
                    imp: AdapterImpl::Type(TypeSettings::default()),
                    inputs: Vec::new(),
                },
            );
        }
        for p in builtin_providers() {
            set.global.insert(
                p.name().to_string(),
                AdapterEntry {
                    name: p.name().to_string(),
                    kind: AdapterKind::Provider,
                    type_name: p.composes().to_string(),
                    lifecycle: LifecycleState::Active,
                    summary: p.summary().to_string(),
                    provenance: Provenance::Builtin,
                    imp: AdapterImpl::BuiltinProvider(p),
                    inputs: Vec::new(),
                },
            );
        }
        let mut folders: BTreeMap<String, Vec<AdapterEntry>> = BTreeMap::new();
        for root in layout.roots() {
            let Some(dir) = layout.adapters_dir(root) else {
                continue;
            };
            set.searched_global.push(dir.clone());
            for sub in subdirs(&dir) {
                let make = |name: &str| Provenance::Global {
                    root,
                    dir: dir.join(name),
                };
                if let Some(entry) = set.load_folder(&sub, make) {
                    folders.entry(entry.name.clone()).or_default().push(entry);
                }
            }
        }
        for (name, mut entries) in folders {
            if set
                .global
                .get(&name)
                .is_some_and(|e| e.provenance == Provenance::Builtin)
            {
                for e in entries {
                    set.rejected.push(Rejection {
                        location: e.provenance.describe(),
                        id: Some(name.clone()),
                        problems: vec![format!(
                            "adapter name {name:?} is taken by a built-in adapter; to override it for \
                             one toolspace, put it under toolspaces/<ts>/adapters/"
                        )],
                    });
                }
            } else if entries.len() > 1 {
                let locations: Vec<String> =
                    entries.iter().map(|e| e.provenance.describe()).collect();
                for e in &entries {
                    set.rejected.push(Rejection {
                        location: e.provenance.describe(),
                        id: Some(name.clone()),
                        problems: vec![format!(
                            "duplicate adapter {name:?}: defined in {}",
                            locations.join(" and ")
                        )],
                    });
                }
                set.conflicted.insert(name, locations);
            } else if let Some(e) = entries.pop() {
                set.global.insert(name, e);
            }
        }
        for ts in registry.toolspaces.iter().filter(|t| t.has_adapters) {
            let dir = ts.dir.join("adapters");
            for sub in subdirs(&dir) {
                let make = |name: &str| Provenance::Private {
                    toolspace: ts.name.clone(),
                    root: ts.root,
                    dir: dir.join(name),
                };
                if let Some(entry) = set.load_folder(&sub, make) {
                    let slot = set.private.entry(ts.name.clone()).or_default();
                    if slot.contains_key(&entry.name) {
                        set.rejected.push(Rejection {
                            location: entry.provenance.describe(),
                            id: Some(entry.name.clone()),
                            problems: vec![format!(
                                "duplicate private adapter {:?} in toolspace {:?}",
                                entry.name, ts.name
                            )],
                        });
                    } else {
                        slot.insert(entry.name.clone(), entry);
                    }
                }
            }
        }
        set
    }

    fn load_folder(
        &mut self,
        dir: &Path,
        provenance: impl Fn(&str) -> Provenance,
    ) -> Option<AdapterEntry> {
        let name = dir.file_name()?.to_string_lossy().into_owned();
        let file = dir.join(ADAPTER_MANIFEST);
        let provenance = provenance(&name);
        let root = match &provenance {
            Provenance::Global { root, .. } | Provenance::Private { root, .. } => *root,
            Provenance::Builtin => Root::Home,
        };
        let result = std::fs::read(&file)
            .map_err(|e| vec![format!("cannot read {ADAPTER_MANIFEST}: {e}")])
            .and_then(|bytes| {
                serde_json::from_slice::<Value>(&bytes)
                    .map(|v| (v, TrustInput::new(&file, root, &bytes)))
                    .map_err(|e| vec![format!("not valid JSON: {e}")])
            })
            .and_then(|(v, input)| {
                parse_adapter_manifest(&v, &name, dir, provenance).map(|mut entry| {
                    entry.inputs.insert(0, input);
                    entry
                })
            });
        match result {
            Ok(entry) => Some(entry),
            Err(problems) => {
                self.rejected.push(Rejection {
                    location: file.display().to_string(),
                    id: Some(name),
                    problems,
                });
                None
            }
        }
    }

    /// Finds adapter `name` of `kind` for a capability mounted in `toolspace` (if any).
    pub fn lookup(
        &self,
        name: &str,
        kind: AdapterKind,
        toolspace: Option<&str>,
    ) -> Result<&AdapterEntry, String> {
        let mut searched = Vec::new();
        if let Some(ts) = toolspace {
            if let Some(entry) = self.private.get(ts).and_then(|m| m.get(name)) {
                return check_kind(entry, kind);
            }
            searched.push(format!("toolspaces/{ts}/adapters/{name}"));
        }
        if let Some(locations) = self.conflicted.get(name) {
            return Err(format!(
                "adapter {name:?} is defined more than once ({}); remove one",
                locations.join(" and ")
            ));
        }
        if let Some(entry) = self.global.get(name) {
            return check_kind(entry, kind);
        }
        searched.extend(
            self.searched_global
                .iter()
                .map(|d| d.join(name).display().to_string()),
        );
        searched.push("built-in adapters".to_string());
        let what = match kind {
            AdapterKind::Type => "type adapter",
            AdapterKind::Provider => "provider adapter",
        };
        Err(format!(
            "no {what} {name:?} found; searched: {}",
            searched.join(", ")
        ))
    }

    /// Every adapter, global first, then private by toolspace.
    pub fn all(&self) -> impl Iterator<Item = &AdapterEntry> {
        self.global
            .values()
            .chain(self.private.values().flat_map(|m| m.values()))
    }
}

fn check_kind(entry: &AdapterEntry, kind: AdapterKind) -> Result<&AdapterEntry, String> {
    if entry.kind == kind {
        Ok(entry)
    } else {
        Err(format!(
            "adapter {:?} ({}) is a {}, not a {}",
            entry.name,
            entry.provenance.describe(),
            entry.kind.as_str(),
            kind.as_str()
        ))
    }
}

/// Validates an adapter folder's manifest; every problem is listed.
pub fn parse_adapter_manifest(
    value: &Value,
    folder: &str,
    dir: &Path,
    provenance: Provenance,
) -> Result<AdapterEntry, Vec<String>> {
    let mut problems = Vec::new();
    let Some(obj) = value.as_object() else {
        return Err(vec!["an adapter manifest must be a JSON object".to_string()]);
    };
    let kind = match obj.get("kind").and_then(Value::as_str) {
        Some("type-adapter") => AdapterKind::Type,
        Some("provider") => AdapterKind::Provider,
        other => {
            return Err(vec![format!(
                "kind must be \"type-adapter\" or \"provider\", got {}",
                other
                    .map(|s| format!("{s:?}"))
                    .unwrap_or_else(|| "nothing".to_string())
            )])
        }
    };
    let known: &[&str] = if kind == AdapterKind::Type {
        &TYPE_FIELDS
    } else {
        &PROVIDER_FIELDS
    };
    unknown(obj, known, "", &mut problems);
    let lifecycle = match obj
        .get("lifecycleState")
        .and_then(Value::as_str)
        .map(LifecycleState::parse)
    {
        Some(Some(s)) => s,
        _ => {
            problems.push(
                "lifecycleState must be one of \"draft\", \"reviewed\", \"active\"".to_string(),
            );
            LifecycleState::Draft
        }
    };
    let summary = obj
        .get("summary")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    if let Err(e) = check_segment(folder) {
        problems.push(format!("adapter folder: {e}"));
    }
    let entry = match kind {
        AdapterKind::Type => {
            let ty = obj.get("type").and_then(Value::as_str).unwrap_or_default();
            if !SUPPORTED_ADAPTER_TYPES.contains(&ty) {
                problems.push(format!(
                    "type {ty:?} is not supported: this build has only {} type adapters",
                    SUPPORTED_ADAPTER_TYPES.join(" and ")
                ));
            } else if ty != folder {
                problems.push(format!(
                    "a type adapter's folder must be named after its type ({ty:?}), not {folder:?}"
                ));
            }
            let settings = obj
                .get("settings")
                .map(|s| parse_settings(s, ty, &mut problems))
                .unwrap_or_default();
            AdapterEntry {
                name: folder.to_string(),
                kind,
                type_name: ty.to_string(),
                lifecycle,
                summary,
                provenance,
                imp: AdapterImpl::Type(settings),
                inputs: Vec::new(),
            }
        }
        AdapterKind::Provider => {
            match obj.get("name").and_then(Value::as_str) {
                Some(n) if n == folder => {}
                Some(n) => {
                    problems.push(format!("name {n:?} does not match its folder {folder:?}"))
                }
                None => problems.push("missing required string field \"name\"".to_string()),
            }
            if SUPPORTED_ADAPTER_TYPES.contains(&folder) {
                problems.push(format!(
                    "{folder:?} is a type name; a provider adapter needs another name"
                ));
            }
            let composes = obj
                .get("composes")
                .and_then(Value::as_str)
                .unwrap_or_default();
            if !SUPPORTED_ADAPTER_TYPES.contains(&composes) {
                problems.push(format!(
                    "composes must name a supported type ({}), got {composes:?}",
                    SUPPORTED_ADAPTER_TYPES.join(", ")
                ));
            }
            let script_name = match obj.get("script") {
                None => DEFAULT_SCRIPT,
                Some(Value::String(s)) => s.as_str(),
                Some(_) => {
                    problems.push("script must be a file name".to_string());
                    DEFAULT_SCRIPT
                }
            };
            if script_name.contains('/')
                || script_name.contains('\\')
                || script_name.starts_with('.')
            {
                problems.push(format!(
                    "script {script_name:?} must be a plain file name inside the adapter folder"
                ));
            }
            let path = dir.join(script_name);
            let limits = obj
                .get("limits")
                .map(|l| parse_limits(l, &mut problems))
                .unwrap_or_default();
            let root = match &provenance {
                Provenance::Global { root, .. } | Provenance::Private { root, .. } => *root,
                Provenance::Builtin => Root::Home,
            };
            let mut source: Arc<str> = Arc::from("");
            let mut inputs = Vec::new();
            if problems.is_empty() {
                match std::fs::read(&path) {
                    Ok(bytes) => {
                        inputs.push(TrustInput::new(&path, root, &bytes));
                        match String::from_utf8(bytes) {
                            Ok(text) => {
                                if let Err(e) = script::check(&text) {
                                    problems.push(format!("{script_name}: {e}"));
                                }
                                source = Arc::from(text);
                            }
                            Err(_) => problems.push(format!("{script_name}: not UTF-8 text")),
                        }
                    }
                    Err(e) => problems.push(format!("cannot read script {script_name}: {e}")),
                }
            }
            AdapterEntry {
                name: folder.to_string(),
                kind,
                type_name: composes.to_string(),
                lifecycle,
                summary,
                provenance,
                imp: AdapterImpl::Script {
                    path,
                    source,
                    limits,
                },
                inputs,
            }
        }
    };
    if problems.is_empty() {
        Ok(entry)
    } else {
        Err(problems)
    }
}

fn unknown(obj: &Map<String, Value>, known: &[&str], at: &str, problems: &mut Vec<String>) {
    for key in obj.keys() {
        if !known.contains(&key.as_str()) && !key.starts_with("x-") {
            problems.push(format!(
                "{at}unknown field {key:?} (known: {})",
                known.join(", ")
            ));
        }
    }
}

fn positive(v: Option<&Value>, key: &str, problems: &mut Vec<String>) -> Option<u64> {
    let v = v?;
    match v.as_u64() {
        Some(n) if n > 0 => Some(n),
        _ => {
            problems.push(format!("{key} must be a positive integer"));
            None
        }
    }
}

fn parse_settings(v: &Value, ty: &str, problems: &mut Vec<String>) -> TypeSettings {
    let Some(obj) = v.as_object() else {
        problems.push("settings must be an object".to_string());
        return TypeSettings::default();
    };
    if ty != "cli" {
        problems.push(format!(
            "settings apply only to the cli type adapter, not {ty:?}"
        ));
    }
    unknown(obj, &SETTINGS_FIELDS, "settings: ", problems);
    let mut settings = TypeSettings {
        timeout_ms: positive(obj.get("timeoutMs"), "settings.timeoutMs", problems),
        max_output_bytes: positive(
            obj.get("maxOutputBytes"),
            "settings.maxOutputBytes",
            problems,
        ),
        ..TypeSettings::default()
    };
    if let Some(env) = obj.get("env") {
        match env.as_object() {
            Some(m) => {
                for (k, v) in m {
                    match v.as_str() {
                        Some(s) => {
                            settings.env.insert(k.clone(), s.to_string());
                        }
                        None => problems.push(format!("settings.env.{k} must be a string")),
                    }
                }
            }
            None => problems.push("settings.env must be an object of strings".to_string()),
        }
    }
    if let Some(list) = obj.get("inheritEnv") {
        match list.as_array() {
            Some(items) => {
                settings.inherit_env = items
                    .iter()
                    .filter_map(Value::as_str)
                    .map(str::to_string)
                    .collect()
            }
            None => {
                problems.push("settings.inheritEnv must be an array of variable names".to_string())
            }
        }
    }
    settings
}

fn parse_limits(v: &Value, problems: &mut Vec<String>) -> ScriptLimits {
    let Some(obj) = v.as_object() else {
        problems.push("limits must be an object".to_string());
        return ScriptLimits::default();
    };
    unknown(obj, &LIMIT_FIELDS, "limits: ", problems);
    let defaults = ScriptLimits::default();
    let max_operations = positive(obj.get("maxOperations"), "limits.maxOperations", problems)
        .unwrap_or(defaults.max_operations)
        .min(script::MAX_OPERATIONS_CEILING);
    let timeout_ms = positive(obj.get("timeoutMs"), "limits.timeoutMs", problems)
        .unwrap_or(defaults.timeout_ms)
        .min(script::TIMEOUT_CEILING_MS);
    ScriptLimits {
        max_operations,
        timeout_ms,
    }
}
