//! Checks against real repositories built with the `git` CLI (test setup only; the crate itself
//! never runs git).

use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use fornax_vcs::{check_commit, head_branch, VcsError};

/// Runs git hermetically in `dir`: no user or system config, fixed identity and dates.
fn git(dir: &Path, args: &[&str]) -> String {
    git_with_input(dir, args, None)
}

fn git_with_input(dir: &Path, args: &[&str], input: Option<&[u8]>) -> String {
    let mut child = Command::new("git")
        .args([
            "-c",
            "user.name=Fornax Test",
            "-c",
            "user.email=test@example.invalid",
        ])
        .args([
            "-c",
            "init.defaultBranch=main",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_DATE", "2025-01-02T03:04:05Z")
        .env("GIT_COMMITTER_DATE", "2025-01-02T03:04:05Z")
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("git is installed");
    if let Some(input) = input {
        child
            .stdin
            .take()
            .expect("piped stdin")
            .write_all(input)
            .expect("write to git");
    }
    let out = child.wait_with_output().expect("git runs");
    assert!(
        out.status.success(),
        "git {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("utf-8 output")
        .trim()
        .to_owned()
}

/// A repository on `main` with two commits; returns the dir and both full shas.
fn repo_with_commits() -> (tempfile::TempDir, String, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    git(root, &["init", "-q"]);
    std::fs::create_dir(root.join("src")).expect("mkdir");
    std::fs::write(root.join("src/lib.rs"), "pub fn one() {}\n").expect("write");
    git(root, &["add", "."]);
    git(
        root,
        &[
            "commit",
            "-q",
            "-m",
            "feat: add one\n\nWith a body that is not the summary.",
        ],
    );
    let first = git(root, &["rev-parse", "HEAD"]);
    std::fs::write(root.join("src/lib.rs"), "pub fn two() {}\n").expect("write");
    git(root, &["commit", "-q", "-am", "fix: rename to two"]);
    let second = git(root, &["rev-parse", "HEAD"]);
    (dir, first, second)
}

fn work_dir(dir: &tempfile::TempDir) -> String {
    dir.path().display().to_string()
}

#[test]
fn finds_a_commit_by_short_and_full_sha() {
    let (dir, first, second) = repo_with_commits();
    for claimed in [
        &first[..7],
        &first[..4],
        first.as_str(),
        &first[..12].to_uppercase(),
    ] {
        let check = check_commit(dir.path(), claimed).expect("check");
        assert_eq!(check.repository, work_dir(&dir));
        assert_eq!(check.sha, claimed);
        assert!(check.exists, "{claimed} should exist");
        assert!(!check.ambiguous);
        assert_eq!(check.full_sha.as_deref(), Some(first.as_str()));
        assert_eq!(check.summary.as_deref(), Some("feat: add one"));
    }
    let check = check_commit(dir.path(), &second[..8]).expect("check");
    assert_eq!(check.full_sha.as_deref(), Some(second.as_str()));
    assert_eq!(check.summary.as_deref(), Some("fix: rename to two"));
}

#[test]
fn unknown_sha_does_not_exist() {
    let (dir, first, _) = repo_with_commits();
    // Flip the first character: same length, guaranteed to differ from the real commit.
    let flipped = if first.starts_with('0') { "1" } else { "0" };
    let unknown = format!("{flipped}{}", &first[1..]);
    let check = check_commit(dir.path(), &unknown).expect("check");
    assert_eq!(
        check,
        fornax_vcs::CommitCheck {
            repository: work_dir(&dir),
            sha: unknown.clone(),
            exists: false,
            full_sha: None,
            summary: None,
            ambiguous: false,
        }
    );
}

#[test]
fn a_prefix_of_a_blob_is_not_a_commit() {
    let (dir, _, _) = repo_with_commits();
    let blob = git_with_input(
        dir.path(),
        &["hash-object", "-w", "--stdin"],
        Some(b"just a blob\n"),
    );
    let check = check_commit(dir.path(), &blob).expect("check");
    assert!(!check.exists);
    assert!(!check.ambiguous);
    assert_eq!(check.full_sha, None);
}

#[test]
fn a_prefix_shared_by_several_commits_is_ambiguous() {
    let dir = tempfile::tempdir().expect("temp dir");
    git(dir.path(), &["init", "-q"]);
    // 1500 commits make a shared 4-character prefix all but certain (birthday bound over 65536).
    let mut stream = String::new();
    for n in 1..=1500 {
        let message = format!("commit {n}\n");
        stream.push_str(&format!(
            "commit refs/heads/main\ncommitter T <t@example.invalid> 1700000000 +0000\ndata {}\n{message}\n",
            message.len()
        ));
    }
    git_with_input(
        dir.path(),
        &["fast-import", "--quiet"],
        Some(stream.as_bytes()),
    );
    let mut by_prefix: HashMap<String, Vec<String>> = HashMap::new();
    for sha in git(dir.path(), &["rev-list", "main"]).lines() {
        by_prefix
            .entry(sha[..4].to_owned())
            .or_default()
            .push(sha.to_owned());
    }
    let (prefix, shas) = by_prefix
        .into_iter()
        .find(|(_, shas)| shas.len() > 1)
        .expect("1500 commits share some 4-character prefix");

    let check = check_commit(dir.path(), &prefix).expect("check");
    assert!(check.ambiguous, "{prefix} is shared by {shas:?}");
    assert!(!check.exists);
    assert_eq!(check.full_sha, None);
    assert_eq!(check.summary, None);

    // The full id of one of them is unique again.
    let check = check_commit(dir.path(), &shas[0]).expect("check");
    assert!(check.exists && !check.ambiguous);
    assert_eq!(check.full_sha.as_deref(), Some(shas[0].as_str()));
}

#[test]
fn malformed_shas_are_rejected_by_name() {
    let (dir, first, _) = repo_with_commits();
    let too_long = format!("{first}0");
    for bad in [
        "",
        "abc",
        "xyz1234",
        "g000000",
        "12 34",
        "0x1234",
        too_long.as_str(),
    ] {
        match check_commit(dir.path(), bad) {
            Err(err @ VcsError::InvalidSha { .. }) => {
                assert!(err.to_string().contains(&format!("{bad:?}")), "{err}");
            }
            other => panic!("{bad:?} should be an invalid sha, got {other:?}"),
        }
    }
}

#[test]
fn a_directory_outside_any_repository_is_reported() {
    let dir = tempfile::tempdir().expect("temp dir");
    let err = check_commit(dir.path(), "abcd").expect_err("not a repository");
    assert!(
        matches!(&err, VcsError::NotARepository { path } if path == dir.path()),
        "{err:?}"
    );
    assert!(err.to_string().contains(&dir.path().display().to_string()));
    let err = head_branch(dir.path()).expect_err("not a repository");
    assert!(matches!(err, VcsError::NotARepository { .. }), "{err:?}");
}

#[test]
fn a_subdirectory_resolves_its_repository() {
    let (dir, first, _) = repo_with_commits();
    let check = check_commit(&dir.path().join("src"), &first[..10]).expect("check");
    assert!(check.exists);
    assert_eq!(check.repository, work_dir(&dir));
    assert_eq!(
        head_branch(&dir.path().join("src"))
            .expect("head")
            .as_deref(),
        Some("main")
    );
}

#[test]
fn head_branch_names_the_branch_or_none_when_detached() {
    let (dir, first, _) = repo_with_commits();
    assert_eq!(
        head_branch(dir.path()).expect("head").as_deref(),
        Some("main")
    );
    git(dir.path(), &["checkout", "-q", "-b", "feature/claims"]);
    assert_eq!(
        head_branch(dir.path()).expect("head").as_deref(),
        Some("feature/claims")
    );
    git(dir.path(), &["checkout", "-q", "--detach", &first]);
    assert_eq!(head_branch(dir.path()).expect("head"), None);
}

#[test]
fn queries_leave_the_repository_untouched() {
    let (dir, first, _) = repo_with_commits();
    let before = git(dir.path(), &["status", "--porcelain", "--ignored"]);
    let snapshot = |root: &Path| -> Vec<String> { walk(&root.join(".git")).into_iter().collect() };
    let files_before = snapshot(dir.path());
    check_commit(dir.path(), &first[..6]).expect("check");
    head_branch(dir.path()).expect("head");
    assert_eq!(snapshot(dir.path()), files_before);
    assert_eq!(
        git(dir.path(), &["status", "--porcelain", "--ignored"]),
        before
    );
}

/// Every file under `dir` with its length and modification time, sorted.
fn walk(dir: &Path) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(current) = stack.pop() {
        for entry in std::fs::read_dir(&current).expect("read dir") {
            let entry = entry.expect("entry");
            let meta = entry.metadata().expect("metadata");
            if meta.is_dir() {
                stack.push(entry.path());
            } else {
                out.insert(format!(
                    "{} {} {:?}",
                    entry.path().display(),
                    meta.len(),
                    meta.modified().ok()
                ));
            }
        }
    }
    out
}

#[test]
fn the_crate_never_spawns_processes() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut checked = 0;
    for entry in std::fs::read_dir(&src).expect("src dir") {
        let path = entry.expect("entry").path();
        let text = std::fs::read_to_string(&path).expect("read source");
        for forbidden in ["std::process", "Command::new", "process::Command"] {
            assert!(
                !text.contains(forbidden),
                "{} mentions {forbidden}",
                path.display()
            );
        }
        checked += 1;
    }
    assert!(
        checked >= 2,
        "expected the crate's sources under {}",
        src.display()
    );
}
