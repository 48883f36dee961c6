//! `fornax show SESSION`: the timeline, loop by loop, with each verdict under the item that
//! holds its claim.

use std::collections::BTreeMap;

use clap::Args;
use fornax_ui::present::{labels, rationale, text, title};

use super::filters::TimeArgs;
use super::findings::plural;
use crate::error::CliError;
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The agent's session id, a unique prefix of it, `latest`, or `#<internal id>`.
    pub session: String,
    #[command(flatten)]
    pub time: TimeArgs,
    /// Also show evidence ids and the rule that decided each verdict.
    #[arg(long, short)]
    pub verbose: bool,
}

/// The last non-empty line of a text: where runners print their summary.
fn last_line(text: &str) -> &str {
    text.lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with("[… "))
        .unwrap_or("")
}

fn item_body(item: &serde_json::Value, room: usize) -> String {
    let v = &item["semantic"]["value"];
    let text_of = |t: &serde_json::Value| t["text"].as_str().unwrap_or("").to_string();
    let short = |s: &str, n: usize| text::shorten(s, n.max(20));
    match v["kind"].as_str().unwrap_or("") {
        "text" => short(&text_of(v), room),
        "reasoning" => match v.get("text") {
            Some(t) => short(&text_of(t), room),
            None => format!("({})", v["mode"].as_str().unwrap_or("")),
        },
        "shell_call" => format!("$ {}", short(v["command"].as_str().unwrap_or(""), room - 2)),
        "tool_call" => {
            let name = v["name"].as_str().unwrap_or("");
            let args = v["arguments"].to_string();
            format!(
                "{name}({})",
                short(&args, room.saturating_sub(name.len() + 2))
            )
        }
        "tool_output" => {
            let mut parts = Vec::new();
            if let Some(code) = v["exit_code"]["code"].as_i64() {
                let derived = v["exit_code"]["strength"].as_str() == Some("heuristic");
                parts.push(format!(
                    "exit {code}{}",
                    if derived { " (derived)" } else { "" }
                ));
            }
            if v["failed"].as_bool() == Some(true) {
                parts.push("failed".into());
            }
            let head = parts.join(" · ");
            let tail = v.get("text").map(&text_of).unwrap_or_default();
            let tail = last_line(&tail);
            match (head.is_empty(), tail.is_empty()) {
                (_, true) => format!("→ {head}"),
                (true, false) => format!("→ {}", short(tail, room - 2)),
                (false, false) => {
                    format!(
                        "→ {head} · {}",
                        short(tail, room.saturating_sub(head.len() + 5))
                    )
                }
            }
        }
        "delegation" => format!(
            "delegated to {}",
            v["agent_type"]
                .as_str()
                .or(v["agent_id"].as_str())
                .unwrap_or("subagent")
        ),
        "subagent" => format!(
            "subagent {} {}",
            v["agent_type"]
                .as_str()
                .or(v["agent_id"].as_str())
                .unwrap_or(""),
            v.get("text")
                .map(|t| short(&text_of(t), room / 2))
                .unwrap_or_default()
        ),
        other => other.to_string(),
    }
}

pub fn run(ctx: &Context, args: ShowArgs) -> Result<(), CliError> {
    let clock = fornax_ui::env::clock(args.time.utc);
    let store = ctx.open_store_read_only()?;
    let id = store.resolve_session(&args.session)?;
    let detail = store.session_detail(id)?;
    if ctx.json {
        output::json(&detail);
        return Ok(());
    }
    let width = output::width();
    let s = &detail.session;
    let heading = title::session_title(
        s.name.as_deref(),
        s.first_prompt.as_deref(),
        width.saturating_sub(4),
    )
    .unwrap_or_else(|| format!("{} session", labels::agent(&s.provider)));
    output::heading(&heading);
    let when = |t: &Option<String>| {
        t.as_deref().map_or("-".to_string(), |t| {
            format!("{} ({})", clock.absolute(t), clock.when(t))
        })
    };
    output::wrapped(
        &format!(
            "{} · session {} · {} · version {}",
            labels::agent(&s.provider),
            s.native_id,
            s.cwd.as_deref().unwrap_or("no working directory"),
            s.runtime_version.as_deref().unwrap_or("-"),
        ),
        "  ",
        "    ",
        output::plain,
    );
    output::wrapped(
        &format!(
            "started {} · last activity {} · {} · {} · {}",
            when(&s.created_at),
            when(&s.last_activity),
            plural(s.loops, "loop"),
            plural(s.items, "item"),
            output::verdict_marks(&s.verdicts)
        ),
        "  ",
        "    ",
        output::plain,
    );
    if let Some(p) = &s.parent_native_id {
        output::line(&format!("  subagent of {p}"));
    }
    for src in &s.sources {
        output::wrapped(&format!("source {src}"), "  ", "    ", output::dim);
    }
    let mut by_item: BTreeMap<&str, Vec<&fornax_store::FindingRow>> = BTreeMap::new();
    for f in &detail.findings {
        by_item.entry(f.item_key.as_str()).or_default().push(f);
    }
    let mut current_loop: Option<i64> = None;
    let role_width = 12;
    for item in &detail.items {
        let lp = item["loop_position"].as_i64();
        if lp != current_loop && lp.is_some() {
            current_loop = lp;
            let info = detail.loops.iter().find(|l| Some(l.position) == lp);
            let outcome = info
                .and_then(|l| l.outcome.clone())
                .unwrap_or_else(|| "open".into());
            let started = info
                .and_then(|l| l.started_at.as_deref())
                .map(|t| format!(" · {}", clock.when(t)))
                .unwrap_or_default();
            output::heading(&format!(
                "loop {} ({outcome}){started}",
                lp.unwrap_or(0) + 1
            ));
        }
        let role = labels::role(item["semantic"]["role"].as_str().unwrap_or("?"));
        let room = width.saturating_sub(role_width + 3);
        output::line(&format!("  {role:<role_width$} {}", item_body(item, room)));
        if let Some(findings) = by_item.get(item["key"].as_str().unwrap_or("")) {
            for f in findings {
                output::line(&format!("    {}", output::badge(&f.verdict)));
                let claim = f.claim["text"].as_str().unwrap_or("");
                output::wrapped(
                    &format!("“{}”", text::one_line(claim)),
                    "      ",
                    "       ",
                    output::plain,
                );
                let ids: Vec<&str> = f.evidence.iter().map(|e| e.id.as_str()).collect();
                let reason = if args.verbose {
                    format!("{} [rule {}]", f.rationale, f.rule)
                } else {
                    rationale::readable(&f.rationale, &ids)
                };
                output::wrapped(&reason, "      ", "      ", output::dim);
                for r in &f.rechecks {
                    output::wrapped(
                        &output::recheck_line(r),
                        "      ",
                        "        ",
                        output::plain,
                    );
                }
            }
        }
    }
    if !detail.subagents.is_empty() {
        output::line(&format!("subagents: {}", detail.subagents.join(", ")));
    }
    if !detail.redactions.is_empty() {
        let parts: Vec<String> = detail
            .redactions
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        output::line(&output::dim(&format!("redactions: {}", parts.join(", "))));
    }
    Ok(())
}
