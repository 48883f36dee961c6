//! Fornax's history as the capability layer sees it: the store behind the `History` and
//! `EvidenceSink` traits of `fornax-capability`.

use std::path::{Path, PathBuf};

use fornax_capability::{EvidenceSink, History, HistoryFilter};
use fornax_store::{FindingOrder, FindingRow, ListFilter, SessionFilter, Store};
use fornax_types::{Evidence, Item, Provider, Recheck, SessionRef};
use fornax_ui::present::rationale;
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

fn list_filter(filter: &HistoryFilter) -> ListFilter {
    ListFilter {
        provider: filter.provider.clone(),
        project: filter.project.clone(),
        since: filter.since.clone(),
        until: None,
        verdicts: filter.verdict.iter().cloned().collect(),
    }
}

fn json_rows<T: serde::Serialize>(rows: Vec<T>) -> Result<Vec<Value>, String> {
    rows.into_iter()
        .map(|r| serde_json::to_value(r).map_err(|e| e.to_string()))
        .collect()
}

/// A finding as every surface words it: the rationale in sentences (see
/// `fornax_ui::present::rationale`), the claim's item by its index in the session.
fn finding_value(store: &Store, f: FindingRow) -> Result<Value, String> {
    let ids: Vec<&str> = f.evidence.iter().map(|e| e.id.as_str()).collect();
    let reason = rationale::readable(&f.rationale(), &ids);
    let item = store
        .item_index(f.session_id, &f.item_key)
        .map_err(|e| e.to_string())?;
    let mut value = serde_json::to_value(&f).map_err(|e| e.to_string())?;
    if let Value::Object(m) = &mut value {
        m.insert("reason".to_string(), Value::String(reason));
        m.insert("item".to_string(), json!(item));
    }
    Ok(value)
}

impl History for StoreHistory {
    fn sessions(
        &self,
        filter: &HistoryFilter,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<Value>, String> {
        let store = self.open()?;
        let rows = store
            .list_sessions_in(&list_filter(filter), limit.max(1), offset)
            .map_err(|e| e.to_string())?;
        json_rows(rows)
    }

    fn session(&self, id: &str) -> Result<Value, String> {
        let store = self.open()?;
        let sid = self.resolve(&store, id)?;
        let row = store.session_row(sid).map_err(|e| e.to_string())?;
        let item_count = row.items;
        let mut value = serde_json::to_value(row).map_err(|e| e.to_string())?;
        if let Value::Object(m) = &mut value {
            m.insert("item_count".to_string(), json!(item_count));
        }
        Ok(value)
    }

    fn items(&self, id: &str, offset: usize, limit: usize) -> Result<Vec<Item>, String> {
        let store = self.open()?;
        let sid = self.resolve(&store, id)?;
        store
            .session_items(sid, offset, limit)
            .map_err(|e| e.to_string())
    }

    fn search(
        &self,
        text: &str,
        filter: &HistoryFilter,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<Value>, String> {
        let store = self.open()?;
        // The store answers at most 1,000 hits, from the first.
        let wanted = offset.saturating_add(limit).min(1000);
        if offset >= wanted {
            return Ok(Vec::new());
        }
        let hits = store
            .search_in(text, &list_filter(filter), wanted, false)
            .map_err(|e| e.to_string())?;
        hits.into_iter()
            .skip(offset)
            .map(|hit| {
                let item = store
                    .item_index(hit.session_id, &hit.item_key)
                    .map_err(|e| e.to_string())?;
                let mut value = serde_json::to_value(&hit).map_err(|e| e.to_string())?;
                if let Value::Object(m) = &mut value {
                    m.insert("item".to_string(), json!(item));
                }
                Ok(value)
            })
            .collect()
    }

    fn findings(
        &self,
        session: Option<&str>,
        offset: usize,
        limit: usize,
    ) -> Result<Vec<Value>, String> {
        let store = self.open()?;
        let session = match session {
            Some(s) => Some(self.resolve(&store, s)?),
            None => None,
        };
        let rows = store
            .findings_page(
                &ListFilter::default(),
                session,
                FindingOrder::Severity,
                limit.max(1),
                offset,
            )
            .map_err(|e| e.to_string())?;
        rows.into_iter().map(|f| finding_value(&store, f)).collect()
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
/// finding changes because of a run. Returns whether anything was stored. A run's output and
/// arguments are native text like any other: both are redacted before they are stored.
pub fn store_run(
    db: &Path,
    recheck: Option<&Recheck>,
    evidence: &[Evidence],
) -> Result<bool, String> {
    let Some(recheck) = recheck else {
        return Ok(false);
    };
    let mut store = Store::open(db).map_err(|e| e.to_string())?;
    let redactor = fornax_redact::Redactor::new();
    let mut counts = fornax_redact::RedactionCounts::default();
    let recheck = redactor.redact(recheck.clone(), &mut counts);
    let evidence = redactor.redact_all(evidence.iter().cloned(), &mut counts);
    match store.add_recheck(&recheck, &evidence) {
        Ok(_) => Ok(true),
        // A run tied to no indexed session has nowhere to go.
        Err(fornax_store::StoreError::NoSuchSession(_)) => Ok(false),
        Err(err) => Err(err.to_string()),
    }
}
