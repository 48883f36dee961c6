//! `fornax-hook <agent>`: the hook entry point alone, without the rest of `fornax`.
//!
//! Same behaviour as `fornax hook <agent>` (same home: `--home DIR`, else `FORNAX_HOME`, else
//! the default), in a binary a fraction of the size, so each hook process starts faster. The
//! entry points themselves are `fornax_live::hook`'s.
//!
//! # Invariants
//!
//! * A second binary of `fornax-cli` (one `cargo install` installs both), whose source uses
//!   `std` and `fornax-live` alone, so it links nothing else (a tidy test checks it).
//! * Always exits 0 for a hook (2 only for a command line it cannot parse).

use std::ffi::OsString;
use std::io::Write;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::PathBuf;
use std::process::ExitCode;

use fornax_live::hook::Agent;

const USAGE: &str = "usage: fornax-hook [--home DIR] <claude|opencode|cursor|copilot EVENT>

Records one Claude Code, Cursor or GitHub Copilot CLI hook event (Copilot's named by EVENT),
or opencode's plugin stream, from stdin into the spool of the Fornax home (--home, else
FORNAX_HOME, else the user's data directory). Always exits 0.";

enum Parsed {
    Run(Option<PathBuf>, Agent, Option<String>),
    Help,
    Version,
    Usage(String),
}

fn parse(mut args: impl Iterator<Item = OsString>) -> Parsed {
    let mut home = None;
    let mut agent = None;
    let mut event = None;
    while let Some(arg) = args.next() {
        let bytes = arg.as_bytes();
        if bytes == b"--home" {
            match args.next() {
                Some(dir) if !dir.is_empty() => home = Some(PathBuf::from(dir)),
                _ => return Parsed::Usage("--home needs a directory".into()),
            }
        } else if let Some(dir) = bytes.strip_prefix(b"--home=") {
            if dir.is_empty() {
                return Parsed::Usage("--home needs a directory".into());
            }
            home = Some(PathBuf::from(OsString::from_vec(dir.to_vec())));
        } else if bytes == b"--json" {
            // Accepted like `fornax --json hook ...`; a hook prints no listing either way.
        } else if bytes == b"-h" || bytes == b"--help" {
            return Parsed::Help;
        } else if bytes == b"-V" || bytes == b"--version" {
            return Parsed::Version;
        } else {
            let name = arg.to_string_lossy();
            match (Agent::from_name(&name), agent) {
                (Some(a), None) => agent = Some(a),
                (_, Some(a)) if a.takes_event() && event.is_none() => {
                    event = Some(name.into_owned())
                }
                _ => return Parsed::Usage(format!("unexpected argument {name:?}")),
            }
        }
    }
    match agent {
        Some(a) if a.takes_event() && event.is_none() => {
            Parsed::Usage("copilot needs the hook event (for example postToolUse)".into())
        }
        Some(a) => Parsed::Run(home, a, event),
        None => Parsed::Usage("which agent? claude, opencode, cursor or copilot".into()),
    }
}

fn main() -> ExitCode {
    match parse(std::env::args_os().skip(1)) {
        Parsed::Run(home, agent, event) => {
            let home = home.or_else(|| {
                std::env::var_os("FORNAX_HOME")
                    .filter(|h| !h.is_empty())
                    .map(PathBuf::from)
            });
            fornax_live::hook::guarded_event(home, agent, event.as_deref())
        }
        Parsed::Help => {
            let _ = writeln!(std::io::stdout(), "{USAGE}");
            ExitCode::SUCCESS
        }
        Parsed::Version => {
            let _ = writeln!(
                std::io::stdout(),
                "fornax-hook {}",
                env!("CARGO_PKG_VERSION")
            );
            ExitCode::SUCCESS
        }
        Parsed::Usage(why) => {
            let _ = writeln!(std::io::stderr(), "fornax-hook: {why}\n\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(args: &[&str]) -> Option<(Option<PathBuf>, Agent)> {
        match parse(args.iter().map(OsString::from)) {
            Parsed::Run(home, agent, _) => Some((home, agent)),
            _ => None,
        }
    }

    #[test]
    fn copilot_names_its_event() {
        match parse(["copilot", "postToolUse"].iter().map(OsString::from)) {
            Parsed::Run(None, Agent::Copilot, Some(e)) => assert_eq!(e, "postToolUse"),
            _ => panic!("copilot postToolUse"),
        }
        assert!(run(&["copilot"]).is_none(), "the event is required");
        assert!(run(&["claude", "Stop"]).is_none(), "claude takes none");
        assert_eq!(run(&["cursor"]), Some((None, Agent::Cursor)));
    }

    #[test]
    fn arguments() {
        assert_eq!(run(&["claude"]), Some((None, Agent::Claude)));
        assert_eq!(
            run(&["--home", "/h", "opencode"]),
            Some((Some("/h".into()), Agent::Opencode))
        );
        assert_eq!(
            run(&["claude", "--home=/h"]),
            Some((Some("/h".into()), Agent::Claude))
        );
        assert_eq!(run(&["--json", "claude"]), Some((None, Agent::Claude)));
        assert_eq!(run(&[]), None);
        assert_eq!(run(&["codex"]), None);
        assert_eq!(run(&["claude", "claude"]), None);
        assert_eq!(run(&["--home"]), None);
    }
}
