//! What the parent asks of the helper, and what the helper reports back.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

/// Resource bounds for the program and all its descendants.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Limits {
    /// Writable private memory per process (`RLIMIT_DATA`), in MiB.
    pub memory_mb: u64,
    /// CPU time per process (`RLIMIT_CPU`), in seconds.
    pub cpu_seconds: u64,
    /// Largest file a process may write (`RLIMIT_FSIZE`), in MiB.
    pub file_size_mb: u64,
    /// Processes at once (pids cgroup, else `RLIMIT_NPROC`).
    pub processes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            memory_mb: 4096,
            cpu_seconds: 600,
            file_size_mb: 1024,
            processes: 256,
        }
    }
}

/// One confined run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Spec {
    /// The program (a path) and its arguments.
    pub argv: Vec<String>,
    pub cwd: PathBuf,
    /// The program's whole environment.
    pub env: Vec<(String, String)>,
    /// Places the program may write (the workspace, its scratch directory, declared paths).
    pub writable: Vec<PathBuf>,
    /// Places the program may not even read.
    pub denied: Vec<PathBuf>,
    /// Whether the manifest declared network access.
    pub network: bool,
    pub limits: Limits,
    /// The deadline, from the program's start.
    pub timeout_ms: u64,
    /// Where the helper writes its [`Status`] (opened before confinement, never inherited).
    pub status_path: PathBuf,
    /// A pids cgroup to create for the run (under the pids controller), when possible.
    pub cgroup_name: String,
}

/// What the helper observed and applied.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Status {
    pub started: bool,
    pub exit_code: Option<i32>,
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub spawn_error: Option<String>,
    /// Descendants still alive when the program ended or the deadline passed, all killed.
    pub killed_descendants: u32,
    pub confinement: crate::Report,
}
