//! What a claim names: the files it says were written or deleted (each with its own stretch
//! of the clause, paths without their `:line` locations), the commit sha and branch, the push
//! remote and branch, and the command behind an action done in words ("merged `x` into
//! `main`").

use std::sync::LazyLock;

use super::pattern::Pattern;
use fornax_types::{ClaimSubject, ClaimTarget};

use super::lexicon::*;
use super::{trim_punctuation, CodeCat, Doc, Found};
use crate::paths::{looks_like_file_path, strip_location};
use crate::text::Span;

/// Notes that say a listed file was not changed.
static UNCHANGED: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"\b(?:no\s+changes?|unchanged|untouched|not\s+(?:modified|changed|touched)|read[- ]only|reference|deleted\s+upstream)\b").expect("valid regex")
});

/// A push range written without code quotes (`f95ca73..017b237`).
pub(super) static BARE_RANGE: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"\b[0-9a-f]{7,40}\.\.\.?[0-9a-f]{7,40}\b").expect("valid regex")
});

/// Other paths coordinated with the one before them (", `b.py` and `c.py`").
static COORDINATED_CODE: LazyLock<Pattern> =
    LazyLock::new(|| Pattern::new(r"^(?:\s*(?:,|and|or|&)\s*`x*`)+").expect("valid regex"));

/// Verbs (base form, as in a commit message) that open the description of a change in a list:
/// "`src/pool.c`: initialize `slots` before the first resize".
static CHANGE_VERB: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(r"^(?:initiali[sz]e|set|add|remove|use|handle|guard|check|return|reject|skip|free|clamp|validate|avoid|make|move|rename|update|fix|replace|wrap|call|pass|store|keep|drop|ensure|allow|support|emit|log|convert|track|cache|reset|clear|compute|limit|bound|bump|pin|expose|export|import|register|wire|route|document|test|cover|assert|parse|escape|sanitize|normali[sz]e|refactor|split|extract|inline|rewrite|tighten|relax|default|switch|migrate|delete|stop|start|retry|reuse|introduce|implement|extend|adjust|mark|null-check|bounds-check)\b")
        .expect("valid regex")
});

/// What separates a path from what is said about it in a list or a table row.
fn labels(after: &str) -> bool {
    after.starts_with(": ")
        || after.starts_with(" — ")
        || after.starts_with(" - ")
        || after.starts_with(" – ")
        || after.starts_with(" | ")
        || after.starts_with(" (")
        // An em or en dash decoded as Windows-1252 (`â€”`), as some captures store it.
        || after.starts_with(" â€” ")
        || after.starts_with(" â€“ ")
}

