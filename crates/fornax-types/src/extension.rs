//! The extension envelope: the one bounded, versioned escape hatch for provider-specific
//! evidence that fits no canonical payload yet.
//!
//! Versions are an allow-list ([`SUPPORTED_EXTENSION_SCHEMA_VERSIONS`]); an envelope of any
//! other version fails to deserialize with an error naming both. Top-level keys this binary
//! does not know are kept in [`ExtensionEnvelope::unknown`] and written back unchanged.

use serde::{Deserialize, Serialize};

use crate::Provider;

/// Schema versions of [`ExtensionEnvelope`] this binary reads and writes.
pub const SUPPORTED_EXTENSION_SCHEMA_VERSIONS: &[u32] = &[1, 2];

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ContentClass {
    ToolTelemetry,
    ProviderDiagnostic,
    ExperimentalSignal,
    RawProviderMetadata,
    Unrecognized(String),
}

impl ContentClass {
    pub fn as_str(&self) -> &str {
        match self {
            ContentClass::ToolTelemetry => "tool_telemetry",
            ContentClass::ProviderDiagnostic => "provider_diagnostic",
            ContentClass::ExperimentalSignal => "experimental_signal",
            ContentClass::RawProviderMetadata => "raw_provider_metadata",
            ContentClass::Unrecognized(s) => s,
        }
    }
}

impl Serialize for ContentClass {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for ContentClass {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Ok(match s.as_str() {
            "tool_telemetry" => ContentClass::ToolTelemetry,
            "provider_diagnostic" => ContentClass::ProviderDiagnostic,
            "experimental_signal" => ContentClass::ExperimentalSignal,
            "raw_provider_metadata" => ContentClass::RawProviderMetadata,
            _ => ContentClass::Unrecognized(s),
        })
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExtensionEnvelope {
    pub schema_version: u32,
    pub provider: Provider,
    pub adapter_version: String,
    pub content_class: ContentClass,
    /// The only schemaless field: inert JSON read by whichever typed consumer chooses to.
    pub fields: serde_json::Value,
    /// Top-level keys written by a newer version, preserved verbatim.
    #[serde(flatten)]
    pub unknown: serde_json::Map<String, serde_json::Value>,
}

#[derive(Deserialize)]
struct RawEnvelope {
    schema_version: u32,
    provider: Provider,
    adapter_version: String,
    content_class: ContentClass,
    #[serde(default)]
    fields: serde_json::Value,
    #[serde(flatten)]
    unknown: serde_json::Map<String, serde_json::Value>,
}

impl<'de> Deserialize<'de> for ExtensionEnvelope {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = RawEnvelope::deserialize(d)?;
        if !SUPPORTED_EXTENSION_SCHEMA_VERSIONS.contains(&raw.schema_version) {
            return Err(serde::de::Error::custom(format!(
                "extension envelope schema_version {} is not supported (supported: {:?})",
                raw.schema_version, SUPPORTED_EXTENSION_SCHEMA_VERSIONS
            )));
        }
        Ok(ExtensionEnvelope {
            schema_version: raw.schema_version,
            provider: raw.provider,
            adapter_version: raw.adapter_version,
            content_class: raw.content_class,
            fields: raw.fields,
            unknown: raw.unknown,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_keys_survive_byte_for_byte() {
        let text = r#"{"schema_version":2,"provider":"opencode","adapter_version":"0.1.0","content_class":"tool_telemetry","fields":{"title":"npm test","ms":1200},"future_key":{"z":1,"a":[1,2.5,"x"]},"another":null}"#;
        let env: ExtensionEnvelope = serde_json::from_str(text).unwrap();
        assert_eq!(env.unknown.len(), 2);
        assert_eq!(serde_json::to_string(&env).unwrap(), text);
    }

    #[test]
    fn unsupported_version_names_version_and_set() {
        let text = r#"{"schema_version":9,"provider":"codex","adapter_version":"1","content_class":"x","fields":{}}"#;
        let err = serde_json::from_str::<ExtensionEnvelope>(text)
            .unwrap_err()
            .to_string();
        assert!(err.contains("schema_version 9"), "{err}");
        assert!(err.contains("[1, 2]"), "{err}");
    }
}
