//! What a claim names: the files it says were written (each with its own stretch of the
//! clause), the commit sha and branch, the push remote and branch.

use fornax_types::{ClaimSubject, ClaimTarget};
use regex::Regex;

use super::lexicon::*;
use super::{trim_punctuation, CodeCat, Doc, Found};
use crate::paths::looks_like_file_path;
use crate::text::Span;

impl Doc<'_> {
    /// One claim per file path that follows a file verb, each quoting its own stretch of the
    /// clause ("I updated `a.rs` and `b.rs`" quotes "I updated `a.rs`" and "`b.rs`").
    pub(super) fn file_claims(&self, region: Span, codes: &[usize]) -> Vec<Found> {
        let mut paths: Vec<(Span, String)> = Vec::new();
        let verbs = self.matches(&FILE_VERB, region);
        if let Some(first_verb) = verbs.first() {
            for &ci in codes {
                let c = &self.code[ci];
                if c.span.start >= first_verb.end
                    && matches!(c.cat, CodeCat::Path)
                    && !self.names_a_reference(region, c.span)
                {
                    paths.push((c.span, c.content.clone()));
                }
            }
            for (span, token) in self.bare_paths(Span::new(first_verb.end, region.end)) {
                if !self.names_a_reference(region, span) {
                    paths.push((span, token));
                }
            }
        }
        // A change list: "- `api/routes.go`: wired the limiter into the login route".
        if let Some(&ci) = codes.first() {
            let c = &self.code[ci];
            let before = self.text.get(region.start..c.span.start).unwrap_or("x");
            let after = self.lower.get(c.span.end..region.end).unwrap_or("");
            let after = after.trim_start_matches('*');
            static UNCHANGED: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
                Regex::new(r"\b(?:no\s+changes?|unchanged|untouched|not\s+(?:modified|changed|touched)|read[- ]only|reference|deleted\s+upstream)\b").expect("valid regex")
            });
            if matches!(c.cat, CodeCat::Path)
                && before
                    .trim_matches(|ch: char| ch == '*' || ch.is_whitespace())
                    .is_empty()
                && (after.starts_with(": ")
                    || after.starts_with(" — ")
                    || after.starts_with(" - ")
                    || after.starts_with(" – "))
                && !UNCHANGED.is_match(after)
                // A description of what was done, not of what the file is.
                && (FILE_VERB.is_match(after) || after.split_whitespace().take(4).any(|w| w == "new"))
                && !paths.iter().any(|(s, _)| *s == c.span)
            {
                paths.push((c.span, c.content.clone()));
            }
        }
        // Passive: "`config.yml` was updated".
        for &ci in codes {
            let c = &self.code[ci];
            if !matches!(c.cat, CodeCat::Path) || paths.iter().any(|(s, _)| *s == c.span) {
                continue;
            }
            let rest = self.lower.get(c.span.end..region.end).unwrap_or("");
            if PASSIVE_FILE.is_match(rest) {
                paths.push((c.span, c.content.clone()));
            }
        }
        paths.sort_by_key(|(s, _)| s.start);
        paths.dedup_by(|a, b| a.1 == b.1);
        paths.truncate(16);
        let n = paths.len();
        let mut out = Vec::new();
        let mut seg_start = region.start;
        for i in 0..n {
            let seg_end = if i + 1 < n {
                let gap = Span::new(paths[i].0.end, paths[i + 1].0.start);
                match self.last_connector(gap) {
                    Some(conn) => {
                        let end = conn.start;
                        let next_start = conn.end;
                        let span = Span::new(seg_start, end).trim(self.text);
                        out.push((span, paths[i].1.clone()));
                        seg_start = next_start;
                        continue;
                    }
                    None => paths[i].0.end,
                }
            } else {
                region.end
            };
            let span = Span::new(seg_start, seg_end).trim(self.text);
            out.push((span, paths[i].1.clone()));
            seg_start = seg_end;
        }
        out.into_iter()
            .filter(|(s, _)| !s.is_empty())
            .map(|(span, path)| {
                let span = trim_punctuation(self.text, span);
                (
                    ClaimSubject::FileWritten,
                    span,
                    ClaimTarget {
                        path: Some(path),
                        ..ClaimTarget::default()
                    },
                )
            })
            .collect()
    }

    /// A path mentioned for comparison or as a source ("like `a.ts`", "imports from `b.ts`"),
    /// not as something written.
    pub(super) fn names_a_reference(&self, region: Span, path: Span) -> bool {
        static REFERENCE: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
            Regex::new(r"\b(?:like|as\s+in|similar\s+to|(?:pattern|approach|style|structure|shape|way|one|logic|convention)s?\s+(?:as|in|of|from|used\s+in)|based\s+on|see|per|mirroring|following|same\s+as|instead\s+of|rather\s+than|(?:imports?|imported|copied|derived|exported|re-exported|taken|borrowed|read|loaded)\s+from)\s+(?:the\s+)?(?:one\s+in\s+|pattern\s+in\s+|existing\s+)?$")
                .expect("valid regex")
        });
        let before = self.lower.get(region.start..path.start).unwrap_or("");
        REFERENCE.is_match(before)
    }

    pub(super) fn last_connector(&self, gap: Span) -> Option<Span> {
        static CONNECTOR: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
            Regex::new(r",?\s+(?:and|or|plus|as\s+well\s+as)\s+|,\s+|\s*&\s*|\s*/\s*")
                .expect("valid regex")
        });
        self.matches(&CONNECTOR, gap).into_iter().rfind(|m| {
            self.depth.get(m.start).copied().unwrap_or(0)
                == self.depth.get(gap.start).copied().unwrap_or(0)
        })
    }

    /// File paths written without backticks (`src/main.rs`, `README.md`, `the Makefile`).
    pub(super) fn bare_paths(&self, span: Span) -> Vec<(Span, String)> {
        static TOKEN: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
            Regex::new(r"[A-Za-z0-9_./\\-]+[A-Za-z0-9_]").expect("valid regex")
        });
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
            static BARE_SHA: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
                Regex::new(r"\b[0-9a-f]{7,40}\b").expect("valid regex")
            });
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
        let Some(pushed) = self.matches(&PUSHED, region).into_iter().next() else {
            return target;
        };
        let after = Span::new(pushed.end, region.end);
        static TO: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
            Regex::new(
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
        static ON_BRANCH: std::sync::LazyLock<Regex> = std::sync::LazyLock::new(|| {
            Regex::new(r"\b(?:on|to)\s+(?:the\s+)?branch\s+([a-z0-9_][\w./-]*)|\b(?:on|to)\s+(?:the\s+)?([a-z0-9_][\w./-]*)\s+branch\b").expect("valid regex")
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
