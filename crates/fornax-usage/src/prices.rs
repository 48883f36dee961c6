//! The price table: US dollars per million tokens, per model family and token kind, with an
//! optional long-context tier. Compiled in (`prices.json`, dated) and overridable by a file of
//! the same shape whose entries are looked up first.

use serde::{Deserialize, Serialize};

use fornax_types::{TokenCounts, LONG_CONTEXT_PROMPT_TOKENS};

const BUILTIN: &str = include_str!("prices.json");

/// Rates of one tier, in USD per million tokens.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Rates {
    pub input: f64,
    pub output: f64,
    pub cache_creation: f64,
    pub cache_read: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LongContext {
    /// Prompt tokens (input + cache writes + cache reads) above which the tier applies.
    pub threshold: u64,
    #[serde(flatten)]
    pub rates: Rates,
}

/// One model family's prices, with where they were read and the date they took effect.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModelPrice {
    pub family: String,
    /// Name prefixes this entry prices (after normalization, see [`PriceTable::lookup`]).
    #[serde(rename = "match")]
    pub matches: Vec<String>,
    #[serde(default)]
    pub source: String,
    #[serde(default)]
    pub date: String,
    #[serde(flatten)]
    pub rates: Rates,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub long_context: Option<LongContext>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct TableFile {
    version: String,
    #[serde(default)]
    models: Vec<ModelPrice>,
}

#[derive(Debug, thiserror::Error)]
pub enum PriceError {
    #[error("price table {origin}: {source}")]
    Parse {
        origin: String,
        source: serde_json::Error,
    },
    #[error("price table {origin}: model {family}: {problem}")]
    Invalid {
        origin: String,
        family: String,
        problem: String,
    },
}

/// The compiled-in table, optionally with an override in front of it.
#[derive(Debug, Clone, PartialEq)]
pub struct PriceTable {
    version: String,
    models: Vec<ModelPrice>,
    override_version: Option<String>,
    overrides: Vec<ModelPrice>,
}

impl PriceTable {
    /// The table compiled into this binary.
    pub fn builtin() -> PriceTable {
        let file = parse(BUILTIN, "built-in").expect("the built-in price table is valid");
        PriceTable {
            version: file.version,
            models: file.models,
            override_version: None,
            overrides: Vec::new(),
        }
    }

    /// The built-in table with the entries of an override file (same shape) looked up first.
    pub fn with_override(mut self, text: &str, origin: &str) -> Result<PriceTable, PriceError> {
        let file = parse(text, origin)?;
        self.override_version = Some(file.version);
        self.overrides = file.models;
        Ok(self)
    }

    /// The built-in table's date.
    pub fn version(&self) -> &str {
        &self.version
    }

    pub fn override_version(&self) -> Option<&str> {
        self.override_version.as_deref()
    }

    /// Every entry, overrides first.
    pub fn entries(&self) -> impl Iterator<Item = &ModelPrice> {
        self.overrides.iter().chain(self.models.iter())
    }

    /// The price of a model as a runtime names it. Names are lowercased and lose a provider
    /// prefix (`anthropic/`, `models/`) and a version suffix after `@`; the longest matching
    /// prefix wins (`gpt-5-mini` before `gpt-5`), where a prefix must end at the name's end or
    /// before `-`, `:` or `@` (so `gpt-5` does not price `gpt-5.2`). Overrides win over the
    /// built-in entries whatever their length.
    pub fn lookup(&self, model: &str) -> Option<&ModelPrice> {
        let name = normalize(model);
        best(&self.overrides, &name).or_else(|| best(&self.models, &name))
    }

    /// The cost of `tokens` of `model`, priced at the long-context tier when `long_context`
    /// (every call in the group had a prompt above the tier's threshold); `None` for a model
    /// the table does not know.
    pub fn cost(&self, model: &str, tokens: &TokenCounts, long_context: bool) -> Option<f64> {
        Some(Self::cost_at(self.lookup(model)?, tokens, long_context))
    }

