//! Pi adapter: Pi session files (v1-v3) into the canonical model.
