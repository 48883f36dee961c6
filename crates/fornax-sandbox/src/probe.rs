//! Which confinements a run had: each one by name, active or not, and why not.

use serde::{Deserialize, Serialize};

/// One confinement and whether it applied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Confinement {
    /// `filesystem`, `network`, `memory`, `cpu`, `file_size`, `processes`, `descendants`.
    pub name: String,
    pub active: bool,
    /// How it is enforced, or why it is not.
    pub detail: String,
}

/// Every confinement of a run.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub items: Vec<Confinement>,
}

impl Report {
    pub fn set(&mut self, name: &str, active: bool, detail: impl Into<String>) {
        self.items.retain(|c| c.name != name);
        self.items.push(Confinement {
            name: name.to_string(),
            active,
            detail: detail.into(),
        });
    }

    pub fn is_active(&self, name: &str) -> bool {
        self.items.iter().any(|c| c.name == name && c.active)
    }

    /// The confinements that did not apply.
    pub fn inactive(&self) -> impl Iterator<Item = &Confinement> {
        self.items.iter().filter(|c| !c.active)
    }

    /// The report for a platform where nothing can be confined.
    pub fn unsupported(reason: &str) -> Report {
        let mut r = Report::default();
        for name in [
            "filesystem",
            "network",
            "memory",
            "cpu",
            "file_size",
            "processes",
            "descendants",
        ] {
            r.set(name, false, reason);
        }
        r
    }
}
