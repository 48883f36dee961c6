//! Capabilities (AXF contract): manifests, registry, type and provider adapters, policies.
