//! Fornax's history as the capability layer sees it: the store behind the `History` and
//! `EvidenceSink` traits of `fornax-capability`.

use std::path::{Path, PathBuf};

use fornax_capability::{EvidenceSink, History};
use fornax_store::{FindingFilter, SessionFilter, Store};
use fornax_types::{Evidence, Provider, Recheck, SessionRef};
use serde_json::{json, Value};

#[derive(Debug, Clone)]
pub struct StoreHistory {
    pub db: PathBuf,
}

impl StoreHistory {
    fn open(&self) -> Result<Store, String> {
        Store::open_read_only(&self.db).map_err(|e| e.to_string())
    }

    fn resolve(&self, store: &Store, id: &str) -> Result<i64, String> {
        let native = id
            .split_once(':')
            .map(|(_, n)| n)
            .filter(|n| !n.is_empty())
            .unwrap_or(id);
        store
            .resolve_session(native)
            .or_else(|_| store.resolve_session(id))
            .map_err(|e| e.to_string())
    }
}

impl History for StoreHistory {
    fn sessions(&self, filter: &Value) -> Result<Value, String> {
        let store = self.open()?;
        let rows = store
            .list_sessions(&SessionFilter {
                provider: filter
                    .get("provider")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                project: filter
                    .get("cwd")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                since: filter
                    .get("since")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                verdict: filter
                    .get("verdict")
                    .and_then(Value::as_str)
                    .map(str::to_string),
                limit: filter.get("limit").and_then(Value::as_u64).unwrap_or(50) as usize,
            })
            .map_err(|e| e.to_string())?;
        Ok(json!({ "sessions": rows }))
    }

    fn session(&self, id: &str) -> Result<Value, String> {
        let store = self.open()?;
        let sid = self.resolve(&store, id)?;
        let detail = store.session_detail(sid).map_err(|e| e.to_string())?;
        serde_json::to_value(detail).map_err(|e| e.to_string())
    }

    fn search(&self, text: &str, limit: usize) -> Result<Value, String> {
        let store = self.open()?;
        let hits = store
            .search(text, limit, false)
            .map_err(|e| e.to_string())?;
        Ok(json!({ "hits": hits }))
    }

    fn findings(&self, session: Option<&str>) -> Result<Value, String> {
        let store = self.open()?;
        let session = match session {
            Some(s) => Some(self.resolve(&store, s)?),
            None => None,
        };
        let findings = store
            .findings(&FindingFilter {
                session,
                verdict: None,
            })
            .map_err(|e| e.to_string())?;
        Ok(json!({ "findings": findings }))
    }

    fn resolve_session(&self, id: &str) -> Result<Option<SessionRef>, String> {
        let store = self.open()?;
        match self.resolve(&store, id) {
            Ok(sid) => {
                let row = store.session_row(sid).map_err(|e| e.to_string())?;
                Ok(Some(SessionRef::new(
                    Provider::parse(&row.provider),
                    row.native_id,
                )))
            }
            Err(_) => Ok(None),
        }
    }

    fn session_at(&self, workspace: &Path, at: &str) -> Result<Option<SessionRef>, String> {
        let store = self.open()?;
        let ws = workspace.display().to_string();
        let rows = store
            .list_sessions(&SessionFilter {
                project: Some(ws.clone()),
                limit: 50,
                ..SessionFilter::default()
            })
            .map_err(|e| e.to_string())?;
        // The session working in exactly this directory most recently before `at`.
        let candidates: Vec<_> = rows
            .into_iter()
            .filter(|r| {
                r.cwd.as_deref().map(|c| c.trim_end_matches('/')) == Some(ws.trim_end_matches('/'))
            })
            .filter(|r| {
                r.created_at
                    .as_deref()
                    .or(r.last_activity.as_deref())
                    .is_none_or(|t| t <= at)
            })
            .collect();
        Ok(candidates
            .first()
            .map(|r| SessionRef::new(Provider::parse(&r.provider), r.native_id.clone())))
    }
}

impl EvidenceSink for StoreHistory {
    fn record(&self, recheck: Option<&Recheck>, evidence: &[Evidence]) -> Result<(), String> {
        store_run(&self.db, recheck, evidence).map(|_| ())
    }
}

/// Stores a run Fornax performed: with a session, its evidence and its re-check row together;
/// without one, nothing (evidence must belong to an indexed session). Judges nothing: no
/// finding changes because of a run. Returns whether anything was stored.
pub fn store_run(
    db: &Path,
    recheck: Option<&Recheck>,
    evidence: &[Evidence],
) -> Result<bool, String> {
    let Some(recheck) = recheck else {
        return Ok(false);
    };
    let mut store = Store::open(db).map_err(|e| e.to_string())?;
    match store.add_recheck(recheck, evidence) {
        Ok(_) => Ok(true),
        // A run tied to no indexed session has nowhere to go.
        Err(fornax_store::StoreError::NoSuchSession(_)) => Ok(false),
        Err(err) => Err(err.to_string()),
    }
}
