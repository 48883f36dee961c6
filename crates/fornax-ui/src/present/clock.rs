//! Times as people read them: relative to now, in the local time zone (or UTC on request).
//!
//! Stored times are RFC 3339 strings written by agents or by Fornax. A time that does not
//! parse is shown as written, never dropped and never a panic.

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::{Timestamp, ToSpan, Zoned};

/// "Now" and the zone to show times in. Fixed by the caller, so output is reproducible.
#[derive(Debug, Clone)]
pub struct Clock {
    now: Timestamp,
    tz: TimeZone,
    utc: bool,
}

impl Clock {
    /// `utc` shows every time as an absolute UTC time instead of a relative local one.
    pub fn new(now: Timestamp, tz: TimeZone, utc: bool) -> Clock {
        let tz = if utc { TimeZone::UTC } else { tz };
        Clock { now, tz, utc }
    }

    pub fn now(&self) -> Timestamp {
        self.now
    }

    pub fn tz(&self) -> &TimeZone {
        &self.tz
    }

    pub fn is_utc(&self) -> bool {
        self.utc
    }

    /// Now in the display zone.
    pub fn now_zoned(&self) -> Zoned {
        self.now.to_zoned(self.tz.clone())
    }

    /// The start of `date` in the display zone.
    pub fn start_of(&self, date: Date) -> Option<Timestamp> {
        date.to_zoned(self.tz.clone()).ok().map(|z| z.timestamp())
    }

    /// Today's date in the display zone.
    pub fn today(&self) -> Date {
        self.now_zoned().date()
    }

    /// A short time for a listing: `just now`, `12 min ago`, `5 h ago`, `yesterday 14:02`,
    /// `3 days ago`, `Mar 14`, `2025-12-09`; with `utc`, `2026-03-14 08:12Z`.
    pub fn when(&self, stored: &str) -> String {
        let Some(ts) = parse(stored) else {
            return stored.to_string();
        };
        if self.utc {
            return self.absolute_ts(ts);
        }
        let secs = self.now.as_second() - ts.as_second();
        if secs < -60 {
            return self.absolute_ts(ts);
        }
        let secs = secs.max(0);
        let zoned = ts.to_zoned(self.tz.clone());
        let today = self.today();
        match secs {
            0..60 => "just now".to_string(),
            60..3600 => format!("{} min ago", secs / 60),
            _ if zoned.date() == today => format!("{} h ago", secs / 3600),
            _ if Some(zoned.date()) == today.checked_sub(1.day()).ok() => {
                format!("yesterday {}", zoned.strftime("%H:%M"))
            }
            _ if secs < 7 * 86_400 => {
                let days = today.since(zoned.date()).map_or(0, |span| span.get_days());
                format!("{} days ago", days.max(2))
            }
            _ if zoned.year() == self.now_zoned().year() => zoned.strftime("%b %-d").to_string(),
            _ => zoned.strftime("%Y-%m-%d").to_string(),
        }
    }

    /// A full time to the minute in the local zone with its offset (`2026-03-14 09:12 +01:00`),
    /// or in UTC (`2026-03-14 08:12Z`) with `utc` or when the zone's offset is zero.
    pub fn absolute(&self, stored: &str) -> String {
        match parse(stored) {
            Some(ts) => self.absolute_ts(ts),
            None => stored.to_string(),
        }
    }

    fn absolute_ts(&self, ts: Timestamp) -> String {
        let zoned = ts.to_zoned(self.tz.clone());
        if self.utc || zoned.offset().seconds() == 0 {
            zoned.strftime("%Y-%m-%d %H:%MZ").to_string()
        } else {
            zoned.strftime("%Y-%m-%d %H:%M %:z").to_string()
        }
    }
}

/// Parses a stored time: RFC 3339 with an offset or `Z`; a time without an offset is read as
/// UTC (agents that omit it write UTC).
pub fn parse(stored: &str) -> Option<Timestamp> {
    let s = stored.trim();
    if let Ok(ts) = s.parse::<Timestamp>() {
        return Some(ts);
    }
    s.parse::<jiff::civil::DateTime>()
        .ok()
        .and_then(|dt| dt.to_zoned(TimeZone::UTC).ok())
        .map(|z| z.timestamp())
}

/// The form times are stored in (`2026-03-14T08:00:20.000Z`), for comparing with stored
/// strings.
pub fn stored_form(ts: Timestamp) -> String {
    ts.strftime("%Y-%m-%dT%H:%M:%S.%3fZ").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(now: &str, tz: TimeZone) -> Clock {
        Clock::new(now.parse().unwrap(), tz, false)
    }

    #[test]
    fn relative_times_read_naturally() {
        let c = clock("2026-03-20T12:00:00Z", TimeZone::UTC);
        assert_eq!(c.when("2026-03-20T11:59:30.000Z"), "just now");
        assert_eq!(c.when("2026-03-20T11:48:00Z"), "12 min ago");
        assert_eq!(c.when("2026-03-20T07:00:00Z"), "5 h ago");
        assert_eq!(c.when("2026-03-19T14:02:00Z"), "yesterday 14:02");
        assert_eq!(c.when("2026-03-17T09:00:00Z"), "3 days ago");
        assert_eq!(c.when("2026-03-14T08:00:00Z"), "6 days ago");
        assert_eq!(c.when("2026-03-10T08:00:00Z"), "Mar 10");
        assert_eq!(c.when("2025-12-09T19:48:08.021Z"), "2025-12-09");
        assert_eq!(c.when("2026-03-21T12:00:00Z"), "2026-03-21 12:00Z");
    }

    #[test]
    fn local_zone_decides_the_day_and_utc_switches_to_absolute() {
        // 23:30 UTC on the 19th is already the 20th in UTC+2: "today", hours ago.
        let plus2 = TimeZone::fixed(jiff::tz::offset(2));
        let c = clock("2026-03-20T12:00:00Z", plus2.clone());
        assert_eq!(c.when("2026-03-19T23:30:00Z"), "12 h ago");
        assert_eq!(
            c.absolute("2026-03-19T23:30:00Z"),
            "2026-03-20 01:30 +02:00"
        );
        let utc = Clock::new("2026-03-20T12:00:00Z".parse().unwrap(), plus2, true);
        assert_eq!(utc.when("2026-03-19T23:30:00Z"), "2026-03-19 23:30Z");
    }

    #[test]
    fn unparsable_times_are_shown_as_written() {
        let c = clock("2026-03-20T12:00:00Z", TimeZone::UTC);
        assert_eq!(c.when("[trimmed for fixture]"), "[trimmed for fixture]");
        assert_eq!(c.absolute(""), "");
        assert_eq!(c.when("2026-03-20T11:00:00"), "1 h ago");
    }

    #[test]
    fn stored_form_matches_what_the_store_holds() {
        let ts: Timestamp = "2026-03-14T08:00:20Z".parse().unwrap();
        assert_eq!(stored_form(ts), "2026-03-14T08:00:20.000Z");
    }
}
