//! Passwords passed as short flags to tools known to take them: `mysql -pSECRET`,
//! `sshpass -p SECRET`, `redis-cli -a SECRET`, `curl -u user:SECRET`, ... A short flag means
//! a password only for these tools (`-p` is a port for most others), so the program decides.

use crate::bytes::{contains_placeholder, is_quote, is_reference};
use crate::span::Findings;
use crate::SecretKind;

/// How a tool takes its password.
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// Only glued to the flag (`mysql -pSECRET`; `mysql -p db` prompts and names a database).
    Attached(&'static str),
    /// Glued or as the next argument (`sshpass -p SECRET`).
    Separate(&'static str),
    /// `user:password` glued or as the next argument; the part after the colon.
    UserColon(&'static str),
    /// `user%password` (smbclient).
    UserPercent(&'static str),
}

fn rules(program: &[u8]) -> &'static [Rule] {
    use Rule::*;
    match program {
        b"mysql" | b"mysqldump" | b"mysqladmin" | b"mysqlimport" | b"mysqlshow" | b"mysqlcheck"
        | b"mysqlsh" | b"mariadb" | b"mariadb-dump" | b"mariadb-admin" => &[Attached("-p")],
        b"sshpass" => &[Separate("-p")],
        b"redis-cli" => &[Separate("-a")],
        b"mongo" | b"mongosh" | b"mongodump" | b"mongorestore" | b"mongoexport"
        | b"mongoimport" | b"mongostat" | b"mongotop" => &[Separate("-p")],
        b"ldapsearch" | b"ldapadd" | b"ldapmodify" | b"ldapdelete" | b"ldapwhoami"
        | b"ldappasswd" | b"ldapcompare" | b"ldapmodrdn" => &[Separate("-w")],
        b"sqlcmd" => &[Separate("-P")],
        b"zip" | b"unzip" | b"zipcloak" => &[Separate("-P")],
        b"7z" | b"7za" | b"7zr" => &[Attached("-p")],
        b"curl" => &[
            UserColon("-u"),
            UserColon("--user"),
            UserColon("-U"),
            UserColon("--proxy-user"),
        ],
        b"smbclient" => &[UserPercent("-U"), UserPercent("--user")],
        b"login" => &[Separate("-p")],
        _ => &[],
    }
}

/// Programs whose `login` subcommand takes `-p PASSWORD`.
const LOGIN_HOSTS: &[&[u8]] = &[
    b"docker",
    b"podman",
    b"buildah",
    b"registry",
    b"nerdctl",
    b"skopeo",
    b"oras",
    b"crane",
    b"finch",
];

/// How far a command's arguments are followed.
const MAX_SEGMENT: usize = 2048;
const MAX_ARGS: usize = 64;

/// Handles a tool name found at `hit`.
pub(crate) fn tool(bytes: &[u8], hit: usize, found: &mut Findings) {
    if hit > 0 {
        let prev = bytes[hit - 1];
        if !(prev.is_ascii_whitespace()
            || is_quote(prev)
            || matches!(prev, b'/' | b';' | b'|' | b'&' | b'(' | b'$'))
        {
            return;
        }
    }
    let name_len = bytes[hit..]
        .iter()
        .take(32)
        .take_while(|&&b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
        .count();
    let program = &bytes[hit..hit + name_len];
    let rules = rules(program);
    // A command word stands alone: `mysql -p...`, not `mysql[...`.
    if rules.is_empty()
        || !bytes
            .get(hit + name_len)
            .is_some_and(u8::is_ascii_whitespace)
    {
        return;
    }
    if program == b"login" && !previous_word(bytes, hit).is_some_and(|w| LOGIN_HOSTS.contains(&w)) {
        return;
    }
    let mut args = Args {
        bytes,
        pos: hit + name_len,
        end: segment_end(bytes, hit + name_len),
    };
    let mut count = 0;
    while let Some(arg) = args.next() {
        count += 1;
        if count > MAX_ARGS {
            break;
        }
        let text = &bytes[arg.start..arg.end];
        for rule in rules {
            match *rule {
                Rule::Attached(flag) => {
                    if text.len() > flag.len() && text.starts_with(flag.as_bytes()) && !arg.quoted {
                        push_value(
                            bytes,
                            unquote(bytes, arg.start + flag.len(), arg.end),
                            found,
                        );
                    }
                }
                Rule::Separate(flag) => {
                    if let Some(value) = value_of(bytes, &arg, flag, &mut args) {
                        push_value(bytes, value, found);
                    }
                }
                Rule::UserColon(flag) | Rule::UserPercent(flag) => {
                    let sep = if matches!(rule, Rule::UserColon(_)) {
                        b':'
                    } else {
                        b'%'
                    };
                    if let Some((start, end)) = value_of(bytes, &arg, flag, &mut args) {
                        // `user:[REDACTED:...]`: the colon of a placeholder separates nothing.
                        if contains_placeholder(&bytes[start..end]) {
                            continue;
                        }
                        if let Some(p) = bytes[start..end].iter().position(|&b| b == sep) {
                            push_value(bytes, (start + p + 1, end), found);
                        }
                    }
                }
            }
        }
    }
}

/// The value `flag` takes in `arg`: glued (`-pX`, `--user=X`) or the next argument.
fn value_of(bytes: &[u8], arg: &Arg, flag: &str, args: &mut Args<'_>) -> Option<(usize, usize)> {
    if arg.quoted {
        return None;
    }
    let text = &bytes[arg.start..arg.end];
    let flag = flag.as_bytes();
    if text == flag {
        let next = args.next()?;
        if !next.quoted && bytes[next.start] == b'-' {
            return None;
        }
        return Some((next.start, next.end));
    }
    if text.starts_with(flag) {
        let mut start = arg.start + flag.len();
        if flag.starts_with(b"--") {
            if bytes[start] != b'=' {
                return None;
            }
            start += 1;
        }
        return Some(unquote(bytes, start, arg.end));
    }
    None
}

fn unquote(bytes: &[u8], start: usize, end: usize) -> (usize, usize) {
    if end >= start + 2 && is_quote(bytes[start]) && bytes[end - 1] == bytes[start] {
        (start + 1, end - 1)
    } else {
        (start, end)
    }
}

fn push_value(bytes: &[u8], (start, end): (usize, usize), found: &mut Findings) {
    if start < end && !is_reference(bytes, start) {
        found.push(start, end, SecretKind::CliPassword);
    }
}

/// The word before `i` on the same line.
fn previous_word(bytes: &[u8], i: usize) -> Option<&[u8]> {
    let mut end = i;
    while end > 0 && bytes[end - 1] == b' ' {
        end -= 1;
    }
    let start = bytes[..end]
        .iter()
        .rposition(|&b| !(b.is_ascii_alphanumeric() || b == b'-' || b == b'_'))
        .map_or(0, |p| p + 1);
    (start < end).then(|| &bytes[start..end])
}

/// End of the simple command starting at `i`: a line break (real or escaped), `;`, `|`, `&`.
fn segment_end(bytes: &[u8], i: usize) -> usize {
    let limit = bytes.len().min(i + MAX_SEGMENT);
    let mut j = i;
    while j < limit {
        match bytes[j] {
            b'\n' | b';' | b'|' | b'&' => break,
            b'\\' if matches!(bytes.get(j + 1), Some(b'n')) => break,
            // Connectors inside quotes are text (`--password ' && '`): the quoted string is one
            // argument, whatever it holds (a closing quote on the same line is required).
            q @ (b'\'' | b'"') => {
                let close = bytes[j + 1..limit]
                    .iter()
                    .position(|&b| b == q || b == b'\n');
                match close {
                    Some(p) if bytes[j + 1 + p] == q => j += p + 2,
                    _ => j += 1,
                }
            }
            _ => j += 1,
        }
    }
    j
}

/// One argument: `[start, end)` without its quotes.
#[derive(Debug, Clone, Copy)]
struct Arg {
    start: usize,
    end: usize,
    quoted: bool,
}

/// Splits a command segment at blanks, keeping quoted arguments whole.
struct Args<'a> {
    bytes: &'a [u8],
    pos: usize,
    end: usize,
}

impl Iterator for Args<'_> {
    type Item = Arg;

    fn next(&mut self) -> Option<Arg> {
        let bytes = self.bytes;
        loop {
            // Backslashes separate too: they escape quotes of a command inside a JSON string.
            while self.pos < self.end
                && (bytes[self.pos].is_ascii_whitespace() || bytes[self.pos] == b'\\')
            {
                self.pos += 1;
            }
            if self.pos >= self.end {
                return None;
            }
            let start = self.pos;
            let first = bytes[start];
            if is_quote(first) {
                let close = bytes[start + 1..self.end].iter().position(|&b| b == first);
                let end = close.map_or(self.end, |p| start + 1 + p);
                self.pos = (end + 1).min(self.end);
                if end <= start + 1 {
                    continue;
                }
                return Some(Arg {
                    start: start + 1,
                    end,
                    quoted: true,
                });
            }
            let mut j = start;
            while j < self.end && !bytes[j].is_ascii_whitespace() && bytes[j] != b'\\' {
                if is_quote(bytes[j]) && j > start {
                    // `-p'secret'`: the quoted part belongs to this argument.
                    let q = bytes[j];
                    j += 1;
                    while j < self.end && bytes[j] != q {
                        j += 1;
                    }
                    j = (j + 1).min(self.end);
                    continue;
                }
                j += 1;
            }
            self.pos = j;
            return Some(Arg {
                start,
                end: j,
                quoted: false,
            });
        }
    }
}
