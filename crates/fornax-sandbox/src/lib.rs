//! Confined capability processes.
//!
//! A capability's program runs under a small re-exec of the `fornax` binary (the *helper*,
//! `fornax __confine SPEC`) that confines itself and then starts the program, so every
//! confinement is inherited and nothing needs `unsafe` code between `fork` and `exec`. On
//! Linux the helper:
//!
//! * makes the filesystem outside the writable places (the workspace, a private scratch
//!   directory, declared paths) read-only, and the user's secrets (`~/.ssh`, `~/.aws`,
//!   `~/.config/gh`, ..., and `FORNAX_HOME`) unreadable, with Landlock;
//! * gives the program no network unless its manifest declares it: a new network namespace
//!   (loopback down), and Landlock's TCP rules as a second wall;
//! * bounds memory (`RLIMIT_DATA`), CPU time, file size and the number of processes (a pids
//!   cgroup when it may create one, as root; `RLIMIT_NPROC` otherwise, which the kernel does
//!   not apply to uid 0);
//! * becomes a child subreaper, so every descendant (a `setsid` grandchild included) is
//!   re-parented to it, and kills them all when the program ends or the deadline passes.
//!
//! What was applied is reported back ([`Status::confinement`]); what could not be is named,
//! never silently skipped. Elsewhere than Linux nothing is confined and the report says so.
//!
//! # Invariants
//!
//! * Nothing runs unconfined by accident: a confinement that fails to apply is reported as
//!   not active, and the run goes on only with what the report lists.
//! * No descendant of the program outlives the run.
//! * The helper is single-threaded until it starts the program (namespaces and credentials are
//!   per-thread on Linux).

mod probe;
mod rules;
mod spec;

#[cfg(target_os = "linux")]
mod helper;

pub use probe::{Confinement, Report};
pub use rules::{default_denied, plan_filesystem, FsPlan};
pub use spec::{Limits, Spec, Status};

/// The argument that selects the helper in the `fornax` binary.
pub const HELPER_ARG: &str = "__confine";

/// Runs the helper for the spec at `spec_path` and returns the exit code to leave with.
/// Call it first thing in `main`, before any thread is started.
pub fn helper_main(spec_path: &std::path::Path) -> i32 {
    #[cfg(target_os = "linux")]
    {
        helper::main(spec_path)
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = spec_path;
        125
    }
}
