//! The evidence-sensor contract: one shared shape for everything that turns canonical events
//! into [`Evidence`].

use crate::{Evidence, Item, RuntimeCapabilities, SignalAvailability, SignalClass, TrustClass};

/// What a sensor looks at: an item and, for a tool output, the call it answers.
#[derive(Debug, Clone, Copy)]
pub struct SensorInput<'a> {
    pub item: &'a Item,
    pub call: Option<&'a Item>,
}

/// What a sensor found. A struct, not an enum, so partial availability can be told honestly.
#[derive(Debug, Clone, PartialEq)]
pub struct SensorOutcome {
    pub evidence: Vec<Evidence>,
    pub state: SignalAvailability,
    pub detail: Option<String>,
}

impl SensorOutcome {
    pub fn nothing() -> Self {
        SensorOutcome {
            evidence: Vec::new(),
            state: SignalAvailability::Available,
            detail: None,
        }
    }

    pub fn collected(evidence: Vec<Evidence>) -> Self {
        SensorOutcome {
            evidence,
            state: SignalAvailability::Available,
            detail: None,
        }
    }

    pub fn unobservable(state: SignalAvailability, detail: impl Into<String>) -> Self {
        SensorOutcome {
            evidence: Vec::new(),
            state,
            detail: Some(detail.into()),
        }
    }
}

pub trait EvidenceSensor {
    fn name(&self) -> &'static str;
    fn required_capabilities(&self) -> &'static [SignalClass];
    fn trust_class(&self) -> TrustClass;
    fn collect(&self, input: &SensorInput<'_>, caps: &RuntimeCapabilities) -> SensorOutcome;
}
