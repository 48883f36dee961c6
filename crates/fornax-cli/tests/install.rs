//! `fornax install|uninstall <agent>` run as a process against fixture settings files in a
//! scratch home: idempotent, reversible, and a refusal leaves every byte as it was.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use fornax_adapter_opencode::PLUGIN_SOURCE;
use serde_json::Value;

const EVENTS: [&str; 12] = [
    "SessionStart",
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PermissionRequest",
    "Notification",
    "Stop",
    "SubagentStart",
    "SubagentStop",
    "PreCompact",
    "SessionEnd",
];
const WITHOUT_MATCHER: [&str; 2] = ["UserPromptSubmit", "Stop"];

fn fixture(name: &str) -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/install")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The binary as install writes it into commands.
fn exe() -> String {
    std::fs::canonicalize(env!("CARGO_BIN_EXE_fornax"))
        .unwrap()
        .display()
        .to_string()
}

/// The hook command install writes for this build: the `fornax-hook` binary when it was built
/// next to `fornax`, else `fornax hook claude`. The choice itself is pinned, independently of
/// what was built, by `claude_hooks_run_the_hook_binary_when_it_sits_next_to_fornax`.
fn hook_command() -> String {
    let hook = Path::new(&exe()).with_file_name("fornax-hook");
    if hook.is_file() {
        format!("{} claude", hook.display())
    } else {
        format!("{} hook claude", exe())
    }
}

/// A scratch home (`FORNAX_AGENT_HOME`), Fornax home and project directory.
struct Sandbox {
    _dir: tempfile::TempDir,
    home: PathBuf,
    fornax_home: PathBuf,
    project: PathBuf,
}

impl Sandbox {
    fn new() -> Sandbox {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let fornax_home = dir.path().join("fornax-home");
        let project = dir.path().join("project");
        std::fs::create_dir_all(&home).unwrap();
        std::fs::create_dir_all(&project).unwrap();
        Sandbox {
            _dir: dir,
            home,
            fornax_home,
            project,
        }
    }

    fn command(&self, args: &[&str]) -> Command {
        self.command_of(Path::new(env!("CARGO_BIN_EXE_fornax")), args)
    }

    /// Runs `program` (a copy of `fornax`) instead of the built binary.
    fn command_of(&self, program: &Path, args: &[&str]) -> Command {
        let mut cmd = Command::new(program);
        cmd.args(args)
            .current_dir(&self.project)
            .env("FORNAX_AGENT_HOME", &self.home)
            .env("FORNAX_HOME", &self.fornax_home)
            .env("NO_COLOR", "1");
        for var in [
            "CLAUDE_CONFIG_DIR",
            "CODEX_HOME",
            "XDG_CONFIG_HOME",
            "PI_CODING_AGENT_DIR",
            "FORNAX_BIN",
        ] {
            cmd.env_remove(var);
        }
        cmd
    }

    fn run(&self, args: &[&str]) -> Output {
        self.command(args).output().unwrap()
    }

    /// Runs and expects success.
    fn ok(&self, args: &[&str]) -> String {
        let out = self.run(args);
        assert!(
            out.status.success(),
            "fornax {args:?} failed: {}\n{}",
            String::from_utf8_lossy(&out.stderr),
            String::from_utf8_lossy(&out.stdout)
        );
        String::from_utf8(out.stdout).unwrap()
    }

    /// Runs with `--json` and expects success.
    fn json(&self, args: &[&str]) -> Value {
        let mut all = vec!["--json"];
        all.extend_from_slice(args);
        serde_json::from_str(&self.ok(&all)).unwrap()
    }

    fn put(&self, path: &Path, bytes: &[u8]) {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }

    fn claude_settings(&self) -> PathBuf {
        self.home.join(".claude/settings.json")
    }

    /// Every file under the scratch home and project, with its bytes.
    fn tree(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
            let Ok(entries) = std::fs::read_dir(dir) else {
                return;
            };
            for e in entries {
                let path = e.unwrap().path();
                if path.is_dir() {
                    walk(&path, out);
                } else {
                    out.insert(path.clone(), std::fs::read(&path).unwrap());
                }
            }
        }
        let mut out = BTreeMap::new();
        walk(&self.home, &mut out);
        walk(&self.project, &mut out);
        out
    }
}

