//! Registration: one descriptor per transport, recognizing its records from content alone.

mod common;

use fornax_adapter_claude::{descriptors, HOOK_ADAPTER, TRANSCRIPT_ADAPTER};
use fornax_types::{Framing, Provider, SourceKind};

#[test]
fn one_descriptor_per_transport() {
    let all = descriptors();
    assert_eq!(all.len(), 2);
    let transcript = all.iter().find(|d| d.name == TRANSCRIPT_ADAPTER).unwrap();
    assert_eq!(transcript.name, "claude-transcript");
    assert_eq!(
        (
            transcript.provider.clone(),
            transcript.transport,
            transcript.framing
        ),
        (Provider::ClaudeCode, SourceKind::File, Framing::JsonLines)
    );
    assert_eq!(transcript.default_roots, &[".claude/projects"]);
    assert_eq!(transcript.file_suffixes, &[".jsonl"]);
    let hook = all.iter().find(|d| d.name == HOOK_ADAPTER).unwrap();
    assert_eq!(hook.name, "claude-hook");
    assert_eq!(
        (hook.provider.clone(), hook.transport),
        (Provider::ClaudeCode, SourceKind::HookStream)
    );
    assert!(hook.default_roots.is_empty());
    for d in &all {
        let adapter = (d.create)();
        assert_eq!(adapter.provider(), Provider::ClaudeCode);
        assert_eq!(adapter.probe().transport, Some(d.transport));
    }
}

#[test]
fn sniffers_recognize_their_own_fixtures_and_not_each_other() {
    let all = descriptors();
    let sniff = |name: &str| all.iter().find(|d| d.name == name).unwrap().sniff;
    let (transcript, hook) = (sniff(TRANSCRIPT_ADAPTER), sniff(HOOK_ADAPTER));
    for (name, f) in common::all_fixtures("transcript") {
        assert!(f.native_events.iter().take(3).any(transcript), "{name}");
        assert!(!f.native_events.iter().any(hook), "{name}");
    }
    for (name, f) in common::all_fixtures("hooks") {
        if name.starts_with("unrecognized_future_") {
            continue;
        }
        assert!(f.native_events.iter().all(hook), "{name}");
        assert!(!f.native_events.iter().any(transcript), "{name}");
    }
}
