//! The registry: every capability from built-ins, `FORNAX_HOME`, the workspace and toolspace
//! mounts, loaded whole or rejected whole.
//!
//! # Shorthand resolution (`module capability` or `module.capability`)
//!
//! 1. toolspace: with a selected toolspace (`--toolspace` / `FORNAX_TOOLSPACE`),
//!    `toolspace.<ts>.<module>.<capability>`; without one, the single toolspace that mounts
//!    `<module>.<capability>` (more than one is an ambiguity error);
//! 2. `global.<module>.<capability>`;
//! 3. `workspace.<module>.<capability>`.
//!
//! A full id always resolves to exactly that id.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::builtins;
use crate::error::CapError;
use crate::id::{CapabilityId, Scope};
use crate::layout::{Layout, Root};
use crate::manifest::{CapabilityManifest, LifecycleState};
use crate::toolspace::{self, ToolspaceManifest, TOOLSPACE_FILE};
use crate::trust::TrustInput;

/// Where a capability came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Origin {
    Builtin,
    File {
        root: Root,
        path: PathBuf,
    },
    Mount {
        toolspace: String,
        root: Root,
        path: PathBuf,
        mount: usize,
        source: String,
    },
}

impl Origin {
    pub fn describe(&self) -> String {
        match self {
            Origin::Builtin => "built-in".to_string(),
            Origin::File { root, path } => format!("{} {}", root.as_str(), path.display()),
            Origin::Mount {
                toolspace,
                path,
                mount,
                source,
                ..
            } => {
                format!(
                    "toolspace {toolspace} ({} moduleMounts[{mount}] from {source})",
                    path.display()
                )
            }
        }
    }

    pub fn to_json(&self) -> Value {
        match self {
            Origin::Builtin => json!({"kind": "builtin"}),
            Origin::File { root, path } => json!({"kind": root.as_str(), "path": path}),
            Origin::Mount {
                toolspace,
                root,
                path,
                mount,
                source,
            } => json!({
                "kind": "toolspace", "toolspace": toolspace, "root": root.as_str(),
                "path": path, "mount": mount, "source": source
            }),
        }
    }
}

/// A loaded capability.
#[derive(Debug, Clone)]
pub struct Capability {
    pub id: CapabilityId,
    /// The effective manifest (for toolspace capabilities: with inherited lifecycle, policies
    /// and defaults).
    pub manifest: CapabilityManifest,
    pub origin: Origin,
    /// The files this capability's definition was read from, hashed as read (see
    /// [`crate::trust`]); empty for built-ins.
    pub inputs: Vec<TrustInput>,
}

impl Capability {
    /// The toolspace this capability is mounted in, if any.
    pub fn toolspace(&self) -> Option<&str> {
        self.id.toolspace.as_deref()
    }

    /// The directory whose relative paths the manifest's own paths resolve against.
    pub fn base_dir(&self) -> Option<&Path> {
        match &self.origin {
            Origin::File { path, .. } | Origin::Mount { path, .. } => path.parent(),
            Origin::Builtin => None,
        }
    }
}

/// A manifest that was not loaded, with every reason.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rejection {
    /// A path, or `builtin:<id>`.
    pub location: String,
    pub id: Option<String>,
    pub problems: Vec<String>,
}

impl Rejection {
    pub fn to_json(&self) -> Value {
        json!({"location": self.location, "id": self.id, "problems": self.problems})
    }
}

/// A toolspace folder as found on disk.
#[derive(Debug, Clone)]
pub struct ToolspaceInfo {
    pub name: String,
    pub root: Root,
    pub dir: PathBuf,
    /// The parsed mount manifest, when it exists and is valid.
    pub manifest: Option<ToolspaceManifest>,
    /// Whether `toolspace.json` exists at all.
    pub has_manifest_file: bool,
    /// Whether an `adapters/` folder exists inside it.
    pub has_adapters: bool,
}

