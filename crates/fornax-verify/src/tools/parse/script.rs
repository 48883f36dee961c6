//! What a package manager prints around a script it runs: the script's own command
//! (`> tsp@1.0.0 typecheck` / `> tsc --noEmit`), or that the script does not exist.

/// The header npm, pnpm and yarn print before running a package script.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptHeader {
    /// The script's name as printed (`typecheck`).
    pub name: String,
    /// The command the script ran (`tsc --noEmit`).
    pub command: String,
}

/// Reads the first script header of an output: npm's `> pkg@1.0.0 name` then `> command`
/// (pnpm prints the package path after the name; yarn 1 prints `$ command`).
pub fn script_header(out: &str) -> Option<ScriptHeader> {
    let mut lines = out
        .lines()
        .map(str::trim_end)
        .skip_while(|l| l.trim().is_empty());
    let first = lines.next()?;
    if let Some(rest) = first.strip_prefix("> ") {
        // `pkg@1.0.0 name` or `pkg@1.0.0 name /path/to/pkg` (pnpm).
        let mut words = rest.split_whitespace();
        let package = words.next()?;
        if !package.contains('@') {
            return None;
        }
        let name = words.next()?.to_string();
        let command = lines.next()?.strip_prefix("> ")?.trim().to_string();
        return Some(ScriptHeader { name, command });
    }
    // bun and newer pnpm print `$ command`; yarn 1 prints `yarn run v1.22.22`, maybe
    // warnings, then `$ command`.
    let dollar = if first.starts_with("yarn run v") {
        lines.take(4).find(|l| l.starts_with("$ "))?
    } else {
        first
    };
    let command = dollar.strip_prefix("$ ")?.trim().to_string();
    (!command.is_empty()).then_some(ScriptHeader {
        name: String::new(),
        command,
    })
}
