//! A session's timeline as HTML rows: prompts, agent text with its claims marked in place,
//! tool calls with their output folded in (large outputs cut, with "show all"), edits as
//! diffs, subagents as nested timelines that load when opened.

use std::collections::{HashMap, HashSet};

use fornax_store::{ChildSession, FindingRow, LoopRow};
use fornax_types::{Item, SemanticValue, TextValue, ToolOutputValue};
use maud::{html, Markup};

use super::diff;
use super::html::{badge, cut, enc, finding_href, item_anchor, size, time};
use crate::present::{labels, rationale, Clock};

/// Items per page of a timeline.
pub const PAGE: usize = 250;

/// The most item rows a page holds at once; the script drops the oldest beyond it.
pub const MAX_ROWS: usize = 2000;

/// Text shown before "show all".
const TEXT_CUT: usize = 16 * 1024;

/// Output shown before "show all": its head and its tail (where summaries are).
const OUTPUT_HEAD: usize = 2 * 1024;
const OUTPUT_TAIL: usize = 2 * 1024;

/// What the rows of one page need besides the items.
pub struct Context<'a> {
    pub session_id: i64,
    pub clock: &'a Clock,
    /// This session's findings by item key.
    pub findings: HashMap<&'a str, Vec<&'a FindingRow>>,
    pub children: &'a [ChildSession],
    pub loops: &'a [LoopRow],
    /// The loop open before the first item of the page (so its header is not repeated).
    pub loop_before: Option<u32>,
    /// Nested inside a parent's timeline (smaller, no loop headers).
    pub nested: bool,
}

/// Rows for `items`; `offset` is the index of the first one in the session.
pub fn rows(items: &[Item], offset: usize, ctx: &Context<'_>) -> Markup {
    let outputs: HashMap<&str, usize> = items
        .iter()
        .enumerate()
        .filter_map(|(i, it)| match &it.semantic.value {
            SemanticValue::ToolOutput(o) => o.call_id.as_deref().map(|c| (c, i)),
            _ => None,
        })
        .collect();
    let mut folded: HashSet<usize> = HashSet::new();
    let mut current_loop = ctx.loop_before;
    html! {
        @for (i, item) in items.iter().enumerate() {
            @if !ctx.nested && item.loop_position.is_some() && item.loop_position != current_loop {
                @let lp = item.loop_position.unwrap_or(0);
                ({ current_loop = item.loop_position; loop_header(lp, ctx) })
            }
            @if !folded.contains(&i) {
                @let output = call_id(&item.semantic.value)
                    .and_then(|c| outputs.get(c))
                    .filter(|j| **j > i)
                    .map(|j| { folded.insert(*j); &items[*j] });
                (row(item, offset + i, output, ctx))
            }
        }
    }
}

fn call_id(v: &SemanticValue) -> Option<&str> {
    match v {
        SemanticValue::ToolCall(c) => c.call_id.as_deref(),
        SemanticValue::ShellCall(c) => c.call_id.as_deref(),
        _ => None,
    }
}

fn loop_header(position: u32, ctx: &Context<'_>) -> Markup {
    let info = ctx.loops.iter().find(|l| l.position == i64::from(position));
    let tokens = info.and_then(|l| match (l.input_tokens, l.output_tokens) {
        (Some(i), Some(o)) => Some(format!("{i} in · {o} out tokens")),
        _ => None,
    });
    html! {
        div.loop id={"loop-" (position)} {
            span.loop-name { "Loop " (position + 1) }
            @if let Some(l) = info {
                @if let Some(o) = &l.outcome { span class={"outcome o-" (o)} { (o) } }
                @if let Some(m) = &l.model { span.model { (m) } }
                @if let Some(t) = &tokens { span.tokens { (t) } }
                (time(ctx.clock, l.started_at.as_deref()))
            }
        }
    }
}

fn role_class(role: &str) -> String {
    role.replace('.', "-")
}

fn row(item: &Item, index: usize, output: Option<&Item>, ctx: &Context<'_>) -> Markup {
    let role = item.semantic.role.as_str();
    let findings = ctx.findings.get(item.key.as_str());
    html! {
        article class={"item r-" (role_class(role))} id=(item_anchor(&item.key)) data-key=(item.key) data-index=(index) {
            header {
                span.role { (labels::role(role)) }
                (time(ctx.clock, item.at.as_deref()))
                @if let Some(r) = item.records.first() {
                    a.raw href={"/raw?source=" (enc(r.source.as_str())) "&position=" (r.position)} title="the native record this came from" { "record" }
                }
            }
            div.body { (body(item, output, findings.map(Vec::as_slice).unwrap_or(&[]), ctx)) }
        }
    }
}

