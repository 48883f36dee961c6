//! Agent texts for claim extraction: closing summaries, some with claims about tests,
//! commits and lint, some with none.

use fornax_types::{
    EvidenceStrength, Item, Provider, RecordRef, Role, Semantic, SemanticValue, SessionRef,
    SourceId, TextValue,
};

use crate::Rng;

/// `n` agent messages, each a few sentences long; about half carry one or more claims.
pub fn agent_texts(seed: u64, n: usize) -> Vec<String> {
    let mut rng = Rng::new(seed);
    (0..n).map(|_| agent_text(&mut rng)).collect()
}

fn agent_text(rng: &mut Rng) -> String {
    const CLAIMS: &[&str] = &[
        "All tests pass now.",
        "`cargo test` passes.",
        "The full test suite is green.",
        "I ran `pytest -q` and everything passed.",
        "`go test ./...` passes and I committed the change.",
        "I committed the change as 4f2a9c1.",
        "The linter is clean.",
        "The build succeeds.",
        "I pushed the branch to origin.",
        "One test still fails; see the output above.",
    ];
    const FILES: &[&str] = &[
        "src/ledger.rs",
        "internal/route/plan.go",
        "decode.c",
        "app/models.py",
        "src/index.ts",
    ];
    let file = rng.pick(FILES);
    let mut text = format!("I updated {file} so that {}. ", rng.words_around(60, 300));
    if rng.chance(30) {
        text.push_str(&format!(
            "Next I would look at {}. ",
            rng.words_around(40, 200)
        ));
    }
    if rng.chance(55) {
        for _ in 0..=rng.below(2) {
            text.push_str(rng.pick(CLAIMS));
            text.push(' ');
        }
    }
    if rng.chance(20) {
        text.push_str(&format!("\n\n```rust\n{}```\n", rng.code_around(200, 600)));
    }
    text
}

/// The same texts as final-answer items of one session, as claim extraction receives them.
pub fn agent_items(seed: u64, n: usize) -> Vec<Item> {
    let session = SessionRef::new(Provider::ClaudeCode, "bench-session");
    let source = SourceId::new("bench:source");
    agent_texts(seed, n)
        .into_iter()
        .enumerate()
        .map(|(i, text)| Item {
            session: session.clone(),
            key: format!("item-{i}"),
            loop_position: Some(i as u32),
            at: None,
            semantic: Semantic::new(
                Role::AgentFinalAnswer,
                SemanticValue::Text(TextValue::full(text)),
                EvidenceStrength::Structural,
            ),
            records: vec![RecordRef::new(source.clone(), i as u64)],
        })
        .collect()
}
