//! `file_written`: a successful write of the claimed path confirms it; attempts that all
//! failed, with nothing writing the file later, contradict it.

use super::*;

impl Verdicts<'_> {
    /// `file_deleted`: the deletion sensors are not built yet, so nothing in the session
    /// can show a deletion; the claim stays UNVERIFIED and says why.
    pub(super) fn file_deleted(&self) -> Finding {
        self.make(
            Verdict::Unverified,
            "no_deletion_evidence",
            "No deletion of the claimed path was observed in the session; absence of evidence is not a contradiction.".into(),
            Vec::new(),
        )
    }

    pub(super) fn file_written(&self) -> Finding {
        let Some(path) = self.claim.target.path.clone() else {
            return self.make(
                Verdict::Unverified,
                "no_path",
                "The claim names no file.".into(),
                Vec::new(),
            );
        };
        let matching: Vec<&Change> = self
            .obs
            .changes
            .iter()
            .filter(|c| self.at.sees(c.pos) && !c.path.is_empty() && same_file(&path, &c.path))
            .collect();
        if matching.is_empty() {
            let o = &self.obs.observability;
            if o.files_declared_unobservable && o.calls_unobservable() {
                return self.make(
                    Verdict::Unavailable,
                    "unavailable.no_file_signal",
                    "The runtime declares that neither tool calls nor file mutations can be observed in this capture.".into(),
                    Vec::new(),
                );
            }
            return self.make(
                Verdict::Unverified,
                "untouched",
                format!("Nothing in the session wrote {path} before the claim; absence of evidence is not a contradiction."),
                Vec::new(),
            );
        }
        let last_success = matching.iter().rposition(|c| c.succeeded == Some(true));
        let last = matching[matching.len() - 1];
        match last_success {
            Some(i) => {
                let ok = matching[i];
                let later_failure = matching[i + 1..].iter().any(|c| c.succeeded == Some(false));
                let ev: Vec<String> = matching[i..]
                    .iter()
                    .filter_map(|c| c.evidence_id.clone())
                    .collect();
                if later_failure {
                    return self.make(
                        Verdict::Review,
                        "later_attempt_failed",
                        format!(
                            "{} succeeded, but a later attempt failed ({}); the file may not hold what the claim describes.",
                            describe_change(ok),
                            describe_change(last)
                        ),
                        ev,
                    );
                }
                self.make(
                    Verdict::Verified,
                    "written",
                    format!(
                        "{} succeeded ({} write(s) of the path before the claim).",
                        describe_change(ok),
                        matching.len()
                    ),
                    ev,
                )
            }
            None if matching.iter().all(|c| c.succeeded == Some(false))
                && self.later_unseen_write(&path, last.pos).is_some() =>
            {
                let (what, ids) = self.later_unseen_write(&path, last.pos).unwrap_or_default();
                self.make(
                    Verdict::Review,
                    "failed_then_unseen_write",
                    format!(
                        "Every recorded attempt to write {path} failed (latest: {}), but later {what} may have written it.",
                        describe_change(last)
                    ),
                    ids,
                )
            }
            None if matching.iter().all(|c| c.succeeded == Some(false)) => {
                let ev: Vec<String> = matching
                    .iter()
                    .filter_map(|c| c.evidence_id.clone())
                    .collect();
                let err = last
                    .error
                    .clone()
                    .map(|e| format!(": {e}"))
                    .unwrap_or_default();
                self.make(
                    Verdict::Contradicted,
                    "write_failed",
                    format!("Every attempt to write {path} failed; the latest, {}, reported{err}. Nothing wrote it later.", describe_change(last)),
                    ev,
                )
            }
            None => {
                if self.obs.observability.outputs_unobservable() {
                    return self.make(
                        Verdict::Unavailable,
                        "unavailable.no_tool_output",
                        format!(
                            "{} was attempted, but the capture records tool calls without any results, so whether the write happened cannot be observed.",
                            describe_change(last)
                        ),
                        Vec::new(),
                    );
                }
                self.make(
                    Verdict::Review,
                    "outcome_unknown",
                    format!(
                        "{} was attempted, but its result was never recorded.",
                        describe_change(last)
                    ),
                    matching
                        .iter()
                        .filter_map(|c| c.evidence_id.clone())
                        .collect(),
                )
            }
        }
    }
    /// A write the file timeline cannot attribute to a path, after `pos`: a writer that names no
    /// file (`git apply`, `patch`) or a command that mentions the file (a script writing it).
    fn later_unseen_write(&self, path: &str, pos: usize) -> Option<(String, Vec<String>)> {
        let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
        if let Some(c) = self.obs.changes.iter().find(|c| {
            self.at.sees(c.pos) && c.pos > pos && c.path.is_empty() && c.succeeded != Some(false)
        }) {
            return Some((
                format!(
                    "{} (which writes files it does not name)",
                    describe_change(c)
                ),
                Vec::new(),
            ));
        }
        let run = self.obs.runs.iter().find(|r| {
            self.at.sees(r.pos)
                && r.pos > pos
                && !name.is_empty()
                && r.command.contains(name)
                && r.classes.iter().all(|(_, c)| c.kind == CommandKind::Other)
                && !is_read_only(&r.command)
        })?;
        Some((
            format!("{} mentions the file", describe_run(run)),
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
