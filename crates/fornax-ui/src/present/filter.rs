//! Filters people type: `--since 2d`, `--until yesterday`, `--provider claude`,
//! `--verdict contradicted,review`, `--limit 50`. One parser for every command and page, so
//! that each accepts and refuses exactly the same values, and a refusal names the accepted
//! forms.

use std::fmt;

use fornax_types::{Provider, Verdict};
use jiff::civil::{Date, DateTime};
use jiff::{Timestamp, ToSpan};

use super::clock::{stored_form, Clock};

/// Which end of a time range a value bounds. A day given as `--until` includes that day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Bound {
    Since,
    Until,
}

impl Bound {
    fn flag(self) -> &'static str {
        match self {
            Bound::Since => "--since",
            Bound::Until => "--until",
        }
    }
}

/// The accepted forms of a time, as the error message states them.
pub const TIME_FORMS: &str = "a duration back from now (30m, 12h, 2d, 1w, 3mo), `today`, \
    `yesterday`, `now`, a date (2026-03-14) or a date and time (2026-03-14T09:30, \
    2026-03-14 09:30, 2026-03-14T09:30:00Z); dates and times without an offset are local";

/// A value that is not one of the accepted forms. Its message names the flag, the value and
/// what would have been accepted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FilterError {
    #[error("invalid {flag} {value:?}")]
    Time { flag: &'static str, value: String },
    #[error("--since {since} is not before --until {until}")]
    EmptyRange { since: String, until: String },
    #[error("unknown provider {value:?}")]
    Provider { value: String, known: Vec<String> },
    #[error("unknown verdict {value:?}")]
    Verdict { value: String },
    #[error("--project is empty")]
    Project,
    #[error("invalid --limit {value:?}")]
    Limit { value: String },
}

impl FilterError {
    /// What would have been accepted, for a hint line.
    pub fn accepted(&self) -> String {
        match self {
            FilterError::Time { .. } => format!("use {TIME_FORMS}"),
            FilterError::EmptyRange { .. } => "give an earlier --since or a later --until".into(),
            FilterError::Provider { known, .. } => format!("one of {}", known.join(", ")),
            FilterError::Verdict { .. } => format!(
                "one or more (comma-separated) of {}",
                Verdict::ALL.map(|v| v.as_str()).join(", ")
            ),
            FilterError::Project => "text contained in the session's working directory".into(),
            FilterError::Limit { .. } => "a positive number, or `all`".into(),
        }
    }
}

/// How many rows to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    All,
    First(usize),
}

impl Limit {
    /// The row bound for a store read (`0` reads everything).
    pub fn rows(self) -> usize {
        match self {
            Limit::All => 0,
            Limit::First(n) => n,
        }
    }
}

impl fmt::Display for Limit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Limit::All => f.write_str("all"),
            Limit::First(n) => write!(f, "{n}"),
        }
    }
}

/// Parses `--limit`: a positive number or `all`.
pub fn parse_limit(value: &str) -> Result<Limit, FilterError> {
    let v = value.trim();
    if v.eq_ignore_ascii_case("all") {
        return Ok(Limit::All);
    }
    match v.parse::<usize>() {
        Ok(n) if n > 0 => Ok(Limit::First(n)),
        _ => Err(FilterError::Limit {
            value: value.to_string(),
        }),
    }
}

/// Parses a time bound relative to `clock`.
pub fn parse_time(value: &str, clock: &Clock, bound: Bound) -> Result<Timestamp, FilterError> {
    time(value.trim(), clock, bound).ok_or_else(|| FilterError::Time {
        flag: bound.flag(),
        value: value.to_string(),
    })
}

fn time(v: &str, clock: &Clock, bound: Bound) -> Option<Timestamp> {
    let lower = v.to_ascii_lowercase();
    let day = |date: Date| match bound {
        Bound::Since => clock.start_of(date),
        Bound::Until => clock.start_of(date.checked_add(1.day()).ok()?),
    };
    match lower.as_str() {
        "" => return None,
        "now" => return Some(clock.now()),
        "today" => return day(clock.today()),
        "yesterday" => return day(clock.today().checked_sub(1.day()).ok()?),
        _ => {}
    }
    if let Some(ts) = duration_back(&lower, clock) {
        return Some(ts);
    }
    if let Ok(ts) = v.parse::<Timestamp>() {
        return Some(ts);
    }
    if let Ok(date) = v.parse::<Date>() {
        // `2026-03-14` parses as a date-time too; as a day it is the whole day.
        if v.len() <= 10 {
            return day(date);
        }
    }
    let dt: DateTime = v.replacen(' ', "T", 1).parse().ok()?;
    dt.to_zoned(clock.tz().clone()).ok().map(|z| z.timestamp())
}