#[derive(Debug, Clone, Default)]
pub struct Registry {
    caps: BTreeMap<String, Capability>,
    pub rejected: Vec<Rejection>,
    pub toolspaces: Vec<ToolspaceInfo>,
}

struct Candidate {
    location: String,
    manifest: CapabilityManifest,
    origin: Origin,
    inputs: Vec<TrustInput>,
}

impl Registry {
    /// Loads everything the layout can see. Never fails: problems become [`Rejection`]s.
    pub fn load(layout: &Layout) -> Registry {
        let mut reg = Registry::default();
        let mut candidates: Vec<Candidate> = Vec::new();
        for (i, value) in builtins::manifests().into_iter().enumerate() {
            let location = format!("builtin:{}", value["id"].as_str().unwrap_or(&i.to_string()));
            match CapabilityManifest::from_value(&value) {
                Ok(manifest) => candidates.push(Candidate {
                    location,
                    manifest,
                    origin: Origin::Builtin,
                    inputs: Vec::new(),
                }),
                Err(problems) => reg.reject(location, value["id"].as_str(), problems),
            }
        }
        for root in layout.roots() {
            let Some(dir) = layout.capabilities_dir(root) else {
                continue;
            };
            for path in json_files(&dir) {
                let location = path.display().to_string();
                match read_manifest(&path, root) {
                    Ok((manifest, input)) => candidates.push(Candidate {
                        location,
                        manifest,
                        origin: Origin::File { root, path },
                        inputs: vec![input],
                    }),
                    Err((id, problems)) => reg.reject(location, id.as_deref(), problems),
                }
            }
        }
        reg.admit(candidates);
        reg.load_toolspaces(layout);
        reg
    }

    fn reject(&mut self, location: String, id: Option<&str>, problems: Vec<String>) {
        self.rejected.push(Rejection {
            location,
            id: id.map(str::to_string),
            problems,
        });
    }

    /// Admits candidates whose id is unique; every contender for a duplicated id is rejected.
    fn admit(&mut self, candidates: Vec<Candidate>) {
        let mut by_id: BTreeMap<String, Vec<Candidate>> = BTreeMap::new();
        for c in candidates {
            by_id.entry(c.manifest.id.clone()).or_default().push(c);
        }
        for (id, mut group) in by_id {
            if group.len() == 1 {
                let c = group.remove(0);
                let Some(parsed) = c.manifest.parsed_id() else {
                    continue;
                };
                self.caps.insert(
                    id,
                    Capability {
                        id: parsed,
                        manifest: c.manifest,
                        origin: c.origin,
                        inputs: c.inputs,
                    },
                );
                continue;
            }
            let locations: Vec<String> = group.iter().map(|c| c.location.clone()).collect();
            for c in &group {
                let others: Vec<&str> = locations
                    .iter()
                    .filter(|l| **l != c.location)
                    .map(String::as_str)
                    .collect();
                self.reject(
                    c.location.clone(),
                    Some(&id),
                    vec![format!(
                        "duplicate id {id}: also defined in {}",
                        others.join(", ")
                    )],
                );
            }
        }
    }

