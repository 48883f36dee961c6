//! What the view shows, read from the index (through a read-only handle, re-read only when
//! the store's change marker moves), the daemon (its status request) and the spool (its
//! segments). Nothing here writes.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use fornax_live::protocol::{DaemonStatus, Request, Response, StoreState};
use fornax_store::{
    ChangeMarker, FindingOrder, FindingRow, ListFilter, SessionRow, Store, StoreError,
};
use fornax_ui::present::{labels, rationale, text, title};

use crate::home::Context;

/// How long the daemon may take to answer a status request before it counts as not
/// answering (the view must not freeze on a stuck socket).
const DAEMON_TIMEOUT: Duration = Duration::from_millis(300);

/// How often the daemon and the spool are asked again.
const LIVE_EVERY: Duration = Duration::from_secs(2);

/// Whether live capture is working.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Daemon {
    /// Running and storing what it receives.
    Capturing { pid: u32 },
    /// Running, but it cannot write to the store (events wait in the spool).
    Stalled { pid: u32, why: String },
    /// Not answering on its socket: hooks spool, nothing is ingested until it runs.
    Down,
}

/// The daemon and the spool, as of the last look.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Live {
    pub daemon: Daemon,
    /// Spooled bytes the store does not hold yet.
    pub waiting_bytes: u64,
    /// The day of the oldest spool segment, when there is one.
    pub oldest_segment: Option<String>,
}

impl Live {
    /// One line for the header: `daemon: capturing (pid 12) · spool: 2.1 KiB waiting since …`.
    pub fn describe(&self) -> String {
        let daemon = match &self.daemon {
            Daemon::Capturing { pid } => format!("daemon: capturing (pid {pid})"),
            Daemon::Stalled { pid, why } => format!("daemon: NOT storing (pid {pid}): {why}"),
            Daemon::Down => "daemon: not running".to_string(),
        };
        let spool = match (self.waiting_bytes, &self.oldest_segment) {
            (0, _) => "spool: nothing waiting".to_string(),
            (n, Some(day)) => format!("spool: {} waiting (since {day})", bytes(n)),
            (n, None) => format!("spool: {} waiting", bytes(n)),
        };
        format!("{daemon} · {spool}")
    }
}

fn bytes(n: u64) -> String {
    match n {
        0..1024 => format!("{n} B"),
        1024..1_048_576 => format!("{:.1} KiB", n as f64 / 1024.0),
        _ => format!("{:.1} MiB", n as f64 / 1_048_576.0),
    }
}

/// A session as the list shows it.
#[derive(Debug, Clone)]
pub struct SessionView {
    pub id: i64,
    pub provider: String,
    pub native_id: String,
    pub title: String,
    pub project: String,
    pub last_activity: Option<String>,
    pub items: i64,
    pub verdicts: BTreeMap<String, i64>,
}

impl SessionView {
    fn from_row(row: SessionRow) -> SessionView {
        SessionView {
            title: title::session_title(row.name.as_deref(), row.first_prompt.as_deref(), 60)
                .unwrap_or_else(|| format!("{} session", labels::agent(&row.provider))),
            project: title::project_label(row.cwd.as_deref(), 24),
            id: row.id,
            provider: row.provider,
            native_id: row.native_id,
            last_activity: row.last_activity.or(row.created_at),
            items: row.items,
            verdicts: row.verdicts,
        }
    }

    pub fn short_id(&self) -> String {
        title::short_id(&self.native_id)
    }
}

/// One item of a timeline, as one line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    pub at: Option<String>,
    pub role: String,
    pub body: String,
}

/// A claim's current verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Judged {
    pub verdict: String,
    pub claim: String,
    pub reason: String,
    pub session_id: i64,
    pub session: String,
    pub provider: String,
    pub at: Option<String>,
    /// What identifies this judgement: a new verdict for the same claim is a new one.
    pub key: (i64, String, String),
}

impl Judged {
    fn from_row(f: &FindingRow) -> Judged {
        let ids: Vec<&str> = f.evidence.iter().map(|e| e.id.as_str()).collect();
        let session = f.session["native_id"].as_str().unwrap_or("");
        Judged {
            verdict: f.verdict.clone(),
            claim: text::one_line(f.claim["text"].as_str().unwrap_or("")),
            reason: text::one_line(&rationale::readable(&f.rationale(), &ids)),
            session_id: f.session_id,
            session: title::short_id(session),
            provider: f.session["provider"].as_str().unwrap_or("").to_string(),
            at: f.at.clone(),
            key: (f.session_id, f.claim_key.clone(), f.computed_at.clone()),
        }
    }
}

/// The index as of one change marker.
#[derive(Debug, Clone, Default)]
pub struct Snapshot {
    pub sessions: Vec<SessionView>,
    /// The most recently judged first.
    pub judged: Vec<Judged>,
    /// Providers with sessions (for the agent filter), whatever the filter.
    pub providers: Vec<String>,
}

/// Reads the index and the live state; keeps one read-only handle open.
#[derive(Debug)]
pub struct Feed {
    home: PathBuf,
    db: PathBuf,
    store: Option<Store>,
    marker: Option<ChangeMarker>,
    /// The filter the last snapshot was read with (a new one forces a read).
    read_with: Option<(ListFilter, usize)>,
    live: Option<(Instant, Live)>,
}

impl Feed {
    pub fn new(ctx: &Context) -> Feed {
        Feed {
            home: ctx.home.clone(),
            db: ctx.db_path(),
            store: None,
            marker: None,
            read_with: None,
            live: None,
        }
    }