    /// [`PriceTable::cost`] at a price already looked up.
    pub fn cost_at(price: &ModelPrice, tokens: &TokenCounts, long_context: bool) -> f64 {
        let rates = match (&price.long_context, long_context) {
            (Some(lc), true) => &lc.rates,
            _ => &price.rates,
        };
        (tokens.input as f64 * rates.input
            + tokens.output as f64 * rates.output
            + tokens.cache_creation as f64 * rates.cache_creation
            + tokens.cache_read as f64 * rates.cache_read)
            / 1_000_000.0
    }
}

fn parse(text: &str, origin: &str) -> Result<TableFile, PriceError> {
    let file: TableFile = serde_json::from_str(text).map_err(|source| PriceError::Parse {
        origin: origin.to_string(),
        source,
    })?;
    for m in &file.models {
        let invalid = |problem: &str| PriceError::Invalid {
            origin: origin.to_string(),
            family: m.family.clone(),
            problem: problem.to_string(),
        };
        if m.matches.iter().all(|p| p.trim().is_empty()) {
            return Err(invalid("no name to match"));
        }
        let mut rates = vec![m.rates];
        if let Some(lc) = &m.long_context {
            if lc.threshold != LONG_CONTEXT_PROMPT_TOKENS {
                return Err(invalid(&format!(
                    "long-context threshold {} (only {LONG_CONTEXT_PROMPT_TOKENS} is supported)",
                    lc.threshold
                )));
            }
            rates.push(lc.rates);
        }
        let fine = |r: f64| r.is_finite() && r >= 0.0;
        if !rates.iter().all(|r| {
            fine(r.input) && fine(r.output) && fine(r.cache_creation) && fine(r.cache_read)
        }) {
            return Err(invalid("a rate is negative or not a number"));
        }
    }
    Ok(file)
}

fn normalize(model: &str) -> String {
    let name = model.trim().to_ascii_lowercase();
    let name = name.rsplit('/').next().unwrap_or(&name);
    let name = name.split('@').next().unwrap_or(name);
    name.to_string()
}

