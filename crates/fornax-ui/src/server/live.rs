//! Live updates: one task checks the index for additions and every open page hears of them
//! by server-sent events (`event: change`, the new [`ChangeMarker`] as data).

use std::convert::Infallible;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::State;
use axum::response::sse::{Event, KeepAlive, Sse};
use fornax_store::{ChangeMarker, Store};
use futures_util::Stream;
use tokio::sync::watch;

use super::AppState;

/// Starts the checker; the receiver always holds the latest marker.
pub fn watch(db: PathBuf, every: Duration) -> watch::Receiver<ChangeMarker> {
    let (tx, rx) = watch::channel(read(&db).unwrap_or_default());
    tokio::spawn(async move {
        loop {
            tokio::time::sleep(every).await;
            let path = db.clone();
            let marker = tokio::task::spawn_blocking(move || read(&path)).await;
            if let Ok(Some(m)) = marker {
                tx.send_if_modified(|current| {
                    let changed = *current != m;
                    *current = m;
                    changed
                });
            }
            if tx.is_closed() {
                return;
            }
        }
    });
    rx
}

fn read(db: &std::path::Path) -> Option<ChangeMarker> {
    if !db.exists() {
        return None;
    }
    Store::open_read_only(db).ok()?.change_marker().ok()
}

pub async fn events(
    State(state): State<Arc<AppState>>,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let mut rx = state.live.clone();
    rx.mark_unchanged();
    let stream = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.changed().await.ok()?;
        let marker = *rx.borrow_and_update();
        let data = serde_json::to_string(&marker).unwrap_or_default();
        Some((Ok(Event::default().event("change").data(data)), rx))
    });
    Sse::new(stream).keep_alive(KeepAlive::new().interval(Duration::from_secs(15)))
}
