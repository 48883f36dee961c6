//! `docs/cli.md`, the command-line reference, generated from the argument definitions; a
//! test fails when the file is not what they generate (`FORNAX_UPDATE_DOCS=1` rewrites it).

use clap::{Arg, ArgAction, Command};

/// The whole reference, in Markdown.
pub fn markdown(root: &Command) -> String {
    let mut out = String::from(
        "# Command-line reference\n\n\
         Generated from `fornax`'s own argument definitions; `cargo test -p fornax-cli` fails \
         when this file and the binary disagree (`FORNAX_UPDATE_DOCS=1 cargo test -p fornax-cli \
         reference` rewrites it). `fornax help COMMAND` prints the same.\n\n\
         Every listing takes `--json`; each JSON object starts with `schema_version` (now 1), \
         which changes only when a field is removed, renamed or changes meaning.\n\n\
         Exit codes: 0 success, 1 failure, 2 usage error (a bad argument or filter value).\n\n",
    );
    out.push_str("## Commands\n\n");
    for sub in root.get_subcommands().filter(|s| !s.is_hide_set()) {
        out.push_str(&format!(
            "- [`fornax {}`](#fornax-{}) — {}\n",
            sub.get_name(),
            sub.get_name(),
            about(sub)
        ));
    }
    out.push('\n');
    command(&mut out, root, "fornax", 2);
    for sub in root.get_subcommands().filter(|s| !s.is_hide_set()) {
        walk(&mut out, sub, "fornax");
    }
    out
}

fn walk(out: &mut String, cmd: &Command, parent: &str) {
    let path = format!("{parent} {}", cmd.get_name());
    command(out, cmd, &path, 2);
    for sub in cmd.get_subcommands().filter(|s| !s.is_hide_set()) {
        walk(out, sub, &path);
    }
}

fn about(cmd: &Command) -> String {
    cmd.get_about().map(|a| a.to_string()).unwrap_or_default()
}

fn command(out: &mut String, cmd: &Command, path: &str, level: usize) {
    out.push_str(&format!("{} `{path}`\n\n", "#".repeat(level)));
    let text = cmd
        .get_long_about()
        .or(cmd.get_about())
        .map(|a| a.to_string())
        .unwrap_or_default();
    if !text.is_empty() {
        out.push_str(&format!("{text}\n\n"));
    }
    let mut c = cmd.clone().bin_name(path);
    let usage = c.render_usage().to_string();
    let usage = usage.trim_start_matches("Usage: ");
    out.push_str(&format!("```text\n{usage}\n```\n\n"));
    let subs: Vec<&Command> = cmd.get_subcommands().filter(|s| !s.is_hide_set()).collect();
    if !subs.is_empty() && path != "fornax" {
        out.push_str("Subcommands:\n\n");
        for s in subs {
            out.push_str(&format!("- `{}` — {}\n", s.get_name(), about(s)));
        }
        out.push('\n');
    }
    let args: Vec<&Arg> = cmd
        .get_arguments()
        .filter(|a| !a.is_hide_set() && a.get_id() != "help" && a.get_id() != "version")
        .filter(|a| path == "fornax" || !a.is_global_set())
        .collect();
    if !args.is_empty() {
        out.push_str("| argument | what it does |\n|---|---|\n");
        for a in args {
            out.push_str(&format!("| {} | {} |\n", name(a), describe(a)));
        }
        out.push('\n');
    }
    if let Some(after) = cmd.get_after_help() {
        out.push_str(&format!(
            "```text\n{}\n```\n\n",
            after.to_string().trim_end()
        ));
    }
}

fn name(a: &Arg) -> String {
    let value = a
        .get_value_names()
        .map(|v| {
            v.iter()
                .map(|n| n.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_else(|| a.get_id().to_string().to_uppercase());
    let takes_value = matches!(a.get_action(), ArgAction::Set | ArgAction::Append);
    let flag = match (a.get_short(), a.get_long()) {
        (Some(s), Some(l)) => format!("`-{s}`, `--{l}`"),
        (None, Some(l)) => format!("`--{l}`"),
        (Some(s), None) => format!("`-{s}`"),
        (None, None) => return format!("`{value}`"),
    };
    if takes_value {
        format!("{flag} `{value}`")
    } else {
        flag
    }
}

fn describe(a: &Arg) -> String {
    let mut text = a
        .get_long_help()
        .or(a.get_help())
        .map(|h| h.to_string().replace('\n', " "))
        .unwrap_or_default();
    if !text.is_empty() && !text.ends_with('.') {
        text.push('.');
    }
    let defaults: Vec<String> = a
        .get_default_values()
        .iter()
        .map(|v| v.to_string_lossy().to_string())
        .collect();
    if !defaults.is_empty() && a.get_action().takes_values() {
        text.push_str(&format!(" Default: `{}`.", defaults.join(",")));
    }
    let possible: Vec<String> = a
        .get_possible_values()
        .iter()
        .filter(|p| !p.is_hide_set())
        .map(|p| format!("`{}`", p.get_name()))
        .collect();
    if !possible.is_empty() && !matches!(a.get_action(), ArgAction::SetTrue | ArgAction::SetFalse) {
        text.push_str(&format!(" One of {}.", possible.join(", ")));
    }
    if let Some(env) = a.get_env() {
        text.push_str(&format!(" Environment: `{}`.", env.to_string_lossy()));
    }
    text.replace('|', "\\|")
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn docs_cli_md_is_what_the_binary_says() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../docs/cli.md");
        let generated = super::markdown(&crate::Cli::command());
        if std::env::var_os("FORNAX_UPDATE_DOCS").is_some() {
            std::fs::write(&path, &generated).unwrap();
            return;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == generated,
            "docs/cli.md is stale: run `FORNAX_UPDATE_DOCS=1 cargo test -p fornax-cli reference`"
        );
    }

    #[test]
    fn every_command_is_in_the_reference() {
        let md = super::markdown(&crate::Cli::command());
        for sub in crate::Cli::command().get_subcommands() {
            assert!(
                md.contains(&format!("## `fornax {}`", sub.get_name())),
                "{}",
                sub.get_name()
            );
        }
        assert!(md.contains("`--since` `WHEN`"));
    }
}
