//! opencode adapter: plugin stream and storage documents into the canonical model.
