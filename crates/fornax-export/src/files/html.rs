//! One self-contained HTML page: inline style, no script, no external resource; every text
//! escaped. It shows what the dashboard shows: the timeline with claims and their verdicts.

use std::io::Write;

use super::timeline::{entry, usage_phrase};
use crate::SessionExport;

const STYLE: &str = "body{font:14px/1.5 system-ui,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#1d1d1f}
h1,h2,h3{font-weight:600}table.meta td{padding:0 1em 0 0;vertical-align:top}
.item{border-left:3px solid #d0d0d7;padding:.25em .75em;margin:.5em 0}
.item .label{font-weight:600;color:#555}.item .at{color:#888;font-size:12px;margin-left:.5em}
pre{background:#f5f5f7;padding:.5em;overflow-x:auto;white-space:pre-wrap}
.finding{margin:.25em 0 .25em 1em;padding:.25em .5em;border-radius:4px;background:#fafafa}
.verdict{font-weight:700;padding:0 .4em;border-radius:3px;color:#fff}
.VERIFIED{background:#1a7f37}.CONTRADICTED{background:#cf222e}.UNVERIFIED{background:#9a6700}
.REVIEW{background:#8250df}.UNAVAILABLE{background:#6e7781}
.evidence{color:#555;font-size:12px}section.subagent{margin-left:1.5em;border-left:2px dashed #ccc;padding-left:1em}";

pub(super) fn write(export: &SessionExport, out: &mut dyn Write) -> std::io::Result<()> {
    let title = format!(
        "{} session {}",
        export.session.provider,
        export
            .session
            .name
            .as_deref()
            .unwrap_or(&export.session.native_id)
    );
    writeln!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
         <title>{}</title><style>{STYLE}</style></head><body>",
        esc(&title)
    )?;
    session(export, 1, out)?;
    writeln!(out, "</body></html>")
}

fn session(s: &SessionExport, depth: usize, out: &mut dyn Write) -> std::io::Result<()> {
    let row = &s.session;
    let h = depth.min(3);
    writeln!(
        out,
        "<section class=\"session{}\" data-session=\"{}\"><h{h}>{} session {}</h{h}>",
        if depth > 1 { " subagent" } else { "" },
        esc(&row.native_id),
        esc(&row.provider),
        esc(row.name.as_deref().unwrap_or(&row.native_id))
    )?;
    writeln!(out, "<table class=\"meta\">")?;
    for (k, v) in [
        ("session", Some(row.native_id.as_str())),
        ("delegated from", row.parent_native_id.as_deref()),
        ("directory", row.cwd.as_deref()),
        ("started", row.created_at.as_deref()),
        ("last activity", row.last_activity.as_deref()),
        ("runtime version", row.runtime_version.as_deref()),
    ] {
        if let Some(v) = v {
            writeln!(out, "<tr><td>{k}</td><td>{}</td></tr>", esc(v))?;
        }
    }
    writeln!(out, "</table>")?;
    let mut current: Option<Option<u32>> = None;
    for item in &s.items {
        if current != Some(item.loop_position) {
            if current.is_some() {
                writeln!(out, "</div>")?;
            }
            current = Some(item.loop_position);
            let title = match item.loop_position {
                Some(p) => {
                    let l = s.loops.iter().find(|l| l.position == i64::from(p));
                    let mut t = format!("Loop {}", p + 1);
                    let parts: [Option<String>; 3] = [
                        l.and_then(|l| l.model.clone()),
                        l.and_then(usage_phrase),
                        l.and_then(|l| l.outcome.clone()),
                    ];
                    for part in parts.into_iter().flatten() {
                        t.push_str(" · ");
                        t.push_str(&part);
                    }
                    t
                }
                None => "Outside any loop".to_string(),
            };
            writeln!(
                out,
                "<div class=\"loop\"><h{}>{}</h{}>",
                h + 1,
                esc(&title),
                h + 1
            )?;
        }
        let e = entry(item, &s.findings);
        write!(
            out,
            "<div class=\"item\" data-role=\"{}\"><span class=\"label\">{}</span>",
            item.semantic.role.as_str(),
            esc(&e.label)
        )?;
        if let Some(at) = e.at {
            write!(out, "<span class=\"at\">{}</span>", esc(at))?;
        }
        if !e.body.is_empty() {
            if e.code {
                write!(out, "<pre>{}</pre>", esc(&e.body))?;
            } else {
                write!(out, "<p>{}</p>", esc(&e.body).replace('\n', "<br>"))?;
            }
        }
        for f in e.findings {
            let claim = f.claim.get("text").and_then(|v| v.as_str()).unwrap_or("");
            write!(
                out,
                "<div class=\"finding\" data-verdict=\"{v}\"><span class=\"verdict {v}\">{v}</span> \
                 <q>{}</q> — {}",
                esc(claim),
                esc(&f.rationale),
                v = esc(&f.verdict)
            )?;
            if !f.evidence.is_empty() {
                write!(out, "<div class=\"evidence\">evidence: ")?;
                for (i, ev) in f.evidence.iter().enumerate() {
                    if i > 0 {
                        write!(out, "; ")?;
                    }
                    write!(out, "<code>{}</code> {}", esc(&ev.id), esc(&ev.description))?;
                }
                write!(out, "</div>")?;
            }
            write!(out, "</div>")?;
        }
        writeln!(out, "</div>")?;
    }
    if current.is_some() {
        writeln!(out, "</div>")?;
    }
    for child in &s.subagents {
        session(child, depth + 1, out)?;
    }
    writeln!(out, "</section>")
}

fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            c => o.push(c),
        }
    }
    o
}
