//! Read-only git queries: does a commit an agent claimed really exist in the repository on this
//! machine, and which branch is checked out.
//!
//! Invariants:
//! - never writes to a repository (no refs, no objects, no index, no config, no lock files);
//! - never spawns a process: everything goes through gix in-process, and repositories are opened
//!   with only their own configuration, so no `git` binary is ever consulted;
//! - bounded work: a claim costs one prefix lookup in the object database plus, for a unique
//!   commit, reading that single commit; history is never walked.
//!
//! A claimed sha counts as an existing commit only when its prefix names exactly one commit:
//! a prefix that matches only trees or blobs is not a commit, and a prefix shared by several
//! commits is reported as `ambiguous` rather than guessed.

mod commit;
mod error;
mod head;
mod repository;
mod sha;

pub use commit::{check_commit, CommitCheck};
pub use error::VcsError;
pub use head::head_branch;
