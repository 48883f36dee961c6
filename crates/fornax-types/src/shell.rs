//! A small, total parser that splits a shell command line into simple commands.
//!
//! It understands what matters for judging what an agent ran: quoting (single, double,
//! backslash), the connectors `&&`, `||`, `;`, `|`, `&` and newlines, `NAME=value` prefixes,
//! output redirections, and `cd DIR &&` prefixes (which set the directory of the commands after
//! them). It does not expand variables or globs and never fails: unbalanced quotes simply run
//! to the end of the input.

use crate::canonical::{Connector, Invocation};

#[derive(Debug, PartialEq)]
enum Token {
    Word(String),
    Op(Connector),
    Redirect {
        append: bool,
    },
    /// A redirection whose target is a descriptor (`2>&1`, `>&2`) or that reads input.
    RedirectOther,
}

fn tokenize(cmd: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut chars = cmd.chars().peekable();
    let mut word = String::new();
    let mut in_word = false;
    let mut paren_depth = 0usize;

    macro_rules! flush {
        () => {
            if in_word {
                tokens.push(Token::Word(std::mem::take(&mut word)));
                in_word = false;
            }
        };
    }

    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for c in chars.by_ref() {
                    if c == '\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            '"' => {
                in_word = true;
                while let Some(c) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => {
                            if let Some(&n) = chars.peek() {
                                if matches!(n, '"' | '\\' | '$' | '`' | '\n') {
                                    chars.next();
                                    if n != '\n' {
                                        word.push(n);
                                    }
                                    continue;
                                }
                            }
                            word.push('\\');
                        }
                        _ => word.push(c),
                    }
                }
            }
            '\\' => {
                if let Some(n) = chars.next() {
                    if n != '\n' {
                        in_word = true;
                        word.push(n);
                    }
                }
            }
            '$' if chars.peek() == Some(&'(') => {
                // Command substitution stays part of the word, verbatim.
                in_word = true;
                word.push('$');
                let mut depth = 0usize;
                for c in chars.by_ref() {
                    word.push(c);
                    if c == '(' {
                        depth += 1;
                    } else if c == ')' {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            break;
                        }
                    }
                }
            }
            '#' if !in_word => {
                // Comment to end of line.
                for c in chars.by_ref() {
                    if c == '\n' {
                        tokens.push(Token::Op(Connector::Seq));
                        break;
                    }
                }
            }
            ' ' | '\t' | '\r' => flush!(),
            '\n' => {
                flush!();
                tokens.push(Token::Op(Connector::Seq));
            }
            ';' => {
                flush!();
                tokens.push(Token::Op(Connector::Seq));
            }
            '&' => {
                if chars.peek() == Some(&'&') {
                    chars.next();
                    flush!();
                    tokens.push(Token::Op(Connector::And));
                } else if chars.peek() == Some(&'>') {
                    // `&>file` / `&>>file`
                    chars.next();
                    flush!();
                    let append = chars.peek() == Some(&'>');
                    if append {
                        chars.next();
                    }
                    tokens.push(Token::Redirect { append });
                } else {
                    flush!();
                    tokens.push(Token::Op(Connector::Background));
                }
            }
            '|' => {
                flush!();
                if chars.peek() == Some(&'|') {
                    chars.next();
                    tokens.push(Token::Op(Connector::Or));
                } else {
                    if chars.peek() == Some(&'&') {
                        chars.next();
                    }
                    tokens.push(Token::Op(Connector::Pipe));
                }
            }
            '(' if !in_word => {
                paren_depth += 1;
            }
            ')' if !in_word || paren_depth > 0 => {
                flush!();
                paren_depth = paren_depth.saturating_sub(1);
            }
            '>' | '<' => {
                // A word made only of digits right before `>` is a descriptor number.
                let fd_prefix = in_word && word.chars().all(|c| c.is_ascii_digit());
                if fd_prefix {
                    word.clear();
                    in_word = false;
                } else {
                    flush!();
                }
                if c == '<' {
                    // Input redirection or here-doc: its operand is not an output.
                    while chars.peek() == Some(&'<') {
                        chars.next();
                    }
                    tokens.push(Token::RedirectOther);
                    continue;
                }
                let append = chars.peek() == Some(&'>');
                if append {
                    chars.next();
                }
                if chars.peek() == Some(&'&') {
                    chars.next();
                    // `>&2`: descriptor duplication, consume the descriptor.
                    while chars
                        .peek()
                        .is_some_and(|c| c.is_ascii_digit() || *c == '-')
                    {
                        chars.next();
                    }
                    continue;
                }
                if chars.peek() == Some(&'|') {
                    chars.next();
                }
                tokens.push(Token::Redirect { append });
            }
            _ => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        tokens.push(Token::Word(word));
    }
    tokens
}