/// `2d`, `12 h`, `30min`, `1w ago`, `3mo`: that long before now.
fn duration_back(v: &str, clock: &Clock) -> Option<Timestamp> {
    let v = v.strip_suffix(" ago").unwrap_or(v).trim();
    let digits = v.find(|c: char| !c.is_ascii_digit())?;
    let (n, unit) = v.split_at(digits);
    let n: i64 = n.parse().ok().filter(|n| *n <= 100_000)?;
    let now = clock.now_zoned();
    let earlier = match unit.trim() {
        "s" | "sec" | "secs" | "second" | "seconds" => now.checked_sub(n.seconds()),
        "m" | "min" | "mins" | "minute" | "minutes" => now.checked_sub(n.minutes()),
        "h" | "hr" | "hrs" | "hour" | "hours" => now.checked_sub(n.hours()),
        "d" | "day" | "days" => now.checked_sub(n.days()),
        "w" | "week" | "weeks" => now.checked_sub(n.weeks()),
        "mo" | "month" | "months" => now.checked_sub(n.months()),
        "y" | "year" | "years" => now.checked_sub(n.years()),
        _ => return None,
    };
    earlier.ok().map(|z| z.timestamp())
}

/// Parses `--provider` against the providers this build can read (aliases such as `claude`
/// included). Returns the wire name.
pub fn parse_provider(value: &str, known: &[Provider]) -> Result<String, FilterError> {
    let p = Provider::parse(value.trim());
    if known.contains(&p) {
        Ok(p.as_str().to_string())
    } else {
        Err(FilterError::Provider {
            value: value.to_string(),
            known: known.iter().map(|k| k.as_str().to_string()).collect(),
        })
    }
}

/// Parses `--verdict`: one verdict or several, comma-separated, any case.
pub fn parse_verdicts(value: &str) -> Result<Vec<Verdict>, FilterError> {
    let mut out = Vec::new();
    for part in value.split(',').map(str::trim) {
        let v = Verdict::parse(part).ok_or_else(|| FilterError::Verdict {
            value: part.to_string(),
        })?;
        if !out.contains(&v) {
            out.push(v);
        }
    }
    Ok(out)
}

/// Filters as typed, before validation (each `None` when not given).
#[derive(Debug, Clone, Default)]
pub struct FilterInput {
    pub since: Option<String>,
    pub until: Option<String>,
    pub provider: Option<String>,
    pub project: Option<String>,
    pub verdict: Option<String>,
}

/// Validated filters, shared by `findings`, `sessions`, `search` and the web pages.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Filters {
    pub since: Option<Timestamp>,
    pub until: Option<Timestamp>,
    /// A provider's wire name.
    pub provider: Option<String>,
    /// Text contained in the working directory.
    pub project: Option<String>,
    pub verdicts: Vec<Verdict>,
}

fn given(v: &Option<String>) -> Option<&str> {
    v.as_deref().filter(|s| !s.trim().is_empty())
}

impl FilterInput {
    /// Validates every value; the first bad one is the error.
    pub fn parse(&self, clock: &Clock, providers: &[Provider]) -> Result<Filters, FilterError> {
        let since = given(&self.since)
            .map(|v| parse_time(v, clock, Bound::Since))
            .transpose()?;
        let until = given(&self.until)
            .map(|v| parse_time(v, clock, Bound::Until))
            .transpose()?;
        if let (Some(s), Some(u)) = (since, until) {
            if s >= u {
                return Err(FilterError::EmptyRange {
                    since: self.since.clone().unwrap_or_default(),
                    until: self.until.clone().unwrap_or_default(),
                });
            }
        }
        let provider = given(&self.provider)
            .map(|v| parse_provider(v, providers))
            .transpose()?;
        let project = match &self.project {
            Some(p) if p.trim().is_empty() => return Err(FilterError::Project),
            Some(p) => Some(p.trim().to_string()),
            None => None,
        };
        let verdicts = given(&self.verdict)
            .map(parse_verdicts)
            .transpose()?
            .unwrap_or_default();
        Ok(Filters {
            since,
            until,
            provider,
            project,
            verdicts,
        })
    }
}

impl Filters {
    pub fn since_stored(&self) -> Option<String> {
        self.since.map(stored_form)
    }

    pub fn until_stored(&self) -> Option<String> {
        self.until.map(stored_form)
    }

    pub fn verdict_names(&self) -> Vec<String> {
        self.verdicts
            .iter()
            .map(|v| v.as_str().to_string())
            .collect()
    }

    pub fn is_empty(&self) -> bool {
        *self == Filters::default()
    }

