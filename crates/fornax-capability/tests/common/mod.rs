//! Shared test helpers: temporary homes and workspaces, manifest writers, a fake history.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use fornax_capability::commands::{execute, CapCommand, CapEnv, CommandOutput};
use fornax_capability::{CapError, EvidenceSink, History, HistoryFilter};
use fornax_types::{Evidence, Item, Provider, SessionRef};
use serde_json::{json, Value};

/// A temporary FORNAX_HOME and a workspace (a directory with `.fornax/`).
pub struct Sandbox {
    pub tmp: tempfile::TempDir,
    pub home: PathBuf,
    pub workspace: PathBuf,
}

impl Sandbox {
    pub fn new() -> Sandbox {
        let tmp = tempfile::tempdir().unwrap();
        let home = tmp.path().join("home");
        let workspace = tmp.path().join("repo");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(workspace.join(".fornax")).unwrap();
        Sandbox {
            tmp,
            home,
            workspace,
        }
    }

    /// An environment whose working directory is inside the workspace, with every workspace
    /// file trusted as it is now (what trust changes is tested with [`Sandbox::env_untrusted`]).
    pub fn env(&self) -> CapEnv {
        self.trust_workspace();
        self.env_untrusted()
    }

    /// An environment that trusts nothing new.
    pub fn env_untrusted(&self) -> CapEnv {
        CapEnv::new(&self.home, &self.workspace)
    }

    /// Records every trust-relevant file under the workspace's `.fornax/` as trusted.
    pub fn trust_workspace(&self) {
        let env = self.env_untrusted();
        let files = fornax_capability::trust::files_to_trust(&self.workspace, &env.layout())
            .unwrap_or_default();
        let mut store = fornax_capability::trust::TrustStore::load(&self.home);
        store.trust(&files, "2026-01-01T00:00:00Z");
        store.save().unwrap();
    }

    pub fn env_with_history_untrusted(&self, history: Arc<FakeHistory>) -> CapEnv {
        CapEnv {
            history: Some(history),
            ..self.env_untrusted()
        }
    }

    pub fn env_with_history(&self, history: Arc<FakeHistory>) -> CapEnv {
        CapEnv {
            history: Some(history),
            ..self.env()
        }
    }

    pub fn write(&self, rel: &str, value: &Value) -> PathBuf {
        let path = self.tmp.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, serde_json::to_string_pretty(value).unwrap()).unwrap();
        path
    }

    pub fn write_text(&self, rel: &str, text: &str) -> PathBuf {
        let path = self.tmp.path().join(rel);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    /// A home (global) capability manifest.
    pub fn global(&self, manifest: &Value) -> PathBuf {
        let id = manifest["id"].as_str().unwrap();
        self.write(&format!("home/capabilities/{id}.json"), manifest)
    }

    /// A workspace capability manifest.
    pub fn local(&self, manifest: &Value) -> PathBuf {
        let id = manifest["id"].as_str().unwrap();
        self.write(&format!("repo/.fornax/capabilities/{id}.json"), manifest)
    }

    pub fn path(&self, rel: &str) -> PathBuf {
        self.tmp.path().join(rel)
    }
}

/// A valid cli manifest; `extra` overrides fields.
pub fn cli_manifest(id: &str, command: &str, args: &[&str], extra: Value) -> Value {
    let scope = if id.starts_with("global.") {
        "global"
    } else {
        "workspace-local"
    };
    let mut m = json!({
        "manifestVersion": 1,
        "id": id,
        "summary": format!("test capability {id}"),
        "provider": "test",
        "adapterType": "cli",
        "executionTarget": {"command": command, "args": args},
        "argsSchema": {"type": "object", "properties": {}},
        "outputModes": ["json", "text"],
        "sideEffects": ["process"],
        "scope": scope,
        "lifecycleState": "active",
        "defaults": {},
        "policies": [],
        "owner": "tests"
    });
    if let (Some(m), Some(extra)) = (m.as_object_mut(), extra.as_object()) {
        for (k, v) in extra {
            m.insert(k.clone(), v.clone());
        }
    }
    m
}

