//! Loops: where a unit of work opens, how it ends, and what it cost.
//!
//! * `task_started` opens a loop (or adopts the one a just-seen human message or
//!   `turn_context` opened); `task_complete` ends it completed (failed when it carries an
//!   error), `turn_aborted` interrupted (failed when an error was reported in the loop).
//! * Rollouts that persist no turn boundaries (legacy, 0.6x–0.9x) open a loop at the first
//!   `turn_context` or human request while none is open, and a new human request closes the
//!   previous loop without an outcome: the file never says how it ended.
//! * Usage is the sum of `token_count.info.last_token_usage` within the loop. Codex repeats a
//!   `token_count` with unchanged session totals; such a repeat is not summed again.
//! * Each `token_count` is also one usage fact: the step of the session-cumulative
//!   `total_token_usage` since the previous report (the first report of a file, with nothing
//!   before it, counts its `last_token_usage`), keyed by the session and the cumulative total,
//!   so a resumed or copied rollout that repeats a report repeats its key.

use fornax_types::{IngestMessage, Loop, LoopEnd, LoopOutcome, TokenCounts, Usage, UsageFact};
use serde_json::Value;

use crate::adapter::{CodexAdapter, Ctx, Handled};
use crate::state::{LoopState, Scope};
use crate::text::{nonempty, str_of};

impl CodexAdapter {
    /// Opens a new loop at this record, closing (without an outcome) any loop still open.
    pub(crate) fn open_loop(&mut self, cx: &mut Ctx<'_>, native_id: Option<String>) {
        self.close_implicitly(cx);
        let position = self.st.next_loop;
        self.st.next_loop = self.st.next_loop.saturating_add(1);
        let lp = Loop {
            session: self.session_ref(),
            position,
            native_id,
            start_record: cx.record.clone(),
            started_at: cx.at.clone(),
            end: None,
            model: self.st.model.clone(),
            usage: None,
            runtime_version: self.st.version.clone(),
        };
        cx.out.push(IngestMessage::Loop(lp.clone()));
        self.st.current = Some(LoopState {
            lp,
            bound_to_task: false,
            has_human: false,
            has_agent_activity: false,
            error_seen: false,
            scope: Scope::new(position.to_string()),
        });
    }

    fn close_implicitly(&mut self, cx: &mut Ctx<'_>) {
        if let Some(l) = self.st.current.take() {
            cx.out.push(IngestMessage::Loop(l.lp.clone()));
            self.st.last = Some(l);
        }
    }

    fn end_loop(&mut self, outcome: LoopOutcome, cx: &mut Ctx<'_>) -> Handled {
        let Some(mut l) = self.st.current.take() else {
            return Handled::Ignored("turn end without an open loop");
        };
        l.lp.end = Some(LoopEnd {
            record: cx.record.clone(),
            outcome,
            ended_at: cx.at.clone(),
        });
        cx.out.push(IngestMessage::Loop(l.lp.clone()));
        self.st.last = Some(l);
        Handled::Done
    }

    pub(crate) fn turn_context(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let model = nonempty(p, "model")
            .or_else(|| {
                p.get("collaboration_mode")
                    .and_then(|c| c.get("settings"))
                    .and_then(|s| nonempty(s, "model"))
            })
            .map(str::to_string);
        if model.is_some() {
            self.st.model = model.clone();
        }
        let turn_id = nonempty(p, "turn_id").map(str::to_string);
        match &mut self.st.current {
            None => {
                self.open_loop(cx, turn_id);
                Handled::Done
            }
            Some(l) => {
                if l.lp.model.is_none() {
                    l.lp.model = model;
                }
                if l.lp.native_id.is_none() && !l.has_agent_activity {
                    l.lp.native_id = turn_id;
                }
                Handled::Ignored("turn context of the open loop")
            }
        }
    }

    pub(crate) fn task_started(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let turn_id = nonempty(p, "turn_id").map(str::to_string);
        if let Some(l) = &mut self.st.current {
            let same_turn = turn_id.is_some() && l.lp.native_id == turn_id;
            if !l.bound_to_task && (!l.has_agent_activity || same_turn) {
                l.bound_to_task = true;
                if l.lp.native_id.is_none() && turn_id.is_some() {
                    l.lp.native_id = turn_id;
                    cx.out.push(IngestMessage::Loop(l.lp.clone()));
                    return Handled::Done;
                }
                return Handled::Ignored("turn start of the loop already open");
            }
        }
        self.open_loop(cx, turn_id);
        if let Some(l) = &mut self.st.current {
            l.bound_to_task = true;
        }
        Handled::Done
    }

    pub(crate) fn task_complete(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        if self.st.current.is_none() {
            return Handled::Ignored("turn end without an open loop");
        }
        if let Some(text) = str_of(p, "last_agent_message") {
            self.promote_final(text, cx);
        }
        let failed = p.get("error").is_some_and(|e| !e.is_null());
        self.end_loop(
            if failed {
                LoopOutcome::Failed
            } else {
                LoopOutcome::Completed
            },
            cx,
        )
    }

