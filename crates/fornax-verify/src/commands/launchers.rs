//! Launchers that run another program given in their arguments (`bash -lc`, `env`, `npx`,
//! `uv run`, `python -m`, `docker compose run`): unwrapped before classification.

use super::*;

pub(super) const MAX_UNWRAP_DEPTH: usize = 4;

/// The invocations that actually run, with launchers removed: `bash -lc "cd x && cargo test"`
/// becomes `cd x`, `cargo test`; `uv run pytest` becomes `pytest`; `python -m pytest` becomes
/// `pytest`. Program names are reduced to their base name.
pub fn effective_invocations(invocations: &[Invocation]) -> Vec<Invocation> {
    let mut out = Vec::new();
    for inv in invocations {
        unwrap_into(inv, 0, &mut out);
    }
    out
}

pub(super) fn unwrap_into(inv: &Invocation, depth: usize, out: &mut Vec<Invocation>) {
    let mut inv = inv.clone();
    inv.program = base_name(&inv.program).to_string();
    if depth >= MAX_UNWRAP_DEPTH {
        out.push(inv);
        return;
    }
    // `bash -lc "script"`: the script is a command line of its own.
    if matches!(
        inv.program.as_str(),
        "bash" | "sh" | "zsh" | "dash" | "fish"
    ) {
        if let Some(pos) = inv.argv.iter().position(|a| is_shell_c_flag(a)) {
            if let Some(script) = inv.argv.get(pos + 1) {
                let inner = parse_invocations(script);
                let last = inner.len().saturating_sub(1);
                for (i, mut sub) in inner.into_iter().enumerate() {
                    if sub.cwd.is_none() {
                        sub.cwd = inv.cwd.clone();
                    }
                    if i == last {
                        // The script's last command inherits how the outer one connects.
                        sub.then = inv.then;
                        sub.redirects_to.extend(inv.redirects_to.iter().cloned());
                    }
                    unwrap_into(&sub, depth + 1, out);
                }
                return;
            }
        }
    }
    if let Some(inner) = launcher_target(&inv) {
        unwrap_into(&inner, depth + 1, out);
        return;
    }
    out.push(inv);
}

pub(super) fn is_shell_c_flag(arg: &str) -> bool {
    arg.starts_with('-') && !arg.starts_with("--") && arg.contains('c')
}

