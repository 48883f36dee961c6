//! Git outcomes read from a command and its output: a commit created (sha, branch), nothing to
//! commit, a commit that failed, a push that updated, was rejected, was already up to date or
//! failed.
//!
//! Only `git commit` and `git push` invocations are read for outcomes; the output decides the
//! outcome and the command supplies what the output leaves out (the remote name of a push).
//! `git log` and `git show` list commits that exist, whoever made them (bounded to
//! [`MAX_LISTED`] per output).

use std::sync::LazyLock;

use fornax_types::evidence::{GitOutcomeKind, GitOutcomePayload};
use fornax_types::shell::parse_invocations;
use regex::Regex;

use crate::commands::{base_name, effective_invocations};

/// The git operations a command line performs, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GitOp {
    Commit,
    /// `git log`, `git show` or `git reflog`: commits listed, not made.
    List,
    /// A push, with the remote and refspecs given on the command line (if any).
    Push {
        remote: Option<String>,
        refspecs: Vec<String>,
    },
}

/// The `git commit` / `git push` invocations of a command line.
pub fn git_ops(command: &str) -> Vec<GitOp> {
    let mut ops = Vec::new();
    if !may_run_git(command) {
        return ops;
    }
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
            Some("log" | "show" | "reflog") => ops.push(GitOp::List),
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
/// `git log --oneline` lines (`4e1a9c2 (HEAD -> main) fix: x`) and full `commit <sha>` headers.
static LISTED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?m)^(?:commit (?P<full>[0-9a-f]{40})\b.*|\*?\s*(?P<short>[0-9a-f]{7,40})(?: \([^)\n]*\))? (?P<summary>\S.*?))\s*$")
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

/// Whether `command` can name `git` at all: its letters appear as written, or quoting,
/// escapes, expansions or globs could spell them (`g"i"t`, `g\it`, `$'\x67'it`). Most
/// commands do neither, and are then not parsed.
fn may_run_git(command: &str) -> bool {
    command.contains("git")
        || command.bytes().any(|b| {
            matches!(
                b,
                b'\'' | b'"' | b'\\' | b'$' | b'`' | b'{' | b'*' | b'?' | b'['
            )
        })
}

/// The first git outcome of `command` as shown by `output` (see [`parse_all`]).
pub fn parse(command: &str, output: &str) -> Option<GitOutcomePayload> {
    parse_all(command, output).into_iter().next()
}