fn body(item: &Item, output: Option<&Item>, findings: &[&FindingRow], ctx: &Context<'_>) -> Markup {
    match &item.semantic.value {
        SemanticValue::Text(t) => text_with_claims(t, item, findings, ctx),
        SemanticValue::Reasoning(r) => html! {
            details.reasoning {
                summary { "thinking" @if let Some(t) = &r.text { " · " (size(t.byte_len)) } @else { " (not readable)" } }
                @if let Some(t) = &r.text { (long_text(t, item, ctx)) }
            }
        },
        SemanticValue::ShellCall(c) => {
            let patch = diff::shell_patch(&c.command);
            html! {
                details.call open[output_failed(output)] {
                    summary { code.command { "$ " (first_line(&c.command)) } (status(output)) }
                    @if c.command.contains('\n') && patch.is_none() { pre.args { (c.command) } }
                    @if let Some(p) = &patch { (diff::render(p)) }
                    @if let Some(o) = output { (output_block(o, ctx)) }
                }
                (nested_child(c.call_id.as_deref(), ctx))
            }
        }
        SemanticValue::ToolCall(c) => {
            let edits = diff::edits(&c.name, &c.arguments);
            html! {
                details.call open[output_failed(output) || !edits.is_empty()] {
                    summary { span.tool { (c.name) } " " span.arg { (key_argument(&c.arguments)) } (status(output)) }
                    @if edits.is_empty() {
                        @let args = serde_json::to_string_pretty(&c.arguments).unwrap_or_default();
                        @let (shown, hidden) = cut(&args, TEXT_CUT);
                        pre.args { (shown) @if hidden > 0 { "\n… " (size(hidden as u64)) " more" } }
                    }
                    @for e in &edits { (diff::render(e)) }
                    @if let Some(o) = output { (output_block(o, ctx)) }
                }
                (nested_child(c.call_id.as_deref(), ctx))
            }
        }
        SemanticValue::ToolOutput(_) => html! {
            details.call.orphan open[output_failed(Some(item))] {
                summary { "output" (status(Some(item))) }
                (output_block(item, ctx))
            }
        },
        SemanticValue::Delegation(d) => html! {
            p.delegation { "Delegated to " strong { (d.agent_type.as_deref().or(d.agent_id.as_deref()).unwrap_or("a subagent")) } }
            (nested_child(d.call_id.as_deref(), ctx))
        },
        SemanticValue::Subagent(s) => html! {
            p.subagent {
                "Subagent " strong { (s.agent_type.as_deref().or(s.agent_id.as_deref()).unwrap_or("")) }
                @if let Some(st) = &s.status { " · " (st) }
            }
            @if let Some(t) = &s.text { (text_with_claims(t, item, findings, ctx)) }
        },
    }
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or("")
}

/// The argument that says what a call is about (a path, a command, a pattern, a URL).
fn key_argument(args: &serde_json::Value) -> String {
    for k in [
        "file_path",
        "filePath",
        "path",
        "command",
        "cmd",
        "pattern",
        "query",
        "url",
        "description",
        "prompt",
    ] {
        if let Some(v) = args.get(k).and_then(|v| v.as_str()) {
            return crate::present::text::shorten(v, 120);
        }
    }
    String::new()
}

fn output_value(o: &Item) -> Option<&ToolOutputValue> {
    match &o.semantic.value {
        SemanticValue::ToolOutput(v) => Some(v),
        _ => None,
    }
}

fn output_failed(output: Option<&Item>) -> bool {
    output
        .and_then(output_value)
        .is_some_and(|o| o.failed == Some(true) || o.exit_code.is_some_and(|e| e.code != 0))
}

/// Exit status and flags of a call's output, as small chips.
fn status(output: Option<&Item>) -> Markup {
    let Some(o) = output.and_then(output_value) else {
        return html! {};
    };
    html! {
        span.status {
            @if let Some(e) = o.exit_code {
                @let derived = e.strength == fornax_types::EvidenceStrength::Heuristic;
                span class={"chip " (if e.code == 0 { "ok" } else { "bad" })}
                    title=(if derived { "exit code derived (the runtime did not record the number)" } else { "exit code recorded by the runtime" }) {
                    "exit " (e.code) @if derived { "*" }
                }
            }
            @if o.failed == Some(true) { span.chip.bad { "failed" } }
            @if o.interrupted == Some(true) { span.chip.warn { "interrupted" } }
            @if let Some(ms) = o.duration_ms { span.chip { (format!("{:.1} s", ms as f64 / 1000.0)) } }
        }
    }
}

fn output_block(o: &Item, ctx: &Context<'_>) -> Markup {
    let Some(v) = output_value(o) else {
        return html! {};
    };
    html! {
        @if let Some(t) = &v.text { (output_text(t, o, "output", ctx)) }
        @if let Some(t) = &v.stderr { (output_text(t, o, "stderr", ctx)) }
        @if v.runtime_truncated == Some(true) { p.note { "The agent's runtime shortened this output before recording it." } }
    }
}

