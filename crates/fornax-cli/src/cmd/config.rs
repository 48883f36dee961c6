//! `fornax config [path]`: the effective configuration, where it comes from, and what each
//! key does.

use clap::{Args, Subcommand};
use serde::Serialize;

use crate::error::CliError;
use crate::home::Context;
use crate::output;

#[derive(Debug, Args)]
pub struct ConfigArgs {
    #[command(subcommand)]
    pub action: Option<ConfigAction>,
}

#[derive(Debug, Subcommand)]
pub enum ConfigAction {
    /// Print the path of the config file (it may not exist yet).
    Path,
}

/// One documented key of `config.toml`.
#[derive(Debug, Serialize)]
struct Key {
    key: String,
    #[serde(rename = "type")]
    kind: &'static str,
    default: String,
    value: String,
    /// Set in the file (rather than the default).
    set: bool,
    description: &'static str,
}

/// Every key of `config.toml`, in the order the file's sections appear. A test checks that
/// this is exactly the set of keys the config schema accepts.
const KEYS: &[(&str, &str, &str)] = &[
    (
        "roots.<name>",
        "list of directories",
        "Where to look for one agent's sessions, replacing its default roots. <name> is an \
         adapter (claude-transcript, codex-rollout, ...) or a provider (claude, codex, pi, \
         opencode, gemini). A leading ~/ is the home directory.",
    ),
    (
        "scan.max_record_bytes",
        "bytes",
        "The largest native record read; a longer one is counted as oversized and skipped, and \
         the records around it are kept. `fornax scan --max-record-bytes` overrides it.",
    ),
    (
        "scan.text_cap",
        "bytes",
        "The most text kept per field (a prompt, an output); a longer text keeps its head and \
         its tail, and its full length is recorded.",
    ),
    (
        "intervene.enabled",
        "true or false",
        "When a Claude Code turn ends on a CONTRADICTED claim, send the turn back to the agent \
         with the evidence (needs `fornax install claude`).",
    ),
    (
        "archive.enabled",
        "true or false",
        "Keep every record's bytes, redacted and compressed, in the home (on by default), so \
         sessions outlive the files their agents delete and `fornax reindex` can rebuild the \
         index; false keeps no copies.",
    ),
    (
        "capture.exclude",
        "list of directories",
        "Projects or paths never captured: hook events whose working directory is one of them \
         (or inside one) are dropped, and scans and the daemon skip files under them and \
         sessions that ran in them. A leading ~/ is the home directory.",
    ),
    (
        "daemon.autostart",
        "true or false",
        "A hook that finds no daemon running starts one in the background (at most once every \
         few seconds), so live capture never silently stops. Set to false to start it yourself \
         (`fornax daemon start`, or `fornax install claude --service`).",
    ),
];

fn keys(ctx: &Context) -> Vec<Key> {
    let defaults = fornax_ingest::IngestOptions::default();
    let c = &ctx.config;
    let number = |v: Option<usize>, d: usize| (v.map_or(d, |v| v).to_string(), v.is_some());
    let mut out = Vec::new();
    for (key, kind, description) in KEYS {
        let (default, value, set) = match *key {
            "roots.<name>" => {
                let set: Vec<String> = c
                    .roots
                    .iter()
                    .map(|(k, v)| format!("{k} = [{}]", v.join(", ")))
                    .collect();
                (
                    "each agent's usual places (`fornax doctor` lists them)".to_string(),
                    if set.is_empty() {
                        "the defaults".to_string()
                    } else {
                        set.join("; ")
                    },
                    !c.roots.is_empty(),
                )
            }
            "scan.max_record_bytes" => {
                let (v, s) = number(c.scan.max_record_bytes, defaults.max_record_bytes);
                (defaults.max_record_bytes.to_string(), v, s)
            }
            "scan.text_cap" => {
                let (v, s) = number(c.scan.text_cap, defaults.text_cap);
                (defaults.text_cap.to_string(), v, s)
            }
            "intervene.enabled" => (
                "false".to_string(),
                c.intervene.enabled.to_string(),
                c.intervene.enabled,
            ),
            "capture.exclude" => (
                "nothing excluded".to_string(),
                if c.capture.exclude.is_empty() {
                    "[]".to_string()
                } else {
                    format!("[{}]", c.capture.excluded().join(", "))
                },
                !c.capture.exclude.is_empty(),
            ),
            "daemon.autostart" => (
                "true".to_string(),
                c.daemon.autostart.to_string(),
                !c.daemon.autostart,
            ),
            _ => continue,
        };
        out.push(Key {
            key: key.to_string(),
            kind,
            default,
            value,
            set,
            description,
        });
    }
    out
}

pub fn run(ctx: &Context, args: ConfigArgs) -> Result<(), CliError> {
    let path = fornax_live::config::config_path(&ctx.home);
    if let Some(ConfigAction::Path) = args.action {
        if ctx.json {
            output::json(&serde_json::json!({ "path": path, "exists": path.exists() }));
        } else {
            output::line(&path.display().to_string());
        }
        return Ok(());
    }
    let keys = keys(ctx);
    if ctx.json {
        output::json(&serde_json::json!({
            "path": path,
            "exists": path.exists(),
            "keys": keys,
        }));
        return Ok(());
    }
    output::line(&format!(
        "{} {}",
        output::bold("Config file:"),
        path.display()
    ));
    output::line(&output::dim(if path.exists() {
        "(keys not in the file have their defaults)"
    } else {
        "(not there yet: every key has its default; create it to change one)"
    }));
    for k in &keys {
        output::line("");
        let origin = if k.set {
            format!("set in the file; default {}", k.default)
        } else {
            "the default".to_string()
        };
        output::line(&format!(
            "{} = {}  {}",
            output::bold(&k.key),
            k.value,
            output::dim(&format!("({} · {origin})", k.kind))
        ));
        output::wrapped(k.description, "  ", "  ", output::plain);
    }
    output::line("");
    output::line(&output::dim(
        "Example:  [scan]  text_cap = 524288     [roots]  codex = [\"~/work/codex-sessions\"]",
    ));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys a TOML document may hold at `section` (`""` for the top level), read from
    /// the schema's own refusal of an unknown key.
    fn accepted(section: &str) -> Vec<String> {
        let doc = if section.is_empty() {
            "no_such_key = 1\n".to_string()
        } else {
            format!("[{section}]\nno_such_key = 1\n")
        };
        let err = toml::from_str::<fornax_live::config::Config>(&doc)
            .unwrap_err()
            .to_string();
        let expected = err.split("expected").nth(1).unwrap_or("");
        expected
            .split('`')
            .enumerate()
            .filter(|(i, _)| i % 2 == 1)
            .map(|(_, s)| s.to_string())
            .collect()
    }

    #[test]
    fn every_key_the_schema_accepts_is_documented_and_no_other() {
        let mut schema = Vec::new();
        for section in accepted("") {
            if section == "roots" {
                schema.push("roots.<name>".to_string());
                continue;
            }
            for key in accepted(&section) {
                schema.push(format!("{section}.{key}"));
            }
        }
        let mut documented: Vec<String> = KEYS.iter().map(|(k, _, _)| k.to_string()).collect();
        schema.sort();
        documented.sort();
        assert_eq!(
            documented, schema,
            "document new config.toml keys in `fornax config`"
        );
    }
}
