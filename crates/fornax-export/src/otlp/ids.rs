//! Stable trace and span ids, derived from native ids: exporting the same session again yields
//! the same ids, so a receiver sees the same spans, never duplicates.

/// A session family's trace id: 16 bytes of BLAKE3 over the root session's identity.
pub fn trace_id(provider: &str, native_id: &str) -> [u8; 16] {
    let mut out = [0u8; 16];
    out.copy_from_slice(&digest(&["trace", provider, native_id])[..16]);
    nonzero(&mut out);
    out
}

/// A span id: 8 bytes of BLAKE3 over what the span stands for (`session`, `loop`, `tool`) and
/// the native ids that name it.
pub fn span_id(what: &str, provider: &str, native_id: &str, part: &str) -> [u8; 8] {
    let mut out = [0u8; 8];
    out.copy_from_slice(&digest(&["span", what, provider, native_id, part])[..8]);
    nonzero(&mut out);
    out
}

fn digest(parts: &[&str]) -> [u8; 32] {
    let mut h = blake3::Hasher::new();
    h.update(b"fornax.otlp.v1");
    for p in parts {
        // Length-prefixed, so that ("ab", "c") and ("a", "bc") differ.
        h.update(&(p.len() as u64).to_le_bytes());
        h.update(p.as_bytes());
    }
    *h.finalize().as_bytes()
}

/// All-zero ids are invalid in OTLP.
fn nonzero(b: &mut [u8]) {
    if b.iter().all(|x| *x == 0) {
        b[b.len() - 1] = 1;
    }
}

pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_and_distinct() {
        assert_eq!(trace_id("codex", "s1"), trace_id("codex", "s1"));
        assert_ne!(trace_id("codex", "s1"), trace_id("claude-code", "s1"));
        assert_ne!(
            span_id("loop", "codex", "s1", "0"),
            span_id("loop", "codex", "s1", "1")
        );
        assert_ne!(
            span_id("tool", "codex", "ab", "c"),
            span_id("tool", "codex", "a", "bc")
        );
    }
}
