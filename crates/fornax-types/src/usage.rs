//! Usage facts: the tokens of one model call, as the runtime reported them, with the key that
//! makes the same call seen twice count once.
//!
//! A [`UsageFact`] is emitted per model call (an API response, a Codex `token_count` delta, an
//! opencode or Pi assistant message, a Gemini reply). Loops keep their own summed
//! [`Usage`](crate::Usage); facts exist so that usage can be grouped by time, model and session
//! and de-duplicated across files: two facts of one provider with the same `key` are the same
//! call, whichever file or hook carried them.
//!
//! Token kinds are disjoint, so that a price per kind applies to each once: `input` counts only
//! prompt tokens that were neither written to nor read from a cache; `reasoning` is a part of
//! `output`, reported only where the runtime states it.

use serde::{Deserialize, Serialize};

use crate::{RecordRef, SessionRef};

/// Tokens of one model call by kind. Kinds are disjoint except `reasoning ⊂ output`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenCounts {
    /// Prompt tokens neither written to nor read from a cache.
    #[serde(default)]
    pub input: u64,
    #[serde(default)]
    pub output: u64,
    /// Prompt tokens written to a cache (billed above input).
    #[serde(default)]
    pub cache_creation: u64,
    /// Prompt tokens read from a cache (billed below input).
    #[serde(default)]
    pub cache_read: u64,
    /// Reasoning tokens, part of `output`; `None` when the runtime does not say.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning: Option<u64>,
}

impl TokenCounts {
    /// Every token of the call: input, output and both cache kinds (reasoning is inside output).
    pub fn total(&self) -> u64 {
        self.input
            .saturating_add(self.output)
            .saturating_add(self.cache_creation)
            .saturating_add(self.cache_read)
    }

    pub fn is_zero(&self) -> bool {
        self.total() == 0 && self.reasoning.unwrap_or(0) == 0
    }

    /// Field-wise saturating difference `self - earlier` (a cumulative counter's step).
    pub fn minus(&self, earlier: &TokenCounts) -> TokenCounts {
        TokenCounts {
            input: self.input.saturating_sub(earlier.input),
            output: self.output.saturating_sub(earlier.output),
            cache_creation: self.cache_creation.saturating_sub(earlier.cache_creation),
            cache_read: self.cache_read.saturating_sub(earlier.cache_read),
            reasoning: match (self.reasoning, earlier.reasoning) {
                (Some(a), b) => Some(a.saturating_sub(b.unwrap_or(0))),
                (None, _) => None,
            },
        }
    }
}

/// The usage of one model call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct UsageFact {
    /// The session that made the call (a subagent's own session for a subagent's call).
    pub session: SessionRef,
    /// Identity of the call within its provider: the same key seen again (a repeated line, a
    /// resumed or copied file, a hook payload) is the same call and replaces, never adds.
    pub key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub loop_position: Option<u32>,
    /// The runtime's timestamp of the call (RFC 3339), when it wrote one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    pub tokens: TokenCounts,
    /// The cost the runtime itself computed for this call, in US dollars, when it wrote one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reported_cost_usd: Option<f64>,
    /// The record the counts were read from.
    pub record: RecordRef,
}

/// Usage summed over one bucket (a day, a month, an hour, a session), one provider and one
/// model: what the store answers and the reports price. Calls whose prompt exceeded
/// [`LONG_CONTEXT_PROMPT_TOKENS`] are a group of their own (`long_context`), since a
/// long-context price applies to the whole call.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct UsageGroup {
    pub bucket: String,
    pub provider: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    #[serde(default)]
    pub long_context: bool,
    pub tokens: TokenCounts,
    pub calls: u64,
    /// Sum of the costs the runtime reported itself, over `reported_calls` calls.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reported_cost_usd: Option<f64>,
    #[serde(default)]
    pub reported_calls: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_at: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_at: Option<String>,
    /// For a session bucket: its parent session (a subagent's), its working directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub project: Option<String>,
}

/// The prompt size above which a call is priced at a model's long-context tier.
pub const LONG_CONTEXT_PROMPT_TOKENS: u64 = 200_000;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cumulative_step_is_the_difference_and_never_negative() {
        let before = TokenCounts {
            input: 100,
            output: 10,
            cache_read: 50,
            reasoning: Some(4),
            ..TokenCounts::default()
        };
        let after = TokenCounts {
            input: 130,
            output: 25,
            cache_read: 40,
            reasoning: Some(9),
            ..TokenCounts::default()
        };
        let step = after.minus(&before);
        assert_eq!(step.input, 30);
        assert_eq!(step.output, 15);
        assert_eq!(step.cache_read, 0);
        assert_eq!(step.reasoning, Some(5));
        assert_eq!(after.total(), 195);
    }
}
