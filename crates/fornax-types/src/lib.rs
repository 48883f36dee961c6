//! The canonical model of Fornax.
//!
//! Three layers (see `docs/adr/0001-three-layer-model.md`):
//!
//! * **physical** ([`physical`]): a [`Source`] is one native input (a transcript file, a hook
//!   stream, a plugin stream); a [`Record`] is one complete native payload inside it, located by
//!   position and byte range and identified by a BLAKE3 [`Fingerprint`].
//! * **canonical** ([`canonical`]): [`Session`], [`Loop`] and [`Item`]. Every item carries a
//!   [`Semantic`] fact `{role, value, evidence_strength}` and cites at least one record.
//! * **judgement** ([`capabilities`], [`evidence`], [`judgement`], [`reason`]): what a runtime
//!   can observe, the evidence Fornax collected (with provenance), the claims agents made, the
//!   findings and the typed reasons their rationales are rendered from.
//!
//! The [`wire`] module defines the one versioned message type that carries all of these between
//! processes, and [`adapter`] / [`sensor`] define the traits provider adapters and evidence
//! sensors implement.
//!
//! # Invariants
//!
//! * This crate does no I/O: no files, no sockets, no clocks, no environment. Everything here is
//!   a pure function of its inputs, so adapters that depend only on it stay pure too.
//! * Missing is not zero: every optional fact is an `Option`, and absent facts serialize as
//!   absent, never as a default that looks like an observation.
//! * Closed where the contract is closed (evidence payloads reject unknown fields), open where
//!   the future must fit (capability signal classes and availability states keep an
//!   `Unrecognized` tail; extension envelopes preserve unknown keys).

pub mod adapter;
pub mod canonical;
pub mod capabilities;
pub mod evidence;
pub mod extension;
pub mod judgement;
pub mod kit;
pub mod physical;
pub mod provider;
pub mod reason;
pub mod recheck;
pub mod sensor;
pub mod shell;
pub mod text;
pub mod usage;
pub mod wire;

pub use adapter::{
    AdapterDescriptor, AgentAdapter, CapabilityProbe, DocumentDatabase, DocumentTable,
    DocumentTree, Framing, NativeRecord, NormalizationOutcome, TreeDoc, TreeGroup,
};
pub use canonical::{
    Connector, Delegation, EvidenceStrength, ExitCode, Invocation, Item, Loop, LoopEnd,
    LoopOutcome, ReasoningMode, ReasoningValue, Role, Semantic, SemanticValue, Session, SessionRef,
    ShellCallValue, SubagentValue, TextValue, ToolCallValue, ToolOutputValue, Usage, UsageError,
};
pub use capabilities::{CapabilitySignal, RuntimeCapabilities, SignalAvailability, SignalClass};
pub use evidence::{
    ClockSource, CollectionMethod, Evidence, EvidenceKind, EvidencePayload, EvidenceSource,
    Freshness, PayloadError, TrustClass,
};
pub use extension::{ContentClass, ExtensionEnvelope, SUPPORTED_EXTENSION_SCHEMA_VERSIONS};
pub use judgement::{
    Claim, ClaimActor, ClaimQuantity, ClaimScope, ClaimSubject, ClaimTarget, Finding, ScopeUnit,
    Verdict,
};
pub use physical::{
    ByteRange, Fingerprint, Record, RecordRef, Source, SourceId, SourceIds, SourceKind,
};
pub use provider::Provider;
pub use reason::{Reason, StoredReason};
pub use recheck::{Recheck, RecheckOutcome, RecheckTrigger};
pub use sensor::{EvidenceSensor, SensorInput, SensorOutcome};
pub use usage::{TokenCounts, UsageFact, UsageGroup, LONG_CONTEXT_PROMPT_TOKENS};
pub use wire::{IngestMessage, WireMessage, WIRE_VERSION};
