//! One module per subcommand.

pub mod cap;
pub mod config;
pub mod daemon;
pub mod demo;
pub mod doctor;
pub mod export;
pub mod filters;
pub mod findings;
pub mod forget;
pub mod help;
pub mod hook;
pub mod install;
pub mod query;
pub mod record;
pub mod redact;
pub mod reindex;
pub mod scan;
pub mod search;
pub mod sessions;
pub mod show;
pub mod status;
pub mod sync;
pub mod ui;
pub mod usage;
pub mod watch;
