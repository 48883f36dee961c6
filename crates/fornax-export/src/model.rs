//! One session as it leaves the store: the session, its loops, its items (typed), its findings
//! and its subagent sessions, read through the store's read API.

use fornax_store::{FindingRow, LoopRow, SessionRow, Store};
use fornax_types::{Item, Provider, SessionRef};

use crate::ExportError;

/// How deep subagents of subagents are followed, and how many sessions one export holds.
const MAX_DEPTH: usize = 8;
const MAX_SESSIONS: usize = 256;

/// A session and everything the store knows of it.
#[derive(Debug, Clone)]
pub struct SessionExport {
    pub session: SessionRow,
    pub loops: Vec<LoopRow>,
    pub items: Vec<Item>,
    /// Current findings on this session's own claims.
    pub findings: Vec<FindingRow>,
    /// Sessions delegated from this one.
    pub subagents: Vec<SessionExport>,
    /// Stored items that could not be read back as canonical items (skipped, counted).
    pub unreadable_items: usize,
}

impl SessionExport {
    /// This session and every subagent session, depth first, root first.
    pub fn walk(&self) -> Vec<&SessionExport> {
        let mut out = vec![self];
        for s in &self.subagents {
            out.extend(s.walk());
        }
        out
    }

    pub fn session_ref(&self) -> SessionRef {
        SessionRef::new(
            Provider::parse(&self.session.provider),
            self.session.native_id.clone(),
        )
    }
}

/// Loads a session by row id with its subagents.
pub fn load_session(store: &Store, id: i64) -> Result<SessionExport, ExportError> {
    let mut budget = MAX_SESSIONS;
    load(store, id, 0, &mut budget)
}

fn load(
    store: &Store,
    id: i64,
    depth: usize,
    budget: &mut usize,
) -> Result<SessionExport, ExportError> {
    *budget = budget.saturating_sub(1);
    let detail = store.session_detail(id)?;
    let mut unreadable_items = 0;
    let items = detail
        .items
        .into_iter()
        .filter_map(|v| match serde_json::from_value::<Item>(v) {
            Ok(i) => Some(i),
            Err(_) => {
                unreadable_items += 1;
                None
            }
        })
        .collect();
    let own = detail.session.native_id.clone();
    let findings = detail
        .findings
        .into_iter()
        .filter(|f| f.session.get("native_id").and_then(|v| v.as_str()) == Some(own.as_str()))
        .collect();
    let mut subagents = Vec::new();
    if depth < MAX_DEPTH {
        let provider = Provider::parse(&detail.session.provider);
        for native in &detail.subagents {
            if *budget == 0 {
                break;
            }
            let sref = SessionRef::new(provider.clone(), native.clone());
            if let Some(child) = store.find_session(&sref)? {
                subagents.push(load(store, child, depth + 1, budget)?);
            }
        }
    }
    Ok(SessionExport {
        session: detail.session,
        loops: detail.loops,
        items,
        findings,
        subagents,
        unreadable_items,
    })
}
