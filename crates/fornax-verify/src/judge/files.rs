//! `file_written` and `file_deleted`: the latest recorded attempt on the claimed path decides.
//!
//! A write is any change that leaves the path holding content (an edit tool, a patch, a shell
//! redirection, `tee`, `cp`/`mv` to it, `sed -i`); a deletion is `rm`, `git rm`, a patch's
//! `Delete File`, a delete tool, or `mv` away from it. A successful attempt confirms the claim;
//! attempts that all failed, with nothing touching the path later, contradict it. A claim about
//! another actor's file work is judged only by evidence about that work, which a session's own
//! changes are not.

use fornax_types::evidence::FileOperation;
use fornax_types::reason::UnseenWriter;
use fornax_types::ClaimActor;

use super::*;

/// Which attempts a claim is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Wanted {
    Write,
    Delete,
}

impl Wanted {
    fn matches(self, op: FileOperation) -> bool {
        match self {
            Wanted::Write => op != FileOperation::Delete,
            Wanted::Delete => op == FileOperation::Delete,
        }
    }
}

/// `rm`'s words for a path that was not there to delete.
fn already_absent(error: Option<&str>) -> bool {
    error.is_some_and(|e| {
        let e = e.to_ascii_lowercase();
        e.contains("no such file or directory") || e.contains("did not match any files")
    })
}

impl Verdicts<'_> {
    pub(super) fn file_written(&self) -> Finding {
        self.file_claim(Wanted::Write)
    }

    pub(super) fn file_deleted(&self) -> Finding {
        self.file_claim(Wanted::Delete)
    }

    fn file_claim(&self, wanted: Wanted) -> Finding {
        let Some(path) = self.claim.target.path.clone() else {
            return self.make(Verdict::Unverified, Reason::NoPath, Vec::new());
        };
        if let ClaimActor::Other { who } = &self.claim.actor {
            // The session's own changes are not evidence about someone else's work.
            return self.make(
                Verdict::Unverified,
                Reason::OtherActorUnseen {
                    who: who.clone(),
                    about: path,
                },
                Vec::new(),
            );
        }
        let matching: Vec<&Change> = self
            .obs
            .changes
            .iter()
            .filter(|c| {
                self.sees(&c.session, c.pos)
                    && !c.path.is_empty()
                    && wanted.matches(c.operation)
                    && same_file(&path, &c.path)
            })
            .collect();
        let Some(&last) = matching.last() else {
            let o = &self.obs.observability;
            if o.files_declared_unobservable && o.calls_unobservable() {
                return self.make(
                    Verdict::Unavailable,
                    Reason::FileSignalsUnobservable,
                    Vec::new(),
                );
            }
            return self.make(
                Verdict::Unverified,
                Reason::Untouched {
                    path,
                    deletion: wanted == Wanted::Delete,
                },
                Vec::new(),
            );
        };
        let ids = |from: &[&Change]| -> Vec<String> {
            from.iter().filter_map(|c| c.evidence_id.clone()).collect()
        };
        let last_success = matching.iter().rposition(|c| c.succeeded == Some(true));
        if let Some(i) = last_success {
            let ok = matching[i];
            let later_failure = matching[i + 1..].iter().any(|c| c.succeeded == Some(false));
            let ev = ids(&matching[i..]);
            if later_failure && wanted == Wanted::Write {
                return self.make(
                    Verdict::Review,
                    Reason::LaterAttemptFailed {
                        ok: change_fact(ok),
                        last: change_fact(last),
                    },
                    ev,
                );
            }
            return match wanted {
                Wanted::Write => self.make(
                    Verdict::Verified,
                    Reason::Written {
                        change: change_fact(ok),
                        writes: u32::try_from(matching.len()).unwrap_or(u32::MAX),
                    },
                    ev,
                ),
                Wanted::Delete => self.make(
                    Verdict::Verified,
                    Reason::Deleted {
                        change: change_fact(ok),
                    },
                    ev,
                ),
            };
        }
        if matching.iter().all(|c| c.succeeded == Some(false)) {
            if let Some((by, ids)) = self.later_unseen_change(&path, last.pos, wanted) {
                return self.make(
                    Verdict::Review,
                    Reason::FailedThenUnseenWrite {
                        path,
                        last: change_fact(last),
                        by,
                    },
                    ids,
                );
            }
            let ev = ids(&matching);
            return match wanted {
                Wanted::Write => self.make(
                    Verdict::Contradicted,
                    Reason::WriteFailed {
                        path,
                        last: change_fact(last),
                    },
                    ev,
                ),
                // The path was not there: the claimed deletion did not happen, but the file is
                // gone as the claim says; that is not a contradiction.
                Wanted::Delete if already_absent(last.error.as_deref()) => self.make(
                    Verdict::Review,
                    Reason::AlreadyAbsent {
                        path,
                        last: change_fact(last),
                    },
                    ev,
                ),
                Wanted::Delete => self.make(
                    Verdict::Contradicted,
                    Reason::DeleteFailed {
                        path,
                        last: change_fact(last),
                    },
                    ev,
                ),
            };
        }
        if self.obs.observability.outputs_unobservable() {
            return self.make(
                Verdict::Unavailable,
                Reason::AttemptUnobservable {
                    change: change_fact(last),
                },
                Vec::new(),
            );
        }
        self.make(
            Verdict::Review,
            Reason::OutcomeUnknown {
                change: change_fact(last),
            },
            ids(&matching),
        )
    }

    /// A change the file timeline cannot attribute to a path, after `pos`: a writer that names
    /// no file (`git apply`, `patch`) or a command that mentions the file (a script writing or
    /// removing it).
    fn later_unseen_change(
        &self,
        path: &str,
        pos: usize,
        wanted: Wanted,
    ) -> Option<(UnseenWriter, Vec<String>)> {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        if wanted == Wanted::Write {
            if let Some(c) = self.obs.changes.iter().find(|c| {
                self.sees(&c.session, c.pos)
                    && c.pos > pos
                    && c.path.is_empty()
                    && c.succeeded != Some(false)
            }) {
                return Some((
                    UnseenWriter::Unnamed {
                        change: change_fact(c),
                    },
                    Vec::new(),
                ));
            }
        }
        let run = self.obs.runs.iter().find(|r| {
            self.sees(&r.session, r.pos)
                && r.pos > pos
                && !name.is_empty()
                && r.command.contains(name)
                && r.classes.iter().all(|(_, c)| c.kind == CommandKind::Other)
                && !is_read_only(&r.command)
        })?;
        Some((
            UnseenWriter::Command {
                run: self.run_fact(run),
            },
            run.evidence_ids(),
        ))
    }
}

