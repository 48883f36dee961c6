//! The five verdicts as people read them: in order of what needs attention first, with a
//! symbol, a one-line meaning and a longer explanation.

use std::collections::BTreeMap;

use fornax_types::Verdict;

/// The verdicts, most urgent first: what a reader must look at before anything else.
///
/// A CONTRADICTED claim is one the evidence refutes; REVIEW needs a person; UNVERIFIED and
/// UNAVAILABLE are open questions; VERIFIED needs nothing.
pub const SEVERITY: [Verdict; 5] = [
    Verdict::Contradicted,
    Verdict::Review,
    Verdict::Unverified,
    Verdict::Unavailable,
    Verdict::Verified,
];

/// Position in [`SEVERITY`] (0 is the most urgent).
pub fn rank(v: Verdict) -> usize {
    SEVERITY
        .iter()
        .position(|s| *s == v)
        .unwrap_or(SEVERITY.len())
}

/// Rank of a verdict as stored (its wire name); unknown names sort last.
pub fn rank_name(name: &str) -> usize {
    Verdict::parse(name).map_or(SEVERITY.len(), rank)
}

/// A one-character mark, the same in the terminal, the status line and the web page.
pub fn symbol(v: Verdict) -> &'static str {
    match v {
        Verdict::Contradicted => "✘",
        Verdict::Review => "?",
        Verdict::Unverified => "·",
        Verdict::Unavailable => "∅",
        Verdict::Verified => "✔",
    }
}

/// A lowercase CSS-friendly name (`contradicted`, ...).
pub fn slug(v: Verdict) -> &'static str {
    match v {
        Verdict::Contradicted => "contradicted",
        Verdict::Review => "review",
        Verdict::Unverified => "unverified",
        Verdict::Unavailable => "unavailable",
        Verdict::Verified => "verified",
    }
}

/// What the verdict says, in one line.
pub fn meaning(v: Verdict) -> &'static str {
    match v {
        Verdict::Contradicted => "the latest relevant evidence says the opposite of the claim",
        Verdict::Review => {
            "evidence exists but is partial, filtered, stale, interrupted or conflicting"
        }
        Verdict::Unverified => "no evidence for the claim was recorded",
        Verdict::Unavailable => "the agent's records cannot carry the evidence the claim needs",
        Verdict::Verified => "the latest relevant, fresh, complete evidence confirms the claim",
    }
}

/// What the verdict means and what to do about it, as a short paragraph.
pub fn explanation(v: Verdict) -> &'static str {
    match v {
        Verdict::Contradicted => {
            "The evidence recorded in the session refutes the claim: the last relevant run \
             before it failed, or the commit it names was not created. Absence of evidence is \
             never a contradiction. Read the evidence before trusting anything that depends \
             on the claim."
        }
        Verdict::Review => {
            "There is evidence, but it does not settle the claim: the run covered only part of \
             what the claim is about (a filter, one package), it was interrupted, files changed \
             after it, or two runs disagree. A person should look."
        }
        Verdict::Unverified => {
            "Nothing the session recorded speaks to the claim: the command it names was never \
             run, or no run of that kind appears before it. It may still be true; Fornax has \
             not seen it."
        }
        Verdict::Unavailable => {
            "The way this session was captured cannot show what the claim needs (for example, \
             hooks that report only failures cannot confirm a success). Capture more (a \
             transcript, more hooks) to judge such claims."
        }
        Verdict::Verified => {
            "The latest relevant evidence before the claim confirms it, is fresh (no file \
             changed after the run) and covers everything the claim is about."
        }
    }
}

/// Counts keyed by verdict wire name, in [`SEVERITY`] order, zeros left out.
pub fn ordered_counts(counts: &BTreeMap<String, i64>) -> Vec<(Verdict, i64)> {
    SEVERITY
        .iter()
        .filter_map(|v| {
            let n = counts.get(v.as_str()).copied().unwrap_or(0);
            (n > 0).then_some((*v, n))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn severity_holds_every_verdict_once_most_urgent_first() {
        let mut seen: Vec<Verdict> = SEVERITY.to_vec();
        seen.sort();
        let mut all = Verdict::ALL.to_vec();
        all.sort();
        assert_eq!(seen, all);
        assert_eq!(rank(Verdict::Contradicted), 0);
        assert_eq!(rank(Verdict::Verified), 4);
        assert_eq!(rank_name("review"), 1);
        assert_eq!(rank_name("SOMETHING"), 5);
    }

    #[test]
    fn counts_come_out_by_severity() {
        let counts: BTreeMap<String, i64> = [("VERIFIED", 5), ("CONTRADICTED", 1), ("REVIEW", 0)]
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        assert_eq!(
            ordered_counts(&counts),
            vec![(Verdict::Contradicted, 1), (Verdict::Verified, 5)]
        );
    }
}
