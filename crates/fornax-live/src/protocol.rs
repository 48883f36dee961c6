//! The daemon socket's messages: one JSON object per line each way, as closed enums.
//!
//! A request names its operation in `op`; a response names its kind in `reply`. Most requests
//! get one response line; [`Request::Scan`] gets [`Response::Progress`] lines while the pass
//! runs, then one [`Response::Scanned`]. An unknown operation or a malformed line gets
//! [`Response::Error`]; a daemon at its connection cap answers [`Response::Busy`] (clients
//! retry until their deadline).

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::summary::ScanSummary;

/// What a client asks the daemon.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// New data is in the spool (sent by hooks; never answered).
    Poke,
    /// How the daemon is doing.
    Status,
    /// Ingest everything now and answer when it is stored.
    Flush,
    /// Ingest everything received, then exit.
    Shutdown,
    /// Should this Stop be blocked? (intervention) The daemon first stores what the spool
    /// holds (the Stop event included), then judges the turn's claims.
    Decide {
        session_id: String,
        #[serde(default)]
        stop_hook_active: bool,
        /// The agent's final message as the Stop payload carries it
        /// (`last_assistant_message`): judged even when no transcript has been read yet.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        last_message: Option<String>,
    },
    /// Run a scan's pass over these paths (absolute) in the daemon, which holds the store.
    Scan(ScanRequest),
}

/// The part of `fornax scan` the daemon runs for it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ScanRequest {
    pub paths: Vec<PathBuf>,
    #[serde(default = "yes")]
    pub verify: bool,
    #[serde(default)]
    pub max_record_bytes: Option<usize>,
}

fn yes() -> bool {
    true
}

/// What the daemon answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "reply", rename_all = "snake_case")]
pub enum Response {
    /// Done (a flush that completed).
    Ok,
    Status(DaemonStatus),
    /// The daemon is stopping: what it stored and what it leaves behind.
    Stopping(StopReport),
    /// A Stop's judgement: `block` holds the reason to send back to the agent.
    Decision {
        block: Option<String>,
    },
    /// A scan's pass is running.
    Progress(Progress),
    /// A scan's pass ended.
    Scanned(Box<ScanSummary>),
    /// At its connection cap; try again.
    Busy,
    Error {
        message: String,
    },
}

/// How the daemon is doing.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DaemonStatus {
    pub pid: u32,
    pub socket: String,
    pub uptime_s: u64,
    /// Bytes held by spool segments, and the part of them not yet stored.
    pub spool_bytes: u64,
    pub pending_bytes: u64,
    /// When the last pass ended.
    pub last_ingest: Option<String>,
    /// Records stored since the daemon started.
    pub stored_records: u64,
    pub store: StoreHealth,
}

impl DaemonStatus {
    /// True only when the daemon can write to the store (so it is really capturing).
    pub fn ingesting(&self) -> bool {
        self.store.state == StoreState::Ok
    }
}

/// Whether the daemon can write to the store, and if not, why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StoreHealth {
    pub state: StoreState,
    /// Why it is waiting or failing (the lock holder, the open error), and the next retry.
    #[serde(default)]
    pub detail: Option<String>,
    /// Since when it is in this state.
    #[serde(default)]
    pub since: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StoreState {
    /// The store opened and the last pass wrote what it read.
    Ok,
    /// Another process holds the store-writer lock; the daemon waits for it.
    Waiting,
    /// The store cannot be opened or written; the daemon retries with back-off.
    Unavailable,
}

/// What `shutdown` leaves behind.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StopReport {
    /// The daemon's process (gone once it has exited).
    pub pid: u32,
    /// The final pass ran to its end.
    pub flushed: bool,
    /// Records stored since the daemon started (the final pass included).
    pub stored_records: u64,
    /// Spool bytes received but not stored, and the segments holding them (stored by the next
    /// `fornax scan` or daemon).
    pub remaining_bytes: u64,
    pub remaining_segments: u64,
    /// Why something remains, when it does.
    #[serde(default)]
    pub reason: Option<String>,
}

/// A running pass: files and bytes done of the total.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Progress {
    pub files: u64,
    pub bytes: u64,
    pub files_done: u64,
    pub bytes_done: u64,
}

impl Request {
    /// The request as one line (with its newline).
    pub fn to_line(&self) -> String {
        let mut s = serde_json::to_string(self).unwrap_or_else(|_| "{}".into());
        s.push('\n');
        s
    }
}

impl Response {
    /// The response as one line (with its newline).
    pub fn to_line(&self) -> String {
        let mut s = serde_json::to_string(self).unwrap_or_else(|e| {
            serde_json::json!({"reply": "error", "message": e.to_string()}).to_string()
        });
        s.push('\n');
        s
    }

    pub fn error(message: impl Into<String>) -> Response {
        Response::Error {
            message: message.into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn requests_keep_their_wire_names() {
        assert_eq!(Request::Poke.to_line(), "{\"op\":\"poke\"}\n");
        let decide = Request::Decide {
            session_id: "s1".into(),
            stop_hook_active: false,
            last_message: None,
        };
        assert_eq!(
            decide.to_line(),
            "{\"op\":\"decide\",\"session_id\":\"s1\",\"stop_hook_active\":false}\n"
        );
        let parsed: Request = serde_json::from_str(r#"{"op":"decide","session_id":"s"}"#).unwrap();
        assert_eq!(
            parsed,
            Request::Decide {
                session_id: "s".into(),
                stop_hook_active: false,
                last_message: None,
            }
        );
        let with_text = Request::Decide {
            session_id: "s".into(),
            stop_hook_active: false,
            last_message: Some("All tests pass.".into()),
        };
        assert_eq!(
            serde_json::from_str::<Request>(&with_text.to_line()).unwrap(),
            with_text
        );
        let scan = Request::Scan(ScanRequest {
            paths: vec!["/data".into()],
            verify: true,
            max_record_bytes: None,
        });
        let line = scan.to_line();
        assert_eq!(serde_json::from_str::<Request>(&line).unwrap(), scan);
        assert!(serde_json::from_str::<Request>(r#"{"op":"format_disk"}"#).is_err());
    }

    #[test]
    fn responses_round_trip() {
        let answers = [
            Response::Ok,
            Response::Busy,
            Response::Decision {
                block: Some("You said so.".into()),
            },
            Response::Stopping(StopReport {
                pid: 7,
                flushed: true,
                stored_records: 3,
                remaining_bytes: 0,
                remaining_segments: 0,
                reason: None,
            }),
            Response::Scanned(Box::default()),
            Response::error("no"),
        ];
        for a in answers {
            let line = a.to_line();
            assert!(line.ends_with('\n') && !line[..line.len() - 1].contains('\n'));
            assert_eq!(serde_json::from_str::<Response>(&line).unwrap(), a);
        }
    }
}
