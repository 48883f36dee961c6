//! Which agent runtime produced a piece of data.

use std::fmt;

use serde::{Deserialize, Serialize};

/// An agent runtime Fornax understands.
///
/// The wire names are stable identifiers (`claude-code`, `codex`, ...). A name this binary does
/// not know deserializes to [`Provider::Other`] instead of failing, so a newer writer never
/// breaks an older reader.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Provider {
    ClaudeCode,
    Codex,
    Pi,
    Opencode,
    Gemini,
    /// GitHub Copilot CLI.
    Copilot,
    /// Cursor (the editor's agent and the cursor-agent CLI).
    Cursor,
    /// Fornax itself (host-observed evidence, capability runs).
    Fornax,
    /// A provider name this binary does not know.
    Other(String),
}

impl Provider {
    /// Every provider this binary knows, in display order.
    pub const KNOWN: [Provider; 8] = [
        Provider::ClaudeCode,
        Provider::Codex,
        Provider::Pi,
        Provider::Opencode,
        Provider::Gemini,
        Provider::Copilot,
        Provider::Cursor,
        Provider::Fornax,
    ];

    /// The stable wire name.
    pub fn as_str(&self) -> &str {
        match self {
            Provider::ClaudeCode => "claude-code",
            Provider::Codex => "codex",
            Provider::Pi => "pi",
            Provider::Opencode => "opencode",
            Provider::Gemini => "gemini",
            Provider::Copilot => "copilot",
            Provider::Cursor => "cursor",
            Provider::Fornax => "fornax",
            Provider::Other(name) => name,
        }
    }

    /// Parses a wire name (or a common alias such as `claude`).
    pub fn parse(name: &str) -> Provider {
        match name {
            "claude-code" | "claude" | "claude_code" => Provider::ClaudeCode,
            "codex" => Provider::Codex,
            "pi" => Provider::Pi,
            "opencode" => Provider::Opencode,
            "gemini" => Provider::Gemini,
            "copilot" | "github-copilot" => Provider::Copilot,
            "cursor" => Provider::Cursor,
            "fornax" => Provider::Fornax,
            other => Provider::Other(other.to_string()),
        }
    }
}

impl fmt::Display for Provider {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl Serialize for Provider {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Provider {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let name = String::deserialize(d)?;
        Ok(Provider::parse(&name))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_names_round_trip() {
        for p in Provider::KNOWN {
            let json = serde_json::to_string(&p).unwrap();
            assert_eq!(serde_json::from_str::<Provider>(&json).unwrap(), p);
        }
    }

    #[test]
    fn unknown_name_is_preserved() {
        let p: Provider = serde_json::from_str("\"aider\"").unwrap();
        assert_eq!(p, Provider::Other("aider".into()));
        assert_eq!(serde_json::to_string(&p).unwrap(), "\"aider\"");
    }
}
