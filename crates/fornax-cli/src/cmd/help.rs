//! `fornax help [TOPIC|COMMAND]`, `fornax completions SHELL` and `fornax man`: what a person
//! reads before anything else. None of them needs a home.

use clap::{Args, CommandFactory};
use fornax_ui::present::{filter::TIME_FORMS, verdict};

use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub struct HelpArgs {
    /// A topic (`verdicts`, `filters`) or a command (`findings`, `cap run`).
    pub topic: Vec<String>,
}

#[derive(Debug, Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    pub shell: clap_complete::Shell,
}

/// Topics beyond the commands.
const TOPICS: &[(&str, &str)] = &[
    ("verdicts", "what the five verdicts mean"),
    (
        "filters",
        "the values --since, --until, --provider, --verdict and --limit take",
    ),
];

pub fn run(args: HelpArgs) -> Result<(), CliError> {
    let words: Vec<&str> = args.topic.iter().map(String::as_str).collect();
    match words.as_slice() {
        [] => {
            let _ = crate::Cli::command().print_long_help();
            output::line("");
            output::line("Topics: fornax help verdicts · fornax help filters");
            Ok(())
        }
        ["verdicts"] => {
            verdicts();
            Ok(())
        }
        ["filters"] => {
            filters();
            Ok(())
        }
        path => command(path),
    }
}

fn verdicts() {
    output::heading("The five verdicts");
    output::line(
        "Every claim an agent makes (\"all tests pass\", \"committed\", \"I updated the config\") gets \
         exactly one, from the evidence the session recorded before the claim. Listings show the \
         most urgent first.",
    );
    for v in verdict::SEVERITY {
        output::line("");
        output::line(&format!(
            "{}  {}",
            output::badge(v.as_str()),
            verdict::meaning(v)
        ));
        output::wrapped(verdict::explanation(v), "  ", "  ", output::plain);
    }
    output::line("");
    output::wrapped(
        "A reason always comes with the verdict, naming the run, its exit status, its summary and \
         whether files changed after it. `fornax findings --verbose` adds the ids of the evidence; \
         `fornax ui` links each verdict to that evidence and to the native records it was read from.",
        "",
        "",
        output::plain,
    );
}

fn filters() {
    output::heading("Filters of findings, sessions and search");
    let lines = [
        ("--since WHEN, --until WHEN", TIME_FORMS.to_string()),
        (
            "--provider AGENT",
            format!(
                "one of {} (claude also works)",
                super::filters::providers()
                    .iter()
                    .map(|p| p.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        (
            "--project TEXT",
            "text contained in the session's working directory".into(),
        ),
        (
            "--verdict VERDICTS",
            "one or more verdicts, comma-separated, any case: contradicted,review".into(),
        ),
        (
            "--limit N|all",
            "how many to list; a terminal shows a page and says how many more there are, \
             --json lists everything unless --limit is given"
                .into(),
        ),
    ];
    for (flag, what) in lines {
        output::line("");
        output::line(&output::bold(flag));
        output::wrapped(&what, "  ", "  ", output::plain);
    }
    output::line("");
    output::line("A value that is none of these is refused (exit 2) with the forms it could take.");
}

fn command(path: &[&str]) -> Result<(), CliError> {
    let mut cmd = crate::Cli::command();
    cmd.build();
    let mut current = &mut cmd;
    for word in path {
        match current.find_subcommand_mut(word) {
            Some(sub) => current = sub,
            None => {
                let topics: Vec<&str> = TOPICS.iter().map(|(t, _)| *t).collect();
                return Err(CliError::usage(format!(
                    "no help topic or command {:?}",
                    path.join(" ")
                ))
                .with_hint(format!(
                    "topics: {}; commands: `fornax --help` lists them",
                    topics.join(", ")
                )));
            }
        }
    }
    let _ = current.print_long_help();
    Ok(())
}

pub fn completions(args: CompletionsArgs) -> Result<(), CliError> {
    let mut cmd = crate::Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "fornax", &mut out);
    write_out(&out)
}

/// Writes to stdout; a reader that went away (`| head`) is not an error.
fn write_out(bytes: &[u8]) -> Result<(), CliError> {
    use std::io::Write;
    match std::io::stdout().write_all(bytes) {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => Err(e.into()),
        _ => Ok(()),
    }
}

pub fn man() -> Result<(), CliError> {
    let cmd = crate::Cli::command();
    let mut out = Vec::new();
    clap_mangen::Man::new(cmd).render(&mut out)?;
    write_out(&out)
}