fn best<'a>(entries: &'a [ModelPrice], name: &str) -> Option<&'a ModelPrice> {
    entries
        .iter()
        .filter_map(|e| {
            e.matches
                .iter()
                .map(|p| p.to_ascii_lowercase())
                .filter(|p| {
                    name.strip_prefix(p.as_str())
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with(['-', ':', '@']))
                })
                .map(|p| p.len())
                .max()
                .map(|len| (len, e))
        })
        .max_by_key(|(len, _)| *len)
        .map(|(_, e)| e)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(input: u64, output: u64, cc: u64, cr: u64) -> TokenCounts {
        TokenCounts {
            input,
            output,
            cache_creation: cc,
            cache_read: cr,
            reasoning: None,
        }
    }

    #[test]
    fn every_builtin_entry_is_documented_and_dated() {
        let t = PriceTable::builtin();
        assert!(t.version().len() == 10, "the table is dated YYYY-MM-DD");
        for m in t.entries() {
            assert!(
                m.source.starts_with("https://"),
                "{} has no source",
                m.family
            );
            assert_eq!(m.date.len(), 10, "{} has no date", m.family);
            assert!(m.rates.output >= m.rates.input, "{}", m.family);
            assert!(m.rates.cache_read <= m.rates.input, "{}", m.family);
        }
    }

    #[test]
    fn names_resolve_to_the_longest_family_at_a_boundary() {
        let t = PriceTable::builtin();
        let family = |m: &str| t.lookup(m).map(|p| p.family.as_str());
        assert_eq!(family("claude-opus-4-5-20251101"), Some("claude-opus-4-5"));
        assert_eq!(family("claude-opus-4-20250514"), Some("claude-opus-4"));
        assert_eq!(family("claude-haiku-4.5"), Some("claude-haiku-4-5"));
        assert_eq!(
            family("anthropic/claude-sonnet-4-5"),
            Some("claude-sonnet-4-5")
        );
        assert_eq!(
            family("claude-sonnet-4-5@20250929"),
            Some("claude-sonnet-4-5")
        );
        assert_eq!(family("gpt-5.2-codex"), Some("gpt-5.2"));
        assert_eq!(family("gpt-5-codex"), Some("gpt-5"));
        assert_eq!(family("gpt-5-mini"), Some("gpt-5-mini"));
        assert_eq!(family("o3-mini"), Some("o3-mini"));
        assert_eq!(
            family("gemini-2.5-flash-lite"),
            Some("gemini-2.5-flash-lite")
        );
        assert_eq!(
            family("gpt-5.6-sol"),
            None,
            "an unknown model is not guessed"
        );
        assert_eq!(family("claude-fable-5"), None);
        assert_eq!(family("<synthetic>"), None);
    }

    /// Arithmetic on published rates: Opus 4.5 at $5 / $25 / $6.25 / $0.50 per million.
    #[test]
    fn cost_is_tokens_times_rates_per_kind() {
        let t = PriceTable::builtin();
        let c = t
            .cost(
                "claude-opus-4-5-20251101",
                &tokens(77, 1380, 108_257, 9_635_762),
                false,
            )
            .unwrap();
        let expected = (77.0 * 5.0 + 1380.0 * 25.0 + 108_257.0 * 6.25 + 9_635_762.0 * 0.5) / 1e6;
        assert!((c - expected).abs() < 1e-9, "{c} != {expected}");
        assert!(t.cost("gpt-5.6-sol", &tokens(1, 1, 0, 0), false).is_none());
    }

    #[test]
    fn long_context_calls_use_the_higher_tier() {
        let t = PriceTable::builtin();
        let tk = tokens(250_000, 1_000, 0, 0);
        let base = t.cost("claude-sonnet-4-5", &tk, false).unwrap();
        let long = t.cost("claude-sonnet-4-5", &tk, true).unwrap();
        assert!((base - (250_000.0 * 3.0 + 1_000.0 * 15.0) / 1e6).abs() < 1e-9);
        assert!((long - (250_000.0 * 6.0 + 1_000.0 * 22.5) / 1e6).abs() < 1e-9);
        // A family without a tier keeps its rates.
        let h = t.cost("claude-haiku-4-5", &tk, true).unwrap();
        assert!((h - (250_000.0 * 1.0 + 1_000.0 * 5.0) / 1e6).abs() < 1e-9);
    }

    #[test]
    fn an_override_wins_and_bad_files_are_named() {
        let o = r#"{"version":"test-1","models":[{"family":"mine","match":["claude-opus-4-5"],
            "input":1,"output":2,"cache_creation":3,"cache_read":4},
            {"family":"new","match":["gpt-5.6-sol"],"input":1,"output":1,"cache_creation":1,"cache_read":1}]}"#;
        let t = PriceTable::builtin()
            .with_override(o, "prices.json")
            .unwrap();
        assert_eq!(t.override_version(), Some("test-1"));
        assert_eq!(t.lookup("claude-opus-4-5-20251101").unwrap().family, "mine");
        assert_eq!(t.lookup("gpt-5.6-sol").unwrap().family, "new");
        assert_eq!(
            t.lookup("claude-haiku-4-5").unwrap().family,
            "claude-haiku-4-5"
        );

        let err = PriceTable::builtin()
            .with_override("{", "home/prices.json")
            .unwrap_err();
        assert!(err.to_string().contains("home/prices.json"), "{err}");
        let neg = r#"{"version":"x","models":[{"family":"bad","match":["m"],"input":-1,"output":1,"cache_creation":1,"cache_read":1}]}"#;
        let err = PriceTable::builtin().with_override(neg, "p").unwrap_err();
        assert!(err.to_string().contains("bad"), "{err}");
    }
}
