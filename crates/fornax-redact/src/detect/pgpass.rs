//! PostgreSQL password files: `host:port:database:user:password` lines (`~/.pgpass`). The
//! trigger is the port field (`:5432:`, a wildcard `:*:`); the line must have exactly five
//! fields with no blanks, and the last is the password.

use crate::bytes::{line_end, line_start};
use crate::span::Findings;
use crate::SecretKind;

/// Handles a port field found at `hit` (its first colon).
pub(crate) fn line(bytes: &[u8], hit: usize, found: &mut Findings) {
    let (start, end) = (line_start(bytes, hit), line_end(bytes, hit));
    let line = &bytes[start..end];
    if line.len() > 512 || line.iter().any(|b| b.is_ascii_whitespace()) {
        return;
    }
    let colons: Vec<usize> = line
        .iter()
        .enumerate()
        .filter(|(_, &b)| b == b':')
        .map(|(i, _)| start + i)
        .collect();
    let [host_end, port_end, db_end, user_end] = colons[..] else {
        return;
    };
    if host_end != hit || host_end == start || db_end == port_end + 1 || user_end == db_end + 1 {
        return;
    }
    let port = &bytes[host_end + 1..port_end];
    if !(port == b"*" || (!port.is_empty() && port.iter().all(u8::is_ascii_digit))) {
        return;
    }
    if user_end + 1 < end {
        found.push(user_end + 1, end, SecretKind::SecretAssignment);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn find(text: &str) -> Vec<&str> {
        let mut found = Findings::default();
        let hit = text.find(':').unwrap();
        line(text.as_bytes(), hit, &mut found);
        found.spans.iter().map(|s| &text[s.start..s.end]).collect()
    }

    #[test]
    fn five_fields_with_a_port() {
        assert_eq!(find("db.internal:5432:orders:svc:S3cret"), vec!["S3cret"]);
        assert_eq!(find("*:*:*:app:pw9"), vec!["pw9"]);
        assert!(find("localhost:5432:orders").is_empty());
        assert!(find("a:5432:b:c:d:e").is_empty());
        assert!(find("time 12:5432:10:11:12 ok").is_empty());
    }
}