pub fn run(env: &CapEnv, cmd: CapCommand) -> CommandOutput {
    execute(cmd, env).unwrap_or_else(|e| panic!("command failed: {e}"))
}

pub fn try_run(env: &CapEnv, cmd: CapCommand) -> Result<CommandOutput, CapError> {
    execute(cmd, env)
}

pub fn cap_run(id: &str, args: &[&str]) -> CapCommand {
    CapCommand::Run {
        target: vec![id.to_string()],
        args: args.iter().map(|s| s.to_string()).collect(),
        args_json: None,
        any_lifecycle: false,
        session: None,
        toolspace: None,
        trust_once: false,
    }
}

pub fn inspect(id: &str) -> CapCommand {
    CapCommand::Inspect {
        target: vec![id.to_string()],
        toolspace: None,
    }
}

pub fn doctor(env: &CapEnv) -> Value {
    run(env, CapCommand::Doctor).json
}

/// An in-memory history standing in for the store.
#[derive(Default)]
pub struct FakeHistory {
    pub session_at_calls: Mutex<Vec<(PathBuf, String)>>,
    /// What `session_at` answers.
    pub active: Option<SessionRef>,
}

impl FakeHistory {
    pub fn with_active(session: SessionRef) -> Self {
        FakeHistory {
            active: Some(session),
            ..FakeHistory::default()
        }
    }
}

impl History for FakeHistory {
    fn sessions(
        &self,
        filter: &HistoryFilter,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<Value>, String> {
        let all = [
            json!({"provider": "codex", "native_id": "s-1", "cwd": "/work/a"}),
            json!({"provider": "claude-code", "native_id": "s-2", "cwd": "/work/b"}),
        ];
        Ok(all
            .into_iter()
            .filter(|s| {
                filter
                    .provider
                    .as_ref()
                    .is_none_or(|p| s["provider"] == **p)
            })
            .skip(offset)
            .take(limit)
            .collect())
    }

    fn session(&self, id: &str) -> Result<Value, String> {
        match id {
            "s-1" | "codex:s-1" => {
                Ok(json!({"provider": "codex", "native_id": "s-1", "item_count": 0}))
            }
            _ => Err(format!("no session {id}")),
        }
    }

    fn items(&self, id: &str, _offset: usize, _limit: usize) -> Result<Vec<Item>, String> {
        self.session(id).map(|_| Vec::new())
    }

    fn search(
        &self,
        text: &str,
        _filter: &HistoryFilter,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<Value>, String> {
        Ok(
            std::iter::once(json!({"session": "s-1", "text": format!("... {text} ...")}))
                .skip(offset)
                .take(limit)
                .collect(),
        )
    }

    fn findings(
        &self,
        session: Option<&str>,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<Value>, String> {
        Ok(std::iter::once(
            json!({"session": session, "claim": "all tests pass", "verdict": "VERIFIED"}),
        )
        .skip(offset)
        .take(limit)
        .collect())
    }

    fn resolve_session(&self, id: &str) -> Result<Option<SessionRef>, String> {
        Ok((id == "s-1").then(|| SessionRef::new(Provider::Codex, "s-1")))
    }

    fn session_at(&self, workspace: &Path, at: &str) -> Result<Option<SessionRef>, String> {
        self.session_at_calls
            .lock()
            .unwrap()
            .push((workspace.to_path_buf(), at.to_string()));
        Ok(self.active.clone())
    }
}

/// Collects evidence delivered by the MCP server.
#[derive(Default)]
pub struct CollectingSink(pub Mutex<Vec<Evidence>>);

impl EvidenceSink for CollectingSink {
    fn record(
        &self,
        _recheck: Option<&fornax_types::Recheck>,
        evidence: &[Evidence],
    ) -> Result<(), String> {
        self.0.lock().unwrap().extend_from_slice(evidence);
        Ok(())
    }
}
