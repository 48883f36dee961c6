//! Git outcomes read from a command and its output: a commit created (sha, branch), nothing to
//! commit, a commit that failed, a push that updated, was rejected, was already up to date or
//! failed.
//!
//! Only `git commit` and `git push` invocations are read; the output decides the outcome and
//! the command supplies what the output leaves out (the remote name of a push).

use std::sync::LazyLock;

use fornax_types::evidence::{GitOutcomeKind, GitOutcomePayload};
use fornax_types::shell::parse_invocations;
use regex::Regex;

use crate::commands::{base_name, effective_invocations};

/// The git operations a command line performs, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitOp {
    Commit,
    /// A push, with the remote and refspecs given on the command line (if any).
    Push {
        remote: Option<String>,
        refspecs: Vec<String>,
    },
}

/// The `git commit` / `git push` invocations of a command line.
pub fn git_ops(command: &str) -> Vec<GitOp> {
    let mut ops = Vec::new();
    for inv in effective_invocations(&parse_invocations(command)) {
        if base_name(&inv.program) != "git" {
            continue;
        }
        // Skip global options: `git -C dir`, `git -c k=v`, `git --no-pager`.
        let mut i = 0;
        while let Some(a) = inv.argv.get(i) {
            if a == "-C" || a == "-c" || a == "--git-dir" || a == "--work-tree" {
                i += 2;
            } else if a.starts_with('-') {
                i += 1;
            } else {
                break;
            }
        }
        match inv.argv.get(i).map(String::as_str) {
            Some("commit") => ops.push(GitOp::Commit),
            Some("push") => {
                let valued = ["-o", "--push-option", "--repo", "--receive-pack", "--exec"];
                let mut positional = Vec::new();
                let mut j = i + 1;
                while let Some(a) = inv.argv.get(j) {
                    if a.starts_with('-') {
                        j += if valued.contains(&a.as_str()) { 2 } else { 1 };
                        continue;
                    }
                    positional.push(a.clone());
                    j += 1;
                }
                let mut it = positional.into_iter();
                ops.push(GitOp::Push {
                    remote: it.next(),
                    refspecs: it.collect(),
                });
            }
            _ => {}
        }
    }
    ops
}

static COMMIT_CREATED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\[(?P<branch>[^\[\]\n]+?)(?: \(root-commit\))? (?P<sha>[0-9a-f]{7,40})\] ")
        .expect("valid regex")
});
static NOTHING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)nothing to commit|nothing added to commit|no changes added to commit")
        .expect("valid regex")
});
static COMMIT_ERROR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^(?:fatal|error): |Aborting commit|aborting commit|hook (?:failed|declined)|pre-commit hook")
        .expect("valid regex")
});
static PUSH_REJECTED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\s*!\s+\[(?:rejected|remote rejected)\]\s+(?P<src>\S+)\s+->\s+(?P<dst>\S+)")
        .expect("valid regex")
});
static PUSH_UPDATED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\s*[+ ]?\s*(?P<old>[0-9a-f]{7,40})\.\.\.?(?P<new>[0-9a-f]{7,40})\s+(?P<src>\S+)\s+->\s+(?P<dst>\S+)")
        .expect("valid regex")
});
static PUSH_NEW: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^\s*\*\s+\[new (?:branch|tag|reference)\]\s+(?P<src>\S+)\s+->\s+(?P<dst>\S+)")
        .expect("valid regex")
});
static PUSH_TO: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?m)^To (\S+)").expect("valid regex"));
static UP_TO_DATE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"Everything up-to-date").expect("valid regex"));
static PUSH_ERROR: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^(?:fatal|error): |failed to push some refs|Permission denied|Could not read from remote")
        .expect("valid regex")
});

/// The first git outcome of `command` as shown by `output` (see [`parse_all`]).
pub fn parse(command: &str, output: &str) -> Option<GitOutcomePayload> {
    parse_all(command, output).into_iter().next()
}

