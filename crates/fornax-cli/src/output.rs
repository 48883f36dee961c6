//! Printing: tables, colors (off with NO_COLOR or when not a terminal), JSON.

use std::io::Write;

use anstream::{eprintln, println};
use owo_colors::OwoColorize;

/// Prints a value as pretty JSON on stdout.
pub fn json<T: serde::Serialize>(value: &T) {
    let text =
        serde_json::to_string_pretty(value).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
}

pub fn error(message: &str, hint: Option<&str>) {
    eprintln!("{} {message}", "error:".red().bold());
    if let Some(h) = hint {
        eprintln!("{} {h}", "hint:".cyan().bold());
    }
}

pub fn warn(message: &str) {
    eprintln!("{} {message}", "warning:".yellow().bold());
}

pub fn line(text: &str) {
    println!("{text}");
}

pub fn heading(text: &str) {
    println!("{}", text.bold());
}

/// A verdict, colored by meaning.
pub fn verdict(v: &str) -> String {
    match v {
        "VERIFIED" => v.green().bold().to_string(),
        "CONTRADICTED" => v.red().bold().to_string(),
        "REVIEW" => v.yellow().bold().to_string(),
        "UNAVAILABLE" => v.magenta().to_string(),
        _ => v.dimmed().to_string(),
    }
}

pub fn dim(text: &str) -> String {
    text.dimmed().to_string()
}

/// Left-aligned columns, widths from the content (cells are plain text; `styled` columns may
/// hold ANSI codes and are padded by their plain width).
pub fn table(headers: &[&str], rows: &[Vec<String>]) {
    let n = headers.len();
    let mut widths: Vec<usize> = headers.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (i, cell) in row.iter().enumerate().take(n) {
            widths[i] = widths[i].max(visible_width(cell));
        }
    }
    let header: Vec<String> = headers
        .iter()
        .enumerate()
        .map(|(i, h)| pad(h, widths[i]))
        .collect();
    println!("{}", header.join("  ").trim_end().bold());
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .take(n)
            .map(|(i, c)| pad(c, widths[i]))
            .collect();
        println!("{}", cells.join("  ").trim_end());
    }
}

fn visible_width(s: &str) -> usize {
    let mut width = 0;
    let mut in_escape = false;
    for c in s.chars() {
        if in_escape {
            if c == 'm' {
                in_escape = false;
            }
        } else if c == '\u{1b}' {
            in_escape = true;
        } else {
            width += 1;
        }
    }
    width
}

fn pad(s: &str, width: usize) -> String {
    let w = visible_width(s);
    format!("{s}{}", " ".repeat(width.saturating_sub(w)))
}

/// Shortens text to `n` characters on one line.
pub fn clip(s: &str, n: usize) -> String {
    let one_line = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= n {
        return one_line;
    }
    let cut: String = one_line.chars().take(n.saturating_sub(1)).collect();
    format!("{cut}…")
}

/// "re-checked 2026-12-01: passes now — 5 passed, 0 failed (cargo) [workspace.test.run]": a
/// run Fornax performed after the claim, shown beside its finding (never instead of it).
pub fn recheck_line(r: &fornax_store::RecheckRow) -> String {
    let date = r.finished_at.get(..10).unwrap_or(&r.finished_at);
    let phrase = fornax_types::RecheckOutcome::parse(&r.outcome)
        .map(|o| o.phrase())
        .unwrap_or(r.outcome.as_str());
    let trust = match r.trust_class.as_str() {
        "workspace_untrusted" => ", untrusted: run once, decides nothing",
        "workspace_trusted" => ", from trusted workspace files",
        _ => "",
    };
    format!(
        "re-checked {date}: {phrase} — {} [{}{trust}]",
        r.summary, r.capability_id
    )
}