fn is_assignment(word: &str) -> bool {
    match word.split_once('=') {
        Some((name, _)) => {
            !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

/// Splits a command line into simple commands. Never fails; an empty or blank line gives an
/// empty list.
pub fn parse_invocations(command: &str) -> Vec<Invocation> {
    let mut out: Vec<Invocation> = Vec::new();
    let mut cwd: Option<String> = None;
    let mut current: Vec<String> = Vec::new();
    let mut redirects: Vec<String> = Vec::new();
    let mut pending_redirect = false;
    let mut pending_input = false;

    let finish = |words: &mut Vec<String>,
                  redirects: &mut Vec<String>,
                  then: Option<Connector>,
                  cwd: &mut Option<String>,
                  out: &mut Vec<Invocation>| {
        let mut env = Vec::new();
        let mut rest = std::mem::take(words).into_iter().peekable();
        while rest.peek().is_some_and(|w| is_assignment(w)) {
            env.extend(rest.next());
        }
        let Some(program) = rest.next() else {
            // Only assignments or nothing: attach the connector to the previous invocation.
            redirects.clear();
            if let (Some(prev), Some(t)) = (out.last_mut(), then) {
                prev.then = Some(t);
            }
            return;
        };
        let argv: Vec<String> = rest.collect();
        let inv = Invocation {
            program: program.clone(),
            argv: argv.clone(),
            env,
            cwd: cwd.clone(),
            redirects_to: std::mem::take(redirects),
            then,
        };
        if program == "cd" && !matches!(then, Some(Connector::Pipe)) {
            let target = argv.iter().find(|a| !a.starts_with('-')).cloned();
            *cwd = match (target, cwd.take()) {
                (Some(t), Some(base)) if !t.starts_with('/') && !t.starts_with('~') => {
                    Some(format!("{}/{}", base.trim_end_matches('/'), t))
                }
                (Some(t), _) => Some(t),
                (None, _) => Some("~".to_string()),
            };
        }
        out.push(inv);
    };

    for token in tokenize(command) {
        match token {
            Token::Word(w) => {
                if pending_redirect {
                    pending_redirect = false;
                    if w != "/dev/null" {
                        redirects.push(w);
                    }
                } else if pending_input {
                    pending_input = false;
                } else {
                    current.push(w);
                }
            }
            Token::Redirect { .. } => pending_redirect = true,
            Token::RedirectOther => pending_input = true,
            Token::Op(op) => {
                pending_redirect = false;
                pending_input = false;
                finish(&mut current, &mut redirects, Some(op), &mut cwd, &mut out);
            }
        }
    }
    finish(&mut current, &mut redirects, None, &mut cwd, &mut out);
    // A trailing `;` or newline connects to nothing.
    if let Some(last) = out.last_mut() {
        if last.then == Some(Connector::Seq) {
            last.then = None;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn programs(cmd: &str) -> Vec<(String, Vec<String>)> {
        parse_invocations(cmd)
            .into_iter()
            .map(|i| (i.program, i.argv))
            .collect()
    }

    #[test]
    fn simple_command() {
        assert_eq!(
            programs("cargo test --workspace"),
            vec![("cargo".into(), vec!["test".into(), "--workspace".into()])]
        );
    }

    #[test]
    fn cd_prefix_sets_cwd() {
        let inv = parse_invocations("cd crates/core && cargo test -p core 2>&1 | tail -5");
        assert_eq!(inv.len(), 3);
        assert_eq!(inv[0].program, "cd");
        assert_eq!(inv[0].then, Some(Connector::And));
        assert_eq!(inv[1].program, "cargo");
        assert_eq!(inv[1].cwd.as_deref(), Some("crates/core"));
        assert_eq!(inv[1].argv, vec!["test", "-p", "core"]);
        assert_eq!(inv[1].then, Some(Connector::Pipe));
        assert_eq!(inv[2].program, "tail");
        assert_eq!(inv[2].then, None);
    }

    #[test]
    fn quotes_and_escapes() {
        let inv = parse_invocations(r#"git commit -m "fix: handle \"x\"" && echo 'a b'"#);
        assert_eq!(inv[0].argv, vec!["commit", "-m", "fix: handle \"x\""]);
        assert_eq!(inv[1].argv, vec!["a b"]);
    }

    #[test]
    fn env_prefix_and_redirects() {
        let inv = parse_invocations("RUST_LOG=debug FOO=1 cargo run > out.txt 2>/dev/null; ls");
        assert_eq!(inv[0].env, vec!["RUST_LOG=debug", "FOO=1"]);
        assert_eq!(inv[0].program, "cargo");
        assert_eq!(inv[0].argv, vec!["run"]);
        assert_eq!(inv[0].redirects_to, vec!["out.txt"]);
        assert_eq!(inv[0].then, Some(Connector::Seq));
        assert_eq!(inv[1].program, "ls");
    }

    #[test]
    fn or_true_and_heredoc() {
        let inv = parse_invocations("pytest -q || true");
        assert_eq!(inv[0].then, Some(Connector::Or));
        assert_eq!(inv[1].program, "true");
        let inv = parse_invocations("cat > notes.md << 'EOF'");
        assert_eq!(inv[0].program, "cat");
        assert_eq!(inv[0].redirects_to, vec!["notes.md"]);
    }

    #[test]
    fn never_fails_on_garbage() {
        for s in [
            "",
            "   ",
            "\"unterminated",
            "&&",
            "| |",
            ")(",
            "$((",
            "2>",
            "a\\",
        ] {
            let _ = parse_invocations(s);
        }
        assert!(parse_invocations("   ").is_empty());
    }

    #[test]
    fn subshell_and_newlines() {
        let inv = parse_invocations("(cd web && npm test)\nnpm run lint");
        let names: Vec<_> = inv.iter().map(|i| i.program.as_str()).collect();
        assert_eq!(names, vec!["cd", "npm", "npm"]);
        assert_eq!(inv[1].cwd.as_deref(), Some("web"));
    }
}
