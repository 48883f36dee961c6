//! Markdown: the session's timeline, loop by loop, with each claim's verdict under the text
//! that made it.

use std::io::Write;

use super::timeline::{entry, usage_phrase};
use crate::SessionExport;

pub(super) fn write(export: &SessionExport, out: &mut dyn Write) -> std::io::Result<()> {
    session(export, 1, out)
}

fn session(s: &SessionExport, depth: usize, out: &mut dyn Write) -> std::io::Result<()> {
    let h = "#".repeat(depth.min(5));
    let row = &s.session;
    writeln!(
        out,
        "{h} {} session {}\n",
        row.provider,
        escape(row.name.as_deref().unwrap_or(&row.native_id))
    )?;
    writeln!(out, "| | |\n|---|---|")?;
    writeln!(out, "| session | `{}` |", row.native_id)?;
    if let Some(p) = &row.parent_native_id {
        writeln!(out, "| delegated from | `{p}` |")?;
    }
    for (k, v) in [
        ("directory", row.cwd.as_deref()),
        ("started", row.created_at.as_deref()),
        ("last activity", row.last_activity.as_deref()),
        ("runtime version", row.runtime_version.as_deref()),
    ] {
        if let Some(v) = v {
            writeln!(out, "| {k} | {} |", escape(v))?;
        }
    }
    let verdicts: Vec<String> = row
        .verdicts
        .iter()
        .map(|(v, n)| format!("{v} {n}"))
        .collect();
    if !verdicts.is_empty() {
        writeln!(out, "| verdicts | {} |", verdicts.join(", "))?;
    }
    writeln!(out)?;
    let mut current: Option<Option<u32>> = None;
    for item in &s.items {
        if current != Some(item.loop_position) {
            current = Some(item.loop_position);
            match item.loop_position {
                Some(p) => {
                    let l = s.loops.iter().find(|l| l.position == i64::from(p));
                    let mut title = format!("{h}# Loop {}", p + 1);
                    if let Some(m) = l.and_then(|l| l.model.as_deref()) {
                        title.push_str(&format!(" · {m}"));
                    }
                    if let Some(u) = l.and_then(usage_phrase) {
                        title.push_str(&format!(" · {u}"));
                    }
                    if let Some(o) = l.and_then(|l| l.outcome.as_deref()) {
                        title.push_str(&format!(" · {o}"));
                    }
                    writeln!(out, "{title}\n")?;
                }
                None => writeln!(out, "{h}# Outside any loop\n")?,
            }
        }
        let e = entry(item, &s.findings);
        writeln!(
            out,
            "**{}**{}\n",
            e.label,
            e.at.map(|a| format!(" · {a}")).unwrap_or_default()
        )?;
        if !e.body.is_empty() {
            if e.code {
                let fence = if e.body.contains("```") {
                    "````"
                } else {
                    "```"
                };
                writeln!(out, "{fence}\n{}\n{fence}\n", e.body)?;
            } else {
                for line in e.body.lines() {
                    writeln!(out, "> {line}")?;
                }
                writeln!(out)?;
            }
        }
        for f in e.findings {
            let claim = f.claim.get("text").and_then(|v| v.as_str()).unwrap_or("");
            writeln!(
                out,
                "- **{}** — “{}” — {}",
                f.verdict,
                escape(claim),
                escape(&f.rationale)
            )?;
            if !f.evidence.is_empty() {
                let ids: Vec<String> = f
                    .evidence
                    .iter()
                    .map(|e| format!("`{}` {}", e.id, escape(&e.description)))
                    .collect();
                writeln!(out, "  - evidence: {}", ids.join("; "))?;
            }
        }
        if item_has_findings(s, &item.key) {
            writeln!(out)?;
        }
    }
    for child in &s.subagents {
        session(child, depth + 1, out)?;
    }
    Ok(())
}

fn item_has_findings(s: &SessionExport, key: &str) -> bool {
    s.findings.iter().any(|f| f.item_key == key)
}

/// Keeps a value from breaking a table row or starting markup.
fn escape(s: &str) -> String {
    s.replace('|', "\\|").replace('\n', " ")
}
