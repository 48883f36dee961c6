//! The home's dashboard token: 32 random bytes (hex) in `FORNAX_HOME/ui-token`, readable by
//! the owner only, created on first use and kept, so a bookmarked address keeps working.

use std::io::Write;
use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use super::UiError;

pub const FILE: &str = "ui-token";

pub fn path(home: &Path) -> PathBuf {
    home.join(FILE)
}

/// The home's token, created if it has none (or replaced when `renew`).
pub fn load_or_create(home: &Path, renew: bool) -> Result<String, UiError> {
    let path = path(home);
    if !renew {
        match std::fs::read_to_string(&path) {
            Ok(text) if is_token(text.trim()) => return Ok(text.trim().to_string()),
            Ok(_) => {} // damaged: replaced below
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => return Err(UiError::Io { path, source }),
        }
    }
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| UiError::Random(e.to_string()))?;
    let token: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    if !home.exists() {
        std::fs::create_dir_all(home).map_err(|source| UiError::Io {
            path: home.to_path_buf(),
            source,
        })?;
        let _ = std::fs::set_permissions(home, std::fs::Permissions::from_mode(0o700));
    }
    let tmp = home.join(format!("{FILE}.tmp"));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(0o600)
            .open(&tmp)?;
        f.write_all(token.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, &path)
    };
    write().map_err(|source| UiError::Io {
        path: path.clone(),
        source,
    })?;
    Ok(token)
}

fn is_token(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit())
}

/// Compares in time independent of where the strings differ.
pub fn matches(given: &str, token: &str) -> bool {
    let (a, b) = (given.as_bytes(), token.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_is_made_once_private_and_kept() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let t1 = load_or_create(&home, false).unwrap();
        assert!(is_token(&t1));
        let mode = std::fs::metadata(path(&home)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
        assert_eq!(load_or_create(&home, false).unwrap(), t1);
        let t2 = load_or_create(&home, true).unwrap();
        assert_ne!(t1, t2);
        std::fs::write(path(&home), "short").unwrap();
        assert!(is_token(&load_or_create(&home, false).unwrap()));
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(matches("abc", "abc"));
        assert!(!matches("abd", "abc"));
        assert!(!matches("ab", "abc"));
        assert!(!matches("", "abc"));
    }
}
