//! Gemini CLI adapter: chat files (JSON and JSONL) into the canonical model.
