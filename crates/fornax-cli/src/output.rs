//! Printing: tables, colors (off with NO_COLOR or when not a terminal), JSON.

use std::io::Write;

use anstream::{eprintln, println};
use owo_colors::OwoColorize;

/// The version of the shape of every `--json` output. It changes only when a field is
/// removed, renamed or changes meaning; new fields may appear at any version.
pub const JSON_SCHEMA_VERSION: u32 = 1;

/// Prints a value as pretty JSON on stdout. An object starts with `schema_version`.
pub fn json<T: serde::Serialize>(value: &T) {
    let text = match serde_json::to_value(value) {
        Ok(serde_json::Value::Object(fields)) => {
            let mut versioned = serde_json::Map::with_capacity(fields.len() + 1);
            versioned.insert("schema_version".into(), JSON_SCHEMA_VERSION.into());
            versioned.extend(fields.into_iter().filter(|(k, _)| k != "schema_version"));
            serde_json::to_string_pretty(&versioned)
        }
        Ok(other) => serde_json::to_string_pretty(&other),
        Err(e) => Err(e),
    }
    .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{text}");
}

/// [`json`] for a large struct with no `schema_version` field of its own (a usage report is
/// megabytes): the same text, written as it serializes instead of through a JSON tree, which
/// cost more than the report itself.
pub fn json_struct<T: serde::Serialize>(value: &T) {
    #[derive(serde::Serialize)]
    struct Versioned<'a, T> {
        schema_version: u32,
        #[serde(flatten)]
        value: &'a T,
    }
    let versioned = Versioned {
        schema_version: JSON_SCHEMA_VERSION,
        value,
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let written = serde_json::to_writer_pretty(&mut out, &versioned);
    let _ = match written {
        Ok(()) => writeln!(out),
        Err(e) => writeln!(out, "{{\"error\": \"{e}\"}}"),
    };
    let _ = out.flush();
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
    paint(v, v)
}

/// `text` in the color of verdict `v`.
fn paint(v: &str, text: &str) -> String {
    match v {
        "VERIFIED" => text.green().bold().to_string(),
        "CONTRADICTED" => text.red().bold().to_string(),
        "REVIEW" => text.yellow().bold().to_string(),
        "UNAVAILABLE" => text.magenta().to_string(),
        _ => text.dimmed().to_string(),
    }
}

/// A verdict with its mark: `✘ CONTRADICTED`.
pub fn badge(v: &str) -> String {
    let mark = fornax_types::Verdict::parse(v).map_or("", verdict_mark);
    paint(v, &format!("{mark} {v}"))
}

fn verdict_mark(v: fornax_types::Verdict) -> &'static str {
    fornax_ui::present::verdict::symbol(v)
}

/// Verdict counts as marks, most urgent first: `✘1 ?2 ✔5` (`-` when there are none).
pub fn verdict_marks(counts: &std::collections::BTreeMap<String, i64>) -> String {
    let parts: Vec<String> = fornax_ui::present::verdict::ordered_counts(counts)
        .into_iter()
        .map(|(v, n)| paint(v.as_str(), &format!("{}{n}", verdict_mark(v))))
        .collect();
    if parts.is_empty() {
        dim("-")
    } else {
        parts.join(" ")
    }
}

/// Verdict counts in words, most urgent first: `✘ 1 contradicted · ✔ 5 verified`.
pub fn verdict_summary(counts: &std::collections::BTreeMap<String, i64>) -> String {
    fornax_ui::present::verdict::ordered_counts(counts)
        .into_iter()
        .map(|(v, n)| {
            paint(
                v.as_str(),
                &format!("{} {n} {}", verdict_mark(v), v.as_str().to_lowercase()),
            )
        })
        .collect::<Vec<_>>()
        .join(" · ")
}

pub fn bold(text: &str) -> String {
    text.bold().to_string()
}

/// `text` with each case-insensitive occurrence of `needle` emphasized.
pub fn highlight(text: &str, needle: &str) -> String {
    let lower = text.to_lowercase();
    let needle = needle.to_lowercase();
    if needle.is_empty() || lower.len() != text.len() {
        return text.to_string();
    }
    let mut out = String::new();
    let mut at = 0;
    while let Some(found) = lower[at..].find(&needle) {
        let start = at + found;
        let end = start + needle.len();
        out.push_str(&text[at..start]);
        out.push_str(&(&text[start..end]).yellow().bold().to_string());
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

/// The width to lay text out in: `COLUMNS` when set, else the terminal's, else 100.
pub fn width() -> usize {
    if let Some(n) = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<usize>().ok())
        .filter(|n| *n >= 20)
    {
        return n;
    }
    terminal_size::terminal_size_of(std::io::stdout())
        .map(|(w, _)| usize::from(w.0))
        .filter(|n| *n >= 20)
        .unwrap_or(100)
}

/// Prints `text` wrapped to the width, the first line after `first`, the rest after `rest`;
/// `style` is applied to each line's text (not its indent).
pub fn wrapped(text: &str, first: &str, rest: &str, style: fn(&str) -> String) {
    for (i, l) in fornax_ui::present::text::wrap(text, width(), first, rest)
        .iter()
        .enumerate()
    {
        let indent = if i == 0 { first } else { rest };
        let body = l.strip_prefix(indent).unwrap_or(l);
        println!("{indent}{}", style(body));
    }
}

/// Text unchanged (a `style` for [`wrapped`]).
pub fn plain(text: &str) -> String {
    text.to_string()
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

/// Terminal columns `s` takes, ANSI color codes left out.
fn visible_width(s: &str) -> usize {
    let mut plain = String::with_capacity(s.len());
    let mut in_escape = false;
    for c in s.chars() {
        if in_escape {
            if c == 'm' {
                in_escape = false;
            }
        } else if c == '\u{1b}' {
            in_escape = true;
        } else {
            plain.push(c);
        }
    }
    fornax_ui::present::text::width(&plain)
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

/// A progress note on stderr (not a warning: nothing is wrong).
pub fn note(message: &str) {
    eprintln!("{} {message}", "note:".cyan().bold());
}
