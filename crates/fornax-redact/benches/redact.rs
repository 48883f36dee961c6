//! Throughput of the redaction boundary on generated transcript text.
fn main() {}
