//! File paths as agents write them: normalisation and matching.
//!
//! Agents name one file many ways: `src/util.py:42` (a location: line, line and column, a
//! range, a `#L42` anchor), `~/.config/app/x.json`, a path relative to the session's working
//! directory, the absolute path, `./src/util.py`, Windows separators. [`resolve`] turns each
//! into one path, and [`same_file`] is the one rule the judge matches a claimed path against an
//! observed one with: after resolving both, the components of the shorter are a suffix of the
//! components of the longer (`src/parse.rs` matches `/home/me/proj/src/parse.rs`), and a `~`
//! path matches only under a home directory.

/// Splits a path into its meaningful components.
pub fn components(path: &str) -> Vec<&str> {
    path.split(['/', '\\'])
        .filter(|c| !c.is_empty() && *c != ".")
        .collect()
}

/// The path without a location suffix an agent added to it: `src/x.py:9`, `src/x.py:9:3`,
/// `src/x.py:9-14`, `src/x.py#L9`, `src/x.py#L9-L14`, and surrounding quotes or backticks.
pub fn strip_location(token: &str) -> &str {
    let mut t = token.trim().trim_matches(['`', '"', '\'']);
    if let Some(i) = t.rfind("#L") {
        let anchor = &t[i + 2..];
        if !anchor.is_empty()
            && anchor
                .chars()
                .all(|c| c.is_ascii_digit() || c == '-' || c == 'L')
        {
            t = &t[..i];
        }
    }
    // Peel `:<digits>` and `:<digits>-<digits>` groups from the end (at most two: line, column).
    for _ in 0..2 {
        let Some(i) = t.rfind(':') else { break };
        let tail = &t[i + 1..];
        let numeric = !tail.is_empty()
            && tail.starts_with(|c: char| c.is_ascii_digit())
            && tail.chars().all(|c| c.is_ascii_digit() || c == '-');
        // `C:` of a Windows drive is not a location.
        if !numeric || i == 0 {
            break;
        }
        t = &t[..i];
    }
    t
}

