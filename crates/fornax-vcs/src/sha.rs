//! Validating a claimed sha before it reaches the object database.

use crate::VcsError;

/// Git refuses shorter prefixes as too ambiguous to mean anything.
const MIN_HEX_LEN: usize = 4;
/// A full SHA-1 object id.
const MAX_HEX_LEN: usize = 40;

/// Parses a claimed 4 to 40 character hex sha (either case) into an object id prefix.
pub(crate) fn parse_prefix(sha: &str) -> Result<gix::hash::Prefix, VcsError> {
    let invalid = || VcsError::InvalidSha {
        sha: sha.to_owned(),
    };
    let well_formed = (MIN_HEX_LEN..=MAX_HEX_LEN).contains(&sha.len())
        && sha.bytes().all(|b| b.is_ascii_hexdigit());
    if !well_formed {
        return Err(invalid());
    }
    gix::hash::Prefix::from_hex(&sha.to_ascii_lowercase()).map_err(|_| invalid())
}