/// An output: whole when short, else its head and tail with a "show all" link.
fn output_text(t: &TextValue, item: &Item, which: &str, ctx: &Context<'_>) -> Markup {
    let text = t.text.as_str();
    let href = format!("/s/{}/text/{}?part={which}", ctx.session_id, enc(&item.key));
    if text.len() <= OUTPUT_HEAD + OUTPUT_TAIL {
        return html! { pre class={"output " (which)} { (text) } @if t.truncated { (stored_cut(t)) } };
    }
    let (head, _) = cut(text, OUTPUT_HEAD);
    let mut tail_start = text.len() - OUTPUT_TAIL;
    while !text.is_char_boundary(tail_start) {
        tail_start += 1;
    }
    let hidden = tail_start - head.len();
    html! {
        pre class={"output " (which)} data-full=(href) {
            (head)
            span.elided { "\n… " (size(hidden as u64)) " not shown … " }
            (&text[tail_start..])
        }
        a.show-all href=(href) data-target="prev" { "show all " (size(t.byte_len)) }
        @if t.truncated { (stored_cut(t)) }
    }
}

fn stored_cut(t: &TextValue) -> Markup {
    html! { p.note { "Fornax kept " (size(t.text.len() as u64)) " of " (size(t.byte_len)) " (its head and tail)." } }
}

fn long_text(t: &TextValue, item: &Item, ctx: &Context<'_>) -> Markup {
    let (shown, hidden) = cut(&t.text, TEXT_CUT);
    let href = format!("/s/{}/text/{}", ctx.session_id, enc(&item.key));
    html! {
        div.text data-full=(href) { (shown) }
        @if hidden > 0 { a.show-all href=(href) data-target="prev" { "show all " (size(t.byte_len)) } }
    }
}

/// Agent text with each claim marked where it was said, its verdict beside it; a claim the
/// text does not hold word for word is listed under it.
fn text_with_claims(
    t: &TextValue,
    item: &Item,
    findings: &[&FindingRow],
    ctx: &Context<'_>,
) -> Markup {
    let text = t.text.as_str();
    if findings.is_empty() || text.len() > TEXT_CUT {
        return html! { (long_text(t, item, ctx)) (claim_list(findings)) };
    }
    let mut spans: Vec<(usize, usize, &FindingRow)> = Vec::new();
    let mut unplaced: Vec<&FindingRow> = Vec::new();
    for f in findings {
        let claim = f.claim["text"].as_str().unwrap_or("").trim();
        let found = (!claim.is_empty())
            .then(|| text.find(claim))
            .flatten()
            .filter(|s| {
                !spans
                    .iter()
                    .any(|(a, b, _)| *s < *b && s + claim.len() > *a)
            });
        match found {
            Some(s) => spans.push((s, s + claim.len(), f)),
            None => unplaced.push(f),
        }
    }
    spans.sort_by_key(|(s, _, _)| *s);
    let mut at = 0;
    html! {
        div.text {
            @for (s, e, f) in &spans {
                (&text[at..*s])
                ({ at = *e; claim_mark(&text[*s..*e], f) })
            }
            (&text[at..])
        }
        (claim_list(&unplaced))
    }
}

fn claim_mark(text: &str, f: &FindingRow) -> Markup {
    let slug =
        fornax_types::Verdict::parse(&f.verdict).map_or("unknown", crate::present::verdict::slug);
    let href = finding_href(f.session_id, &f.claim_key);
    let reason = reason(f);
    html! {
        a class={"claim v-" (slug)} href=(href) data-panel title=(reason) {
            (text) " " (badge(&f.verdict))
        }
    }
}

fn claim_list(findings: &[&FindingRow]) -> Markup {
    html! {
        @if !findings.is_empty() {
            ul.claims {
                @for f in findings {
                    li {
                        a.claim-link href=(finding_href(f.session_id, &f.claim_key)) data-panel {
                            (badge(&f.verdict)) " “" (f.claim["text"].as_str().unwrap_or("")) "”"
                        }
                    }
                }
            }
        }
    }
}

/// The finding's reason in words (no evidence ids).
pub fn reason(f: &FindingRow) -> String {
    let ids: Vec<&str> = f.evidence.iter().map(|e| e.id.as_str()).collect();
    rationale::readable(&f.rationale(), &ids)
}

/// A subagent's timeline under the call that started it, loaded when opened.
fn nested_child(call_id: Option<&str>, ctx: &Context<'_>) -> Markup {
    let child = ctx
        .children
        .iter()
        .find(|c| call_id.is_some() && c.parent_call_id.as_deref() == call_id);
    match child {
        Some(c) => child_block(c),
        None => html! {},
    }
}

pub fn child_block(c: &ChildSession) -> Markup {
    html! {
        details.subagent-timeline data-src={"/s/" (c.id) "/items?nested=1&limit=" (PAGE)} {
            summary {
                "Subagent " strong { (c.agent_type.as_deref().or(c.agent_id.as_deref()).unwrap_or(&c.native_id)) }
                " · " (c.items) " items · "
                a href={"/s/" (c.id)} { "open" }
            }
            div.nested { p.loading { "Opening…" } }
        }
    }
}
