//! Whose work a clause is about.
//!
//! The agent (and its subagents) is the default actor. Someone else is named as the clause's
//! subject ("Alice pushed", "my teammate's commit", "the release bot committed", "you
//! committed") or as the agent of a passive ("committed by Dependabot"): the claim is then an
//! [`ClaimActor::Other`] claim, judged only by evidence about that work. A clause whose subject
//! is a pull request, a patch, an upstream commit, a library or its maintainers describes
//! someone else's work and is not a claim about the session at all.

use std::sync::LazyLock;

use super::pattern::Pattern;
use fornax_types::ClaimActor;

use super::lexicon::DESCRIBED_HEAD;
use super::Doc;
use crate::text::Span;

/// People and programs that are not the agent, as a clause's subject.
static OTHER_SUBJECT: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(
        r"(?xi)^[\s*_]*(?:
        (?P<poss>(?:my|our|your|a|the)\s+(?:teammate|colleague|coworker|co-worker|reviewer|maintainer|manager|lead|pair)s?)['’]s\b
        | (?P<noun>(?:my|our|your|a|the)\s+(?:teammate|colleague|coworker|co-worker|reviewer|manager|lead|pair)s?)\s
        | (?P<other>another\s+(?:agent|session|instance|assistant)|the\s+other\s+(?:agent|session|instance|assistant))\b
        | (?P<bot>(?:the\s+)?(?:release|merge|deploy|ci|build|github|renovate|dependabot)[\s-]?bot|dependabot|renovate(?:\s+bot)?|github\s+actions)\b
        | (?P<you>you|the\s+user)\s+(?:already\s+|also\s+|just\s+|had\s+|have\s+)*(?:pushed|committed|updated|created|added|merged|deleted|removed|fixed|wrote|changed|modified|ran|tagged|rebased|landed|made)\b
        )",
    )
    .expect("valid regex")
});

/// A proper name as a clause's subject, right before an action verb ("Alice already pushed").
static NAMED_SUBJECT: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(
        r"^[\s*_]*(@?[A-Z][a-z]{1,20}|@[A-Za-z][\w-]{1,30})\s+(?:already\s+|also\s+|just\s+|has\s+|had\s+|have\s+|earlier\s+)*(?:pushed|committed|updated|created|added|merged|deleted|removed|fixed|wrote|changed|modified|ran|tagged|rebased|landed)\b",
    )
    .expect("valid regex")
});

/// The agent of a passive: "committed by Dependabot".
/// "Maya's commit `4e1a9c2` ...": a named person's commit, patch or pull request.
static NAMED_POSSESSIVE: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(
        r"^[\s*_]*(@?[A-Z][a-z]{1,20}|@[A-Za-z][\w-]{1,30})['’]s\s+(?:(?:last|latest|earlier|recent|original|own)\s+)?(?:commits?|PRs?|pull\s+requests?|patch(?:es)?|changes?|fix(?:es)?|push(?:es)?|branch|merge)\b",
    )
    .expect("valid regex")
});

static BY_AGENT: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(
        r"\b(?:committed|pushed|created|updated|written|added|deleted|removed|merged|made|authored|landed|tagged)\s+by\s+(@?[A-Za-z][\w-]*(?:\.[\w-]+)*(?:\s+[a-z][\w-]*){0,2}?)(?:\s*[.,;:)]|\s+(?:in|on|as|at|to|for|before|after|earlier|yesterday|when)\b|\s*$)",
    )
    .expect("valid regex")
});

/// Capitalised words that start sentences and are nobody's name.
const NOT_NAMES: &[&str] = &[
    "I",
    "You",
    "We",
    "It",
    "This",
    "That",
    "These",
    "Those",
    "They",
    "He",
    "She",
    "Also",
    "Then",
    "Now",
    "Done",
    "Everything",
    "Nothing",
    "All",
    "Both",
    "Finally",
    "First",
    "Next",
    "Just",
    "Already",
    "Successfully",
    "Tests",
    "Test",
    "Build",
    "Lint",
    "Clippy",
    "Ruff",
    "Each",
    "Every",
    "Last",
    "Here",
    "There",
    "Which",
    "What",
    "Who",
    "Git",
    "Code",
    "Claude",
    "Codex",
    "Gemini",
    "Pi",
    "Changes",
    "Files",
    "File",
    "Commit",
    "Commits",
    "Branch",
    "Fix",
    "Fixes",
    "Today",
    "Earlier",
    "Later",
    "Previously",
    "Initially",
    "Subagent",
    "Agent",
    "Someone",
    "Somebody",
    "Nobody",
];