    pub(crate) fn turn_aborted(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let errored = self.st.current.as_ref().is_some_and(|l| l.error_seen)
            || str_of(p, "reason") == Some("error");
        self.end_loop(
            if errored {
                LoopOutcome::Failed
            } else {
                LoopOutcome::Interrupted
            },
            cx,
        )
    }

    /// `token_count`: adds the last request's usage to the open loop (or to the loop that just
    /// ended, re-publishing it, when the report arrives after the loop's end).
    pub(crate) fn token_count(&mut self, p: &Value, cx: &mut Ctx<'_>) -> Handled {
        let Some(info) = p.get("info").filter(|i| i.is_object()) else {
            return Handled::Ignored("rate-limit update without usage");
        };
        let total = info.get("total_token_usage").and_then(usage_of);
        if total.is_some() && total == self.st.last_total {
            return Handled::Ignored("repeated token_count (session totals unchanged)");
        }
        if total.is_some() {
            self.st.last_total = total;
        }
        self.usage_fact(info, cx);
        let Some(last) = info.get("last_token_usage").and_then(usage_of) else {
            return Handled::Ignored("token_count without per-request usage");
        };
        if let Some(l) = &mut self.st.current {
            l.lp.usage
                .get_or_insert_with(Usage::default)
                .accumulate(&last);
            return Handled::Ignored("usage added to the open loop");
        }
        if let Some(l) = &mut self.st.last {
            l.lp.usage
                .get_or_insert_with(Usage::default)
                .accumulate(&last);
            cx.out.push(IngestMessage::Loop(l.lp.clone()));
            return Handled::Done;
        }
        Handled::Ignored("usage reported before any loop")
    }

    /// Emits the usage fact of one (not repeated) `token_count`.
    fn usage_fact(&mut self, info: &Value, cx: &mut Ctx<'_>) {
        let total = info.get("total_token_usage").and_then(counts_of);
        let last = info.get("last_token_usage").and_then(counts_of);
        let step = match (total, self.st.last_counts) {
            (Some(t), Some(prev)) if t.total() >= prev.total() => Some(t.minus(&prev)),
            _ => last.or(total),
        };
        if total.is_some() {
            self.st.last_counts = total;
        }
        let Some(tokens) = step.filter(|t| !t.is_zero()) else {
            return;
        };
        let session = self.session_ref();
        let key = match total {
            Some(t) => format!(
                "{}:total:{}:{}:{}",
                session.native_id,
                t.total(),
                t.output,
                t.cache_read
            ),
            None => format!("{}:{}", session.native_id, cx.positional_key("usage")),
        };
        let loop_position = self
            .st
            .current
            .as_ref()
            .or(self.st.last.as_ref())
            .map(|l| l.lp.position);
        cx.out.push(IngestMessage::Usage(UsageFact {
            session,
            key,
            loop_position,
            at: cx.at.clone(),
            model: self.st.model.clone(),
            tokens,
            reported_cost_usd: None,
            record: cx.record.clone(),
        }));
    }

    pub(crate) fn mark_error(&mut self) {
        if let Some(l) = &mut self.st.current {
            l.error_seen = true;
        }
    }
}

/// One usage observation. A cached or reasoning count is kept only next to the total it is
/// part of and not above it, so that sums keep the `Usage` invariants.
fn usage_of(v: &Value) -> Option<Usage> {
    let get = |k: &str| v.get(k).and_then(Value::as_u64);
    let input = get("input_tokens");
    let output = get("output_tokens");
    let cached = get("cached_input_tokens").filter(|c| input.is_some_and(|i| *c <= i));
    let reasoning = get("reasoning_output_tokens").filter(|r| output.is_some_and(|o| *r <= o));
    let usage = Usage {
        input_tokens: input,
        cached_input_tokens: cached,
        output_tokens: output,
        reasoning_output_tokens: reasoning,
    };
    (!usage.is_empty()).then_some(usage)
}

/// One usage observation as disjoint token kinds: Codex's `input_tokens` includes
/// `cached_input_tokens` (and `cache_write_input_tokens` where written), which are taken out.
fn counts_of(v: &Value) -> Option<TokenCounts> {
    if !v.is_object() {
        return None;
    }
    let get = |k: &str| v.get(k).and_then(Value::as_u64).unwrap_or(0);
    let input = get("input_tokens");
    let cache_read = get("cached_input_tokens").min(input);
    let cache_creation = get("cache_write_input_tokens").min(input - cache_read);
    let output = get("output_tokens");
    Some(TokenCounts {
        input: input - cache_read - cache_creation,
        output,
        cache_creation,
        cache_read,
        reasoning: v
            .get("reasoning_output_tokens")
            .and_then(Value::as_u64)
            .map(|r| r.min(output)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn usage_keeps_invariants() {
        let u = usage_of(&json!({"input_tokens": 10, "cached_input_tokens": 20, "output_tokens": 5, "reasoning_output_tokens": 3})).unwrap();
        assert_eq!(u.cached_input_tokens, None);
        assert_eq!(u.reasoning_output_tokens, Some(3));
        assert!(u.validate().is_ok());
        let u = usage_of(&json!({"cached_input_tokens": 20})).unwrap_or_default();
        assert!(u.is_empty());
        assert!(usage_of(&json!("x")).is_none());
    }
}