/// Commands that only read files (so mentioning a file does not write it).
fn is_read_only(command: &str) -> bool {
    let invs = commands::effective_invocations(&fornax_types::shell::parse_invocations(command));
    !invs.is_empty()
        && invs.iter().all(|i| {
            i.redirects_to.is_empty()
                && matches!(
                    commands::base_name(&i.program),
                    "cat" | "head" | "tail" | "less" | "grep" | "rg" | "ls" | "wc" | "diff" | "git" | "stat" | "file"
                        | "cd" | "echo" | "find" | "nl" | "bat" | "sed" if !i.argv.iter().any(|a| a.starts_with("-i"))
                )
        })
}

#[cfg(test)]
mod tests {
    use fornax_types::{ClaimActor, ClaimSubject, ClaimTarget, Item, Verdict};

    use crate::testkit::*;
    use crate::{judge, observe, timeline::Timeline};

    fn claim(subject: ClaimSubject, path: &str) -> fornax_types::Claim {
        fornax_types::Claim {
            id: "c".into(),
            session: session(),
            item_key: "answer".into(),
            loop_position: Some(0),
            subject,
            text: format!("{} {path}", subject.as_str()),
            target: ClaimTarget {
                path: Some(path.into()),
                ..ClaimTarget::default()
            },
            scope: Default::default(),
            quantity: Default::default(),
            actor: ClaimActor::Agent,
            at: None,
        }
    }

    /// Judges `claim` as a final answer after `items`.
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

    fn run(key: &str, command: &str, text: &str, exit: i64) -> [Item; 2] {
        [
            shell_call(&format!("{key}c"), Some(key), command),
            output(
                &format!("{key}o"),
                Some(key),
                text,
                Some(exit),
                Some(exit != 0),
            ),
        ]
    }

