//! From the tracker's verdict on a record to the adapter contract's outcome.

use fornax_types::{IngestMessage, NormalizationOutcome};

use crate::tracker::Handled;

/// Messages always win: a record that announced a session is never reported as ignored.
pub(crate) fn outcome(handled: Handled, out: Vec<IngestMessage>) -> NormalizationOutcome {
    match handled {
        Handled::Done => NormalizationOutcome::Messages(out),
        _ if !out.is_empty() => NormalizationOutcome::Messages(out),
        Handled::Ignored(reason) => NormalizationOutcome::Ignored { reason },
        Handled::Unknown(discriminator) => NormalizationOutcome::Unrecognized { discriminator },
    }
}

/// A checkpoint envelope: versioned so that a snapshot from another layout is refused.
pub(crate) const CHECKPOINT_VERSION: u64 = 1;
