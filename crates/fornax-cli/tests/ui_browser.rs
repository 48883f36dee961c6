#![allow(clippy::print_stdout)] // a browser test says what it skipped and where it saved
//! The dashboard in a real browser (the system's Chromium, headless, UTC, a fixed "now"),
//! against a home built from the real sessions of `../shared/corpus` and the end-to-end
//! fixtures: every page loads, a CONTRADICTED finding leads to its evidence and its native
//! record, a 10,000-item session opens fast and never holds more than 2,000 rows, and what
//! a scan adds appears without a reload. Screenshots go to `target/ui-screenshots/`.

mod support;

use std::path::Path;

use support::cdp::{chromium, Browser};
use support::{copy_tree, corpus, fixtures, fornax, in_ci, long_transcript, scan, screenshots, Ui};

fn count(b: &mut Browser, selector: &str) -> i64 {
    b.eval(&format!(
        "document.querySelectorAll({}).length",
        serde_json::to_string(selector).unwrap()
    ))
    .as_i64()
    .unwrap()
}

fn text(b: &mut Browser, selector: &str) -> String {
    b.eval(&format!(
        "(document.querySelector({}) || {{}}).innerText || ''",
        serde_json::to_string(selector).unwrap()
    ))
    .as_str()
    .unwrap_or("")
    .to_string()
}

/// Saves a screenshot; long pages only as far as the window shows.
fn shot(b: &mut Browser, name: &str) {
    let path = screenshots().join(format!("{name}.png"));
    let whole = !matches!(name, "findings" | "long-session" | "sessions");
    b.screenshot(&path, whole);
    println!("screenshot {}", path.display());
}

/// A home with the corpus's sessions (when present), the end-to-end fixtures (a CONTRADICTED
/// claim for every agent) and one 10,000-item session; and whether the corpus is in it.
fn home(work: &Path) -> (std::path::PathBuf, bool) {
    let data = work.join("data");
    let with_corpus = corpus().is_some();
    match corpus() {
        Some(c) => {
            for dir in [
                "claude-transcript",
                "codex-rollout",
                "pi-session",
                "gemini",
                "opencode",
            ] {
                if c.join(dir).is_dir() {
                    copy_tree(&c.join(dir), &data.join("corpus").join(dir));
                }
            }
        }
        None => {
            assert!(!in_ci(), "CI has ../shared/corpus");
            println!("note: ../shared/corpus is absent; the fixtures alone are used");
        }
    }
    copy_tree(&fixtures().join("e2e"), &data.join("e2e"));
    long_transcript(
        &data.join("long/claude/9d0c2b7a-1111-4e2f-8a6b-5c4d3e2f1a0b.jsonl"),
        "9d0c2b7a-1111-4e2f-8a6b-5c4d3e2f1a0b",
        5000,
    );
    let home = work.join("home");
    scan(&home, &data);
    (home, with_corpus)
}