fn backup_of(path: &Path) -> PathBuf {
    let mut name = path.file_name().unwrap().to_os_string();
    name.push(".fornax-backup");
    path.with_file_name(name)
}

fn read_json(path: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap()
}

/// File text with the binary's path made stable for snapshots.
fn stable(path: &Path) -> String {
    String::from_utf8(std::fs::read(path).unwrap())
        .unwrap()
        .replace(&hook_command(), "<HOOK>")
        .replace(&exe(), "<FORNAX>")
}

/// Commands in `settings.hooks[event]`, flattened.
fn commands(settings: &Value, event: &str) -> Vec<String> {
    settings["hooks"][event]
        .as_array()
        .map(|groups| {
            groups
                .iter()
                .flat_map(|g| g["hooks"].as_array().cloned().unwrap_or_default())
                .filter_map(|h| h["command"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

fn assert_fully_installed(settings: &Value) {
    let ours = hook_command();
    for event in EVENTS {
        let groups = settings["hooks"][event].as_array().unwrap();
        let mine: Vec<&Value> = groups
            .iter()
            .filter(|g| {
                g["hooks"]
                    .as_array()
                    .is_some_and(|h| h.iter().any(|e| e["command"] == ours.as_str()))
            })
            .collect();
        assert_eq!(mine.len(), 1, "{event}: one Fornax group");
        let group = mine[0];
        if WITHOUT_MATCHER.contains(&event) {
            assert!(group.get("matcher").is_none(), "{event} takes no matcher");
        } else {
            assert_eq!(group["matcher"], "*", "{event}");
        }
        let hook = &group["hooks"][0];
        assert_eq!(hook["type"], "command");
        assert!(hook["timeout"].as_u64().is_some_and(|t| t > 3), "{event}");
    }
    assert_eq!(
        settings["statusLine"]["command"],
        format!("{} status --statusline", exe()).as_str()
    );
}

// ---------------------------------------------------------------- Claude Code

#[test]
fn claude_install_creates_missing_settings_and_is_idempotent() {
    let sb = Sandbox::new();
    let path = sb.claude_settings();
    let first = sb.json(&["install", "claude"]);
    assert_eq!(first["changed"], true);
    assert_eq!(first["files"][0]["change"], "created");
    assert!(
        first["files"][0].get("backup").is_none(),
        "nothing to back up"
    );
    assert!(first["captured"].as_str().unwrap().contains("hook claude"));
    assert_fully_installed(&read_json(&path));
    assert!(!backup_of(&path).exists());

    let bytes = std::fs::read(&path).unwrap();
    let second = sb.ok(&["install", "claude"]);
    assert!(second.contains("already installed"), "{second}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        bytes,
        "second install writes nothing"
    );
    assert!(!backup_of(&path).exists(), "no write, no backup");
    assert_eq!(sb.json(&["install", "claude"])["changed"], false);

    let removed = sb.json(&["uninstall", "claude"]);
    assert_eq!(removed["changed"], true);
    assert_eq!(read_json(&path), serde_json::json!({}));
    assert_eq!(std::fs::read(backup_of(&path)).unwrap(), bytes);

    let tree = sb.tree();
    let again = sb.ok(&["uninstall", "claude"]);
    assert!(again.contains("not installed"), "{again}");
    assert_eq!(sb.tree(), tree, "uninstalling twice writes nothing");
}

#[test]
fn claude_keeps_foreign_hooks_and_uninstall_restores_the_bytes() {
    let sb = Sandbox::new();
    let path = sb.claude_settings();
    let original = fixture("claude/foreign-hooks.settings.json");
    sb.put(&path, &original);
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();

    let out = sb.json(&["install", "claude"]);
    assert_eq!(out["files"][0]["change"], "updated");
    let installed = read_json(&path);
    assert_fully_installed(&installed);
    let before: Value = serde_json::from_slice(&original).unwrap();
    // Foreign entries stay, first and unchanged, on the events Fornax also uses.
    for event in ["PreToolUse", "PostToolUse", "Stop"] {
        assert_eq!(
            installed["hooks"][event][0], before["hooks"][event][0],
            "{event}"
        );
    }
    let keys: Vec<&String> = installed.as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        [
            "$schema",
            "model",
            "permissions",
            "env",
            "hooks",
            "includeCoAuthoredBy",
            "cleanupPeriodDays",
            "statusLine"
        ]
    );
    assert_eq!(std::fs::read(backup_of(&path)).unwrap(), original);
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&path), 0o600, "mode kept");
    assert_eq!(mode(&backup_of(&path)), 0o600, "the backup is as private");
    insta::assert_snapshot!("claude_foreign_hooks_installed", stable(&path));

    let installed_bytes = std::fs::read(&path).unwrap();
    sb.ok(&["install", "claude"]);
    assert_eq!(std::fs::read(&path).unwrap(), installed_bytes);

    sb.ok(&["uninstall", "claude"]);
    assert_eq!(
        std::fs::read(&path).unwrap(),
        original,
        "install + uninstall is byte-for-byte the original"
    );
    assert_eq!(mode(&path), 0o600);
    let again = sb.ok(&["uninstall", "claude"]);
    assert!(again.contains("not installed"), "{again}");
    assert_eq!(std::fs::read(&path).unwrap(), original);
}

#[test]
fn claude_leaves_a_foreign_status_line_and_says_how_to_chain_it() {
    let sb = Sandbox::new();
    let path = sb.claude_settings();
    let original = fixture("claude/foreign-statusline.settings.json");
    sb.put(&path, &original);

    let out = sb.json(&["install", "claude"]);
    let settings = read_json(&path);
    let before: Value = serde_json::from_slice(&original).unwrap();
    assert_eq!(settings["statusLine"], before["statusLine"]);
    let hints = out["hints"].as_array().unwrap();
    assert!(
        hints.iter().any(|h| {
            let h = h.as_str().unwrap();
            h.contains("~/.claude/statusline.sh") && h.contains("status --statusline")
        }),
        "{hints:?}"
    );
    sb.ok(&["uninstall", "claude"]);
    assert_eq!(std::fs::read(&path).unwrap(), original);
}

#[test]
fn claude_repoints_an_earlier_install_without_duplicates() {
    let sb = Sandbox::new();
    let path = sb.claude_settings();
    sb.put(&path, &fixture("claude/earlier-install.settings.json"));

    let out = sb.json(&["install", "claude"]);
    let details = out["files"][0]["details"].to_string();
    assert!(
        details.contains("pointed 2 earlier Fornax hooks"),
        "{details}"
    );
    assert!(
        details.contains("removed 1 other Fornax hooks"),
        "{details}"
    );
    assert!(
        details.contains("pointed the Fornax statusLine"),
        "{details}"
    );
    let settings = read_json(&path);
    assert_fully_installed(&settings);
    assert!(
        commands(&settings, "PreToolUse").contains(&"./scripts/guard.sh".to_string()),
        "a foreign hook sharing a group with a Fornax hook stays"
    );
    assert!(
        commands(&settings, "Stop")
            .contains(&"/opt/fornax-0.1/bin/fornax hook claude | tee -a ~/stop.log".to_string()),
        "a pipeline that runs fornax is not Fornax's entry"
    );
    insta::assert_snapshot!("claude_earlier_install_installed", stable(&path));

    sb.ok(&["uninstall", "claude"]);
    insta::assert_snapshot!("claude_earlier_install_uninstalled", stable(&path));
    let settings = read_json(&path);
    assert!(settings.get("statusLine").is_none());
    for event in EVENTS {
        for c in commands(&settings, event) {
            assert!(
                !c.ends_with(" hook claude") && !c.ends_with("fornax-hook claude"),
                "{event}: {c} left behind"
            );
        }
    }
}

#[test]
fn claude_hooks_run_the_hook_binary_when_it_sits_next_to_fornax() {
    // Copies of `fornax` in two folders: one alone (a non-executable `fornax-hook` file does
    // not count), one with an executable `fornax-hook` beside it.
    let built = Path::new(env!("CARGO_BIN_EXE_fornax"));
    let bins = tempfile::tempdir_in(built.parent().unwrap()).unwrap();
    let place = |folder: &str, hook_mode: Option<u32>| -> PathBuf {
        let dir = bins.path().join(folder);
        std::fs::create_dir(&dir).unwrap();
        let fornax = dir.join("fornax");
        if std::fs::hard_link(built, &fornax).is_err() {
            std::fs::copy(built, &fornax).unwrap();
        }
        if let Some(mode) = hook_mode {
            let hook = dir.join("fornax-hook");
            std::fs::write(&hook, "#!/bin/sh\nexit 0\n").unwrap();
            std::fs::set_permissions(&hook, std::fs::Permissions::from_mode(mode)).unwrap();
        }
        std::fs::canonicalize(fornax).unwrap()
    };
    let alone = place("alone", Some(0o644));
    let paired = place("paired", Some(0o755));
    let sb = Sandbox::new();
    let path = sb.claude_settings();
    let hooks_of = |settings: &Value| -> Vec<String> {
        EVENTS.iter().flat_map(|e| commands(settings, e)).collect()
    };
    let run = |program: &Path, args: &[&str]| {
        let out = sb.command_of(program, args).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };

    run(&alone, &["install", "claude"]);
    let settings = read_json(&path);
    let slow = format!("{} hook claude", alone.display());
    assert_eq!(hooks_of(&settings), vec![slow; EVENTS.len()]);

    // Installing from the folder with the hook binary repoints every entry at it.
    let out = run(&paired, &["install", "claude"]);
    assert!(out.contains("pointed 12 earlier Fornax hooks"), "{out}");
    let settings = read_json(&path);
    let fast = format!("{} claude", paired.with_file_name("fornax-hook").display());
    assert_eq!(hooks_of(&settings), vec![fast; EVENTS.len()]);
    assert_eq!(
        settings["statusLine"]["command"],
        format!("{} status --statusline", paired.display()).as_str(),
        "the status line stays on `fornax`"
    );
    assert!(run(&paired, &["install", "claude"]).contains("already installed"));

    // Either binary recognizes the other's entries as Fornax's.
    run(&alone, &["uninstall", "claude"]);
    assert_eq!(read_json(&path), serde_json::json!({}));
}

#[test]
fn claude_refusals_leave_every_byte_unchanged() {
    for (name, uninstall_refused) in [
        ("claude/malformed.settings.json", true),
        ("claude/array-root.settings.json", true),
        ("claude/hooks-not-object.settings.json", false),
    ] {
        let sb = Sandbox::new();
        let path = sb.claude_settings();
        let original = fixture(name);
        sb.put(&path, &original);
        let tree = sb.tree();

        let out = sb.run(&["install", "claude"]);
        assert_eq!(out.status.code(), Some(1), "{name}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&path.display().to_string()),
            "{name}: {stderr}"
        );
        assert!(stderr.contains("unchanged"), "{name}: {stderr}");
        assert_eq!(sb.tree(), tree, "{name}: install refused, nothing written");

        let out = sb.run(&["uninstall", "claude"]);
        let expected = if uninstall_refused { 1 } else { 0 };
        assert_eq!(out.status.code(), Some(expected), "{name}");
        assert_eq!(sb.tree(), tree, "{name}: uninstall wrote nothing");
        assert_eq!(std::fs::read(&path).unwrap(), original);
    }
}

#[test]
fn claude_keeps_the_layout_of_a_hand_edited_file() {
    let sb = Sandbox::new();
    let path = sb.claude_settings();
    let original = fixture("claude/four-space.settings.json");
    sb.put(&path, &original);
    sb.ok(&["install", "claude"]);
    let text = String::from_utf8(std::fs::read(&path).unwrap()).unwrap();
    assert!(text.starts_with("{\n    \"model\": \"haiku\",\n    \"hooks\": {"));
    assert!(!text.ends_with('\n'), "no trailing newline, as before");
    sb.ok(&["uninstall", "claude"]);
    assert_eq!(std::fs::read(&path).unwrap(), original);
}

#[test]
fn claude_project_scope_and_settings_flag() {
    let sb = Sandbox::new();
    sb.ok(&["install", "claude", "--project"]);
    let project = sb.project.join(".claude/settings.json");
    assert_fully_installed(&read_json(&project));
    assert!(!sb.claude_settings().exists(), "user settings untouched");
    sb.ok(&["uninstall", "claude", "--project"]);
    assert_eq!(read_json(&project), serde_json::json!({}));

    let local = sb.project.join(".claude/settings.local.json");
    sb.ok(&[
        "install",
        "claude",
        "--settings",
        ".claude/settings.local.json",
    ]);
    assert_fully_installed(&read_json(&local));

    let out = sb.run(&["install", "codex", "--settings", "x.json"]);
    assert_eq!(out.status.code(), Some(2), "--settings is claude only");
}

#[test]
fn dry_run_writes_nothing() {
    let sb = Sandbox::new();
    let path = sb.claude_settings();
    sb.put(&path, &fixture("claude/foreign-hooks.settings.json"));
    let tree = sb.tree();
    let out = sb.json(&["install", "claude", "--dry-run"]);
    assert_eq!(out["changed"], true);
    assert_eq!(out["dry_run"], true);
    assert_eq!(sb.tree(), tree);
    let text = sb.ok(&["install", "opencode", "--dry-run"]);
    assert!(text.contains("would create"), "{text}");
    assert_eq!(sb.tree(), tree);
}

#[test]
fn claude_settings_behind_a_link_stay_a_link() {
    let sb = Sandbox::new();
    let dotfiles = sb.home.join("dotfiles/claude-settings.json");
    let original = fixture("claude/foreign-hooks.settings.json");
    sb.put(&dotfiles, &original);
    let link = sb.claude_settings();
    std::fs::create_dir_all(link.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink("../dotfiles/claude-settings.json", &link).unwrap();

    sb.ok(&["install", "claude"]);
    assert!(std::fs::symlink_metadata(&link)
        .unwrap()
        .file_type()
        .is_symlink());
    assert_fully_installed(&read_json(&dotfiles));
    sb.ok(&["uninstall", "claude"]);
    assert_eq!(std::fs::read(&dotfiles).unwrap(), original);
}

// ---------------------------------------------------------------- Codex, Pi, Gemini

#[test]
fn codex_config_is_never_written() {
    for config in [
        Some("codex/config.toml"),
        Some("codex/malformed.config.toml"),
        None,
    ] {
        let sb = Sandbox::new();
        let path = sb.home.join(".codex/config.toml");
        if let Some(name) = config {
            sb.put(&path, &fixture(name));
        }
        let tree = sb.tree();
        let out = sb.json(&["install", "codex"]);
        assert_eq!(out["changed"], false);
        assert!(out["files"].as_array().unwrap().is_empty());
        let captured = out["captured"].as_str().unwrap();
        assert!(captured.contains(".codex/sessions"), "{captured}");
        assert!(captured.contains("rollout"), "{captured}");
        assert!(out["hints"].to_string().contains("notify"));
        sb.ok(&["uninstall", "codex"]);
        assert_eq!(sb.tree(), tree, "{config:?}: byte-for-byte unchanged");
    }
}

#[test]
fn pi_and_gemini_write_nothing_and_say_what_is_captured() {
    for (agent, root) in [("pi", ".pi/agent/sessions"), ("gemini", ".gemini/tmp")] {
        let sb = Sandbox::new();
        std::fs::create_dir_all(sb.home.join(root)).unwrap();
        let tree = sb.tree();
        let text = sb.ok(&["install", agent]);
        assert!(text.contains("nothing to install"), "{text}");
        assert!(text.contains(root), "{text}");
        assert!(text.contains("(present)"), "{text}");
        assert!(text.contains("fornax scan"), "{text}");
        let out = sb.json(&["uninstall", agent]);
        assert_eq!(out["changed"], false);
        assert_eq!(sb.tree(), tree, "{agent}");
        let usage = sb.run(&["install", agent, "--project"]);
        assert_eq!(usage.status.code(), Some(2));
    }
}

// ---------------------------------------------------------------- opencode

fn plugin(sb: &Sandbox, folder: &str) -> PathBuf {
    sb.home
        .join(".config/opencode")
        .join(folder)
        .join("fornax.js")
}

#[test]
fn opencode_plugin_install_is_idempotent_and_reversible() {
    let sb = Sandbox::new();
    let path = plugin(&sb, "plugin");
    let out = sb.json(&["install", "opencode"]);
    assert_eq!(out["files"][0]["change"], "created");
    assert_eq!(std::fs::read(&path).unwrap(), PLUGIN_SOURCE.as_bytes());
    let tree = sb.tree();
    let again = sb.json(&["install", "opencode"]);
    assert_eq!(again["changed"], false);
    assert_eq!(sb.tree(), tree);

    let out = sb.json(&["uninstall", "opencode"]);
    assert_eq!(out["files"][0]["change"], "removed");
    assert!(!path.exists());
    let tree = sb.tree();
    let out = sb.json(&["uninstall", "opencode"]);
    assert_eq!(out["changed"], false);
    assert_eq!(sb.tree(), tree);
}

#[test]
fn opencode_foreign_plugin_is_refused_and_kept() {
    let sb = Sandbox::new();
    let path = plugin(&sb, "plugin");
    let original = fixture("opencode/foreign-fornax.js");
    sb.put(&path, &original);
    let tree = sb.tree();
    let out = sb.run(&["install", "opencode"]);
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains(&path.display().to_string()), "{stderr}");
    assert_eq!(sb.tree(), tree);

    let out = sb.json(&["uninstall", "opencode"]);
    assert_eq!(out["changed"], false);
    assert!(out["hints"].to_string().contains("not written by Fornax"));
    assert_eq!(sb.tree(), tree);
}

#[test]
fn opencode_earlier_plugin_is_replaced_with_a_backup() {
    let sb = Sandbox::new();
    let path = plugin(&sb, "plugin");
    let earlier = fixture("opencode/earlier-fornax.js");
    sb.put(&path, &earlier);
    let out = sb.json(&["install", "opencode"]);
    assert_eq!(out["files"][0]["change"], "updated");
    assert_eq!(std::fs::read(&path).unwrap(), PLUGIN_SOURCE.as_bytes());
    assert_eq!(std::fs::read(backup_of(&path)).unwrap(), earlier);
}

#[test]
fn opencode_uses_the_plugin_folder_that_exists() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.home.join(".config/opencode/plugins")).unwrap();
    sb.ok(&["install", "opencode"]);
    assert!(plugin(&sb, "plugins").exists());
    assert!(!plugin(&sb, "plugin").exists());
    sb.ok(&["uninstall", "opencode"]);
    assert!(!plugin(&sb, "plugins").exists());

    // A copy in each folder would load twice: install keeps one.
    sb.put(&plugin(&sb, "plugin"), PLUGIN_SOURCE.as_bytes());
    sb.put(
        &plugin(&sb, "plugins"),
        &fixture("opencode/earlier-fornax.js"),
    );
    let out = sb.json(&["install", "opencode"]);
    let changes: Vec<&str> = out["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["change"].as_str().unwrap())
        .collect();
    assert_eq!(changes, ["unchanged", "removed"]);
    assert!(plugin(&sb, "plugin").exists());
    assert!(!plugin(&sb, "plugins").exists());
}

#[test]
fn opencode_project_scope_and_binary_hint() {
    let sb = Sandbox::new();
    let out = sb
        .command(&["--json", "install", "opencode", "--project"])
        .env("PATH", "/nonexistent")
        .output()
        .unwrap();
    assert!(out.status.success());
    let out: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert!(sb.project.join(".opencode/plugin/fornax.js").exists());
    assert!(!plugin(&sb, "plugin").exists());
    let hints = out["hints"].to_string();
    assert!(hints.contains("FORNAX_BIN="), "{hints}");

    let out = sb
        .command(&["--json", "install", "opencode", "--project"])
        .env("FORNAX_BIN", env!("CARGO_BIN_EXE_fornax"))
        .output()
        .unwrap();
    let out: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        out["hints"],
        serde_json::json!([]),
        "FORNAX_BIN names this binary"
    );
    sb.ok(&["uninstall", "opencode", "--project"]);
    assert!(!sb.project.join(".opencode/plugin/fornax.js").exists());
}

