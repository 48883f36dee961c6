//! A claimed commit is looked up in the session's repository on this machine (through gix, no
//! subprocess) and that host observation decides the verdict.

use std::path::Path;
use std::process::Command;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args([
            "-c",
            "user.name=Dev",
            "-c",
            "user.email=dev@example.invalid",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        // Fixed dates make the commit ids the same on every run: a random short id that
        // happens to be all digits reads as a number, not a commit.
        .env("GIT_AUTHOR_DATE", "2026-05-01T10:00:00Z")
        .env("GIT_COMMITTER_DATE", "2026-05-01T10:00:00Z")
        .output()
        .expect("git is installed");
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

fn rollout(cwd: &Path, final_text: &str) -> String {
    let env = |ts: &str, t: &str, p: serde_json::Value| {
        serde_json::json!({"timestamp": ts, "type": t, "payload": p}).to_string()
    };
    [
        env("2026-05-01T10:00:00.000Z", "session_meta", serde_json::json!({"id": "0199c0de-0000-7000-8000-00000000c0de", "timestamp": "2026-05-01T10:00:00.000Z", "cwd": cwd.display().to_string(), "originator": "codex_cli_rs", "cli_version": "0.98.0"})),
        env("2026-05-01T10:00:01.000Z", "response_item", serde_json::json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "Commit the change."}]})),
        env("2026-05-01T10:00:05.000Z", "response_item", serde_json::json!({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": final_text}], "phase": "final_answer"})),
    ]
    .join("\n")
        + "\n"
}

#[test]
fn claimed_commits_are_checked_in_the_local_repository() {
    let work = tempfile::tempdir().unwrap();
    let repo = work.path().join("repo");
    std::fs::create_dir_all(&repo).unwrap();
    git(&repo, &["init", "-q", "-b", "main"]);
    std::fs::write(repo.join("a.txt"), "a\n").unwrap();
    git(&repo, &["add", "a.txt"]);
    git(&repo, &["commit", "-q", "-m", "add a"]);
    let sha = git(&repo, &["rev-parse", "--short=9", "HEAD"]);
    let data = work.path().join("data");
    std::fs::create_dir_all(&data).unwrap();
    std::fs::write(
        data.join("rollout-real.jsonl"),
        rollout(&repo, &format!("I committed the change as {sha}.")),
    )
    .unwrap();
    let home = work.path().join("home");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_fornax"))
            .env("FORNAX_HOME", &home)
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    run(&["scan", "--json", data.to_str().unwrap()]);
    let findings = run(&["findings", "--json"]);
    let f = &findings["findings"][0];
    assert_eq!(f["claim"]["subject"], "git_commit", "{findings:#}");
    assert_eq!(f["verdict"], "VERIFIED", "{f:#}");
    assert!(
        f["rationale"].as_str().unwrap().contains("host lookup"),
        "{f:#}"
    );

    // A commit that does not exist in the repository.
    std::fs::write(
        data.join("rollout-real.jsonl"),
        rollout(&repo, "I committed the change as 0badc0ffee."),
    )
    .unwrap();
    run(&["scan", "--json", data.to_str().unwrap()]);
    let findings = run(&["findings", "--json"]);
    let f = &findings["findings"][0];
    assert_eq!(f["verdict"], "CONTRADICTED", "{f:#}");
}
