//! `FORNAX_HOME`: where the index, the spool, logs and the config live.

use std::path::{Path, PathBuf};

use anyhow::Context as _;

use crate::error::CliError;

/// `config.toml`'s schema is shared with the hook, which must read it exactly as we do.
pub use fornax_live::config::Config;

#[derive(Debug)]
pub struct Context {
    pub home: PathBuf,
    pub json: bool,
    pub config: Config,
}

/// The default home when neither `--home` nor `FORNAX_HOME` is given.
pub fn default_home() -> PathBuf {
    fornax_live::default_home()
}

impl Context {
    pub fn new(home: Option<PathBuf>, json: bool) -> Result<Context, CliError> {
        let home = home.unwrap_or_else(default_home);
        let config_path = home.join("config.toml");
        let config = match std::fs::read_to_string(&config_path) {
            Ok(text) => toml::from_str(&text)
                .with_context(|| format!("invalid config {}", config_path.display()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Config::default(),
            Err(e) => {
                return Err(anyhow::Error::new(e)
                    .context(format!("reading {}", config_path.display()))
                    .into())
            }
        };
        Ok(Context { home, json, config })
    }

    pub fn db_path(&self) -> PathBuf {
        self.home.join("fornax.db")
    }

    pub fn spool_dir(&self) -> PathBuf {
        self.home.join("spool")
    }

    /// Creates the home (private to the user) if needed.
    pub fn ensure_home(&self) -> Result<(), CliError> {
        create_private_dir(&self.home)?;
        Ok(())
    }

    pub fn open_store(&self) -> Result<fornax_store::Store, CliError> {
        self.ensure_home()?;
        Ok(fornax_store::Store::open(&self.db_path())?)
    }

    pub fn open_store_read_only(&self) -> Result<fornax_store::Store, CliError> {
        Ok(fornax_store::Store::open_read_only(&self.db_path())?)
    }
}

pub fn create_private_dir(dir: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    if !dir.exists() {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
            .with_context(|| format!("restricting {}", dir.display()))?;
    }
    Ok(())
}

/// Expands a leading `~/`.
pub fn expand_tilde(path: &str) -> PathBuf {
    match path.strip_prefix("~/") {
        Some(rest) => dirs::home_dir().unwrap_or_default().join(rest),
        None => PathBuf::from(path),
    }
}
