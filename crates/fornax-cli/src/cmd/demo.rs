//! `fornax demo`: the whole pipeline on bundled sample sessions, in a throwaway home.

use std::path::Path;

use crate::error::CliError;
use crate::home::Context;
use crate::output;

/// Sample sessions written for the demo, one per provider, in each agent's native format.
const SAMPLES: &[(&str, &str)] = &[
    ("claude/projects/-home-dev-ledger/5b7c1f0e-2d4a-4c55-9a1e-0f3b6c2d8e11.jsonl", include_str!("../../demo/claude-session.jsonl")),
    ("codex/sessions/2026/03/14/rollout-2026-03-14T09-12-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl", include_str!("../../demo/codex-rollout.jsonl")),
    ("pi/agent/sessions/--home-dev-tinyjson--/2026-03-15T10-00-00-000Z_7d2e9c41-0b6a-4f3e-9c8d-2a1b3c4d5e6f.jsonl", include_str!("../../demo/pi-session.jsonl")),
];

pub fn run(ctx: &Context) -> Result<(), CliError> {
    let dir = tempfile::Builder::new().prefix("fornax-demo-").tempdir()?;
    let data = dir.path().join("agents");
    for (rel, body) in SAMPLES {
        let path = data.join(rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, body)?;
    }
    let demo_ctx = Context {
        home: dir.path().join("home"),
        json: ctx.json,
        config: Default::default(),
    };
    let summary = super::scan::scan(&demo_ctx, std::slice::from_ref(&data), true, None, false)?;
    let store = demo_ctx.open_store_read_only()?;
    let sessions = store.list_sessions_in(&fornax_store::ListFilter::default(), 100, 0)?;
    let findings = store.findings_in(
        &fornax_store::ListFilter::default(),
        None,
        fornax_store::FindingOrder::Severity,
        0,
    )?;
    if ctx.json {
        output::json(
            &serde_json::json!({ "scan": summary, "sessions": sessions, "findings": findings }),
        );
        return Ok(());
    }
    output::heading("Fornax demo: sample sessions from three agents, indexed and verified");
    output::line(&output::dim(&format!(
        "(throwaway home {}; removed on exit)",
        display(dir.path())
    )));
    super::scan::print_summary(&summary);
    output::line("");
    let clock = fornax_ui::env::clock(false);
    super::sessions::print_table(&sessions, &clock, output::width());
    let mut cache = super::findings::SessionCache::default();
    for f in &findings {
        output::line("");
        let row = cache.get(&store, f.session_id)?;
        super::findings::print_finding(f, row, &clock, false);
    }
    output::line("");
    output::heading("Next");
    let wide = NEXT.iter().map(|(c, _)| c.len()).max().unwrap_or(0);
    // Each description wraps under itself, so a narrow terminal still shows the whole line.
    let hang = " ".repeat(wide + 4);
    for (command, what) in NEXT {
        let plain = format!("  {command:<wide$}  ");
        for (i, l) in fornax_ui::present::text::wrap(what, output::width(), &plain, &hang)
            .iter()
            .enumerate()
        {
            match l.strip_prefix(&plain).filter(|_| i == 0) {
                Some(body) => output::line(&format!(
                    "  {}  {body}",
                    output::bold(&format!("{command:<wide$}"))
                )),
                None => output::line(l),
            }
        }
    }
    Ok(())
}

/// The commands to run after the demo, on the user's own sessions.
const NEXT: &[(&str, &str)] = &[
    (
        "fornax scan",
        "index and verify your own agents' sessions (every supported agent)",
    ),
    ("fornax findings", "what to believe, most urgent first"),
    (
        "fornax ui",
        "the same in your browser: sessions, timelines, evidence",
    ),
    (
        "fornax help verdicts",
        "what each of the five verdicts means",
    ),
];

fn display(p: &Path) -> String {
    p.display().to_string()
}