/// Every git outcome of `command` (a commit and a push in one line give two), in command order.
/// An operation whose output shows no recognisable outcome gives none.
pub fn parse_all(command: &str, output: &str) -> Vec<GitOutcomePayload> {
    // Outcomes are matched to operations in order: `git push || (git pull --rebase && git
    // push)` prints a rejection, then an update.
    let ops = git_ops(command);
    if ops.is_empty() {
        return Vec::new();
    }
    let has = |f: fn(&GitOp) -> bool| ops.iter().any(f);
    let commits = if has(|op| matches!(op, GitOp::Commit)) {
        commit_events(output)
    } else {
        Vec::new()
    };
    let pushes = if has(|op| matches!(op, GitOp::Push { .. })) {
        push_events(output)
    } else {
        Vec::new()
    };
    let (mut next_commit, mut next_push) = (0, 0);
    let mut out = Vec::new();
    for op in ops {
        match op {
            GitOp::Commit => {
                if let Some(o) = commits.get(next_commit) {
                    out.push(GitOutcomePayload {
                        command: Some(command.to_string()),
                        ..o.clone()
                    });
                }
                next_commit += 1;
            }
            GitOp::List => out.extend(listed_commits(output).into_iter().map(|mut o| {
                o.command = Some(command.to_string());
                o
            })),
            GitOp::Push { remote, refspecs } => {
                if let Some(o) = pushes.get(next_push) {
                    let mut o = o.clone();
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
                next_push += 1;
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
        summary: None,
    }
}

/// How many listed commits one output contributes.
pub const MAX_LISTED: usize = 32;

/// Commits a `git log` / `git show` output lists, in output order.
fn listed_commits(output: &str) -> Vec<GitOutcomePayload> {
    let mut out: Vec<GitOutcomePayload> = Vec::new();
    for c in LISTED.captures_iter(output) {
        if out.len() == MAX_LISTED {
            break;
        }
        let sha = c.name("full").or_else(|| c.name("short"));
        let Some(sha) = sha.map(|m| m.as_str().to_string()) else {
            continue;
        };
        if out.iter().any(|o| o.sha.as_deref() == Some(sha.as_str())) {
            continue;
        }
        let mut p = payload(GitOutcomeKind::CommitListed);
        p.sha = Some(sha);
        p.summary = c
            .name("summary")
            .map(|m| m.as_str().chars().take(200).collect());
        out.push(p);
    }
    out
}

/// Commit outcomes in the order the output shows them.
fn commit_events(output: &str) -> Vec<GitOutcomePayload> {
    let mut events: Vec<(usize, GitOutcomePayload)> = Vec::new();
    for c in COMMIT_CREATED.captures_iter(output) {
        let mut p = payload(GitOutcomeKind::CommitCreated);
        p.sha = c.name("sha").map(|m| m.as_str().to_string());
        p.branch = c.name("branch").map(|m| m.as_str().to_string());
        events.push((c.get(0).map_or(0, |m| m.start()), p));
    }
    for m in NOTHING.find_iter(output) {
        events.push((m.start(), payload(GitOutcomeKind::NothingToCommit)));
    }
    if events.is_empty() && COMMIT_ERROR.is_match(output) {
        events.push((0, payload(GitOutcomeKind::CommitFailed)));
    }
    events.sort_by_key(|(at, _)| *at);
    events.into_iter().map(|(_, p)| p).collect()
}

/// Push outcomes in the order the output shows them, one per push (a push prints a
/// `To <remote>` line, then one line per ref: the first ref line stands for the push).
fn push_events(output: &str) -> Vec<GitOutcomePayload> {
    let remote_url = PUSH_TO
        .captures(output)
        .and_then(|c| c.get(1))
        .map(|m| m.as_str().to_string());
    let event = |kind: GitOutcomeKind, sha: Option<&str>, branch: Option<&str>| GitOutcomePayload {
        outcome: kind,
        command: None,
        call_id: None,
        sha: sha.map(str::to_string),
        branch: branch.map(str::to_string),
        remote: remote_url.clone(),
        summary: None,
    };
    let at = |c: &regex::Captures<'_>| c.get(0).map_or(0, |m| m.start());
    let name = |c: &regex::Captures<'_>, n: &str| c.name(n).map(|m| m.as_str().to_string());
    let mut events: Vec<(usize, GitOutcomePayload)> = Vec::new();
    for c in PUSH_REJECTED.captures_iter(output) {
        events.push((
            at(&c),
            event(
                GitOutcomeKind::PushRejected,
                None,
                name(&c, "dst").as_deref(),
            ),
        ));
    }
    for c in PUSH_UPDATED.captures_iter(output) {
        let (sha, dst) = (name(&c, "new"), name(&c, "dst"));
        events.push((
            at(&c),
            event(GitOutcomeKind::PushUpdated, sha.as_deref(), dst.as_deref()),
        ));
    }
    for c in PUSH_NEW.captures_iter(output) {
        events.push((
            at(&c),
            event(
                GitOutcomeKind::PushUpdated,
                None,
                name(&c, "dst").as_deref(),
            ),
        ));
    }
    for m in UP_TO_DATE.find_iter(output) {
        events.push((m.start(), event(GitOutcomeKind::PushUpToDate, None, None)));
    }
    if events.is_empty() && PUSH_ERROR.is_match(output) {
        events.push((0, event(GitOutcomeKind::PushFailed, None, None)));
    }
    events.sort_by_key(|(at, _)| *at);
    let blocks: Vec<usize> = PUSH_TO.find_iter(output).map(|m| m.start()).collect();
    let mut seen: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    for (at, p) in events {
        if let Some(b) = blocks.iter().rposition(|start| *start <= at) {
            if seen.contains(&b) {
                continue;
            }
            seen.push(b);
        }
        out.push(p);
    }
    out
}

/// Whether two commit shas name the same commit: one is a prefix of the other (at least four
/// characters), compared case-insensitively.
pub fn sha_matches(a: &str, b: &str) -> bool {
    let (a, b) = (a.trim().to_ascii_lowercase(), b.trim().to_ascii_lowercase());
    let n = a.len().min(b.len());
    n >= 4 && a.as_bytes()[..n] == b.as_bytes()[..n]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_spelled_through_quotes_or_escapes_is_still_read() {
        assert_eq!(git_ops("cargo test && ls -la"), Vec::new());
        assert_eq!(git_ops(r#"g"i"t commit -m x"#), vec![GitOp::Commit]);
        assert_eq!(git_ops(r"g\it commit -m x"), vec![GitOp::Commit]);
        assert_eq!(git_ops("bash -lc 'git commit -m x'"), vec![GitOp::Commit]);
        // No git operation: the output is not read, whatever it shows.
        assert!(parse_all("ls", "[main abc1234] x\nTo origin\n").is_empty());
    }

    #[test]
    fn log_and_show_list_commits() {
        let log = "4e1a9c2 (HEAD -> fix/x, origin/fix/x) fix(parser): empty input\nb7d0e13 chore: bump serde\n";
        let got = parse_all("git log --oneline -2", log);
        assert_eq!(got.len(), 2);
        assert_eq!(got[0].outcome, GitOutcomeKind::CommitListed);
        assert_eq!(got[0].sha.as_deref(), Some("4e1a9c2"));
        assert_eq!(got[0].summary.as_deref(), Some("fix(parser): empty input"));
        let show = "commit 4e1a9c2f0b8d7e6a5c4b3a291807f6e5d4c3b2a1 (HEAD -> main)\nAuthor: M <m@example.invalid>\n\n    fix\n";
        let got = parse_all("git show --stat HEAD", show);
        assert_eq!(got.len(), 1);
        assert_eq!(
            got[0].sha.as_deref(),
            Some("4e1a9c2f0b8d7e6a5c4b3a291807f6e5d4c3b2a1")
        );
        assert!(parse_all("git status", log).is_empty());
        let many: String = (0..100).map(|i| format!("{i:07x} c{i}\n")).collect();
        assert_eq!(parse_all("git log --oneline", &many).len(), MAX_LISTED);
    }

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
    fn rejected_then_pulled_and_pushed() {
        let out = "To github.com:acme/relay.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs\nSuccessfully rebased and updated refs/heads/main.\nTo github.com:acme/relay.git\n   1a1a1a1..2b2b2b2  main -> main\n";
        let all = parse_all("git push || (git pull --rebase && git push)", out);
        let kinds: Vec<GitOutcomeKind> = all.iter().map(|p| p.outcome).collect();
        assert_eq!(
            kinds,
            vec![GitOutcomeKind::PushRejected, GitOutcomeKind::PushUpdated]
        );
        let two = parse_all(
            "git commit -m a && git commit --amend -m b",
            "[main 1111111] a\n[main 2222222] b\n",
        );
        assert_eq!(two[1].sha.as_deref(), Some("2222222"));
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
        // A log lists a commit; it does not make one.
        assert_eq!(
            parse("git log --oneline", "1234567 fix\n").map(|o| o.outcome),
            Some(GitOutcomeKind::CommitListed)
        );
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
        // Never panics on text that is not a sha.
        assert!(!sha_matches("abcé123", "abcd123"));
    }
}