/// Who stands for the agent itself in a passive ("committed by me").
const SELF: &[&str] = &[
    "me",
    "us",
    "myself",
    "the agent",
    "the subagent",
    "a subagent",
    "subagent",
    "this session",
    "the assistant",
    "claude",
    "codex",
];

/// "my teammate" → "teammate"; "the release bot" → "release bot"; proper names as written.
fn who(raw: &str) -> String {
    let mut w = raw.trim();
    for det in [
        "my ", "our ", "your ", "the ", "a ", "My ", "Our ", "Your ", "The ", "A ",
    ] {
        if let Some(rest) = w.strip_prefix(det) {
            w = rest.trim_start();
            break;
        }
    }
    let w = w.trim_end_matches("'s").trim_end_matches("’s");
    let common = w.split_whitespace().all(|t| {
        t.chars()
            .skip(1)
            .all(|c| c.is_lowercase() || !c.is_alphabetic())
    });
    let lower = w.to_lowercase();
    if common
        && (lower.starts_with("another")
            || lower.starts_with("other")
            || lower == "bot"
            || lower.ends_with(" bot")
            || lower.ends_with("-bot")
            || [
                "teammate",
                "colleague",
                "coworker",
                "co-worker",
                "reviewer",
                "maintainer",
                "manager",
                "lead",
                "pair",
            ]
            .iter()
            .any(|n| lower.starts_with(n)))
    {
        lower
    } else {
        w.to_string()
    }
}

impl Doc<'_> {
    /// Whose work a clause is about.
    pub(super) fn actor_of(&self, region: Span) -> ClaimActor {
        let text = region.slice(self.text);
        if let Some(c) = OTHER_SUBJECT.captures(text) {
            let name = ["poss", "noun", "other", "bot"]
                .iter()
                .find_map(|g| c.name(g).map(|m| who(m.as_str())))
                .unwrap_or_else(|| "user".to_string());
            return ClaimActor::Other { who: name };
        }
        if let Some(name) = NAMED_SUBJECT.captures(text).and_then(|c| c.get(1)) {
            if !NOT_NAMES.contains(&name.as_str()) {
                return ClaimActor::Other {
                    who: name.as_str().to_string(),
                };
            }
        }
        if let Some(name) = NAMED_POSSESSIVE.captures(text).and_then(|c| c.get(1)) {
            if !NOT_NAMES.contains(&name.as_str()) {
                return ClaimActor::Other {
                    who: name.as_str().to_string(),
                };
            }
        }
        if let Some(name) = BY_AGENT.captures(text).and_then(|c| c.get(1)) {
            let n = name.as_str().trim();
            if !SELF.contains(&n.to_lowercase().as_str()) {
                return ClaimActor::Other { who: who(n) };
            }
        }
        ClaimActor::Agent
    }

    /// The clause describes someone else's work (a PR, an upstream commit, a library).
    pub(super) fn describes_other_work(&self, region: Span) -> bool {
        let head = self.lower.get(region.start..region.end).unwrap_or("");
        DESCRIBED_HEAD.is_match(head)
    }
}

#[cfg(test)]
mod tests {
    use super::who;

    #[test]
    fn names_as_written_roles_in_lower_case() {
        assert_eq!(who("my teammate's"), "teammate");
        assert_eq!(who("The release bot"), "release bot");
        assert_eq!(who("Another agent"), "another agent");
        assert_eq!(who("Dependabot"), "Dependabot");
        assert_eq!(who("Alice"), "Alice");
    }
}
