//! Codex CLI adapter: rollout files of every generation into the canonical model.