/// The hook command install writes for `args` (the `fornax-hook` binary when it was built
/// next to `fornax`).
fn hook_command_for(args: &str) -> String {
    let hook = Path::new(&exe()).with_file_name("fornax-hook");
    if hook.is_file() {
        format!("{} {args}", hook.display())
    } else {
        format!("{} hook {args}", exe())
    }
}

#[test]
fn copilot_hooks_go_into_the_repository_and_come_out_again() {
    let sb = Sandbox::new();
    std::fs::create_dir_all(sb.project.join(".git")).unwrap();
    std::fs::create_dir_all(sb.project.join("src/deep")).unwrap();
    let before = sb.tree();
    let path = sb.project.join(".github/hooks/fornax.json");
    let out = sb.json(&["install", "copilot"]);
    assert_eq!(out["files"][0]["change"], "created", "{out:#}");
    let file = read_json(&path);
    assert_eq!(file["version"], 1);
    let hooks = file["hooks"].as_object().unwrap();
    assert_eq!(hooks.len(), 10);
    for (event, entries) in hooks {
        let entries = entries.as_array().unwrap();
        assert_eq!(entries.len(), 1, "{event}");
        assert_eq!(entries[0]["type"], "command");
        assert_eq!(
            entries[0]["bash"],
            hook_command_for(&format!("copilot {event}"))
        );
    }
    // Idempotent, from a subfolder too.
    let tree = sb.tree();
    let again = sb
        .command(&["--json", "install", "copilot"])
        .current_dir(sb.project.join("src/deep"))
        .output()
        .unwrap();
    assert!(again.status.success());
    let again: Value = serde_json::from_slice(&again.stdout).unwrap();
    assert_eq!(again["changed"], false);
    assert_eq!(sb.tree(), tree);

    let out = sb.json(&["uninstall", "copilot"]);
    assert_eq!(out["files"][0]["change"], "removed");
    let mut after = sb.tree();
    after.retain(|p, _| !p.ends_with("fornax.json.fornax-backup"));
    assert_eq!(after, before);
    let out = sb.json(&["uninstall", "copilot"]);
    assert_eq!(out["changed"], false);
}

