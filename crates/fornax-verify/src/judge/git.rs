//! `git_commit` and `git_push`: the commits and pushes git reported, compared with the claimed
//! sha, branch and remote; host lookups of the claimed commit when the host made them.

use fornax_types::evidence::GitOutcomeKind;

use super::*;
use crate::gitout::{self, sha_matches, GitOp};

impl Verdicts<'_> {
    fn git_runs(&self, want_push: bool) -> Vec<&Run> {
        self.obs
            .runs
            .iter()
            .filter(|r| self.at.sees(r.pos))
            .filter(|r| {
                gitout::git_ops(&r.command)
                    .iter()
                    .any(|op| matches!(op, GitOp::Push { .. }) == want_push)
                    || r.git.iter().any(|(_, g)| is_push(g.outcome) == want_push)
            })
            .collect()
    }
    pub(super) fn git_commit(&self) -> Finding {
        let claimed_sha = self.claim.target.sha.clone();
        // A host lookup of the claimed commit is the strongest evidence there is.
        if let Some(sha) = &claimed_sha {
            if let Some(check) = self.obs.checks.iter().rfind(|c| {
                self.at.sees(c.pos)
                    && (sha_matches(sha, &c.payload.sha)
                        || c.payload
                            .full_sha
                            .as_deref()
                            .is_some_and(|f| sha_matches(sha, f)))
            }) {
                return if check.payload.exists {
                    self.make(
                        Verdict::Verified,
                        "host_check_exists",
                        format!(
                            "Commit {sha} exists in {} (host lookup [{}]).",
                            check.payload.repository, check.evidence_id
                        ),
                        vec![check.evidence_id.clone()],
                    )
                } else if let Some(run) = self.git_runs(false).into_iter().find(|r| {
                    r.git.iter().any(|(_, g)| {
                        g.outcome == GitOutcomeKind::CommitCreated
                            && g.sha.as_deref().is_some_and(|s| sha_matches(sha, s))
                    })
                }) {
                    // The session saw the commit made; the repository no longer has it
                    // (rewritten history, another clone): the signals conflict.
                    let mut ev = vec![check.evidence_id.clone()];
                    ev.extend(run.evidence_ids());
                    self.make(
                        Verdict::Review,
                        "host_check_conflicts",
                        format!(
                            "{} created commit {sha}, but a lookup in {} does not find it (host lookup [{}]).",
                            describe_run(run),
                            check.payload.repository,
                            check.evidence_id
                        ),
                        ev,
                    )
                } else {
                    self.make(
                        Verdict::Contradicted,
                        "host_check_missing",
                        format!(
                            "Commit {sha} does not exist in {} (host lookup [{}]).",
                            check.payload.repository, check.evidence_id
                        ),
                        vec![check.evidence_id.clone()],
                    )
                };
            }
        }
        let runs = self.git_runs(false);
        if let Some(f) = self.unavailable_outputs(!runs.is_empty()) {
            return f;
        }
        let Some(latest) = runs.last() else {
            return self.make(
                Verdict::Unverified,
                "no_commit_run",
                "No `git commit` appears in the session before the claim; absence of evidence is not a contradiction.".into(),
                Vec::new(),
            );
        };
        let created: Vec<(&Run, &String, &fornax_types::evidence::GitOutcomePayload)> = runs
            .iter()
            .flat_map(|r| {
                r.git
                    .iter()
                    .filter(|(_, g)| g.outcome == GitOutcomeKind::CommitCreated)
                    .map(move |(id, g)| (*r, id, g))
            })
            .collect();
        if let Some(sha) = &claimed_sha {
            if let Some((run, id, g)) = created
                .iter()
                .rev()
                .find(|(_, _, g)| g.sha.as_deref().is_some_and(|s| sha_matches(sha, s)))
            {
                return self.make(
                    Verdict::Verified,
                    "sha_matches",
                    format!(
                        "{} created commit {} on {}, matching the claimed {sha}.",
                        describe_run(run),
                        g.sha.as_deref().unwrap_or("?"),
                        g.branch.as_deref().unwrap_or("an unnamed branch")
                    ),
                    vec![(*id).clone()],
                );
            }
            if let Some((run, id, g)) = created.last() {
                return self.make(
                    Verdict::Contradicted,
                    "sha_differs",
                    format!(
                        "{} created commit {}, not the claimed {sha}.",
                        describe_run(run),
                        g.sha.as_deref().unwrap_or("?")
                    ),
                    vec![(*id).clone()],
                );
            }
        } else if let Some((run, id, g)) = created.last() {
            if let (Some(cb), Some(gb)) = (&self.claim.target.branch, &g.branch) {
                if cb != gb && !gb.starts_with("detached") {
                    return self.make(
                        Verdict::Review,
                        "branch_differs",
                        format!(
                            "{} created commit {} on {gb}, while the claim names {cb}.",
                            describe_run(run),
                            g.sha.as_deref().unwrap_or("?")
                        ),
                        vec![(*id).clone()],
                    );
                }
            }
            return self.make(
                Verdict::Verified,
                "created",
                format!(
                    "{} created commit {} on {}.",
                    describe_run(run),
                    g.sha.as_deref().unwrap_or("?"),
                    g.branch.as_deref().unwrap_or("an unnamed branch")
                ),
                vec![(*id).clone()],
            );
        }
        // No commit was created: read the latest commit run.
        let not_created = latest.git.iter().find(|(_, g)| {
            matches!(
                g.outcome,
                GitOutcomeKind::NothingToCommit | GitOutcomeKind::CommitFailed
            )
        });
        if let Some((id, g)) = not_created {
            let what = if g.outcome == GitOutcomeKind::NothingToCommit {
                "reported nothing to commit"
            } else {
                "failed"
            };
            let mut ev = vec![id.clone()];
            ev.extend(latest.exit_id.clone());
            return self.make(
                Verdict::Contradicted,
                "not_created",
                format!(
                    "The latest commit attempt {} {what}; no commit was created in the session.",
                    describe_run(latest)
                ),
                ev,
            );
        }
        let j = run_outcome(latest, commit_index(latest), None);
        match j.outcome {
            Outcome::Fail => self.make(
                Verdict::Contradicted,
                "commit_failed",
                format!("The latest commit attempt {} failed ({}); no commit was created in the session.", describe_run(latest), j.detail),
                latest.evidence_ids(),
            ),
            Outcome::Pass { .. } if claimed_sha.is_none() => self.make(
                Verdict::Verified,
                "exit_zero",
                format!("{} succeeded ({}), though its output names no commit.", describe_run(latest), j.detail),
                latest.evidence_ids(),
            ),
            _ => self.make(
                Verdict::Review,
                "unconfirmed",
                format!("{} gives no commit sha to compare with the claim ({}).", describe_run(latest), j.detail),
                latest.evidence_ids(),
            ),
        }
    }
    pub(super) fn git_push(&self) -> Finding {
        let runs = self.git_runs(true);
        if let Some(f) = self.unavailable_outputs(!runs.is_empty()) {
            return f;
        }
        // Prefer pushes of the claimed branch.
        let branch = self.claim.target.branch.clone();
        let of_branch: Vec<&Run> =
            runs.iter()
                .copied()
                .filter(|r| {
                    branch.as_deref().is_some_and(|b| {
                        r.git.iter().any(|(_, g)| {
                            g.branch.as_deref().is_some_and(|gb| branch_matches(b, gb))
                        }) || gitout::git_ops(&r.command).iter().any(|op| match op {
                            GitOp::Push { refspecs, .. } => refspecs
                                .iter()
                                .any(|s| branch_matches(b, s.rsplit(':').next().unwrap_or(s))),
                            GitOp::Commit => false,
                        })
                    })
                })
                .collect();
        let pool = if of_branch.is_empty() {
            runs
        } else {
            of_branch
        };
        let Some(latest) = pool.last() else {
            return self.make(
                Verdict::Unverified,
                "no_push_run",
                "No `git push` appears in the session before the claim; absence of evidence is not a contradiction.".into(),
                Vec::new(),
            );
        };
        let push = latest.git.iter().rev().find(|(_, g)| is_push(g.outcome));
        match push {
            Some((id, g)) => {
                let target = format!(
                    "{}{}",
                    g.remote
                        .as_deref()
                        .map(|r| format!("{r} "))
                        .unwrap_or_default(),
                    g.branch.as_deref().unwrap_or("")
                );
                let mut ev = vec![id.clone()];
                ev.extend(latest.exit_id.clone());
                match g.outcome {
                    GitOutcomeKind::PushUpdated => {
                        if let (Some(b), Some(gb)) = (&branch, &g.branch) {
                            if !branch_matches(b, gb) {
                                return self.make(
                                    Verdict::Review,
                                    "branch_differs",
                                    format!("{} updated {target}, while the claim names {b}.", describe_run(latest)),
                                    ev,
                                );
                            }
                        }
                        self.make(Verdict::Verified, "updated", format!("{} updated {target}.", describe_run(latest)), ev)
                    }
                    GitOutcomeKind::PushRejected => self.make(
                        Verdict::Contradicted,
                        "rejected",
                        format!("The latest push {} was rejected ({target}).", describe_run(latest)),
                        ev,
                    ),
                    GitOutcomeKind::PushFailed => self.make(
                        Verdict::Contradicted,
                        "failed",
                        format!("The latest push {} failed.", describe_run(latest)),
                        ev,
                    ),
                    _ => self.make(
                        Verdict::Review,
                        "up_to_date",
                        format!("The latest push {} reported everything up-to-date: nothing new reached the remote.", describe_run(latest)),
                        ev,
                    ),
                }
            }
            None => {
                let j = run_outcome(latest, None, None);
                match j.outcome {
                    Outcome::Fail => self.make(
                        Verdict::Contradicted,
                        "failed",
                        format!(
                            "The latest push {} failed ({}).",
                            describe_run(latest),
                            j.detail
                        ),
                        latest.evidence_ids(),
                    ),
                    _ => self.make(
                        Verdict::Review,
                        "unconfirmed",
                        format!(
                            "The latest push {} shows no recognisable result ({}).",
                            describe_run(latest),
                            j.detail
                        ),
                        latest.evidence_ids(),
                    ),
                }
            }
        }
    }
}

fn is_push(k: GitOutcomeKind) -> bool {
    matches!(
        k,
        GitOutcomeKind::PushUpdated
            | GitOutcomeKind::PushRejected
            | GitOutcomeKind::PushUpToDate
            | GitOutcomeKind::PushFailed
    )
}

fn branch_matches(claimed: &str, observed: &str) -> bool {
    let strip = |b: &str| b.trim().trim_start_matches("refs/heads/").to_string();
    let (c, o) = (strip(claimed), strip(observed));
    c == o
        || c.ends_with(&format!("/{o}"))
            && c.split('/')
                .next()
                .is_some_and(|r| crate::claims::lexicon::REMOTE_NAMES.contains(&r))
}

fn commit_index(run: &Run) -> Option<usize> {
    run.invocations.iter().position(|i| {
        commands::base_name(&i.program) == "git" && i.argv.iter().any(|a| a == "commit")
    })
}