/// One path for what an agent wrote: the location suffix dropped, separators made `/`, `.` and
/// `..` components resolved lexically, and a relative path joined to `cwd` when one is known.
/// A leading `~` is kept unless `cwd` lies under a home directory (`/home/<user>`,
/// `/Users/<user>`, `/root`), in which case it is expanded to that directory.
pub fn resolve(path: &str, cwd: Option<&str>) -> String {
    let raw = strip_location(path).replace('\\', "/");
    let cwd = cwd
        .map(|c| c.replace('\\', "/"))
        .filter(|c| !c.trim().is_empty());
    let (base, rest): (String, &str) = if let Some(rest) = raw.strip_prefix("~/") {
        match cwd.as_deref().and_then(home_of) {
            Some(home) => (home.to_string(), rest),
            None => ("~".to_string(), rest),
        }
    } else if raw.starts_with('/') || is_drive(&raw) {
        (String::new(), raw.as_str())
    } else if let Some(cwd) = cwd.as_deref() {
        (cwd.trim_end_matches('/').to_string(), raw.as_str())
    } else {
        (String::new(), raw.as_str())
    };
    let absolute = base.starts_with('/') || (base.is_empty() && rest.starts_with('/'));
    let mut parts: Vec<&str> = Vec::new();
    for c in components(&base).into_iter().chain(components(rest)) {
        if c == ".." {
            // Above the root (or an unknown base) a `..` stays: it names nothing we can resolve.
            if parts.last().is_some_and(|p| *p != ".." && *p != "~") {
                parts.pop();
                continue;
            }
        }
        parts.push(c);
    }
    let joined = parts.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

/// The home directory a path lies under: `/home/<user>`, `/Users/<user>`, `/root`,
/// `C:/Users/<user>`.
fn home_of(path: &str) -> Option<&str> {
    let p = path.trim_end_matches('/');
    if p == "/root" || p.starts_with("/root/") {
        return Some("/root");
    }
    for prefix in ["/home/", "/Users/", "/users/"] {
        if let Some(rest) = p.strip_prefix(prefix) {
            let user = rest.split('/').next().unwrap_or("");
            if !user.is_empty() {
                return Some(&p[..prefix.len() + user.len()]);
            }
        }
    }
    if is_drive(p) {
        let lower = p.to_ascii_lowercase();
        if lower[2..].starts_with("/users/") {
            let user = p[9..].split('/').next().unwrap_or("");
            if !user.is_empty() {
                return Some(&p[..9 + user.len()]);
            }
        }
    }
    None
}

fn is_drive(p: &str) -> bool {
    let b = p.as_bytes();
    b.len() >= 3 && b[0].is_ascii_alphabetic() && b[1] == b':' && (b[2] == b'/' || b[2] == b'\\')
}

/// Whether a claimed path and an observed path name the same file (see the module doc).
pub fn same_file(claimed: &str, observed: &str) -> bool {
    let a = resolve(claimed, None);
    let b = resolve(observed, None);
    let relative = |p: &str| !p.starts_with(['/', '\\']) && !is_drive(p) && !p.starts_with('~');
    let (a_relative, b_relative) = (relative(&a), relative(&b));
    let (a, b) = (components(&a), components(&b));
    if a.is_empty() || b.is_empty() {
        return false;
    }
    // `~/x` is `x` under a home directory: it matches `~/x` or `<home>/x`, never a project's
    // own `x` elsewhere. A shorter relative path names the file's last components, as it does
    // for any path: `test.json` or `themes/test.json` is `~/.pi/themes/test.json`.
    let tail_of_home = |home: &[&str], other: &[&str], other_relative: bool| {
        other_relative && other.len() < home.len() - 1 && home.ends_with(other)
    };
    match (a[0] == "~", b[0] == "~") {
        (true, true) => return a == b,
        (true, false) => return under_home(&b, &a[1..]) || tail_of_home(&a, &b, b_relative),
        (false, true) => return under_home(&a, &b[1..]) || tail_of_home(&b, &a, a_relative),
        (false, false) => {}
    }
    let (short, long) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    if long.ends_with(short) {
        return true;
    }
    // "the README" is `README.md` (or `.rst`, `.txt`): a document named by its stem.
    let (Some((s_last, s_dirs)), Some((l_last, l_dirs))) = (short.split_last(), long.split_last())
    else {
        return false;
    };
    l_dirs.ends_with(s_dirs) && is_document_stem_of(s_last, l_last)
}

/// Whether `stem` (no extension) is a well-known document's name and `file` that document
/// with a text extension: `README` and `README.md`.
fn is_document_stem_of(stem: &str, file: &str) -> bool {
    const STEMS: &[&str] = &[
        "readme",
        "changelog",
        "changes",
        "contributing",
        "license",
        "licence",
        "notice",
        "authors",
        "security",
        "todo",
        "history",
    ];
    const TEXT: &[&str] = &["md", "markdown", "rst", "txt", "adoc", "org"];
    if stem.contains('.') || !STEMS.contains(&stem.to_ascii_lowercase().as_str()) {
        return false;
    }
    file.rsplit_once('.').is_some_and(|(s, ext)| {
        s.eq_ignore_ascii_case(stem) && TEXT.contains(&ext.to_ascii_lowercase().as_str())
    })
}

/// Whether `path` (absolute, in components) is `<home>/<rest>`.
fn under_home(path: &[&str], rest: &[&str]) -> bool {
    if rest.is_empty() {
        return false;
    }
    let home_len = match path {
        ["root", ..] => 1,
        ["home" | "Users" | "users", _, ..] => 2,
        [drive, users, _, ..] if drive.ends_with(':') && users.eq_ignore_ascii_case("users") => 3,
        _ => return false,
    };
    path.len() == home_len + rest.len() && path[home_len..] == *rest
}

/// Whether a path is scratch space whose writes do not change the project (temporary
/// directories, device files, logs).
pub fn is_scratch(path: &str) -> bool {
    let p = path.trim();
    p.starts_with("/tmp/")
        || p.starts_with("/var/tmp/")
        || p.starts_with("/private/tmp/")
        || p.starts_with("/var/folders/")
        || p.starts_with("/dev/")
        || p.starts_with("$TMPDIR")
        || p.starts_with("${TMPDIR")
        || p.ends_with(".log")
        || p == "/dev/null"
}

const FILE_EXTENSIONS: &[&str] = &[
    // Templates: `MANIFEST.in`, `config.h.in`, `requirements.in`.
    "in",
    "rs",
    "py",
    "pyi",
    "js",
    "mjs",
    "cjs",
    "ts",
    "tsx",
    "jsx",
    "mts",
    "cts",
    "go",
    "c",
    "h",
    "cc",
    "cpp",
    "cxx",
    "hpp",
    "hh",
    "m",
    "mm",
    "java",
    "kt",
    "kts",
    "scala",
    "groovy",
    "rb",
    "php",
    "cs",
    "fs",
    "swift",
    "dart",
    "ex",
    "exs",
    "erl",
    "hrl",
    "hs",
    "ml",
    "mli",
    "clj",
    "lua",
    "r",
    "jl",
    "zig",
    "nim",
    "v",
    "sol",
    "vue",
    "svelte",
    "astro",
    "json",
    "jsonc",
    "json5",
    "yaml",
    "yml",
    "toml",
    "ini",
    "cfg",
    "conf",
    "env",
    "xml",
    "html",
    "htm",
    "css",
    "scss",
    "sass",
    "less",
    "md",
    "mdx",
    "rst",
    "txt",
    "adoc",
    "sql",
    "sh",
    "bash",
    "zsh",
    "fish",
    "ps1",
    "bat",
    "lock",
    "gradle",
    "properties",
    "proto",
    "graphql",
    "gql",
    "tf",
    "tfvars",
    "hcl",
    "nix",
    "cmake",
    "mk",
    "csv",
    "tsv",
    "snap",
    "svg",
    "ipynb",
    "prisma",
    "dockerfile",
    "gitignore",
    "editorconfig",
    "plist",
    "csproj",
    "sln",
    "pom",
    "http",
    "tmpl",
    "tpl",
    "j2",
    "jinja",
    "hbs",
    "ejs",
    "pug",
    "wasm",
    "d.ts",
];

pub(crate) const BARE_FILE_NAMES: &[&str] = &[
    "Makefile",
    "makefile",
    "GNUmakefile",
    "Dockerfile",
    "Containerfile",
    "Justfile",
    "justfile",
    "Rakefile",
    "Gemfile",
    "Procfile",
    "Vagrantfile",
    "Jenkinsfile",
    "LICENSE",
    "README",
    "CHANGELOG",
    "CODEOWNERS",
    "Brewfile",
    "Taskfile",
    "Pipfile",
    "BUILD",
    "WORKSPACE",
];

const DOTFILES: &[&str] = &[
    "gitignore",
    "gitattributes",
    "gitmodules",
    "env",
    "editorconfig",
    "eslintrc",
    "eslintignore",
    "prettierrc",
    "prettierignore",
    "npmrc",
    "nvmrc",
    "yarnrc",
    "dockerignore",
    "babelrc",
    "browserslistrc",
    "stylelintrc",
    "pre-commit-config",
    "python-version",
    "tool-versions",
    "rustfmt",
    "clippy",
    "cargo",
    "golangci",
    "flake8",
    "pylintrc",
    "rubocop",
    "bashrc",
    "zshrc",
    "profile",
    "mailmap",
    "envrc",
    "swiftlint",
    "markdownlint",
];

/// Whether a token written by an agent is a file path (as opposed to an identifier, a command,
/// a version number or a branch): it has a known file extension or is a well-known file name,
/// and contains no spaces.
pub fn looks_like_file_path(token: &str) -> bool {
    let t = token
        .trim()
        .trim_end_matches([':', ',', ';', ')'])
        .trim_start_matches('(');
    let t = strip_location(t);
    if t.is_empty()
        || t.len() > 260
        || t.contains(char::is_whitespace)
        || t.contains("://")
        || t.contains("::")
    {
        return false;
    }
    if t.starts_with('-') || t.starts_with('@') || t.ends_with('/') || t.contains('*') {
        return false;
    }
    let Some(last) = components(t).last().copied() else {
        return false;
    };
    if BARE_FILE_NAMES.contains(&last) {
        return true;
    }
    if let Some(dotfile) = last.strip_prefix('.') {
        // `.gitignore`, `.env.local`, `.eslintrc.json`; not a bare extension such as `.jsonl`.
        let known = DOTFILES
            .iter()
            .any(|d| dotfile == *d || dotfile.starts_with(&format!("{d}.")));
        return (known || t.contains('/') || dotfile.contains('.'))
            && dotfile.len() > 1
            && dotfile.starts_with(|c: char| c.is_ascii_alphabetic())
            && dotfile
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    }
    let Some((stem, ext)) = last.rsplit_once('.') else {
        return false;
    };
    // `0.13` or `1.2.3` are versions, not files.
    if !stem.chars().any(|c| c.is_ascii_alphabetic() || c == '_') {
        return false;
    }
    if !stem
        .chars()
        .all(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '.' | '+' | '@' | '[' | ']' | '$'))
    {
        return false;
    }
    FILE_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffix_matching() {
        assert!(same_file("src/parse.rs", "/home/me/proj/src/parse.rs"));
        assert!(same_file("./src/parse.rs", "src//parse.rs"));
        assert!(same_file("/home/me/proj/src/parse.rs", "src/parse.rs"));
        assert!(same_file("Dock.tsx", "src/components/Dock.tsx"));
        assert!(!same_file("src/parse.rs", "src/reparse.rs"));
        assert!(!same_file("lib/parse.rs", "src/parse.rs"));
        assert!(!same_file("", "src/parse.rs"));
        assert!(same_file(
            "src\\win\\main.rs",
            "C:/work/app/src/win/main.rs"
        ));
    }

    #[test]
    fn file_path_tokens() {
        for yes in [
            ".gitignore",
            ".env.local",
            "src/parse.rs",
            "tests/test_rounding.py",
            "Dock.tsx",
            "config/default.json",
            "Makefile",
            "src/lib/slug.ts",
            ".github/workflows/ci.yml",
            "index.d.ts",
        ] {
            assert!(looks_like_file_path(yes), "{yes}");
        }
        for no in [
            ".jsonl",
            ".ts",
            "main",
            "feature/eta",
            "origin/main",
            "0.13",
            "Rule::fix",
            "config.Config",
            "cargo test",
            "--width/--height",
            "src/",
            "https://x.io/a.js",
            "e.g.",
            "4e1d2c9",
            "*.rs",
        ] {
            assert!(!looks_like_file_path(no), "{no}");
        }
    }

    #[test]
    fn locations_are_not_part_of_the_path() {
        for (written, path) in [
            ("src/util.py:42", "src/util.py"),
            ("lib/parse.rb:12:5", "lib/parse.rb"),
            ("pkg/queue/worker.go:88-120", "pkg/queue/worker.go"),
            ("app/models/user.rb#L30", "app/models/user.rb"),
            ("app/models/user.rb#L30-L41", "app/models/user.rb"),
            ("`src/x.py:9`", "src/x.py"),
            ("C:/work/app/main.rs", "C:/work/app/main.rs"),
            ("src/a:b.rs", "src/a:b.rs"),
        ] {
            assert_eq!(strip_location(written), path, "{written}");
        }
        assert!(looks_like_file_path("src/util.py:42"));
        assert!(!looks_like_file_path("localhost:8080"));
    }

    #[test]
    fn resolving_gives_one_path() {
        let cwd = Some("/home/dev/shop");
        assert_eq!(resolve("src/util.py:42", cwd), "/home/dev/shop/src/util.py");
        assert_eq!(
            resolve("./src/../src/util.py", cwd),
            "/home/dev/shop/src/util.py"
        );
        assert_eq!(
            resolve("/home/dev/shop/src/util.py", cwd),
            "/home/dev/shop/src/util.py"
        );
        assert_eq!(
            resolve("~/.config/app/x.json", cwd),
            "/home/dev/.config/app/x.json"
        );
        assert_eq!(
            resolve("~/.config/app/x.json", None),
            "~/.config/app/x.json"
        );
        assert_eq!(resolve("src\\win\\main.rs", None), "src/win/main.rs");
        assert_eq!(resolve("../lib/a.rs", None), "../lib/a.rs");
        assert_eq!(
            resolve("notes.md", Some("C:\\Users\\ana\\proj")),
            "C:/Users/ana/proj/notes.md"
        );
        assert_eq!(
            resolve("~/n.md", Some("C:\\Users\\ana\\proj")),
            "C:/Users/ana/n.md"
        );
    }

    #[test]
    fn written_forms_match_the_observed_file() {
        let observed = "/home/dev/shop/src/util.py";
        for claimed in [
            "src/util.py",
            "src/util.py:42",
            "`src/util.py:42:7`",
            "./src/util.py",
            "util.py#L42",
            "/home/dev/shop/src/util.py",
        ] {
            assert!(same_file(claimed, observed), "{claimed}");
        }
        assert!(same_file(
            "~/.pi/themes/a.json",
            "/home/mo/.pi/themes/a.json"
        ));
        assert!(same_file("~/.pi/themes/a.json", "~/.pi/themes/a.json"));
        assert!(same_file(
            "/Users/mo/.pi/themes/a.json",
            "~/.pi/themes/a.json"
        ));
        assert!(same_file("~/a.json", "C:\\Users\\mo\\a.json"));
        // A `~` path is under a home directory, not anywhere.
        assert!(!same_file(
            "~/.pi/themes/a.json",
            "/srv/app/.pi/themes/a.json"
        ));
        assert!(!same_file("~/.pi/themes/a.json", ".pi/themes/a.json"));
        assert!(!same_file("~/a.json", "a.json"));
        // A file's name (or its last components) names it wherever it is.
        assert!(same_file("a.json", "~/.pi/themes/a.json"));
        assert!(same_file("~/.pi/themes/a.json", "themes/a.json"));
        assert!(!same_file("b.json", "~/.pi/themes/a.json"));
        // A document named by its stem.
        assert!(same_file("README", "packages/app/README.md"));
        assert!(same_file("docs/CHANGELOG", "/srv/x/docs/CHANGELOG.rst"));
        assert!(!same_file("README", "README.rs"));
        assert!(!same_file("main", "src/main.rs"));
        assert!(!same_file("docs/README", "other/README.md"));
        assert!(!same_file("src/util.py", "src/other.py"));
    }

    #[test]
    fn scratch_paths() {
        assert!(is_scratch("/tmp/out.txt"));
        assert!(is_scratch("build.log"));
        assert!(!is_scratch("src/main.rs"));
    }
}
