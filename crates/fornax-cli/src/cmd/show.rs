//! `fornax show SESSION`

use std::collections::BTreeMap;

use clap::Args;

use crate::error::CliError;
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct ShowArgs {
    /// The agent's session id, a unique prefix of it, or `#<internal id>`.
    pub session: String,
}

fn item_line(item: &serde_json::Value) -> String {
    let role = item["semantic"]["role"].as_str().unwrap_or("?");
    let v = &item["semantic"]["value"];
    let text = |t: &serde_json::Value| t["text"].as_str().unwrap_or("").to_string();
    let body = match v["kind"].as_str().unwrap_or("") {
        "text" => output::clip(&text(v), 140),
        "reasoning" => match v.get("text") {
            Some(t) => output::clip(&text(t), 100),
            None => format!("({})", v["mode"].as_str().unwrap_or("")),
        },
        "shell_call" => format!(
            "$ {}",
            output::clip(v["command"].as_str().unwrap_or(""), 120)
        ),
        "tool_call" => format!(
            "{}({})",
            v["name"].as_str().unwrap_or(""),
            output::clip(&v["arguments"].to_string(), 90)
        ),
        "tool_output" => {
            let mut parts = Vec::new();
            if let Some(code) = v["exit_code"]["code"].as_i64() {
                let strength = v["exit_code"]["strength"].as_str().unwrap_or("");
                parts.push(format!(
                    "exit {code}{}",
                    if strength == "heuristic" {
                        " (derived)"
                    } else {
                        ""
                    }
                ));
            }
            if v["failed"].as_bool() == Some(true) {
                parts.push("failed".into());
            }
            if let Some(t) = v.get("text") {
                parts.push(output::clip(&text(t), 100));
            }
            format!("→ {}", parts.join(" · "))
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
                .map(|t| output::clip(&text(t), 100))
                .unwrap_or_default()
        ),
        other => other.to_string(),
    };
    format!("{:<24} {body}", role)
}

pub fn run(ctx: &Context, args: ShowArgs) -> Result<(), CliError> {
    let store = ctx.open_store_read_only()?;
    let id = store.resolve_session(&args.session)?;
    let detail = store.session_detail(id)?;
    if ctx.json {
        output::json(&detail);
        return Ok(());
    }
    let s = &detail.session;
    output::heading(&format!("{} session {}", s.provider, s.native_id));
    if let Some(name) = &s.name {
        output::line(&format!("  “{name}”"));
    }
    output::line(&format!(
        "  cwd {} · created {} · version {} · {} loops · {} items",
        s.cwd.as_deref().unwrap_or("-"),
        s.created_at.as_deref().unwrap_or("-"),
        s.runtime_version.as_deref().unwrap_or("-"),
        s.loops,
        s.items
    ));
    if let Some(p) = &s.parent_native_id {
        output::line(&format!("  subagent of {p}"));
    }
    for src in &s.sources {
        output::line(&output::dim(&format!("  source {src}")));
    }
    let mut by_item: BTreeMap<&str, Vec<&fornax_store::FindingRow>> = BTreeMap::new();
    for f in &detail.findings {
        by_item.entry(f.item_key.as_str()).or_default().push(f);
    }
    let mut current_loop: Option<i64> = None;
    for item in &detail.items {
        let lp = item["loop_position"].as_i64();
        if lp != current_loop && lp.is_some() {
            current_loop = lp;
            let info = detail.loops.iter().find(|l| Some(l.position) == lp);
            let outcome = info
                .and_then(|l| l.outcome.clone())
                .unwrap_or_else(|| "open".into());
            output::heading(&format!("loop {} ({outcome})", lp.unwrap_or(0)));
        }
        output::line(&format!("  {}", item_line(item)));
        if let Some(findings) = by_item.get(item["key"].as_str().unwrap_or("")) {
            for f in findings {
                output::line(&format!(
                    "      {} {} — {}",
                    output::verdict(&f.verdict),
                    output::clip(f.claim["text"].as_str().unwrap_or(""), 80),
                    output::clip(&f.rationale(), 140)
                ));
                for r in &f.rechecks {
                    output::line(&format!("        {}", output::recheck_line(r)));
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