    /// The same filter as the store reads it.
    pub fn list_filter(&self) -> fornax_store::ListFilter {
        fornax_store::ListFilter {
            provider: self.provider.clone(),
            project: self.project.clone(),
            since: self.since_stored(),
            until: self.until_stored(),
            verdicts: self.verdict_names(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::tz::TimeZone;

    fn clock() -> Clock {
        // Friday 2026-03-20 12:00 UTC; the local zone is UTC+1.
        Clock::new(
            "2026-03-20T12:00:00Z".parse().unwrap(),
            TimeZone::fixed(jiff::tz::offset(1)),
            false,
        )
    }

    fn since(v: &str) -> String {
        stored_form(parse_time(v, &clock(), Bound::Since).unwrap())
    }

    fn until(v: &str) -> String {
        stored_form(parse_time(v, &clock(), Bound::Until).unwrap())
    }

    #[test]
    fn durations_count_back_from_now() {
        assert_eq!(since("2d"), "2026-03-18T12:00:00.000Z");
        assert_eq!(since("12h"), "2026-03-20T00:00:00.000Z");
        assert_eq!(since("30 min"), "2026-03-20T11:30:00.000Z");
        assert_eq!(since("1w ago"), "2026-03-13T12:00:00.000Z");
        assert_eq!(since("1mo"), "2026-02-20T12:00:00.000Z");
        assert_eq!(since("now"), "2026-03-20T12:00:00.000Z");
    }

    #[test]
    fn days_are_local_and_until_includes_the_day() {
        assert_eq!(since("today"), "2026-03-19T23:00:00.000Z");
        assert_eq!(since("yesterday"), "2026-03-18T23:00:00.000Z");
        assert_eq!(until("yesterday"), "2026-03-19T23:00:00.000Z");
        assert_eq!(since("2026-03-14"), "2026-03-13T23:00:00.000Z");
        assert_eq!(until("2026-03-14"), "2026-03-14T23:00:00.000Z");
        assert_eq!(since("2026-03-14T09:30"), "2026-03-14T08:30:00.000Z");
        assert_eq!(since("2026-03-14 09:30:15"), "2026-03-14T08:30:15.000Z");
        assert_eq!(since("2026-03-14T09:30:00Z"), "2026-03-14T09:30:00.000Z");
        assert_eq!(
            since("2026-03-14T09:30:00+02:00"),
            "2026-03-14T07:30:00.000Z"
        );
    }

    #[test]
    fn bad_times_name_the_flag_and_the_forms() {
        for bad in ["yesterdy", "2x", "-2d", "2026-13-01", "d", "", "9999999d"] {
            let err = parse_time(bad, &clock(), Bound::Since).unwrap_err();
            assert_eq!(err.to_string(), format!("invalid --since {bad:?}"));
            assert!(err.accepted().contains("2026-03-14"), "{}", err.accepted());
        }
        let err = parse_time("soon", &clock(), Bound::Until).unwrap_err();
        assert_eq!(err.to_string(), "invalid --until \"soon\"");
    }

    #[test]
    fn filters_validate_every_value() {
        let known = [Provider::ClaudeCode, Provider::Codex];
        let input = FilterInput {
            since: Some("2d".into()),
            until: Some("today".into()),
            provider: Some("claude".into()),
            project: Some(" ledger ".into()),
            verdict: Some("contradicted, Review".into()),
        };
        let f = input.parse(&clock(), &known).unwrap();
        assert_eq!(f.provider.as_deref(), Some("claude-code"));
        assert_eq!(f.project.as_deref(), Some("ledger"));
        assert_eq!(f.verdicts, vec![Verdict::Contradicted, Verdict::Review]);

        let bad = |input: FilterInput| input.parse(&clock(), &known).unwrap_err();
        let e = bad(FilterInput {
            provider: Some("nope".into()),
            ..Default::default()
        });
        assert_eq!(e.accepted(), "one of claude-code, codex");
        assert!(matches!(
            bad(FilterInput {
                verdict: Some("verified,wrong".into()),
                ..Default::default()
            }),
            FilterError::Verdict { value } if value == "wrong"
        ));
        assert_eq!(
            bad(FilterInput {
                project: Some(" ".into()),
                ..Default::default()
            }),
            FilterError::Project
        );
        assert!(matches!(
            bad(FilterInput {
                since: Some("today".into()),
                until: Some("yesterday".into()),
                ..Default::default()
            }),
            FilterError::EmptyRange { .. }
        ));
    }

    #[test]
    fn limits_are_positive_or_all() {
        assert_eq!(parse_limit("20"), Ok(Limit::First(20)));
        assert_eq!(parse_limit("ALL"), Ok(Limit::All));
        for bad in ["0", "-1", "ten", ""] {
            assert!(parse_limit(bad).is_err(), "{bad}");
        }
    }
}
