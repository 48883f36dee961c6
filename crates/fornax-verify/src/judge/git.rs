//! `git_commit` and `git_push`: the commits and pushes git reported, compared with the claimed
//! sha, branch and remote; host lookups of the claimed commit when the host made them.
//!
//! A claim about another actor's work ("Maya's commit `4e1a9c2` fixed it", "the release bot
//! pushed the tag") is judged only by evidence about that work: a host lookup of the commit, or
//! output in the session that lists it. The session's own commits and pushes say nothing about
//! it, so they never verify or contradict it.

use fornax_types::evidence::{GitOutcomeKind, GitOutcomePayload};
use fornax_types::ClaimActor;

use super::*;
use crate::gitout::{self, sha_matches, GitOp};

impl Verdicts<'_> {
    fn git_runs(&self, want_push: bool) -> Vec<&Run> {
        self.obs
            .runs
            .iter()
            .filter(|r| self.sees(&r.session, r.pos))
            .filter(|r| {
                gitout::git_ops(&r.command).iter().any(|op| match op {
                    GitOp::Push { .. } => want_push,
                    GitOp::Commit => !want_push,
                    GitOp::List => false,
                }) || r.git.iter().any(|(_, g)| {
                    if want_push {
                        is_push(g.outcome)
                    } else {
                        is_commit_attempt(g.outcome)
                    }
                })
            })
            .collect()
    }

    /// The latest host lookup of `sha` (host lookups are about the repository, not a moment of
    /// the session: every claim sees them).
    fn host_check(&self, sha: &str) -> Option<&crate::observe::CommitCheck> {
        self.obs.checks.iter().rfind(|c| {
            sha_matches(sha, &c.payload.sha)
                || c.payload
                    .full_sha
                    .as_deref()
                    .is_some_and(|f| sha_matches(sha, f))
        })
    }

    /// A run whose output lists commit `sha` (`git log`, `git show`), latest first.
    fn listing(&self, sha: &str) -> Option<(&Run, &String, &GitOutcomePayload)> {
        self.obs
            .runs
            .iter()
            .rev()
            .filter(|r| self.sees(&r.session, r.pos))
            .find_map(|r| {
                r.git.iter().find_map(|(id, g)| {
                    (g.outcome == GitOutcomeKind::CommitListed
                        && g.sha.as_deref().is_some_and(|s| sha_matches(sha, s)))
                    .then_some((r, id, g))
                })
            })
    }

    /// Another actor's commit: a host lookup, or a listing in the session's output.
    fn others_commit(&self, who: &str) -> Finding {
        let Some(sha) = self.claim.target.sha.clone() else {
            return self.make(
                Verdict::Unverified,
                Reason::OtherActorUnseen {
                    who: who.to_string(),
                    about: "a commit".into(),
                },
                Vec::new(),
            );
        };
        if let Some(check) = self.host_check(&sha) {
            if check.payload.exists {
                return self.make(
                    Verdict::Verified,
                    Reason::HostCommitExists {
                        sha,
                        repository: check.payload.repository.clone(),
                    },
                    vec![check.evidence_id.clone()],
                );
            }
        }
        if let Some((run, id, g)) = self.listing(&sha) {
            return self.make(
                Verdict::Verified,
                Reason::CommitListed {
                    sha: g.sha.clone().unwrap_or(sha),
                    run: self.run_fact(run),
                    summary: g.summary.clone(),
                },
                vec![id.clone()],
            );
        }
        if let Some(check) = self.host_check(&sha) {
            // The commit is not in this clone: it may live on a branch not fetched here. Not a
            // contradiction of someone else's work.
            return self.make(
                Verdict::Review,
                Reason::HostCommitMissing {
                    sha,
                    repository: check.payload.repository.clone(),
                },
                vec![check.evidence_id.clone()],
            );
        }
        self.make(
            Verdict::Unverified,
            Reason::OtherActorUnseen {
                who: who.to_string(),
                about: format!("commit {sha}"),
            },
            Vec::new(),
        )
    }

    pub(super) fn git_commit(&self) -> Finding {
        if let ClaimActor::Other { who } = &self.claim.actor {
            return self.others_commit(who);
        }
        let claimed_sha = self.claim.target.sha.clone();
        // A host lookup of the claimed commit is the strongest evidence there is.
        if let Some(sha) = &claimed_sha {
            if let Some(check) = self.host_check(sha) {
                return if check.payload.exists {
                    self.make(
                        Verdict::Verified,
                        Reason::HostCommitExists {
                            sha: sha.clone(),
                            repository: check.payload.repository.clone(),
                        },
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
                        Reason::HostCommitConflicts {
                            sha: sha.clone(),
                            repository: check.payload.repository.clone(),
                            run: self.run_fact(run),
                        },
                        ev,
                    )
                } else {
                    self.make(
                        Verdict::Contradicted,
                        Reason::HostCommitMissing {
                            sha: sha.clone(),
                            repository: check.payload.repository.clone(),
                        },
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
            return self.make(Verdict::Unverified, Reason::NoCommitRun, Vec::new());
        };
        let created: Vec<(&Run, &String, &GitOutcomePayload)> = runs
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
                    Reason::ShaMatches {
                        run: self.run_fact(run),
                        sha: g.sha.clone().unwrap_or_else(|| sha.clone()),
                        branch: g.branch.clone(),
                    },
                    vec![(*id).clone()],
                );
            }
            if let Some((run, id, g)) = created.last() {
                return self.make(
                    Verdict::Contradicted,
                    Reason::ShaDiffers {
                        run: self.run_fact(run),
                        sha: g.sha.clone().unwrap_or_else(|| "?".into()),
                        claimed: sha.clone(),
                    },
                    vec![(*id).clone()],
                );
            }
        } else if let Some((run, id, g)) = created.last() {
            if let (Some(cb), Some(gb)) = (&self.claim.target.branch, &g.branch) {
                if cb != gb && !gb.starts_with("detached") {
                    return self.make(
                        Verdict::Review,
                        Reason::CommitBranchDiffers {
                            run: self.run_fact(run),
                            sha: g.sha.clone(),
                            branch: gb.clone(),
                            claimed: cb.clone(),
                        },
                        vec![(*id).clone()],
                    );
                }
            }
            return self.make(
                Verdict::Verified,
                Reason::CommitCreated {
                    run: self.run_fact(run),
                    sha: g.sha.clone(),
                    branch: g.branch.clone(),
                },
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
            let mut ev = vec![id.clone()];
            ev.extend(latest.exit_id.clone());
            return self.make(
                Verdict::Contradicted,
                Reason::NothingCommitted {
                    run: self.run_fact(latest),
                    nothing_to_commit: g.outcome == GitOutcomeKind::NothingToCommit,
                },
                ev,
            );
        }
        let j = run_outcome(latest, commit_index(latest), None);
        match j.outcome {
            Outcome::Fail => self.make(
                Verdict::Contradicted,
                Reason::CommitFailed {
                    run: self.run_fact(latest),
                    readings: j.readings,
                },
                latest.evidence_ids(),
            ),
            Outcome::Pass { .. } if claimed_sha.is_none() => self.make(
                Verdict::Verified,
                Reason::CommitExitZero {
                    run: self.run_fact(latest),
                    readings: j.readings,
                },
                latest.evidence_ids(),
            ),
            _ => self.make(
                Verdict::Review,
                Reason::CommitUnconfirmed {
                    run: self.run_fact(latest),
                    readings: j.readings,
                },
                latest.evidence_ids(),
            ),
        }
    }

    pub(super) fn git_push(&self) -> Finding {
        if let ClaimActor::Other { who } = &self.claim.actor {
            // No output of the session's own pushes is evidence about someone else's push.
            return self.make(
                Verdict::Unverified,
                Reason::OtherActorUnseen {
                    who: who.clone(),
                    about: "a push".into(),
                },
                Vec::new(),
            );
        }
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
                            GitOp::Commit | GitOp::List => false,
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
            return self.make(Verdict::Unverified, Reason::NoPushRun, Vec::new());
        };
        let run = self.run_fact(latest);
        let push = latest.git.iter().rev().find(|(_, g)| is_push(g.outcome));
        let Some((id, g)) = push else {
            let j = run_outcome(latest, None, None);
            return match j.outcome {
                Outcome::Fail => self.make(
                    Verdict::Contradicted,
                    Reason::PushFailed {
                        run,
                        readings: j.readings,
                    },
                    latest.evidence_ids(),
                ),
                _ => self.make(
                    Verdict::Review,
                    Reason::PushUnconfirmed {
                        run,
                        readings: j.readings,
                    },
                    latest.evidence_ids(),
                ),
            };
        };
        let target = format!(
            "{}{}",
            g.remote
                .as_deref()
                .map(|r| format!("{r} "))
                .unwrap_or_default(),
            g.branch.as_deref().unwrap_or("")
        )
        .trim()
        .to_string();
        let mut ev = vec![id.clone()];
        ev.extend(latest.exit_id.clone());
        match g.outcome {
            GitOutcomeKind::PushUpdated => {
                if let (Some(b), Some(gb)) = (&branch, &g.branch) {
                    if !branch_matches(b, gb) {
                        return self.make(
                            Verdict::Review,
                            Reason::PushBranchDiffers {
                                run,
                                target,
                                claimed: b.clone(),
                            },
                            ev,
                        );
                    }
                }
                self.make(Verdict::Verified, Reason::PushUpdated { run, target }, ev)
            }
            GitOutcomeKind::PushRejected => self.make(
                Verdict::Contradicted,
                Reason::PushRejected { run, target },
                ev,
            ),
            GitOutcomeKind::PushFailed => self.make(
                Verdict::Contradicted,
                Reason::PushFailed {
                    run,
                    readings: Vec::new(),
                },
                ev,
            ),
            _ => self.make(Verdict::Review, Reason::PushUpToDate { run }, ev),
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

fn is_commit_attempt(k: GitOutcomeKind) -> bool {
    matches!(
        k,
        GitOutcomeKind::CommitCreated
            | GitOutcomeKind::NothingToCommit
            | GitOutcomeKind::CommitFailed
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

#[cfg(test)]
mod tests {
    use fornax_types::{ClaimActor, ClaimSubject, ClaimTarget, Item, Verdict};

    use crate::testkit::*;
    use crate::{judge, observe, timeline::Timeline};

    fn claim(subject: ClaimSubject, sha: Option<&str>, actor: ClaimActor) -> fornax_types::Claim {
        fornax_types::Claim {
            id: "c".into(),
            session: session(),
            item_key: "answer".into(),
            loop_position: Some(0),
            subject,
            text: "claim".into(),
            target: ClaimTarget {
                sha: sha.map(str::to_string),
                ..ClaimTarget::default()
            },
            scope: Default::default(),
            quantity: Default::default(),
            actor,
            at: None,
        }
    }

    fn judged(items: &[Item], claim: &fornax_types::Claim) -> fornax_types::Finding {
        let refs: Vec<&Item> = items.iter().collect();
        let t = Timeline::build(&refs);
        let (_, obs) = observe::observe(&t, &[], &[]);
        judge::judge(
            claim,
            &obs,
            judge::Moment {
                pos: items.len(),
                is_final: true,
                sessions: None,
            },
        )
    }

    fn session_items() -> Vec<Item> {
        vec![
            shell_call("lc", Some("l"), "git log --oneline -3"),
            output(
                "lo",
                Some("l"),
                "4e1a9c2 fix(parser): empty input\nb7d0e13 chore: bump serde\n",
                Some(0),
                Some(false),
            ),
            shell_call("cc", Some("c"), "git commit -am 'fix'"),
            output(
                "co",
                Some("c"),
                "On branch main\nnothing to commit, working tree clean",
                Some(1),
                Some(true),
            ),
            shell_call("pc", Some("p"), "git push origin main"),
            output(
                "po",
                Some("p"),
                "To github.com:a/b.git\n ! [rejected]        main -> main (fetch first)\nerror: failed to push some refs",
                Some(1),
                Some(true),
            ),
        ]
    }

    fn other() -> ClaimActor {
        ClaimActor::Other { who: "Maya".into() }
    }

    #[test]
    fn another_actors_commit_is_judged_by_evidence_about_it() {
        let items = session_items();
        // The session's own "nothing to commit" says nothing about Maya's commit; the log shows
        // it.
        let f = judged(
            &items,
            &claim(ClaimSubject::GitCommit, Some("4e1a9c2"), other()),
        );
        assert_eq!(f.verdict, Verdict::Verified, "{}", f.rationale());
        assert_eq!(f.rule, "git_commit.commit_listed");
        // A commit nothing shows: unverified, never contradicted by the session's own work.
        let f = judged(
            &items,
            &claim(ClaimSubject::GitCommit, Some("9999999"), other()),
        );
        assert_eq!(f.verdict, Verdict::Unverified, "{}", f.rationale());
        // The agent's own claim of the same commit is about its own work: contradicted.
        let f = judged(
            &items,
            &claim(ClaimSubject::GitCommit, None, ClaimActor::Agent),
        );
        assert_eq!(f.verdict, Verdict::Contradicted, "{}", f.rationale());
    }

    #[test]
    fn another_actors_push_is_not_contradicted_by_the_sessions_rejected_push() {
        let items = session_items();
        let f = judged(&items, &claim(ClaimSubject::GitPush, None, other()));
        assert_eq!(f.verdict, Verdict::Unverified, "{}", f.rationale());
        let f = judged(
            &items,
            &claim(ClaimSubject::GitPush, None, ClaimActor::Agent),
        );
        assert_eq!(f.verdict, Verdict::Contradicted, "{}", f.rationale());
    }
}
