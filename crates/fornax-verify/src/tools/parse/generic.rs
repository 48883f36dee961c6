//! Home-grown runners that print a plain closing line.

use std::sync::LazyLock;

use regex::Regex;

use super::*;

/// Every `N passed, M failed` line summed, or `All N tests passed`.
pub fn generic(out: &str) -> Option<TestReport> {
    static PAIR: LazyLock<Regex> = LazyLock::new(|| {
        re(
            r"(?mi)^\W*(?:tests?:?\s*)?(\d+) (?:tests? )?passed[,;]\s*(\d+) (?:tests? )?failed(?-u:\b)|^\W*(?:tests?:?\s*)?(\d+) (?:tests? )?failed[,;]\s*(\d+) (?:tests? )?passed(?-u:\b)",
        )
    });
    static ALL: LazyLock<Regex> = LazyLock::new(|| re(r"(?mi)^\W*all (\d+) tests? passed(?-u:\b)"));
    let mut r = TestReport::new("generic");
    let mut any = false;
    for c in PAIR.captures_iter(out) {
        any = true;
        if c.get(1).is_some() {
            add(&mut r.passed, num(c.get(1)));
            add(&mut r.failed, num(c.get(2)));
        } else {
            add(&mut r.failed, num(c.get(3)));
            add(&mut r.passed, num(c.get(4)));
        }
    }
    if any {
        return Some(r);
    }
    let c = ALL.captures_iter(out).last()?;
    r.passed = Some(num(c.get(1)));
    r.failed = Some(0);
    Some(r)
}
