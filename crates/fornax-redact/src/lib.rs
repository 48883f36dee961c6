//! The redaction boundary: secrets replaced once, before anything is stored.
