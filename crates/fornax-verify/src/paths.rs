//! File paths as agents write them: normalisation and matching.
//!
//! A claimed path matches an observed one when the components of the shorter are a suffix of
//! the components of the longer (`src/parse.rs` matches `/home/me/proj/src/parse.rs`); `./`,
//! repeated slashes and backslashes are tolerated.

/// Splits a path into its meaningful components.
pub fn components(path: &str) -> Vec<&str> {
    path.split(['/', '\\'])
        .filter(|c| !c.is_empty() && *c != ".")
        .collect()
}

/// Whether a claimed path and an observed path name the same file.
pub fn same_file(claimed: &str, observed: &str) -> bool {
    let a = components(claimed.trim());
    let b = components(observed.trim());
    if a.is_empty() || b.is_empty() {
        return false;
    }
    let (short, long) = if a.len() <= b.len() {
        (&a, &b)
    } else {
        (&b, &a)
    };
    long.ends_with(short)
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

const BARE_FILE_NAMES: &[&str] = &[
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
    fn scratch_paths() {
        assert!(is_scratch("/tmp/out.txt"));
        assert!(is_scratch("build.log"));
        assert!(!is_scratch("src/main.rs"));
    }
}