    #[test]
    fn deletions_by_rm_git_rm_and_patch() {
        let mut items = Vec::new();
        items.extend(run("a", "rm setup.cfg", "", 0));
        items.extend(run(
            "b",
            "git rm -q scripts/old.sh",
            "rm 'scripts/old.sh'",
            0,
        ));
        items.push(tool_call(
            "pc",
            Some("p"),
            "apply_patch",
            serde_json::json!({"input": "*** Begin Patch\n*** Delete File: docs/legacy.md\n*** End Patch"}),
        ));
        items.push(output(
            "po",
            Some("p"),
            "Success. Updated the following files:\nD docs/legacy.md\n",
            Some(0),
            Some(false),
        ));
        for path in ["setup.cfg", "scripts/old.sh", "docs/legacy.md"] {
            let f = judged(&items, &claim(ClaimSubject::FileDeleted, path));
            assert_eq!(f.verdict, Verdict::Verified, "{path}: {}", f.rationale());
            assert_eq!(f.rule, "file_deleted.deleted");
        }
        // Nothing deleted this one; writing a file is not deleting it, and the other way round.
        let f = judged(&items, &claim(ClaimSubject::FileDeleted, "tox.ini"));
        assert_eq!(f.verdict, Verdict::Unverified);
        let f = judged(&items, &claim(ClaimSubject::FileWritten, "setup.cfg"));
        assert_eq!(f.verdict, Verdict::Unverified, "{}", f.rationale());
    }

    #[test]
    fn a_failed_rm_contradicts_unless_the_file_was_already_gone() {
        let items = run(
            "a",
            "rm vendor/a.js vendor/b.js vendor/c.js",
            "rm: cannot remove 'vendor/a.js': Permission denied\nrm: cannot remove 'vendor/c.js': No such file or directory\n",
            1,
        );
        let f = judged(&items, &claim(ClaimSubject::FileDeleted, "vendor/a.js"));
        assert_eq!(f.verdict, Verdict::Contradicted, "{}", f.rationale());
        assert!(
            f.rationale().contains("Permission denied"),
            "{}",
            f.rationale()
        );
        // rm named only the others: this one went.
        let f = judged(&items, &claim(ClaimSubject::FileDeleted, "vendor/b.js"));
        assert_eq!(f.verdict, Verdict::Verified, "{}", f.rationale());
        // Already absent: not what the claim says happened, but not a contradiction either.
        let f = judged(&items, &claim(ClaimSubject::FileDeleted, "vendor/c.js"));
        assert_eq!(f.verdict, Verdict::Review, "{}", f.rationale());
    }

    #[test]
    fn shell_writes_count_and_the_latest_attempt_wins() {
        let mut items = Vec::new();
        items.extend(run(
            "a",
            "mkdir -p .github/workflows && cp templates/ci.yml .github/workflows/ci.yml",
            "",
            0,
        ));
        items.extend(run("b", "printf 'A=1\\n' | tee .env.example", "A=1\n", 0));
        items.extend(run("c", "mv config/nginx.conf deploy/nginx.conf", "", 0));
        items.extend(run(
            "d",
            "cat > MANIFEST.in <<'EOF'\ninclude LICENSE\nEOF",
            "",
            0,
        ));
        // A failed edit retried successfully.
        items.push(tool_call(
            "ec1",
            Some("e1"),
            "Edit",
            serde_json::json!({"file_path": "/w/src/app.ts"}),
        ));
        items.push(output(
            "eo1",
            Some("e1"),
            "<tool_use_error>String to replace not found in file.</tool_use_error>",
            None,
            Some(true),
        ));
        items.push(tool_call(
            "ec2",
            Some("e2"),
            "Edit",
            serde_json::json!({"file_path": "/w/src/app.ts"}),
        ));
        items.push(output(
            "eo2",
            Some("e2"),
            "The file /w/src/app.ts has been updated successfully.",
            None,
            Some(false),
        ));
        for path in [
            ".github/workflows/ci.yml",
            ".env.example",
            "deploy/nginx.conf",
            "MANIFEST.in",
            "src/app.ts",
        ] {
            let f = judged(&items, &claim(ClaimSubject::FileWritten, path));
            assert_eq!(f.verdict, Verdict::Verified, "{path}: {}", f.rationale());
        }
        // mv takes the file away from its old path.
        let f = judged(
            &items,
            &claim(ClaimSubject::FileDeleted, "config/nginx.conf"),
        );
        assert_eq!(f.verdict, Verdict::Verified, "{}", f.rationale());
    }

    #[test]
    fn another_actors_file_work_is_not_the_sessions() {
        let items = run("a", "cp a.toml config/app.toml", "", 0);
        let mut c = claim(ClaimSubject::FileWritten, "config/app.toml");
        c.actor = ClaimActor::Other {
            who: "Priya".into(),
        };
        let f = judged(&items, &c);
        assert_eq!(f.verdict, Verdict::Unverified, "{}", f.rationale());
        assert_eq!(f.rule, "file_written.other_actor_unseen");
    }
}