/// Every git outcome of `command` (a commit and a push in one line give two), in command order.
/// An operation whose output shows no recognisable outcome gives none.
pub fn parse_all(command: &str, output: &str) -> Vec<GitOutcomePayload> {
    let mut out = Vec::new();
    for op in git_ops(command) {
        match op {
            GitOp::Commit => {
                if let Some(o) = commit_outcome(output) {
                    out.push(GitOutcomePayload {
                        command: Some(command.to_string()),
                        ..o
                    });
                }
            }
            GitOp::Push { remote, refspecs } => {
                if let Some(mut o) = push_outcome(output) {
                    o.command = Some(command.to_string());
                    if remote.is_some() {
                        o.remote = remote;
                    }
                    if o.branch.is_none() {
                        o.branch = refspecs
                            .first()
                            .map(|r| r.rsplit(':').next().unwrap_or(r).to_string());
                    }
                    out.push(o);
                }
            }
        }
    }
    out
}

fn payload(outcome: GitOutcomeKind) -> GitOutcomePayload {
    GitOutcomePayload {
        outcome,
        command: None,
        call_id: None,
        sha: None,
        branch: None,
        remote: None,
    }
}

fn commit_outcome(output: &str) -> Option<GitOutcomePayload> {
    if let Some(c) = COMMIT_CREATED.captures_iter(output).last() {
        let mut p = payload(GitOutcomeKind::CommitCreated);
        p.sha = c.name("sha").map(|m| m.as_str().to_string());
        p.branch = c.name("branch").map(|m| m.as_str().to_string());
        return Some(p);
    }
    if NOTHING.is_match(output) {
        return Some(payload(GitOutcomeKind::NothingToCommit));
    }
    if COMMIT_ERROR.is_match(output) {
        return Some(payload(GitOutcomeKind::CommitFailed));
    }
    None
}

fn push_outcome(output: &str) -> Option<GitOutcomePayload> {
    let remote_url = PUSH_TO
        .captures(output)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str().to_string());
    if let Some(c) = PUSH_REJECTED.captures(output) {
        let mut p = payload(GitOutcomeKind::PushRejected);
        p.branch = c.name("dst").map(|m| m.as_str().to_string());
        p.remote = remote_url;
        return Some(p);
    }
    if let Some(c) = PUSH_UPDATED.captures_iter(output).last() {
        let mut p = payload(GitOutcomeKind::PushUpdated);
        p.sha = c.name("new").map(|m| m.as_str().to_string());
        p.branch = c.name("dst").map(|m| m.as_str().to_string());
        p.remote = remote_url;
        return Some(p);
    }
    if let Some(c) = PUSH_NEW.captures(output) {
        let mut p = payload(GitOutcomeKind::PushUpdated);
        p.branch = c.name("dst").map(|m| m.as_str().to_string());
        p.remote = remote_url;
        return Some(p);
    }
    if UP_TO_DATE.is_match(output) {
        return Some(payload(GitOutcomeKind::PushUpToDate));
    }
    if PUSH_ERROR.is_match(output) {
        let mut p = payload(GitOutcomeKind::PushFailed);
        p.remote = remote_url;
        return Some(p);
    }
    None
}