    /// The store, opened on first use (it may not exist yet: nothing was scanned).
    fn store(&mut self) -> Option<&Store> {
        if self.store.is_none() {
            self.store = Store::open_read_only(&self.db).ok();
        }
        self.store.as_ref()
    }

    /// Whether there is an index to read yet.
    pub fn has_index(&mut self) -> bool {
        self.store().is_some()
    }

    /// A new snapshot when the store changed since the last one (or the filter did); `None`
    /// when nothing moved or there is no index yet.
    pub fn poll(
        &mut self,
        filter: &ListFilter,
        sessions: usize,
        findings: usize,
    ) -> Result<Option<Snapshot>, StoreError> {
        let asked = (filter.clone(), sessions);
        let same_filter = self.read_with.as_ref() == Some(&asked);
        let last = self.marker;
        let Some(store) = self.store() else {
            return Ok(None);
        };
        let marker = store.change_marker()?;
        if last == Some(marker) && same_filter {
            return Ok(None);
        }
        let rows = store.list_sessions_in(filter, sessions, 0)?;
        let judged = store
            .findings_in(filter, None, FindingOrder::Judged, findings)?
            .iter()
            .map(Judged::from_row)
            .collect();
        let snapshot = Snapshot {
            sessions: rows.into_iter().map(SessionView::from_row).collect(),
            judged,
            providers: store.providers()?,
        };
        self.marker = Some(marker);
        self.read_with = Some(asked);
        Ok(Some(snapshot))
    }

    /// Forgets the last marker, so the next [`Feed::poll`] reads again.
    pub fn invalidate(&mut self) {
        self.marker = None;
    }

    /// `limit` items of a session from the `offset`-th on, as lines `room` columns wide.
    pub fn events(
        &mut self,
        session_id: i64,
        offset: usize,
        limit: usize,
        room: usize,
    ) -> Result<Vec<Event>, StoreError> {
        let Some(store) = self.store() else {
            return Ok(Vec::new());
        };
        let items = store.session_items(session_id, offset, limit)?;
        Ok(items
            .iter()
            .map(|item| {
                let v = serde_json::to_value(item).unwrap_or_default();
                Event {
                    at: v["at"].as_str().map(str::to_string),
                    role: labels::role(v["semantic"]["role"].as_str().unwrap_or("?")).to_string(),
                    body: text::one_line(&crate::cmd::show::item_body(&v, room.max(24))),
                }
            })
            .collect())
    }

    /// The current findings of a session and its subagents, the most recently judged first.
    pub fn judged_in(&mut self, session_id: i64) -> Result<Vec<Judged>, StoreError> {
        let Some(store) = self.store() else {
            return Ok(Vec::new());
        };
        Ok(store
            .findings_in(
                &ListFilter::default(),
                Some(session_id),
                FindingOrder::Judged,
                200,
            )?
            .iter()
            .map(Judged::from_row)
            .collect())
    }

    /// The daemon and the spool, asked again at most every two seconds.
    pub fn live(&mut self) -> Live {
        if let Some((at, live)) = &self.live {
            if at.elapsed() < LIVE_EVERY {
                return live.clone();
            }
        }
        let live = self.read_live();
        self.live = Some((Instant::now(), live.clone()));
        live
    }

    fn read_live(&mut self) -> Live {
        let status =
            match fornax_live::client::request(&self.home, &Request::Status, DAEMON_TIMEOUT) {
                Ok(Response::Status(s)) => Some(s),
                _ => None,
            };
        let daemon = match status {
            Some(DaemonStatus { pid, store, .. }) if store.state == StoreState::Ok => {
                Daemon::Capturing { pid }
            }
            Some(DaemonStatus { pid, store, .. }) => Daemon::Stalled {
                pid,
                why: store.detail.unwrap_or_else(|| "store unavailable".into()),
            },
            None => Daemon::Down,
        };
        let spool = self.home.join("spool");
        let segments = fornax_live::spool::segments(&spool);
        let spooled: u64 = segments.iter().map(|s| s.bytes).sum();
        let waiting_bytes = self
            .store()
            .and_then(|store| fornax_ingest::spool::backlog(store, &spool).ok())
            .map_or(spooled, |b| b.bytes);
        Live {
            daemon,
            waiting_bytes,
            oldest_segment: segments
                .first()
                .filter(|_| waiting_bytes > 0)
                .map(|s| s.day.clone()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_live_line_says_whether_capture_works_and_what_waits() {
        let live = Live {
            daemon: Daemon::Down,
            waiting_bytes: 0,
            oldest_segment: None,
        };
        assert_eq!(
            live.describe(),
            "daemon: not running · spool: nothing waiting"
        );
        let live = Live {
            daemon: Daemon::Stalled {
                pid: 7,
                why: "the store is locked by fornax scan".into(),
            },
            waiting_bytes: 3 * 1024 + 512,
            oldest_segment: Some("2026-03-14".into()),
        };
        assert_eq!(
            live.describe(),
            "daemon: NOT storing (pid 7): the store is locked by fornax scan · \
             spool: 3.5 KiB waiting (since 2026-03-14)"
        );
        let live = Live {
            daemon: Daemon::Capturing { pid: 9 },
            waiting_bytes: 5 * 1_048_576,
            oldest_segment: None,
        };
        assert_eq!(
            live.describe(),
            "daemon: capturing (pid 9) · spool: 5.0 MiB waiting"
        );
    }
}
