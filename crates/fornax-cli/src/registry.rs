//! The adapters this binary ships. The only place concrete adapters are named.

use fornax_ingest::Registry;

pub fn registry() -> Registry {
    let mut all = Vec::new();
    all.extend(fornax_adapter_claude::descriptors());
    all.extend(fornax_adapter_codex::descriptors());
    all.extend(fornax_adapter_pi::descriptors());
    all.extend(fornax_adapter_gemini::descriptors());
    all.extend(fornax_adapter_opencode::descriptors());
    all.extend(fornax_adapter_copilot::descriptors());
    all.extend(fornax_adapter_cursor::descriptors());
    Registry::new(all)
}
