//! opencode writes times as epoch milliseconds; the canonical model speaks ISO 8601 (UTC).

/// `1773249614641` → `2026-03-11T17:20:14.641Z`. `None` outside years 1970..=9999.
pub(crate) fn iso_from_millis(ms: i64) -> Option<String> {
    // 253402300800000 ms is 10000-01-01T00:00:00Z.
    if !(0..253_402_300_800_000).contains(&ms) {
        return None;
    }
    let secs = ms.div_euclid(1000);
    let millis = ms.rem_euclid(1000);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    Some(format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{millis:03}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    ))
}

/// Days since 1970-01-01 to a proleptic Gregorian (year, month, day).
fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_instants() {
        assert_eq!(
            iso_from_millis(0).as_deref(),
            Some("1970-01-01T00:00:00.000Z")
        );
        assert_eq!(
            iso_from_millis(1_773_249_614_641).as_deref(),
            Some("2026-03-11T17:20:14.641Z")
        );
        assert_eq!(
            iso_from_millis(951_782_400_000).as_deref(),
            Some("2000-02-29T00:00:00.000Z")
        );
        assert_eq!(iso_from_millis(-1), None);
        assert_eq!(iso_from_millis(i64::MAX), None);
    }
}
