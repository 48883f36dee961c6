//! RFC 3339 timestamps from the host clock.

use std::time::SystemTime;

/// `2026-05-01T12:34:56.789Z` for `at` (UTC, milliseconds).
pub fn rfc3339(at: SystemTime) -> String {
    match jiff::Timestamp::try_from(at) {
        Ok(t) => format!("{t:.3}"),
        // Outside jiff's range (years -9999..=9999): the epoch, never a panic.
        Err(_) => "1970-01-01T00:00:00.000Z".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, UNIX_EPOCH};

    #[test]
    fn formats_known_instants() {
        assert_eq!(rfc3339(UNIX_EPOCH), "1970-01-01T00:00:00.000Z");
        let t = UNIX_EPOCH + Duration::from_millis(1_709_210_096_123);
        assert_eq!(rfc3339(t), "2024-02-29T12:34:56.123Z");
    }
}
