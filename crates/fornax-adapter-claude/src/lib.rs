//! Claude Code adapter: hook payloads and transcript JSONL into the canonical model.