    fn load_toolspaces(&mut self, layout: &Layout) {
        let mut found: BTreeMap<String, Vec<(Root, PathBuf)>> = BTreeMap::new();
        for root in layout.roots() {
            let Some(dir) = layout.toolspaces_dir(root) else {
                continue;
            };
            for sub in subdirs(&dir) {
                let name = sub
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                found.entry(name).or_default().push((root, sub));
            }
        }
        let mut synthesized = Vec::new();
        for (name, dirs) in found {
            let duplicate = dirs.len() > 1;
            for (root, dir) in &dirs {
                let file = dir.join(TOOLSPACE_FILE);
                let mut info = ToolspaceInfo {
                    name: name.clone(),
                    root: *root,
                    dir: dir.clone(),
                    manifest: None,
                    has_manifest_file: file.is_file(),
                    has_adapters: dir.join("adapters").is_dir(),
                };
                if let Err(e) = crate::id::check_segment(&name) {
                    self.reject(
                        dir.display().to_string(),
                        None,
                        vec![format!("toolspace folder: {e}")],
                    );
                } else if duplicate {
                    let others: Vec<String> = dirs
                        .iter()
                        .filter(|(_, d)| d != dir)
                        .map(|(_, d)| d.display().to_string())
                        .collect();
                    self.reject(
                        file.display().to_string(),
                        None,
                        vec![format!(
                            "duplicate toolspace {name:?}: also defined in {}",
                            others.join(", ")
                        )],
                    );
                } else if info.has_manifest_file {
                    match self.load_toolspace(&file, &name, *root) {
                        Ok((manifest, caps, input)) => {
                            for s in caps {
                                let mut inputs = vec![input.clone()];
                                if let Some(source) = self.caps.get(&s.source_id) {
                                    inputs.extend(source.inputs.iter().cloned());
                                }
                                synthesized.push(Capability {
                                    inputs,
                                    id: s.manifest.parsed_id().unwrap_or_else(|| {
                                        CapabilityId::toolspace(&name, "?", "?")
                                    }),
                                    manifest: s.manifest,
                                    origin: Origin::Mount {
                                        toolspace: name.clone(),
                                        root: *root,
                                        path: file.clone(),
                                        mount: s.mount_index,
                                        source: s.source_id,
                                    },
                                });
                            }
                            info.manifest = Some(manifest);
                        }
                        Err(problems) => self.reject(file.display().to_string(), None, problems),
                    }
                }
                self.toolspaces.push(info);
            }
        }
        for cap in synthesized {
            self.caps.insert(cap.manifest.id.clone(), cap);
        }
    }

    fn load_toolspace(
        &self,
        file: &Path,
        name: &str,
        root: Root,
    ) -> Result<(ToolspaceManifest, Vec<toolspace::Synthesized>, TrustInput), Vec<String>> {
        let (value, input) = read_json(file, root).map_err(|e| vec![e])?;
        let manifest = toolspace::parse(&value, name)?;
        let caps = toolspace::synthesize(
            &manifest,
            |id| {
                self.caps
                    .get(id)
                    .filter(|c| c.id.scope != Scope::Toolspace)
                    .map(|c| &c.manifest)
            },
            |scope, module| {
                self.caps
                    .values()
                    .filter(|c| c.id.scope == scope && c.id.module == module)
                    .map(|c| c.id.capability.clone())
                    .collect()
            },
        )?;
        Ok((manifest, caps, input))
    }

    pub fn get(&self, id: &str) -> Option<&Capability> {
        self.caps.get(id)
    }

    /// All loaded capabilities, in id order.
    pub fn all(&self) -> impl Iterator<Item = &Capability> {
        self.caps.values()
    }

    /// Loaded capabilities, hiding non-active ones unless `include_all`.
    pub fn list(&self, include_all: bool) -> impl Iterator<Item = &Capability> {
        self.caps
            .values()
            .filter(move |c| include_all || c.manifest.lifecycle_state == LifecycleState::Active)
    }