#[test]
fn the_dashboard_in_a_real_browser() {
    let Some(binary) = chromium() else {
        assert!(!in_ci(), "CI installs Debian's chromium");
        println!("skipped: no chromium (apt-get install chromium)");
        return;
    };
    let work = tempfile::tempdir().unwrap();
    let (home, with_corpus) = home(work.path());
    // The fixtures alone: four imported sessions and the long one.
    let least = |with: i64, without: i64| if with_corpus { with } else { without };
    let ui = Ui::start(&home);
    let mut b = Browser::launch(&binary);

    // The printed address carries the token; it becomes a cookie and leaves the address.
    b.open(&ui.url);
    b.wait_for("document.querySelector('h1') !== null", "the overview");
    assert_eq!(text(&mut b, "h1"), "Overview");
    assert!(
        !b.eval("location.href").as_str().unwrap().contains("token"),
        "the token is not left in the address bar"
    );
    assert_eq!(count(&mut b, ".tiles .tile"), 5);
    let contradicted: i64 = text(&mut b, ".tile.v-contradicted .count").parse().unwrap();
    assert!(
        contradicted >= 4,
        "each imported fixture is contradicted: {contradicted}"
    );
    assert!(count(&mut b, ".attention article.finding.v-contradicted") >= 1);
    assert!(count(&mut b, ".bars .day") == 30);
    b.wait_for(
        "document.getElementById('live').classList.contains('on')",
        "the live stream",
    );
    shot(&mut b, "overview");

    // Sessions: titles, agents, verdict marks; filters validate.
    b.open(&ui.page("/sessions"));
    let rows = count(&mut b, "table.sessions tbody tr");
    assert!(rows >= least(7, 5), "{rows} sessions");
    assert!(text(&mut b, "table.sessions").contains("The monthly totals are off by a cent"));
    shot(&mut b, "sessions");
    b.open(&ui.page("/sessions?since=yesterdy"));
    assert!(text(&mut b, "p.error").contains("invalid --since \"yesterdy\""));

    // Findings, most urgent first; a CONTRADICTED finding's evidence opens beside the list.
    b.open(&ui.page("/findings"));
    let first = b.eval("document.querySelector('article.finding').className");
    assert!(
        first.as_str().unwrap().contains("v-contradicted"),
        "{first}"
    );
    shot(&mut b, "findings");
    b.open(&ui.page("/findings?verdict=CONTRADICTED&provider=claude-code&project=ledger"));
    assert_eq!(count(&mut b, "article.finding"), 1);
    assert!(text(&mut b, "article.finding .reason").contains("cargo 11 passed, 1 failed"));
    b.eval("window.__stayed = true");
    b.click("article.finding a.evidence-link");
    b.wait_for(
        "!document.getElementById('panel').hidden && document.querySelector('#panel .evidence-panel')",
        "the evidence panel",
    );
    assert_eq!(
        b.eval("window.__stayed === true"),
        serde_json::json!(true),
        "no reload"
    );
    let panel = text(&mut b, "#panel");
    assert!(panel.contains("CONTRADICTED"), "{panel}");
    assert!(panel.contains("cargo test 2>&1 | tail -20"), "{panel}");
    assert!(
        panel.contains("11 passed, 1 failed"),
        "the parsed summary: {panel}"
    );
    assert!(
        panel.contains("agent-adjacent") || panel.contains("trust"),
        "{panel}"
    );
    assert!(count(&mut b, "#panel .evidence-card") >= 1);
    assert!(
        panel.contains("the source still holds these exact bytes"),
        "the record's fingerprint is checked: {panel}"
    );
    assert!(
        !panel.contains("exit:out:"),
        "no evidence ids outside 'For tools'"
    );
    shot(&mut b, "evidence");

    // The native record behind the evidence, read back, checked and redacted.
    b.click("#panel a.record");
    b.wait_for(
        "document.querySelector('pre.native') !== null",
        "the record page",
    );
    assert!(text(&mut b, "dl.record-facts").contains("the source still holds these exact bytes"));
    assert!(text(&mut b, "pre.native").contains("sessionId"));
    shot(&mut b, "record");

    // The claim in place in the timeline, with its badge.
    b.open(&ui.page("/findings?verdict=CONTRADICTED&project=ledger"));
    b.click("article.finding footer a:not(.evidence-link)");
    b.wait_for(
        "document.querySelector('#timeline') !== null",
        "the session page",
    );
    assert!(b
        .eval("location.hash")
        .as_str()
        .unwrap()
        .starts_with("#item-"));
    assert_eq!(
        b.eval("document.querySelector(':target') !== null"),
        serde_json::json!(true)
    );
    assert!(count(&mut b, "#timeline a.claim.v-contradicted") >= 1);
    assert!(count(&mut b, "#timeline .diff") >= 1, "the edit is a diff");
    shot(&mut b, "session");
    b.click("#timeline a.claim.v-contradicted");
    b.wait_for(
        "!document.getElementById('panel').hidden",
        "the panel from the timeline",
    );

    // Search marks the match and leads into the session.
    b.open(&ui.page("/search?q=tests%20pass"));
    assert!(count(&mut b, "ol.hits li") >= least(5, 3));
    assert!(count(&mut b, "ol.hits mark") >= least(5, 3));
    shot(&mut b, "search");
    b.click("ol.hits li a.hit");
    b.wait_for(
        "document.querySelector('#timeline') !== null",
        "a hit's session",
    );

    // Usage: the same totals `fornax usage` prints, per day and per session, priced.
    let cli = fornax(&home).args(["usage", "--json"]).output().unwrap();
    assert!(cli.status.success());
    let cli: serde_json::Value = serde_json::from_slice(&cli.stdout).unwrap();
    let tokens = cli["totals"]["total_tokens"].as_u64().unwrap();
    assert!(tokens > 0, "the fixtures report usage");
    b.open(&ui.page("/usage"));
    assert_eq!(text(&mut b, "h1"), "Usage");
    assert_eq!(text(&mut b, "header.top nav a.current"), "Usage");
    assert_eq!(
        text(&mut b, "#usage-total-tokens").replace(',', ""),
        tokens.to_string()
    );
    assert!(text(&mut b, "#usage-cost").starts_with('$'));
    assert_eq!(
        count(&mut b, "#usage-table tbody tr"),
        cli["rows"].as_array().unwrap().len() as i64,
        "one row per day"
    );
    shot(&mut b, "usage");
    b.open(&ui.page("/usage?report=session&provider=claude-code"));
    assert!(text(&mut b, "#usage-table").contains("5b7c1f0e"));
    b.click("#usage-table a[href='/s/5b7c1f0e-2d4a-4c55-9a1e-0f3b6c2d8e11']");
    b.wait_for(
        "document.querySelector('#timeline') !== null",
        "a session from the usage page",
    );

    // A 10,000-item session: the first screen in under a second, at most 2,000 rows.
    b.open(&ui.page("/s/9d0c2b7a"));
    let loaded = b
        .eval("performance.getEntriesByType('navigation')[0].domContentLoadedEventEnd")
        .as_f64()
        .unwrap();
    println!("10,000-item session: first screen after {loaded:.0} ms");
    assert!(loaded < 1000.0, "{loaded} ms");
    assert_eq!(text(&mut b, "nav.window .range"), "items 1–250 of 10001");
    for _ in 0..24 {
        let end = b
            .eval("document.getElementById('timeline').dataset.end")
            .as_str()
            .unwrap()
            .to_string();
        b.click("a#more");
        b.wait_for(
            &format!("document.getElementById('timeline').dataset.end !== '{end}'"),
            "another page",
        );
    }
    let rows = count(&mut b, "#timeline > article.item");
    let start: i64 = b
        .eval("document.getElementById('timeline').dataset.start")
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    println!("after 24 more pages: {rows} rows in the page, from item {start}");
    assert!(rows <= 2000, "{rows} rows");
    assert!(start > 0, "the oldest rows were let go");
    assert!(
        count(&mut b, "nav.window a.earlier") == 1,
        "and can be reached again"
    );
    shot(&mut b, "long-session");

    // Live: a session scanned while the page is open appears without a reload. The filter is
    // narrow enough that the list is not a full page (the corpus alone has more codex findings
    // than one page holds, and a full page would not grow).
    b.open(&ui.page("/findings?provider=codex&project=tariff"));
    let before = count(&mut b, "article.finding");
    b.eval("window.__stayed = true");
    let extra = work.path().join("extra");
    let rollout = std::fs::read_to_string(fixtures().join("e2e/codex-rollout.jsonl")).unwrap();
    std::fs::create_dir_all(&extra).unwrap();
    std::fs::write(
        extra.join("rollout-live.jsonl"),
        rollout.replace(
            "0198f3c1-7a2b-7c3d-9e4f-5a6b7c8d9e0f",
            "0198f3c1-0000-7000-8000-00000000live",
        ),
    )
    .unwrap();
    scan(&home, &extra);
    b.wait_for(
        &format!("document.querySelectorAll('article.finding').length > {before}"),
        "the new finding",
    );
    assert_eq!(
        b.eval("window.__stayed === true"),
        serde_json::json!(true),
        "no reload"
    );
    drop(b);
    drop(ui);
    // The store was only read.
    let out = fornax(&home).args(["doctor", "--json"]).output().unwrap();
    assert!(out.status.success());
}
