//! Runtimes write times as epoch seconds or milliseconds; the canonical model speaks ISO 8601
//! (UTC, millisecond precision, `Z`).

/// 10000-01-01T00:00:00Z in milliseconds: the first instant that no longer has four digits.
const END_OF_YEAR_9999_MS: i64 = 253_402_300_800_000;

/// `1773249614641` → `2026-03-11T17:20:14.641Z`. `None` outside years 1970..=9999.
pub fn iso_from_millis(ms: i64) -> Option<String> {
    if !(0..END_OF_YEAR_9999_MS).contains(&ms) {
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

/// Epoch seconds, possibly fractional (`1785015470`, `1785015470.25`), as ISO 8601. `None`
/// for a non-finite value or one outside years 1970..=9999.
pub fn iso_from_secs(secs: f64) -> Option<String> {
    if !secs.is_finite() {
        return None;
    }
    let ms = (secs * 1000.0).round();
    if !(0.0..END_OF_YEAR_9999_MS as f64).contains(&ms) {
        return None;
    }
    iso_from_millis(ms as i64)
}

/// An epoch timestamp in a JSON value, read as seconds or milliseconds by its magnitude: a
/// number below 10^11 is seconds (10^11 s is the year 5138; as milliseconds it would be 1973).
pub fn iso_from_epoch(v: &serde_json::Value) -> Option<String> {
    let n = v.as_f64()?;
    if n.abs() < 1e11 {
        iso_from_secs(n)
    } else {
        iso_from_millis(v.as_i64().unwrap_or(n.round() as i64))
    }
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
    use serde_json::json;

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

    #[test]
    fn seconds_and_their_magnitude() {
        assert_eq!(
            iso_from_secs(1_785_015_470.0).as_deref(),
            Some("2026-07-25T21:37:50.000Z")
        );
        assert_eq!(
            iso_from_secs(1.25).as_deref(),
            Some("1970-01-01T00:00:01.250Z")
        );
        assert_eq!(iso_from_secs(f64::NAN), None);
        assert_eq!(iso_from_secs(-5.0), None);
        assert_eq!(
            iso_from_epoch(&json!(1_785_015_470)).as_deref(),
            Some("2026-07-25T21:37:50.000Z")
        );
        assert_eq!(
            iso_from_epoch(&json!(1_773_249_614_641_i64)).as_deref(),
            Some("2026-03-11T17:20:14.641Z")
        );
        assert_eq!(iso_from_epoch(&json!("1785015470")), None);
        assert_eq!(iso_from_epoch(&json!(1e300)), None);
    }
}