    /// Resolves a full id or a shorthand (see the module docs for the order).
    pub fn resolve(
        &self,
        query: &[String],
        toolspace: Option<&str>,
    ) -> Result<&Capability, CapError> {
        let joined = query.join(" ");
        let (module, capability) = match query {
            [one] if CapabilityId::parse(one).is_ok() => return self.exact(one),
            [one] => match one.split_once('.') {
                Some((m, c)) if !c.contains('.') => (m.to_string(), c.to_string()),
                _ => return Err(self.not_found(&joined, one)),
            },
            [m, c] => (m.clone(), c.clone()),
            _ => {
                return Err(CapError::Usage(format!(
                    "expected a capability id or `MODULE CAPABILITY`, got {joined:?}"
                )))
            }
        };
        match toolspace {
            Some(ts) => {
                if let Some(c) = self
                    .caps
                    .get(&CapabilityId::toolspace(ts, &module, &capability).to_string())
                {
                    return Ok(c);
                }
            }
            None => {
                let mounted: Vec<&Capability> = self
                    .caps
                    .values()
                    .filter(|c| {
                        c.id.scope == Scope::Toolspace
                            && c.id.module == module
                            && c.id.capability == capability
                    })
                    .collect();
                match mounted.as_slice() {
                    [one] => return Ok(one),
                    [] => {}
                    many => {
                        return Err(CapError::Ambiguous {
                            query: joined,
                            candidates: format!(
                                "{} (pick one with --toolspace or a full id)",
                                many.iter()
                                    .map(|c| c.manifest.id.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                        })
                    }
                }
            }
        }
        for id in [
            CapabilityId::global(&module, &capability),
            CapabilityId::workspace(&module, &capability),
        ] {
            if let Some(c) = self.caps.get(&id.to_string()) {
                return Ok(c);
            }
        }
        Err(self.not_found(&joined, &format!("{module}.{capability}")))
    }

    fn exact(&self, id: &str) -> Result<&Capability, CapError> {
        self.caps.get(id).ok_or_else(|| self.not_found(id, id))
    }

    fn not_found(&self, query: &str, needle: &str) -> CapError {
        let rejected: Vec<String> = self
            .rejected
            .iter()
            .filter(|r| {
                r.id.as_deref()
                    .is_some_and(|id| id == needle || id.ends_with(&format!(".{needle}")))
            })
            .map(|r| {
                format!(
                    "{} was rejected ({}): {}",
                    r.id.as_deref().unwrap_or("?"),
                    r.location,
                    r.problems.join("; ")
                )
            })
            .collect();
        let hint = if rejected.is_empty() {
            "; `fornax cap list --all` shows what is loaded".to_string()
        } else {
            format!("; {}", rejected.join("; "))
        };
        CapError::NotFound {
            query: query.to_string(),
            hint,
        }
    }
}

/// Reads a JSON file once, returning the value and the hash of exactly the bytes parsed.
fn read_json(path: &Path, root: Root) -> Result<(Value, TrustInput), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    let value = serde_json::from_slice(&bytes).map_err(|e| format!("not valid JSON: {e}"))?;
    Ok((value, TrustInput::new(path, root, &bytes)))
}

/// Reads and validates one manifest file found under `root`.
fn read_manifest(
    path: &Path,
    root: Root,
) -> Result<(CapabilityManifest, TrustInput), (Option<String>, Vec<String>)> {
    let (value, input) = read_json(path, root).map_err(|e| (None, vec![e]))?;
    let id = value.get("id").and_then(Value::as_str).map(str::to_string);
    let mut problems = crate::manifest::validate(&value);
    if let Some(parsed) = id.as_deref().and_then(|i| CapabilityId::parse(i).ok()) {
        let expected = match root {
            Root::Home => Scope::Global,
            Root::Workspace => Scope::Workspace,
        };
        if parsed.scope == Scope::Toolspace {
            problems.push("toolspace.* capabilities come from toolspace mounts; they cannot be declared in a file".to_string());
        } else if parsed.scope != expected {
            problems.push(format!(
                "a {} manifest under {} must have a `{}.` id",
                parsed.scope.prefix(),
                root.as_str(),
                expected.prefix()
            ));
        }
    }
    if !problems.is_empty() {
        return Err((id, problems));
    }
    CapabilityManifest::from_value(&value)
        .map(|m| (m, input))
        .map_err(|p| (id, p))
}

/// `*.json` files directly in `dir`, sorted.
pub(crate) fn json_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// Subdirectories of `dir`, sorted.
pub(crate) fn subdirs(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut dirs: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    dirs
}
