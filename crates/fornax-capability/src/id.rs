//! Capability ids: `global.<module>.<capability>`, `toolspace.<ts>.<module>.<capability>`,
//! `workspace.<module>.<capability>`.

use std::fmt;

use serde::{Deserialize, Serialize};

/// Where a capability lives, which its id prefix and its `scope` field must agree on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Scope {
    #[serde(rename = "global")]
    Global,
    #[serde(rename = "toolspace-local")]
    Toolspace,
    #[serde(rename = "workspace-local")]
    Workspace,
}

impl Scope {
    pub const ALL: [Scope; 3] = [Scope::Global, Scope::Toolspace, Scope::Workspace];

    /// The manifest's `scope` value.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Global => "global",
            Scope::Toolspace => "toolspace-local",
            Scope::Workspace => "workspace-local",
        }
    }

    /// The id prefix.
    pub fn prefix(self) -> &'static str {
        match self {
            Scope::Global => "global",
            Scope::Toolspace => "toolspace",
            Scope::Workspace => "workspace",
        }
    }

    pub fn parse(s: &str) -> Option<Scope> {
        Scope::ALL
            .into_iter()
            .find(|scope| scope.as_str() == s || scope.prefix() == s)
    }
}

/// A parsed capability id.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CapabilityId {
    pub scope: Scope,
    pub toolspace: Option<String>,
    pub module: String,
    pub capability: String,
}

impl CapabilityId {
    pub fn global(module: &str, capability: &str) -> Self {
        CapabilityId {
            scope: Scope::Global,
            toolspace: None,
            module: module.to_string(),
            capability: capability.to_string(),
        }
    }

    pub fn workspace(module: &str, capability: &str) -> Self {
        CapabilityId {
            scope: Scope::Workspace,
            ..CapabilityId::global(module, capability)
        }
    }

    pub fn toolspace(toolspace: &str, module: &str, capability: &str) -> Self {
        CapabilityId {
            scope: Scope::Toolspace,
            toolspace: Some(toolspace.to_string()),
            ..CapabilityId::global(module, capability)
        }
    }

    /// Parses a full id; the error says what is wrong with it.
    pub fn parse(raw: &str) -> Result<Self, String> {
        let parts: Vec<&str> = raw.split('.').collect();
        let scope = match parts.first().copied() {
            Some("global") => Scope::Global,
            Some("workspace") => Scope::Workspace,
            Some("toolspace") => Scope::Toolspace,
            _ => return Err("must start with `global.`, `toolspace.` or `workspace.`".to_string()),
        };
        let expected = if scope == Scope::Toolspace { 4 } else { 3 };
        if parts.len() != expected {
            let shape = match scope {
                Scope::Toolspace => "toolspace.<toolspace>.<module>.<capability>",
                Scope::Global => "global.<module>.<capability>",
                Scope::Workspace => "workspace.<module>.<capability>",
            };
            return Err(format!("expected {shape}"));
        }
        for segment in &parts[1..] {
            check_segment(segment)?;
        }
        let (toolspace, module, capability) = if scope == Scope::Toolspace {
            (Some(parts[1].to_string()), parts[2], parts[3])
        } else {
            (None, parts[1], parts[2])
        };
        Ok(CapabilityId {
            scope,
            toolspace,
            module: module.to_string(),
            capability: capability.to_string(),
        })
    }
}

/// A module, capability, toolspace or adapter name: lowercase ASCII letters, digits, `_` and
/// `-`, starting with a letter or digit, at most 64 characters.
pub fn check_segment(segment: &str) -> Result<(), String> {
    let valid = !segment.is_empty()
        && segment.len() <= 64
        && segment
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        && segment
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-');
    if valid {
        Ok(())
    } else {
        Err(format!(
            "{segment:?} is not a valid name (lowercase letters, digits, `_`, `-`; 1 to 64 characters)"
        ))
    }
}

impl fmt::Display for CapabilityId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.toolspace {
            Some(ts) => write!(f, "toolspace.{ts}.{}.{}", self.module, self.capability),
            None => write!(
                f,
                "{}.{}.{}",
                self.scope.prefix(),
                self.module,
                self.capability
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_each_scope() {
        for raw in [
            "global.echo.say",
            "workspace.db.migrate",
            "toolspace.ci.cargo.test",
        ] {
            let id = CapabilityId::parse(raw).unwrap();
            assert_eq!(id.to_string(), raw);
        }
    }

    #[test]
    fn rejects_bad_shapes() {
        for raw in [
            "echo.say",
            "global.echo",
            "toolspace.ci.say",
            "global.Echo.say",
            "global..say",
        ] {
            assert!(CapabilityId::parse(raw).is_err(), "{raw}");
        }
    }
}
