//! What a runtime can observe: capability declarations.
//!
//! An adapter declares, per transport, which [`SignalClass`]es it can expose and in which
//! [`SignalAvailability`] state. Only `Available` lets a verifier attempt a judgement that needs
//! the signal; every other state reads as "not observable" (no partial credit).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{Provider, SourceKind};

/// Current schema version of [`RuntimeCapabilities`].
pub const CAPABILITIES_SCHEMA_VERSION: u32 = 1;

macro_rules! string_enum {
    (
        $(#[$meta:meta])*
        pub enum $name:ident { $( $(#[$vmeta:meta])* $variant:ident => $wire:literal, )* }
    ) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $( $(#[$vmeta])* $variant, )*
            /// A name this binary does not know (written by a newer version).
            Unrecognized(String),
        }

        impl $name {
            pub fn as_str(&self) -> &str {
                match self {
                    $( $name::$variant => $wire, )*
                    $name::Unrecognized(s) => s,
                }
            }

            pub fn parse(s: &str) -> Self {
                match s {
                    $( $wire => $name::$variant, )*
                    other => $name::Unrecognized(other.to_string()),
                }
            }

            /// Every state or class this binary knows.
            pub fn known() -> Vec<$name> {
                vec![$( $name::$variant, )*]
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.as_str())
            }
        }

        impl Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.as_str())
            }
        }

        impl<'de> Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                Ok($name::parse(&s))
            }
        }
    };
}

string_enum! {
    /// The eleven classes of signal a runtime may expose, plus a forward-compatible tail.
    pub enum SignalClass {
        /// Session identity and lifecycle (start, resume, end).
        SessionLifecycle => "session_lifecycle",
        /// Loop (turn) boundaries and outcomes.
        LoopLifecycle => "loop_lifecycle",
        /// What the human asked.
        HumanInput => "human_input",
        /// The agent's final answer of a loop.
        FinalResponse => "final_response",
        /// The agent's text between tool calls.
        AgentCommentary => "agent_commentary",
        /// The model's reasoning (full or summarized).
        Reasoning => "reasoning",
        /// Tool calls with their arguments.
        ToolInvocation => "tool_invocation",
        /// Tool outputs (text the tool returned).
        ToolOutput => "tool_output",
        /// Exit status of processes the agent ran.
        ProcessResult => "process_result",
        /// Which files the agent created, changed or removed.
        FileMutation => "file_mutation",
        /// Subagents started, their activity and reports.
        SubagentLifecycle => "subagent_lifecycle",
    }
}

string_enum! {
    /// The seven availability states of a signal.
    pub enum SignalAvailability {
        /// Confirmed observable: the only state that lets a verifier judge.
        Available => "available",
        /// The runtime fundamentally cannot expose this signal.
        Unsupported => "unsupported",
        /// The signal exists for this runtime, but this version, configuration or adapter does
        /// not expose it.
        Unavailable => "unavailable",
        /// Observed, then withheld by the redaction boundary.
        Redacted => "redacted",
        /// Collection was attempted and failed.
        CollectionFailed => "collection_failed",
        /// No one declared an opinion.
        Unknown => "unknown",
    }
}

impl SignalAvailability {
    pub fn is_available(&self) -> bool {
        *self == SignalAvailability::Available
    }
}

/// The declared state of one signal class, with a short note (for example the runtime version
/// it was confirmed against).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CapabilitySignal {
    pub availability: SignalAvailability,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// An adapter's declaration of what its transport can observe.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RuntimeCapabilities {
    pub schema_version: u32,
    pub provider: Provider,
    /// The transport this declaration is about.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub transport: Option<SourceKind>,
    #[serde(default)]
    pub signals: BTreeMap<SignalClass, CapabilitySignal>,
    /// Free-form metadata. Reserved keys: [`RuntimeCapabilities::NOTE_SESSION_ID`] and
    /// [`RuntimeCapabilities::NOTE_ADAPTER_VERSION`].
    #[serde(default)]
    pub notes: BTreeMap<String, String>,
}

impl RuntimeCapabilities {
    pub const NOTE_SESSION_ID: &'static str = "session_id";
    pub const NOTE_ADAPTER_VERSION: &'static str = "adapter_version";

    pub fn new(provider: Provider, transport: SourceKind) -> Self {
        RuntimeCapabilities {
            schema_version: CAPABILITIES_SCHEMA_VERSION,
            provider,
            transport: Some(transport),
            signals: BTreeMap::new(),
            notes: BTreeMap::new(),
        }
    }

    /// Builder-style declaration of one signal.
    pub fn declare(
        mut self,
        class: SignalClass,
        availability: SignalAvailability,
        detail: impl Into<String>,
    ) -> Self {
        let detail = detail.into();
        self.signals.insert(
            class,
            CapabilitySignal {
                availability,
                detail: if detail.is_empty() {
                    None
                } else {
                    Some(detail)
                },
            },
        );
        self
    }

    /// The declared availability; `Unknown` when nothing was declared.
    pub fn availability(&self, class: &SignalClass) -> SignalAvailability {
        self.signals
            .get(class)
            .map(|s| s.availability.clone())
            .unwrap_or(SignalAvailability::Unknown)
    }

    pub fn is_available(&self, class: &SignalClass) -> bool {
        self.availability(class).is_available()
    }

    /// Stamps the reserved notes.
    pub fn stamped(mut self, session_id: &str, adapter_version: &str) -> Self {
        self.notes
            .insert(Self::NOTE_SESSION_ID.into(), session_id.into());
        self.notes
            .insert(Self::NOTE_ADAPTER_VERSION.into(), adapter_version.into());
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eleven_classes_seven_states() {
        assert_eq!(SignalClass::known().len(), 11);
        // Six named states plus the Unrecognized tail.
        assert_eq!(SignalAvailability::known().len() + 1, 7);
    }

    #[test]
    fn unknown_names_survive_a_round_trip() {
        let caps: RuntimeCapabilities = serde_json::from_value(serde_json::json!({
            "schema_version": 1,
            "provider": "codex",
            "signals": {"telepathy": {"availability": "partially"}},
            "notes": {}
        }))
        .unwrap();
        let sig = &caps.signals[&SignalClass::Unrecognized("telepathy".into())];
        assert_eq!(
            sig.availability,
            SignalAvailability::Unrecognized("partially".into())
        );
        let back = serde_json::to_value(&caps).unwrap();
        assert_eq!(back["signals"]["telepathy"]["availability"], "partially");
        assert!(!caps.is_available(&SignalClass::Unrecognized("telepathy".into())));
    }

    #[test]
    fn undeclared_reads_unknown() {
        let caps = RuntimeCapabilities::new(Provider::Pi, SourceKind::File).declare(
            SignalClass::ProcessResult,
            SignalAvailability::Available,
            "",
        );
        assert!(caps.is_available(&SignalClass::ProcessResult));
        assert_eq!(
            caps.availability(&SignalClass::Reasoning),
            SignalAvailability::Unknown
        );
    }
}
