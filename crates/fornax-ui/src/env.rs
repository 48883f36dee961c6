//! The clock and time zone, read from the environment once, where a command starts.
//!
//! `FORNAX_NOW` (an RFC 3339 time) fixes "now" so that relative times are reproducible (in
//! documentation and tests); `TZ` chooses the zone as usual. Without them: the system clock
//! and the system zone.

use jiff::tz::TimeZone;
use jiff::Timestamp;

use crate::present::Clock;

/// The environment variable that fixes "now".
pub const NOW_VAR: &str = "FORNAX_NOW";

/// "Now" from `FORNAX_NOW` when it is set and valid, else the system clock.
pub fn now() -> Timestamp {
    std::env::var(NOW_VAR)
        .ok()
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(Timestamp::now)
}

/// The display clock: `utc` shows absolute UTC times instead of relative local ones.
pub fn clock(utc: bool) -> Clock {
    let tz = TimeZone::try_system().unwrap_or(TimeZone::UTC);
    Clock::new(now(), tz, utc)
}