/// Whether two commit shas name the same commit: one is a prefix of the other (at least four
/// characters), compared case-insensitively.
pub fn sha_matches(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim().to_ascii_lowercase(), b.trim().to_ascii_lowercase());
    let n = a.len().min(b.len());
    n >= 4 && a[..n] == b[..n]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commit_created_with_branch_and_sha() {
        let out = "[feature/retry 0c4f9e2] retry: cap backoff at 30s\n 2 files changed, 14 insertions(+), 3 deletions(-)\n";
        let p = parse("git add -A && git commit -m \"retry: cap backoff\"", out).unwrap();
        assert_eq!(p.outcome, GitOutcomeKind::CommitCreated);
        assert_eq!(p.sha.as_deref(), Some("0c4f9e2"));
        assert_eq!(p.branch.as_deref(), Some("feature/retry"));
        let root = "[main (root-commit) 5d1e2f3] initial import\n";
        assert_eq!(
            parse("git commit -m init", root).unwrap().sha.as_deref(),
            Some("5d1e2f3")
        );
        let detached = "[detached HEAD 77aa01b] wip\n";
        assert_eq!(
            parse("git commit -am wip", detached)
                .unwrap()
                .branch
                .as_deref(),
            Some("detached HEAD")
        );
    }

    #[test]
    fn nothing_to_commit_and_failures() {
        let clean = "On branch main\nYour branch is up to date with 'origin/main'.\n\nnothing to commit, working tree clean\n";
        assert_eq!(
            parse("git commit -am x", clean).unwrap().outcome,
            GitOutcomeKind::NothingToCommit
        );
        let untracked = "On branch dev\nUntracked files:\n\tnotes.md\n\nnothing added to commit but untracked files present (use \"git add\" to track)\n";
        assert_eq!(
            parse("git commit -m x", untracked).unwrap().outcome,
            GitOutcomeKind::NothingToCommit
        );
        let hook = "ruff.....................................................................Failed\nhook id: ruff\n";
        assert_eq!(parse("git commit -m x", hook), None);
        let aborted = "Aborting commit due to empty commit message.\n";
        assert_eq!(
            parse("git commit", aborted).unwrap().outcome,
            GitOutcomeKind::CommitFailed
        );
    }

    #[test]
    fn push_outcomes() {
        let updated = "To github.com:acme/relay.git\n   3f2a1b0..9e8d7c6  main -> main\n";
        let p = parse("git push origin main", updated).unwrap();
        assert_eq!(p.outcome, GitOutcomeKind::PushUpdated);
        assert_eq!(
            (p.sha.as_deref(), p.branch.as_deref(), p.remote.as_deref()),
            (Some("9e8d7c6"), Some("main"), Some("origin"))
        );
        let new_branch = "To https://git.example.org/acme/relay.git\n * [new branch]      fix/retry -> fix/retry\nbranch 'fix/retry' set up to track 'origin/fix/retry'.\n";
        let p = parse("git push -u origin fix/retry", new_branch).unwrap();
        assert_eq!(
            (p.outcome, p.branch.as_deref()),
            (GitOutcomeKind::PushUpdated, Some("fix/retry"))
        );
        let forced =
            "To github.com:acme/relay.git\n + 1a2b3c4...5d6e7f8 topic -> topic (forced update)\n";
        assert_eq!(
            parse("git push -f", forced).unwrap().sha.as_deref(),
            Some("5d6e7f8")
        );
        let rejected = "To github.com:acme/relay.git\n ! [rejected]        topic -> topic (non-fast-forward)\nerror: failed to push some refs to 'github.com:acme/relay.git'\n";
        let p = parse("git push origin topic", rejected).unwrap();
        assert_eq!(
            (p.outcome, p.branch.as_deref()),
            (GitOutcomeKind::PushRejected, Some("topic"))
        );
        assert_eq!(
            parse("git push", "Everything up-to-date\n")
                .unwrap()
                .outcome,
            GitOutcomeKind::PushUpToDate
        );
        let denied = "git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.\n";
        assert_eq!(
            parse("git push", denied).unwrap().outcome,
            GitOutcomeKind::PushFailed
        );
    }

    #[test]
    fn commit_and_push_in_one_line() {
        let out = "[main 4b4b4b4] docs\n 1 file changed\nTo github.com:acme/relay.git\n   1111111..4b4b4b4  main -> main\n";
        let all = parse_all("git commit -am docs && git push", out);
        assert_eq!(all.len(), 2);
        assert_eq!(all[0].outcome, GitOutcomeKind::CommitCreated);
        assert_eq!(all[1].outcome, GitOutcomeKind::PushUpdated);
    }

    #[test]
    fn only_git_commands_count() {
        assert!(parse("echo '[main 1234567] x'", "[main 1234567] x\n").is_none());
        assert!(parse("git log --oneline", "1234567 fix\n").is_none());
        assert_eq!(git_ops("git -C repo commit -m x"), vec![GitOp::Commit]);
        assert_eq!(
            git_ops("bash -lc 'git push --set-upstream origin feat'"),
            vec![GitOp::Push {
                remote: Some("origin".into()),
                refspecs: vec!["feat".into()]
            }]
        );
    }

    #[test]
    fn sha_prefixes() {
        assert!(sha_matches("4e1d2c9", "4e1d2c9a77f0"));
        assert!(sha_matches("4E1D2C9", "4e1d2c9"));
        assert!(!sha_matches("a41c9e0", "a41c9e3"));
        assert!(!sha_matches("", "abc"));
    }
}
