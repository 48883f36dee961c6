//! opencode adapter: plugin stream and storage documents into the canonical model.
//!
//! Two transports, one set of rules ([`tracker`]):
//!
//! * [`OpencodePluginAdapter`] reads the live stream that `plugin/fornax.js` (shipped here as
//!   [`PLUGIN_SOURCE`]) writes from inside opencode: one `{"hook", "at", "payload"}` line per
//!   invocation of `event`, `chat.message`, `tool.execute.before` and `tool.execute.after`.
//! * [`OpencodeStorageAdapter`] reads opencode's stored Session, Message and Part documents
//!   (the JSON tree under `storage/`, or the same objects from `opencode.db`), one session at a
//!   time in the order the descriptor's document tree plans ([`tree`]: pure placement and
//!   ordering; ingestion does the reading).
//!
//! Both publish the session, its capabilities, loops opened by user messages and ended by the
//! assistant's terminal finish or `session.idle`, and items keyed by opencode's own ids
//! (`part:<part id>`, `call:<callID>`, `out:<callID>`), plus `FileDiff` evidence for the file
//! tools. The last assistant text of a loop is its `agent.final_answer`.
//!
//! # Invariants
//!
//! * Never panics and never fails on bad input: malformed, truncated, huge or future-version
//!   documents become `Unrecognized` (with the shape's own tag only) or `Ignored` (with a static
//!   reason), and the records around them are unaffected.
//! * No I/O, no clock, no environment: output is a pure function of the records and the state
//!   they built, and that state is bounded (every table forgets its oldest entries).
//! * Item keys and evidence ids are deterministic, so replaying a source replaces rather than
//!   duplicates; a fact already published unchanged under a key is not published again.
//! * Exit codes, test summaries and git outcomes are not evidence here: core sensors derive
//!   them from the items.

mod bounded;
mod capabilities;
mod documents;
mod json;
mod outcome;
mod plugin;
mod storage;
mod tools;
mod tracker;
mod tree;

use fornax_types::{AdapterDescriptor, AgentAdapter, Framing, Provider, SourceKind};

pub use plugin::OpencodePluginAdapter;
pub use storage::OpencodeStorageAdapter;

/// The plugin opencode loads (an ES module, Node built-ins only), for `fornax` to install.
pub const PLUGIN_SOURCE: &str = include_str!("../plugin/fornax.js");

/// This adapter's version (not opencode's).
pub const ADAPTER_VERSION: &str = env!("CARGO_PKG_VERSION");

fn create_plugin() -> Box<dyn AgentAdapter + Send> {
    Box::new(OpencodePluginAdapter::default())
}

fn create_storage() -> Box<dyn AgentAdapter + Send> {
    Box::new(OpencodeStorageAdapter::default())
}

/// Registrations of both transports.
pub fn descriptors() -> Vec<AdapterDescriptor> {
    vec![
        AdapterDescriptor {
            name: "opencode-plugin",
            provider: Provider::Opencode,
            transport: SourceKind::PluginStream,
            framing: Framing::JsonLines,
            sniff: documents::sniff_plugin,
            create: create_plugin,
            default_roots: &[],
            file_suffixes: &[],
            tree: None,
        },
        AdapterDescriptor {
            name: "opencode-storage",
            provider: Provider::Opencode,
            transport: SourceKind::File,
            framing: Framing::WholeFile,
            sniff: documents::sniff_storage,
            create: create_storage,
            default_roots: &[
                ".local/share/opencode/storage",
                ".local/share/opencode/opencode.db",
            ],
            file_suffixes: &[".json"],
            tree: Some(tree::TREE),
        },
    ]
}
