//! The words of a verdict: a finding's rationale as sentences a person reads.
//!
//! The stored rationale cites its evidence by internal id (`[exit:out:toolu_02]`) and marks
//! how exit codes were known (`(structural)`); those are for `--verbose` and for tools. For
//! everyone else they are taken out, and nothing else of the sentence changes: the fact that
//! decides the verdict is always kept whole.

/// The rationale for reading: evidence-id citations and strength markers removed.
/// A bracket goes when everything in it is an evidence id: one the finding cites
/// (`evidence_ids`) or one shaped like an id (`file:toolu_01:/src/a.rs`: a lowercase name, a
/// colon, no spaces).
pub fn readable(rationale: &str, evidence_ids: &[&str]) -> String {
    let mut out = String::with_capacity(rationale.len());
    let mut rest = rationale;
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find(']').map(|c| open + c) else {
            break;
        };
        let inner = &rest[open + 1..close];
        if cites_only_evidence(inner, evidence_ids) {
            out.push_str(rest[..open].trim_end_matches(' '));
        } else {
            out.push_str(&rest[..=close]);
        }
        rest = &rest[close + 1..];
    }
    out.push_str(rest);
    for marker in [" (structural)", " (heuristic)"] {
        out = out.replace(marker, "");
    }
    out
}

fn cites_only_evidence(inner: &str, ids: &[&str]) -> bool {
    !inner.is_empty()
        && inner
            .split(", ")
            .all(|p| ids.contains(&p) || looks_like_id(p))
}

fn looks_like_id(part: &str) -> bool {
    let Some((kind, rest)) = part.split_once(':') else {
        return false;
    };
    !kind.is_empty()
        && kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
        && !rest.is_empty()
        && !rest.contains(char::is_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_strength_markers_go_the_facts_stay() {
        let r = "The latest relevant run `cargo test 2>&1 | tail -20` at 2026-03-14T08:00:15.000Z \
                 [exit:out:toolu_02, tests:out:toolu_02] failed: exit 0 (structural); summary \
                 (cargo 11 passed, 1 failed).";
        assert_eq!(
            readable(r, &["exit:out:toolu_02", "tests:out:toolu_02"]),
            "The latest relevant run `cargo test 2>&1 | tail -20` at 2026-03-14T08:00:15.000Z \
             failed: exit 0; summary (cargo 11 passed, 1 failed)."
        );
    }

    #[test]
    fn brackets_that_are_not_citations_stay() {
        let r = "Edit of [src]/a.rs [file:t1] succeeded; `ls [a-z]` ran [REDACTED:github_token].";
        assert_eq!(
            readable(r, &["file:t1"]),
            "Edit of [src]/a.rs succeeded; `ls [a-z]` ran [REDACTED:github_token]."
        );
        assert_eq!(
            readable(
                "fresh (after Edit of a.rs [file:toolu_01:/home/a.rs]).",
                &[]
            ),
            "fresh (after Edit of a.rs)."
        );
        assert_eq!(readable("see [note: later]", &[]), "see [note: later]");
        assert_eq!(readable("unclosed [bracket", &[]), "unclosed [bracket");
    }
}