/// For a launcher (a program that runs another program given in its arguments), the launched
/// invocation.
pub(super) fn launcher_target(inv: &Invocation) -> Option<Invocation> {
    let args = &inv.argv;
    let rest_from = |start: usize| -> Option<Invocation> {
        let program = args.get(start)?.clone();
        Some(Invocation {
            program,
            argv: args
                .get(start + 1..)
                .map(<[String]>::to_vec)
                .unwrap_or_default(),
            env: inv.env.clone(),
            cwd: inv.cwd.clone(),
            redirects_to: inv.redirects_to.clone(),
            then: inv.then,
        })
    };
    // Index of the first argument that is not an option (options with a value are listed).
    let first_positional = |start: usize, valued: &[&str]| -> Option<usize> {
        let mut i = start;
        while let Some(a) = args.get(i) {
            if a == "--" {
                return Some(i + 1).filter(|&j| j < args.len());
            }
            if a.starts_with('-') {
                i += if valued.contains(&a.as_str()) { 2 } else { 1 };
                continue;
            }
            return Some(i);
        }
        None
    };
    match inv.program.as_str() {
        "env" => {
            let mut i = 0;
            while let Some(a) = args.get(i) {
                if a.starts_with('-') || a.contains('=') {
                    i += if a == "-u" || a == "-C" { 2 } else { 1 };
                } else {
                    break;
                }
            }
            rest_from(i)
        }
        "time" | "nohup" | "command" | "exec" | "sudo" | "stdbuf" | "caffeinate" | "xvfb-run"
        | "unbuffer" => {
            first_positional(0, &["-u", "-n", "-p", "-o", "-e", "-i", "-s"]).and_then(rest_from)
        }
        "nice" => first_positional(0, &["-n"]).and_then(rest_from),
        "timeout" | "gtimeout" => {
            // timeout [options] DURATION COMMAND...
            let duration = first_positional(0, &["-s", "-k", "--signal", "--kill-after"])?;
            rest_from(duration + 1)
        }
        "npx" | "bunx" | "pnpx" => {
            first_positional(0, &["-p", "--package", "-c"]).and_then(rest_from)
        }
        "uvx" => first_positional(0, &["--from", "--with", "-p", "--python"]).and_then(rest_from),
        "dotenv" => first_positional(0, &["-e", "-c", "-v"]).and_then(rest_from),
        "uv" | "poetry" | "pipenv" | "pdm" | "rye" | "hatch"
            if args.first().is_some_and(|a| a == "run") =>
        {
            let valued = [
                "--with",
                "-p",
                "--python",
                "--package",
                "--extra",
                "--group",
                "--env-file",
                "--directory",
                "-e",
                "--env",
                "--project",
                "--from",
            ];
            let i = first_positional(1, &valued)?;
            let inner = rest_from(i)?;
            // `hatch run test`, `pdm run lint` name project scripts, not programs: those are
            // classified by their name (see `classify_invocation`).
            let name = inner.program.rsplit(':').next().unwrap_or(&inner.program);
            let known = KNOWN_PROGRAMS.contains(&base_name(name))
                || classify_invocation(&Invocation {
                    program: name.to_string(),
                    ..inner.clone()
                })
                .kind
                    != CommandKind::Other;
            if matches!(inv.program.as_str(), "hatch" | "pdm" | "rye") && !known {
                return None;
            }
            Some(Invocation {
                program: name.to_string(),
                ..inner
            })
        }
        "npm" if matches!(args.first().map(String::as_str), Some("exec" | "x")) => {
            first_positional(1, &["-p", "--package", "-w", "--workspace"]).and_then(rest_from)
        }
        "docker" | "podman" | "docker-compose" => {
            // docker [compose] run|exec [options] SERVICE|IMAGE COMMAND...
            let mut i = 0;
            if args.get(i).is_some_and(|a| a == "compose") {
                i += 1;
            }
            if !matches!(args.get(i).map(String::as_str), Some("run" | "exec")) {
                return None;
            }
            let valued = [
                "-e",
                "--env",
                "-w",
                "--workdir",
                "-u",
                "--user",
                "-v",
                "--volume",
                "--name",
                "--entrypoint",
                "-p",
                "--publish",
                "--env-file",
                "--network",
                "--platform",
                "-l",
                "--label",
                "--mount",
            ];
            let service = first_positional(i + 1, &valued)?;
            rest_from(service + 1)
        }
        "pnpm" | "yarn" if matches!(args.first().map(String::as_str), Some("exec" | "dlx")) => {
            first_positional(1, &[]).and_then(rest_from)
        }
        "bundle" if args.first().is_some_and(|a| a == "exec") => {
            first_positional(1, &[]).and_then(rest_from)
        }
        "conda" | "mamba" | "micromamba" if args.first().is_some_and(|a| a == "run") => {
            first_positional(1, &["-n", "--name", "-p", "--prefix"]).and_then(rest_from)
        }
        "direnv" if args.first().is_some_and(|a| a == "exec") => {
            // direnv exec DIR COMMAND...
            rest_from(2)
        }
        "nix" if args.first().is_some_and(|a| a == "develop" || a == "shell") => {
            let pos = args.iter().position(|a| a == "-c" || a == "--command")?;
            rest_from(pos + 1)
        }
        p if is_python(p) => {
            let pos = args.iter().position(|a| a == "-m")?;
            // `python -m pytest`: the module acts as the program.
            if args[..pos].iter().any(|a| a.ends_with(".py")) {
                return None;
            }
            rest_from(pos + 1)
        }
        _ => None,
    }
}

pub(super) fn is_python(program: &str) -> bool {
    program == "python"
        || program == "py"
        || (program.starts_with("python")
            && program[6..].chars().all(|c| c.is_ascii_digit() || c == '.'))
}