impl Doc<'_> {
    /// One claim per file path that follows a file verb, each quoting its own stretch of the
    /// clause ("I updated `a.rs` and `b.rs`" quotes "I updated `a.rs`" and "`b.rs`"). A path
    /// that is the direct object of a delete verb ("removed the old `x.cfg`") is deleted; a
    /// path a delete verb removed something from ("removed the debug print from `a.py`") was
    /// written.
    pub(super) fn file_claims(&self, region: Span, codes: &[usize]) -> Vec<Found> {
        let mut paths: Vec<(Span, String)> = Vec::new();
        let mut verbs = self.matches(&FILE_VERB, region);
        // Verbs that code does as often as agents ("the parser raised `ValueError` in
        // `parse.py`", "the plugin registered a hook") write a file only as the clause's own
        // opening act: "Raised the timeout in `conf.toml`", "I also registered the route".
        static CODE_VERB: LazyLock<Pattern> = LazyLock::new(|| {
            Pattern::new(r"^(?:raised|lowered|increased|decreased|reduced|enabled|disabled|switched|swapped|trimmed|registered|made)$")
                .expect("valid regex")
        });
        static OPENING: LazyLock<Pattern> = LazyLock::new(|| {
            Pattern::new(
                r"^[\s*_-]*(?:(?:i|we)\s+)?(?:(?:also|then|finally|just|have|has|had|and)\s+)*$",
            )
            .expect("valid regex")
        });
        verbs.retain(|v| {
            let word = &self.lower[v.start..v.end];
            // "Made sure `x.py` passes" checks, it does not write.
            if word == "made" && self.lower[v.end..region.end].starts_with(" sure") {
                return false;
            }
            !CODE_VERB.is_match(word) || OPENING.is_match(&self.lower[region.start..v.start])
        });
        // A checklist task marked done: "**Update CHANGELOG.md** - Already done".
        let hay = self.lower.get(region.start..region.end).unwrap_or("");
        if let Some(task) = TASK_VERB.captures(hay).and_then(|c| c.name("verb")) {
            if DONE_MARK.is_match(&hay[task.end()..]) {
                verbs.insert(
                    0,
                    Span::new(region.start + task.start(), region.start + task.end()),
                );
            }
        }
        // A reason ("since everything lives in `pyproject.toml` now") names files that were
        // not written.
        static REASON: LazyLock<Pattern> =
            LazyLock::new(|| Pattern::new(r"\b(?:since|because)\b").expect("valid regex"));
        let objects_end = verbs
            .first()
            .and_then(|v| {
                self.matches(&REASON, Span::new(v.end, region.end))
                    .first()
                    .map(|m| m.start)
            })
            .unwrap_or(region.end);
        if let Some(first_verb) = verbs.first() {
            for &ci in codes {
                let c = &self.code[ci];
                if c.span.start >= first_verb.end
                    && c.span.end <= objects_end
                    && matches!(c.cat, CodeCat::Path)
                    && !self.names_a_reference(region, c.span)
                {
                    paths.push((c.span, strip_location(&c.content).to_string()));
                }
            }
            for (span, token) in self.bare_paths(Span::new(first_verb.end, objects_end)) {
                if !self.names_a_reference(region, span) {
                    paths.push((span, strip_location(&token).to_string()));
                }
            }
        }
        // A change list: "- `api/routes.go`: wired the limiter into the login route",
        // "src/pool.c — initialize `slots` first", "| `src/retry.rs` | added backoff |".
        if let Some((path_span, path)) = self.leading_path(region) {
            let after = self.lower.get(path_span.end..region.end).unwrap_or("");
            let after = after.trim_start_matches(['*', '`', ')']);
            let description = after
                .trim_start_matches(|c: char| !c.is_alphanumeric())
                .trim_start();
            if labels(after)
                && !UNCHANGED.is_match(after)
                // A description of what was done, not of what the file is.
                && (FILE_VERB.is_match(after)
                    || CHANGE_VERB.is_match(description)
                    || after.split_whitespace().take(4).any(|w| w == "new"))
                && !paths.iter().any(|(s, _)| *s == path_span)
            {
                paths.push((path_span, path));
            }
        }
        // Passive: "`config.yml` was updated"; a change described by what the file does now:
        // "`Parser/lexer.c:2210` now checks the depth".
        static NOW_DOES: LazyLock<Pattern> = LazyLock::new(|| {
            Pattern::new(r"^\s+now\s+(?:also\s+)?[a-z]+s\b").expect("valid regex")
        });
        for &ci in codes {
            let c = &self.code[ci];
            if !matches!(c.cat, CodeCat::Path) || paths.iter().any(|(s, _)| *s == c.span) {
                continue;
            }
            let rest = self.lower.get(c.span.end..region.end).unwrap_or("");
            // "`a.py` and `b.py` are created": the passive after the last of several paths.
            let rest = COORDINATED_CODE
                .find(rest)
                .map_or(rest, |m| &rest[m.end()..]);
            let at_start = self.text.get(region.start..c.span.start).is_some_and(|b| {
                b.trim_matches(|ch: char| ch == '*' || ch.is_whitespace())
                    .is_empty()
            });
            if PASSIVE_FILE.is_match(rest)
                || DELETE_PASSIVE.is_match(rest)
                || (at_start && NOW_DOES.is_match(rest))
            {
                paths.push((c.span, strip_location(&c.content).to_string()));
            }
        }
        paths.sort_by_key(|(s, _)| s.start);
        paths.dedup_by(|a, b| a.1 == b.1);
        paths.truncate(16);
        if paths.is_empty() {
            // "Removed the old scripts": files deleted without a path.
            return self
                .pathless_deletion(region)
                .map(|span| vec![(ClaimSubject::FileDeleted, span, ClaimTarget::default())])
                .unwrap_or_default();
        }
        let n = paths.len();
        let mut out = Vec::new();
        let mut seg_start = region.start;
        for i in 0..n {
            let seg_end = if i + 1 < n {
                let gap = Span::new(paths[i].0.end, paths[i + 1].0.start);
                match self.last_connector(gap) {
                    Some(conn) => {
                        let end = conn.start;
                        // The next object's quote keeps its conjunction ("and `b.rs`"):
                        // alone, a bare path is hard to tell from the first one.
                        let next_start = self.lower[conn.start..conn.end]
                            .find(|c: char| c.is_ascii_alphabetic())
                            .map_or(conn.end, |k| conn.start + k);
                        let span = Span::new(seg_start, end).trim(self.text);
                        out.push((span, paths[i].0, paths[i].1.clone()));
                        seg_start = next_start;
                        continue;
                    }
                    None => paths[i].0.end,
                }
            } else {
                region.end
            };
            let span = Span::new(seg_start, seg_end).trim(self.text);
            out.push((span, paths[i].0, paths[i].1.clone()));
            seg_start = seg_end;
        }
        out.into_iter()
            .filter(|(s, _, _)| !s.is_empty())
            .map(|(span, path_span, path)| {
                let span = trim_punctuation(self.text, span);
                let subject = if self.deletes(region, path_span) {
                    ClaimSubject::FileDeleted
                } else {
                    ClaimSubject::FileWritten
                };
                (
                    subject,
                    span,
                    ClaimTarget {
                        path: Some(path),
                        ..ClaimTarget::default()
                    },
                )
            })
            .collect()
    }

    /// Whether the path at `path` is deleted: the object of a delete verb (nothing but
    /// adjectives, other paths and their notes in between), or the subject of a passive one.
    fn deletes(&self, region: Span, path: Span) -> bool {
        let rest = self.lower.get(path.end..region.end).unwrap_or("");
        if DELETE_PASSIVE.is_match(rest) {
            return true;
        }
        let Some(verb) = self
            .matches(&FILE_VERB, Span::new(region.start, path.start))
            .into_iter()
            .next_back()
        else {
            return false;
        };
        let word = &self.lower[verb.start..verb.end];
        if !DELETE_VERB.is_match(word) {
            return false;
        }
        // The gap without inline code, parenthesised notes and list connectors.
        let gap = &self.lower[verb.end..path.start];
        let mut plain = String::with_capacity(gap.len());
        let mut depth = 0usize;
        let mut in_code = false;
        for ch in gap.chars() {
            match ch {
                '`' => in_code = !in_code,
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ if in_code || depth > 0 => {}
                ',' | '&' | '/' => plain.push(' '),
                _ => plain.push(ch),
            }
        }
        let plain = plain.replace(" and ", " ").replace(" or ", " ");
        let plain = format!(" {}", plain.trim());
        if DELETE_GAP.is_match(&plain) {
            return true;
        }
        // A noun phrase naming what the path is: "removed the scratch profile `x.toml`". Not
        // a path the thing was removed from ("removed the import of `x` from `y.py`").
        static APPOSITION: LazyLock<Pattern> = LazyLock::new(|| {
            Pattern::new(r"^\s+(?:the|a|an|my|your|our|its|their)(?:\s+[a-z][\w-]*){1,3}\s*$")
                .expect("valid regex")
        });
        APPOSITION.is_match(&plain)
            && !plain.split_whitespace().any(|w| {
                matches!(
                    w,
                    "of" | "from"
                        | "in"
                        | "inside"
                        | "within"
                        | "at"
                        | "under"
                        | "to"
                        | "into"
                        | "for"
                        | "on"
                        | "with"
                        | "by"
                        | "out"
                        | "that"
                        | "which"
                )
            })
    }

    /// "Removed the old scripts", "deleted the temporary files": a deletion of files the
    /// clause does not name.
    fn pathless_deletion(&self, region: Span) -> Option<Span> {
        let verb = self.first_match(&DELETE_VERB, region)?;
        // The agent's own act, said as such: the verb opens the clause ("Removed the old
        // scripts", "I deleted the temp files"), not "there are some deleted files".
        let head = self.lower.get(region.start..verb.start)?;
        static OPENER: LazyLock<Pattern> = LazyLock::new(|| {
            Pattern::new(
                r"^[\s*_]*(?:(?:i|we)\s+)?(?:(?:also|then|finally|just|have|has|had)\s+)*$",
            )
            .expect("valid regex")
        });
        if !OPENER.is_match(head) {
            return None;
        }
        let rest = self.lower.get(verb.end..region.end)?;
        DELETED_FILES_NOUN.is_match(rest).then_some(region)
    }

    /// The path a list item or table row starts with (after emphasis or a short field label
    /// such as "**File**:"), with its span.
    pub(super) fn leading_path(&self, span: Span) -> Option<(Span, String)> {
        static FIELD: LazyLock<Pattern> = LazyLock::new(|| {
            Pattern::new(r"^[\s*_]*(?:[a-z][a-z /-]{0,24}[\s*_]*(?::|\())?[\s*_]*$")
                .expect("valid regex")
        });
        let first_code = self
            .code
            .iter()
            .find(|c| c.span.start >= span.start && c.span.end <= span.end);
        if let Some(c) = first_code {
            let before = self.lower.get(span.start..c.span.start).unwrap_or("x");
            if matches!(c.cat, CodeCat::Path) && FIELD.is_match(before) {
                return Some((c.span, strip_location(&c.content).to_string()));
            }
        }
        // The path opens the item: only its first words are looked at.
        let head_end = first_code
            .map_or(span.end, |c| c.span.start)
            .min(span.start + 160);
        let head_end = (head_end..=span.end)
            .find(|&i| self.text.is_char_boundary(i))
            .unwrap_or(span.end);
        let (bare, token) = self
            .bare_paths(Span::new(span.start, head_end))
            .into_iter()
            .next()?;
        let before = self.lower.get(span.start..bare.start).unwrap_or("x");
        FIELD
            .is_match(before)
            .then(|| (bare, strip_location(&token).to_string()))
    }

    /// Whether a list item is a `File:` field ("**File**: `src/lexer.c:336`").
    pub(super) fn file_field(&self, span: Span, path: Span) -> bool {
        static FILE_FIELD: LazyLock<Pattern> = LazyLock::new(|| {
            Pattern::new(r"^[\s*_]*(?:files?|changed|modified|updated|edited|touched|patched|fixed(?:\s+in)?|changes?\s+in)[\s*_]*:[\s*_]*$")
                .expect("valid regex")
        });
        self.lower
            .get(span.start..path.start)
            .is_some_and(|b| FILE_FIELD.is_match(b))
    }

    /// What follows a listed path says something about it ("— unit test for the change set"),
    /// and not that it is unchanged.
    pub(super) fn labels_a_path(&self, rest: &str) -> bool {
        let rest = rest.trim_start_matches('*');
        labels(rest) && !UNCHANGED.is_match(rest)
    }

    /// A push range (`f95ca73..017b237`) shown for a remote branch.
    pub(super) fn push_range(&self, region: Span, codes: &[usize]) -> Option<ClaimTarget> {
        static RANGE: LazyLock<Pattern> = LazyLock::new(|| {
            Pattern::new(r"^[0-9a-f]{7,40}\.\.\.?[0-9a-f]{7,40}$").expect("valid regex")
        });
        let coded = codes
            .iter()
            .any(|&ci| RANGE.is_match(&self.code[ci].content));
        if !coded && !self.present(&BARE_RANGE, region) {
            return None;
        }
        let target = self.remote_and_branch(region);
        let pushy = target.remote.is_some()
            || self
                .lower
                .get(region.start..region.end)
                .is_some_and(|h| h.contains("push"));
        pushy.then_some(target)
    }

    /// The remote and branch a clause names anywhere (`origin/main`, `` `origin` ``).
    pub(super) fn remote_and_branch(&self, region: Span) -> ClaimTarget {
        static TOKEN: LazyLock<Pattern> =
            LazyLock::new(|| Pattern::new(r"[A-Za-z0-9_][\w./-]*[\w]").expect("valid regex"));
        let mut tokens: Vec<String> = self
            .code
            .iter()
            .filter(|c| c.span.start >= region.start && c.span.end <= region.end)
            .map(|c| c.content.clone())
            .collect();
        if let Some(hay) = self.text.get(region.start..region.end) {
            tokens.extend(TOKEN.find_iter(hay).map(|m| m.as_str().to_string()));
        }
        let mut target = ClaimTarget::default();
        for t in tokens {
            let (first, rest) = t.split_once('/').unwrap_or((&t, ""));
            if REMOTE_NAMES.contains(&first) {
                target.remote = Some(first.to_string());
                if !rest.is_empty() {
                    target.branch = Some(rest.to_string());
                }
                break;
            }
        }
        target
    }

    /// Actions a clause says were done through a well-known command, with the command.
    pub(super) fn actions(&self, region: Span) -> Vec<(Span, String)> {
        if !self.may_match(&ACTION, region) {
            return Vec::new();
        }
        let Some(hay) = self.lower.get(region.start..region.end) else {
            return Vec::new();
        };
        let code_text = |start: usize, end: usize| -> String {
            let (s, e) = (region.start + start, region.start + end);
            self.code
                .iter()
                .find(|c| c.span.start == s && c.span.end == e)
                .map(|c| c.content.clone())
                .unwrap_or_else(|| self.text[s..e].to_string())
        };
        let mut out = Vec::new();
        for c in ACTION.captures_iter(hay) {
            let Some(all) = c.get(0) else { continue };
            let command = if let Some(what) = c.name("mergewhat") {
                format!("git merge {}", code_text(what.start(), what.end()))
            } else if c.name("rebase").is_some() {
                "git rebase".to_string()
            } else if c.name("pr").is_some() {
                "gh pr create".to_string()
            } else if c.name("issue").is_some() {
                "gh issue create".to_string()
            } else if let Some(on) = c.name("on") {
                if on.as_str() == "issue" {
                    "gh issue comment".to_string()
                } else {
                    "gh pr comment".to_string()
                }
            } else if let Some(what) = c.name("codewhat") {
                match what.as_str() {
                    "it" | "them" => "code".to_string(),
                    _ => format!("code {}", code_text(what.start(), what.end())),
                }
            } else {
                continue;
            };
            // The quote runs from the action to the end of its clause.
            let start = region.start + all.start();
            out.push((Span::new(start, region.end).trim(self.text), command));
        }
        out
    }

    /// A path mentioned for comparison or as a source ("like `a.ts`", "imports from `b.ts`"),
    /// not as something written.
    pub(super) fn names_a_reference(&self, region: Span, path: Span) -> bool {
        static REFERENCE: LazyLock<Pattern> = LazyLock::new(|| {
            Pattern::new(r"\b(?:like|as\s+in|similar\s+to|(?:pattern|approach|style|structure|shape|way|logic|convention)s?\s+(?:as|in|of|from|used\s+in)|(?:the|same)\s+ones?\s+(?:as|in|from|used\s+in)|based\s+on|see|per|mirroring|following|same\s+as|instead\s+of|rather\s+than|(?:imports?|imported|copied|derived|exported|re-exported|taken|borrowed|read|loaded)\s+from)\s+(?:the\s+)?(?:one\s+in\s+|pattern\s+in\s+|existing\s+)?$")
                .expect("valid regex")
        });
        let before = self.lower.get(region.start..path.start).unwrap_or("");
        REFERENCE.is_match(before)
    }

    pub(super) fn last_connector(&self, gap: Span) -> Option<Span> {
        static CONNECTOR: LazyLock<Pattern> = LazyLock::new(|| {
            Pattern::new(r",?\s+(?:and|or|plus|as\s+well\s+as)\s+|,\s+|\s*&\s*|\s*/\s*")
                .expect("valid regex")
        });
        self.matches(&CONNECTOR, gap).into_iter().rfind(|m| {
            self.depth.get(m.start).copied().unwrap_or(0)
                == self.depth.get(gap.start).copied().unwrap_or(0)
        })
    }

    /// File paths written without backticks (`src/main.rs`, `README.md`, `the Makefile`).
    pub(super) fn bare_paths(&self, span: Span) -> Vec<(Span, String)> {
        static TOKEN: LazyLock<Pattern> =
            LazyLock::new(|| Pattern::new(r"[A-Za-z0-9_./\\-]+[A-Za-z0-9_]").expect("valid regex"));
        let Some(hay) = self.text.get(span.start..span.end) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for m in TOKEN.find_iter(hay) {
            let (s, e) = (span.start + m.start(), span.start + m.end());
            if self
                .code
                .iter()
                .any(|c| c.span.start <= s && s < c.span.end)
            {
                continue;
            }
            let token = m.as_str();
            // A quoted value ('index.html') or a library's name (highlight.js) is not a file.
            let quoted = s > 0 && matches!(self.text.as_bytes()[s - 1], b'\'' | b'"');
            let library = !token.contains('/') && is_library_name(token);
            if quoted || library {
                continue;
            }
            let last = token.rsplit('/').next().unwrap_or(token);
            let stem = last.split('.').next().unwrap_or("");
            // Bare words with a capitalised stem are usually names (Node.js), not files,
            // unless they are well-known upper-case file names (README.md, Makefile).
            let plausible = token.contains('/')
                || stem
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_lowercase() || c == '_' || c == '.')
                || stem.chars().all(|c| c.is_ascii_uppercase() || c == '_')
                || matches!(
                    last,
                    "Makefile" | "Dockerfile" | "Justfile" | "Gemfile" | "Rakefile"
                );
            if plausible && looks_like_file_path(token) {
                out.push((Span::new(s, e), token.to_string()));
            }
        }
        out
    }

    pub(super) fn commit_target(&self, region: Span, codes: &[usize]) -> ClaimTarget {
        let mut target = ClaimTarget {
            sha: codes.iter().find_map(|&ci| match self.code[ci].cat {
                CodeCat::Sha => Some(self.code[ci].content.clone()),
                _ => None,
            }),
            ..ClaimTarget::default()
        };
        if target.sha.is_none() {
            static BARE_SHA: LazyLock<Pattern> =
                LazyLock::new(|| Pattern::new(r"\b[0-9a-f]{7,40}\b").expect("valid regex"));
            target.sha = self
                .matches(&BARE_SHA, region)
                .into_iter()
                .map(|m| self.text[m.start..m.end].to_string())
                .find(|t| {
                    t.chars().any(|c| c.is_ascii_digit())
                        && t.chars().any(|c| c.is_ascii_alphabetic())
                });
        }
        target.branch = self.branch_after_preposition(region, codes);
        target
    }

    pub(super) fn push_target(&self, region: Span, codes: &[usize]) -> ClaimTarget {
        let mut target = ClaimTarget::default();
        let Some(pushed) = self.first_match(&PUSHED, region) else {
            return target;
        };
        let after = Span::new(pushed.end, region.end);
        static TO: LazyLock<Pattern> = LazyLock::new(|| {
            Pattern::new(
                r"\b(?:to|into|onto)\s+(?:the\s+)?(`x*`|[a-z0-9_][\w./-]*)(?:\s+(branch|remote))?",
            )
            .expect("valid regex")
        });
        let code_text = |span: Span| -> String {
            self.code
                .iter()
                .find(|c| c.span == span)
                .map(|c| c.content.clone())
                .unwrap_or_else(|| self.text[span.start..span.end].to_string())
        };
        // Object right after "pushed": "pushed `feature/x` to origin".
        if let Some(&ci) = codes
            .iter()
            .find(|&&ci| self.code[ci].span.start >= pushed.end)
        {
            let gap = self
                .lower
                .get(pushed.end..self.code[ci].span.start)
                .unwrap_or("x");
            if gap.trim().is_empty()
                || gap.trim() == "the"
                || gap.trim() == "branch"
                || gap.trim() == "the branch"
            {
                target.branch = Some(self.code[ci].content.clone());
            }
        }
        let hay = self.lower.get(after.start..after.end).unwrap_or("");
        if let Some(c) = TO.captures(hay) {
            if let Some(m) = c.get(1) {
                let span = Span::new(after.start + m.start(), after.start + m.end());
                let token = code_text(span)
                    .trim_end_matches(['.', ',', ';', ':'])
                    .to_string();
                let kind = c.get(2).map(|k| k.as_str());
                let (first, rest) = token.split_once('/').unwrap_or((&token, ""));
                if kind == Some("branch") {
                    target.branch = Some(token.clone());
                } else if kind == Some("remote") || REMOTE_NAMES.contains(&first) && rest.is_empty()
                {
                    target.remote = Some(first.to_string());
                } else if REMOTE_NAMES.contains(&first) && !rest.is_empty() {
                    target.remote = Some(first.to_string());
                    target.branch = Some(rest.to_string());
                } else if target.branch.is_none() {
                    target.branch = Some(token.clone());
                }
            }
        }
        target
    }

    pub(super) fn branch_after_preposition(&self, region: Span, codes: &[usize]) -> Option<String> {
        for &ci in codes {
            let c = &self.code[ci];
            if matches!(c.cat, CodeCat::Sha | CodeCat::Path) || c.content.contains(' ') {
                continue;
            }
            let before = self.lower.get(region.start..c.span.start).unwrap_or("");
            if GIT_TARGET_PREP.is_match(before) && !before.trim_end().ends_with(" as") {
                return Some(c.content.clone());
            }
        }
        static ON_BRANCH: LazyLock<Pattern> = LazyLock::new(|| {
            Pattern::new(r"\b(?:on|to)\s+(?:the\s+)?branch\s+([a-z0-9_][\w./-]*)|\b(?:on|to)\s+(?:the\s+)?([a-z0-9_][\w./-]*)\s+branch\b").expect("valid regex")
        });
        let hay = self.lower.get(region.start..region.end)?;
        let c = ON_BRANCH.captures(hay)?;
        let m = c.get(1).or_else(|| c.get(2))?;
        let raw = self
            .text
            .get(region.start + m.start()..region.start + m.end())?;
        Some(raw.trim_end_matches(['.', ',']).to_string())
    }
}

/// JavaScript libraries whose names look like file names.
fn is_library_name(token: &str) -> bool {
    let t = token.to_ascii_lowercase();
    let Some(stem) = t.strip_suffix(".js") else {
        return false;
    };
    [
        "node",
        "highlight",
        "vue",
        "chart",
        "three",
        "express",
        "next",
        "nuxt",
        "d3",
        "moment",
        "react",
        "angular",
        "ember",
        "backbone",
        "socket",
        "pdf",
        "day",
        "anime",
        "p5",
        "ml5",
        "tf",
        "alpine",
        "preact",
        "solid",
        "svelte",
        "deno",
        "bun",
        "marked",
        "mermaid",
        "leaflet",
        "mapbox-gl",
        "video",
        "chart",
        "jquery",
    ]
    .contains(&stem)
}