#[test]
fn copilot_keeps_the_users_own_hooks_and_needs_a_repository() {
    let sb = Sandbox::new();
    let repo = sb.project.join("elsewhere");
    std::fs::create_dir_all(&repo).unwrap();
    let path = repo.join(".github/hooks/fornax.json");
    let theirs = b"{\n  \"version\": 1,\n  \"hooks\": {\n    \"postToolUse\": [\n      {\n        \"type\": \"command\",\n        \"bash\": \"./audit.sh\"\n      }\n    ]\n  }\n}\n";
    sb.put(&path, theirs);
    let repo_arg = repo.display().to_string();
    sb.ok(&["install", "copilot", "--repo", &repo_arg]);
    let file = read_json(&path);
    assert_eq!(file["hooks"]["postToolUse"].as_array().unwrap().len(), 2);
    sb.ok(&["uninstall", "copilot", "--repo", &repo_arg]);
    assert_eq!(std::fs::read(&path).unwrap(), theirs.to_vec());

    // Outside any repository, and without --repo: a usage error that writes nothing.
    let tree = sb.tree();
    let out = sb.run(&["install", "copilot"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--repo"));
    assert_eq!(sb.tree(), tree);
    let out = sb.run(&["install", "cursor", "--repo", &repo_arg]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn cursor_hooks_are_merged_into_hooks_json_and_removed_exactly() {
    let sb = Sandbox::new();
    let path = sb.home.join(".cursor/hooks.json");
    let theirs = b"{\n  \"version\": 1,\n  \"hooks\": {\n    \"afterFileEdit\": [\n      {\n        \"command\": \"./hooks/audit.sh\"\n      }\n    ]\n  }\n}\n";
    sb.put(&path, theirs);
    let out = sb.json(&["install", "cursor"]);
    assert_eq!(out["files"][0]["change"], "updated", "{out:#}");
    let file = read_json(&path);
    let hooks = file["hooks"].as_object().unwrap();
    assert_eq!(hooks.len(), 14);
    let edits = hooks["afterFileEdit"].as_array().unwrap();
    assert_eq!(
        edits[0]["command"], "./hooks/audit.sh",
        "theirs stays first"
    );
    assert_eq!(edits[1]["command"], hook_command_for("cursor"));
    let tree = sb.tree();
    assert_eq!(sb.json(&["install", "cursor"])["changed"], false);
    assert_eq!(sb.tree(), tree);
    sb.ok(&["uninstall", "cursor"]);
    assert_eq!(std::fs::read(&path).unwrap(), theirs.to_vec());
    assert!(std::fs::read(backup_of(&path)).unwrap().len() > theirs.len());

    // A project-level install creates the file, and uninstall removes it again.
    sb.ok(&["install", "cursor", "--project"]);
    let project_hooks = sb.project.join(".cursor/hooks.json");
    assert!(project_hooks.exists());
    sb.ok(&["uninstall", "cursor", "--project"]);
    assert!(!project_hooks.exists());
}

#[test]
fn cursor_refuses_a_hooks_file_of_another_version() {
    let sb = Sandbox::new();
    let path = sb.home.join(".cursor/hooks.json");
    sb.put(&path, b"{\"version\": 2, \"hooks\": {}}");
    let tree = sb.tree();
    let out = sb.run(&["install", "cursor"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("version"));
    assert_eq!(sb.tree(), tree);
}
