//! `config.toml` in the home, and the default home.
//!
//! The schema lives here, beside the hook, because the hook reads it (is intervention on?) and
//! must accept and refuse exactly the files the `fornax` binary does.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

/// `config.toml` in the home. Every key is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// Roots to scan per adapter name (or provider name), replacing the defaults.
    #[serde(default)]
    pub roots: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub scan: ScanConfig,
    #[serde(default)]
    pub intervene: InterveneConfig,
    #[serde(default)]
    pub daemon: DaemonSection,
    #[serde(default)]
    pub capture: CaptureConfig,
    #[serde(default)]
    pub archive: ArchiveConfig,
}

/// `[archive]`: whether every record's redacted bytes are kept in the home (on by default),
/// so that sessions outlive the files their agents delete.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArchiveConfig {
    pub enabled: Option<bool>,
}

impl ArchiveConfig {
    pub fn enabled(&self) -> bool {
        self.enabled.unwrap_or(true)
    }
}

/// `[capture]`: what is never captured.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CaptureConfig {
    /// Projects or paths never captured: a hook event whose working directory is one of them
    /// (or inside one) is dropped, and scans skip files under them and sessions that run in
    /// them. `~/` is the user's home.
    #[serde(default)]
    pub exclude: Vec<String>,
}

impl CaptureConfig {
    /// The excluded paths, `~/` expanded and trailing slashes removed (`/` stays `/`).
    pub fn excluded(&self) -> Vec<String> {
        self.exclude
            .iter()
            .filter(|p| !p.trim().is_empty())
            .map(|p| {
                let p = p.trim();
                let expanded = match p.strip_prefix("~/") {
                    Some(rest) => dirs::home_dir()
                        .map(|h| h.join(rest).display().to_string())
                        .unwrap_or_else(|| p.to_string()),
                    None => p.to_string(),
                };
                let trimmed = expanded.trim_end_matches('/');
                if trimmed.is_empty() {
                    "/".to_string()
                } else {
                    trimmed.to_string()
                }
            })
            .collect()
    }
}

/// Whether `path` is one of `excluded` (as [`CaptureConfig::excluded`] gives them) or inside
/// one. A plain prefix check on path components: cheap enough for every hook event.
pub fn is_excluded(excluded: &[String], path: &str) -> bool {
    excluded.iter().any(|e| {
        e == "/"
            || path
                .strip_prefix(e.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
    })
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScanConfig {
    pub max_record_bytes: Option<usize>,
    pub text_cap: Option<usize>,
}

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InterveneConfig {
    #[serde(default)]
    pub enabled: bool,
}

/// `[daemon]`: how the live daemon comes up.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DaemonSection {
    /// A hook that finds no daemon starts one (detached, rate-limited). On unless set to
    /// false: capture that silently stops is worse than a process the user did not start.
    #[serde(default = "yes")]
    pub autostart: bool,
}

impl Default for DaemonSection {
    fn default() -> Self {
        DaemonSection { autostart: true }
    }
}

fn yes() -> bool {
    true
}

#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    #[error("reading {path}: {source}")]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("invalid config {path}: {source}")]
    Invalid {
        path: PathBuf,
        source: toml::de::Error,
    },
}

/// The config file of a home.
pub fn config_path(home: &Path) -> PathBuf {
    crate::Home::new(home).config()
}

/// Reads a home's config; a missing file is the default config.
pub fn load(home: &Path) -> Result<Config, ConfigError> {
    let path = config_path(home);
    match std::fs::read_to_string(&path) {
        Ok(text) => toml::from_str(&text).map_err(|source| ConfigError::Invalid { path, source }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Config::default()),
        Err(source) => Err(ConfigError::Read { path, source }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_is_default_and_unknown_keys_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(!load(dir.path()).unwrap().intervene.enabled);
        assert!(load(dir.path()).unwrap().daemon.autostart);
        std::fs::write(config_path(dir.path()), "[daemon]\nautostart = false\n").unwrap();
        assert!(!load(dir.path()).unwrap().daemon.autostart);
        std::fs::write(config_path(dir.path()), "[intervene]\nenabled = true\n").unwrap();
        assert!(load(dir.path()).unwrap().intervene.enabled);
        assert!(load(dir.path()).unwrap().archive.enabled());
        std::fs::write(config_path(dir.path()), "[archive]\nenabled = false\n").unwrap();
        assert!(!load(dir.path()).unwrap().archive.enabled());
        std::fs::write(
            config_path(dir.path()),
            "[intervene]\nenabled = true\n[scan]\nbogus = 1\n",
        )
        .unwrap();
        assert!(matches!(load(dir.path()), Err(ConfigError::Invalid { .. })));
    }

    #[test]
    fn exclusion_matches_the_path_and_what_is_inside_it_only() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            config_path(dir.path()),
            "[capture]\nexclude = [\"/work/secret/\", \"  \"]\n",
        )
        .unwrap();
        let excluded = load(dir.path()).unwrap().capture.excluded();
        assert_eq!(excluded, vec!["/work/secret".to_string()]);
        assert!(is_excluded(&excluded, "/work/secret"));
        assert!(is_excluded(&excluded, "/work/secret/sub/dir"));
        assert!(!is_excluded(&excluded, "/work/secrets"));
        assert!(!is_excluded(&excluded, "/work"));
        assert!(!is_excluded(&[], "/work/secret"));
        assert!(is_excluded(&["/".to_string()], "/anything"));
    }
}
